//! Retrograde distance-to-conversion (DTC) endgame tablebases for Surakarta.
//!
//! Semantics (pure rules, values for the side to move) are in
//! `docs/tablebase.md`. [`Tablebase::generate`] solves every class up to a
//! piece count in memory; [`Tablebase::probe`] answers for any position with
//! at most that many pieces.

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod generate;
mod table;
mod value;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

pub use error::TablebaseError;
pub use generate::ClassStats;
pub use table::{Directories, Table, TableIndexer};
pub use value::{Value, Wdl, MAX_DTC};

use surakarta::Position;
use surakarta_index::{Indexer, Material, Scheme, Sides};

/// Receives progress of a long generation; the library never prints.
pub trait Reporter: Sync {
    /// A class (and its swap) is about to be solved.
    fn pair_started(&self, _material: Material, _slots: u64) {}
    /// A class is finished.
    fn class_done(&self, _stats: &ClassStats, _elapsed: Duration) {}
}

/// A reporter that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Reporter for Silent {}

/// Tables of material classes, in memory.
#[derive(Debug, Default)]
pub struct Tablebase {
    tables: BTreeMap<Material, Table>,
}

impl Tablebase {
    /// An empty tablebase (every probe of a class is [`TablebaseError::MissingTable`]).
    pub fn new() -> Tablebase {
        Tablebase::default()
    }

    /// Generates every class with 2 to `max_pieces` pieces in `scheme`, in
    /// dependency order, on the current rayon thread pool.
    pub fn generate(
        max_pieces: u32,
        scheme: Scheme,
        reporter: &dyn Reporter,
    ) -> Result<(Tablebase, Vec<ClassStats>), TablebaseError> {
        let mut tablebase = Tablebase::new();
        let mut directories = Directories::default();
        let mut all_stats = Vec::new();
        for pieces in 2..=max_pieces.min(24) {
            for material in Material::with_pieces(pieces) {
                if material.us() < material.them() {
                    continue; // solved together with its swap
                }
                let mut indexers = vec![TableIndexer::new(material, scheme, &mut directories)];
                if material.swapped() != material {
                    let swapped = material.swapped();
                    indexers.push(TableIndexer::new(swapped, scheme, &mut directories));
                }
                reporter.pair_started(material, indexers[0].size());
                let start = Instant::now();
                let solved = generate::generate_pair(indexers, &tablebase)?;
                for (table, stats) in solved {
                    reporter.class_done(&stats, start.elapsed());
                    all_stats.push(stats);
                    tablebase.insert(table);
                }
            }
        }
        Ok((tablebase, all_stats))
    }

    /// Adds (or replaces) a table.
    pub fn insert(&mut self, table: Table) {
        self.tables.insert(table.material(), table);
    }

    /// The table of a class.
    pub fn table(&self, material: Material) -> Option<&Table> {
        self.tables.get(&material)
    }

    /// The classes present.
    pub fn materials(&self) -> impl Iterator<Item = Material> + '_ {
        self.tables.keys().copied()
    }

    /// The value of a position given by its sides (the side to move first).
    /// A side to move without pieces has lost.
    pub fn probe(&self, sides: Sides) -> Result<Value, TablebaseError> {
        if sides.us.is_empty() {
            return Ok(Value::Loss(0));
        }
        if sides.them.is_empty() {
            return Err(TablebaseError::NoPieces);
        }
        let material = Material::of(sides)?;
        self.tables
            .get(&material)
            .ok_or(TablebaseError::MissingTable(material))?
            .probe(sides)
    }

    /// The value of a position for its side to move.
    pub fn probe_position(&self, position: &Position) -> Result<Value, TablebaseError> {
        self.probe(Sides::of(position))
    }
}
