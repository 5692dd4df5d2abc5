//! One material class's table in memory, and the index over either scheme.

use crate::error::TablebaseError;
use crate::value::Value;
use std::collections::HashMap;
use std::sync::Arc;
use surakarta_index::{
    IndexError, Indexer, Material, OccupancyDirectory, PlainIndexer, Ranked, Scheme, Sides,
    SymmetricIndexer,
};

/// The index of one class in either scheme.
#[derive(Clone, Debug)]
pub enum TableIndexer {
    /// The plain combinatorial index.
    Plain(PlainIndexer),
    /// The symmetry-reduced index.
    Symmetric(SymmetricIndexer),
}

impl TableIndexer {
    /// The indexer of `material` in `scheme`, taking the occupancy directory
    /// from (or adding it to) `directories`.
    pub fn new(material: Material, scheme: Scheme, directories: &mut Directories) -> TableIndexer {
        match scheme {
            Scheme::Plain => TableIndexer::Plain(PlainIndexer::new(material)),
            Scheme::Symmetric => {
                let directory = directories.get(material.pieces());
                match SymmetricIndexer::with_directory(material, directory) {
                    Ok(indexer) => TableIndexer::Symmetric(indexer),
                    Err(_) => unreachable!("the directory has the material's piece count"),
                }
            }
        }
    }

    /// The scheme.
    pub fn scheme(&self) -> Scheme {
        match self {
            TableIndexer::Plain(_) => Scheme::Plain,
            TableIndexer::Symmetric(_) => Scheme::Symmetric,
        }
    }

    /// Calls `f(index, sides)` for every used slot with index in
    /// `start..end`, in index order.
    pub fn for_each_in(&self, start: u64, end: u64, mut f: impl FnMut(u64, Sides)) {
        let end = end.min(self.size());
        if start >= end {
            return;
        }
        match self {
            TableIndexer::Plain(p) => {
                if let Ok(walk) = p.positions_from(start) {
                    for (index, sides) in (start..end).zip(walk) {
                        f(index, sides);
                    }
                }
            }
            TableIndexer::Symmetric(s) => {
                if let Ok(walk) = s.positions_from(start) {
                    for (index, sides) in walk.take_while(|&(i, _)| i < end) {
                        f(index, sides);
                    }
                }
            }
        }
    }
}

impl Indexer for TableIndexer {
    fn material(&self) -> Material {
        match self {
            TableIndexer::Plain(p) => p.material(),
            TableIndexer::Symmetric(s) => s.material(),
        }
    }

    fn size(&self) -> u64 {
        match self {
            TableIndexer::Plain(p) => p.size(),
            TableIndexer::Symmetric(s) => s.size(),
        }
    }

    #[inline]
    fn rank(&self, sides: Sides) -> Result<Ranked, IndexError> {
        match self {
            TableIndexer::Plain(p) => p.rank(sides),
            TableIndexer::Symmetric(s) => s.rank(sides),
        }
    }

    fn unrank(&self, index: u64) -> Result<Sides, IndexError> {
        match self {
            TableIndexer::Plain(p) => p.unrank(index),
            TableIndexer::Symmetric(s) => s.unrank(index),
        }
    }
}

/// Occupancy directories by piece count, built on first use and shared.
#[derive(Clone, Debug, Default)]
pub struct Directories {
    by_pieces: HashMap<u32, Arc<OccupancyDirectory>>,
}

impl Directories {
    /// The directory for `pieces`, built (on all cores) if missing.
    pub fn get(&mut self, pieces: u32) -> Arc<OccupancyDirectory> {
        self.by_pieces
            .entry(pieces)
            .or_insert_with(|| {
                let threads = rayon::current_num_threads();
                Arc::new(OccupancyDirectory::build_with_threads(pieces, threads))
            })
            .clone()
    }
}

/// A finished table of one material class: one byte per slot
/// ([`Value::to_byte`]).
#[derive(Clone, Debug)]
pub struct Table {
    indexer: TableIndexer,
    values: Vec<u8>,
}

impl Table {
    /// A table from its index and values (one per slot).
    pub fn new(indexer: TableIndexer, values: Vec<u8>) -> Result<Table, TablebaseError> {
        if values.len() as u64 != indexer.size() {
            return Err(TablebaseError::SizeMismatch {
                material: indexer.material(),
                expected: indexer.size(),
                found: values.len() as u64,
            });
        }
        Ok(Table { indexer, values })
    }

    /// The material class.
    pub fn material(&self) -> Material {
        self.indexer.material()
    }

    /// The index.
    pub fn indexer(&self) -> &TableIndexer {
        &self.indexer
    }

    /// The value bytes, one per slot.
    pub fn bytes(&self) -> &[u8] {
        &self.values
    }

    /// The value stored at a slot.
    pub fn value_at(&self, index: u64) -> Option<Value> {
        self.values
            .get(index as usize)
            .map(|&b| Value::from_table_byte(b))
    }

    /// The value of a position of this class.
    #[inline]
    pub fn probe(&self, sides: Sides) -> Result<Value, TablebaseError> {
        let ranked = self.indexer.rank(sides)?;
        Ok(Value::from_table_byte(self.values[ranked.index as usize]))
    }
}
