//! Table files (header and payload) from hostile bytes.
//!
//! The first input byte is a mode: if its low bit is set, the rest gets
//! valid checksums written into it before parsing, so the fuzzer reaches the
//! field checks behind them. Invariants, for both format versions: nothing
//! panics; a file that parses re-serializes to the same header bytes; its
//! stored bytes decode to exactly one per slot (format 1: the payload
//! itself) or give an error, and each slot read alone agrees with them;
//! every probe of its positions answers or gives an error, and the
//! win/draw/loss probe answers unless a capture draw needs a missing table.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use std::sync::{Mutex, OnceLock};
use surakarta_index::Indexer;
use surakarta_tablebase::{format, Directories, Table, Tablebase, TablebaseError};

fn directories() -> &'static Mutex<Directories> {
    static CACHE: OnceLock<Mutex<Directories>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = rest.to_vec();
    if mode & 1 == 1 && bytes.len() >= format::HEADER_LEN {
        let payload = format::checksum(&bytes[format::HEADER_LEN..]);
        bytes[60..64].copy_from_slice(&payload.to_le_bytes());
        let header = crc32fast::hash(&bytes[..124]);
        bytes[124..128].copy_from_slice(&header.to_le_bytes());
    }
    let original = bytes.clone();
    let mut dirs = directories().lock().unwrap_or_else(|e| e.into_inner());
    let Ok(table) = Table::from_file_bytes(Path::new("fuzz.sktb"), bytes, &mut dirs) else {
        return;
    };
    drop(dirs);
    assert_eq!(table.header().to_bytes()[..], original[..format::HEADER_LEN]);
    let size = table.indexer().size();
    if table.format() == 1 {
        assert_eq!(
            table.payload().expect("checked table"),
            &original[format::HEADER_LEN..]
        );
    }
    let Ok(stored) = table.stored_bytes() else {
        // A compact body whose blocks do not decode: single reads may
        // still answer or fail, but never panic.
        for i in (0..size).step_by(97) {
            let _ = table.stored(i);
        }
        return;
    };
    assert_eq!(stored.len() as u64, size);
    for i in (0..size).step_by(7) {
        assert_eq!(table.stored(i).expect("decoded table"), stored[i as usize]);
    }
    let mut tablebase = Tablebase::new();
    let material = table.material();
    tablebase.insert(table);
    let table = tablebase.table(material).expect("inserted");
    // Smaller tables are missing: probes of stored wins may fail (their
    // captures cannot be resolved), but never panic. The win/draw/loss is
    // stored, except that with capture draws a stored loss may need the
    // captures' tables (then the error names the missing one).
    let capture_draws = table.capture_draws();
    table.indexer().for_each_in(0, u64::MAX, |_, sides| {
        let _ = tablebase.probe(sides);
        if let Err(e) = tablebase.probe_wdl(sides) {
            assert!(
                capture_draws && matches!(e, TablebaseError::MissingTable { .. }),
                "{e}"
            );
        }
    });
});
