//! Search scores: centipoint-like evaluations, game-end scores that count the
//! plies to the end, and tablebase scores that count the plies to a
//! conversion.

use core::fmt;

/// The largest search depth in plies (the search stops deepening there).
pub const MAX_PLY: usize = 128;

/// A score from the point of view of the side to move, in evaluation units.
///
/// The range is split into three bands:
/// - `|s| < TB_BAND`: a heuristic evaluation (or 0 for a draw);
/// - `TB_BAND <= |s| < WIN_BAND`: a win (or loss) known from the tablebases,
///   `TB_WIN - plies` where `plies` counts from the root to the conversion;
/// - `|s| >= WIN_BAND`: the game ends, `WIN - plies` where `plies` counts from
///   the root to the end.
///
/// # Examples
///
/// ```
/// use surakarta_search::{Score, ScoreKind};
///
/// assert_eq!(Score(35).to_string(), "cp 35");
/// assert_eq!(Score::win_at(7).kind(), ScoreKind::Win(7));
/// assert_eq!(Score::tb_loss_at(9).to_string(), "tbloss 9");
/// assert!(Score::tb_win_at(12).is_decisive() && !Score(35).is_decisive());
/// assert!(Score::win_at(3) > Score::win_at(5)); // a faster win is better
/// assert_eq!(Score::loss_at(4).kind().parts(), ("loss", 4));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(pub i32);

/// Above every reachable score: the initial window bound.
pub const INFINITY: i32 = 32_000;
/// A game won at the root (the side to move has already won).
pub const WIN: i32 = 31_000;
/// Scores at or above this are game ends within `WIN - WIN_BAND` plies.
pub const WIN_BAND: i32 = WIN - 1_000;
/// A tablebase win converted at the root.
pub const TB_WIN: i32 = 29_000;
/// Scores at or above this (and below `WIN_BAND`) are tablebase wins.
pub const TB_BAND: i32 = TB_WIN - 1_000;
/// Heuristic evaluations are clamped to `±EVAL_LIMIT`.
pub const EVAL_LIMIT: i32 = 20_000;

impl Score {
    /// A draw.
    pub const DRAW: Score = Score(0);

    /// The side to move wins at `ply` plies from the root.
    #[must_use]
    pub const fn win_at(ply: usize) -> Score {
        Score(WIN - ply as i32)
    }

    /// The side to move loses at `ply` plies from the root.
    #[must_use]
    pub const fn loss_at(ply: usize) -> Score {
        Score(-WIN + ply as i32)
    }

    /// A tablebase win converted `plies` plies from the root.
    #[must_use]
    pub const fn tb_win_at(plies: u32) -> Score {
        Score(TB_WIN - plies as i32)
    }

    /// A tablebase loss converted `plies` plies from the root.
    #[must_use]
    pub const fn tb_loss_at(plies: u32) -> Score {
        Score(-TB_WIN + plies as i32)
    }

    /// Whether the score is a known win or loss (game end or tablebase).
    #[must_use]
    pub const fn is_decisive(self) -> bool {
        self.0.abs() >= TB_BAND
    }

    /// The kind of score and its number, for display.
    #[must_use]
    pub const fn kind(self) -> ScoreKind {
        let s = self.0;
        if s >= WIN_BAND {
            ScoreKind::Win((WIN - s) as u32)
        } else if s <= -WIN_BAND {
            ScoreKind::Loss((WIN + s) as u32)
        } else if s >= TB_BAND {
            ScoreKind::TbWin((TB_WIN - s) as u32)
        } else if s <= -TB_BAND {
            ScoreKind::TbLoss((TB_WIN + s) as u32)
        } else {
            ScoreKind::Eval(s)
        }
    }

    /// The score as stored in the transposition table: distances counted
    /// from the node at `ply` instead of from the root.
    #[must_use]
    pub const fn to_table(self, ply: usize) -> i32 {
        let (s, p) = (self.0, ply as i32);
        if s >= TB_BAND {
            s + p
        } else if s <= -TB_BAND {
            s - p
        } else {
            s
        }
    }

    /// The inverse of [`Score::to_table`] for a node at `ply`.
    #[must_use]
    pub const fn from_table(stored: i32, ply: usize) -> Score {
        let p = ply as i32;
        Score(if stored >= TB_BAND {
            stored - p
        } else if stored <= -TB_BAND {
            stored + p
        } else {
            stored
        })
    }
}

/// What a score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoreKind {
    /// A heuristic evaluation (positive: good for the side to move).
    Eval(i32),
    /// The side to move wins; the game ends in this many plies.
    Win(u32),
    /// The side to move loses; the game ends in this many plies.
    Loss(u32),
    /// The tablebases say the side to move wins, converting in this many plies.
    TbWin(u32),
    /// The tablebases say the side to move loses, converted in this many plies.
    TbLoss(u32),
}

impl ScoreKind {
    /// The kind's name and its number, as the protocol and JSON write
    /// them: `("cp", 35)`, `("win", 7)`, `("loss", 4)`, `("tbwin", 12)`,
    /// `("tbloss", 9)`.
    #[must_use]
    pub fn parts(self) -> (&'static str, i64) {
        match self {
            ScoreKind::Eval(v) => ("cp", i64::from(v)),
            ScoreKind::Win(n) => ("win", i64::from(n)),
            ScoreKind::Loss(n) => ("loss", i64::from(n)),
            ScoreKind::TbWin(n) => ("tbwin", i64::from(n)),
            ScoreKind::TbLoss(n) => ("tbloss", i64::from(n)),
        }
    }
}

impl fmt::Display for Score {
    /// The protocol's form: `cp 35`, `win 7`, `loss 4`, `tbwin 12`, `tbloss 9`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            ScoreKind::Eval(s) => write!(f, "cp {s}"),
            ScoreKind::Win(n) => write!(f, "win {n}"),
            ScoreKind::Loss(n) => write!(f, "loss {n}"),
            ScoreKind::TbWin(n) => write!(f, "tbwin {n}"),
            ScoreKind::TbLoss(n) => write!(f, "tbloss {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_are_disjoint_and_displayed() {
        assert_eq!(Score::win_at(7).to_string(), "win 7");
        assert_eq!(Score::loss_at(4).to_string(), "loss 4");
        assert_eq!(Score::tb_win_at(12).to_string(), "tbwin 12");
        assert_eq!(Score::tb_loss_at(9).to_string(), "tbloss 9");
        assert_eq!(Score(-35).to_string(), "cp -35");
        assert!(Score::tb_win_at(900) > Score(EVAL_LIMIT));
        assert!(Score::win_at(MAX_PLY) > Score::tb_win_at(0));
        assert!(!Score(EVAL_LIMIT).is_decisive());
        assert!(Score::tb_loss_at(3).is_decisive());
    }

    #[test]
    fn table_adjustment_round_trips() {
        for s in [
            Score::win_at(9),
            Score::loss_at(5),
            Score::tb_win_at(30),
            Score(123),
        ] {
            for ply in [0, 3, 40] {
                assert_eq!(Score::from_table(s.to_table(ply), ply), s);
            }
        }
        // A win 9 plies from the root seen at ply 3 is stored as a win in 6
        // from that node, and read at ply 5 as a win 11 plies from the root.
        let stored = Score::win_at(9).to_table(3);
        assert_eq!(stored, WIN - 6);
        assert_eq!(Score::from_table(stored, 5), Score::win_at(11));
    }
}
