//! Between the formats: a compact (format 2) copy of a table, and the
//! exact values of any table (a compact one's don't-care slots resolved).

use crate::compact::{self, Freedom};
use crate::error::TablebaseError;
use crate::table::{histogram_of, Histogram, Table};
use crate::Tablebase;
use rayon::prelude::*;
use std::borrow::Cow;
use surakarta_index::{Indexer, Material};

/// Slots per parallel work item.
const CHUNK: usize = 1 << 16;

impl Tablebase {
    /// The exact value byte of every slot of a class ([`Value::to_byte`];
    /// 0 for unused slots), as a format 1 payload holds them. For a compact
    /// table the stored wins are resolved by probing the captures, so the
    /// smaller tables must be present.
    ///
    /// [`Value::to_byte`]: crate::Value::to_byte
    pub fn values(&self, material: Material) -> Result<Cow<'_, [u8]>, TablebaseError> {
        let table = self.lookup(material)?;
        let stored = table.stored_bytes()?;
        if !table.is_compact() {
            return Ok(stored);
        }
        let indexer = table.indexer();
        let mut out = vec![0u8; stored.len()];
        out.par_chunks_mut(CHUNK)
            .enumerate()
            .try_for_each(|(c, part)| {
                let start = (c * CHUNK) as u64;
                let mut result = Ok(());
                indexer.for_each_in(start, start + part.len() as u64, |index, sides| {
                    if result.is_err() {
                        return;
                    }
                    let b = stored[index as usize];
                    part[(index - start) as usize] = if (2..=127).contains(&b) {
                        match self.wins_by_capture(sides) {
                            Ok(true) => 1,
                            Ok(false) => b,
                            Err(e) => {
                                result = Err(e);
                                b
                            }
                        }
                    } else {
                        b
                    };
                });
                result
            })?;
        Ok(Cow::Owned(out))
    }

    /// How many positions of a class have each value (exact values; see
    /// [`Tablebase::values`]).
    pub fn histogram(&self, material: Material) -> Result<Histogram, TablebaseError> {
        let values = self.values(material)?;
        Ok(histogram_of(self.lookup(material)?.indexer(), &values))
    }

    /// A format 1 copy of a class's table in memory (exact values, one
    /// byte per slot): fast to probe, for generation and verification.
    pub fn expanded(&self, material: Material) -> Result<Table, TablebaseError> {
        let table = self.lookup(material)?;
        Table::new(table.indexer().clone(), self.values(material)?.into_owned())
    }

    /// A compact (format 2) copy of a class's table. Slots whose value is
    /// a win in 1 that a capture proves may then hold any win, and unused
    /// slots anything, whichever compresses best; the smaller tables must
    /// be present to find those captures.
    pub fn compacted(&self, material: Material) -> Result<Table, TablebaseError> {
        let table = self.lookup(material)?;
        let values = self.values(material)?;
        let indexer = table.indexer();
        let mut freedom = vec![Freedom::Any as u8; values.len()];
        freedom
            .par_chunks_mut(CHUNK)
            .enumerate()
            .try_for_each(|(c, part)| {
                let start = (c * CHUNK) as u64;
                let mut result = Ok(());
                indexer.for_each_in(start, start + part.len() as u64, |index, sides| {
                    if result.is_err() {
                        return;
                    }
                    let free = values[index as usize] == 1
                        && match self.wins_by_capture(sides) {
                            Ok(w) => w,
                            Err(e) => {
                                result = Err(e);
                                false
                            }
                        };
                    part[(index - start) as usize] = if free {
                        Freedom::AnyWin as u8
                    } else {
                        Freedom::Exact as u8
                    };
                });
                result
            })?;
        let (shape, body) = compact::encode(&values, &freedom);
        let stats = histogram_of(indexer, &values).stats(material, indexer.size());
        Table::from_compact(indexer.clone(), stats, shape, body)
    }
}
