//! Reproducible randomness: the seeded generator [`SplitMix`] and random
//! positions built with it, for openings, experiments and tests. The same
//! seed gives the same numbers and positions on every platform.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::position::{Position, MAX_PIECES_PER_SIDE};
use crate::square::Square;

pub use crate::splitmix::SplitMix;

/// Why a random position cannot be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RandomPositionError {
    /// More pieces asked for a side than a position may hold.
    #[error("{count} {color} pieces asked for; a side has at most {MAX_PIECES_PER_SIDE}")]
    TooMany {
        /// The side.
        color: Color,
        /// The count asked for.
        count: u32,
    },
    /// The side not to move would have no pieces: no game reaches such a
    /// position.
    #[error("{black} black and {white} white pieces with {turn} to move: no game reaches such a position")]
    Unreachable {
        /// Black pieces asked for.
        black: u32,
        /// White pieces asked for.
        white: u32,
        /// The side to move.
        turn: Color,
    },
}

/// A position with `black` and `white` pieces on uniformly random distinct
/// points, `turn` to move and counters at their start values.
///
/// # Examples
///
/// ```
/// use surakarta::random::{random_position, SplitMix};
/// use surakarta::Color;
///
/// let mut rng = SplitMix::new(7);
/// let pos = random_position(&mut rng, 3, 2, Color::White)?;
/// assert_eq!(pos.pieces(Color::Black).len(), 3);
/// assert_eq!(pos.pieces(Color::White).len(), 2);
/// // The same seed gives the same position, on every platform.
/// assert_eq!(random_position(&mut SplitMix::new(7), 3, 2, Color::White)?, pos);
/// assert!(random_position(&mut rng, 13, 2, Color::White).is_err()); // at most 12
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn random_position(
    rng: &mut SplitMix,
    black: u32,
    white: u32,
    turn: Color,
) -> Result<Position, RandomPositionError> {
    for (color, count) in [(Color::Black, black), (Color::White, white)] {
        if count > MAX_PIECES_PER_SIDE {
            return Err(RandomPositionError::TooMany { color, count });
        }
    }
    let mut free: Vec<Square> = Square::ALL.to_vec();
    let mut take = |n: u32| {
        let mut bb = Bitboard::EMPTY;
        for _ in 0..n {
            bb.insert(free.swap_remove(rng.below(free.len())));
        }
        bb
    };
    let black_pieces = take(black);
    let white_pieces = take(white);
    let (us, them) = match turn {
        Color::Black => (black_pieces, white_pieces),
        Color::White => (white_pieces, black_pieces),
    };
    Position::from_sides(us, them, turn).map_err(|_| RandomPositionError::Unreachable {
        black,
        white,
        turn,
    })
}

/// The position after up to `plies` uniformly random legal moves from
/// `start`; it stops early rather than reach a position where the game is
/// over (no pieces or no moves for the side to move).
///
/// # Examples
///
/// ```
/// use surakarta::random::{random_playout, SplitMix};
/// use surakarta::{Color, Position};
///
/// let mut rng = SplitMix::new(1);
/// let pos = random_playout(&mut rng, Position::new(), 10);
/// assert_eq!((pos.fullmoves(), pos.turn()), (6, Color::Black)); // five moves each
/// assert_eq!(random_playout(&mut SplitMix::new(1), Position::new(), 10), pos);
/// ```
#[must_use]
pub fn random_playout(rng: &mut SplitMix, start: Position, plies: usize) -> Position {
    let mut position = start;
    for _ in 0..plies {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        let next = position.after(moves[rng.below(moves.len())]);
        if next.outcome().is_some() {
            break;
        }
        position = next;
    }
    position
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_positions_have_the_counts_asked_for() {
        let mut rng = SplitMix::new(3);
        for (b, w) in [(3, 7), (7, 3), (12, 12), (0, 1), (5, 5)] {
            let p = random_position(&mut rng, b, w, Color::Black).unwrap();
            assert_eq!(p.pieces(Color::Black).len(), b);
            assert_eq!(p.pieces(Color::White).len(), w);
            assert_eq!(p.turn(), Color::Black);
        }
        assert!(random_position(&mut rng, 13, 1, Color::Black).is_err());
        assert!(random_position(&mut rng, 3, 0, Color::Black).is_err());
    }

    #[test]
    fn playouts_never_end_the_game() {
        let mut rng = SplitMix::new(9);
        for _ in 0..50 {
            let p = random_playout(&mut rng, Position::new(), 40);
            assert!(p.outcome().is_none());
        }
    }
}
