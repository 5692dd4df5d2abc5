//! Table files (header and payload) from hostile bytes.
//!
//! The first input byte is a mode: if its low bit is set, the rest gets
//! valid checksums written into it before parsing, so the fuzzer reaches the
//! field checks behind them. Invariants: nothing panics; a file that parses
//! re-serializes to the same header bytes, has exactly one payload byte per
//! slot of its class's index, every slot reads back, and its histogram and
//! every probe of its positions answer without error.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use std::sync::{Mutex, OnceLock};
use surakarta_index::Indexer;
use surakarta_tablebase::{file, Directories, Table};

fn directories() -> &'static Mutex<Directories> {
    static CACHE: OnceLock<Mutex<Directories>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = rest.to_vec();
    if mode & 1 == 1 && bytes.len() >= file::HEADER_LEN {
        let payload = file::checksum(&bytes[file::HEADER_LEN..]);
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
    assert_eq!(table.header().to_bytes()[..], original[..file::HEADER_LEN]);
    let payload = table.bytes().expect("checked table");
    assert_eq!(payload.len() as u64, table.indexer().size());
    assert_eq!(payload, &original[file::HEADER_LEN..]);
    for i in 0..table.indexer().size() {
        assert!(table.value_at(i).expect("checked table").is_some());
    }
    table.histogram().expect("histogram");
    table.indexer().for_each_in(0, u64::MAX, |_, sides| {
        table.probe(sides).expect("a position of the class probes");
    });
});
