//! Errors of generation and probing.

use crate::file::FileProblem;
use crate::pair::Pair;
use std::path::{Path, PathBuf};
use surakarta::Excerpt;
use surakarta_index::{IndexError, Material};

fn looked_in(dir: &Option<PathBuf>, material: &Material) -> String {
    match dir {
        Some(dir) => format!(
            " ({} not found)",
            shown(&dir.join(crate::file::file_name(*material)))
        ),
        None => String::new(),
    }
}

/// A path as messages show it: unquoted, cut when long (a directory named
/// through the engine protocol can be any length).
fn shown(path: &Path) -> String {
    format!("{:#}", Excerpt::new(&path.to_string_lossy()))
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
    #[error("{}: {problem}", shown(path))]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        problem: FileProblem,
    },
    /// A directory could not be read.
    #[error("{}: {message}", shown(path))]
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
    /// A table that generating a pair needs is not in the directory.
    #[error("missing table {material} needed by pair {pair}: {}", shown(path))]
    MissingDependency {
        /// The class whose table is missing.
        material: Material,
        /// The pair being generated.
        pair: Pair,
        /// Where its file should be.
        path: PathBuf,
    },
    /// A table that generating a pair needs did not load, or is damaged.
    #[error("table {material} needed by pair {pair} is unusable: {error}")]
    UnusableDependency {
        /// The class whose table is unusable.
        material: Material,
        /// The pair being generated.
        pair: Pair,
        /// What is wrong with it (naming the file).
        error: Box<TablebaseError>,
    },
    /// A pair would need more memory than allowed (refused before it
    /// starts, see [`crate::GenerateOptions::memory_limit`]).
    #[error(
        "pair {pair} needs about {} of memory at its peak (values, candidate bitmaps and the \
         tables its captures reach), more than the limit of {}",
        crate::plan::human_bytes(*needed),
        crate::plan::human_bytes(*limit)
    )]
    NotEnoughMemory {
        /// The pair.
        pair: Pair,
        /// Its modelled peak, in bytes.
        needed: u64,
        /// The limit, in bytes.
        limit: u64,
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
            TablebaseError::File { path, .. }
            | TablebaseError::Directory { path, .. }
            | TablebaseError::MissingDependency { path, .. } => Some(path),
            TablebaseError::UnusableDependency { error, .. } => error.path(),
            _ => None,
        }
    }
}
