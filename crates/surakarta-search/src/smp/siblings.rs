//! Parallel siblings (Young Brothers Wait, FuChou's scheme): once a node's
//! first move (the eldest brother) has been searched alone, its remaining
//! moves are searched in parallel on the rayon pool. They share the node's
//! alpha through a [`Split`] (each starts from the current value and raises
//! it) and a cut flag: a sibling that fails high sets it, and every worker
//! below checks its chain of split points and abandons the work.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::Mutex;

use surakarta::Move;

/// A node whose younger brothers are being searched in parallel.
pub(crate) struct Split<'p> {
    alpha: AtomicI32,
    cut: AtomicBool,
    parent: Option<&'p Split<'p>>,
}

impl<'p> Split<'p> {
    /// A split at a node with this `alpha`, below the split `parent` (the
    /// nearest split point above it, if any).
    pub(crate) fn new(alpha: i32, parent: Option<&'p Split<'p>>) -> Split<'p> {
        Split {
            alpha: AtomicI32::new(alpha),
            cut: AtomicBool::new(false),
            parent,
        }
    }

    /// Whether this node or an ancestor split has failed high, making the
    /// work below it useless.
    pub(crate) fn cancelled(&self) -> bool {
        let mut split = Some(self);
        while let Some(s) = split {
            if s.cut.load(Ordering::Relaxed) {
                return true;
            }
            split = s.parent;
        }
        false
    }

    /// Searches `moves` in parallel: one participant per thread of the
    /// current rayon pool takes the next move not yet taken, in order, until
    /// none is left, so the best-ordered moves start first whichever thread
    /// is free. A participant builds its worker with `fork` when it takes its
    /// first move, and a participant that no other thread has taken by the
    /// time the others have finished takes no move and builds nothing: a
    /// split that finds the other threads busy costs one fork. A move is
    /// skipped once this split is cancelled, `stopped` says the search is
    /// over or alpha has reached `beta`. `search(worker, index, move, alpha)`
    /// searches move number `index` of `moves` against the current alpha and
    /// gives its score and line, or `None` if it was stopped (its result then
    /// counts for nothing). A score raises the shared alpha; one at `beta` or
    /// above cuts the split and is passed to `on_cut`. Returns the best score
    /// with its move and line, or `None` if no move finished.
    pub(crate) fn search<W, L: Send>(
        &self,
        moves: &[Move],
        beta: i32,
        fork: impl Fn() -> W + Sync,
        stopped: impl Fn() -> bool + Sync,
        search: impl Fn(&mut W, usize, Move, i32) -> Option<(i32, L)> + Sync,
        on_cut: impl Fn(Move) + Sync,
    ) -> Option<(i32, Move, L)> {
        let found: Mutex<Option<(i32, Move, L)>> = Mutex::new(None);
        let next = AtomicUsize::new(0);
        let participant = || {
            let mut worker = None;
            loop {
                if self.cancelled() || stopped() {
                    return;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&m) = moves.get(i) else {
                    return;
                };
                let alpha = self.alpha.load(Ordering::Relaxed);
                if alpha >= beta {
                    return;
                }
                let worker = worker.get_or_insert_with(&fork);
                let Some((score, line)) = search(worker, i, m, alpha) else {
                    return;
                };
                let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
                if found.as_ref().is_none_or(|(s, _, _)| score > *s) {
                    *found = Some((score, m, line));
                }
                drop(found);
                self.alpha.fetch_max(score, Ordering::Relaxed);
                if score >= beta {
                    self.cut.store(true, Ordering::Relaxed);
                    on_cut(m);
                }
            }
        };
        spread(rayon::current_num_threads(), &participant);
        found.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

/// Runs `participant` `count` times (at least once), offered to the other
/// threads of the pool: each run after the first is a rayon job that an idle
/// thread may take, else this thread runs it after the first.
fn spread(count: usize, participant: &(impl Fn() + Sync)) {
    if count <= 1 {
        participant();
    } else {
        rayon::join(participant, || spread(count - 1, participant));
    }
}
