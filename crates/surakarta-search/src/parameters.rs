//! The search's tuning constants, in one place: aspiration windows, late
//! move reductions, move-ordering bonuses, history, transposition-table
//! replacement, parallel splits and time management.
//!
//! These are compile-time constants, not settings: changing one changes what
//! the search does (with one thread, the bench signature), so a change is
//! decided by self-play (`surakarta match`) and recorded in
//! `CHANGELOG.md` with its figures in `benches/results/`. What a user picks per engine (threads, hash size,
//! evaluation weights, techniques on or off, the parallel scheme) is in
//! [`Options`](crate::Options) instead; the evaluation weights stay with the
//! evaluation in [`crate::eval`], since they define the features' sum rather
//! than tune the tree walk.
//!
//! This module imports nothing of the crate.

// Aspiration windows (iterative deepening in `engine`).

/// Aspiration windows start at this iteration depth; shallower iterations
/// (and decisive previous scores) search with the full window.
pub(crate) const ASPIRATION_MIN_DEPTH: i32 = 4;
/// The floor of the aspiration half-width (FuChou's window `20 + |score|/8`):
/// the window is never empty.
pub(crate) const ASPIRATION_BASE: i32 = 20;
/// The half-width grows by `|score|` divided by this: wider windows for
/// larger scores.
pub(crate) const ASPIRATION_SCORE_DIVISOR: i32 = 8;
/// A fail low or high multiplies the half-width by this before searching
/// again.
pub(crate) const ASPIRATION_GROWTH: i32 = 2;

// Late move reductions (`search`).

/// Quiet moves are reduced only with at least this many plies to go.
pub(crate) const LMR_MIN_DEPTH: i32 = 3;
/// Quiet moves are reduced from this move index on (0-based: the fourth
/// move).
pub(crate) const LMR_FIRST_INDEX: usize = 3;
/// The reduction of a late quiet move, in plies.
pub(crate) const LMR_REDUCTION: i32 = 1;
/// From this move index on (the ninth move) …
pub(crate) const LMR_DEEPER_INDEX: usize = 8;
/// … at this remaining depth or more …
pub(crate) const LMR_DEEPER_DEPTH: i32 = 6;
/// … the reduction is this many plies instead.
pub(crate) const LMR_DEEPER_REDUCTION: i32 = 2;
/// At PV nodes the reduction is this many plies less.
pub(crate) const LMR_PV_RELIEF: i32 = 1;

// Move ordering (`ordering`).

/// The ordering score of the transposition table's move: first.
pub(crate) const ORDER_TABLE_MOVE: i32 = 1 << 30;
/// The ordering score of a capture, plus its history score: after the table
/// move.
pub(crate) const ORDER_CAPTURE: i32 = 1 << 28;
/// The ordering score of the second killer (the first gets one more): after
/// the captures, before quiet moves by history.
pub(crate) const ORDER_KILLER: i32 = 1 << 26;
/// History scores stay within `±HISTORY_MAX` (gravity saturates them
/// smoothly).
pub(crate) const HISTORY_MAX: i32 = 1 << 14;
/// The largest history bonus of a cut-off (the bonus is `depth²`).
pub(crate) const HISTORY_BONUS_MAX: i32 = HISTORY_MAX / 4;

// Transposition table replacement (`tt`).

/// An entry's worth as a replacement victim is its depth minus this many
/// plies per search (generation) of age.
pub(crate) const TT_AGE_PENALTY: i32 = 8;
/// A bound for a key already stored does not replace an entry more than
/// this many plies deeper.
pub(crate) const TT_KEEP_DEEPER: u8 = 2;

// Parallel siblings and limits polling (`search`, `smp`).

/// Search at least this deep (remaining plies) before splitting a node's
/// younger brothers over threads.
pub(crate) const SPLIT_DEPTH: i32 = 2;
/// A worker checks the clock and the node limit every this many nodes (so a
/// node limit is exact to within this many nodes per worker).
pub(crate) const CHECK_EVERY: u64 = 1024;

// Time management (`limits`).

/// The reserve kept on the clock for overhead, in milliseconds …
pub(crate) const TIME_RESERVE_MS: u64 = 50;
/// … or this fraction of the time left (`time / TIME_RESERVE_DIVISOR`),
/// whichever is smaller.
pub(crate) const TIME_RESERVE_DIVISOR: u32 = 10;
/// Moves expected until the end when the clock gives no moves to go.
pub(crate) const DEFAULT_MOVES_TO_GO: u32 = 30;
/// Moves to go are counted as at most this many.
pub(crate) const MAX_MOVES_TO_GO: u32 = 50;
/// The share of the increment spent on each move: `INCREMENT_USED_NUMERATOR
/// / INCREMENT_USED_DENOMINATOR` (three quarters).
pub(crate) const INCREMENT_USED_NUMERATOR: u32 = 3;
/// See [`INCREMENT_USED_NUMERATOR`].
pub(crate) const INCREMENT_USED_DENOMINATOR: u32 = 4;
/// The soft limit (no new iteration after it) is the target time divided by
/// this.
pub(crate) const SOFT_LIMIT_DIVISOR: u32 = 2;
/// The hard limit (the search is aborted) is at most this many times the
/// target …
pub(crate) const HARD_LIMIT_FACTOR: u32 = 4;
/// … and at most the usable time divided by this.
pub(crate) const HARD_LIMIT_DIVISOR: u32 = 3;
/// Adaptive time management: the soft limit's factor after an iteration
/// whose best move had been the same for 0, 1, 2… iterations before it
/// (the last entry for more).
pub(crate) const TIME_STABILITY_SCALE: [f64; 6] = [1.5, 1.2, 1.0, 0.9, 0.8, 0.7];
/// Adaptive time management: the bounds of the growth expected from one
/// iteration to the next.
pub(crate) const TIME_GROWTH_MIN: f64 = 1.5;
/// See [`TIME_GROWTH_MIN`].
pub(crate) const TIME_GROWTH_MAX: f64 = 6.0;
