//! Verification: every entry re-derived from its successors.
//!
//! If every entry of a table equals the value its moves imply (captures
//! probing the smaller tables, quiet moves the partner class), and the
//! smaller tables are right, the table is exactly right: by induction on the
//! distance, every stored win or loss is reached by a chain ending in a
//! position without moves or a conversion, and every real win or loss is
//! stored with its distance (see `docs/tablebase.md`).

use crate::error::TablebaseError;
use crate::value::Value;
use crate::{Pass, Reporter, Tablebase};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use surakarta::{Color, Position};
use surakarta_index::{Indexer, Material, Sides};

/// How many mismatches a report keeps as examples.
const EXAMPLES: usize = 10;

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
    /// Positions re-derived (0 if the checksum failed).
    pub positions: u64,
    /// Whether the payload matches its checksum.
    pub checksum_ok: bool,
    /// Whether the header's counts match the payload.
    pub stats_ok: bool,
    /// Entries that differ from what their moves imply.
    pub mismatches: u64,
    /// The first few of them.
    pub examples: Vec<Mismatch>,
}

impl VerifyReport {
    /// Errors found: mismatched entries, plus one for a bad checksum, plus
    /// one for wrong header counts.
    pub fn errors(&self) -> u64 {
        self.mismatches + u64::from(!self.checksum_ok) + u64::from(!self.stats_ok)
    }
}

impl Tablebase {
    /// Verifies the table of `material`: its checksum, its header counts, and
    /// every entry against the value its moves imply. The tables its moves
    /// reach must be present. Problems in this table are counted in the
    /// report; an error is returned only when verification cannot run
    /// (missing or damaged tables it depends on).
    pub fn verify(
        &self,
        material: Material,
        reporter: &dyn Reporter,
    ) -> Result<VerifyReport, TablebaseError> {
        let table = self.lookup(material)?;
        let mut report = VerifyReport {
            material,
            positions: 0,
            checksum_ok: table.check().is_ok(),
            stats_ok: false,
            mismatches: 0,
            examples: Vec::new(),
        };
        if !report.checksum_ok {
            return Ok(report);
        }
        let bytes = self.values(material)?;
        let stats = crate::table::histogram_of(table.indexer(), &bytes)
            .stats(material, table.indexer().size());
        report.stats_ok = stats == table.stats();
        let indexer = table.indexer();
        let size = indexer.size();
        const CHUNK: u64 = 1 << 14;
        let done = AtomicU64::new(0);
        let examples = Mutex::new(Vec::new());
        let (positions, mismatches) = (0..size.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let (mut positions, mut mismatches) = (0u64, 0u64);
                let mut result = Ok(());
                indexer.for_each_in(c * CHUNK, (c + 1) * CHUNK, |index, sides| {
                    if result.is_err() {
                        return;
                    }
                    let stored = Value::from_table_byte(bytes[index as usize]);
                    let derived = Position::from_sides(sides.us, sides.them, Color::Black)
                        .map_err(|_| TablebaseError::NoPieces)
                        .and_then(|p| self.derive(&p));
                    match derived {
                        Ok(derived) => {
                            positions += 1;
                            if derived != stored {
                                mismatches += 1;
                                let mut examples =
                                    examples.lock().unwrap_or_else(|e| e.into_inner());
                                if examples.len() < EXAMPLES {
                                    examples.push(Mismatch {
                                        index,
                                        sides,
                                        stored,
                                        derived,
                                    });
                                }
                            }
                        }
                        Err(e) => result = Err(e),
                    }
                });
                let end = ((c + 1) * CHUNK).min(size);
                let so_far = done.fetch_add(end - c * CHUNK, Ordering::Relaxed) + end - c * CHUNK;
                reporter.progress(Pass::Verify, so_far, size);
                result.map(|()| (positions, mismatches))
            })
            .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1)))?;
        report.positions = positions;
        report.mismatches = mismatches;
        let mut examples = examples.into_inner().unwrap_or_else(|e| e.into_inner());
        examples.sort_by_key(|m| m.index);
        report.examples = examples;
        Ok(report)
    }
}
