//! What verifying a table found: the entries that differ from what their
//! moves imply, and whether the checksum and header counts hold.

use crate::value::Value;
use surakarta_index::{Material, Sides};

/// How many mismatches a report keeps as examples.
pub(crate) const EXAMPLES: usize = 10;

/// An entry that differs from what its moves imply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Its slot.
    pub index: u64,
    /// The position (side to move first).
    pub sides: Sides,
    /// The value stored.
    pub stored: Value,
    /// The value its moves imply.
    pub derived: Value,
}

/// The result of verifying one table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// The class.
    pub material: Material,
    /// Positions re-derived (0 if the checksum failed, or if only the
    /// checksums were checked: [`crate::VerifyOptions::checksums_only`]).
    pub positions: u64,
    /// Whether the payload matches its checksum.
    pub checksum_ok: bool,
    /// Whether the header's counts match the payload (taken as true when
    /// only the checksums were checked).
    pub stats_ok: bool,
    /// Entries that differ from what their moves imply.
    pub mismatches: u64,
    /// The first few of them.
    pub examples: Vec<Mismatch>,
}

impl VerifyReport {
    /// Errors found: mismatched entries, plus one for a bad checksum, plus
    /// one for wrong header counts.
    #[must_use]
    pub fn errors(&self) -> u64 {
        self.mismatches + u64::from(!self.checksum_ok) + u64::from(!self.stats_ok)
    }
}
