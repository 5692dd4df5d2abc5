//! Reproducible randomness: a small seeded generator (SplitMix64) and random
//! positions built with it, for openings, experiments and tests. The same
//! seed gives the same numbers and positions on every platform.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::position::{Position, MAX_PIECES_PER_SIDE};
use crate::square::Square;

/// One SplitMix64 step: the next state and the output it gives.
pub(crate) const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

/// A seeded pseudo-random generator (SplitMix64): fast, 64 bits of state,
/// not for cryptography.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator started from `seed`.
    pub const fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let (state, out) = splitmix64(self.0);
        self.0 = state;
        out
    }

    /// A number below `n`, or 0 when `n` is 0 (Lemire's multiply-shift, so
    /// every value is within 2⁻⁶⁴ of equally likely).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

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
    fn same_seed_same_numbers() {
        let mut a = SplitMix::new(42);
        let mut b = SplitMix::new(42);
        let xs: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..8).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs[0], xs[1]);
        // The published first output of SplitMix64 from seed 0.
        assert_eq!(SplitMix::new(0).next_u64(), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = SplitMix::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7)] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        assert_eq!(rng.below(0), 0);
    }

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
