//! Parallel siblings (Young Brothers Wait, FuChou's scheme): once a node's
//! first move (the eldest brother) has been searched alone, its remaining
//! moves are searched in parallel on the rayon pool. They share the node's
//! alpha through a [`Split`] (each starts from the current value and raises
//! it) and a cut flag: a sibling that fails high sets it, and every worker
//! below checks its chain of split points and abandons the work.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;
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

    /// Searches `moves` in parallel. Each rayon job builds one worker with
    /// `fork` and reuses it for the moves it takes; a move is skipped once
    /// this split is cancelled, `stopped` says the search is over or alpha
    /// has reached `beta`. `search(worker, index, move, alpha)` searches move
    /// number `index` of `moves` against the current alpha and gives its
    /// score and line, or `None` if it was stopped (its result then counts
    /// for nothing). A score raises the shared alpha; one at `beta` or above
    /// cuts the split and is passed to `on_cut`. Returns the best score with
    /// its move and line, or `None` if no move finished.
    pub(crate) fn search<W, L: Send>(
        &self,
        moves: &[Move],
        beta: i32,
        fork: impl Fn() -> W + Sync + Send,
        stopped: impl Fn() -> bool + Sync + Send,
        search: impl Fn(&mut W, usize, Move, i32) -> Option<(i32, L)> + Sync + Send,
        on_cut: impl Fn(Move) + Sync + Send,
    ) -> Option<(i32, Move, L)> {
        let found: Mutex<Option<(i32, Move, L)>> = Mutex::new(None);
        moves
            .par_iter()
            .enumerate()
            .for_each_init(fork, |worker, (i, &m)| {
                if self.cancelled() || stopped() {
                    return;
                }
                let alpha = self.alpha.load(Ordering::Relaxed);
                if alpha >= beta {
                    return;
                }
                let Some((score, line)) = search(worker, i, m, alpha) else {
                    return;
                };
                let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
                if found.as_ref().is_none_or(|(s, _, _)| score > *s) {
                    *found = Some((score, m, line));
                }
                self.alpha.fetch_max(score, Ordering::Relaxed);
                if score >= beta {
                    self.cut.store(true, Ordering::Relaxed);
                    on_cut(m);
                }
            });
        found.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}
