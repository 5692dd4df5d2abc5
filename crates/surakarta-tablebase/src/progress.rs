//! Progress of long work (generation, verification, compaction): the
//! library never prints; it calls a [`Progress`] the caller gives it.

use crate::format::ClassStats;
use std::path::Path;
use std::time::Duration;
use surakarta_index::Material;

/// A stage of long work, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Generation's first pass (captures and positions without moves).
    Initial,
    /// Generation's level `k`: un-moving the positions at distance `k`.
    Level(u32),
    /// Verification of a table.
    Verify,
    /// Compacting a table into format 2.
    Compact,
}

/// Where a pair's generation, or a table's verification, stands at a
/// checkpoint: what a run resuming from it does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Inside the first pass: `done` of the pair's `total` slots evaluated
    /// (the first class's slots first).
    Initial {
        /// Slots the first pass has evaluated.
        done: u64,
        /// Slots of the pair.
        total: u64,
    },
    /// Before level `k` (the first pass is over).
    Level(u32),
    /// Inside level `level`: `done` of its `total` units of work (each of
    /// its three phases counts the pair's slots once).
    InLevel {
        /// The level.
        level: u32,
        /// Work done.
        done: u64,
        /// Work of the whole level.
        total: u64,
    },
    /// Verifying a table: `done` of its `total` slots re-derived.
    Verify {
        /// Slots done.
        done: u64,
        /// Slots of the table.
        total: u64,
    },
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Stage::Initial { done, total } => write!(
                f,
                "in the first pass ({:.1}% of {total} slots done)",
                100.0 * done as f64 / total.max(1) as f64
            ),
            Stage::Level(k) => write!(f, "at level {k}"),
            Stage::InLevel { level, done, total } => write!(
                f,
                "in level {level} ({:.1}% done)",
                100.0 * done as f64 / total.max(1) as f64
            ),
            Stage::Verify { done, total } if done == total => {
                write!(f, "of a finished verification ({total} slots)")
            }
            Stage::Verify { done, total } => write!(
                f,
                "in verification ({:.1}% of {total} slots done)",
                100.0 * done as f64 / total.max(1) as f64
            ),
        }
    }
}

/// Receives progress of long work; the library never prints. Methods may be
/// called from several threads at once.
pub trait Progress: Sync {
    /// Generation will solve classes with this many slots in all (a
    /// verification or a compression: the slots of the tables it will
    /// verify or convert).
    fn started(&self, _total_slots: u64) {}
    /// A class and its swap (one or two materials) are about to be solved
    /// (or one table verified or compacted).
    fn pair_started(&self, _materials: &[Material], _slots: u64) {}
    /// The pair just started is modelled to need this many bytes at its
    /// peak ([`crate::plan::memory_bytes`]).
    fn pair_memory(&self, _bytes: u64) {}
    /// The pair just started keeps its state in work files mapped from the
    /// tables' directory ([`crate::Storage::Mapped`]), of this many bytes,
    /// instead of in memory; with `window_slots`, worked through in
    /// windows of that many slots of each partner class
    /// ([`crate::plan::window_slots`]).
    fn pair_mapped(&self, _work_bytes: u64, _window_slots: Option<u64>) {}
    /// Within the current pair or table: `done` of `total` slots of `pass`.
    fn progress(&self, _pass: Pass, _done: u64, _total: u64) {}
    /// A class was already in the directory and is not generated again.
    fn class_skipped(&self, _stats: &ClassStats) {}
    /// A class is finished (`elapsed`: the time of its pair so far, or of
    /// the table verified or compacted).
    fn class_done(&self, _stats: &ClassStats, _elapsed: Duration) {}
    /// The current pair's (or verified table's) state was saved (`bytes`
    /// long); a run resuming from it continues at `stage`.
    fn checkpoint_written(&self, _stage: Stage, _bytes: u64) {}
    /// The current pair (or verified table) continues from its checkpoint
    /// at `stage`.
    fn checkpoint_resumed(&self, _stage: Stage) {}
    /// A checkpoint was found but not used (the work starts over): why.
    fn checkpoint_rejected(&self, _path: &Path, _why: &str) {}
}

/// Progress that goes nowhere.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;

impl Progress for NoProgress {}
