//! Between the formats: a compact (format 2) copy of a table, and the
//! exact values of any table (a compact one's don't-care slots resolved).

use crate::error::TablebaseError;
use crate::format::compact::re_pair;
use crate::format::compact::ContextModel;
use crate::format::compact::{self, Freedom, Stored};
use crate::format::CompactShape;
use crate::generate::set_moves::SetMoves;
use crate::probe::table::{histogram_of, Directories, Histogram, Table, TableIndexer};
use crate::probe::tablebase::Tablebase;
use crate::probe::tablebase::{capture_target, CaptureTarget};
use crate::value::{Value, Wdl};
use rayon::prelude::*;
use std::borrow::Cow;
use surakarta::{step_targets, Bitboard};
use surakarta_index::{Indexer, Material, Sides};

/// Slots per parallel work item.
const CHUNK: usize = 1 << 16;

/// The read-back check of `tb compress` resolves every slot of one part of
/// [`CHUNK`] slots in this many, and elsewhere only the slots whose stored
/// value differs from the exact one ([`Tablebase::answers_as`]).
const FULL_CHECK_EVERY: usize = 16;

/// Classes with more slots than this are compacted by streaming by default
/// ([`CompactOptions::streaming_above`]): above every class of up to 8
/// pieces (the largest, 4v4, has 265 M slots), so their files stay as the
/// whole-class path writes them.
pub const STREAMING_ABOVE: u64 = 1 << 29;

/// The default sample of the streaming path ([`CompactOptions::sample_slots`]):
/// 2^27 slots, 128 K chunks of 1,024.
pub const SAMPLE_SLOTS: u64 = 1 << 27;

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
    /// Classes with more slots than this are compacted by streaming: the
    /// value ranking and the grammar are learned on a sample of the class
    /// ([`CompactOptions::sample_slots`]), then every chunk of 1,024 slots
    /// is encoded with them on its own, so the working memory is a small
    /// fraction of a byte per slot (docs/tablebase.md, "Memory"), not the
    /// five bytes per slot of the whole-class path. The file may be a
    /// little larger. Default [`STREAMING_ABOVE`].
    pub streaming_above: u64,
    /// Slots of the streaming path's sample: chunks of 1,024 spread evenly
    /// over the class, at least one. Default [`SAMPLE_SLOTS`].
    pub sample_slots: u64,
}

impl Default for CompactOptions {
    /// Each class's own context model, capture draws on, streaming above
    /// [`STREAMING_ABOVE`] slots with a sample of [`SAMPLE_SLOTS`].
    fn default() -> CompactOptions {
        CompactOptions {
            model: None,
            capture_draws: true,
            streaming_above: STREAMING_ABOVE,
            sample_slots: SAMPLE_SLOTS,
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
        self.values_from_stored(table, table.stored_bytes()?)
    }

    /// [`Tablebase::values_of`] from the table's stored bytes, resolved in
    /// place part by part (a compact table's exact value depends only on
    /// its own stored byte and the smaller tables), so expanding a class
    /// holds a byte per slot, not two.
    fn values_from_stored<'t>(
        &self,
        table: &'t Table,
        stored: Cow<'t, [u8]>,
    ) -> Result<Cow<'t, [u8]>, TablebaseError> {
        if !table.is_compact() {
            return Ok(stored);
        }
        let mut values = stored.into_owned();
        let target = capture_target(self, table.indexer().material());
        let indexer = table.indexer();
        values
            .par_chunks_mut(CHUNK)
            .enumerate()
            .try_for_each(|(c, part)| {
                let start = (c * CHUNK) as u64;
                let stored = part.to_vec();
                // Unused slots read 0, as in a format 1 payload.
                part.fill(0);
                let mut result = Ok(());
                indexer.for_each_in(start, start + part.len() as u64, |index, sides| {
                    if result.is_ok() {
                        let i = (index - start) as usize;
                        result = self
                            .exact_byte(table, target, stored[i], sides, index)
                            .map(|b| part[i] = b);
                    }
                });
                result
            })?;
        Ok(Cow::Owned(values))
    }

    /// Whether the compact `table`, which stores `stored` (its decoded
    /// bytes, [`Table::stored_bytes`]), answers every slot with the value
    /// byte `exact` holds for it (a consistent format 1 payload of the
    /// class; unused slots 0): the read-back check of [`compress_tables`].
    ///
    /// A slot whose stored byte differs from its exact one is resolved
    /// through its captures and must come out exact. A slot that stores its
    /// exact byte is resolved only in one part of [`FULL_CHECK_EVERY`]:
    /// elsewhere resolution could change it only if `exact` contradicted
    /// the tables its captures reach (a win in more than 1 with a winning
    /// capture, a loss with a capture that does not lose), which is what
    /// `tb verify` checks of a format 1 table, and the writer's own
    /// freedom test asks the same question of the same tables. Gives the
    /// same answer as comparing [`Tablebase::values_of`] with `exact`
    /// whenever `exact` is consistent, without walking every position
    /// (`check_matches_the_full_comparison` in the tests).
    fn answers_as(
        &self,
        table: &Table,
        stored: Cow<'_, [u8]>,
        exact: &[u8],
    ) -> Result<bool, TablebaseError> {
        if !table.is_compact() || stored.len() != exact.len() {
            return Ok(false);
        }
        let target = capture_target(self, table.indexer().material());
        let indexer = table.indexer();
        stored
            .par_chunks(CHUNK)
            .zip(exact.par_chunks(CHUNK))
            .enumerate()
            .try_fold(
                || true,
                |same, (c, (stored, exact))| -> Result<bool, TablebaseError> {
                    if !same {
                        return Ok(false);
                    }
                    let start = (c * CHUNK) as u64;
                    if c % FULL_CHECK_EVERY == 0 {
                        // Every used slot resolved, as a prober does.
                        let mut result = Ok(true);
                        let mut used = vec![false; stored.len()];
                        indexer.for_each_in(start, start + stored.len() as u64, |index, sides| {
                            let i = (index - start) as usize;
                            used[i] = true;
                            if let Ok(true) = result {
                                result = self
                                    .exact_byte(table, target, stored[i], sides, index)
                                    .map(|b| b == exact[i]);
                            }
                        });
                        let unused_are_zero =
                            used.iter().zip(exact).all(|(&used, &e)| used || e == 0);
                        return result.map(|same| same && unused_are_zero);
                    }
                    for (i, (&b, &e)) in stored.iter().zip(exact).enumerate() {
                        if b == e {
                            continue;
                        }
                        let index = start + i as u64;
                        // An unused slot (no position) must be 0 in `exact`.
                        let Ok(sides) = indexer.unrank(index) else {
                            if e == 0 {
                                continue;
                            }
                            return Ok(false);
                        };
                        if self.exact_byte(table, target, b, sides, index)? != e {
                            return Ok(false);
                        }
                    }
                    Ok(true)
                },
            )
            .try_reduce(|| true, |a, b| Ok(a && b))
    }

    /// The exact value byte of the position `sides` of `table` (compact,
    /// at slot `index`), which stores `b` for it: a stored win that a
    /// capture wins in 1 is a win in 1, and where the table says a stored
    /// loss may stand for a draw ([`Table::may_hide_draw`]), a stored loss
    /// that a capture draws is a draw. The captures are probed here, read
    /// directly from `target` (the class's [`capture_target`]) where it is
    /// format 1.
    #[inline]
    fn exact_byte(
        &self,
        table: &Table,
        target: CaptureTarget<'_>,
        b: u8,
        sides: Sides,
        index: u64,
    ) -> Result<u8, TablebaseError> {
        Ok(
            if (2..=127).contains(&b) && self.wins_by_capture(target, sides)? {
                1
            } else if b >= 128
                && table.may_hide_draw(index)
                && self.draws_by_capture(target, sides)?
            {
                0
            } else {
                b
            },
        )
    }

    /// How many positions of a class have each value (exact values; see
    /// [`Tablebase::values`]).
    pub fn histogram(&self, material: Material) -> Result<Histogram, TablebaseError> {
        Ok(self.summary(material)?.histogram)
    }

    /// A class summed up from its exact values (see [`Tablebase::values`]):
    /// how many positions have each value, and the longest win and the
    /// longest loss, each with its first position in index order. A compact
    /// table is decoded part by part on all cores, so this holds a few MiB
    /// per core, never the class's values (a 10-piece class has billions).
    pub fn summary(&self, material: Material) -> Result<ClassSummary, TablebaseError> {
        let table = self.lookup(material)?;
        let indexer = table.indexer();
        let size = indexer.size();
        let part = table.part_slots();
        let compact = table.is_compact();
        let target = capture_target(self, material);
        // The longer of two (distance, index); of equal ones the first.
        fn longer(a: Option<(u32, u64)>, b: Option<(u32, u64)>) -> Option<(u32, u64)> {
            match (a, b) {
                (Some((da, ia)), Some((db, ib))) => Some(if db > da || db == da && ib < ia {
                    (db, ib)
                } else {
                    (da, ia)
                }),
                (x, None) | (None, x) => x,
            }
        }
        let (histogram, win, loss) = (0..size.div_ceil(part))
            .into_par_iter()
            .map(|p| {
                let (start, end) = (p * part, ((p + 1) * part).min(size));
                let stored = table.stored_part(start, end)?;
                let mut histogram = Histogram::empty();
                let (mut win, mut loss) = (None, None);
                let mut result = Ok(());
                indexer.for_each_in(start, end, |index, sides| {
                    if result.is_err() {
                        return;
                    }
                    let b = stored[(index - start) as usize];
                    let b = if compact {
                        match self.exact_byte(table, target, b, sides, index) {
                            Ok(b) => b,
                            Err(e) => {
                                result = Err(e);
                                return;
                            }
                        }
                    } else {
                        b
                    };
                    let value = Value::from_table_byte(b);
                    histogram.add(value);
                    match value {
                        Value::Win(d) => win = longer(win, Some((d, index))),
                        Value::Loss(d) => loss = longer(loss, Some((d, index))),
                        Value::Draw => {}
                    }
                });
                result.map(|()| (histogram, win, loss))
            })
            .try_reduce(
                || (Histogram::empty(), None, None),
                |(a, wa, la), (b, wb, lb)| Ok((a.merge(b), longer(wa, wb), longer(la, lb))),
            )?;
        let example = |found: Option<(u32, u64)>| -> Result<_, TablebaseError> {
            Ok(match found {
                Some((d, index)) => Some((d, indexer.unrank(index)?)),
                None => None,
            })
        };
        Ok(ClassSummary {
            histogram,
            longest_win: example(win)?,
            longest_loss: example(loss)?,
        })
    }

    /// The draw map of the compact table of `material` whose file has
    /// none (capture draws anywhere, header byte 71 = 1, as written before
    /// the map existed), as the words [`compact::append_draw_map`] takes:
    /// a unit's bit is set where some slot stores a loss that a capture
    /// draws. Each stored loss with a capture is resolved once, part by
    /// part on all cores (`reporter` hears [`crate::progress::Pass::Compact`]).
    fn draw_map_words(
        &self,
        material: Material,
        reporter: &dyn crate::progress::Progress,
    ) -> Result<Vec<u64>, TablebaseError> {
        let table = self.lookup(material)?;
        let indexer = table.indexer();
        let size = indexer.size();
        let part = table.part_slots();
        let target = capture_target(self, material);
        let unit_bits = compact::DRAW_MAP_UNIT_BITS;
        let done = std::sync::atomic::AtomicU64::new(0);
        let units: Vec<Vec<u64>> = (0..size.div_ceil(part))
            .into_par_iter()
            .map(|p| {
                let (start, end) = (p * part, ((p + 1) * part).min(size));
                let stored = table.stored_part(start, end)?;
                let mut units = Vec::new();
                let mut result = Ok(());
                indexer.for_each_in(start, end, |index, sides| {
                    let unit = index >> unit_bits;
                    if result.is_err()
                        || stored[(index - start) as usize] < 128
                        || units.last() == Some(&unit)
                    {
                        return;
                    }
                    match self.draws_by_capture(target, sides) {
                        Ok(true) => units.push(unit),
                        Ok(false) => {}
                        Err(e) => result = Err(e),
                    }
                });
                let so_far = done.fetch_add(end - start, std::sync::atomic::Ordering::Relaxed);
                reporter.progress(crate::progress::Pass::Compact, so_far + end - start, size);
                result.map(|()| units)
            })
            .collect::<Result<_, TablebaseError>>()?;
        let mut words = vec![0u64; size.div_ceil(64 << unit_bits) as usize];
        for unit in units.into_iter().flatten() {
            words[(unit / 64) as usize] |= 1 << (unit % 64);
        }
        Ok(words)
    }

    /// A copy of the compact table of `material`, whose file has no draw
    /// map (header byte 71 = 1), with one ([`Tablebase::draw_map_words`]):
    /// the same body and figures, the map appended (byte 71 = 2), or no
    /// capture draws at all (byte 71 = 0) where no stored loss hides one.
    /// `None` for a format 1 table or one that needs no map; else the
    /// table and the map's words.
    pub(crate) fn with_draw_map(
        &self,
        material: Material,
        reporter: &dyn crate::progress::Progress,
    ) -> Result<Option<(Table, Vec<u64>)>, TablebaseError> {
        let table = self.lookup(material)?;
        let Some(mut shape) = table.header().compact else {
            return Ok(None);
        };
        if !shape.capture_draws || shape.draw_map_bits.is_some() {
            return Ok(None);
        }
        let words = self.draw_map_words(material, reporter)?;
        let mut body = table.payload()?.to_vec();
        compact::append_draw_map(&mut shape, &mut body, table.indexer().size(), &words);
        let mapped = Table::from_compact(table.indexer().clone(), table.stats(), shape, body)?;
        Ok(Some((mapped, words)))
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

    /// Sets the table of its class, noting in `replaced` what was there
    /// (see [`Tablebase::put_back`]).
    pub(crate) fn replace(&mut self, table: Table, replaced: &mut Replaced) {
        let material = table.material();
        let old = self.tables.remove(&material);
        self.insert(table);
        replaced.0.push((material, old));
    }

    /// Undoes, latest first, what `replaced` noted for the classes `which`
    /// selects (the tables replaced come back, the ones loaded go), and
    /// keeps the rest noted.
    pub(crate) fn put_back(&mut self, replaced: &mut Replaced, which: impl Fn(Material) -> bool) {
        let mut kept = Vec::new();
        while let Some((material, old)) = replaced.0.pop() {
            if !which(material) {
                kept.push((material, old));
                continue;
            }
            match old {
                Some(table) => self.insert(table),
                None => {
                    self.tables.remove(&material);
                }
            }
        }
        kept.reverse();
        replaced.0 = kept;
        self.cache = std::sync::OnceLock::new();
    }

    /// Expands to a byte per slot, in place, the compact tables among
    /// `targets` (the classes a pair's captures reach: generation and
    /// verification probe them all the time), and first what expanding
    /// them needs: the class each one's captures reach, expanded itself
    /// (so its probes are exact and fast), and so on down while the tables
    /// met are compact. The tables below the targets are put back once the
    /// targets are expanded; what the targets replaced is returned, to put
    /// back when done with them ([`Tablebase::put_back`]).
    ///
    /// `load` gives the table of a class the tablebase lacks (`Ok(None)`:
    /// go on without it; its uses report why it is missing); `failed`
    /// judges a table that cannot be expanded: its error stops the work,
    /// `Ok` leaves the table as it is (its uses report what is wrong).
    pub(crate) fn expand_capture_targets(
        &mut self,
        targets: &[Material],
        mut load: impl FnMut(Material, &mut Directories) -> Result<Option<Table>, TablebaseError>,
        mut failed: impl FnMut(Material, TablebaseError) -> Result<(), TablebaseError>,
    ) -> Result<Replaced, TablebaseError> {
        let mut replaced = Replaced::default();
        for &material in targets {
            let mut chain = vec![material];
            loop {
                let last = chain[chain.len() - 1];
                if !self.tables.contains_key(&last) {
                    match load(last, &mut self.directories)? {
                        Some(table) => self.replace(table, &mut replaced),
                        None => break,
                    }
                }
                if !self.tables[&last].is_compact() {
                    break;
                }
                // Each step has one piece fewer, so the chain ends.
                match last.after_capture() {
                    Some(next) => chain.push(next),
                    None => break,
                }
            }
            for &m in chain.iter().rev() {
                if self.tables.get(&m).is_some_and(Table::is_compact) {
                    match self.expanded(m) {
                        Ok(table) => self.replace(table, &mut replaced),
                        Err(e) => failed(m, e)?,
                    }
                }
            }
        }
        self.put_back(&mut replaced, |m| !targets.contains(&m));
        Ok(replaced)
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
        self.compacted_keeping_contexts(material, options)
            .map(|(table, _)| table)
    }

    /// [`Tablebase::compacted_with`], and where the class was compacted
    /// whole with a context model, the model and every slot's context
    /// (bits 2 and up of a byte per slot, 0 for unused slots) for the
    /// read-back check.
    fn compacted_keeping_contexts(
        &self,
        material: Material,
        options: &CompactOptions,
    ) -> Result<(Table, Option<SlotContexts>), TablebaseError> {
        let model = options
            .model
            .unwrap_or_else(|| ContextModel::for_material(material));
        let capture_draws = options.capture_draws;
        let table = self.lookup(material)?;
        let values = self.values(material)?;
        let indexer = table.indexer();
        // Captures into a format 1 table are a rank and a read, through
        // what the positions on the same points share (`moves`).
        let target = capture_target(self, material);
        let quiet_wins = self.quiet_wins_in_1(material)?;
        // Per used slot: its context (bits 2..) and its freedom (bits 0-1).
        let info = |index: u64, sides: Sides, moves: &mut SetMoves| -> Result<u8, TablebaseError> {
            if values[index as usize] == 1
                && quiet_wins
                    .as_ref()
                    .is_some_and(|quiet| quiet.binary_search(&index).is_err())
            {
                // A win in 1 by a capture: any win may be stored, and the
                // position has a capture.
                let context = model.of_with(sides, true);
                return Ok((context as u8) << 2 | Freedom::AnyWin as u8);
            }
            let Sides { us, them } = sides;
            moves.on(0, us | them);
            let captures = moves.captures(us, them);
            // Whether a capture leaves the opponent with a result in `wdl`.
            let mut any_capture = |wdl: &[Wdl]| -> Result<bool, TablebaseError> {
                for &(from, to) in captures.as_slice() {
                    let after = Sides::new(them.without(to), us.without(from).with(to));
                    let theirs = if after.us.is_empty() {
                        Wdl::Loss
                    } else {
                        moves.capture_wdl(self, target, from, after)?
                    };
                    if wdl.contains(&theirs) {
                        return Ok(true);
                    }
                }
                Ok(false)
            };
            let freedom = match (values[index as usize], target) {
                (1, Some(_)) if any_capture(&[Wdl::Loss])? => Freedom::AnyWin,
                (0, Some(_)) if capture_draws && any_capture(&[Wdl::Loss, Wdl::Draw])? => {
                    Freedom::AnyNonWin
                }
                // Compact tables captures reach: the probes' own tests.
                (1, None) if self.wins_by_capture(target, sides)? => Freedom::AnyWin,
                (0, None) if capture_draws && self.draws_by_capture(target, sides)? => {
                    Freedom::AnyNonWin
                }
                _ => Freedom::Exact,
            };
            let context = model.of_with(sides, !captures.as_slice().is_empty());
            Ok((context as u8) << 2 | freedom as u8)
        };
        let mut contexts = None;
        let (mut shape, mut body, draw_map) = if indexer.size() > options.streaming_above {
            compact_streaming(indexer, &values, model, options.sample_slots, &info)?
        } else {
            let mut slot_info = vec![Freedom::Any as u8; values.len()];
            fill_used_slots(indexer, &mut slot_info, info)?;
            let draw_map: Vec<u64> = slot_info
                .par_chunks(compact::DRAW_MAP_WORD_SLOTS)
                .map(compact::draw_map_word)
                .collect();
            let (shape, body) = match model {
                ContextModel::None => {
                    let freedom: Vec<u8> = slot_info.iter().map(|&b| b & 3).collect();
                    compact::encode(&values, &freedom, Stored::Values)
                }
                model => {
                    let (ranks, maps, stored) = rank_by_context(model, &values, &mut slot_info);
                    let encoded = compact::encode(
                        &stored,
                        &slot_info,
                        Stored::Ranks {
                            model,
                            ranks,
                            maps: &maps,
                        },
                    );
                    contexts = Some((model, slot_info));
                    encoded
                }
            };
            (shape, body, draw_map)
        };
        // Capture draws only where some slot is one (no map without them).
        compact::append_draw_map(&mut shape, &mut body, indexer.size(), &draw_map);
        let stats = histogram_of(indexer, &values).stats(material, indexer.size());
        let table = Table::from_compact(indexer.clone(), stats, shape, body)?;
        Ok((table, contexts))
    }
}

impl Tablebase {
    /// The slots of `material` whose positions win in 1 by a quiet move,
    /// in order: a step into a position of the partner class (the same
    /// pieces, the other side to move) that has no move at all, a loss in
    /// 0. Every other win in 1 wins by a capture (into a lost position, or
    /// of the last enemy piece), so the compact writer need not look for
    /// it. `None` where the partner's table is not here in format 1 (then
    /// every win in 1 is tested).
    fn quiet_wins_in_1(&self, material: Material) -> Result<Option<Vec<u64>>, TablebaseError> {
        let own = self.lookup(material)?.indexer();
        let Some(partner) = self.table(material.swapped()) else {
            return Ok(None);
        };
        if partner.is_compact() {
            return Ok(None);
        }
        let Some(lost) = Value::Loss(0).to_byte() else {
            return Ok(None);
        };
        let mut found = Vec::new();
        for (index, _) in partner
            .payload()?
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b == lost)
        {
            // The partner's side to move has no move; the other side just
            // stepped there. (A byte at an unused slot of a damaged file
            // names no position: the read-back check judges such files.)
            let Ok(Sides { us, them }) = partner.indexer().unrank(index as u64) else {
                continue;
            };
            let empty = Bitboard::FULL - us - them;
            for to in them {
                for from in step_targets(to) & empty {
                    found.push(own.rank(Sides::new(them.without(to).with(from), us))?.index);
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        Ok(Some(found))
    }
}

/// What a tablebase held for the classes whose tables were loaded into it
/// or replaced by expanded copies, in order: the old table, or `None` where
/// there was none ([`Tablebase::put_back`] restores it).
#[derive(Debug, Default)]
pub(crate) struct Replaced(Vec<(Material, Option<Table>)>);

/// The context model a class was written with and every slot's context
/// (bits 2 and up of a byte per slot), kept for the read-back check.
type SlotContexts = (ContextModel, Vec<u8>);

/// Slots per work item of the streaming path: whole chunks, and one word
/// of the draw map.
const STREAM_ITEM: u64 = compact::DRAW_MAP_WORD_SLOTS as u64;

/// Compacts a class without a byte per slot of working memory: learns the
/// value ranking and the grammar on a sample of chunks, then encodes every
/// chunk on its own with them, recomputing its slots' context and freedom
/// (`info`, as [`fill_used_slots`] takes it) on the fly. What is held
/// beyond the values: the sample (three bytes per slot, and Re-Pair's
/// work on it) while the grammar is learned, then the symbols of every
/// chunk, which are compressed already, and the body.
fn compact_streaming(
    indexer: &TableIndexer,
    values: &[u8],
    model: ContextModel,
    sample_slots: u64,
    info: &(impl Fn(u64, Sides, &mut SetMoves) -> Result<u8, TablebaseError> + Sync),
) -> Result<(CompactShape, Vec<u8>, Vec<u64>), TablebaseError> {
    let slots = values.len() as u64;
    let chunk = 1u64 << compact::CHUNK_BITS;
    let chunks = slots.div_ceil(chunk);
    // The context and freedom of the slots `start..start + out.len()`.
    let info_in = |start: u64, out: &mut [u8]| -> Result<(), TablebaseError> {
        out.fill(Freedom::Any as u8);
        let mut result = Ok(());
        let mut moves = SetMoves::new();
        indexer.for_each_in(start, start + out.len() as u64, |index, sides| {
            if result.is_ok() {
                result = info(index, sides, &mut moves).map(|b| out[(index - start) as usize] = b);
            }
        });
        result
    };
    let range = |c: u64| -> (u64, usize) { (c * chunk, (slots - c * chunk).min(chunk) as usize) };
    // 1. The sample: its slots' context and freedom, counted by context.
    let picks = sample_chunks(chunks, (sample_slots / chunk).max(1));
    let sample_info: Vec<Vec<u8>> = picks
        .par_iter()
        .map(|&c| {
            let (start, len) = range(c);
            let mut out = vec![0u8; len];
            info_in(start, &mut out).map(|()| out)
        })
        .collect::<Result<_, _>>()?;
    let mut counts = Counts::new(model.contexts());
    for (&c, info) in picks.iter().zip(&sample_info) {
        let (start, len) = range(c);
        counts.add(&values[start as usize..][..len], info);
    }
    // Every value of the class gets a rank in every context, after the
    // sample's: a value the sample missed still has a terminal.
    let ranking = Ranking::new(counts.settled(), &values_by_count(values));
    // 2. The grammar, learned on the sample's ranks.
    let sample: Vec<Vec<u16>> = picks
        .par_iter()
        .zip(sample_info)
        .map(|(&c, mut info)| {
            let (start, len) = range(c);
            ranking.terminals(&values[start as usize..][..len], &mut info)
        })
        .collect();
    // (The sample's own parse is dropped: every chunk is parsed below.)
    let re_pair::Grammar {
        terminals, rules, ..
    } = re_pair::compress(sample, ranking.ranks, compact::max_symbols(slots));
    let table = re_pair::RuleTable::new(terminals, &rules);
    // 3. Every chunk, parsed with the grammar.
    let per_item = STREAM_ITEM / chunk;
    let items: Vec<(Vec<Vec<u16>>, u64)> = (0..chunks.div_ceil(per_item))
        .into_par_iter()
        .map_init(re_pair::Parser::default, |parser, item| {
            let first = item * per_item;
            let start = first * chunk;
            let len = (slots - start).min(STREAM_ITEM) as usize;
            let mut info = vec![0u8; len];
            info_in(start, &mut info)?;
            let draw_map = compact::draw_map_word(&info);
            let values = &values[start as usize..][..len];
            let symbols = values
                .chunks(chunk as usize)
                .zip(info.chunks_mut(chunk as usize))
                .map(|(values, info)| parser.parse(&table, &ranking.terminals(values, info)))
                .collect();
            Ok((symbols, draw_map))
        })
        .collect::<Result<_, TablebaseError>>()?;
    let (items, draw_map): (Vec<_>, Vec<u64>) = items.into_iter().unzip();
    let grammar = re_pair::Grammar {
        terminals,
        rules,
        chunks: items.into_iter().flatten().collect(),
    };
    let (shape, body) = compact::assemble(grammar, slots, model, &ranking.maps);
    Ok((shape, body, draw_map))
}

/// `k` of the chunks `0..chunks` (all if `k ≥ chunks`), in order, spread
/// evenly: one from each of `k` equal strata, at a fixed pseudo-random
/// place within it (a stride could fall in step with the index's
/// periods).
fn sample_chunks(chunks: u64, k: u64) -> Vec<u64> {
    let k = k.min(chunks);
    (0..k)
        .map(|i| {
            let lo = (u128::from(i) * u128::from(chunks) / u128::from(k)) as u64;
            let hi = (u128::from(i + 1) * u128::from(chunks) / u128::from(k)) as u64;
            // SplitMix64 of the stratum.
            let mut z = i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            lo + z % (hi - lo).max(1)
        })
        .collect()
}

/// The values present in `values`, most frequent first (a pass over the
/// bytes, no positions decoded).
fn values_by_count(values: &[u8]) -> Vec<u8> {
    let counts = values
        .par_chunks(CHUNK)
        .fold(
            || [0u64; 256],
            |mut counts, part| {
                part.iter().for_each(|&v| counts[v as usize] += 1);
                counts
            },
        )
        .reduce(
            || [0u64; 256],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                a
            },
        );
    let mut order: Vec<u8> = (0..=255u8).filter(|&v| counts[v as usize] > 0).collect();
    order.sort_by_key(|&v| std::cmp::Reverse(counts[v as usize]));
    order
}

/// Per-context counts of values for a [`Ranking`]: a free win counts as a
/// win in 1, a free draw as its context's commonest exact draw or loss
/// once every slot is counted ([`Counts::settled`]).
struct Counts {
    /// Per context, how often each value is stored exactly.
    values: Vec<[u64; 256]>,
    /// Per context, the free draws.
    free_draws: Vec<u64>,
}

impl Counts {
    /// No slots counted, for `contexts` contexts.
    fn new(contexts: usize) -> Counts {
        Counts {
            values: vec![[0u64; 256]; contexts],
            free_draws: vec![0; contexts],
        }
    }

    /// Counts some slots (`slot_info`: context and freedom per slot).
    fn add(&mut self, values: &[u8], slot_info: &[u8]) {
        for (&v, &info) in values.iter().zip(slot_info.iter()) {
            let c = usize::from(info >> 2);
            match info & 3 {
                f if f == Freedom::Any as u8 => {}
                f if f == Freedom::AnyWin as u8 => self.values[c][1] += 1,
                f if f == Freedom::AnyNonWin as u8 => self.free_draws[c] += 1,
                _ => self.values[c][v as usize] += 1,
            }
        }
    }

    /// The counts with the free draws added to their contexts' commonest
    /// draw or loss.
    fn settled(mut self) -> Vec<[u64; 256]> {
        for (c, &free) in self.values.iter_mut().zip(&self.free_draws) {
            if free > 0 {
                let commonest = (0..=255usize)
                    .filter(|&v| !(1..=127).contains(&v))
                    .max_by_key(|&v| (c[v], std::cmp::Reverse(v)))
                    .unwrap_or(0);
                c[commonest] += free;
            }
        }
        self.values
    }
}

/// The terminals of a context model: in each context the values ranked by
/// their counts ([`Counts`]), most frequent first.
struct Ranking {
    /// Terminals: the most ranks of a context.
    ranks: usize,
    /// The value of rank `r` in context `c` at `c · ranks + r`.
    maps: Vec<u8>,
    /// The rank of each value in each context.
    rank_of: Vec<[u8; 256]>,
    /// The first rank that is a win, per context.
    first_win: Vec<u8>,
    /// The first rank that is a draw or a loss, per context.
    first_non_win: Vec<u8>,
}

impl Ranking {
    /// The ranking by these counts; then, in each context, the values of
    /// `also` that it has not ranked, in that order.
    fn new(counts: Vec<[u64; 256]>, also: &[u8]) -> Ranking {
        let contexts = counts.len();
        let orders: Vec<Vec<u8>> = counts
            .iter()
            .map(|c| {
                let mut order: Vec<u8> = (0..=255u8).filter(|&v| c[v as usize] > 0).collect();
                order.sort_by_key(|&v| std::cmp::Reverse(c[v as usize]));
                order.extend(also.iter().filter(|&&v| c[v as usize] == 0));
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
        Ranking {
            ranks,
            maps,
            rank_of,
            first_win,
            first_non_win,
        }
    }

    /// The rank to store for a slot of value `v` with context and freedom
    /// `info`, and the info becomes the freedom to encode with: a free win
    /// is stored as its context's first win, a free draw as its first draw
    /// or loss, exactly; an unused slot stays free (rank 0).
    #[inline]
    fn rank(&self, v: u8, info: &mut u8) -> u8 {
        let c = usize::from(*info >> 2);
        let (rank, freedom) = match *info & 3 {
            f if f == Freedom::Any as u8 => (0, Freedom::Any),
            f if f == Freedom::AnyWin as u8 => (self.first_win[c], Freedom::Exact),
            f if f == Freedom::AnyNonWin as u8 => (self.first_non_win[c], Freedom::Exact),
            _ => (self.rank_of[c][v as usize], Freedom::Exact),
        };
        *info = freedom as u8;
        rank
    }

    /// The terminal symbols of a chunk encoded on its own (its values and
    /// their context and freedom; `info` becomes the freedom): ranks, free
    /// slots filled ([`compact::fill_chunk`]).
    fn terminals(&self, values: &[u8], info: &mut [u8]) -> Vec<u16> {
        let mut stored: Vec<u8> = values
            .iter()
            .zip(info.iter_mut())
            .map(|(&v, i)| self.rank(v, i))
            .collect();
        compact::fill_chunk(&mut stored, info);
        stored.into_iter().map(u16::from).collect()
    }
}

/// The terminals of a context model over a whole class: the
/// [`Ranking`] by its [`Counts`], and each slot's rank.
/// Returns the number of ranks, the value of each rank in each context
/// (`maps[c · ranks + r]`), and the stored ranks; `slot_info` (context and
/// freedom per slot) gets the freedom to encode with ([`Ranking::rank`])
/// in bits 0-1 and keeps the context in bits 2 and up.
fn rank_by_context(
    model: ContextModel,
    values: &[u8],
    slot_info: &mut [u8],
) -> (usize, Vec<u8>, Vec<u8>) {
    let mut counts = Counts::new(model.contexts());
    counts.add(values, slot_info);
    let ranking = Ranking::new(counts.settled(), &[]);
    let mut stored = vec![0u8; values.len()];
    stored
        .par_chunks_mut(CHUNK)
        .zip(slot_info.par_chunks_mut(CHUNK))
        .zip(values.par_chunks(CHUNK))
        .for_each(|((stored, info), values)| {
            for ((s, i), &v) in stored.iter_mut().zip(info.iter_mut()).zip(values) {
                let context = *i & !3;
                let rank = ranking.rank(v, i);
                if *i == Freedom::Exact as u8 {
                    *s = rank;
                }
                *i |= context;
            }
        });
    let Ranking { ranks, maps, .. } = ranking;
    (ranks, maps, stored)
}

/// Sets `out[i] = f(i, position, moves)` for every used slot `i` of
/// `indexer` (unused slots keep their byte), on all cores, `moves` holding
/// what the positions on the same points share; stops at the first error.
fn fill_used_slots(
    indexer: &TableIndexer,
    out: &mut [u8],
    f: impl Fn(u64, Sides, &mut SetMoves) -> Result<u8, TablebaseError> + Sync,
) -> Result<(), TablebaseError> {
    out.par_chunks_mut(CHUNK)
        .enumerate()
        .try_for_each(|(c, part)| {
            let start = (c * CHUNK) as u64;
            let mut result = Ok(());
            let mut moves = SetMoves::new();
            indexer.for_each_in(start, start + part.len() as u64, |index, sides| {
                if result.is_ok() {
                    result =
                        f(index, sides, &mut moves).map(|b| part[(index - start) as usize] = b);
                }
            });
            result
        })
}

/// A class summed up ([`Tablebase::summary`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ClassSummary {
    /// How many positions have each value.
    pub histogram: Histogram,
    /// The longest win's distance and its first position in index order
    /// (`None`: no position of the class wins).
    pub longest_win: Option<(u32, Sides)>,
    /// The longest loss's distance and its first position in index order
    /// (`None`: no position of the class loses).
    pub longest_loss: Option<(u32, Sides)>,
}

/// What [`compress_dir`] did with one table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompressStep {
    /// Converted from format 1 to format 2.
    Converted,
    /// A compact table written before draw maps existed (header byte
    /// 71 set to 1) given its draw map: the same stored values, faster
    /// probes of its stored losses.
    DrawMapAdded,
    /// Left alone: compact already, with a draw map or without the need
    /// for one.
    Unchanged,
}

/// What [`compress_dir`] did with one table.
#[derive(Clone, Debug, PartialEq)]
pub struct CompressOutcome {
    /// The class.
    pub material: Material,
    /// Bytes of the file before.
    pub before: u64,
    /// Bytes of the file after (equal when it was left alone).
    pub after: u64,
    /// What was done.
    pub step: CompressStep,
    /// Seconds it took.
    pub seconds: f64,
}

/// Converts the format 1 tables of a directory to format 2 in place, and
/// gives the compact tables written before draw maps existed (header byte
/// 71 = 1) their draw map. Each new file is written beside the old one,
/// read back and checked, then renamed over it: a converted table's every
/// value (don't-care slots resolved) is compared with the old one's; a
/// table given a map must have the old body byte for byte, the old
/// figures, and the map computed (so a stored loss answers without
/// resolution only where the old file's resolution kept it a loss).
/// Interrupted at any moment, every table of the directory is whole in
/// one form or the other, and a rerun finishes the work. Every table a
/// compact one's captures reach must be in the directory.
///
/// Only the tables of `classes` are touched (all when it is empty); a
/// class without a table there is an error that names it.
///
/// The directory is read into memory ([`Tablebase::open_dir`]); for one
/// larger than memory, map it and use [`compress_tables`].
///
/// # Examples
///
/// ```
/// use surakarta_index::Scheme;
/// use surakarta_tablebase::{compress_dir, generate_dir, CompactOptions, NoProgress, Tablebase};
///
/// let dir = std::env::temp_dir().join(format!("surakarta-doc-compress-{}", std::process::id()));
/// generate_dir(&dir, 3, Scheme::Symmetric, 1, &NoProgress)?; // format 1
/// let outcomes = compress_dir(&dir, &[], &CompactOptions::default(), &NoProgress)?;
/// assert!(outcomes.iter().all(|o| o.after <= o.before));
/// let tables = Tablebase::open_dir(&dir)?;
/// assert!(tables.materials().all(|m| tables.table(m).is_some_and(|t| t.format() == 2)));
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn compress_dir(
    dir: &std::path::Path,
    classes: &[Material],
    options: &CompactOptions,
    reporter: &dyn crate::progress::Progress,
) -> Result<Vec<CompressOutcome>, TablebaseError> {
    compress_tables(&Tablebase::open_dir(dir)?, dir, classes, options, reporter)
}

/// [`compress_dir`] with the tables of `dir` already open as `tablebase`
/// (memory-mapped with [`Tablebase::map_dir`], a 10-piece directory's
/// format 1 tables are not read into memory: a table being replaced keeps
/// answering from the old file, which the rename leaves whole). Holds the
/// lock of `dir` ([`crate::files::lock::DirLock`]) while it works: another run there is
/// [`TablebaseError::DirectoryInUse`].
pub fn compress_tables(
    tablebase: &Tablebase,
    dir: &std::path::Path,
    classes: &[Material],
    options: &CompactOptions,
    reporter: &dyn crate::progress::Progress,
) -> Result<Vec<CompressOutcome>, TablebaseError> {
    let _lock = crate::files::lock::DirLock::acquire(dir)?;
    for &class in classes {
        tablebase.lookup(class)?;
    }
    let materials: Vec<Material> = tablebase
        .materials()
        .filter(|m| classes.is_empty() || classes.contains(m))
        .collect();
    let total = materials
        .iter()
        .filter_map(|&m| tablebase.table(m))
        .filter(|t| !t.is_compact() || needs_draw_map(t))
        .map(|t| t.indexer().size())
        .sum();
    reporter.started(total);
    let mut outcomes = Vec::new();
    let mut directories = crate::probe::table::Directories::default();
    for material in materials {
        let start = std::time::Instant::now();
        let table = tablebase.lookup(material)?;
        let before = table.file_len();
        if table.is_compact() {
            let path = dir.join(crate::format::file_name(material));
            let mut step = CompressStep::Unchanged;
            let mut after = before;
            if needs_draw_map(table) {
                reporter.pair_started(&[material], table.indexer().size());
                if let Some((mapped, words)) = tablebase.with_draw_map(material, reporter)? {
                    let old_body = table.payload()?;
                    mapped.write_checked(&path, |bytes| {
                        let back = Table::from_file_bytes(&path, bytes, &mut directories)?;
                        // The old body and figures, and the map computed
                        // (a unit's bit, as the new file answers it).
                        let unit_bits = compact::DRAW_MAP_UNIT_BITS;
                        let same = back.stats() == table.stats()
                            && back.payload()?.starts_with(old_body)
                            && (0..back.indexer().size().div_ceil(1 << unit_bits)).all(|u| {
                                back.may_hide_draw(u << unit_bits)
                                    == (words[(u / 64) as usize] >> (u % 64) & 1 == 1)
                            });
                        if same {
                            Ok(())
                        } else {
                            Err(crate::error::file_error(
                                &path,
                                crate::format::FileProblem::Corrupt(
                                    "the table with its draw map differs",
                                ),
                            ))
                        }
                    })?;
                    reporter.class_done(&table.stats(), start.elapsed());
                    step = CompressStep::DrawMapAdded;
                    after = mapped.file_len();
                }
            }
            outcomes.push(CompressOutcome {
                material,
                before,
                after,
                step,
                seconds: if step == CompressStep::Unchanged {
                    0.0
                } else {
                    start.elapsed().as_secs_f64()
                },
            });
            continue;
        }
        reporter.pair_started(&[material], table.indexer().size());
        reporter.progress(crate::progress::Pass::Compact, 0, table.indexer().size());
        let old = tablebase.values(material)?;
        let (compact, contexts) = tablebase.compacted_keeping_contexts(material, options)?;
        let path = dir.join(crate::format::file_name(material));
        compact.write_checked(&path, |bytes| {
            let back = Table::from_file_bytes(&path, bytes, &mut directories)?;
            // The contexts the writer computed, not computed again: the
            // check still decodes every block and compares every value.
            let stored = match &contexts {
                Some((model, contexts)) => back.stored_bytes_in(*model, contexts)?,
                None => back.stored_bytes()?,
            };
            if tablebase.answers_as(&back, stored, &old)? {
                Ok(())
            } else {
                Err(crate::error::file_error(
                    &path,
                    crate::format::FileProblem::Corrupt("the compact table answers differently"),
                ))
            }
        })?;
        reporter.class_done(&table.stats(), start.elapsed());
        outcomes.push(CompressOutcome {
            material,
            before,
            after: compact.file_len(),
            step: CompressStep::Converted,
            seconds: start.elapsed().as_secs_f64(),
        });
    }
    Ok(outcomes)
}

/// Whether a table is compact with capture draws but no draw map (header
/// byte 71 = 1): [`compress_dir`] gives it one.
fn needs_draw_map(table: &Table) -> bool {
    table
        .header()
        .compact
        .is_some_and(|shape| shape.capture_draws && shape.draw_map_bits.is_none())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::NoProgress;
    use std::collections::BTreeSet;
    use surakarta::capture_moves;
    use surakarta_index::Scheme;

    /// The quiet wins in 1 are exactly the positions with a step into a
    /// partner position without moves, and every other win in 1 has a
    /// capture that wins: what lets the compact writer skip the captures of
    /// those (every class up to 5 pieces in the symmetric scheme and up to
    /// 4 in the plain one; a lone piece can be walled in, so the partners
    /// of 1v3 and 1v4 have quiet wins in 1).
    #[test]
    fn wins_in_1_not_by_a_step_win_by_a_capture() {
        let (plain_4, _) = Tablebase::generate(4, Scheme::Plain, &NoProgress).unwrap();
        for (scheme, tables) in [
            (Scheme::Symmetric, crate::test_tables::up_to_5()),
            (Scheme::Plain, &plain_4),
        ] {
            let mut quiet_total = 0;
            for material in tables.materials().collect::<Vec<_>>() {
                let table = tables.lookup(material).unwrap();
                let partner = tables.lookup(material.swapped()).unwrap();
                let quiet = tables.quiet_wins_in_1(material).unwrap().unwrap();
                let target = capture_target(tables, material);
                let values = table.payload().unwrap();
                let mut expected = Vec::new();
                table
                    .indexer()
                    .for_each_in(0, table.indexer().size(), |index, sides| {
                        let empty = Bitboard::FULL - sides.us - sides.them;
                        let steps_into_a_loss_in_0 = sides.us.into_iter().any(|from| {
                            (step_targets(from) & empty).into_iter().any(|to| {
                                let after = Sides::new(sides.them, sides.us.without(from).with(to));
                                partner.stored_value(after).unwrap() == Value::Loss(0)
                            })
                        });
                        if steps_into_a_loss_in_0 {
                            expected.push(index);
                        }
                        if values[index as usize] == 1 && !steps_into_a_loss_in_0 {
                            assert!(
                                tables.wins_by_capture(target, sides).unwrap(),
                                "{material} {sides:?}"
                            );
                        }
                    });
                assert_eq!(quiet, expected, "{material} {scheme:?}");
                quiet_total += quiet.len();
            }
            assert!(quiet_total > 0, "{scheme:?}");
        }
        // A loss in 0 at an unused slot of the partner names no position.
        let (mut tables, _) = Tablebase::generate(5, Scheme::Symmetric, &NoProgress).unwrap();
        let (one_four, four_one) = ("1v4".parse().unwrap(), "4v1".parse().unwrap());
        let before = tables.quiet_wins_in_1(four_one).unwrap().unwrap();
        let partner = tables.lookup(one_four).unwrap();
        let mut values = partner.payload().unwrap().to_vec();
        let mut unused = Vec::new();
        let size = partner.indexer().size();
        partner
            .indexer()
            .for_each_unused_in(0, size, |i| unused.push(i));
        assert!(!unused.is_empty());
        for &i in &unused {
            values[i as usize] = Value::Loss(0).to_byte().unwrap();
        }
        let damaged = Table::new(partner.indexer().clone(), values).unwrap();
        tables.insert(damaged);
        assert_eq!(tables.quiet_wins_in_1(four_one).unwrap().unwrap(), before);
    }

    #[test]
    fn sample_chunks_are_spread_over_every_stratum_in_order() {
        assert_eq!(sample_chunks(5, 9), vec![0, 1, 2, 3, 4]);
        assert_eq!(sample_chunks(1, 1), vec![0]);
        let picks = sample_chunks(1000, 10);
        assert_eq!(picks.len(), 10);
        for (i, &c) in picks.iter().enumerate() {
            assert!(
                (100 * i as u64..100 * (i as u64 + 1)).contains(&c),
                "{picks:?}"
            );
        }
        // Not a stride: the places within the strata differ.
        let offsets: BTreeSet<u64> = picks.iter().map(|c| c % 100).collect();
        assert!(offsets.len() > 5, "{picks:?}");
    }

    /// A class summed up part by part equals its values summed up whole:
    /// the histogram, and the longest win and loss at their first used slots, for every
    /// class up to 5 pieces as format 1, as compact tables, and with the
    /// classes of 2 and 4 pieces compact (so captures meet both formats;
    /// parts of 4,096 slots in tests, so most classes have several). The
    /// exact values of the compact tables equal the format 1 ones.
    #[test]
    fn summaries_part_by_part_equal_the_whole_values() {
        let plain = crate::test_tables::up_to_5();
        let mut compact = Tablebase::new();
        let mut mixed = Tablebase::new();
        for material in plain.materials() {
            compact.insert(plain.compacted(material).unwrap());
            mixed.insert(if material.pieces() % 2 == 0 {
                plain.compacted(material).unwrap()
            } else {
                plain.expanded(material).unwrap()
            });
        }
        let mut several_parts = 0;
        for material in plain.materials() {
            let indexer = plain.lookup(material).unwrap().indexer();
            let values = plain.values(material).unwrap();
            let histogram = Histogram::of(indexer, &values);
            // The first used slot holding the longest of `counts`'s values.
            let first = |counts: &[u64], value: fn(u32) -> Value| {
                let d = counts.iter().rposition(|&n| n > 0)? as u32;
                let byte = value(d).to_byte();
                let mut first = None;
                indexer.for_each_in(0, indexer.size(), |index, sides| {
                    if first.is_none() && Some(values[index as usize]) == byte {
                        first = Some((d, sides));
                    }
                });
                first
            };
            let (win, loss) = (
                first(&histogram.wins, Value::Win),
                first(&histogram.losses, Value::Loss),
            );
            for tb in [plain, &compact, &mixed] {
                let summary = tb.summary(material).unwrap();
                assert_eq!(summary.histogram, histogram, "{material}");
                assert_eq!(summary.longest_win, win, "{material}");
                assert_eq!(summary.longest_loss, loss, "{material}");
                assert_eq!(tb.histogram(material).unwrap(), histogram);
                assert_eq!(tb.values(material).unwrap(), values, "{material}");
                let table = tb.lookup(material).unwrap();
                several_parts += usize::from(indexer.size() > 2 * table.part_slots());
            }
        }
        assert!(several_parts > 10, "{several_parts}");
    }

    /// The read-back check of `tb compress` ([`Tablebase::answers_as`])
    /// gives the answer of the full comparison (every slot resolved, as
    /// [`Tablebase::values_of`] does) for the true stored bytes of every
    /// class up to 5 pieces and for thousands of damaged copies of them
    /// (60 a class, 12 of the classes above 100,000 slots, whose full
    /// comparisons cost the most): single bytes replaced by random ones, in
    /// parts it resolves in full and in parts where it resolves only the
    /// slots that differ.
    #[test]
    fn check_matches_the_full_comparison() {
        let plain = crate::test_tables::up_to_5();
        let mut rng = surakarta::random::SplitMix::new(0x2545_f491_4f6c_dd1d);
        let (mut damaged, mut caught) = (0, 0);
        for material in plain.materials() {
            let exact = plain.values(material).unwrap();
            let table = plain.compacted(material).unwrap();
            let stored = table.stored_bytes().unwrap().into_owned();
            assert!(
                plain
                    .answers_as(&table, Cow::Borrowed(&stored), &exact)
                    .unwrap(),
                "{material}"
            );
            let copies = if stored.len() > 100_000 { 6 } else { 30 };
            for _ in 0..copies {
                let mut copy = stored.clone();
                let slot = rng.below(copy.len());
                // Some slots in the parts resolved in full, most elsewhere.
                let slot = if rng.below(4) == 0 {
                    slot % CHUNK
                } else {
                    slot
                };
                copy[slot] = rng.next_u64() as u8;
                let full = plain
                    .values_from_stored(&table, Cow::Borrowed(&copy))
                    .unwrap();
                let want = full[..] == exact[..];
                let got = plain
                    .answers_as(&table, Cow::Borrowed(&copy), &exact)
                    .unwrap();
                assert_eq!(got, want, "{material} slot {slot} byte {}", copy[slot]);
                damaged += 1;
                caught += usize::from(!got);
            }
            // A copy of the wrong length never answers as the class.
            let short = Cow::Borrowed(&stored[..stored.len() - 1]);
            assert!(!plain.answers_as(&table, short, &exact).unwrap());
        }
        // Most random damage changes an answer (don't-care slots may take
        // another byte that resolves the same).
        assert!(caught * 2 > damaged, "{caught} of {damaged}");
    }

    /// The draw map is set for exactly the units that hold a draw a
    /// capture proves, by both writers (whole and streaming); a class
    /// without such a draw, or that stores no loss, has no capture draws
    /// (and no map); stored losses outside the
    /// map resolve without capture probes and are exact; and the same body
    /// without its map (header byte 71 = 1, the earlier layout) reads the
    /// same values.
    #[test]
    fn draw_maps_mark_exactly_the_units_with_capture_draws() {
        let plain = crate::test_tables::up_to_5();
        let streaming = CompactOptions {
            streaming_above: 0,
            ..CompactOptions::default()
        };
        let unit = compact::DRAW_MAP_UNIT_BITS;
        let (mut mapped, mut unmapped, mut exempt) = (0, 0, 0u64);
        for material in plain.materials() {
            let indexer = plain.lookup(material).unwrap().indexer();
            let values = plain.values(material).unwrap();
            let units = indexer.size().div_ceil(1 << unit) as usize;
            let mut want = vec![false; units];
            indexer.for_each_in(0, u64::MAX, |index, sides| {
                if values[index as usize] == 0 && plain.draws_by_capture(None, sides).unwrap() {
                    want[(index >> unit) as usize] = true;
                }
            });
            for options in [CompactOptions::default(), streaming] {
                let table = plain.compacted_with(material, &options).unwrap();
                let shape = table.header().compact.unwrap();
                let stores_losses = table.stored_bytes().unwrap().iter().any(|&b| b >= 128);
                let expected = want.contains(&true) && stores_losses;
                assert_eq!(table.capture_draws(), expected, "{material}");
                if !table.capture_draws() {
                    assert_eq!(shape.draw_map_bits, None);
                    continue;
                }
                assert_eq!(shape.draw_map_bits, Some(unit));
                for (u, &set) in want.iter().enumerate() {
                    let last = ((u as u64 + 1) << unit).min(indexer.size()) - 1;
                    assert_eq!(table.may_hide_draw((u as u64) << unit), set, "{material}");
                    assert_eq!(table.may_hide_draw(last), set, "{material}");
                }
                unmapped += want.iter().filter(|&&set| !set).count();
                mapped += want.iter().filter(|&&set| set).count();
                let stored = table.stored_bytes().unwrap();
                indexer.for_each_in(0, u64::MAX, |index, sides| {
                    let i = index as usize;
                    if stored[i] >= 128
                        && !table.may_hide_draw(index)
                        && !capture_moves(sides.us, sides.them).is_empty()
                    {
                        assert_eq!(stored[i], values[i], "{material}");
                        exempt += 1;
                    }
                });
                assert_eq!(plain.values_of(&table).unwrap(), values, "{material}");
                // The same body without its map: every stored loss may hide
                // a draw, and the values are the same.
                let mut body = table.payload().unwrap().to_vec();
                body.truncate(body.len() - shape.draw_map_len(indexer.size()) as usize);
                let old = CompactShape {
                    draw_map_bits: None,
                    ..shape
                };
                let old = Table::from_compact(indexer.clone(), table.stats(), old, body).unwrap();
                assert!(old.capture_draws() && old.may_hide_draw(0));
                assert_eq!(plain.values_of(&old).unwrap(), values, "{material}");
            }
        }
        assert!(mapped > 100 && unmapped > 100, "{mapped} {unmapped}");
        assert!(exempt > 10_000, "{exempt}");
    }

    /// With a sample of one chunk, classes have values the sample never
    /// saw: they still get terminals and read back exactly.
    /// A compact table written before draw maps (header byte 71 = 1)
    /// given its map afterwards ([`Tablebase::with_draw_map`], what `tb
    /// compress` does to such files): the same body up to the map, the
    /// same exact values, and a unit set exactly where some stored loss
    /// is a draw (checked against format 1), within the units the writer
    /// itself would set; and `compress_dir` does it to such files, once.
    #[test]
    fn draw_maps_added_to_old_compact_tables_mark_the_hidden_draws() {
        let (mut plain, _) = Tablebase::generate(5, Scheme::Symmetric, &NoProgress).unwrap();
        let unit = compact::DRAW_MAP_UNIT_BITS;
        let dir = std::env::temp_dir().join(format!("surakarta-add-map-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (mut added, mut set_units) = (0, 0);
        for material in plain.materials().collect::<Vec<_>>() {
            let values = plain.values(material).unwrap().into_owned();
            let table = plain.compacted(material).unwrap();
            let indexer = table.indexer().clone();
            let shape = table.header().compact.unwrap();
            let path = dir.join(crate::format::file_name(material));
            let Some(bits) = shape.draw_map_bits else {
                table.write(&path).unwrap();
                continue;
            };
            let mut body = table.payload().unwrap().to_vec();
            body.truncate(body.len() - shape.draw_map_len(indexer.size()) as usize);
            let unmapped = CompactShape {
                draw_map_bits: None,
                ..shape
            };
            let old = Table::from_compact(indexer.clone(), table.stats(), unmapped, body).unwrap();
            old.write(&path).unwrap();
            let old_body = old.payload().unwrap().to_vec();
            let mut replaced = Replaced(Vec::new());
            plain.replace(old, &mut replaced);
            let (new, words) = plain.with_draw_map(material, &NoProgress).unwrap().unwrap();
            plain.put_back(&mut replaced, |_| true);
            added += 1;
            assert!(new.payload().unwrap().starts_with(&old_body));
            assert_eq!(plain.values_of(&new).unwrap(), values, "{material}");
            let stored = new.stored_bytes().unwrap();
            let units = indexer.size().div_ceil(1 << unit);
            let mut hides = vec![false; units as usize];
            indexer.for_each_in(0, u64::MAX, |index, _| {
                let i = index as usize;
                if stored[i] >= 128 && values[i] == 0 {
                    hides[(index >> unit) as usize] = true;
                }
            });
            assert_eq!(new.capture_draws(), hides.contains(&true), "{material}");
            for (u, &hide) in hides.iter().enumerate() {
                let u = u as u64;
                assert_eq!(words[(u / 64) as usize] >> (u % 64) & 1 == 1, hide);
                assert_eq!(new.may_hide_draw(u << unit), hide, "{material} unit {u}");
                // Within the writer's own map.
                assert!(
                    !hide || table.may_hide_draw(u << unit),
                    "{material} unit {u}"
                );
                set_units += u64::from(hide);
            }
            assert_eq!(bits, unit);
        }
        assert!(added >= 3 && set_units > 0, "{added} {set_units}");
        // compress_dir gives the old files their maps, then leaves them be.
        let outcomes = compress_dir(&dir, &[], &CompactOptions::default(), &NoProgress).unwrap();
        let steps =
            |outcomes: &[CompressOutcome], step| outcomes.iter().filter(|o| o.step == step).count();
        assert_eq!(steps(&outcomes, CompressStep::DrawMapAdded), added);
        assert_eq!(steps(&outcomes, CompressStep::Converted), 0);
        let tb = Tablebase::open_dir(&dir).unwrap();
        for material in tb.materials() {
            let table = tb.lookup(material).unwrap();
            assert!(!super::needs_draw_map(table), "{material}");
            assert_eq!(
                tb.values(material).unwrap(),
                plain.values(material).unwrap()
            );
        }
        let again = compress_dir(&dir, &[], &CompactOptions::default(), &NoProgress).unwrap();
        assert_eq!(steps(&again, CompressStep::Unchanged), again.len());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_value_the_sample_missed_still_decodes_exactly() {
        let (tb, _) = Tablebase::generate(4, Scheme::Symmetric, &NoProgress).unwrap();
        let options = CompactOptions {
            streaming_above: 0,
            sample_slots: 1,
            ..CompactOptions::default()
        };
        let mut checked = 0;
        for material in tb.materials().collect::<Vec<_>>() {
            let indexer = tb.lookup(material).unwrap().indexer().clone();
            let values = tb.values(material).unwrap().into_owned();
            let used_values = |start: u64, end: u64| {
                let mut seen = BTreeSet::new();
                indexer.for_each_in(start, end, |index, _| {
                    seen.insert(values[index as usize]);
                });
                seen
            };
            let chunks = (values.len() as u64).div_ceil(1024);
            let [pick] = sample_chunks(chunks, 1)[..] else {
                panic!("one chunk")
            };
            let sampled = used_values(pick * 1024, (pick + 1) * 1024);
            let all = used_values(0, u64::MAX);
            if all.is_subset(&sampled) {
                continue;
            }
            let compact = tb.compacted_with(material, &options).unwrap();
            assert!(compact.is_compact());
            let back = tb.values_of(&compact).unwrap();
            let wrong = back.iter().zip(&values).filter(|(a, b)| a != b).count();
            assert_eq!((back.len(), wrong), (values.len(), 0), "{material}");
            checked += 1;
        }
        assert!(checked >= 3, "{checked}");
    }
}
