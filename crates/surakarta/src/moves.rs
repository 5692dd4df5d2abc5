//! Moves and fixed-capacity move lists.

use crate::square::Square;
use crate::symmetry::Symmetry;
use core::fmt;
use core::ops::{Deref, DerefMut};

/// A move: a step to an adjacent empty point, or a capture along a circuit.
///
/// A move is identified by its origin and target; several capture paths to the
/// same target are one move. Packed into 13 bits: origin in bits 0..6, target in
/// bits 6..12, bit 12 set for a capture.
///
/// # Examples
///
/// ```
/// use surakarta::{Move, Square};
///
/// let step = Move::step(Square::B2, Square::C3);
/// assert_eq!(step.to_string(), "b2-c3");
/// assert!(!step.is_capture());
/// let capture = Move::capture(Square::B2, Square::E5);
/// assert_eq!((capture.from(), capture.to()), (Square::B2, Square::E5));
/// assert_eq!(capture.to_string(), "b2xe5");
/// assert_eq!(Move::from_bits(capture.to_bits()), Some(capture));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move(u16);

const CAPTURE_FLAG: u16 = 1 << 12;

impl Move {
    /// A step from `from` to the adjacent point `to`.
    #[inline]
    #[must_use]
    pub const fn step(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6)
    }

    /// A capture by the piece on `from` of the enemy piece on `to`.
    #[inline]
    #[must_use]
    pub const fn capture(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | CAPTURE_FLAG)
    }

    /// The origin point.
    #[inline]
    #[must_use]
    pub const fn from(self) -> Square {
        match Square::new((self.0 & 63) as u8) {
            Some(s) => s,
            None => Square::ALL[0], // unreachable: packed from a valid square
        }
    }

    /// The target point.
    #[inline]
    #[must_use]
    pub const fn to(self) -> Square {
        match Square::new((self.0 >> 6 & 63) as u8) {
            Some(s) => s,
            None => Square::ALL[0], // unreachable: packed from a valid square
        }
    }

    /// Whether the move captures the piece on its target point.
    #[inline]
    #[must_use]
    pub const fn is_capture(self) -> bool {
        self.0 & CAPTURE_FLAG != 0
    }

    /// The image of the move under a board symmetry.
    #[inline]
    #[must_use]
    pub const fn transformed(self, sym: Symmetry) -> Move {
        let (from, to) = (sym.square(self.from()), sym.square(self.to()));
        if self.is_capture() {
            Move::capture(from, to)
        } else {
            Move::step(from, to)
        }
    }

    /// The packed 13-bit form, for compact storage (transposition tables, files).
    #[inline]
    #[must_use]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// Unpacks [`Move::to_bits`]; `None` if the bits name no move.
    #[inline]
    #[must_use]
    pub const fn from_bits(bits: u16) -> Option<Move> {
        if bits >> 13 != 0 || (bits & 63) >= 36 || (bits >> 6 & 63) >= 36 {
            None
        } else {
            Some(Move(bits))
        }
    }
}

impl fmt::Display for Move {
    /// `b2-c3` for a step, `b2xe5` for a capture.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { 'x' } else { '-' };
        write!(f, "{}{}{}", self.from(), sep, self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Capacity of a [`MoveList`]: an upper bound on the legal moves of any position.
///
/// Steps: at most 12 pieces with 8 neighbours each, 96. Captures: on each of
/// the two circuits, only the last occupied point of each of the four segments
/// can capture forwards and only the first can capture backwards, so at most
/// 2 × 4 × 2 = 16 captures. 96 + 16 = 112.
pub const MAX_MOVES: usize = 112;

/// A list of at most [`MAX_MOVES`] moves that lives on the stack.
///
/// # Examples
///
/// ```
/// use surakarta::{Move, MoveList, Position, Square};
///
/// let mut list = MoveList::new();
/// list.push(Move::step(Square::B2, Square::B3));
/// assert_eq!(list.len(), 1); // a slice of moves, through Deref
/// assert!(list.contains(&Move::step(Square::B2, Square::B3)));
///
/// let moves = Position::new().legal_moves();
/// let steps: Vec<String> = moves.iter().take(2).map(|m| m.to_string()).collect();
/// assert_eq!(steps.len(), 2);
/// assert!(moves.iter().all(|m| !m.is_capture()));
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline]
    #[must_use]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move(0); MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move. The list holds [`MAX_MOVES`], more than any legal
    /// position has; pushing beyond that is a bug in the caller: it panics
    /// in debug builds, and the move is dropped in release builds. Use
    /// [`MoveList::try_push`] to check.
    #[inline]
    pub fn push(&mut self, m: Move) {
        let pushed = self.try_push(m);
        debug_assert!(pushed.is_ok(), "MoveList::push beyond {MAX_MOVES} moves");
    }

    /// Appends a move, or gives it back if the list is full.
    #[inline]
    pub fn try_push(&mut self, m: Move) -> Result<(), Move> {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
            Ok(())
        } else {
            Err(m)
        }
    }

    /// Removes all moves.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[n] = m;
                n += 1;
            }
        }
        self.len = n;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &MoveList) -> bool {
        **self == **other
    }
}

impl Eq for MoveList {}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl IntoIterator for MoveList {
    type Item = Move;
    type IntoIter = IntoIter;
    fn into_iter(self) -> IntoIter {
        IntoIter {
            list: self,
            next: 0,
        }
    }
}

/// Owning iterator over a [`MoveList`].
#[derive(Clone, Debug)]
pub struct IntoIter {
    list: MoveList,
    next: usize,
}

impl Iterator for IntoIter {
    type Item = Move;
    #[inline]
    fn next(&mut self) -> Option<Move> {
        let m = self.list.get(self.next).copied();
        self.next += 1;
        m
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.list.len().saturating_sub(self.next);
        (n, Some(n))
    }
}

impl ExactSizeIterator for IntoIter {}

impl FromIterator<Move> for MoveList {
    fn from_iter<I: IntoIterator<Item = Move>>(iter: I) -> MoveList {
        let mut list = MoveList::new();
        for m in iter {
            list.push(m);
        }
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trip() {
        for from in Square::ALL {
            for to in Square::ALL {
                for m in [Move::step(from, to), Move::capture(from, to)] {
                    assert_eq!(m.from(), from);
                    assert_eq!(m.to(), to);
                    assert_eq!(Move::from_bits(m.to_bits()), Some(m));
                }
            }
        }
        assert_eq!(Move::from_bits(36), None);
        assert_eq!(Move::from_bits(1 << 13), None);
    }

    #[test]
    fn try_push_reports_a_full_list() {
        let mut list = MoveList::new();
        let m = Move::step(Square::A1, Square::B2);
        for _ in 0..MAX_MOVES {
            assert_eq!(list.try_push(m), Ok(()));
        }
        assert_eq!(list.try_push(m), Err(m));
        assert_eq!(list.len(), MAX_MOVES);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "beyond")]
    fn push_beyond_capacity_panics_in_debug_builds() {
        let mut list = MoveList::new();
        for _ in 0..=MAX_MOVES {
            list.push(Move::step(Square::A1, Square::B2));
        }
    }

    #[test]
    fn display() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(Move::step(sq("b2"), sq("c3")).to_string(), "b2-c3");
        assert_eq!(Move::capture(sq("b2"), sq("e5")).to_string(), "b2xe5");
    }

    #[test]
    fn list_push_retain() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let mut list = MoveList::new();
        for to in ["a3", "b3", "c3"] {
            list.push(Move::step(sq("b2"), sq(to)));
        }
        list.retain(|m| m.to() != sq("b3"));
        assert_eq!(list.len(), 2);
        let names: Vec<String> = list.into_iter().map(|m| m.to_string()).collect();
        assert_eq!(names, ["b2-a3", "b2-c3"]);
    }
}
