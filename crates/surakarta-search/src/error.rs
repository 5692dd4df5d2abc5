//! [`SearchError`]: why an engine could not be set up.
//!
//! Its own module because the parts that can fail (the options' ranges in
//! `options`, the table's allocation in [`crate::tt`], the thread pool in
//! `smp`) all name it: here it depends on none of them.

/// Why an engine could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The thread count is outside `1..=1024`.
    #[error("invalid thread count {0}: expected 1 to 1024")]
    Threads(usize),
    /// The number of principal variations (MultiPV) is outside `1..=256`.
    #[error("invalid MultiPV {0}: expected 1 to 256 lines")]
    MultiPv(usize),
    /// The strength level is outside `1..=MAX_LEVEL`.
    #[error("invalid level {0}: expected 1 to {max}", max = crate::MAX_LEVEL)]
    Level(u8),
    /// The hash size is outside `1..=65536` MiB.
    #[error("invalid hash size {0} MiB: expected 1 to 65536")]
    Hash(usize),
    /// The machine cannot give the memory of a transposition table of this
    /// many MiB.
    #[error("cannot allocate a transposition table of {0} MiB: not enough memory (give a smaller hash size)")]
    HashAllocation(usize),
    /// The thread pool could not be built.
    #[error("cannot start {threads} search threads: {message}")]
    ThreadPool {
        /// Threads asked for.
        threads: usize,
        /// What the system said.
        message: String,
    },
}
