//! [`Config`]: the server's settings, as `surakarta serve` checked them.

use crate::common::memory::engine_mib;
use crate::serve::connections::ConnectionLimits;
use std::net::SocketAddr;
use std::sync::Arc;
use surakarta_search::{Evaluation, Options};
use surakarta_tablebase::Tablebase;

/// The server's settings, checked.
#[derive(Debug)]
pub(crate) struct Config {
    /// Where to listen.
    pub(crate) bind: SocketAddr,
    /// The tables, if the server has any.
    pub(crate) tb: Option<Arc<Tablebase>>,
    /// Search threads of each analysis.
    pub(crate) threads: usize,
    /// Transposition table of each analysis, in MiB.
    pub(crate) hash_mb: usize,
    /// How the analyses evaluate positions.
    pub(crate) evaluation: Evaluation,
    /// The longest analysis, in milliseconds.
    pub(crate) max_movetime_ms: u64,
    /// The most analyses running at once.
    pub(crate) max_analyses: usize,
    /// The memory all analyses' engines may take together, in MiB.
    pub(crate) analysis_memory_mib: usize,
    /// The cap on connections and their timeouts.
    pub(crate) connections: ConnectionLimits,
}

impl Config {
    /// The engine options of one analysis.
    pub(crate) fn engine_options(&self) -> Options {
        Options {
            threads: self.threads,
            hash_mb: self.hash_mb,
            evaluation: self.evaluation.clone(),
            ..Options::default()
        }
    }

    /// The memory one analysis's engine takes (its table, threads' stacks
    /// and search state), in MiB: what each analysis holds of
    /// `analysis_memory_mib` while it runs.
    pub(crate) fn analysis_mib(&self) -> usize {
        usize::try_from(engine_mib(&self.engine_options())).unwrap_or(usize::MAX)
    }
}
