//! Move path enumeration (perft), for testing and benchmarking move generation.

use crate::moves::Move;
use crate::position::Position;

/// The number of legal move sequences of length `depth` from `pos` (the leaves
/// of the game tree cut at that depth; finished games are not extended).
/// `perft(pos, 0) == 1`. The last ply is counted without playing it.
///
/// # Examples
///
/// ```
/// use surakarta::{perft, Position};
///
/// let start = Position::new();
/// assert_eq!(perft(&start, 1), 16);
/// assert_eq!(perft(&start, 2), 256);
/// assert_eq!(perft(&start, 3), 5382);
/// ```
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves() as u64,
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| perft(&pos.after(m), depth - 1))
            .sum(),
    }
}

/// [`perft`] split by the first move: one `(move, count)` per legal move, in
/// generation order. Empty for `depth == 0`.
///
/// # Examples
///
/// ```
/// use surakarta::{divide, perft, Position};
///
/// let start = Position::new();
/// let split = divide(&start, 2);
/// assert_eq!(split.len(), 16); // one entry per first move
/// assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), perft(&start, 2));
/// ```
#[must_use]
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| (m, perft(&pos.after(m), depth - 1)))
        .collect()
}
