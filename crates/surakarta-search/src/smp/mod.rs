//! Parallel search, both schemes in one place: [`Smp`] names them, the
//! engine's `Threads` holds what they need between searches (the rayon pool,
//! whose threads live as long as the engine), `siblings` is Young Brothers Wait (FuChou's parallel
//! siblings: a node's younger brothers searched in parallel under a shared
//! rising alpha) and `lazy` is Lazy SMP (helper threads running their own
//! iterative deepening, sharing only the table and history).
//!
//! The module knows nothing of the tree walk: the search hands it closures
//! (how to fork a worker and search one sibling; how a helper searches one
//! iteration), so `search` and `engine` use `smp` and `smp` uses neither.

mod lazy;
mod siblings;

pub(crate) use siblings::Split;

use std::sync::atomic::AtomicBool;

use crate::error::SearchError;
use crate::tt::TranspositionTable;

/// The stack of each thread an engine starts, in bytes (set explicitly on
/// its thread pool, so that what a thread may touch is known; the same as
/// Rust's default for spawned threads).
pub const THREAD_STACK_BYTES: usize = 2 << 20;

/// How a search uses more than one thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Smp {
    /// Young Brothers Wait: after a node's first move, its other moves are
    /// searched in parallel, sharing a rising alpha.
    #[default]
    Siblings,
    /// Lazy SMP: helper threads run their own iterative deepening on the
    /// root (the odd-numbered ones starting a ply deeper, so that they are a
    /// ply ahead of the main thread) and share only the transposition table
    /// and move-ordering history; the main thread's result counts. Node
    /// counts and the node limit include the helpers' nodes.
    Lazy,
}

impl Smp {
    /// The name [`Smp::parse`] reads: `siblings` or `lazy`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Smp::Siblings => "siblings",
            Smp::Lazy => "lazy",
        }
    }

    /// Reads `siblings` or `lazy`.
    #[must_use]
    pub fn parse(text: &str) -> Option<Smp> {
        match text {
            "siblings" | "ybw" => Some(Smp::Siblings),
            "lazy" => Some(Smp::Lazy),
            _ => None,
        }
    }
}

/// An engine's threads, kept between searches: the scheme, the thread count
/// and, with more than one thread, the rayon pool that lives as long as the
/// engine: the splits of parallel siblings run on its `threads` threads,
/// the Lazy SMP helpers on its `threads - 1` (the main thread is the
/// caller's).
pub(crate) struct Threads {
    smp: Smp,
    threads: usize,
    pool: Option<rayon::ThreadPool>,
}

impl Threads {
    /// `threads` threads (at least 1) used the `smp` way; fails if the
    /// thread pool cannot start.
    pub(crate) fn new(threads: usize, smp: Smp) -> Result<Threads, SearchError> {
        let pool_threads = match smp {
            Smp::Siblings => threads,
            Smp::Lazy => threads - 1,
        };
        let pool = if threads > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(pool_threads)
                    .thread_name(|i| format!("search-{i}"))
                    .stack_size(THREAD_STACK_BYTES)
                    .build()
                    .map_err(|e| SearchError::ThreadPool {
                        threads,
                        message: e.to_string(),
                    })?,
            )
        } else {
            None
        };
        Ok(Threads { smp, threads, pool })
    }

    /// Whether nodes split their younger brothers over the pool.
    pub(crate) fn splits(&self) -> bool {
        self.pool.is_some() && self.smp == Smp::Siblings
    }

    /// How many Lazy SMP helper threads a search starts (0 for siblings).
    fn helpers(&self) -> usize {
        match self.smp {
            Smp::Lazy => self.threads - 1,
            Smp::Siblings => 0,
        }
    }

    /// Runs `main` (the main thread's iterative deepening) on this thread
    /// with the Lazy SMP helpers, if any, searching beside it on the pool:
    /// each helper builds its iteration with `new_helper` and runs it at
    /// every depth from 1 or 2 to `max_depth` until `abort` is raised.
    /// However `main` ends (even by a panic), `abort` is raised so that the
    /// helpers stop, and this returns once they have.
    pub(crate) fn with_helpers<H: FnMut(i32), R>(
        &self,
        abort: &AtomicBool,
        max_depth: u32,
        new_helper: impl Fn() -> H + Sync,
        main: impl FnOnce() -> R,
    ) -> R {
        match &self.pool {
            Some(pool) if self.helpers() > 0 => {
                lazy::with_helpers(pool, self.helpers(), abort, max_depth, new_helper, main)
            }
            _ => main(),
        }
    }

    /// Forgets every entry of `tt`, on the pool's threads where there is
    /// a pool (a large table clears several times faster), else on this
    /// thread.
    pub(crate) fn clear(&self, tt: &mut TranspositionTable) {
        match &self.pool {
            Some(pool) => pool.install(|| tt.clear_in_pool()),
            None => tt.clear(),
        }
    }

    /// Runs `f` (a search from the root) on the pool when nodes split, so
    /// that the splits fork onto the pool's threads; else on this thread.
    pub(crate) fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match &self.pool {
            Some(pool) if self.splits() => pool.install(f),
            _ => f(),
        }
    }
}
