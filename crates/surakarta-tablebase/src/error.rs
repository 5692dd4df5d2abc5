//! Errors of generation and probing.

use crate::file::FileProblem;
use std::path::{Path, PathBuf};
use surakarta_index::{IndexError, Material};

fn looked_in(dir: &Option<PathBuf>, material: &Material) -> String {
    match dir {
        Some(dir) => format!(
            " ({} not found)",
            dir.join(crate::file::file_name(*material)).display()
        ),
        None => String::new(),
    }
}

/// What went wrong in the tablebase.
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TablebaseError {
    /// A position's class has no table.
    #[error("no table for material {material}{}", looked_in(dir, material))]
    MissingTable {
        /// The class.
        material: Material,
        /// The directory the tables came from, if any.
        dir: Option<PathBuf>,
    },
    /// A table file is unreadable, damaged or not a table.
    #[error("{}: {problem}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: FileProblem,
    },
    /// A directory could not be read.
    #[error("{}: {message}", path.display())]
    Directory {
        /// The directory.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
    /// A position the tables cannot hold.
    #[error("position not in a table: {0}")]
    Index(#[from] IndexError),
    /// A side has no pieces where a class needs at least one.
    #[error("position has no pieces for the side that just moved")]
    NoPieces,
    /// A table's value count differs from its index size.
    #[error("table {material} has {found} values, its index has {expected} slots")]
    SizeMismatch {
        /// The class.
        material: Material,
        /// Slots of the index.
        expected: u64,
        /// Values given.
        found: u64,
    },
    /// A table format version this crate cannot write.
    #[error("format {0} is not a table format: give 1 (a byte per slot) or 2 (compact)")]
    Format(u16),
    /// A distance to conversion beyond what a table byte holds.
    #[error("distance to conversion in {material} exceeds {max} plies")]
    DtcOverflow {
        /// The class.
        material: Material,
        /// The largest storable distance.
        max: u32,
    },
}

impl TablebaseError {
    /// The file this error is about, if it is about one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            TablebaseError::File { path, .. } | TablebaseError::Directory { path, .. } => {
                Some(path)
            }
            _ => None,
        }
    }
}
