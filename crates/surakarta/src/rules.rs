//! Rule sets: what ends a game besides running out of pieces or moves.

use crate::color::Color;
use crate::excerpt::Excerpt;
use core::fmt;
use core::str::FromStr;

/// How a game ended.
///
/// # Examples
///
/// ```
/// use surakarta::Termination;
///
/// assert_eq!(Termination::NoPieces.describe(), "no pieces left");
/// assert_eq!(Termination::NoCaptureLimit.describe(), "no-capture limit");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    /// The side to move has no pieces left; it has lost.
    NoPieces,
    /// The side to move has no legal move; it has lost.
    NoMoves,
    /// The same position with the same side to move occurred the given number
    /// of times; adjudicated by piece count.
    Repetition,
    /// The no-capture ply limit was reached; adjudicated by piece count.
    NoCaptureLimit,
}

impl Termination {
    /// A short English description.
    #[must_use]
    pub const fn describe(self) -> &'static str {
        match self {
            Termination::NoPieces => "no pieces left",
            Termination::NoMoves => "no legal move",
            Termination::Repetition => "repetition",
            Termination::NoCaptureLimit => "no-capture limit",
        }
    }

    /// Whether the rule set ended the game and piece count decided it
    /// (repetition or the no-capture limit), rather than the loss of all
    /// pieces or moves.
    ///
    /// ```
    /// use surakarta::Termination;
    ///
    /// assert!(Termination::NoCaptureLimit.is_adjudicated());
    /// assert!(!Termination::NoMoves.is_adjudicated());
    /// ```
    #[must_use]
    pub const fn is_adjudicated(self) -> bool {
        matches!(self, Termination::Repetition | Termination::NoCaptureLimit)
    }
}

/// The end of a game: who won (`None` for a draw) and why.
///
/// # Examples
///
/// ```
/// use surakarta::{Color, Outcome, Rules, Termination};
///
/// let win = Outcome::win(Color::White, Termination::NoMoves);
/// assert_eq!(win.result(), "0-1");
/// // Adjudicated by piece count: 3 black v 2 white wins for Black.
/// let adjudicated = Rules::adjudicate(3, 2, Termination::Repetition);
/// assert_eq!(adjudicated.winner, Some(Color::Black));
/// assert_eq!(Rules::adjudicate(2, 2, Termination::NoCaptureLimit).result(), "1/2-1/2");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub termination: Termination,
}

impl Outcome {
    /// A win for `winner`.
    #[must_use]
    pub const fn win(winner: Color, termination: Termination) -> Outcome {
        Outcome {
            winner: Some(winner),
            termination,
        }
    }

    /// The result as text: `1-0` (Black won), `0-1` (White won) or `1/2-1/2`.
    #[must_use]
    pub const fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(f, "{c} wins ({})", self.termination.describe()),
            None => write!(f, "draw ({})", self.termination.describe()),
        }
    }
}

/// A termination rule set. Besides the pure rules (a side with no pieces or no
/// legal move loses), a game may end when a position repeats `repetitions`
/// times or after `no_capture_plies` plies without a capture; such a game is
/// adjudicated: more pieces wins, equal is a draw.
///
/// The limits are checked when the rules are made ([`Rules::new`], or
/// parsed), so every `Rules` value is one a game can be played and recorded
/// under.
///
/// # Examples
///
/// ```
/// use surakarta::Rules;
///
/// let rules = Rules::new(Some(3), Some(100)).unwrap();
/// assert_eq!(rules.repetitions(), Some(3));
/// assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules));
/// assert_eq!("icga".parse::<Rules>(), Ok(Rules::ICGA));
/// assert!(Rules::new(Some(1), None).is_err()); // would end every game at once
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    repetitions: Option<u32>,
    no_capture_plies: Option<u32>,
}

/// Why limits do not make a rule set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// A repetition limit below 2: every position occurs once, so it would
    /// end every game at once.
    #[error("a repetition limit must be at least 2 (got {0}); use None for no limit")]
    Repetitions(u32),
    /// A no-capture limit of 0 plies.
    #[error("a no-capture limit must be at least 1 ply; use None for no limit")]
    NoCapturePlies,
}

impl Rules {
    /// Rules that end a game at the `repetitions`-th occurrence of a
    /// position (at least 2) and after `no_capture_plies` plies without a
    /// capture (at least 1); `None` disables either.
    pub const fn new(
        repetitions: Option<u32>,
        no_capture_plies: Option<u32>,
    ) -> Result<Rules, RulesError> {
        if let Some(n) = repetitions {
            if n < 2 {
                return Err(RulesError::Repetitions(n));
            }
        }
        if let Some(0) = no_capture_plies {
            return Err(RulesError::NoCapturePlies);
        }
        Ok(Rules {
            repetitions,
            no_capture_plies,
        })
    }

    /// The repetition limit: the game ends when the same placement with the
    /// same side to move occurs this many times (`None`: never).
    #[inline]
    #[must_use]
    pub const fn repetitions(&self) -> Option<u32> {
        self.repetitions
    }

    /// The no-capture limit: the game ends after this many consecutive
    /// plies without a capture (`None`: never).
    #[inline]
    #[must_use]
    pub const fn no_capture_plies(&self) -> Option<u32> {
        self.no_capture_plies
    }

    /// Nothing but the loss of all pieces or of all moves ends the game; used
    /// by the tablebases.
    pub const PURE: Rules = Rules {
        repetitions: None,
        no_capture_plies: None,
    };
    /// ICGA tournament rules: threefold repetition, 50 plies without a capture.
    pub const ICGA: Rules = Rules {
        repetitions: Some(3),
        no_capture_plies: Some(50),
    };
    /// Peking University rules: 40 plies without a capture.
    pub const PKU: Rules = Rules {
        repetitions: None,
        no_capture_plies: Some(40),
    };

    /// The preset's name, if these rules are one.
    #[must_use]
    pub fn preset_name(&self) -> Option<&'static str> {
        match *self {
            Rules::PURE => Some("pure"),
            Rules::ICGA => Some("icga"),
            Rules::PKU => Some("pku"),
            _ => None,
        }
    }

    /// The result of adjudication by material: more pieces wins, equal draws.
    #[must_use]
    pub const fn adjudicate(black: u32, white: u32, termination: Termination) -> Outcome {
        let winner = if black > white {
            Some(Color::Black)
        } else if white > black {
            Some(Color::White)
        } else {
            None
        };
        Outcome {
            winner,
            termination,
        }
    }
}

impl Default for Rules {
    /// The ICGA rules.
    fn default() -> Rules {
        Rules::ICGA
    }
}

/// Why a rule set's text could not be read: the part that is wrong.
///
/// # Examples
///
/// ```
/// use surakarta::{ParseRulesError, Rules, RulesError};
///
/// assert_eq!("icga,moves=3".parse::<Rules>(), Err(ParseRulesError::Name("moves".into())));
/// assert_eq!(
///     "repetitions=1".parse::<Rules>(),
///     Err(ParseRulesError::Limits(RulesError::Repetitions(1)))
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseRulesError {
    /// A part that is neither a preset (in first place) nor `name=number`:
    /// this part.
    Part(Excerpt),
    /// A limit other than `repetitions` and `no-capture`: its name.
    Name(Excerpt),
    /// A limit's value that is not a whole number: this value.
    Value(Excerpt),
    /// A limit given twice (`repetitions=3,repetitions=4`): its name.
    Repeated(Excerpt),
    /// The limits do not make a rule set (a repetition limit of 1).
    Limits(RulesError),
}

impl fmt::Display for ParseRulesError {
    /// `invalid rule set (unknown limit "moves"): expected pure, icga, pku,
    /// or a list like …`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid rule set (")?;
        match self {
            ParseRulesError::Part(part) => write!(f, "unexpected {part}")?,
            ParseRulesError::Name(name) => write!(f, "unknown limit {name}")?,
            ParseRulesError::Value(value) => write!(f, "limit {value} is not a whole number")?,
            ParseRulesError::Repeated(name) => write!(f, "limit {name} given twice")?,
            ParseRulesError::Limits(RulesError::Repetitions(n)) => {
                write!(f, "repetitions={n} would end every game at once")?
            }
            ParseRulesError::Limits(RulesError::NoCapturePlies) => {
                f.write_str("a no-capture limit of 0 plies")?
            }
        }
        f.write_str(
            "): expected pure, icga, pku, or a list like repetitions=3,no-capture=50 \
             (0 disables; repetitions at least 2)",
        )
    }
}

impl FromStr for Rules {
    type Err = ParseRulesError;

    /// `pure`, `icga`, `pku`, or `repetitions=N,no-capture=M` (either may be
    /// left out, 0 disables it, and they may follow a preset: `icga,no-capture=100`;
    /// each at most once).
    fn from_str(s: &str) -> Result<Rules, ParseRulesError> {
        let (mut repetitions, mut no_capture) = (None, None);
        // Whether each limit was given by name: a second one is an error.
        let (mut repetitions_given, mut no_capture_given) = (false, false);
        for (i, part) in s.split(',').enumerate() {
            let part = part.trim();
            let preset = match part {
                "pure" if i == 0 => Rules::PURE,
                "icga" if i == 0 => Rules::ICGA,
                "pku" if i == 0 => Rules::PKU,
                _ => {
                    let (key, value) = part
                        .split_once('=')
                        .ok_or_else(|| ParseRulesError::Part(Excerpt::new(part)))?;
                    let value = value.trim();
                    let n: u32 = value
                        .parse()
                        .map_err(|_| ParseRulesError::Value(Excerpt::new(value)))?;
                    let limit = if n == 0 { None } else { Some(n) };
                    let key = key.trim();
                    let slot = match key {
                        "repetitions" => &mut repetitions_given,
                        "no-capture" => &mut no_capture_given,
                        other => return Err(ParseRulesError::Name(Excerpt::new(other))),
                    };
                    if std::mem::replace(slot, true) {
                        return Err(ParseRulesError::Repeated(Excerpt::new(key)));
                    }
                    match key {
                        "repetitions" => repetitions = limit,
                        _ => no_capture = limit,
                    }
                    continue;
                }
            };
            (repetitions, no_capture) = (preset.repetitions, preset.no_capture_plies);
        }
        // The constructor's check (a repetition limit of 1 ends every game).
        Rules::new(repetitions, no_capture).map_err(ParseRulesError::Limits)
    }
}

impl fmt::Display for Rules {
    /// The preset name, or the `repetitions=N,no-capture=M` form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(name) = self.preset_name() {
            return f.write_str(name);
        }
        write!(
            f,
            "repetitions={},no-capture={}",
            self.repetitions.unwrap_or(0),
            self.no_capture_plies.unwrap_or(0)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructor_and_parser_share_one_check() {
        assert_eq!(Rules::new(Some(1), None), Err(RulesError::Repetitions(1)));
        assert_eq!(Rules::new(Some(0), None), Err(RulesError::Repetitions(0)));
        assert_eq!(Rules::new(None, Some(0)), Err(RulesError::NoCapturePlies));
        assert_eq!(Rules::new(Some(3), Some(50)), Ok(Rules::ICGA));
        assert!("repetitions=1".parse::<Rules>().is_err());
        // Every value made either way reads back as itself.
        for r in [None, Some(2), Some(3), Some(9)] {
            for n in [None, Some(1), Some(40), Some(50), Some(1000)] {
                let rules = Rules::new(r, n).unwrap();
                assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules));
            }
        }
    }

    #[test]
    fn parse_and_display() {
        for (text, rules) in [
            ("pure", Rules::PURE),
            ("icga", Rules::ICGA),
            ("pku", Rules::PKU),
        ] {
            assert_eq!(text.parse::<Rules>(), Ok(rules));
            assert_eq!(rules.to_string(), text);
        }
        let custom: Rules = "repetitions=4,no-capture=100".parse().unwrap();
        assert_eq!(
            custom,
            Rules {
                repetitions: Some(4),
                no_capture_plies: Some(100)
            }
        );
        assert_eq!(custom.to_string().parse::<Rules>(), Ok(custom));
        let tweaked: Rules = "icga,no-capture=0".parse().unwrap();
        assert_eq!(
            tweaked,
            Rules {
                repetitions: Some(3),
                no_capture_plies: None
            }
        );
        for bad in [
            "",
            "chess",
            "repetitions",
            "repetitions=x",
            "repetitions=1",
            "moves=3",
            "pure,icga",
        ] {
            assert!(bad.parse::<Rules>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn parse_errors_name_the_part() {
        use ParseRulesError::*;
        let cases = [
            ("", Part("".into())),
            ("chess", Part("chess".into())),
            ("pure,icga", Part("icga".into())),
            ("repetitions", Part("repetitions".into())),
            ("repetitions=x", Value("x".into())),
            ("icga, no-capture = -1", Value("-1".into())),
            ("moves=3", Name("moves".into())),
            ("repetitions=1", Limits(RulesError::Repetitions(1))),
        ];
        for (text, expected) in cases {
            assert_eq!(text.parse::<Rules>(), Err(expected), "{text:?}");
        }
        let tail = ": expected pure, icga, pku, or a list like repetitions=3,no-capture=50 \
                    (0 disables; repetitions at least 2)";
        let message = |text: &str| text.parse::<Rules>().unwrap_err().to_string();
        assert_eq!(
            message("fide"),
            format!("invalid rule set (unexpected \"fide\"){tail}")
        );
        assert_eq!(
            message("moves=3"),
            format!("invalid rule set (unknown limit \"moves\"){tail}")
        );
        assert_eq!(
            message("no-capture=x"),
            format!("invalid rule set (limit \"x\" is not a whole number){tail}")
        );
        assert_eq!(
            message("repetitions=1"),
            format!("invalid rule set (repetitions=1 would end every game at once){tail}")
        );
    }

    #[test]
    fn a_limit_given_twice_is_refused() {
        // Which of two values would count is a guess: refuse, as a repeated
        // key of a player's settings is refused.
        for text in [
            "repetitions=3,repetitions=4",
            "icga,no-capture=50,no-capture=0",
            "repetitions=2, no-capture=9 ,repetitions=2",
        ] {
            let key = if text.matches("repetitions").count() == 2 {
                "repetitions"
            } else {
                "no-capture"
            };
            assert_eq!(
                text.parse::<Rules>(),
                Err(ParseRulesError::Repeated(key.into())),
                "{text:?}"
            );
        }
        assert_eq!(
            "repetitions=3,repetitions=4"
                .parse::<Rules>()
                .unwrap_err()
                .to_string(),
            "invalid rule set (limit \"repetitions\" given twice): expected pure, icga, pku, \
             or a list like repetitions=3,no-capture=50 (0 disables; repetitions at least 2)"
        );
        // A preset followed by its own limit is one setting changed, not a repeat.
        assert_eq!(
            "icga,repetitions=0"
                .parse::<Rules>()
                .map(|r| r.repetitions()),
            Ok(None)
        );
    }

    #[test]
    fn adjudication() {
        let t = Termination::NoCaptureLimit;
        assert_eq!(Rules::adjudicate(3, 2, t).winner, Some(Color::Black));
        assert_eq!(Rules::adjudicate(2, 3, t).winner, Some(Color::White));
        assert_eq!(Rules::adjudicate(2, 2, t).winner, None);
        assert_eq!(Rules::adjudicate(2, 2, t).result(), "1/2-1/2");
    }
}
