//! Tables several tests read, generated once for the whole test binary.

use std::sync::OnceLock;
use surakarta_index::Scheme;
use surakarta_tablebase::{NoProgress, Tablebase};

/// Every class up to 5 pieces, byte per slot (format 1), symmetric index.
pub(crate) fn up_to_5() -> &'static Tablebase {
    static TABLES: OnceLock<Tablebase> = OnceLock::new();
    TABLES.get_or_init(|| generate(5))
}

/// Every class up to 6 pieces, byte per slot (format 1), symmetric index.
pub(crate) fn up_to_6() -> &'static Tablebase {
    static TABLES: OnceLock<Tablebase> = OnceLock::new();
    TABLES.get_or_init(|| generate(6))
}

/// The classes of [`up_to_6`] compacted (format 2) with the default
/// options, as `tb compress` writes them.
pub(crate) fn compact_up_to_6() -> &'static Tablebase {
    static TABLES: OnceLock<Tablebase> = OnceLock::new();
    TABLES.get_or_init(|| {
        let plain = up_to_6();
        let mut compact = Tablebase::new();
        for material in plain.materials() {
            compact.insert(plain.compacted(material).unwrap());
        }
        compact
    })
}

fn generate(pieces: u32) -> Tablebase {
    Tablebase::generate(pieces, Scheme::Symmetric, &NoProgress)
        .unwrap()
        .0
}

/// The files of a directory and their bytes, by name, but for its lock
/// file (which runs leave there).
pub(crate) fn contents(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.ends_with(surakarta_tablebase::LOCK_FILE_NAME))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}
