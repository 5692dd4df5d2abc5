//! Verification: every entry re-derived from its successors.
//!
//! If every entry of a table equals the value its moves imply (captures
//! probing the smaller tables, quiet moves the partner class), and the
//! smaller tables are right, the table is exactly right: by induction on the
//! distance, every stored win or loss is reached by a chain ending in a
//! position without moves or a conversion, and every real win or loss is
//! stored with its distance (see `docs/tablebase.md`).

use crate::error::TablebaseError;
use crate::table::Table;
use crate::value::{Value, Wdl};
use crate::{Pass, Progress, Tablebase};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use surakarta::{capture_moves, step_targets, Bitboard};
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
    #[must_use]
    pub fn errors(&self) -> u64 {
        self.mismatches + u64::from(!self.checksum_ok) + u64::from(!self.stats_ok)
    }
}

impl Tablebase {
    /// The value the moves of `sides` imply, what [`Tablebase::derive`]
    /// answers for that position, from raw bitboards: captures probe the
    /// smaller tables (win, draw or loss), quiet moves the partner class's
    /// table (`partner`, the class with the sides swapped), resolved as
    /// [`Tablebase::probe`] does. A test checks it against `derive` on
    /// every position up to 5 pieces.
    fn derive_sides(&self, sides: Sides, partner: &Table) -> Result<Value, TablebaseError> {
        let Sides { us, them } = sides;
        let mut best: Option<Value> = None;
        let mut take = |v: Value| {
            if best.is_none_or(|b| v.is_better_than(b)) {
                best = Some(v);
            }
        };
        for m in capture_moves(us, them) {
            let after = Sides::new(them.without(m.to()), us.without(m.from()).with(m.to()));
            take(match self.probe_wdl(after)? {
                Wdl::Loss => Value::Win(1),
                Wdl::Win => Value::Loss(1),
                Wdl::Draw => Value::Draw,
            });
        }
        let empty = Bitboard::FULL - us - them;
        for from in us {
            for to in step_targets(from) & empty {
                let after = Sides::new(them, us.without(from).with(to));
                let stored = partner.stored_value(after)?;
                take(self.resolve(partner, stored, after)?.back());
            }
        }
        Ok(best.unwrap_or(Value::Loss(0)))
    }

    /// Verifies the table of `material`: its checksum, its header counts, and
    /// every entry against the value its moves imply. The tables its moves
    /// reach must be present. Problems in this table are counted in the
    /// report; an error is returned only when verification cannot run
    /// (missing or damaged tables it depends on).
    pub fn verify(
        &self,
        material: Material,
        reporter: &dyn Progress,
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
        // Where quiet moves lead: looked up once, not per move.
        let partner = self.lookup(material.swapped())?;
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
                    let derived = self.derive_sides(sides, partner);
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

#[cfg(test)]
mod tests {
    use super::*;
    use surakarta::{Color, Position};
    use surakarta_index::Scheme;

    /// The fast derivation equals the one through `Position` and its legal
    /// moves, on every position of every class up to 5 pieces.
    #[test]
    fn raw_bitboard_derivation_equals_the_position_one() {
        let (tb, _) = Tablebase::generate(5, Scheme::Symmetric, &crate::NoProgress).unwrap();
        let mut checked = 0u64;
        for material in tb.materials().collect::<Vec<_>>() {
            let table = tb.lookup(material).unwrap();
            let partner = tb.lookup(material.swapped()).unwrap();
            table
                .indexer()
                .for_each_in(0, table.indexer().size(), |_, sides| {
                    let position =
                        Position::from_sides(sides.us, sides.them, Color::Black).unwrap();
                    assert_eq!(
                        tb.derive_sides(sides, partner).unwrap(),
                        tb.derive(&position).unwrap(),
                        "{position}"
                    );
                    checked += 1;
                });
        }
        assert_eq!(checked, 1_524_996);
    }

    /// A wrong value under a right checksum (a forged or mis-generated
    /// table) is found, with its position as an example.
    #[test]
    fn a_wrong_value_with_a_right_checksum_is_a_mismatch() {
        let (mut tb, _) = Tablebase::generate(4, Scheme::Symmetric, &crate::NoProgress).unwrap();
        let material: Material = "2v2".parse().unwrap();
        assert_eq!(tb.verify(material, &crate::NoProgress).unwrap().errors(), 0);
        let table = tb.lookup(material).unwrap();
        let mut values = tb.values(material).unwrap().into_owned();
        let mut target = None;
        table
            .indexer()
            .for_each_in(0, table.indexer().size(), |index, sides| {
                if target.is_none()
                    && Value::from_table_byte(values[index as usize]) == Value::Win(3)
                {
                    target = Some((index, sides));
                }
            });
        let (index, sides) = target.expect("a win in 3");
        values[index as usize] = Value::Win(5).to_byte().unwrap();
        let forged = Table::new(table.indexer().clone(), values).unwrap();
        tb.insert(forged);
        let report = tb.verify(material, &crate::NoProgress).unwrap();
        assert!(report.checksum_ok, "the checksum is the forged table's own");
        assert!(!report.stats_ok || report.mismatches >= 1);
        assert!(report.mismatches >= 1, "{report:?}");
        assert!(report
            .examples
            .iter()
            .any(|m| m.index == index && m.sides == sides && m.stored == Value::Win(5)));
    }
}
