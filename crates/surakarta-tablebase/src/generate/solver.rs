//! Retrograde generation of a pair of classes `a v b` and `b v a` (quiet
//! moves lead from one to the other), given the tables of all smaller
//! classes (where captures lead).
//!
//! 1. **Initial pass** over every position: no legal move is a loss in 0; a
//!    capture into a lost sub-position (or of the last enemy piece) is a win
//!    in 1; only losing captures and no quiet move is a loss in 1.
//! 2. **Levels** `k = 0, 1, 2, …`: every position resolved at distance `k`
//!    is un-moved (a quiet step of the side that just moved, backwards). A
//!    predecessor of a loss in `k` is a win in `k + 1`. A predecessor of a
//!    win in `k` is a candidate; a candidate is a loss when every move is
//!    resolved and loses (checked by generating its moves), with distance
//!    one more than its longest loss. Values are final when set, so the
//!    passes are idempotent and run in parallel (rayon, atomic bytes).
//! 3. What is never resolved is a draw.

use crate::error::TablebaseError;
use crate::generate::checkpoint::{self, LevelPlan, Phase, Resume};
use crate::generate::plan;
use crate::generate::set_moves::SetMoves;
use crate::generate::store::{self, ClassStores, Store, WorkFile};
use crate::probe::table::{Table, TableIndexer};
use crate::probe::tablebase::Tablebase;
use crate::probe::tablebase::{capture_target, CaptureTarget};
use crate::progress::Pass;
use crate::progress::Progress;
use crate::progress::Stage;
use crate::value::{Value, Wdl, MAX_DTC};
use rayon::prelude::*;
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::time::{Duration, Instant};
use surakarta::{step_targets, Bitboard};
use surakarta_index::{IndexError, Indexer, SideImages, Sides};

/// Slots per parallel work item.
const CHUNK: u64 = 1 << 14;

/// The first pass visits a class in at most this many segments, each at
/// least [`MIN_SEGMENT`] slots, and may checkpoint between two.
const SEGMENTS: u64 = 64;

/// The least slots of a segment of the first pass (a multiple of
/// [`CHUNK`]).
#[cfg(not(test))]
const MIN_SEGMENT: u64 = 1 << 20;
/// Smaller in the unit tests, so that classes small enough to solve quickly
/// (plain 3v1, 235,620 slots) span segments too.
#[cfg(test)]
const MIN_SEGMENT: u64 = 1 << 17;

/// The slots of a segment of the first pass over a class of `size` slots:
/// a multiple of [`CHUNK`].
fn segment_slots(size: u64) -> u64 {
    size.div_ceil(SEGMENTS)
        .div_ceil(CHUNK)
        .max(MIN_SEGMENT / CHUNK)
        * CHUNK
}

/// With the partner worked through in windows, a segment of the first
/// pass and the levels holds at least this many windows' worth of slots.
const WINDOW_SEGMENTS: u64 = 4;

/// A level sweeps a class instead of un-moving the partner's wins when the
/// wins times this exceed the class's unresolved slots.
const SWEEP_RATIO: u64 = 2;

/// A level looks for wins from every unresolved position of a class instead
/// of un-moving the partner's losses when the losses exceed the unresolved
/// slots times this.
const LOSS_SWEEP_RATIO: u64 = 1;

/// Level 1 marks the open positions of a class it checks whole (see
/// [`LevelPlan::mark_open`]) when the partner's positions that do not win
/// in 1, times this, are fewer than the class's unresolved ones.
const MARK_RATIO: u64 = 2;

/// Unranking one slot costs about as much as walking this many: a pass
/// walks a chunk when more than one slot in this many is to be looked at,
/// else unranks those.
const WALK_RATIO: u64 = 20;

/// Whether a level un-moves a position whose byte is `b`, given the bytes
/// it un-moves ([`Solver::unmoved_bytes`]: losses, if any, and wins, if
/// not 0). Branch-free, so that counting it over bytes vectorizes.
#[inline(always)]
fn unmoved(b: u8, (loss, win): (Option<u8>, u8)) -> bool {
    loss.is_some() & (b == loss.unwrap_or(0)) | (win != 0) & (b == win)
}

/// Whether bit `index` of `bits` is set.
#[inline]
fn marked(bits: &[AtomicU64], index: u64) -> bool {
    bits[(index / 64) as usize].load(Ordering::Relaxed) & 1 << (index % 64) != 0
}

/// Sets bit `index` of `bits` (with no locked instruction where it is set
/// already).
#[inline]
fn mark(bits: &[AtomicU64], index: u64) {
    let word = &bits[(index / 64) as usize];
    let bit = 1 << (index % 64);
    if word.load(Ordering::Relaxed) & bit == 0 {
        word.fetch_or(bit, Ordering::Relaxed);
    }
}

/// About how many slots of `start..end` satisfy `wanted`, from every
/// eighth: enough to choose between walking and unranking, at an eighth of
/// the reads.
#[inline]
fn sampled_count(start: u64, end: u64, wanted: impl Fn(u64) -> bool) -> u64 {
    (start..end).step_by(8).filter(|&i| wanted(i)).count() as u64 * 8
}

struct ClassState {
    indexer: TableIndexer,
    values: Store<AtomicU8>,
    candidates: Store<AtomicU64>,
    /// A bit per slot: the position has a capture into a draw, so it is
    /// never a loss (set by the first pass for the positions it leaves
    /// unresolved; see [`Mode::QuietLossCheck`]).
    capture_draws: Store<AtomicU64>,
    /// The work file the state is mapped from, if it is (removed when
    /// dropped).
    work: Option<WorkFile>,
}

impl ClassState {
    /// The state of a class, all zero: in memory, or with `work_dir`
    /// mapped from a new work file there.
    fn new(indexer: TableIndexer, work_dir: Option<&Path>) -> Result<ClassState, TablebaseError> {
        let work =
            work_dir.map(|dir| store::path(dir, &crate::format::file_name(indexer.material())));
        let stores = ClassStores::new(indexer.size(), work.as_deref())?;
        Ok(ClassState {
            values: stores.values,
            candidates: stores.candidates,
            capture_draws: stores.capture_draws,
            work: stores.work,
            indexer,
        })
    }

    /// The finished table of the class (its work file, if any, removed:
    /// the map of its values lives on in the table).
    fn into_table(self) -> Result<Table, TablebaseError> {
        let table = match self.values {
            Store::Memory(values) => Table::new(
                self.indexer,
                values.into_iter().map(AtomicU8::into_inner).collect(),
            )?,
            Store::Mapped { map, .. } => {
                let map = map.make_read_only().map_err(|e| {
                    let path = self
                        .work
                        .as_ref()
                        .map_or(Path::new("(work file)"), |w| w.path());
                    crate::error::file_error(path, e.into())
                })?;
                Table::from_mapped_values(self.indexer, map)?
            }
        };
        drop(self.work);
        Ok(table)
    }

    #[inline]
    fn get(&self, index: u64) -> u8 {
        self.values[index as usize].load(Ordering::Relaxed)
    }

    /// Whether the position at `index` has a capture into a draw.
    #[inline]
    fn has_capture_draw(&self, index: u64) -> bool {
        marked(&self.capture_draws, index)
    }

    /// Notes that the position at `index` has a capture into a draw.
    #[inline]
    fn set_capture_draw(&self, index: u64) {
        self.capture_draws[(index / 64) as usize].fetch_or(1 << (index % 64), Ordering::Relaxed);
    }

    /// Sets an unresolved slot; false if it was resolved already.
    #[inline]
    fn resolve(&self, index: u64, byte: u8) -> bool {
        self.values[index as usize]
            .compare_exchange(0, byte, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
    }
}

/// What [`Solver::unmove`] does with a position to un-move: its sides, its
/// byte and the partner's window.
type UnmoveVisit<'a> = dyn Fn(Sides, u8, &Range<u64>) -> Result<(), TablebaseError> + Sync + 'a;

/// How much of a position's moves [`Pair::evaluate`] looks at.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Before any level: captures only (quiet successors are all unknown).
    Initial,
    /// Is it a loss? Stops at the first move that does not lose. The
    /// reference for [`Mode::QuietLossCheck`].
    LossCheck,
    /// [`Mode::LossCheck`] of a position the first pass left unresolved
    /// without a capture into a draw: its captures all lose (a capture
    /// that wins or a position without quiet moves was resolved), each a
    /// loss in 1, shorter than any quiet move's loss (at least 2), so only
    /// the quiet moves are looked at.
    QuietLossCheck,
}

/// What the moves of a position show with the values known so far.
enum Evaluation {
    /// Some move wins; the least distance among the known ones.
    Win(u32),
    /// Every move is resolved and loses; the greatest distance.
    Loss(u32),
    /// Neither yet.
    Open,
    /// Neither yet, and a capture leads into a draw: never a loss (only
    /// from [`Mode::Initial`]).
    CaptureDraw,
}

/// The state of one pair of classes being solved: their value bytes, the
/// tables captures reach, and the progress of the current pass.
struct Solver<'a> {
    classes: Vec<ClassState>,
    /// By class: its capture target's table, see [`capture_target`].
    targets: Vec<CaptureTarget<'a>>,
    smaller: &'a Tablebase,
    reporter: &'a dyn Progress,
    /// Slots of both classes.
    slots: u64,
    /// Slots done in the current pass, for progress reports.
    done: AtomicU64,
    /// Loss checks in [`Mode::LossCheck`] only, ignoring the capture-draw
    /// bits (the reference the tests compare with).
    reference: bool,
    /// A pass walks a chunk when the slots it looks at, times this, exceed
    /// the chunk's, else unranks them ([`WALK_RATIO`]; the tests force
    /// either way).
    walk_ratio: u64,
    /// The most slots of a partner class a level's pass reaches into at a
    /// time (see [`Solver::windows`]); `u64::MAX`: all of it.
    window_slots: u64,
    /// The most slots of the table captures reach that the first pass
    /// reads at a time (see [`Solver::first_pass_in_windows`]);
    /// `u64::MAX`: all of it.
    target_window_slots: u64,
}

impl Solver<'_> {
    /// The index of the other class of the pair (where quiet moves lead).
    fn partner(&self, class: usize) -> usize {
        if self.classes.len() == 1 {
            0
        } else {
            1 - class
        }
    }

    /// The windows of the partner of `class` that a level's pass over a
    /// segment of `class` works through one after the other: consecutive
    /// ranges of at most [`Solver::window_slots`] slots (one when the
    /// partner is held whole). In each, the pass reads and writes only the
    /// partner's slots inside the window, so that with a mapped state the
    /// pages it touches at random are the window's, and what it looks at
    /// outside (its own segment) is read in order. Every pass gives the
    /// same values whatever the windows (see [`Solver::check_losses`] for
    /// the one that gathers across windows).
    fn windows(&self, class: usize) -> Vec<Range<u64>> {
        let size = self.classes[self.partner(class)].indexer.size();
        plan::window_ranges(size, self.window_slots.max(CHUNK))
    }

    /// Whether a pass works in more than one window of some partner (every
    /// class is a partner).
    fn windowed(&self) -> bool {
        self.classes
            .iter()
            .any(|c| c.indexer.size() > self.window_slots.max(CHUNK))
    }

    /// The slots of a segment of a class of `size` slots: see
    /// [`segment_slots`]; when windowed, at least [`WINDOW_SEGMENTS`]
    /// windows' worth, so that a pass reads each window of the partner
    /// (from disk, when mapped) once per that many of its own slots.
    fn segment_slots(&self, size: u64) -> u64 {
        let segment = segment_slots(size);
        if self.windowed() {
            segment.max(
                self.window_slots
                    .saturating_mul(WINDOW_SEGMENTS)
                    .div_ceil(CHUNK)
                    .saturating_mul(CHUNK),
            )
        } else {
            segment
        }
    }

    /// Evaluates a position of class `class` from its moves: captures from
    /// the smaller tables, quiet moves from the partner class's current
    /// values, those inside `window` only (the others are skipped: the
    /// whole partner for every pass but a windowed loss check, which
    /// gathers the windows itself). `moves` holds what the positions on
    /// the same points share.
    fn evaluate(
        &self,
        class: usize,
        sides: Sides,
        mode: Mode,
        moves: &mut SetMoves,
        window: &Range<u64>,
    ) -> Result<Evaluation, TablebaseError> {
        if mode == Mode::Initial && !self.reference {
            return self.evaluate_initial(class, sides, moves);
        }
        let partner = &self.classes[self.partner(class)];
        let Sides { us, them } = sides;
        moves.on(class, us | them);
        let mut best_win: Option<u32> = None;
        let mut worst_loss = 0;
        let mut open = false;
        let mut any_move = false;
        // Returns false when the loss check can stop.
        let mut note = |mine: Option<Value>| {
            any_move = true;
            match mine {
                Some(Value::Win(d)) => best_win = Some(best_win.map_or(d, |b| b.min(d))),
                Some(Value::Loss(d)) => worst_loss = worst_loss.max(d),
                Some(Value::Draw) | None => open = true,
            }
            mode == Mode::Initial || matches!(mine, Some(Value::Loss(_)))
        };
        let mut capture_draw = false;
        let empty = Bitboard::FULL - us - them;
        // A loss check looks at the quiet moves first: a rank and a read
        // each, and the first unresolved one ends it; captures (generated,
        // then probed in the smaller tables) cost more. Its answer does not
        // depend on the order.
        let quiet_first = mode != Mode::Initial;
        for quiet in [quiet_first, !quiet_first] {
            if quiet {
                // The quiet moves' positions: `them` to move, `us` stepped.
                if mode == Mode::Initial {
                    // No quiet move's value is known yet: one is enough.
                    if us
                        .into_iter()
                        .any(|from| !(step_targets(from) & empty).is_empty())
                    {
                        note(None);
                    }
                    continue;
                }
                let mut to_move = SideImages::new(them);
                for from in us {
                    for to in step_targets(from) & empty {
                        let after = moves.after_step(&partner.indexer, from, to);
                        let index = partner.indexer.rank_side_in(after, &mut to_move)?;
                        if !window.contains(&index) {
                            continue;
                        }
                        if !note(Value::from_byte(partner.get(index)).map(Value::back)) {
                            return Ok(Evaluation::Open);
                        }
                    }
                }
                continue;
            }
            if mode == Mode::QuietLossCheck {
                break;
            }
            let captures = moves.captures(us, them);
            for &(from, to) in captures.as_slice() {
                let after = Sides::new(them.without(to), us.without(from).with(to));
                let mine = if after.us.is_empty() {
                    Value::Win(1)
                } else {
                    match moves.capture_wdl(self.smaller, self.targets[class], from, after)? {
                        Wdl::Loss => Value::Win(1),
                        Wdl::Win => Value::Loss(1),
                        Wdl::Draw => Value::Draw,
                    }
                };
                if mode == Mode::Initial && mine == Value::Win(1) {
                    // Nothing wins sooner, and the first pass knows no quiet
                    // move's value: the rest cannot change the answer.
                    return Ok(Evaluation::Win(1));
                }
                capture_draw |= mine == Value::Draw;
                if !note(Some(mine)) {
                    return Ok(Evaluation::Open);
                }
            }
        }
        Ok(match best_win {
            Some(d) => Evaluation::Win(d),
            None if capture_draw => Evaluation::CaptureDraw,
            None if open => Evaluation::Open,
            None if !any_move => Evaluation::Loss(0),
            None => Evaluation::Loss(worst_loss),
        })
    }

    /// [`Solver::evaluate`] in [`Mode::Initial`]: the captures decide
    /// (the first into a lost position wins in 1, one into a draw makes the
    /// position never a loss), then whether any quiet move is left. The
    /// reference solver keeps the general path.
    #[inline]
    fn evaluate_initial(
        &self,
        class: usize,
        sides: Sides,
        moves: &mut SetMoves,
    ) -> Result<Evaluation, TablebaseError> {
        let Sides { us, them } = sides;
        moves.on(class, us | them);
        let mut capture_draw = false;
        let mut any_capture = false;
        for from in us {
            let targets = moves.attacks(from) & them;
            if targets.is_empty() {
                continue;
            }
            // Capturing the last enemy piece wins.
            if them.len() == 1 {
                return Ok(Evaluation::Win(1));
            }
            any_capture = true;
            let after_them = us.without(from);
            for to in targets {
                let after = Sides::new(them.without(to), after_them.with(to));
                match moves.capture_wdl(self.smaller, self.targets[class], from, after)? {
                    // Nothing wins sooner.
                    Wdl::Loss => return Ok(Evaluation::Win(1)),
                    Wdl::Draw => capture_draw = true,
                    Wdl::Win => {}
                }
            }
        }
        if capture_draw {
            return Ok(Evaluation::CaptureDraw);
        }
        let empty = Bitboard::FULL - us - them;
        // No quiet move's value is known yet: one is enough to leave it open.
        if us
            .into_iter()
            .any(|from| !(step_targets(from) & empty).is_empty())
        {
            Ok(Evaluation::Open)
        } else if any_capture {
            // Every capture loses: in 1, the soonest a loss can come.
            Ok(Evaluation::Loss(1))
        } else {
            Ok(Evaluation::Loss(0))
        }
    }

    /// How to check whether the unresolved position at `index` of `class`
    /// is a loss: `None` if it has a capture into a draw (never a loss),
    /// else [`Mode::QuietLossCheck`] ([`Mode::LossCheck`] for the
    /// reference).
    #[inline]
    fn loss_check(&self, class: usize, index: u64) -> Option<Mode> {
        if self.reference {
            Some(Mode::LossCheck)
        } else if self.classes[class].has_capture_draw(index) {
            None
        } else {
            Some(Mode::QuietLossCheck)
        }
    }

    /// Calls `f` with the index of every predecessor (in the partner class)
    /// of the position `sides` of class `class` that lies in `window` and
    /// is still unresolved.
    ///
    /// All predecessors are ranked first, then their values read: the ranks
    /// (each a directory lookup that may miss the cache) and the reads
    /// overlap, where an atomic update between two ranks (a locked
    /// instruction, which waits for every earlier load) would serialize
    /// them; and resolved predecessors, most of them after the first
    /// levels, cost no atomic update at all.
    fn predecessors(
        &self,
        class: usize,
        sides: Sides,
        window: &Range<u64>,
        mut f: impl FnMut(u64),
    ) -> Result<(), TablebaseError> {
        let partner = &self.classes[self.partner(class)];
        let empty = !(sides.us | sides.them) & Bitboard::FULL;
        // At most 12 pieces of a side, each with at most 8 steps.
        let mut found = [0u64; 96];
        let mut len = 0;
        // The predecessors: `them` to move, stepped back. Positions visited
        // here are scattered, so nothing is shared between them.
        let ranks = partner.indexer.step_ranks(sides.them, sides.us, true);
        for from in sides.them {
            // The side that just moved stepped `back_to → from`.
            for back_to in step_targets(from) & empty {
                let index = ranks.rank(from, back_to)?;
                if !window.contains(&index) {
                    continue;
                }
                if let Some(slot) = found.get_mut(len) {
                    *slot = index;
                    len += 1;
                } else {
                    // More pieces than any table holds: no batching.
                    if partner.get(index) == 0 {
                        f(index);
                    }
                }
            }
        }
        for &index in &found[..len] {
            if partner.get(index) == 0 {
                f(index);
            }
        }
        Ok(())
    }

    fn byte(&self, value: Value, class: usize) -> Result<u8, TablebaseError> {
        value.to_byte().ok_or(TablebaseError::DtcOverflow {
            material: self.classes[class].indexer.material(),
            max: MAX_DTC,
        })
    }

    /// Reports that a chunk `start..end` of `pass` is done.
    fn chunk_done(&self, pass: Pass, start: u64, end: u64) {
        let done = self.done.fetch_add(end - start, Ordering::Relaxed) + end - start;
        self.reporter.progress(pass, done, self.slots);
    }

    /// The chunks of slots `start..end` (`start` a multiple of [`CHUNK`]).
    fn chunks_in(&self, start: u64, end: u64) -> impl ParallelIterator<Item = (u64, u64)> + use<> {
        debug_assert_eq!(start % CHUNK, 0);
        (start / CHUNK..end.div_ceil(CHUNK))
            .into_par_iter()
            .map(move |c| (c * CHUNK, ((c + 1) * CHUNK).min(end)))
    }

    /// Calls `visit(index, sides)` for every used slot of `start..end` (one
    /// chunk) of `class` that `wanted` picks: walking the chunk where they
    /// are dense, unranking them where they are few (see [`WALK_RATIO`]).
    /// `known`: how many slots `wanted` picks, if the caller knows (and
    /// `visit` does not change it); else a sample tells.
    fn for_each_wanted(
        &self,
        class: usize,
        start: u64,
        end: u64,
        known: Option<u64>,
        wanted: impl Fn(u64) -> bool,
        mut visit: impl FnMut(u64, Sides) -> Result<(), TablebaseError>,
    ) -> Result<(), TablebaseError> {
        let indexer = &self.classes[class].indexer;
        if known == Some(0) {
            return Ok(());
        }
        let count = known.unwrap_or_else(|| sampled_count(start, end, &wanted));
        if count.saturating_mul(self.walk_ratio) > end - start {
            let mut result = Ok(());
            indexer.for_each_in(start, end, |index, sides| {
                if result.is_ok() && wanted(index) {
                    result = visit(index, sides);
                }
            });
            return result;
        }
        // Every slot scanned (the sampled count may have missed some), or
        // up to the last of the known count.
        let mut left = known.unwrap_or(u64::MAX);
        for index in start..end {
            if left == 0 {
                break;
            }
            if wanted(index) {
                left -= 1;
                match indexer.unrank(index) {
                    Ok(sides) => visit(index, sides)?,
                    // An unused slot of the symmetric index: no position.
                    Err(IndexError::UnusedSlot { .. }) => {}
                    Err(e) => return Err(e.into()),
                }
            }
        }
        Ok(())
    }

    /// Calls `visit(index, sides, moves)` for every unresolved position of
    /// slots `start..end` of `class`, chunks in parallel (`moves` shared by
    /// the positions of a chunk, see [`Solver::evaluate`]).
    fn for_each_unresolved(
        &self,
        class: usize,
        start: u64,
        end: u64,
        visit: impl Fn(u64, Sides, &mut SetMoves) -> Result<(), TablebaseError> + Sync,
    ) -> Result<(), TablebaseError> {
        let state = &self.classes[class];
        self.chunks_in(start, end).try_for_each(|(start, end)| {
            let mut moves = SetMoves::new();
            self.for_each_wanted(
                class,
                start,
                end,
                None,
                |i| state.get(i) == 0,
                |index, sides| visit(index, sides, &mut moves),
            )
        })
    }

    /// Runs `work(class, start, end)` over the pair's slots in segments
    /// (class 0's first, up to [`SEGMENTS`] a class), from `from` slots of
    /// the pair on (those before were done by a run this one continues),
    /// and calls `segment_done(done, deepest)` after each segment but the
    /// last, `deepest` being the greatest of `deepest` and what `work`
    /// returned so far. Returns that greatest.
    ///
    /// Every `work` here may run twice over the same slots: values are
    /// final when set, so a segment may start at the chunk holding `from`.
    fn segmented(
        &self,
        from: u64,
        mut deepest: u32,
        work: &dyn Fn(usize, u64, u64) -> Result<u32, TablebaseError>,
        segment_done: &mut dyn FnMut(u64, u32) -> Result<(), TablebaseError>,
    ) -> Result<u32, TablebaseError> {
        let mut base = 0;
        for class in 0..self.classes.len() {
            let size = self.classes[class].indexer.size();
            let segment = self.segment_slots(size);
            for start in (0..size).step_by(segment as usize) {
                let end = (start + segment).min(size);
                if base + end <= from {
                    continue;
                }
                let first = from.saturating_sub(base).max(start) / CHUNK * CHUNK;
                deepest = deepest.max(work(class, first, end)?);
                if base + end < self.slots {
                    segment_done(base + end, deepest)?;
                }
            }
            base += size;
        }
        Ok(deepest)
    }

    /// Pass 1 over the slots `start..end` of `class`: positions decided by
    /// captures or by having no move (see [`Pair::evaluate_unresolved`]).
    fn first_pass(&self, class: usize, start: u64, end: u64) -> Result<u32, TablebaseError> {
        match self.targets[class] {
            Some((indexer, bytes))
                if !self.reference && indexer.size() > self.target_window_slots =>
            {
                self.first_pass_in_windows(class, start, end, (indexer, bytes))
            }
            _ => self.evaluate_unresolved(class, Mode::Initial, start, end),
        }
    }

    /// [`Solver::first_pass`] when the table captures reach (`target`, a
    /// byte per slot) is larger than a window: worked through in windows
    /// of it, as the levels work through the partner (see
    /// [`Solver::windows`]). In each window, a capture into a lost
    /// position there wins in 1 and one into a draw is noted; after the
    /// last, a position still unresolved without a capture into a draw
    /// and without a quiet move is a loss (in 1 if it has a capture, else
    /// in 0), as [`Solver::evaluate_initial`] decides at once.
    fn first_pass_in_windows(
        &self,
        class: usize,
        start: u64,
        end: u64,
        (target, bytes): (&TableIndexer, &[u8]),
    ) -> Result<u32, TablebaseError> {
        let state = &self.classes[class];
        let win = self.byte(Value::Win(1), class)?;
        let windows = plan::window_ranges(target.size(), self.target_window_slots.max(CHUNK));
        let any_win = AtomicBool::new(false);
        for window in windows {
            self.for_each_unresolved(class, start, end, |index, Sides { us, them }, moves| {
                moves.on(class, us | them);
                for from in us {
                    let targets = moves.attacks(from) & them;
                    if targets.is_empty() {
                        continue;
                    }
                    // Capturing the last enemy piece wins.
                    if them.len() == 1 {
                        any_win.fetch_or(state.resolve(index, win), Ordering::Relaxed);
                        return Ok(());
                    }
                    let shared = *moves.after_capture(target, from);
                    let after_them = us.without(from);
                    for to in targets {
                        let after = Sides::new(them.without(to), after_them.with(to));
                        let at = target.rank_in(&shared, after.us)?;
                        if !window.contains(&at) {
                            continue;
                        }
                        let wdl = match bytes.get(at as usize) {
                            Some(&byte) => Value::from_table_byte(byte).wdl(),
                            None => self.smaller.probe_wdl(after)?,
                        };
                        match wdl {
                            Wdl::Loss => {
                                any_win.fetch_or(state.resolve(index, win), Ordering::Relaxed);
                                return Ok(());
                            }
                            Wdl::Draw => state.set_capture_draw(index),
                            Wdl::Win => {}
                        }
                    }
                }
                Ok(())
            })?;
        }
        // The positions decided by having no quiet move.
        let [loss_in_0, loss_in_1] = [Value::Loss(0), Value::Loss(1)].map(|v| self.byte(v, class));
        let [loss_in_0, loss_in_1] = [loss_in_0?, loss_in_1?];
        let deepest = self
            .chunks_in(start, end)
            .map(|(start, end)| {
                let mut moves = SetMoves::new();
                let mut deepest = 0;
                self.for_each_wanted(
                    class,
                    start,
                    end,
                    None,
                    |i| state.get(i) == 0 && !state.has_capture_draw(i),
                    |index, Sides { us, them }| {
                        let empty = Bitboard::FULL - us - them;
                        if us
                            .into_iter()
                            .any(|from| !(step_targets(from) & empty).is_empty())
                        {
                            return Ok(());
                        }
                        moves.on(class, us | them);
                        let capture = us
                            .into_iter()
                            .any(|from| !(moves.attacks(from) & them).is_empty());
                        let (byte, d) = if capture {
                            (loss_in_1, 1)
                        } else {
                            (loss_in_0, 0)
                        };
                        if state.resolve(index, byte) {
                            deepest = deepest.max(d);
                        }
                        Ok(())
                    },
                )?;
                self.chunk_done(Pass::Initial, start, end);
                Ok::<u32, TablebaseError>(deepest)
            })
            .try_reduce(|| 0, |a, b| Ok(a.max(b)))?;
        Ok(if any_win.into_inner() {
            deepest.max(1)
        } else {
            deepest
        })
    }

    /// Evaluates every unresolved position of slots `start..end` of
    /// `class` in `mode` and sets the ones decided: the initial pass (which
    /// also notes the positions with a capture into a draw), or a level's
    /// sweep for losses (instead of checking only the candidates; `mode` is
    /// then replaced by [`Pair::loss_check`]). Returns the greatest
    /// distance it set.
    fn evaluate_unresolved(
        &self,
        class: usize,
        mode: Mode,
        start: u64,
        end: u64,
    ) -> Result<u32, TablebaseError> {
        let state = &self.classes[class];
        let whole = 0..u64::MAX;
        self.chunks_in(start, end)
            .try_fold(
                || 0u32,
                |mut deepest, (start, end)| {
                    let mut moves = SetMoves::new();
                    // The mode of the unresolved position at `index`; `None`:
                    // nothing to look at.
                    let mode_at = |index: u64| {
                        if state.get(index) != 0 {
                            None
                        } else if mode == Mode::Initial {
                            Some(mode)
                        } else {
                            self.loss_check(class, index)
                        }
                    };
                    let mut visit = |index: u64, sides: Sides| {
                        let Some(mode) = mode_at(index) else {
                            return Ok(());
                        };
                        let value = match self.evaluate(class, sides, mode, &mut moves, &whole)? {
                            Evaluation::Win(d) => Value::Win(d),
                            Evaluation::Loss(d) => Value::Loss(d),
                            Evaluation::Open => return Ok(()),
                            Evaluation::CaptureDraw => {
                                state.set_capture_draw(index);
                                return Ok(());
                            }
                        };
                        state.resolve(index, self.byte(value, class)?);
                        deepest = deepest.max(value.dtc().unwrap_or(0));
                        Ok(())
                    };
                    let result = self
                        .for_each_wanted(
                            class,
                            start,
                            end,
                            None,
                            |i| mode_at(i).is_some(),
                            &mut visit,
                        )
                        .map(|()| deepest);
                    if mode == Mode::Initial {
                        self.chunk_done(Pass::Initial, start, end);
                    }
                    result
                },
            )
            .try_reduce(|| 0, |a, b| Ok(a.max(b)))
    }

    /// How many slots of `class` are unresolved, hold `loss`, and hold
    /// `win` (0: none counted), in one parallel scan.
    ///
    /// Called between passes only (see [`Solver::settled_values`]).
    fn tally(&self, class: usize, loss: u8, win: u8) -> [u64; 3] {
        self.settled_values(class)
            .par_chunks(1 << 16)
            .map(|part| {
                // Whole bytes compared and summed, which vectorizes.
                let mut t = [0u64; 3];
                for block in part.chunks(255) {
                    let mut c = [0u8; 3];
                    for &b in block {
                        c[0] += u8::from(b == 0);
                        c[1] += u8::from(b == loss);
                        c[2] += u8::from(b == win);
                    }
                    for (t, c) in t.iter_mut().zip(c) {
                        *t += u64::from(c);
                    }
                }
                if win == 0 {
                    t[2] = 0;
                }
                t
            })
            .reduce(|| [0; 3], |a, b| [a[0] + b[0], a[1] + b[1], a[2] + b[2]])
    }

    /// The value bytes of `class`, read as plain bytes: only while no pass
    /// runs (between passes, on the thread that runs them), when nothing
    /// writes them.
    #[allow(unsafe_code)]
    fn settled_values(&self, class: usize) -> &[u8] {
        let values = &self.classes[class].values;
        // SAFETY: `AtomicU8` has the size, alignment and bit validity of
        // `u8`. The callers, `tally` from `plan_level` and `unmoved_counts`
        // from `level` before its first phase, run between passes: every
        // write of a pass happened before it returned (rayon joins its
        // tasks), and no pass starts while the slice lives (the callers
        // drop it before they return), so these reads race with no write.
        unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), values.len()) }
    }

    /// The bytes of level `k`: a loss in `k`, a win in `k` (0 at level 0,
    /// where there is none), a win in `k + 1`.
    fn level_bytes(&self, k: u32) -> Result<[u8; 3], TablebaseError> {
        Ok([
            self.byte(Value::Loss(k), 0)?,
            if k >= 1 {
                self.byte(Value::Win(k), 0)?
            } else {
                0
            },
            self.byte(Value::Win(k + 1), 0)?,
        ])
    }

    /// The bytes level `k` un-moves in `class` under `plan`: its losses in
    /// `k` (`None` where the partner finds its wins itself) and its wins in
    /// `k` (0: none, as at level 0, or where the partner checks all its
    /// positions).
    fn unmoved_bytes(
        &self,
        k: u32,
        plan: LevelPlan,
        class: usize,
    ) -> Result<(Option<u8>, u8), TablebaseError> {
        let [loss, win, _] = self.level_bytes(k)?;
        let partner = self.partner(class);
        let win = if plan.check_all[partner] { 0 } else { win };
        Ok(((!plan.find_wins[partner]).then_some(loss), win))
    }

    /// By chunk of [`CHUNK`] slots of `class`: how many positions level
    /// `k` un-moves there under `plan` ([`Solver::unmoved_bytes`]). Their
    /// values were set before level `k` and stay, so the counts hold for
    /// the whole level, and chunks without any are skipped.
    ///
    /// Called between passes only (see [`Solver::settled_values`]).
    fn unmoved_counts(
        &self,
        k: u32,
        plan: LevelPlan,
        class: usize,
    ) -> Result<Vec<u32>, TablebaseError> {
        let bytes = self.unmoved_bytes(k, plan, class)?;
        Ok(self
            .settled_values(class)
            .par_chunks(CHUNK as usize)
            // Whole bytes compared and summed, which vectorizes.
            .map(|part| part.iter().map(|&b| u32::from(unmoved(b, bytes))).sum())
            .collect())
    }

    /// How level `k` handles each class, from one scan of each class's
    /// bytes (its unresolved slots, its losses and wins at `k`).
    fn plan_level(&self, k: u32) -> Result<LevelPlan, TablebaseError> {
        let [loss, win, _] = self.level_bytes(k)?;
        let tallies: Vec<[u64; 3]> = (0..self.classes.len())
            .map(|class| self.tally(class, loss, win))
            .collect();
        let [unresolved, losses, wins] = [0, 1, 2];
        let mut plan = LevelPlan::default();
        for class in 0..self.classes.len() {
            let partner = self.partner(class);
            // Where wins at `k` are many, un-moving each (a dozen ranks)
            // costs more than checking every unresolved position of the
            // partner class (a few ranks each, most stop at their first
            // open move): sweep it.
            plan.check_all[class] =
                win != 0 && tallies[partner][wins] * SWEEP_RATIO > tallies[class][unresolved];
            // Where losses at `k` are many (typically "every move lets the
            // opponent capture"), un-moving each costs more than looking,
            // from every unresolved position of the partner class, for a
            // quiet move into one of them. The same positions win.
            plan.find_wins[class] =
                tallies[partner][losses] > tallies[class][unresolved] * LOSS_SWEEP_RATIO;
            // At level 1, where the partner's positions that do not win in
            // 1 are few (the partner's side to move captures almost
            // everywhere), un-moving those (a dozen ranks each) to mark the
            // positions they make open costs less than reading every quiet
            // move of every unresolved position, most of them losses.
            let partner_others = self.classes[partner].indexer.size() - tallies[partner][wins];
            plan.mark_open[class] = !self.reference
                && k == 1
                && plan.check_all[class]
                && partner_others * MARK_RATIO < tallies[class][unresolved];
        }
        Ok(plan)
    }

    /// Level `k`, phase [`Phase::Unmove`], over slots `start..end` of
    /// `class`: un-moves its positions at distance `k` into the partner
    /// class. Predecessors of losses win in `k + 1` (unless the partner
    /// finds its wins itself); predecessors of wins become candidates
    /// (unless the partner checks all its positions). Where the partner
    /// marks its open positions ([`LevelPlan::mark_open`], level 1), the
    /// predecessors of every position that does not win in 1 are marked
    /// too. `counts`: how many positions each chunk of the class has to
    /// un-move ([`Solver::unmoved_counts`]). Returns `k + 1` if it set a
    /// win, else 0.
    fn unmove(
        &self,
        k: u32,
        plan: LevelPlan,
        counts: &[u32],
        class: usize,
        start: u64,
        end: u64,
    ) -> Result<u32, TablebaseError> {
        let next_win = self.level_bytes(k)?[2];
        let partner = &self.classes[self.partner(class)];
        let bytes = self.unmoved_bytes(k, plan, class)?;
        let loss = bytes.0;
        let won = AtomicBool::new(false);
        let visit = |sides: Sides, b: u8, window: &Range<u64>| {
            self.predecessors(class, sides, window, |p| {
                if Some(b) == loss {
                    if partner.resolve(p, next_win) {
                        won.store(true, Ordering::Relaxed);
                    }
                } else {
                    mark(&partner.candidates, p);
                }
            })
        };
        let mark_open = plan.mark_open[self.partner(class)];
        let windows = self.windows(class);
        for (w, window) in windows.iter().enumerate() {
            let last = w + 1 == windows.len();
            self.unmove_window(
                k,
                (class, start, end),
                counts,
                bytes,
                mark_open,
                window,
                last,
                &visit,
            )?;
        }
        Ok(if won.into_inner() { k + 1 } else { 0 })
    }

    /// [`Solver::unmove`] of slots `start..end` of `class` into the
    /// partner's `window`: `visit(sides, byte, window)` for each position
    /// to un-move, and with `mark_open` the predecessors of every position
    /// that does not win in 1 marked. `last`: the last window (progress is
    /// reported then).
    #[allow(clippy::too_many_arguments)]
    fn unmove_window(
        &self,
        k: u32,
        (class, start, end): (usize, u64, u64),
        counts: &[u32],
        bytes: (Option<u8>, u8),
        mark_open: bool,
        window: &Range<u64>,
        last: bool,
        visit: &UnmoveVisit<'_>,
    ) -> Result<(), TablebaseError> {
        let state = &self.classes[class];
        let partner = &self.classes[self.partner(class)];
        let win = self.level_bytes(k)?[1];
        self.chunks_in(start, end).try_for_each(|(start, end)| {
            let known = counts.get((start / CHUNK) as usize).copied();
            self.for_each_wanted(
                class,
                start,
                end,
                known.map(u64::from),
                |i| unmoved(state.get(i), bytes),
                |index, sides| visit(sides, state.get(index), window),
            )?;
            if mark_open {
                // Every position that does not win in `k` (1) makes its
                // predecessors open: a byte that is not `win` now never
                // becomes it (this phase sets wins in `k + 1` only). A
                // second pass: the first skips most chunks by their counts,
                // and resolves the predecessors of losses before this one
                // looks (so fewer are marked).
                self.for_each_wanted(
                    class,
                    start,
                    end,
                    None,
                    |i| state.get(i) != win,
                    |_, sides| {
                        self.predecessors(class, sides, window, |p| mark(&partner.candidates, p))
                    },
                )?;
            }
            if last {
                self.chunk_done(Pass::Level(k), start, end);
            }
            Ok::<(), TablebaseError>(())
        })
    }

    /// Level `k`, phase [`Phase::FindWins`], over slots `start..end` of
    /// `class` if the plan says so: sets a win in `k + 1` on every
    /// unresolved position with a quiet move into a loss in `k` of the
    /// partner class (what un-moving those losses would set). Returns
    /// `k + 1` if it set any, else 0.
    fn find_wins(
        &self,
        k: u32,
        plan: LevelPlan,
        class: usize,
        start: u64,
        end: u64,
    ) -> Result<u32, TablebaseError> {
        if !plan.find_wins[class] {
            return Ok(0);
        }
        let [loss, _, win] = self.level_bytes(k)?;
        let state = &self.classes[class];
        let partner = &self.classes[self.partner(class)];
        let any = AtomicBool::new(false);
        // Whether the unresolved position `sides` at `index` has a quiet
        // move into a loss in `k`; if so it is set a win in `k + 1`.
        // `moves` as for [`Solver::evaluate`].
        let look = |index: u64, sides: Sides, moves: &mut SetMoves, window: &Range<u64>| {
            let Sides { us, them } = sides;
            moves.on(class, us | them);
            let empty = Bitboard::FULL - us - them;
            let mut to_move = SideImages::new(them);
            for from in us {
                for to in step_targets(from) & empty {
                    let after = moves.after_step(&partner.indexer, from, to);
                    let after = partner.indexer.rank_side_in(after, &mut to_move)?;
                    if window.contains(&after) && partner.get(after) == loss {
                        if state.resolve(index, win) {
                            any.store(true, Ordering::Relaxed);
                        }
                        return Ok(());
                    }
                }
            }
            Ok(())
        };
        // A position resolved in one window is not looked at in the next.
        for window in self.windows(class) {
            self.for_each_unresolved(class, start, end, |index, sides, moves| {
                look(index, sides, moves, &window)
            })?;
        }
        Ok(if any.into_inner() { k + 1 } else { 0 })
    }

    /// Level `k`, phase [`Phase::CheckLosses`], over slots `start..end` of
    /// `class`: its candidates (or, if the plan says so, all its unresolved
    /// positions) whose moves all lose are losses. Returns the greatest
    /// distance it set (0 if none).
    fn check_losses(
        &self,
        k: u32,
        plan: LevelPlan,
        class: usize,
        start: u64,
        end: u64,
    ) -> Result<u32, TablebaseError> {
        if plan.mark_open[class] {
            return self.losses_from_marks(class, start, end);
        }
        let windows = self.windows(class);
        if windows.len() > 1 && !self.reference {
            return self.check_losses_in_windows(k, plan, class, (start, end), &windows);
        }
        if plan.check_all[class] {
            return self.evaluate_unresolved(class, Mode::LossCheck, start, end);
        }
        let state = &self.classes[class];
        (start as usize / 64..end.div_ceil(64) as usize)
            .into_par_iter()
            .with_min_len(256)
            .try_fold(
                || (0u32, SetMoves::new()),
                |(mut deepest, mut moves), w| {
                    let mut bits = state.candidates[w].swap(0, Ordering::Relaxed);
                    while bits != 0 {
                        let index = w as u64 * 64 + u64::from(bits.trailing_zeros());
                        bits &= bits - 1;
                        if state.get(index) != 0 {
                            continue;
                        }
                        let Some(mode) = self.loss_check(class, index) else {
                            continue;
                        };
                        let sides = state.indexer.unrank(index)?;
                        if let Evaluation::Loss(d) =
                            self.evaluate(class, sides, mode, &mut moves, &(0..u64::MAX))?
                        {
                            state.resolve(index, self.byte(Value::Loss(d), class)?);
                            deepest = deepest.max(d);
                        }
                    }
                    Ok::<_, TablebaseError>((deepest, moves))
                },
            )
            .map(|folded| folded.map(|(deepest, _)| deepest))
            .try_reduce(|| 0, |a, b| Ok(a.max(b)))
    }

    /// [`Solver::check_losses`] of level `k` when the partner is worked
    /// through in `windows` (more than one): a position to check is a loss
    /// when, in every window, each of its quiet moves there loses, which
    /// the windows find one after the other. The candidates' bits (for a
    /// class the plan checks whole, first set on each unresolved position
    /// without a capture into a draw) are cleared where a window finds a
    /// move that does not lose; what is left after the last is a loss.
    /// Its distance is one more than the longest of its moves' wins, and
    /// that is `k` or `k + 1` (a move into a win in `k` made it a
    /// candidate, or, checked whole, it would have been found at the level
    /// of its longest move; no win is longer than `k + 1` yet): a bit per
    /// slot notes a move into a win in `k + 1`.
    fn check_losses_in_windows(
        &self,
        k: u32,
        plan: LevelPlan,
        class: usize,
        (start, end): (u64, u64),
        windows: &[Range<u64>],
    ) -> Result<u32, TablebaseError> {
        let state = &self.classes[class];
        let words = start as usize / 64..end.div_ceil(64) as usize;
        if plan.check_all[class] {
            words.clone().into_par_iter().for_each(|w| {
                let mut bits = 0u64;
                for bit in 0..64 {
                    let index = w as u64 * 64 + bit;
                    if index < end && state.get(index) == 0 && !state.has_capture_draw(index) {
                        bits |= 1 << bit;
                    }
                }
                state.candidates[w].store(bits, Ordering::Relaxed);
            });
        }
        let longest = self.byte(Value::Win(k + 1), class)?;
        // Bit `i` of word `w - words.start`: a move into a win in `k + 1`.
        let deeper: Vec<AtomicU64> = words.clone().map(|_| AtomicU64::new(0)).collect();
        for window in windows {
            words
                .clone()
                .into_par_iter()
                .with_min_len(256)
                .try_for_each_init(SetMoves::new, |moves, w| {
                    let mut bits = state.candidates[w].load(Ordering::Relaxed);
                    let mut open = 0u64;
                    while bits != 0 {
                        let bit = bits.trailing_zeros();
                        bits &= bits - 1;
                        let index = w as u64 * 64 + u64::from(bit);
                        if state.get(index) != 0 || self.loss_check(class, index).is_none() {
                            open |= 1 << bit;
                            continue;
                        }
                        let sides = match state.indexer.unrank(index) {
                            Ok(sides) => sides,
                            Err(IndexError::UnusedSlot { .. }) => {
                                open |= 1 << bit;
                                continue;
                            }
                            Err(e) => return Err(e.into()),
                        };
                        match self.quiet_moves_lose(class, sides, moves, window, longest)? {
                            None => open |= 1 << bit,
                            Some(true) => {
                                deeper[w - words.start].fetch_or(1 << bit, Ordering::Relaxed);
                            }
                            Some(false) => {}
                        }
                    }
                    if open != 0 {
                        state.candidates[w].fetch_and(!open, Ordering::Relaxed);
                    }
                    Ok::<(), TablebaseError>(())
                })?;
        }
        let [near, far] = [Value::Loss(k + 1), Value::Loss(k + 2)].map(|v| self.byte(v, class));
        let [near, far] = [near?, far?];
        let set = words
            .clone()
            .into_par_iter()
            .map(|w| {
                let mut bits = state.candidates[w].swap(0, Ordering::Relaxed);
                let deep = deeper[w - words.start].load(Ordering::Relaxed);
                let mut deepest = 0;
                while bits != 0 {
                    let bit = bits.trailing_zeros();
                    bits &= bits - 1;
                    let far_one = deep & 1 << bit != 0;
                    if state.resolve(
                        w as u64 * 64 + u64::from(bit),
                        if far_one { far } else { near },
                    ) {
                        deepest = deepest.max(if far_one { k + 2 } else { k + 1 });
                    }
                }
                deepest
            })
            .max()
            .unwrap_or(0);
        Ok(set)
    }

    /// Whether every quiet move of the position `sides` of `class` into
    /// the partner's `window` loses (`None` if one does not), and if so
    /// whether one of them leads into the byte `longest`.
    #[inline]
    fn quiet_moves_lose(
        &self,
        class: usize,
        sides: Sides,
        moves: &mut SetMoves,
        window: &Range<u64>,
        longest: u8,
    ) -> Result<Option<bool>, TablebaseError> {
        let partner = &self.classes[self.partner(class)];
        let Sides { us, them } = sides;
        moves.on(class, us | them);
        let empty = Bitboard::FULL - us - them;
        let mut to_move = SideImages::new(them);
        let mut deeper = false;
        for from in us {
            for to in step_targets(from) & empty {
                let after = moves.after_step(&partner.indexer, from, to);
                let index = partner.indexer.rank_side_in(after, &mut to_move)?;
                if !window.contains(&index) {
                    continue;
                }
                let byte = partner.get(index);
                match Value::from_byte(byte) {
                    Some(Value::Win(_)) => deeper |= byte == longest,
                    _ => return Ok(None),
                }
            }
        }
        Ok(Some(deeper))
    }

    /// Level 1, phase [`Phase::CheckLosses`], over slots `start..end` of
    /// `class` when the plan marks its open positions
    /// ([`LevelPlan::mark_open`]): every unresolved position that is not
    /// marked and has no capture into a draw is a loss in 2 (every quiet
    /// move lets the partner win in 1, every capture loses, and the first
    /// pass resolved the positions without a quiet move). Clears the marks.
    /// Returns 2 if it set a loss, else 0.
    fn losses_from_marks(&self, class: usize, start: u64, end: u64) -> Result<u32, TablebaseError> {
        let state = &self.classes[class];
        let loss = self.byte(Value::Loss(2), class)?;
        let set_any = self
            .chunks_in(start, end)
            .map(|(start, end)| {
                let mut unused = Vec::new();
                state
                    .indexer
                    .for_each_unused_in(start, end, |index| unused.push(index));
                let mut unused = unused.into_iter().peekable();
                let mut any = false;
                for index in start..end {
                    if unused.next_if_eq(&index).is_some() {
                        continue;
                    }
                    if state.get(index) == 0
                        && !marked(&state.candidates, index)
                        && !state.has_capture_draw(index)
                    {
                        any |= state.resolve(index, loss);
                    }
                }
                // `start` is a multiple of CHUNK, and `end` one or the end
                // of the class: the words are this chunk's alone.
                for word in &state.candidates[(start / 64) as usize..end.div_ceil(64) as usize] {
                    word.store(0, Ordering::Relaxed);
                }
                any
            })
            .reduce(|| false, |a, b| a | b);
        Ok(if set_any { 2 } else { 0 })
    }

    /// Level `k` with `plan`, from phase `phase` having done `from` of its
    /// slots (a run this one continues did the rest before; 0 and
    /// [`Phase::Unmove`] for a whole level): every position resolved at
    /// distance `k` is un-moved, then the candidates checked. Calls
    /// `segment_done(phase, done, deepest)` between two segments. Returns
    /// the greatest of `deepest` and the distances it set.
    fn level(
        &self,
        k: u32,
        plan: LevelPlan,
        (phase, from): (Phase, u64),
        mut deepest: u32,
        segment_done: &mut dyn FnMut(Phase, u64, u32) -> Result<(), TablebaseError>,
    ) -> Result<u32, TablebaseError> {
        self.done.store(0, Ordering::Relaxed);
        let counts: Vec<Vec<u32>> = if phase <= Phase::Unmove {
            (0..self.classes.len())
                .map(|class| self.unmoved_counts(k, plan, class))
                .collect::<Result<Vec<_>, _>>()?
        } else {
            Vec::new()
        };
        for p in [Phase::Unmove, Phase::FindWins, Phase::CheckLosses] {
            if p < phase {
                continue;
            }
            let from = if p == phase { from } else { 0 };
            let work = |class: usize, start, end| match p {
                Phase::Unmove => self.unmove(k, plan, &counts[class], class, start, end),
                Phase::FindWins => self.find_wins(k, plan, class, start, end),
                _ => self.check_losses(k, plan, class, start, end),
            };
            deepest = self.segmented(from, deepest, &work, &mut |done, d| {
                segment_done(p, done, d)
            })?;
        }
        Ok(deepest)
    }
}

/// Where and how often a pair checkpoints its state (see [`checkpoint`]).
pub(crate) struct Checkpointing<'a> {
    /// The directory of the tables (the checkpoint is written beside them).
    pub(crate) dir: &'a Path,
    /// The least time between two checkpoints (zero: at every level).
    pub(crate) every: Duration,
    /// Whether the pair's state is mapped from work files in `dir`
    /// ([`store`]) instead of held in memory.
    pub(crate) mapped: bool,
}

/// Generates the tables of a class and its swap, given their indexers (one
/// if the class is its own swap, else two), using `smaller` for the classes
/// that captures reach. Returns the tables in the order of the indexers,
/// and the stage it resumed at if it continued from a checkpoint.
///
/// With `checkpointing`, a checkpoint of the pair found in the directory is
/// checked and continued from (a damaged or mismatching one is reported
/// and ignored), and a new one is written between two segments of the
/// first pass or two levels, at most once per `every`. The caller removes
/// it once the tables are written.
pub(crate) fn generate_pair(
    indexers: Vec<TableIndexer>,
    smaller: &Tablebase,
    reporter: &dyn Progress,
    checkpointing: Option<&Checkpointing<'_>>,
    windows: Windows,
) -> Result<(Vec<Table>, Option<Stage>), TablebaseError> {
    solve_pair(
        indexers,
        smaller,
        reporter,
        checkpointing,
        Tuning {
            windows,
            ..Tuning::default()
        },
    )
}

/// How much of what a pair reads and writes at random it works on at a
/// time: each partner class and the tables captures reach, in slots
/// (`None`: whole). See [`plan::window_slots`](crate::plan::window_slots).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Windows {
    /// Windows of the partner class (the levels).
    pub(crate) partner: Option<u64>,
    /// Windows of the table captures reach (the first pass).
    pub(crate) targets: Option<u64>,
}

/// How [`solve_pair`] goes about it (the tests force each way).
#[derive(Clone, Copy)]
struct Tuning {
    /// Every loss check in [`Mode::LossCheck`] (the reference).
    reference: bool,
    /// See [`WALK_RATIO`].
    walk_ratio: u64,
    /// See [`Windows`].
    windows: Windows,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            reference: false,
            walk_ratio: WALK_RATIO,
            windows: Windows::default(),
        }
    }
}

/// [`generate_pair`], with `reference`: every loss check in
/// [`Mode::LossCheck`] (what the tests compare the fast paths with).
fn solve_pair(
    indexers: Vec<TableIndexer>,
    smaller: &Tablebase,
    reporter: &dyn Progress,
    checkpointing: Option<&Checkpointing<'_>>,
    tuning: Tuning,
) -> Result<(Vec<Table>, Option<Stage>), TablebaseError> {
    let Tuning {
        reference,
        walk_ratio,
        windows,
    } = tuning;
    debug_assert!(
        indexers.len() == 1 && indexers[0].material() == indexers[0].material().swapped()
            || indexers.len() == 2 && indexers[0].material() == indexers[1].material().swapped()
    );
    let solver = Solver {
        slots: indexers.iter().map(|i| i.size()).sum(),
        targets: indexers
            .iter()
            .map(|i| capture_target(smaller, i.material()))
            .collect(),
        classes: indexers
            .into_iter()
            .map(|i| ClassState::new(i, checkpointing.filter(|c| c.mapped).map(|c| c.dir)))
            .collect::<Result<_, _>>()?,
        smaller,
        reporter,
        done: AtomicU64::new(0),
        reference,
        walk_ratio,
        window_slots: windows.partner.unwrap_or(u64::MAX),
        target_window_slots: windows.targets.unwrap_or(u64::MAX),
    };
    let saved = checkpointing.map(|c| checkpoint::path(c.dir, &solver.classes[0].indexer));
    let class_states = || -> Vec<checkpoint::ClassState<'_>> {
        solver
            .classes
            .iter()
            .map(|c| checkpoint::ClassState {
                indexer: &c.indexer,
                values: &c.values,
                capture_draws: &c.capture_draws,
                candidates: &c.candidates,
            })
            .collect()
    };
    let mut found = None;
    if let Some(path) = &saved {
        match checkpoint::read(path, &class_states()) {
            Ok(f) => found = f,
            Err(why) => {
                reporter.checkpoint_rejected(path, &why.to_string());
                for state in &solver.classes {
                    state
                        .values
                        .par_iter()
                        .for_each(|v| v.store(0, Ordering::Relaxed));
                    for word in state.capture_draws.iter().chain(state.candidates.iter()) {
                        word.store(0, Ordering::Relaxed);
                    }
                }
            }
        }
    }
    let total = solver.slots;
    let stage = |r: Resume| match r.phase {
        Phase::FirstPass => Stage::Initial {
            done: r.done,
            total,
        },
        Phase::BeforeLevel => Stage::Level(r.level),
        phase => Stage::InLevel {
            level: r.level,
            done: (phase as u64 - Phase::Unmove as u64) * total + r.done,
            total: 3 * total,
        },
    };
    // Writes a checkpoint if one is due: `every` since the last one (or
    // since the pair started or resumed), and at least nine times as long
    // as writing the last one took, so that checkpoints of a large pair
    // cost at most a tenth of its time (with `every` zero: always).
    let mut last = Instant::now();
    let mut last_cost = Duration::ZERO;
    let mut checkpoint_if_due = |resume: Resume| -> Result<(), TablebaseError> {
        let (Some(c), Some(path)) = (checkpointing, &saved) else {
            return Ok(());
        };
        if !c.every.is_zero() && last.elapsed() < c.every.max(last_cost * 9) {
            return Ok(());
        }
        let started = Instant::now();
        let bytes = checkpoint::write(path, &class_states(), resume)?;
        reporter.checkpoint_written(stage(resume), bytes);
        last = Instant::now();
        last_cost = started.elapsed();
        Ok(())
    };
    let mut at = Resume::START;
    if let Some(found) = found {
        at = found.resume;
        reporter.checkpoint_resumed(stage(at));
        // A version 1 checkpoint holds the values only: the first pass
        // again notes the captures into draws of the positions it left
        // unresolved (and finds nothing to resolve).
        if !found.capture_draws && !solver.reference {
            let first_pass = |class, start, end| solver.first_pass(class, start, end);
            solver.segmented(0, 0, &first_pass, &mut |_, _| Ok(()))?;
        }
    }
    let mut deepest = at.deepest;
    if at.phase == Phase::FirstPass {
        solver.done.store(at.done, Ordering::Relaxed);
        let first_pass = |class, start, end| solver.first_pass(class, start, end);
        deepest = solver.segmented(at.done, deepest, &first_pass, &mut |done, deepest| {
            checkpoint_if_due(Resume {
                done,
                deepest,
                ..Resume::START
            })
        })?;
        at = Resume::before_level(0, deepest);
    }
    // Level `k` handles exactly the values at distance `k`; once `k` passes
    // the deepest value set so far, nothing is left to un-move.
    let mut k = at.level;
    loop {
        let (plan, from) = if at.phase.in_level() {
            (at.plan, (at.phase, at.done))
        } else {
            if k > deepest {
                break;
            }
            checkpoint_if_due(Resume::before_level(k, deepest))?;
            (solver.plan_level(k)?, (Phase::Unmove, 0))
        };
        deepest = solver.level(k, plan, from, deepest, &mut |phase, done, deepest| {
            checkpoint_if_due(Resume {
                phase,
                level: k,
                done,
                plan,
                deepest,
            })
        })?;
        at = Resume::before_level(k + 1, deepest);
        k += 1;
    }
    let mut out = Vec::new();
    for state in solver.classes {
        out.push(state.into_table()?);
    }
    Ok((out, found.map(|f| stage(f.resume))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pair::Pair;
    use crate::progress::NoProgress;
    use proptest::prelude::*;
    use surakarta::random::{random_position, SplitMix};
    use surakarta::Color;
    use surakarta_index::Material;
    use surakarta_index::Scheme;

    fn tablebase() -> &'static Tablebase {
        crate::test_tables::up_to_5()
    }

    /// The fast loss checks (captures into draws noted by the first pass,
    /// [`Mode::QuietLossCheck`]) give the tables the reference gives
    /// ([`Mode::LossCheck`] everywhere), for every pair up to 5 pieces in
    /// the symmetric scheme (and the tables of the fixture), and in the
    /// plain scheme for every pair up to 4 pieces, whose 3v1 + 1v3 span two
    /// segments each (the plain 5-piece classes, eight times the symmetric
    /// ones' slots, add nothing the others do not check).
    #[test]
    fn fast_loss_checks_match_the_reference() {
        let tb = tablebase();
        for scheme in [Scheme::Symmetric, Scheme::Plain] {
            let mut directories = crate::probe::table::Directories::default();
            let pairs = Pair::all(5)
                .into_iter()
                .filter(|pair| scheme == Scheme::Symmetric || pair.pieces() <= 4);
            for pair in pairs.map(Pair::classes) {
                let indexers: Vec<TableIndexer> = pair
                    .iter()
                    .map(|&m| TableIndexer::new(m, scheme, &mut directories))
                    .collect();
                let solve = |reference, walk_ratio, window: Option<u64>| {
                    let tuning = Tuning {
                        reference,
                        walk_ratio,
                        windows: Windows {
                            partner: window,
                            targets: window,
                        },
                    };
                    solve_pair(indexers.clone(), tb, &NoProgress, None, tuning)
                        .unwrap()
                        .0
                };
                // The reference walks every chunk; the fast checks are
                // compared as the passes choose, always walking and always
                // unranking, and with the partner in windows of one chunk
                // and of three.
                let reference = solve(true, u64::MAX, None);
                let ways = [
                    (WALK_RATIO, None),
                    (u64::MAX, None),
                    (0, None),
                    (WALK_RATIO, Some(CHUNK)),
                    (WALK_RATIO, Some(3 * CHUNK)),
                ];
                for (walk_ratio, window) in ways {
                    let fast = solve(false, walk_ratio, window);
                    for (f, r) in fast.iter().zip(&reference) {
                        assert_eq!(
                            f.payload().unwrap(),
                            r.payload().unwrap(),
                            "{pair:?}, walk ratio {walk_ratio}, window {window:?}"
                        );
                    }
                }
                if scheme == Scheme::Symmetric {
                    for r in &reference {
                        let fixture = tb.lookup(r.indexer().material()).unwrap();
                        assert_eq!(r.payload().unwrap(), fixture.payload().unwrap());
                    }
                }
            }
        }
    }

    /// Progress that stops the pair (by panicking) right after its
    /// `stop_at`-th checkpoint is written, and notes where it resumed.
    struct Interrupt {
        stop_at: usize,
        written: std::sync::Mutex<Vec<Stage>>,
        resumed: std::sync::Mutex<Option<Stage>>,
    }

    impl Progress for Interrupt {
        fn checkpoint_written(&self, stage: Stage, _bytes: u64) {
            let count = {
                let mut written = self.written.lock().unwrap();
                written.push(stage);
                written.len()
            };
            if count == self.stop_at {
                panic!("interrupted at checkpoint {count} (as the test means to)");
            }
        }

        fn checkpoint_resumed(&self, stage: Stage) {
            *self.resumed.lock().unwrap() = Some(stage);
        }
    }

    /// A pair stopped right after one of its checkpoints (inside the first
    /// pass, before a level, inside each phase of a level) continues from
    /// it to the same tables as a run never stopped, and says where it
    /// continued.
    #[test]
    fn a_pair_stopped_after_a_checkpoint_resumes_to_the_same_tables() {
        stopped_and_resumed(false, None);
    }

    /// The same with the state mapped from work files: a stopped run's
    /// work files (left with stale bytes, as a killed run leaves them) are
    /// replaced, the checkpoint alone is continued from, and no work file
    /// is left once the pair is done.
    #[test]
    fn a_mapped_pair_stopped_after_a_checkpoint_resumes_to_the_same_tables() {
        stopped_and_resumed(true, None);
    }

    /// The same with the state mapped and the partner worked through in
    /// windows of a chunk (fifteen a class).
    #[test]
    fn a_windowed_pair_stopped_after_a_checkpoint_resumes_to_the_same_tables() {
        stopped_and_resumed(true, Some(CHUNK));
    }

    fn stopped_and_resumed(mapped: bool, window: Option<u64>) {
        let tuning = Tuning {
            windows: Windows {
                partner: window,
                targets: window,
            },
            ..Tuning::default()
        };
        let tb = tablebase();
        let mut directories = crate::probe::table::Directories::default();
        // Plain 3v1 + 1v3: 235,620 slots a class, two segments each.
        let indexers: Vec<TableIndexer> =
            [Material::new(3, 1).unwrap(), Material::new(1, 3).unwrap()]
                .iter()
                .map(|&m| TableIndexer::new(m, Scheme::Plain, &mut directories))
                .collect();
        assert!(indexers[0].size() > MIN_SEGMENT);
        assert!(indexers[0].size() <= 2 * MIN_SEGMENT);
        let want: Vec<Vec<u8>> =
            solve_pair(indexers.clone(), tb, &NoProgress, None, Tuning::default())
                .unwrap()
                .0
                .iter()
                .map(|t| t.payload().unwrap().to_vec())
                .collect();
        let dir = std::env::temp_dir().join(format!("sk-gen-stop-{}-{mapped}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let checkpointing = Checkpointing {
            dir: &dir,
            every: Duration::ZERO,
            mapped,
        };
        let work_files = || -> Vec<std::path::PathBuf> {
            std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == store::EXTENSION))
                .collect()
        };
        let path = checkpoint::path(&dir, &indexers[0]);
        // Stops by kind: first pass, before a level, un-moving, finding
        // wins, checking losses.
        let mut stops = [0; 5];
        let mut stop_at = 1;
        loop {
            let stopper = Interrupt {
                stop_at,
                written: Default::default(),
                resumed: Default::default(),
            };
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                solve_pair(indexers.clone(), tb, &stopper, Some(&checkpointing), tuning)
            }));
            let written = stopper.written.into_inner().unwrap();
            if run.is_ok() {
                // Fewer checkpoints than `stop_at`: every kind was passed.
                assert!(written.len() < stop_at);
                break;
            }
            let at = *written.last().unwrap();
            stops[match at {
                Stage::Initial { .. } => 0,
                Stage::Level(_) => 1,
                Stage::InLevel { done, total, .. } => 2 + (3 * done / total) as usize,
                Stage::Verify { .. } => unreachable!("a generation's checkpoint"),
            }] += 1;
            assert!(work_files().is_empty(), "removed when the pair is dropped");
            if mapped {
                // What a killed run leaves: work files full of stale bytes.
                for indexer in &indexers {
                    let name = crate::format::file_name(indexer.material());
                    let bytes = store::work_file_bytes(indexer.size()) as usize;
                    std::fs::write(store::path(&dir, &name), vec![0xa5u8; bytes]).unwrap();
                }
            }
            let resumer = Interrupt {
                stop_at: usize::MAX,
                written: Default::default(),
                resumed: Default::default(),
            };
            let (tables, resumed) =
                solve_pair(indexers.clone(), tb, &resumer, Some(&checkpointing), tuning).unwrap();
            assert_eq!(resumed, Some(at));
            assert_eq!(*resumer.resumed.lock().unwrap(), Some(at));
            for (table, want) in tables.iter().zip(&want) {
                assert!(
                    table.payload().unwrap() == &want[..],
                    "stopped after {at:?}"
                );
            }
            assert!(work_files().is_empty(), "removed when the pair is done");
            std::fs::remove_file(&path).unwrap();
            // Each of the first four (the first pass's three, then before
            // level 0), then every twenty-sixth: a level has 1 + 3·3
            // checkpoints here, so the stops fall in every kind.
            stop_at += if stop_at < 4 { 1 } else { 26 };
        }
        assert_eq!(
            stops[0], 3,
            "a segment boundary in each class, one between: {stops:?}"
        );
        assert!(stops.iter().all(|&n| n > 0), "{stops:?}");
        std::fs::remove_dir_all(&dir).ok();
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// A capture's probe through the target table, ranked from what the
        /// positions on the same points share, agrees with
        /// `Tablebase::probe_wdl`, and the shared captures are the move
        /// generator's.
        #[test]
        fn capture_probes_match_probe_wdl(seed in any::<u64>(), us in 1..5u32, them in 1..5u32) {
            prop_assume!(us + them <= 6);
            let tb = tablebase();
            let mut rng = SplitMix::new(seed);
            let Ok(position) = random_position(&mut rng, us, them, Color::Black) else {
                return Ok(());
            };
            let sides = Sides::of(&position);
            let material = Material::of(sides).unwrap();
            let target = capture_target(tb, material);
            prop_assert_eq!(target.is_some(), them > 1);
            let mut moves = SetMoves::new();
            moves.on(0, sides.us | sides.them);
            let mut shared = Vec::new();
            for from in sides.us {
                for to in moves.attacks(from) & sides.them {
                    shared.push((from, to));
                    let after = Sides::new(sides.them.without(to), sides.us.without(from).with(to));
                    let Some((indexer, bytes)) = target else {
                        prop_assert!(after.us.is_empty());
                        continue;
                    };
                    let ranks = moves.after_capture(indexer, from);
                    let index = indexer.rank_in(ranks, after.us).unwrap();
                    prop_assert_eq!(
                        Value::from_table_byte(bytes[index as usize]).wdl(),
                        tb.probe_wdl(after).unwrap()
                    );
                }
            }
            let generated: Vec<_> = surakarta::capture_moves(sides.us, sides.them)
                .iter()
                .map(|m| (m.from(), m.to()))
                .collect();
            shared.sort();
            let mut generated = generated;
            generated.sort();
            prop_assert_eq!(shared, generated);
        }
    }
}
