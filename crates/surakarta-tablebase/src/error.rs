//! Errors of generation and probing.

use surakarta_index::{IndexError, Material};

/// What went wrong in the tablebase.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TablebaseError {
    /// A position's class has no table.
    #[error("no table for material {0}")]
    MissingTable(Material),
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
    /// A distance to conversion beyond what a table byte holds.
    #[error("distance to conversion in {material} exceeds {max} plies")]
    DtcOverflow {
        /// The class.
        material: Material,
        /// The largest storable distance.
        max: u32,
    },
}
