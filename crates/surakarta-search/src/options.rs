//! What a user sets per engine: [`Options`] (threads, hash size, evaluation
//! weights, the parallel scheme) and [`Techniques`] (search techniques on or
//! off).
//!
//! Kept apart from `parameters`: options are public, chosen at run time
//! (command line, engine protocol, match player specs) and checked when an
//! engine is built; the parameters are crate-private constants that change
//! only with the code.

use crate::error::SearchError;
use crate::eval::Weights;
use crate::smp::Smp;

/// The most search threads an engine takes.
const MAX_THREADS: usize = 1024;
/// The largest transposition table an engine takes, in MiB.
const MAX_HASH_MB: usize = 65_536;

/// Engine settings.
///
/// # Examples
///
/// ```
/// use surakarta_search::{Options, Smp, Techniques, Weights};
///
/// let options = Options {
///     threads: 4,
///     hash_mb: 256,
///     weights: Weights::PAPER,
///     techniques: Techniques { reductions: false, ..Techniques::default() },
///     smp: Smp::Siblings,
/// };
/// assert!(options.check().is_ok());
/// assert_eq!(Options::default().threads, 1); // deterministic by default
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Search threads (1 = deterministic).
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Evaluation weights.
    pub weights: Weights,
    /// Which search techniques are on.
    pub techniques: Techniques,
    /// How more than one thread is used.
    pub smp: Smp,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: 1,
            hash_mb: 64,
            weights: Weights::DEFAULT,
            techniques: Techniques::default(),
            smp: Smp::Siblings,
        }
    }
}

impl Options {
    /// Checks the ranges: 1 to 1024 threads, 1 to 65,536 MiB of hash (what
    /// [`Engine::new`](crate::Engine::new) checks first, for callers that
    /// check more before they allocate).
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_search::Options;
    ///
    /// assert!(Options::default().check().is_ok());
    /// let huge = Options { hash_mb: 1 << 20, ..Options::default() };
    /// assert!(huge.check().is_err());
    /// ```
    pub fn check(&self) -> Result<(), SearchError> {
        if !(1..=MAX_THREADS).contains(&self.threads) {
            return Err(SearchError::Threads(self.threads));
        }
        if !(1..=MAX_HASH_MB).contains(&self.hash_mb) {
            return Err(SearchError::Hash(self.hash_mb));
        }
        Ok(())
    }
}

/// Which search techniques are on (all by default); switching one off
/// measures what it is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Techniques {
    /// Probe and store the transposition table.
    pub transposition: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Quiescence search on captures at the horizon (else the static evaluation).
    pub quiescence: bool,
    /// Killer moves in move ordering.
    pub killers: bool,
    /// History scores in move ordering.
    pub history: bool,
    /// Late move reductions for quiet moves.
    pub reductions: bool,
}

impl Default for Techniques {
    fn default() -> Techniques {
        Techniques {
            transposition: true,
            aspiration: true,
            quiescence: true,
            killers: true,
            history: true,
            reductions: true,
        }
    }
}
