//! Points of the 6×6 board.

use crate::excerpt::Excerpt;
use core::fmt;
use core::str::FromStr;

/// Defines a board coordinate type (`File` or `Rank`): six values, indexed
/// `0..6`, written as one character from `$first`.
macro_rules! coordinate {
    ($(#[$doc:meta])* $name:ident, $first:literal, $what:literal, $range:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(u8);

        impl $name {
            #[doc = concat!("All six ", $what, "s, `", $first, "` first.")]
            pub const ALL: [$name; 6] = [$name(0), $name(1), $name(2), $name(3), $name(4), $name(5)];

            #[doc = concat!("The ", $what, " with index `0..6` (`", $first, "` = 0), or `None`.")]
            #[inline]
            pub const fn new(index: u8) -> Option<$name> {
                if index < 6 {
                    Some($name(index))
                } else {
                    None
                }
            }

            #[doc = concat!("Index `0..6`, `", $first, "` = 0.")]
            #[inline]
            pub const fn index(self) -> u8 {
                self.0
            }

            #[doc = concat!("The character ", $range, ".")]
            #[inline]
            pub const fn char(self) -> char {
                match char::from_u32($first as u32 + self.0 as u32) {
                    Some(c) => c,
                    None => $first, // unreachable: the index is below 6
                }
            }

            #[doc = concat!("Parses a character ", $range, ".")]
            #[inline]
            pub const fn from_char(c: char) -> Option<$name> {
                let i = (c as u32).wrapping_sub($first as u32);
                if i < 6 {
                    Some($name(i as u8))
                } else {
                    None
                }
            }
        }
    };
}

coordinate!(
    /// A file (column) `a`–`f`.
    File, 'a', "file", "`a`–`f`"
);
coordinate!(
    /// A rank (row) `1`–`6`.
    Rank, '1', "rank", "`1`–`6`"
);

/// One of the 36 points, numbered `a1 = 0, b1 = 1, …, f1 = 5, a2 = 6, …, f6 = 35`
/// (index = 6 · rank + file).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// Number of points on the board.
    pub const COUNT: usize = 36;

    /// All 36 points in index order.
    pub const ALL: [Square; 36] = {
        let mut all = [Square(0); 36];
        let mut i = 0;
        while i < 36 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The point with index `0..36`, or `None`.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 36 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The point at `file`, `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 6 + file.0)
    }

    /// The point at file index `x` and rank index `y` (both `0..6`), or `None`.
    #[inline]
    pub const fn from_xy(x: i8, y: i8) -> Option<Square> {
        if x >= 0 && x < 6 && y >= 0 && y < 6 {
            Some(Square((y * 6 + x) as u8))
        } else {
            None
        }
    }

    /// Index `0..36`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file of this point.
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 % 6)
    }

    /// The rank of this point.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 / 6)
    }

    /// True for the four corners `a1`, `f1`, `a6`, `f6`, which lie on no circuit.
    #[inline]
    pub const fn is_corner(self) -> bool {
        matches!(self.0, 0 | 5 | 30 | 35)
    }

    /// Parses a point from the first two bytes of `s` (`"c3"`), for parsers.
    pub(crate) fn parse_prefix(s: &[u8]) -> Option<Square> {
        match s {
            [f, r, ..] => Some(Square::from_coords(
                File::from_char(*f as char)?,
                Rank::from_char(*r as char)?,
            )),
            _ => None,
        }
    }
}

/// Error returned when a point name such as `c3` cannot be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid point {0}: expected a file a-f followed by a rank 1-6, like \"c3\"")]
pub struct ParseSquareError(pub Excerpt);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        if s.len() == 2 {
            if let Some(sq) = Square::parse_prefix(s.as_bytes()) {
                return Ok(sq);
            }
        }
        Err(ParseSquareError(Excerpt::new(s)))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
        assert_eq!("f6".parse::<Square>().unwrap().index(), 35);
        assert_eq!("c2".parse::<Square>().unwrap().index(), 8);
        for bad in ["", "a", "a0", "a7", "g1", "A1", "a1 ", "é1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn corners() {
        let corners: Vec<String> = Square::ALL
            .iter()
            .filter(|s| s.is_corner())
            .map(|s| s.to_string())
            .collect();
        assert_eq!(corners, ["a1", "f1", "a6", "f6"]);
    }
}
