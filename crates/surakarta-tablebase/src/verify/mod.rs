//! Verification: every entry re-derived from its successors.
//!
//! If every entry of a table equals the value its moves imply (captures
//! probing the smaller tables, quiet moves the partner class), and the
//! smaller tables are right, the table is exactly right: by induction on the
//! distance, every stored win or loss is reached by a chain ending in a
//! position without moves or a conversion, and every real win or loss is
//! stored with its distance (see `docs/tablebase.md`).

pub(crate) mod checkpoint;
pub(crate) mod dir;
pub(crate) mod report;

use crate::error::{PairWork, TablebaseError};
use crate::generate::convert::Replaced;
use crate::generate::plan;
use crate::pair::Pair;
use crate::probe::table::Table;
use crate::probe::tablebase::Tablebase;
use crate::probe::tablebase::{capture_target, capture_wdl, CaptureTarget};
use crate::progress::Pass;
use crate::progress::Progress;
use crate::progress::Stage;
use crate::value::{Value, Wdl};
use crate::verify::checkpoint::{Saved, VerifyCheckpoints, SEGMENT_SLOTS};
use crate::verify::report::{Mismatch, VerifyReport, EXAMPLES};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::ops::Deref;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use surakarta::{capture_moves, step_targets, Bitboard};
use surakarta_index::{Indexer, Material, Sides};

/// Where the moves of a class's positions lead, looked up once per class:
/// the partner class's table (quiet moves) and the table captures reach.
struct Successors<'a> {
    /// The partner class's table (the class with the sides swapped).
    partner: &'a Table,
    /// Its value bytes where they are exact (format 1): a quiet move's
    /// value is then a step rank and a read. `None`: through
    /// [`Table::stored_value`] and [`Tablebase::resolve`].
    partner_bytes: Option<&'a [u8]>,
    /// The capture target's table when it is format 1 (see
    /// [`capture_target`]); `None`: captures through
    /// [`Tablebase::probe_wdl`].
    target: CaptureTarget<'a>,
}

impl<'a> Successors<'a> {
    /// The fast paths for positions of `material`: the partner's bytes and
    /// the capture target read directly where they are format 1.
    fn new(tb: &'a Tablebase, material: Material) -> Result<Successors<'a>, TablebaseError> {
        let partner = tb.lookup(material.swapped())?;
        let partner_bytes = if partner.is_compact() {
            None
        } else {
            Some(partner.payload()?)
        };
        Ok(Successors {
            partner,
            partner_bytes,
            target: capture_target(tb, material),
        })
    }

    /// The reference: every successor through the tablebase's probes
    /// ([`Tablebase::probe_wdl`] for captures, [`Table::stored_value`]
    /// and [`Tablebase::resolve`] for quiet moves), what the fast paths
    /// are tested against.
    #[cfg(test)]
    fn reference(partner: &'a Table) -> Successors<'a> {
        Successors {
            partner,
            partner_bytes: None,
            target: None,
        }
    }
}

impl Tablebase {
    /// The value the moves of `sides` imply, what [`Tablebase::derive`]
    /// answers for that position, from raw bitboards: captures probe the
    /// smaller tables (win, draw or loss), quiet moves the partner class's
    /// table, resolved as [`Tablebase::probe`] does, each through the fast
    /// path of `successors` where it has one. It stops at a win in 1,
    /// which nothing beats. Tests check it against `derive` on every
    /// position up to 5 pieces, and the fast paths against
    /// [`Successors::reference`].
    fn derive_sides(
        &self,
        sides: Sides,
        successors: &Successors<'_>,
    ) -> Result<Value, TablebaseError> {
        let Sides { us, them } = sides;
        let mut best: Option<Value> = None;
        // Returns true when nothing can beat the value (a win in 1).
        let mut take = |v: Value| {
            if best.is_none_or(|b| v.is_better_than(b)) {
                best = Some(v);
            }
            v == Value::Win(1)
        };
        for m in capture_moves(us, them) {
            let after = Sides::new(them.without(m.to()), us.without(m.from()).with(m.to()));
            let wdl = if after.us.is_empty() {
                Wdl::Loss
            } else {
                capture_wdl(self, successors.target, after)?
            };
            if take(match wdl {
                Wdl::Loss => Value::Win(1),
                Wdl::Win => Value::Loss(1),
                Wdl::Draw => Value::Draw,
            }) {
                return Ok(Value::Win(1));
            }
        }
        let partner = successors.partner;
        // The quiet moves' positions: `them` to move, `us` stepped.
        let ranks = successors
            .partner_bytes
            .map(|bytes| (bytes, partner.indexer().step_ranks(us, them, false)));
        let empty = Bitboard::FULL - us - them;
        for from in us {
            for to in step_targets(from) & empty {
                let value = match &ranks {
                    Some((bytes, ranks)) => {
                        Value::from_table_byte(bytes[ranks.rank(from, to)? as usize])
                    }
                    None => {
                        let after = Sides::new(them, us.without(from).with(to));
                        let (stored, index) = partner.stored_value_at(after)?;
                        self.resolve(partner, stored, after, index)?
                    }
                };
                if take(value.back()) {
                    return Ok(Value::Win(1));
                }
            }
        }
        Ok(best.unwrap_or(Value::Loss(0)))
    }

    /// Verifies the table of `material`: its checksum, its header counts, and
    /// every entry against the value its moves imply. The tables its moves
    /// reach must be present. Problems in this table are counted in the
    /// report; an error is returned only when verification cannot run
    /// (missing or damaged tables it depends on).
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_index::{Material, Scheme};
    /// use surakarta_tablebase::{NoProgress, Tablebase};
    ///
    /// let (tables, _) = Tablebase::generate(3, Scheme::Symmetric, &NoProgress)?;
    /// for material in [Material::new(2, 1)?, Material::new(1, 2)?] {
    ///     let report = tables.verify(material, &NoProgress)?;
    ///     assert!(report.checksum_ok && report.stats_ok);
    ///     assert_eq!(report.errors(), 0);
    ///     assert!(report.positions > 0);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn verify(
        &self,
        material: Material,
        reporter: &dyn Progress,
    ) -> Result<VerifyReport, TablebaseError> {
        self.verify_with(material, reporter, None)
    }

    /// [`Tablebase::verify`], resumable: with `checkpoints`, the counts
    /// so far are saved between segments of the table (at most every
    /// [`VerifyCheckpoints::every`]) and when it is finished, and a saved
    /// state of the same table files is continued from (a finished one is
    /// the report at once). A checkpoint that does not match is reported
    /// ([`Progress::checkpoint_rejected`]) and ignored. Failing to write
    /// one is an error. The caller removes the checkpoints when its run is
    /// over ([`VerifyCheckpoints::remove`]). With checkpoints it holds the
    /// lock of the class's pair ([`crate::files::lock::DirLock::acquire_pair`]): another
    /// run holding it is [`TablebaseError::DirectoryInUse`].
    pub fn verify_with(
        &self,
        material: Material,
        reporter: &dyn Progress,
        checkpoints: Option<&VerifyCheckpoints>,
    ) -> Result<VerifyReport, TablebaseError> {
        self.verify_in_windows(material, reporter, checkpoints, None)
    }

    /// [`Tablebase::verify_with`], reading the partner class (where it is
    /// a byte per slot) in windows of at most `window_slots` slots at a
    /// time (`None`: whole), so that when its table is a mapped file the
    /// pages read at random are the window's. The same report either way.
    ///
    /// A position's value is the best of its moves': it is right when no
    /// move is better than the stored value and some move gives it. Each
    /// window answers both for its moves (captures and the position
    /// without moves in the first), a bit per slot each, for a run of
    /// segments of about two windows; the stored values are read in order.
    /// Positions found wrong are derived again whole for the report's
    /// examples.
    pub fn verify_in_windows(
        &self,
        material: Material,
        reporter: &dyn Progress,
        checkpoints: Option<&VerifyCheckpoints>,
        window_slots: Option<u64>,
    ) -> Result<VerifyReport, TablebaseError> {
        let _lock = checkpoints
            .map(|c| c.lock_pair(crate::pair::Pair::of(material)))
            .transpose()?;
        let table = self.lookup(material)?;
        let indexer = table.indexer();
        let size = indexer.size();
        let segment = checkpoints.map_or(SEGMENT_SLOTS, |c| c.segment);
        let segments = size.div_ceil(segment);
        let stage = |saved: &Saved| Stage::Verify {
            done: (saved.segments * segment).min(size),
            total: size,
        };
        let digest = checkpoints.map(|c| c.digest(material));
        let mut saved = None;
        if let (Some(c), Some(digest)) = (checkpoints, digest) {
            match c.read(material, indexer, digest) {
                Ok(None) => {}
                Ok(Some(found)) => {
                    reporter.checkpoint_resumed(stage(&found));
                    // A finished table's report stands while its payload
                    // still matches its checksum (the digest covers the
                    // headers only).
                    if found.finished && table.check().is_ok() {
                        return Ok(found.report);
                    }
                    if !found.finished {
                        saved = Some(found);
                    }
                }
                Err(why) => reporter.checkpoint_rejected(&c.path(material), &why.to_string()),
            }
        }
        let checksum_ok = table.check().is_ok();
        if !checksum_ok {
            return Ok(VerifyReport {
                material,
                positions: 0,
                checksum_ok,
                stats_ok: false,
                mismatches: 0,
                examples: Vec::new(),
            });
        }
        let bytes = self.values(material)?;
        let mut state = match saved {
            Some(saved) => saved,
            None => Saved {
                segments: 0,
                finished: false,
                report: VerifyReport {
                    material,
                    positions: 0,
                    checksum_ok,
                    stats_ok: crate::probe::table::histogram_of(indexer, &bytes)
                        .stats(material, size)
                        == table.stats(),
                    mismatches: 0,
                    examples: Vec::new(),
                },
            },
        };
        // Where moves lead: looked up once, not per move.
        let successors = Successors::new(self, material)?;
        let save = |state: &Saved| -> Result<(), TablebaseError> {
            if let (Some(c), Some(digest)) = (checkpoints, digest) {
                let written = c.write(material, digest, state)?;
                reporter.checkpoint_written(stage(state), written);
            }
            Ok(())
        };
        let mut last_save = Instant::now();
        // With windows, runs of segments of about two windows' slots.
        let windows = window_slots
            .filter(|_| successors.partner_bytes.is_some())
            .map(|slots| plan::window_ranges(successors.partner.indexer().size(), slots))
            .filter(|windows| windows.len() > 1);
        let run = windows
            .as_ref()
            .map_or(1, |w| (2 * w[0].end).div_ceil(segment).max(1));
        while state.segments < segments {
            let start = state.segments * segment;
            let taken = run.min(segments - state.segments);
            let end = (start + taken * segment).min(size);
            let (positions, mismatches) = match &windows {
                Some(windows) => self.verify_slots_in_windows(
                    &bytes,
                    &successors,
                    start..end,
                    windows,
                    &mut state.report,
                    reporter,
                )?,
                None => {
                    self.verify_slots(&bytes, &successors, start..end, &mut state.report, reporter)?
                }
            };
            state.report.positions += positions;
            state.report.mismatches += mismatches;
            state.segments += taken;
            let every = checkpoints.map_or(Duration::MAX, VerifyCheckpoints::every);
            if state.segments < segments && last_save.elapsed() >= every {
                save(&state)?;
                last_save = Instant::now();
            }
        }
        state.report.examples.sort_by_key(|m| m.index);
        state.finished = true;
        save(&state)?;
        Ok(state.report)
    }

    /// Re-derives the positions of slots `slots` against `bytes` (the
    /// table's values) on all cores: returns how many there were and how
    /// many differ, and adds the first differing ones to `report`'s
    /// examples (up to [`EXAMPLES`]).
    fn verify_slots(
        &self,
        bytes: &[u8],
        successors: &Successors<'_>,
        slots: std::ops::Range<u64>,
        report: &mut VerifyReport,
        reporter: &dyn Progress,
    ) -> Result<(u64, u64), TablebaseError> {
        const CHUNK: u64 = 1 << 14;
        let size = bytes.len() as u64;
        let done = AtomicU64::new(slots.start);
        let examples = Mutex::new(std::mem::take(&mut report.examples));
        let indexer = self.lookup(report.material)?.indexer();
        let first = slots.start / CHUNK;
        let result = (first..slots.end.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let start = (c * CHUNK).max(slots.start);
                let end = ((c + 1) * CHUNK).min(slots.end);
                let (mut positions, mut mismatches) = (0u64, 0u64);
                let mut result = Ok(());
                indexer.for_each_in(start, end, |index, sides| {
                    if result.is_err() {
                        return;
                    }
                    let stored = Value::from_table_byte(bytes[index as usize]);
                    match self.derive_sides(sides, successors) {
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
                let so_far = done.fetch_add(end - start, Ordering::Relaxed) + end - start;
                reporter.progress(Pass::Verify, so_far, size);
                result.map(|()| (positions, mismatches))
            })
            .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1)));
        report.examples = examples.into_inner().unwrap_or_else(|e| e.into_inner());
        result
    }
}

impl Tablebase {
    /// [`Tablebase::verify_slots`] with the partner's bytes read in
    /// `windows` (see [`Tablebase::verify_in_windows`]).
    fn verify_slots_in_windows(
        &self,
        bytes: &[u8],
        successors: &Successors<'_>,
        slots: std::ops::Range<u64>,
        windows: &[std::ops::Range<u64>],
        report: &mut VerifyReport,
        reporter: &dyn Progress,
    ) -> Result<(u64, u64), TablebaseError> {
        const CHUNK: u64 = 1 << 14;
        let Some(partner_bytes) = successors.partner_bytes else {
            return self.verify_slots(bytes, successors, slots, report, reporter);
        };
        let size = bytes.len() as u64;
        let indexer = self.lookup(report.material)?.indexer();
        let partner = successors.partner.indexer();
        let base = slots.start;
        let words = (slots.end - base).div_ceil(64) as usize;
        let bits = || (0..words).map(|_| AtomicU64::new(0)).collect::<Vec<_>>();
        // Per slot: a move better than the stored value; a move giving it.
        let (better, given) = (bits(), bits());
        let set = |bits: &[AtomicU64], index: u64| {
            let i = index - base;
            bits[(i / 64) as usize].fetch_or(1 << (i % 64), Ordering::Relaxed);
        };
        let is_set = |bits: &[AtomicU64], index: u64| {
            let i = index - base;
            bits[(i / 64) as usize].load(Ordering::Relaxed) & 1 << (i % 64) != 0
        };
        let chunks = || {
            (slots.start / CHUNK..slots.end.div_ceil(CHUNK))
                .into_par_iter()
                .map(|c| {
                    (
                        (c * CHUNK).max(slots.start),
                        ((c + 1) * CHUNK).min(slots.end),
                    )
                })
        };
        let done = AtomicU64::new(slots.start);
        let mut positions = 0;
        for (w, window) in windows.iter().enumerate() {
            let first = w == 0;
            let last = w + 1 == windows.len();
            positions = chunks()
                .map(|(start, end)| {
                    let mut positions = 0u64;
                    let mut result = Ok(());
                    indexer.for_each_in(start, end, |index, sides| {
                        positions += 1;
                        if result.is_err() || is_set(&better, index) {
                            return;
                        }
                        let stored = Value::from_table_byte(bytes[index as usize]);
                        let note = |v: Value| {
                            if v.is_better_than(stored) {
                                set(&better, index);
                            } else if v == stored {
                                set(&given, index);
                            }
                        };
                        let Sides { us, them } = sides;
                        let empty = Bitboard::FULL - us - them;
                        if first {
                            let mut any = false;
                            for m in capture_moves(us, them) {
                                any = true;
                                let after = Sides::new(
                                    them.without(m.to()),
                                    us.without(m.from()).with(m.to()),
                                );
                                let wdl = if after.us.is_empty() {
                                    Ok(Wdl::Loss)
                                } else {
                                    capture_wdl(self, successors.target, after)
                                };
                                match wdl {
                                    Ok(Wdl::Loss) => note(Value::Win(1)),
                                    Ok(Wdl::Win) => note(Value::Loss(1)),
                                    Ok(Wdl::Draw) => note(Value::Draw),
                                    Err(e) => {
                                        result = Err(e);
                                        return;
                                    }
                                }
                            }
                            let quiet = us
                                .into_iter()
                                .any(|from| !(step_targets(from) & empty).is_empty());
                            if !any && !quiet {
                                note(Value::Loss(0));
                            }
                        }
                        let ranks = partner.step_ranks(us, them, false);
                        for from in us {
                            for to in step_targets(from) & empty {
                                match ranks.rank(from, to) {
                                    Ok(at) if window.contains(&at) => note(
                                        Value::from_table_byte(partner_bytes[at as usize]).back(),
                                    ),
                                    Ok(_) => {}
                                    Err(e) => {
                                        result = Err(e.into());
                                        return;
                                    }
                                }
                            }
                        }
                    });
                    if last {
                        let so_far = done.fetch_add(end - start, Ordering::Relaxed) + end - start;
                        reporter.progress(Pass::Verify, so_far, size);
                    }
                    result.map(|()| positions)
                })
                .try_reduce(|| 0, |a, b| Ok(a + b))?;
        }
        // Wrong: a move better than the stored value, or none giving it;
        // derived again whole for the examples.
        let examples = Mutex::new(std::mem::take(&mut report.examples));
        let mismatches = chunks()
            .map(|(start, end)| {
                let mut mismatches = 0u64;
                let mut result = Ok(());
                indexer.for_each_in(start, end, |index, sides| {
                    if result.is_err() || (!is_set(&better, index) && is_set(&given, index)) {
                        return;
                    }
                    mismatches += 1;
                    let mut examples = examples.lock().unwrap_or_else(|e| e.into_inner());
                    if examples.len() < EXAMPLES {
                        match self.derive_sides(sides, successors) {
                            Ok(derived) => examples.push(Mismatch {
                                index,
                                sides,
                                stored: Value::from_table_byte(bytes[index as usize]),
                                derived,
                            }),
                            Err(e) => result = Err(e),
                        }
                    }
                });
                result.map(|()| mismatches)
            })
            .try_reduce(|| 0, |a, b| Ok(a + b));
        report.examples = examples.into_inner().unwrap_or_else(|e| e.into_inner());
        Ok((positions, mismatches?))
    }
}

/// A tablebase with the tables one pair's verification reads expanded to
/// a byte per slot ([`Tablebase::expand_pair`]); it reads as the
/// tablebase ([`Deref`]), and puts the original tables back when dropped,
/// freeing the expanded copies.
#[derive(Debug)]
pub struct ExpandedPair<'a> {
    tablebase: &'a mut Tablebase,
    replaced: Replaced,
}

impl Deref for ExpandedPair<'_> {
    type Target = Tablebase;

    fn deref(&self) -> &Tablebase {
        self.tablebase
    }
}

impl Drop for ExpandedPair<'_> {
    fn drop(&mut self) {
        self.tablebase.put_back(&mut self.replaced, |_| true);
    }
}

impl Tablebase {
    /// The pairs to verify for `classes` (every class present when it is
    /// empty), in dependency order (increasing piece count), each with
    /// those of its classes that are present and chosen, in the order of
    /// [`Pair::classes`]. A chosen class without a table is left out
    /// ([`Tablebase::lookup`] says why).
    #[must_use]
    pub fn verify_pairs(&self, classes: &[Material]) -> Vec<(Pair, Vec<Material>)> {
        let mut pairs: BTreeMap<Pair, Vec<Material>> = BTreeMap::new();
        for material in self.materials() {
            if classes.is_empty() || classes.contains(&material) {
                pairs.entry(Pair::of(material)).or_default();
            }
        }
        for (pair, chosen) in &mut pairs {
            chosen.extend(pair.classes().into_iter().filter(|&m| {
                self.tables.contains_key(&m) && (classes.is_empty() || classes.contains(&m))
            }));
        }
        pairs.into_iter().collect()
    }

    /// Modelled peak memory of verifying `pair` here with
    /// [`Tablebase::expand_pair`], in bytes: a byte per slot of each
    /// compact table it expands, [`plan::PROCESS_BYTES`] beyond. First the
    /// compact tables its captures reach are expanded, after the compact
    /// tables below them that expanding them needs (put back once they
    /// are expanded), then the pair's own compact tables: the peak is the
    /// targets plus the larger of the two others. Format 1 tables are read
    /// where they are (mapped files: the page cache, which the system can
    /// reclaim), and are not counted.
    #[must_use]
    pub fn verify_memory_bytes(&self, pair: Pair) -> u64 {
        let compact = |m: Material| self.tables.get(&m).is_some_and(Table::is_compact);
        let slots = |m: &Material| {
            self.tables
                .get(m)
                .filter(|t| t.is_compact())
                .map_or(0, |t| t.indexer().size())
        };
        let targets = pair.capture_targets();
        let mut below: Vec<Material> = Vec::new();
        for &target in &targets {
            let mut at = target;
            while compact(at) {
                let Some(next) = at.after_capture() else {
                    break;
                };
                if !targets.contains(&next) && !below.contains(&next) {
                    below.push(next);
                }
                at = next;
            }
        }
        let targets: u64 = targets.iter().map(slots).sum();
        let below: u64 = below.iter().map(slots).sum();
        let own: u64 = pair.classes().iter().map(slots).sum();
        targets + below.max(own) + plan::PROCESS_BYTES
    }

    /// The slots of the windows that verifying `pair` within `limit` bytes
    /// reads a partner class in ([`Tablebase::verify_in_windows`]), or
    /// `None` if every table of the pair that is a mapped file fits the
    /// room whole: the room is what the limit leaves beyond
    /// [`Tablebase::verify_memory_bytes`] (with
    /// [`plan::WINDOW_PROCESS_BYTES`] for the process), a window slot
    /// costs its byte and the two bits of about two of the slots being
    /// verified, and windows are sized as generation's
    /// ([`plan::equal_windows`]).
    #[must_use]
    pub fn verify_window_slots(&self, pair: Pair, limit: u64) -> Option<u64> {
        let resident =
            self.verify_memory_bytes(pair) - plan::PROCESS_BYTES + plan::WINDOW_PROCESS_BYTES;
        let room = limit.saturating_sub(resident) as f64;
        let largest = pair
            .classes()
            .iter()
            .filter_map(|m| self.tables.get(m))
            .filter(|t| t.is_mapped() && !t.is_compact())
            .map(|t| t.indexer().size())
            .max()?;
        plan::equal_windows(largest, room, 1.5)
    }

    /// [`Tablebase::verify_memory_bytes`] of `pair`, or
    /// [`TablebaseError::NotEnoughMemory`] if that exceeds
    /// `memory_limit` (bytes; `None`: no limit): what
    /// [`Tablebase::expand_pair`] checks first, for checking every pair
    /// before verifying any.
    pub fn check_verify_memory(
        &self,
        pair: Pair,
        memory_limit: Option<u64>,
    ) -> Result<u64, TablebaseError> {
        let needed = self.verify_memory_bytes(pair);
        match memory_limit {
            Some(limit) if needed > limit => Err(TablebaseError::NotEnoughMemory {
                pair,
                work: PairWork::Verify,
                needed,
                limit,
            }),
            _ => Ok(needed),
        }
    }

    /// Expands what verifying `pair` reads to a byte per slot, in place: the
    /// compact tables its captures reach (after what expanding them needs,
    /// as generation does), then its own compact tables, so every
    /// successor is a read. The expanded copies live until the returned
    /// [`ExpandedPair`] is dropped; verify its classes through it
    /// ([`Tablebase::verify`]). A table that cannot be expanded (a damaged
    /// or missing file) stays as it is, so verifying reports what is wrong
    /// with it.
    ///
    /// Refused before anything is expanded, with
    /// [`TablebaseError::NotEnoughMemory`], if
    /// [`Tablebase::verify_memory_bytes`] exceeds `memory_limit` (bytes;
    /// `None`: no limit).
    pub fn expand_pair(
        &mut self,
        pair: Pair,
        memory_limit: Option<u64>,
    ) -> Result<ExpandedPair<'_>, TablebaseError> {
        self.check_verify_memory(pair, memory_limit)?;
        let mut replaced =
            self.expand_capture_targets(&pair.capture_targets(), |_, _| Ok(None), |_, _| Ok(()))?;
        for material in pair.classes() {
            if self.tables.get(&material).is_some_and(Table::is_compact) {
                if let Ok(table) = self.expanded(material) {
                    self.replace(table, &mut replaced);
                }
            }
        }
        Ok(ExpandedPair {
            tablebase: self,
            replaced,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use surakarta::{Color, Position};
    use surakarta_index::Scheme;

    /// The derivation from raw bitboards equals the one through `Position`
    /// and its legal moves ([`Tablebase::derive`]), and its fast paths
    /// (format 1 partner bytes read by step rank, format 1 capture targets
    /// read directly) equal the reference ([`Successors::reference`]), on
    /// every position of the classes up to 4 pieces and every seventh of
    /// the 5-piece ones: with every table format 1, and with the classes of
    /// 2 and 4 pieces compact (so each fast path meets compact and format 1
    /// tables on either side).
    #[test]
    fn fast_and_reference_derivations_equal_the_position_one() {
        assert_eq!(derivations_agree(7), 2 * 311_505);
    }

    /// [`fast_and_reference_derivations_equal_the_position_one`] on every
    /// position up to 5 pieces.
    #[test]
    #[ignore = "long: `.ci/run` runs it"]
    fn fast_and_reference_derivations_equal_the_position_one_everywhere() {
        assert_eq!(derivations_agree(1), 2 * 1_524_996);
    }

    /// Compares the derivations on every position up to 4 pieces and every
    /// `stride`-th one of 5 pieces; returns the positions compared.
    fn derivations_agree(stride: u64) -> u64 {
        let mut checked = 0u64;
        let plain = crate::test_tables::up_to_5();
        let mut mixed = Tablebase::new();
        for material in plain.materials() {
            mixed.insert(if material.pieces() % 2 == 0 {
                plain.compacted(material).unwrap()
            } else {
                plain.expanded(material).unwrap()
            });
        }
        for tb in [plain, &mixed] {
            for material in tb.materials().collect::<Vec<_>>() {
                let table = tb.lookup(material).unwrap();
                let fast = Successors::new(tb, material).unwrap();
                let reference = Successors::reference(fast.partner);
                let compact = material.pieces() % 2 == 0;
                assert_eq!(
                    fast.partner_bytes.is_some(),
                    !compact || std::ptr::eq(tb, plain)
                );
                table
                    .indexer()
                    .for_each_in(0, table.indexer().size(), |index, sides| {
                        if material.pieces() == 5 && !index.is_multiple_of(stride) {
                            return;
                        }
                        let position =
                            Position::from_sides(sides.us, sides.them, Color::Black).unwrap();
                        let derived = tb.derive(&position).unwrap();
                        assert_eq!(
                            tb.derive_sides(sides, &reference).unwrap(),
                            derived,
                            "{position}"
                        );
                        assert_eq!(
                            tb.derive_sides(sides, &fast).unwrap(),
                            derived,
                            "{position}"
                        );
                        checked += 1;
                    });
            }
        }
        checked
    }

    /// Expanding a pair expands its compact tables and the compact tables
    /// its captures reach (not the ones below them, once expanded), as
    /// modelled; dropping it puts the compact tables back; a pair beyond
    /// the memory limit is refused before anything is expanded.
    #[test]
    fn expanding_a_pair_is_undone_and_guarded() {
        let plain = crate::test_tables::up_to_5();
        let mut tb = Tablebase::new();
        for material in plain.materials() {
            tb.insert(plain.compacted(material).unwrap());
        }
        let m = |s: &str| s.parse::<Material>().unwrap();
        let pair = Pair::of(m("3v2"));
        let size = |s: &str| tb.lookup(m(s)).unwrap().indexer().size();
        // Targets 1v3 and 2v2; below them the chains 1v3 → 2v1 and
        // 2v2 → 1v2 → 1v1.
        let expected = size("1v3")
            + size("2v2")
            + (size("3v2") + size("2v3")).max(size("2v1") + size("1v2") + size("1v1"))
            + plan::PROCESS_BYTES;
        assert_eq!(tb.verify_memory_bytes(pair), expected);
        let e = tb.expand_pair(pair, Some(expected - 1)).unwrap_err();
        assert!(matches!(e, TablebaseError::NotEnoughMemory { needed, .. } if needed == expected));
        assert!(
            e.to_string().starts_with("verifying pair 3v2 needs about "),
            "{e}"
        );
        {
            let expanded = tb.expand_pair(pair, Some(expected)).unwrap();
            for (class, compact) in [
                ("3v2", false),
                ("2v3", false),
                ("1v3", false),
                ("2v2", false),
                ("2v1", true),
                ("1v2", true),
                ("4v1", true),
            ] {
                assert_eq!(
                    expanded.lookup(m(class)).unwrap().is_compact(),
                    compact,
                    "{class}"
                );
            }
            for class in ["3v2", "2v3"] {
                let report = expanded
                    .verify(m(class), &crate::progress::NoProgress)
                    .unwrap();
                assert_eq!(report.errors(), 0, "{report:?}");
            }
        }
        assert!(tb.materials().all(|c| tb.lookup(c).unwrap().is_compact()));
        assert_eq!(
            tb.verify_pairs(&[m("2v3"), m("1v1"), m("9v1")]),
            [(Pair::of(m("1v1")), vec![m("1v1")]), (pair, vec![m("2v3")])]
        );
        assert_eq!(tb.verify_pairs(&[]).len(), Pair::all(5).len());
    }

    /// A wrong value under a right checksum (a forged or mis-generated
    /// table) is found, with its position as an example.
    #[test]
    fn a_wrong_value_with_a_right_checksum_is_a_mismatch() {
        let (mut tb, _) =
            Tablebase::generate(4, Scheme::Symmetric, &crate::progress::NoProgress).unwrap();
        let material: Material = "2v2".parse().unwrap();
        assert_eq!(
            tb.verify(material, &crate::progress::NoProgress)
                .unwrap()
                .errors(),
            0
        );
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
        let report = tb.verify(material, &crate::progress::NoProgress).unwrap();
        assert!(report.checksum_ok, "the checksum is the forged table's own");
        assert!(!report.stats_ok || report.mismatches >= 1);
        assert!(report.mismatches >= 1, "{report:?}");
        assert!(report
            .examples
            .iter()
            .any(|m| m.index == index && m.sides == sides && m.stored == Value::Win(5)));
    }

    /// Verifying with the partner read in windows gives the report of
    /// verifying it whole: on every class up to 5 pieces, and on a class
    /// with values forged every way (a longer win, a loss for a win, a
    /// draw for a loss, a win for a draw), in windows of 1,000 slots to
    /// a third of the partner.
    #[test]
    fn verifying_in_windows_is_verifying_whole() {
        let tb = crate::test_tables::up_to_5();
        let quiet = &crate::progress::NoProgress;
        for material in tb.materials() {
            let whole = tb.verify(material, quiet).unwrap();
            for window in [16_384, 100_000] {
                let windowed = tb
                    .verify_in_windows(material, quiet, None, Some(window))
                    .unwrap();
                assert_eq!(windowed, whole, "{material}, windows of {window}");
            }
        }
        let (mut tb, _) =
            Tablebase::generate(4, Scheme::Symmetric, &crate::progress::NoProgress).unwrap();
        let material: Material = "2v2".parse().unwrap();
        let table = tb.lookup(material).unwrap();
        let mut values = tb.values(material).unwrap().into_owned();
        let forge = |v: Value| match v {
            Value::Win(3) => Some(Value::Win(5)),
            Value::Win(5) => Some(Value::Loss(6)),
            Value::Loss(2) => Some(Value::Draw),
            Value::Draw => Some(Value::Win(3)),
            _ => None,
        };
        let mut forged = 0;
        table
            .indexer()
            .for_each_in(0, table.indexer().size(), |index, _| {
                let at = &mut values[index as usize];
                if index % 7 == 0 {
                    if let Some(v) = forge(Value::from_table_byte(*at)) {
                        *at = v.to_byte().unwrap();
                        forged += 1;
                    }
                }
            });
        assert!(forged > 50, "{forged}");
        let forged_table = Table::new(table.indexer().clone(), values).unwrap();
        tb.insert(forged_table);
        let whole = tb.verify(material, quiet).unwrap();
        assert!(whole.mismatches >= forged, "{whole:?}");
        // Which mismatches are kept as examples depends on the order the
        // threads find them: the same number, each a real mismatch with
        // its derived value.
        let successors = Successors::new(&tb, material).unwrap();
        let counts = |r: &VerifyReport| VerifyReport {
            examples: Vec::new(),
            ..r.clone()
        };
        for window in [1_000, 10_000] {
            let windowed = tb
                .verify_in_windows(material, quiet, None, Some(window))
                .unwrap();
            assert_eq!(counts(&windowed), counts(&whole), "windows of {window}");
            assert_eq!(windowed.examples.len(), whole.examples.len());
            for m in &windowed.examples {
                let derived = tb.derive_sides(m.sides, &successors).unwrap();
                assert!(m.derived == derived && m.stored != derived, "{m:?}");
            }
        }
    }
}
