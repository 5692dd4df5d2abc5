//! [`State`]: what every request of the server shares.

use crate::serve::config::Config;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use surakarta_tablebase::Tablebase;
use tokio::sync::Semaphore;

/// What every request shares: the settings, the tables, the analysis
/// slots, the record workers and the stop flags of the running analyses.
#[derive(Debug)]
pub(crate) struct State {
    pub(super) config: Config,
    pub(super) tb: Option<Arc<Tablebase>>,
    pub(super) analyses: Arc<Semaphore>,
    /// The analyses' memory budget, one permit per MiB.
    pub(super) memory: Arc<Semaphore>,
    /// The record bodies being read or written
    /// ([`crate::serve::records::MAX_RECORD_WORKERS`] at most).
    pub(super) records: Arc<Semaphore>,
    /// The stop flags of the analyses (dead ones pruned on each new one),
    /// and whether the server is shutting down.
    running: Mutex<(Vec<Weak<AtomicBool>>, bool)>,
}

impl State {
    /// The state of a server with these settings.
    pub(crate) fn new(config: Config) -> State {
        State {
            tb: config.tb.clone(),
            analyses: Arc::new(Semaphore::new(config.max_analyses)),
            memory: Arc::new(Semaphore::new(config.analysis_memory_mib)),
            records: Arc::new(Semaphore::new(crate::serve::records::MAX_RECORD_WORKERS)),
            running: Mutex::new((Vec::new(), false)),
            config,
        }
    }

    /// Registers an analysis's stop flag so that a shutdown raises it;
    /// false if the server is already shutting down.
    pub(super) fn register(&self, stop: &Arc<AtomicBool>) -> bool {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if running.1 {
            return false;
        }
        running.0.retain(|w| w.strong_count() > 0);
        running.0.push(Arc::downgrade(stop));
        true
    }

    /// Raises the stop flag of every running analysis and refuses new ones.
    pub(super) fn stop_all(&self) {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.1 = true;
        for stop in running.0.drain(..).filter_map(|w| w.upgrade()) {
            stop.store(true, Ordering::Relaxed);
        }
    }
}
