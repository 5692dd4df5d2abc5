//! Unchecked positions.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::square::Square;
use crate::symmetry::Symmetry;

/// A position as written, not yet checked: any placement, side to move and
/// counters. Parse it from [notation](crate::notation) and turn it into a
/// [`Position`](crate::Position) with [`Position::from_setup`](crate::Position::from_setup),
/// which validates it.
///
/// # Examples
///
/// ```
/// use surakarta::{Color, Position, Setup, Square};
///
/// let setup: Setup = "6/1w4/6/6/1b4/6 b".parse()?;
/// assert_eq!(setup.piece_at(Square::B5), Some(Color::White));
/// let pos = Position::from_setup(setup)?;
/// assert_eq!(pos.legal_moves().len(), 9);
///
/// // A setup may be impossible; only a Position is checked.
/// let mut empty = Setup::empty();
/// empty.turn = Color::White;
/// assert!(Position::from_setup(empty).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Points holding a black piece.
    pub black: Bitboard,
    /// Points holding a white piece.
    pub white: Bitboard,
    /// The side to move.
    pub turn: Color,
    /// Plies since the last capture (or since the start).
    pub halfmoves: u32,
    /// Move number, starting at 1 and incremented after White moves.
    pub fullmoves: u32,
}

impl Setup {
    /// The start position: Black on ranks 1–2, White on ranks 5–6, Black to move.
    #[must_use]
    pub const fn start() -> Setup {
        Setup {
            black: Bitboard::from_bits_truncate(0xfff),
            white: Bitboard::from_bits_truncate(0xfff << 24),
            turn: Color::Black,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// An empty board with Black to move.
    #[must_use]
    pub const fn empty() -> Setup {
        Setup {
            black: Bitboard::EMPTY,
            white: Bitboard::EMPTY,
            turn: Color::Black,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// The pieces of `color`.
    #[inline]
    #[must_use]
    pub const fn pieces(&self, color: Color) -> Bitboard {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The colour of the piece on `sq`, if any (Black if both claim it).
    #[must_use]
    pub const fn piece_at(&self, sq: Square) -> Option<Color> {
        if self.black.contains(sq) {
            Some(Color::Black)
        } else if self.white.contains(sq) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The image of the placement under a board symmetry (counters unchanged).
    #[must_use]
    pub fn transformed(&self, sym: Symmetry) -> Setup {
        Setup {
            black: sym.bitboard(self.black),
            white: sym.bitboard(self.white),
            turn: self.turn,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::start()
    }
}
