//! Points of the 6×6 board.

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
            #[must_use]
            pub const fn new(index: u8) -> Option<$name> {
                if index < 6 {
                    Some($name(index))
                } else {
                    None
                }
            }

            #[doc = concat!("Index `0..6`, `", $first, "` = 0.")]
            #[inline]
            #[must_use]
            pub const fn index(self) -> u8 {
                self.0
            }

            #[doc = concat!("The character ", $range, ".")]
            #[inline]
            #[must_use]
            pub const fn char(self) -> char {
                match char::from_u32($first as u32 + self.0 as u32) {
                    Some(c) => c,
                    None => $first, // unreachable: the index is below 6
                }
            }

            #[doc = concat!("Parses a character ", $range, ".")]
            #[inline]
            #[must_use]
            pub const fn from_char(c: char) -> Option<$name> {
                let i = (c as u32).wrapping_sub($first as u32);
                if i < 6 {
                    Some($name(i as u8))
                } else {
                    None
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.char())
            }
        }

        impl FromStr for $name {
            type Err = ParseCoordinateError;

            #[doc = concat!("Parses one character ", $range, ".")]
            fn from_str(s: &str) -> Result<$name, ParseCoordinateError> {
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => $name::from_char(c).ok_or(ParseCoordinateError),
                    _ => Err(ParseCoordinateError),
                }
            }
        }
    };
}

/// Error returned when a file (`a`–`f`) or rank (`1`–`6`) cannot be parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("invalid file or rank: expected one of a-f or 1-6")]
pub struct ParseCoordinateError;

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
///
/// # Examples
///
/// ```
/// use surakarta::{File, Rank, Square};
///
/// let c3: Square = "c3".parse().unwrap();
/// assert_eq!(c3, Square::C3);
/// assert_eq!(c3.index(), 14);
/// assert_eq!((c3.file(), c3.rank()), ("c".parse::<File>().unwrap(), "3".parse::<Rank>().unwrap()));
/// assert_eq!(Square::from_coords(c3.file(), c3.rank()), c3);
/// assert!(Square::A1.is_corner() && !c3.is_corner());
/// assert!("g1".parse::<Square>().is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The point `a1`.
    pub const A1: Square = Square(0);
    /// The point `b1`.
    pub const B1: Square = Square(1);
    /// The point `c1`.
    pub const C1: Square = Square(2);
    /// The point `d1`.
    pub const D1: Square = Square(3);
    /// The point `e1`.
    pub const E1: Square = Square(4);
    /// The point `f1`.
    pub const F1: Square = Square(5);
    /// The point `a2`.
    pub const A2: Square = Square(6);
    /// The point `b2`.
    pub const B2: Square = Square(7);
    /// The point `c2`.
    pub const C2: Square = Square(8);
    /// The point `d2`.
    pub const D2: Square = Square(9);
    /// The point `e2`.
    pub const E2: Square = Square(10);
    /// The point `f2`.
    pub const F2: Square = Square(11);
    /// The point `a3`.
    pub const A3: Square = Square(12);
    /// The point `b3`.
    pub const B3: Square = Square(13);
    /// The point `c3`.
    pub const C3: Square = Square(14);
    /// The point `d3`.
    pub const D3: Square = Square(15);
    /// The point `e3`.
    pub const E3: Square = Square(16);
    /// The point `f3`.
    pub const F3: Square = Square(17);
    /// The point `a4`.
    pub const A4: Square = Square(18);
    /// The point `b4`.
    pub const B4: Square = Square(19);
    /// The point `c4`.
    pub const C4: Square = Square(20);
    /// The point `d4`.
    pub const D4: Square = Square(21);
    /// The point `e4`.
    pub const E4: Square = Square(22);
    /// The point `f4`.
    pub const F4: Square = Square(23);
    /// The point `a5`.
    pub const A5: Square = Square(24);
    /// The point `b5`.
    pub const B5: Square = Square(25);
    /// The point `c5`.
    pub const C5: Square = Square(26);
    /// The point `d5`.
    pub const D5: Square = Square(27);
    /// The point `e5`.
    pub const E5: Square = Square(28);
    /// The point `f5`.
    pub const F5: Square = Square(29);
    /// The point `a6`.
    pub const A6: Square = Square(30);
    /// The point `b6`.
    pub const B6: Square = Square(31);
    /// The point `c6`.
    pub const C6: Square = Square(32);
    /// The point `d6`.
    pub const D6: Square = Square(33);
    /// The point `e6`.
    pub const E6: Square = Square(34);
    /// The point `f6`.
    pub const F6: Square = Square(35);

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
    #[must_use]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 36 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The point at `file`, `rank`.
    #[inline]
    #[must_use]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 6 + file.0)
    }

    /// The point at file index `x` and rank index `y` (both `0..6`), or `None`.
    #[inline]
    #[must_use]
    pub const fn from_xy(x: i8, y: i8) -> Option<Square> {
        if x >= 0 && x < 6 && y >= 0 && y < 6 {
            Some(Square((y * 6 + x) as u8))
        } else {
            None
        }
    }

    /// Index `0..36`.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file of this point.
    #[inline]
    #[must_use]
    pub const fn file(self) -> File {
        File(self.0 % 6)
    }

    /// The rank of this point.
    #[inline]
    #[must_use]
    pub const fn rank(self) -> Rank {
        Rank(self.0 / 6)
    }

    /// True for the four corners `a1`, `f1`, `a6`, `f6`, which lie on no circuit.
    #[inline]
    #[must_use]
    pub const fn is_corner(self) -> bool {
        matches!(self.0, 0 | 5 | 30 | 35)
    }
}

/// Why a point name such as `c3` could not be read: what was wrong with it.
///
/// # Examples
///
/// ```
/// use surakarta::{ParseSquareError, Square};
///
/// assert_eq!("g1".parse::<Square>(), Err(ParseSquareError::BadFile('g')));
/// assert_eq!("a7".parse::<Square>(), Err(ParseSquareError::BadRank('7')));
/// assert_eq!(
///     ParseSquareError::BadRank('7').to_string(),
///     "invalid point ('7' is not a rank): expected a file a-f followed by a rank 1-6, like \"c3\""
/// );
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ParseSquareError {
    /// The text is empty.
    Empty,
    /// The first character is not a file `a`–`f`.
    BadFile(char),
    /// A file with nothing after it.
    MissingRank,
    /// The second character is not a rank `1`–`6`.
    BadRank(char),
    /// A file and a rank followed by more text.
    TooLong {
        /// The length of the whole text, in characters.
        len: usize,
    },
}

impl ParseSquareError {
    /// What is wrong, without the expectation: `'g' is not a file`; also
    /// used by [`crate::ParseMoveError`]'s messages.
    pub(crate) fn problem(&self) -> String {
        match self {
            ParseSquareError::Empty => "empty".to_string(),
            ParseSquareError::BadFile(c) => format!("{c:?} is not a file"),
            ParseSquareError::MissingRank => "no rank after the file".to_string(),
            ParseSquareError::BadRank(c) => format!("{c:?} is not a rank"),
            ParseSquareError::TooLong { len } => format!("{len} characters, not 2"),
        }
    }
}

impl fmt::Display for ParseSquareError {
    /// `invalid point ('g' is not a file): expected a file a-f followed by
    /// a rank 1-6, like "c3"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid point ({}): expected a file a-f followed by a rank 1-6, like \"c3\"",
            self.problem()
        )
    }
}

impl Square {
    /// The point named by a file character and a rank character.
    pub(crate) fn from_chars(file: char, rank: char) -> Result<Square, ParseSquareError> {
        let file = File::from_char(file).ok_or(ParseSquareError::BadFile(file))?;
        let rank = Rank::from_char(rank).ok_or(ParseSquareError::BadRank(rank))?;
        Ok(Square::from_coords(file, rank))
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Exactly a file `a`–`f` and a rank `1`–`6`: `c3`.
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        let file = chars.next().ok_or(ParseSquareError::Empty)?;
        if File::from_char(file).is_none() {
            return Err(ParseSquareError::BadFile(file));
        }
        let rank = chars.next().ok_or(ParseSquareError::MissingRank)?;
        let square = Square::from_chars(file, rank)?;
        if chars.next().is_some() {
            return Err(ParseSquareError::TooLong {
                len: s.chars().count(),
            });
        }
        Ok(square)
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
    fn errors_say_what_is_wrong() {
        use ParseSquareError::*;
        let cases = [
            ("", Empty),
            ("a", MissingRank),
            ("a0", BadRank('0')),
            ("a7", BadRank('7')),
            ("g1", BadFile('g')),
            ("A1", BadFile('A')),
            ("é1", BadFile('é')),
            ("aé", BadRank('é')),
            ("a1 ", TooLong { len: 3 }),
            ("c3c4", TooLong { len: 4 }),
            ("hello", BadFile('h')),
        ];
        for (text, expected) in cases {
            assert_eq!(text.parse::<Square>(), Err(expected), "{text:?}");
        }
        let message = |text: &str| text.parse::<Square>().unwrap_err().to_string();
        let tail = ": expected a file a-f followed by a rank 1-6, like \"c3\"";
        assert_eq!(
            message("g1"),
            format!("invalid point ('g' is not a file){tail}")
        );
        assert_eq!(
            message("a7"),
            format!("invalid point ('7' is not a rank){tail}")
        );
        assert_eq!(message(""), format!("invalid point (empty){tail}"));
        assert_eq!(
            message("a"),
            format!("invalid point (no rank after the file){tail}")
        );
        assert_eq!(
            message("a1 "),
            format!("invalid point (3 characters, not 2){tail}")
        );
        assert_eq!(
            message("b\n"),
            format!("invalid point ('\\n' is not a rank){tail}")
        );
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
