//! The search's tuning constants, in one place: aspiration windows, late
//! move reductions, pruning, move-ordering bonuses, history,
//! transposition-table replacement, parallel splits and time management.
//!
//! Most are compile-time constants, not settings: changing one changes what
//! the search does (with one thread, the bench signature), so a change is
//! decided by self-play (`surakarta match`) and recorded in
//! `CHANGELOG.md` with its figures in `benches/results/`. The aspiration
//! window, the late move reductions and the pruning are
//! [`SearchParameters`] instead: values an engine takes at run time
//! ([`Options::parameters`]) so that a tuner (`surakarta tune`) can play
//! engines with different values against each other; their defaults are
//! the shipped engine's. What a user picks per engine (threads, hash size,
//! evaluation weights, techniques on or off, the parallel scheme) is in
//! [`Options`] instead; the evaluation
//! weights stay with the evaluation in [`crate::eval`], since they define
//! the features' sum rather than tune the tree walk.
//!
//! [`Options`]: crate::Options
//! [`Options::parameters`]: crate::Options::parameters
//!
//! This module imports nothing of the crate.

use std::fmt;
use std::str::FromStr;

/// One tunable search parameter: its name (in parameter text, match
/// player specs and the tuner's files), the shipped value and the range a
/// value must lie in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParameterSpec {
    /// The name, in kebab case (`lmr-min-depth`).
    pub name: &'static str,
    /// The value of the shipped engine.
    pub default: i32,
    /// The smallest value allowed.
    pub min: i32,
    /// The largest value allowed.
    pub max: i32,
    /// What the parameter does, in one line.
    pub about: &'static str,
}

/// The number of tunable search parameters.
pub const PARAMETER_COUNT: usize = 16;

/// Every tunable search parameter, in the order of
/// [`SearchParameters::values`].
pub const PARAMETER_SPECS: [ParameterSpec; PARAMETER_COUNT] = [
    ParameterSpec {
        name: "aspiration-min-depth",
        default: 4,
        min: 1,
        max: 20,
        about: "aspiration windows start at this iteration depth",
    },
    ParameterSpec {
        name: "aspiration-base",
        default: 18,
        min: 1,
        max: 500,
        about: "the floor of the window's half-width (FuChou: 20)",
    },
    ParameterSpec {
        name: "aspiration-score-divisor",
        default: 7,
        min: 1,
        max: 64,
        about: "the half-width grows by |score| divided by this (FuChou: 8)",
    },
    ParameterSpec {
        name: "aspiration-growth",
        default: 2,
        min: 2,
        max: 8,
        about: "a failed window's half-width is multiplied by this",
    },
    ParameterSpec {
        name: "lmr-min-depth",
        default: 2,
        min: 1,
        max: 20,
        about: "quiet moves are reduced only with at least this many plies to go",
    },
    ParameterSpec {
        name: "lmr-first-index",
        default: 2,
        min: 1,
        max: 64,
        about: "quiet moves are reduced from this move index on (0-based)",
    },
    ParameterSpec {
        name: "lmr-reduction",
        default: 2,
        min: 0,
        max: 4,
        about: "the reduction of a late quiet move, in plies",
    },
    ParameterSpec {
        name: "lmr-deeper-index",
        default: 8,
        min: 1,
        max: 64,
        about: "from this move index on …",
    },
    ParameterSpec {
        name: "lmr-deeper-depth",
        default: 6,
        min: 1,
        max: 20,
        about: "… at this remaining depth or more …",
    },
    ParameterSpec {
        name: "lmr-deeper-reduction",
        default: 2,
        min: 0,
        max: 6,
        about: "… the reduction is this many plies instead",
    },
    ParameterSpec {
        name: "lmr-pv-relief",
        default: 0,
        min: 0,
        max: 4,
        about: "at PV nodes the reduction is this many plies less (never below 0)",
    },
    ParameterSpec {
        name: "rfp-max-depth",
        default: 0,
        min: 0,
        max: 12,
        about: "reverse futility pruning up to this many plies to go (0: off)",
    },
    ParameterSpec {
        name: "rfp-margin",
        default: 80,
        min: 10,
        max: 500,
        about: "a node is cut when its static value beats beta by this per ply to go",
    },
    ParameterSpec {
        name: "nmp-min-depth",
        default: 0,
        min: 0,
        max: 20,
        about: "null-move pruning from this many plies to go (0: off)",
    },
    ParameterSpec {
        name: "nmp-reduction",
        default: 3,
        min: 1,
        max: 8,
        about: "the null move's search is this many plies shallower …",
    },
    ParameterSpec {
        name: "nmp-depth-divisor",
        default: 4,
        min: 1,
        max: 16,
        about: "… plus the plies to go divided by this",
    },
];

/// Why a parameter could not be set or parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParameterError {
    /// No tunable parameter has this name.
    #[error("unknown search parameter {0:?}: see `surakarta tune --list`")]
    Unknown(String),
    /// The value lies outside the parameter's range.
    #[error("{name} = {value} is out of range: expected {min} to {max}")]
    OutOfRange {
        /// The parameter.
        name: &'static str,
        /// The value given.
        value: i64,
        /// The smallest value allowed.
        min: i32,
        /// The largest value allowed.
        max: i32,
    },
    /// Text that is not `name=value` pairs with integer values.
    #[error("expected name=value pairs separated by commas, found {0:?}")]
    Syntax(String),
}

/// The tunable search parameters' values: the aspiration windows of
/// iterative deepening, the late move reductions, reverse futility
/// pruning and null-move pruning. Every value lies in
/// its [`ParameterSpec`]'s range (the only way in is
/// [`SearchParameters::set`]); [`Default`] is the shipped engine.
///
/// As text (`Display`, `FromStr`): the values that differ from the
/// default, `name=value` separated by commas (empty for the default).
///
/// # Examples
///
/// ```
/// use surakarta_search::SearchParameters;
///
/// let mut parameters = SearchParameters::default();
/// assert_eq!(parameters.get("lmr-min-depth"), Some(2));
/// parameters.set("lmr-min-depth", 4).unwrap();
/// assert!(parameters.set("lmr-min-depth", 99).is_err());
/// assert_eq!(parameters.to_string(), "lmr-min-depth=4");
/// assert_eq!("lmr-min-depth=4".parse::<SearchParameters>(), Ok(parameters));
/// assert_eq!(SearchParameters::default().to_string(), "");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchParameters {
    values: [i32; PARAMETER_COUNT],
}

impl Default for SearchParameters {
    fn default() -> SearchParameters {
        let mut values = [0; PARAMETER_COUNT];
        for (value, spec) in values.iter_mut().zip(&PARAMETER_SPECS) {
            *value = spec.default;
        }
        SearchParameters { values }
    }
}

impl SearchParameters {
    /// The values the levels below the top search with
    /// ([`crate::level`]): FuChou's aspiration window and the reductions of
    /// the engine the ladder of levels was measured with, before tuning
    /// (and no pruning, like the default). The tuned reductions cut far
    /// more at small depths, and a level is a depth, so the levels keep
    /// these.
    pub const UNTUNED: SearchParameters = SearchParameters {
        values: [4, 20, 8, 2, 3, 3, 1, 8, 6, 2, 1, 0, 80, 0, 3, 4],
    };

    /// The values, in the order of [`PARAMETER_SPECS`].
    #[must_use]
    pub fn values(&self) -> [i32; PARAMETER_COUNT] {
        self.values
    }

    /// The value of the parameter `name`, `None` if there is none of that
    /// name.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<i32> {
        parameter_index(name).ok().map(|i| self.values[i])
    }

    /// The parameters whose value differs from the shipped one, as (name,
    /// value), in the order of [`PARAMETER_SPECS`].
    pub fn changed(&self) -> impl Iterator<Item = (&'static str, i32)> + '_ {
        self.values
            .iter()
            .zip(&PARAMETER_SPECS)
            .filter(|(value, spec)| **value != spec.default)
            .map(|(value, spec)| (spec.name, *value))
    }

    /// Sets the parameter `name` to `value`.
    ///
    /// # Errors
    ///
    /// [`ParameterError::Unknown`] for a name not in [`PARAMETER_SPECS`],
    /// [`ParameterError::OutOfRange`] for a value outside its range.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), ParameterError> {
        let index = parameter_index(name)?;
        let spec = PARAMETER_SPECS[index];
        if value < i64::from(spec.min) || value > i64::from(spec.max) {
            return Err(ParameterError::OutOfRange {
                name: spec.name,
                value,
                min: spec.min,
                max: spec.max,
            });
        }
        self.values[index] = value as i32;
        Ok(())
    }

    pub(crate) fn aspiration_min_depth(&self) -> i32 {
        self.values[0]
    }
    pub(crate) fn aspiration_base(&self) -> i32 {
        self.values[1]
    }
    pub(crate) fn aspiration_score_divisor(&self) -> i32 {
        self.values[2]
    }
    pub(crate) fn aspiration_growth(&self) -> i32 {
        self.values[3]
    }
    pub(crate) fn lmr_min_depth(&self) -> i32 {
        self.values[4]
    }
    pub(crate) fn lmr_first_index(&self) -> usize {
        self.values[5] as usize
    }
    pub(crate) fn lmr_reduction(&self) -> i32 {
        self.values[6]
    }
    pub(crate) fn lmr_deeper_index(&self) -> usize {
        self.values[7] as usize
    }
    pub(crate) fn lmr_deeper_depth(&self) -> i32 {
        self.values[8]
    }
    pub(crate) fn lmr_deeper_reduction(&self) -> i32 {
        self.values[9]
    }
    pub(crate) fn lmr_pv_relief(&self) -> i32 {
        self.values[10]
    }
    pub(crate) fn rfp_max_depth(&self) -> i32 {
        self.values[11]
    }
    pub(crate) fn rfp_margin(&self) -> i32 {
        self.values[12]
    }
    pub(crate) fn nmp_min_depth(&self) -> i32 {
        self.values[13]
    }
    pub(crate) fn nmp_reduction(&self) -> i32 {
        self.values[14]
    }
    pub(crate) fn nmp_depth_divisor(&self) -> i32 {
        self.values[15]
    }
}

/// Null-move pruning only where the side to move has at least this many
/// pieces: with few pieces, having to move can hurt (zugzwang), and a pass
/// would prove too much.
pub(crate) const NULL_MOVE_MIN_PIECES: u32 = 4;

/// The first 40 characters of hostile text, for an error message.
fn excerpt(text: &str) -> String {
    text.chars().take(40).collect()
}

/// The index in [`PARAMETER_SPECS`] of the parameter `name`.
///
/// # Errors
///
/// [`ParameterError::Unknown`] if no parameter has that name.
///
/// # Examples
///
/// ```
/// use surakarta_search::{parameter_index, PARAMETER_SPECS};
///
/// let i = parameter_index("lmr-reduction").unwrap();
/// assert_eq!(PARAMETER_SPECS[i].name, "lmr-reduction");
/// assert!(parameter_index("nothing").is_err());
/// ```
pub fn parameter_index(name: &str) -> Result<usize, ParameterError> {
    PARAMETER_SPECS
        .iter()
        .position(|spec| spec.name == name)
        .ok_or_else(|| ParameterError::Unknown(excerpt(name)))
}

impl fmt::Display for SearchParameters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (name, value)) in self.changed().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{name}={value}")?;
        }
        Ok(())
    }
}

impl FromStr for SearchParameters {
    type Err = ParameterError;

    /// Parses `name=value` pairs separated by commas (an empty text is the
    /// default); a name given twice takes its last value.
    fn from_str(text: &str) -> Result<SearchParameters, ParameterError> {
        let mut parameters = SearchParameters::default();
        for item in text
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
        {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| ParameterError::Syntax(excerpt(item)))?;
            let value: i64 = value
                .trim()
                .parse()
                .map_err(|_| ParameterError::Syntax(excerpt(item)))?;
            parameters.set(name.trim(), value)?;
        }
        Ok(parameters)
    }
}

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
/// Moves expected until the end under adaptive time management: self-play
/// games at a clock of 2 s + 50 ms had 23 moves a side left after the
/// opening's 8 plies (mean; 28 for nine games in ten), and each move spends
/// a share of what is left, so a long game never runs out.
pub(crate) const ADAPTIVE_MOVES_TO_GO: u32 = 16;
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
/// Adaptive time management: the soft limit's factor for a best move that
/// took a share `s` (0 to 1) of the root's nodes in the last iteration is
/// `(TIME_NODE_SHARE_BASE - s) * TIME_NODE_SHARE_FACTOR`: 0.68 for all of
/// them, 1.35 for half, 2.03 for none.
pub(crate) const TIME_NODE_SHARE_BASE: f64 = 1.5;
/// See [`TIME_NODE_SHARE_BASE`].
pub(crate) const TIME_NODE_SHARE_FACTOR: f64 = 1.35;
/// Adaptive time management: the bounds of the growth expected from one
/// iteration to the next.
pub(crate) const TIME_GROWTH_MIN: f64 = 1.5;
/// See [`TIME_GROWTH_MIN`].
pub(crate) const TIME_GROWTH_MAX: f64 = 6.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_the_untuned_values_lie_in_their_ranges() {
        for parameters in [SearchParameters::default(), SearchParameters::UNTUNED] {
            for (value, spec) in parameters.values().iter().zip(&PARAMETER_SPECS) {
                assert!((spec.min..=spec.max).contains(value), "{}", spec.name);
            }
        }
        assert!(PARAMETER_SPECS.iter().all(|s| s.min <= s.max));
    }

    #[test]
    fn text_reads_back_and_bad_text_is_refused() {
        let untuned = SearchParameters::UNTUNED;
        assert_eq!(untuned.to_string().parse::<SearchParameters>(), Ok(untuned));
        assert!(matches!(
            "lmr-min-depth".parse::<SearchParameters>(),
            Err(ParameterError::Syntax(_))
        ));
        assert!(matches!(
            "lmr-min-depth=x".parse::<SearchParameters>(),
            Err(ParameterError::Syntax(_))
        ));
        assert!(matches!(
            "nothing=1".parse::<SearchParameters>(),
            Err(ParameterError::Unknown(_))
        ));
        assert!(matches!(
            "lmr-reduction=99999999999".parse::<SearchParameters>(),
            Err(ParameterError::OutOfRange { .. })
        ));
        let long = "x".repeat(10_000);
        let error = long.parse::<SearchParameters>().unwrap_err().to_string();
        assert!(error.len() < 200, "hostile text is cut: {error}");
    }
}
