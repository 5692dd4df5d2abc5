//! Sets of points as 36 bits of a `u64`.

use crate::square::Square;
use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// A set of points: bit `i` stands for the point with index `i`. Bits 36..64
/// are always zero (the field is private, and every constructor keeps it
/// so).
///
/// # Examples
///
/// ```
/// use surakarta::{Bitboard, Square};
///
/// let set = Bitboard::from_square(Square::A1) | Bitboard::from_square(Square::C3);
/// assert_eq!(set.len(), 2);
/// assert!(set.contains(Square::C3));
/// let squares: Vec<Square> = set.into_iter().collect();
/// assert_eq!(squares, [Square::A1, Square::C3]);
/// assert_eq!(Bitboard::new(1 << 40), None); // off the board
/// assert_eq!(Bitboard::from_bits_truncate(1 << 40 | 1).len(), 1);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Bitboard(u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 36 points.
    pub const FULL: Bitboard = Bitboard((1 << 36) - 1);
    /// File `a`.
    pub const FILE_A: Bitboard = Bitboard(0x041041041);
    /// File `f`.
    pub const FILE_F: Bitboard = Bitboard(0x041041041 << 5);
    /// Rank 1.
    pub const RANK_1: Bitboard = Bitboard(0x3f);
    /// Rank 6.
    pub const RANK_6: Bitboard = Bitboard(0x3f << 30);
    /// The four corners, which lie on no circuit.
    pub const CORNERS: Bitboard = Bitboard(1 | 1 << 5 | 1 << 30 | 1 << 35);

    /// The set holding only `sq`.
    #[inline]
    #[must_use]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// The set of the given raw bits, or `None` if a bit above 35 is set.
    #[inline]
    #[must_use]
    pub const fn new(bits: u64) -> Option<Bitboard> {
        if bits & !Bitboard::FULL.0 == 0 {
            Some(Bitboard(bits))
        } else {
            None
        }
    }

    /// The set of the given raw bits with the bits above 35 dropped.
    #[inline]
    #[must_use]
    pub const fn from_bits_truncate(bits: u64) -> Bitboard {
        Bitboard(bits & Bitboard::FULL.0)
    }

    /// The raw bits: bit `i` for the point with index `i`, none above 35.
    #[inline]
    #[must_use]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Iterates over the points of the set, lowest index first.
    #[inline]
    #[must_use]
    pub const fn iter(self) -> Squares {
        Squares(self.0)
    }

    /// Whether `sq` is in the set.
    #[inline]
    #[must_use]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Number of points in the set.
    #[inline]
    #[must_use]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set is non-empty.
    #[inline]
    #[must_use]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The lowest point, if any.
    #[inline]
    #[must_use]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Square::new(self.0.trailing_zeros() as u8)
        }
    }

    /// The set with `sq` added.
    #[inline]
    #[must_use]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    /// The set with `sq` removed.
    #[inline]
    #[must_use]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// Adds `sq`.
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0 |= 1 << sq.index();
    }

    /// Removes `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !(1 << sq.index());
    }

    /// Toggles `sq`.
    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1 << sq.index();
    }

    /// Iterates over every subset of this set (including the empty set and the
    /// set itself), by the carry-rippler trick: `2^count` subsets.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Bitboard, Square};
    ///
    /// let set: Bitboard = [Square::A1, Square::B2, Square::C3].into_iter().collect();
    /// assert_eq!(set.subsets().count(), 8);
    /// assert!(set.subsets().all(|s| (s - set).is_empty()));
    /// ```
    #[inline]
    #[must_use]
    pub fn subsets(self) -> Subsets {
        Subsets {
            set: self.0,
            next: Some(0),
        }
    }

    /// All points one step away from the set in any of the eight directions
    /// (the set itself excluded only where no other member reaches it).
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Bitboard, Square};
    ///
    /// let corner = Bitboard::from_square(Square::A1);
    /// let expected: Bitboard = [Square::B1, Square::A2, Square::B2].into_iter().collect();
    /// assert_eq!(corner.neighbours(), expected);
    /// ```
    #[inline]
    #[must_use]
    pub const fn neighbours(self) -> Bitboard {
        let b = self.0;
        let not_a = !Bitboard::FILE_A.0;
        let not_f = !Bitboard::FILE_F.0;
        let east = (b & not_f) << 1;
        let west = (b & not_a) >> 1;
        let row = b | east | west;
        Bitboard(((row << 6 | row >> 6) | east | west) & Bitboard::FULL.0)
    }
}

/// Iterator over the points of a [`Bitboard`], lowest first.
/// Iterator over the points of a [`Bitboard`], lowest index first; see
/// [`Bitboard::iter`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::new(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        sq
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}
impl core::iter::FusedIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    #[inline]
    fn into_iter(self) -> Squares {
        self.iter()
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

/// Iterator over the subsets of a [`Bitboard`]; see [`Bitboard::subsets`].
#[derive(Debug, Clone)]
pub struct Subsets {
    set: u64,
    next: Option<u64>,
}

impl Iterator for Subsets {
    type Item = Bitboard;

    #[inline]
    fn next(&mut self) -> Option<Bitboard> {
        let current = self.next?;
        let following = current.wrapping_sub(self.set) & self.set;
        self.next = if following == 0 {
            None
        } else {
            Some(following)
        };
        Some(Bitboard(current))
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bit_ops {
    ($($trait:ident $fn:ident $assign_trait:ident $assign_fn:ident $op:tt;)*) => {$(
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    )*};
}

bit_ops! {
    BitAnd bitand BitAndAssign bitand_assign &;
    BitOr bitor BitOrAssign bitor_assign |;
    BitXor bitxor BitXorAssign bitxor_assign ^;
}

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference.
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 36 points.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the set as a 6×6 grid, rank 6 on top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#011x})", self.0)?;
        for rank in (0..6).rev() {
            for file in 0..6 {
                let bit = self.0 >> (rank * 6 + file) & 1;
                f.write_str(if bit == 1 { " X" } else { " ." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants() {
        let file_a: Bitboard = Square::ALL
            .into_iter()
            .filter(|s| s.file().index() == 0)
            .collect();
        let file_f: Bitboard = Square::ALL
            .into_iter()
            .filter(|s| s.file().index() == 5)
            .collect();
        assert_eq!(file_a, Bitboard::FILE_A);
        assert_eq!(file_f, Bitboard::FILE_F);
        assert_eq!(Bitboard::FULL.len(), 36);
        assert_eq!(Bitboard::CORNERS.len(), 4);
        assert!(Bitboard::CORNERS.into_iter().all(Square::is_corner));
    }

    #[test]
    fn neighbours_match_coordinates() {
        for sq in Square::ALL {
            let expected: Bitboard = Square::ALL
                .into_iter()
                .filter(|t| {
                    let dx = (t.file().index() as i8 - sq.file().index() as i8).abs();
                    let dy = (t.rank().index() as i8 - sq.rank().index() as i8).abs();
                    dx.max(dy) == 1
                })
                .collect();
            assert_eq!(Bitboard::from_square(sq).neighbours(), expected, "{sq}");
        }
    }

    #[test]
    fn subsets_are_all_distinct_subsets() {
        let set = Bitboard(0b1011_0000_0100_0001);
        let subs: Vec<Bitboard> = set.subsets().collect();
        assert_eq!(subs.len(), 1 << set.len());
        let mut sorted = subs.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), subs.len());
        assert!(subs.iter().all(|s| (*s - set).is_empty()));
        assert_eq!(Bitboard::EMPTY.subsets().count(), 1);
    }

    #[test]
    fn iteration_lowest_first() {
        let b = Bitboard(1 << 3 | 1 << 17 | 1 << 35);
        let v: Vec<usize> = b.iter().map(|s| s.index()).collect();
        assert_eq!(v, [3, 17, 35]);
        assert_eq!(b.len(), 3);
    }
}
