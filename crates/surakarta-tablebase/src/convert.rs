//! Between the formats: a compact (format 2) copy of a table, and the
//! exact values of any table (a compact one's don't-care slots resolved).

use crate::compact::{self, Freedom, Stored};
use crate::context::ContextModel;
use crate::error::TablebaseError;
use crate::table::{histogram_of, Histogram, Table, TableIndexer};
use crate::Tablebase;
use rayon::prelude::*;
use std::borrow::Cow;
use surakarta_index::{Indexer, Material, Sides};

/// Slots per parallel work item.
const CHUNK: usize = 1 << 16;

/// How a compact (format 2) copy of a table is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompactOptions {
    /// The context model; `None`: [`ContextModel::for_material`] for each
    /// class.
    pub model: Option<ContextModel>,
    /// Whether a draw that a capture proves may store any draw or loss
    /// (header byte 71, "capture draws"). On: about 28% smaller tables up
    /// to 8 pieces; off: faster probes of the weaker sides, whose stored
    /// losses then need no capture probes (docs/benchmarks.md, "Compact
    /// tables").
    pub capture_draws: bool,
}

impl Default for CompactOptions {
    /// Each class's own context model, capture draws on.
    fn default() -> CompactOptions {
        CompactOptions {
            model: None,
            capture_draws: true,
        }
    }
}

impl Tablebase {
    /// The exact value byte of every slot of a class ([`Value::to_byte`];
    /// 0 for unused slots), as a format 1 payload holds them. For a compact
    /// table the stored wins are resolved by probing the captures, so the
    /// smaller tables must be present.
    ///
    /// [`Value::to_byte`]: crate::Value::to_byte
    pub fn values(&self, material: Material) -> Result<Cow<'_, [u8]>, TablebaseError> {
        self.values_of(self.lookup(material)?)
    }

    /// [`Tablebase::values`] of a table that need not be in this
    /// tablebase (its captures are probed here).
    pub fn values_of<'t>(&self, table: &'t Table) -> Result<Cow<'t, [u8]>, TablebaseError> {
        let stored = table.stored_bytes()?;
        if !table.is_compact() {
            return Ok(stored);
        }
        let mut out = vec![0u8; stored.len()];
        let capture_draws = table.capture_draws();
        fill_used_slots(table.indexer(), &mut out, |index, sides| {
            let b = stored[index as usize];
            Ok(if (2..=127).contains(&b) && self.wins_by_capture(sides)? {
                1
            } else if b >= 128 && capture_draws && self.draws_by_capture(sides)? {
                0
            } else {
                b
            })
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
    /// byte per slot): fast to probe, for generation and verification. It
    /// keeps the original's figures (from its header, for a file), so
    /// verifying the copy checks them against the values.
    pub fn expanded(&self, material: Material) -> Result<Table, TablebaseError> {
        let table = self.lookup(material)?;
        let values = self.values(material)?.into_owned();
        Table::with_stats(table.indexer().clone(), values, table.stats())
    }

    /// This tablebase with every compact table replaced by its
    /// [`Tablebase::expanded`] copy (fast to probe; for verification). A
    /// table that cannot be expanded (a damaged file) stays as it is, so
    /// its uses report what is wrong with it.
    #[must_use]
    pub fn into_expanded(mut self) -> Tablebase {
        let mut compact: Vec<Material> = self
            .tables
            .iter()
            .filter(|(_, t)| t.is_compact())
            .map(|(&m, _)| m)
            .collect();
        // Fewest pieces first: expanding a table probes the classes its
        // captures reach, which are then expanded already (fast, exact).
        compact.sort_by_key(|m| m.pieces());
        for material in compact {
            if let Ok(table) = self.expanded(material) {
                self.insert(table);
            }
        }
        self
    }

    /// A compact (format 2) copy of a class's table, written with the
    /// default [`CompactOptions`]. Slots whose value is a win in 1 that a
    /// capture proves may then hold any win, draws that a capture proves
    /// any draw or loss, and unused slots anything, whichever compresses
    /// best; the smaller tables must be present to find those captures.
    pub fn compacted(&self, material: Material) -> Result<Table, TablebaseError> {
        self.compacted_with(material, &CompactOptions::default())
    }

    /// [`Tablebase::compacted`] with chosen options.
    pub fn compacted_with(
        &self,
        material: Material,
        options: &CompactOptions,
    ) -> Result<Table, TablebaseError> {
        let model = options
            .model
            .unwrap_or_else(|| ContextModel::for_material(material));
        let capture_draws = options.capture_draws;
        let table = self.lookup(material)?;
        let values = self.values(material)?;
        let indexer = table.indexer();
        // Per used slot: its context (bits 2..) and its freedom (bits 0-1).
        let mut slot_info = vec![Freedom::Any as u8; values.len()];
        fill_used_slots(indexer, &mut slot_info, |index, sides| {
            let freedom = match values[index as usize] {
                1 if self.wins_by_capture(sides)? => Freedom::AnyWin,
                0 if capture_draws && self.draws_by_capture(sides)? => Freedom::AnyNonWin,
                _ => Freedom::Exact,
            };
            Ok((model.of(sides) as u8) << 2 | freedom as u8)
        })?;
        let (mut shape, body) = match model {
            ContextModel::None => {
                let freedom: Vec<u8> = slot_info.iter().map(|&b| b & 3).collect();
                compact::encode(&values, &freedom, Stored::Values)
            }
            model => {
                let (ranks, maps, stored) = rank_by_context(model, &values, &mut slot_info);
                compact::encode(
                    &stored,
                    &slot_info,
                    Stored::Ranks {
                        model,
                        ranks,
                        maps: &maps,
                    },
                )
            }
        };
        shape.capture_draws = capture_draws;
        let stats = histogram_of(indexer, &values).stats(material, indexer.size());
        Table::from_compact(indexer.clone(), stats, shape, body)
    }
}

/// The terminals of a context model: in each context the values ranked by
/// how often they occur there (a free win counting as a win in 1, a free
/// draw as the context's commonest exact draw or loss), and each slot's
/// rank. Returns the number of ranks, the value of each rank in each
/// context (`maps[c · ranks + r]`), and the stored ranks; `slot_info`
/// (context and freedom per slot) becomes the freedom to encode with: a
/// free win is stored as its context's first win, a free draw as its first
/// draw or loss, exactly.
fn rank_by_context(
    model: ContextModel,
    values: &[u8],
    slot_info: &mut [u8],
) -> (usize, Vec<u8>, Vec<u8>) {
    let contexts = model.contexts();
    let mut counts = vec![[0u64; 256]; contexts];
    let mut free_draws = vec![0u64; contexts];
    for (&v, &info) in values.iter().zip(slot_info.iter()) {
        let c = usize::from(info >> 2);
        match info & 3 {
            f if f == Freedom::Any as u8 => {}
            f if f == Freedom::AnyWin as u8 => counts[c][1] += 1,
            f if f == Freedom::AnyNonWin as u8 => free_draws[c] += 1,
            _ => counts[c][v as usize] += 1,
        }
    }
    for (c, &free) in counts.iter_mut().zip(&free_draws) {
        if free > 0 {
            let commonest = (0..=255usize)
                .filter(|&v| !(1..=127).contains(&v))
                .max_by_key(|&v| (c[v], std::cmp::Reverse(v)))
                .unwrap_or(0);
            c[commonest] += free;
        }
    }
    let orders: Vec<Vec<u8>> = counts
        .iter()
        .map(|c| {
            let mut order: Vec<u8> = (0..=255u8).filter(|&v| c[v as usize] > 0).collect();
            order.sort_by_key(|&v| std::cmp::Reverse(c[v as usize]));
            order
        })
        .collect();
    let ranks = orders.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let mut maps = vec![0u8; contexts * ranks];
    let mut rank_of = vec![[0u8; 256]; contexts];
    let mut first_win = vec![0u8; contexts];
    let mut first_non_win = vec![0u8; contexts];
    for (c, order) in orders.iter().enumerate() {
        for (r, &v) in order.iter().enumerate() {
            maps[c * ranks + r] = v;
            rank_of[c][v as usize] = r as u8;
        }
        first_win[c] = order
            .iter()
            .position(|v| (1..=127).contains(v))
            .unwrap_or(0) as u8;
        first_non_win[c] = order
            .iter()
            .position(|v| !(1..=127).contains(v))
            .unwrap_or(0) as u8;
    }
    let mut stored = vec![0u8; values.len()];
    stored
        .par_chunks_mut(CHUNK)
        .zip(slot_info.par_chunks_mut(CHUNK))
        .zip(values.par_chunks(CHUNK))
        .for_each(|((stored, info), values)| {
            for ((s, i), &v) in stored.iter_mut().zip(info.iter_mut()).zip(values) {
                let c = usize::from(*i >> 2);
                match *i & 3 {
                    f if f == Freedom::Any as u8 => *i = Freedom::Any as u8,
                    f if f == Freedom::AnyWin as u8 => {
                        *s = first_win[c];
                        *i = Freedom::Exact as u8;
                    }
                    f if f == Freedom::AnyNonWin as u8 => {
                        *s = first_non_win[c];
                        *i = Freedom::Exact as u8;
                    }
                    _ => {
                        *s = rank_of[c][v as usize];
                        *i = Freedom::Exact as u8;
                    }
                }
            }
        });
    (ranks, maps, stored)
}

/// Sets `out[i] = f(i, position)` for every used slot `i` of `indexer`
/// (unused slots keep their byte), on all cores; stops at the first error.
fn fill_used_slots(
    indexer: &TableIndexer,
    out: &mut [u8],
    f: impl Fn(u64, Sides) -> Result<u8, TablebaseError> + Sync,
) -> Result<(), TablebaseError> {
    out.par_chunks_mut(CHUNK)
        .enumerate()
        .try_for_each(|(c, part)| {
            let start = (c * CHUNK) as u64;
            let mut result = Ok(());
            indexer.for_each_in(start, start + part.len() as u64, |index, sides| {
                if result.is_ok() {
                    result = f(index, sides).map(|b| part[(index - start) as usize] = b);
                }
            });
            result
        })
}

/// What [`compress_dir`] did with one table.
#[derive(Clone, Debug, PartialEq)]
pub struct CompressOutcome {
    /// The class.
    pub material: Material,
    /// Bytes of the file before.
    pub before: u64,
    /// Bytes of the file after (equal when it was compact already).
    pub after: u64,
    /// Whether it was compact already (and left alone).
    pub skipped: bool,
    /// Seconds it took.
    pub seconds: f64,
}

/// Converts the format 1 tables of a directory to format 2 in place. Each
/// new file is written beside the old one, read back, and its every value
/// (don't-care slots resolved) compared with the old one's, then renamed
/// over it: interrupted at any moment, every table of the directory is
/// whole in one format or the other, and a rerun finishes the work.
/// Every table a compact one's captures reach must be in the directory.
pub fn compress_dir(
    dir: &std::path::Path,
    options: &CompactOptions,
    reporter: &dyn crate::Progress,
) -> Result<Vec<CompressOutcome>, TablebaseError> {
    let tablebase = Tablebase::open_dir(dir)?;
    let materials: Vec<Material> = tablebase.materials().collect();
    let total = materials
        .iter()
        .filter_map(|&m| tablebase.table(m))
        .filter(|t| !t.is_compact())
        .map(|t| t.indexer().size())
        .sum();
    reporter.started(total);
    let mut outcomes = Vec::new();
    let mut directories = crate::Directories::default();
    for material in materials {
        let start = std::time::Instant::now();
        let table = tablebase.lookup(material)?;
        let before = table.file_len();
        if table.is_compact() {
            outcomes.push(CompressOutcome {
                material,
                before,
                after: before,
                skipped: true,
                seconds: 0.0,
            });
            continue;
        }
        reporter.pair_started(&[material], table.indexer().size());
        reporter.progress(crate::Pass::Compact, 0, table.indexer().size());
        let old = tablebase.values(material)?;
        let compact = tablebase.compacted_with(material, options)?;
        let path = dir.join(crate::file::file_name(material));
        compact.write_checked(&path, |bytes| {
            let back = Table::from_file_bytes(&path, bytes, &mut directories)?;
            let new = tablebase.values_of(&back)?;
            match old.iter().zip(new.iter()).position(|(a, b)| a != b) {
                None if old.len() == new.len() => Ok(()),
                _ => Err(crate::table::file_error(
                    &path,
                    crate::FileProblem::Corrupt("the compact table answers differently"),
                )),
            }
        })?;
        reporter.class_done(&table.stats(), start.elapsed());
        outcomes.push(CompressOutcome {
            material,
            before,
            after: compact.file_len(),
            skipped: false,
            seconds: start.elapsed().as_secs_f64(),
        });
    }
    Ok(outcomes)
}
