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
use crate::square::{File, Rank, Square};
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveText {
    /// The origin point.
    pub from: Square,
    /// The target point.
    pub to: Square,
    /// `Some(true)` for `x`, `Some(false)` for `-`, `None` with no separator.
    pub capture: Option<bool>,
}

/// Why a move's text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid move text {0}: expected a step like b2-c3, a capture like b2xe5, or b2c3")]
pub struct ParseMoveError(pub Excerpt);

impl FromStr for MoveText {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<MoveText, ParseMoveError> {
        let bad = || ParseMoveError(Excerpt::new(s));
        let b = s.as_bytes();
        let (capture, to_at) = match b.len() {
            4 => (None, 2),
            5 => match b[2] {
                b'-' => (Some(false), 3),
                b'x' => (Some(true), 3),
                _ => return Err(bad()),
            },
            _ => return Err(bad()),
        };
        let from = Square::parse_prefix(b).ok_or_else(bad)?;
        let to = Square::parse_prefix(&b[to_at..]).ok_or_else(bad)?;
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
}
