//! Text notation for positions and moves.
//!
//! A position is written as six ranks from 6 down to 1 separated by `/`, each
//! rank from file a to f with `b` for a black piece, `w` for a white piece and a
//! digit 1–6 for a run of empty points; then the side to move (`b` or `w`);
//! then, optionally, the number of plies since the last capture and the move
//! number. The start position is
//! `wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1`.
//!
//! A move is written `b2-c3` (a step) or `b2xe5` (a capture); `b2c3`, without
//! the separator, is accepted too and means whichever the move is.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::excerpt::Excerpt;
use crate::setup::Setup;
use crate::square::{File, ParseSquareError, Rank, Square};
use core::fmt;
use core::str::FromStr;

/// Longest position text accepted; anything longer is rejected unread.
pub const MAX_POSITION_TEXT: usize = 256;

/// Why a position's text could not be read; each variant names the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseSetupError {
    /// The text is empty or only white space.
    #[error("empty position text")]
    Empty,
    /// The text is longer than [`MAX_POSITION_TEXT`].
    #[error("position text too long ({0} bytes; at most {MAX_POSITION_TEXT})")]
    TooLong(usize),
    /// The board field does not have six ranks.
    #[error("board field: expected 6 ranks separated by '/', found {0}")]
    RankCount(usize),
    /// A rank of the board field does not describe exactly six points.
    #[error("board field: rank {rank}: expected 6 points, found {points}")]
    RankWidth {
        /// The rank, 1–6.
        rank: u8,
        /// How many points it described.
        points: usize,
    },
    /// A rank of the board field holds a character other than `b`, `w`, `1`–`6`.
    #[error("board field: rank {rank}: unexpected character {found:?} (expected 'b', 'w' or a digit 1-6)")]
    BoardChar {
        /// The rank, 1–6.
        rank: u8,
        /// The offending character.
        found: char,
    },
    /// The side-to-move field is missing.
    #[error("side-to-move field: missing (expected 'b' or 'w' after the board)")]
    MissingTurn,
    /// The side-to-move field is not `b` or `w`.
    #[error("side-to-move field: expected 'b' or 'w', found {0}")]
    Turn(Excerpt),
    /// The no-capture ply count is not a number.
    #[error("no-capture ply field: expected a whole number, found {0}")]
    Halfmoves(Excerpt),
    /// The move number is not a number of at least 1.
    #[error("move-number field: expected a whole number of at least 1, found {0}")]
    Fullmoves(Excerpt),
    /// Something follows the move number.
    #[error("unexpected text {0} after the move-number field")]
    Extra(Excerpt),
}

fn parse_board(field: &str) -> Result<(Bitboard, Bitboard), ParseSetupError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 6 {
        return Err(ParseSetupError::RankCount(ranks.len()));
    }
    let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for (row, text) in ranks.iter().enumerate() {
        let rank_number = 6 - row as u8;
        let rank = Rank::ALL[5 - row];
        let mut file = 0usize;
        for ch in text.chars() {
            let color = match ch {
                'b' => Some(Color::Black),
                'w' => Some(Color::White),
                '1'..='6' => None,
                found => {
                    return Err(ParseSetupError::BoardChar {
                        rank: rank_number,
                        found,
                    })
                }
            };
            match color {
                Some(c) => {
                    if file < 6 {
                        let sq = Square::from_coords(File::ALL[file], rank);
                        match c {
                            Color::Black => black.insert(sq),
                            Color::White => white.insert(sq),
                        }
                    }
                    file += 1;
                }
                None => file += (ch as u8 - b'0') as usize,
            }
        }
        if file != 6 {
            return Err(ParseSetupError::RankWidth {
                rank: rank_number,
                points: file,
            });
        }
    }
    Ok((black, white))
}

impl FromStr for Setup {
    type Err = ParseSetupError;

    fn from_str(text: &str) -> Result<Setup, ParseSetupError> {
        if text.len() > MAX_POSITION_TEXT {
            return Err(ParseSetupError::TooLong(text.len()));
        }
        let mut fields = text.split_ascii_whitespace();
        let board = fields.next().ok_or(ParseSetupError::Empty)?;
        let (black, white) = parse_board(board)?;
        let turn = match fields.next() {
            None => return Err(ParseSetupError::MissingTurn),
            Some("b") => Color::Black,
            Some("w") => Color::White,
            Some(other) => return Err(ParseSetupError::Turn(Excerpt::new(other))),
        };
        let halfmoves = match fields.next() {
            None => 0,
            Some(f) => {
                parse_number(f).ok_or_else(|| ParseSetupError::Halfmoves(Excerpt::new(f)))?
            }
        };
        let fullmoves = match fields.next() {
            None => 1,
            Some(f) => parse_number(f)
                .filter(|&n| n >= 1)
                .ok_or_else(|| ParseSetupError::Fullmoves(Excerpt::new(f)))?,
        };
        if let Some(extra) = fields.next() {
            return Err(ParseSetupError::Extra(Excerpt::new(extra)));
        }
        Ok(Setup {
            black,
            white,
            turn,
            halfmoves,
            fullmoves,
        })
    }
}

/// A plain decimal number: digits only (no sign), fitting a `u32`.
fn parse_number(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Writes the board field of a placement.
fn write_board(f: &mut fmt::Formatter<'_>, black: Bitboard, white: Bitboard) -> fmt::Result {
    for rank in Rank::ALL.iter().rev() {
        let mut empty = 0;
        for file in File::ALL {
            let sq = Square::from_coords(file, *rank);
            let ch = if black.contains(sq) {
                'b'
            } else if white.contains(sq) {
                'w'
            } else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                write!(f, "{empty}")?;
                empty = 0;
            }
            write!(f, "{ch}")?;
        }
        if empty > 0 {
            write!(f, "{empty}")?;
        }
        if rank.index() > 0 {
            f.write_str("/")?;
        }
    }
    Ok(())
}

impl fmt::Display for Setup {
    /// The full notation, e.g. `wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_board(f, self.black, self.white)?;
        write!(
            f,
            " {} {} {}",
            self.turn.char(),
            self.halfmoves,
            self.fullmoves
        )
    }
}

/// A move as written, before it is checked against a position: origin, target
/// and, if the text said so, whether it is a capture.
///
/// # Examples
///
/// ```
/// use surakarta::{MoveText, Position, Square};
///
/// let written: MoveText = "b2-b3".parse()?;
/// assert_eq!((written.from, written.to, written.capture), (Square::B2, Square::B3, Some(false)));
/// let bare: MoveText = "b2b3".parse()?;
/// assert_eq!(bare.capture, None); // whichever the move is
/// // A position resolves it to its legal move.
/// assert_eq!(Position::new().check_move(bare)?.to_string(), "b2-b3");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveText {
    /// The origin point.
    pub from: Square,
    /// The target point.
    pub to: Square,
    /// `Some(true)` for `x`, `Some(false)` for `-`, `None` with no separator.
    pub capture: Option<bool>,
}

/// Why a move's text could not be read: what was wrong with it.
///
/// # Examples
///
/// ```
/// use surakarta::{MoveText, ParseMoveError, ParseSquareError};
///
/// assert_eq!("b2+c3".parse::<MoveText>(), Err(ParseMoveError::Separator('+')));
/// assert_eq!(
///     "b2-b9".parse::<MoveText>(),
///     Err(ParseMoveError::Target(ParseSquareError::BadRank('9')))
/// );
/// assert_eq!(
///     ParseMoveError::Length(2).to_string(),
///     "invalid move text (2 characters, not 4 or 5): expected a step like b2-c3, a capture like b2xe5, or b2c3"
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// The text is not 4 or 5 characters long; the length, in characters.
    Length(usize),
    /// The middle character of five is not `-` or `x`.
    Separator(char),
    /// The origin is not a point.
    Origin(ParseSquareError),
    /// The target is not a point.
    Target(ParseSquareError),
}

impl ParseMoveError {
    /// What is wrong, without the expectation: `target: '9' is not a rank`;
    /// also used by [`crate::MoveError::Syntax`]'s message.
    pub(crate) fn problem(&self) -> String {
        match self {
            ParseMoveError::Length(len) => format!("{len} characters, not 4 or 5"),
            ParseMoveError::Separator(c) => format!("{c:?} between the points"),
            ParseMoveError::Origin(e) => format!("origin: {}", e.problem()),
            ParseMoveError::Target(e) => format!("target: {}", e.problem()),
        }
    }
}

/// What every move syntax message ends with.
pub(crate) const MOVE_EXPECTED: &str = "expected a step like b2-c3, a capture like b2xe5, or b2c3";

impl fmt::Display for ParseMoveError {
    /// `invalid move text (target: '9' is not a rank): expected a step like
    /// b2-c3, a capture like b2xe5, or b2c3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid move text ({}): {MOVE_EXPECTED}", self.problem())
    }
}

impl FromStr for MoveText {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<MoveText, ParseMoveError> {
        // At most six characters are looked at: a longer text is too long.
        let mut c = ['\0'; 6];
        let mut n = 0;
        for (slot, ch) in c.iter_mut().zip(s.chars()) {
            *slot = ch;
            n += 1;
        }
        let (capture, to_at) = match n {
            4 => (None, 2),
            5 => match c[2] {
                '-' => (Some(false), 3),
                'x' => (Some(true), 3),
                other => return Err(ParseMoveError::Separator(other)),
            },
            _ => return Err(ParseMoveError::Length(s.chars().count())),
        };
        let from = Square::from_chars(c[0], c[1]).map_err(ParseMoveError::Origin)?;
        let to = Square::from_chars(c[to_at], c[to_at + 1]).map_err(ParseMoveError::Target)?;
        Ok(MoveText { from, to, capture })
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = match self.capture {
            Some(true) => "x",
            Some(false) => "-",
            None => "",
        };
        write!(f, "{}{}{}", self.from, sep, self.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trip() {
        let text = "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1";
        let setup: Setup = text.parse().unwrap();
        assert_eq!(setup, Setup::start());
        assert_eq!(setup.to_string(), text);
    }

    #[test]
    fn optional_counters() {
        let s: Setup = "ww3w/wb4/5w/6/6/b1w3 b".parse().unwrap();
        assert_eq!((s.halfmoves, s.fullmoves), (0, 1));
        assert_eq!(s.to_string(), "ww3w/wb4/5w/6/6/b1w3 b 0 1");
        let s: Setup = "ww3w/wb4/5w/6/6/b1w3 w 17".parse().unwrap();
        assert_eq!((s.turn, s.halfmoves, s.fullmoves), (Color::White, 17, 1));
    }

    #[test]
    fn errors_name_the_field() {
        use ParseSetupError::*;
        let cases: &[(&str, ParseSetupError)] = &[
            ("", Empty),
            ("   ", Empty),
            ("6/6/6/6/6 b", RankCount(5)),
            ("6/6/6/6/6/6/6 b", RankCount(7)),
            ("6/6/5/6/6/6 b", RankWidth { rank: 4, points: 5 }),
            ("6/6/6/6/6/bbbbbbb b", RankWidth { rank: 1, points: 7 }),
            ("6/6/6/6/6/33b b", RankWidth { rank: 1, points: 7 }),
            (
                "6/6/6/6/6/5x b",
                BoardChar {
                    rank: 1,
                    found: 'x',
                },
            ),
            (
                "6/6/6/6/6/06 b",
                BoardChar {
                    rank: 1,
                    found: '0',
                },
            ),
            ("6/6/6/6/6/6", MissingTurn),
            ("6/6/6/6/6/6 x", Turn("x".into())),
            ("6/6/6/6/6/6 black", Turn("black".into())),
            ("6/6/6/6/6/6 b -1", Halfmoves("-1".into())),
            ("6/6/6/6/6/6 b +1", Halfmoves("+1".into())),
            ("6/6/6/6/6/6 b 99999999999", Halfmoves("99999999999".into())),
            ("6/6/6/6/6/6 b 0 0", Fullmoves("0".into())),
            ("6/6/6/6/6/6 b 0 x", Fullmoves("x".into())),
            ("6/6/6/6/6/6 b 0 1 z", Extra("z".into())),
        ];
        for (text, expected) in cases {
            assert_eq!(text.parse::<Setup>().as_ref(), Err(expected), "{text:?}");
        }
        let long = "6/".repeat(200);
        assert!(matches!(long.parse::<Setup>(), Err(TooLong(_))));
        // Quoted input is cut in messages, which say how long it was.
        let extra = format!("6/6/6/6/6/6 b 0 1 {}", "z".repeat(200));
        let err = extra.parse::<Setup>().unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "unexpected text \"{}…\" (200 bytes) after the move-number field",
                "z".repeat(80)
            )
        );
    }

    #[test]
    fn move_text() {
        let m: MoveText = "b2-c3".parse().unwrap();
        assert_eq!(
            (m.from.to_string(), m.to.to_string(), m.capture),
            ("b2".into(), "c3".into(), Some(false))
        );
        let m: MoveText = "b2xe5".parse().unwrap();
        assert_eq!(m.capture, Some(true));
        assert_eq!(m.to_string(), "b2xe5");
        let m: MoveText = "b2c3".parse().unwrap();
        assert_eq!(m.capture, None);
        for bad in [
            "", "b2", "b2-", "b2-c", "b2+c3", "b2-c7", "g2-c3", "b2--c3", "b2-c3 ", "B2-C3",
            "b2_c3",
        ] {
            assert!(bad.parse::<MoveText>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn move_text_errors_say_what_is_wrong() {
        use ParseMoveError::*;
        use ParseSquareError::{BadFile, BadRank};
        let cases = [
            ("", Length(0)),
            ("b2", Length(2)),
            ("b2-", Length(3)),
            ("b2--c3", Length(6)),
            ("b2-c3 ", Length(6)),
            ("hello world", Length(11)),
            ("b2+c3", Separator('+')),
            ("b2_c3", Separator('_')),
            ("b2-c7", Target(BadRank('7'))),
            ("b2-c", Target(BadFile('-'))),
            ("g2-c3", Origin(BadFile('g'))),
            ("B2-C3", Origin(BadFile('B'))),
            ("é2-c3", Origin(BadFile('é'))),
            ("b2-éé", Target(BadFile('é'))),
            ("what", Origin(BadFile('w'))),
        ];
        for (text, expected) in cases {
            assert_eq!(text.parse::<MoveText>(), Err(expected), "{text:?}");
        }
        let message = |text: &str| text.parse::<MoveText>().unwrap_err().to_string();
        let tail = ": expected a step like b2-c3, a capture like b2xe5, or b2c3";
        assert_eq!(
            message("b2-b9"),
            format!("invalid move text (target: '9' is not a rank){tail}")
        );
        assert_eq!(
            message("b2+c3"),
            format!("invalid move text ('+' between the points){tail}")
        );
        assert_eq!(
            message("b2"),
            format!("invalid move text (2 characters, not 4 or 5){tail}")
        );
        assert_eq!(
            message("g2c3"),
            format!("invalid move text (origin: 'g' is not a file){tail}")
        );
    }
}
