//! What a user sets per engine: [`Options`] (threads, hash size, the
//! [`Evaluation`], the parallel scheme) and [`Techniques`] (search
//! techniques on or off).
//!
//! Kept apart from `parameters`: options are public, chosen at run time
//! (command line, engine protocol, match player specs) and checked when an
//! engine is built; the parameters are crate-private constants that change
//! only with the code.

use std::path::Path;
use std::sync::Arc;

use surakarta::Position;

use crate::error::SearchError;
use crate::eval::{evaluate, Weights};
use crate::network::{Network, NetworkError};
use crate::parameters::{SearchParameters, ADAPTIVE_MOVES_TO_GO, DEFAULT_MOVES_TO_GO};
use crate::smp::{Smp, THREAD_STACK_BYTES};

/// The most threads an engine takes, and the one bound on threads of every
/// command that starts them.
pub const MAX_THREADS: usize = 1024;
/// The most principal variations a search reports ([`Options::multipv`]).
pub const MAX_MULTIPV: usize = 256;

/// The strongest level: the full engine, no handicap.
pub const MAX_LEVEL: u8 = 11;
/// The largest transposition table an engine takes, in MiB.
pub const MAX_HASH_MB: usize = 65_536;

/// A bound on the heap one search thread takes for its search state, in
/// bytes: the state of a thread's own search and of the splits it joins
/// (each a copy of the path, the killers and the network's accumulators,
/// a few tens of kilobytes), with room for several at once. A unit test
/// checks it against the sizes of these parts.
pub const THREAD_STATE_BYTES: usize = 512 << 10;

/// What an engine takes besides its table and threads, in bytes: the
/// move-ordering history, the root's move lists and reports.
pub const ENGINE_BASE_BYTES: usize = 1 << 20;

/// Engine settings.
///
/// # Examples
///
/// ```
/// use surakarta_search::{Evaluation, Options, SearchParameters, Smp, Techniques, TimeManagement};
///
/// let options = Options {
///     threads: 4,
///     hash_mb: 256,
///     evaluation: Evaluation::network(),
///     techniques: Techniques { reductions: false, ..Techniques::default() },
///     smp: Smp::Siblings,
///     multipv: 3,
///     level: Some(5),
///     level_seed: 7,
///     time_management: TimeManagement::Plain,
///     parameters: "lmr-min-depth=4".parse().unwrap(),
/// };
/// assert!(options.check().is_ok());
/// assert_eq!(Options::default().threads, 1); // deterministic by default
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Search threads (1 = deterministic).
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// How positions are evaluated.
    pub evaluation: Evaluation,
    /// Which search techniques are on.
    pub techniques: Techniques,
    /// How more than one thread is used.
    pub smp: Smp,
    /// How many principal variations a search reports (MultiPV), 1 to
    /// [`MAX_MULTIPV`]: the best line, then the best line without the
    /// first move of the line before, and so on (fewer when the root has
    /// fewer moves). 1, the default, searches for the best move alone;
    /// each further line costs about one more search of the root.
    pub multipv: usize,
    /// The strength level, 1 to [`MAX_LEVEL`]
    /// ([`crate::level`]): `None` (the default) or the top level is the
    /// full engine; a lower level searches shallower and picks among
    /// near-best moves.
    pub level: Option<u8>,
    /// The seed of a level's choice among near-best moves, mixed with the
    /// position's hash: the same position and seed give the same move.
    pub level_seed: u64,
    /// How a search on a clock decides when to stop (adaptive by
    /// default).
    pub time_management: TimeManagement,
    /// The tunable search parameters (aspiration windows, late move
    /// reductions, pruning); the default is the shipped engine.
    pub parameters: SearchParameters,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: 1,
            hash_mb: 64,
            evaluation: Evaluation::default(),
            techniques: Techniques::default(),
            smp: Smp::Siblings,
            multipv: 1,
            level: None,
            level_seed: 0,
            time_management: TimeManagement::Adaptive,
            parameters: SearchParameters::default(),
        }
    }
}

impl Options {
    /// Checks the ranges: 1 to 1024 threads, 1 to 65,536 MiB of hash, 1 to
    /// 256 lines of MultiPV (what
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
    /// let no_line = Options { multipv: 0, ..Options::default() };
    /// assert!(no_line.check().is_err());
    /// ```
    pub fn check(&self) -> Result<(), SearchError> {
        if !(1..=MAX_THREADS).contains(&self.threads) {
            return Err(SearchError::Threads(self.threads));
        }
        if !(1..=MAX_HASH_MB).contains(&self.hash_mb) {
            return Err(SearchError::Hash(self.hash_mb));
        }
        check_multipv(self.multipv)?;
        self.level.map_or(Ok(()), check_level)
    }

    /// The most memory an engine with these options takes, in bytes: its
    /// transposition table, and for each thread its stack
    /// ([`THREAD_STACK_BYTES`]) and search state ([`THREAD_STATE_BYTES`]),
    /// plus [`ENGINE_BASE_BYTES`]. A caller that must stay under a memory
    /// limit compares this with what it may use before it builds the
    /// engine: the table is zeroed at once, and each thread's stack and
    /// state grow as it searches. (The network's weights are shared, not
    /// counted here; the game's history is the caller's.)
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_search::{Options, THREAD_STACK_BYTES, THREAD_STATE_BYTES, ENGINE_BASE_BYTES};
    ///
    /// let one = Options { threads: 1, hash_mb: 16, ..Options::default() };
    /// let many = Options { threads: 256, ..one.clone() };
    /// let per_thread = (THREAD_STACK_BYTES + THREAD_STATE_BYTES) as u64;
    /// assert_eq!(one.memory_bytes(), (16 << 20) + per_thread + ENGINE_BASE_BYTES as u64);
    /// assert_eq!(many.memory_bytes() - one.memory_bytes(), 255 * per_thread);
    /// ```
    #[must_use]
    pub fn memory_bytes(&self) -> u64 {
        let per_thread = (THREAD_STACK_BYTES + THREAD_STATE_BYTES) as u64;
        (self.hash_mb as u64)
            .saturating_mul(1 << 20)
            .saturating_add((self.threads as u64).saturating_mul(per_thread))
            .saturating_add(ENGINE_BASE_BYTES as u64)
    }
}

/// Checks a level: 1 to [`MAX_LEVEL`].
///
/// # Errors
///
/// [`SearchError::Level`] outside the range.
pub fn check_level(level: u8) -> Result<(), SearchError> {
    if (1..=MAX_LEVEL).contains(&level) {
        Ok(())
    } else {
        Err(SearchError::Level(level))
    }
}

/// Checks a number of principal variations: 1 to [`MAX_MULTIPV`].
pub(crate) fn check_multipv(lines: usize) -> Result<(), SearchError> {
    if (1..=MAX_MULTIPV).contains(&lines) {
        Ok(())
    } else {
        Err(SearchError::MultiPv(lines))
    }
}

/// How a search on a clock ([`crate::Limits::clock`]) decides when to
/// stop; searches without a clock are not affected.
///
/// # Examples
///
/// ```
/// use surakarta_search::TimeManagement;
///
/// assert_eq!("adaptive".parse::<TimeManagement>(), Ok(TimeManagement::Adaptive));
/// assert_eq!(TimeManagement::default().to_string(), "adaptive");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TimeManagement {
    /// No new iteration after half the move's budget; aborted at the hard
    /// limit.
    Plain,
    /// The default: a clock without moves to go spread over 16 moves
    /// instead of 30, the soft limit scaled by the best move's stability
    /// (up to 1.5 times after it changed, down to 0.7 times after five
    /// iterations without a change) and by its share of the root's nodes
    /// (`(1.5 − share) · 1.35`), and no iteration started that would not
    /// finish before the hard limit, judged by the growth of the iterations
    /// before it. It beat `plain` at 2 s + 50 ms by +19 Elo (+9, +29), SPRT
    /// [0, 5] passed.
    #[default]
    Adaptive,
}

impl TimeManagement {
    /// The moves a clock without moves to go is spread over.
    pub(crate) const fn expected_moves(self) -> u32 {
        match self {
            TimeManagement::Plain => DEFAULT_MOVES_TO_GO,
            TimeManagement::Adaptive => ADAPTIVE_MOVES_TO_GO,
        }
    }

    /// The name: `plain` or `adaptive`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TimeManagement::Plain => "plain",
            TimeManagement::Adaptive => "adaptive",
        }
    }
}

impl std::fmt::Display for TimeManagement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for TimeManagement {
    type Err = String;

    fn from_str(text: &str) -> Result<TimeManagement, String> {
        match text {
            "plain" => Ok(TimeManagement::Plain),
            "adaptive" => Ok(TimeManagement::Adaptive),
            _ => Err(format!(
                "{}: expected plain or adaptive",
                surakarta::Excerpt::new(text)
            )),
        }
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

/// How an engine evaluates positions: the hand-made features with their
/// weights, or a network.
///
/// # Examples
///
/// ```
/// use surakarta::Position;
/// use surakarta_search::{Evaluation, Weights};
///
/// assert_eq!(Evaluation::named("paper"), Some(Evaluation::Classic(Weights::PAPER)));
/// assert_eq!(Evaluation::named("nnue"), Some(Evaluation::network()));
/// assert_eq!(Evaluation::named("nnue").unwrap().name(), "nnue");
/// assert_eq!(Evaluation::named("strong"), None);
///
/// // A piece up is good for the side to move, whichever way it is counted.
/// let p: Position = "wwwwww/wwwww1/6/6/bbbbbb/bbbbbb b".parse()?;
/// for name in ["classic", "nnue"] {
///     assert!(Evaluation::named(name).unwrap().evaluate(&p) > 0, "{name}");
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The features of seed 001 with these weights ([`crate::eval`]).
    Classic(Weights),
    /// A network ([`crate::network`]).
    Network(Arc<Network>),
}

impl Default for Evaluation {
    /// The embedded network ([`Evaluation::network`]): it beat the classic
    /// evaluation in the matches of `docs/evaluation.md`.
    fn default() -> Evaluation {
        Evaluation::network()
    }
}

impl Evaluation {
    /// The names [`Evaluation::named`] knows.
    pub const NAMES: [&'static str; 4] = ["classic", "paper", "nnue", "default"];

    /// The embedded network.
    #[must_use]
    pub fn network() -> Evaluation {
        Evaluation::Network(Network::embedded())
    }

    /// An evaluation by name: `classic` (the default weights), `paper` (the
    /// paper's weights), `nnue` (the embedded network) or `default` (what
    /// [`Evaluation::default`] is).
    #[must_use]
    pub fn named(name: &str) -> Option<Evaluation> {
        match name {
            "classic" => Some(Evaluation::Classic(Weights::DEFAULT)),
            "paper" => Some(Evaluation::Classic(Weights::PAPER)),
            "nnue" => Some(Evaluation::network()),
            "default" => Some(Evaluation::default()),
            _ => None,
        }
    }

    /// The network in a `.sknn` file, checked.
    pub fn from_file(path: &Path) -> Result<Evaluation, NetworkError> {
        Ok(Evaluation::Network(Arc::new(Network::read(path)?)))
    }

    /// What a user names with a name and a network file, both optional
    /// (`--eval` and `--eval-file`, `eval=` and `eval_file=`): the named
    /// evaluation ([`Evaluation::named`]; [`Evaluation::default`] if
    /// none), or the network in `file`, which goes with `nnue` or no name.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::path::Path;
    /// use surakarta_search::{Evaluation, EvaluationChoiceError};
    ///
    /// assert_eq!(Evaluation::choose(None, None)?, Evaluation::default());
    /// assert_eq!(Evaluation::choose(Some("nnue"), None)?, Evaluation::network());
    /// assert!(matches!(
    ///     Evaluation::choose(Some("classic"), Some(Path::new("net.sknn"))),
    ///     Err(EvaluationChoiceError::FileWithName(_))
    /// ));
    /// # Ok::<(), EvaluationChoiceError>(())
    /// ```
    pub fn choose(
        name: Option<&str>,
        file: Option<&Path>,
    ) -> Result<Evaluation, EvaluationChoiceError> {
        match (name, file) {
            (None | Some("nnue"), Some(path)) => {
                Evaluation::from_file(path).map_err(EvaluationChoiceError::File)
            }
            (Some(other), Some(_)) => Err(EvaluationChoiceError::FileWithName(other.to_owned())),
            (name, None) => {
                let name = name.unwrap_or("default");
                Evaluation::named(name)
                    .ok_or_else(|| EvaluationChoiceError::Unknown(name.to_owned()))
            }
        }
    }

    /// A short name: `classic`, `paper`, `nnue` for the embedded network,
    /// `nnue:NAME` for another network, `custom` for other weights.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Evaluation::Classic(w) if *w == Weights::DEFAULT => "classic".into(),
            Evaluation::Classic(w) if *w == Weights::PAPER => "paper".into(),
            Evaluation::Classic(_) => "custom".into(),
            Evaluation::Network(n) if **n == *Network::embedded() => "nnue".into(),
            Evaluation::Network(n) => format!("nnue:{}", n.name),
        }
    }

    /// The static evaluation of `position` for the side to move.
    #[must_use]
    pub fn evaluate(&self, position: &Position) -> i32 {
        match self {
            Evaluation::Classic(w) => evaluate(position, w),
            Evaluation::Network(n) => n.evaluate(position),
        }
    }
}

/// Why [`Evaluation::choose`] refused a name and a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvaluationChoiceError {
    /// No evaluation has this name.
    #[error("unknown evaluation {0:?}: expected classic, paper, nnue or default")]
    Unknown(String),
    /// A network file was given with a name other than `nnue`.
    #[error("a network file goes with the evaluation nnue or none, not {0:?}")]
    FileWithName(String),
    /// The network file could not be read.
    #[error(transparent)]
    File(NetworkError),
}
