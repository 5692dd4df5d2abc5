//! The two sides.

use core::fmt;
use core::ops::Not;

/// A side: Black moves first and starts on ranks 1–2, White starts on ranks 5–6.
///
/// # Examples
///
/// ```
/// use surakarta::Color;
///
/// assert_eq!(!Color::Black, Color::White);
/// assert_eq!(Color::White.char(), 'w');
/// assert_eq!(Color::from_char('b'), Some(Color::Black));
/// assert_eq!("white".parse::<Color>(), Ok(Color::White));
/// assert_eq!(Color::Black.to_string(), "black");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    /// The side that starts on ranks 1 and 2 and moves first.
    Black = 0,
    /// The side that starts on ranks 5 and 6.
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// Index 0 for Black, 1 for White.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The notation letter: `b` or `w`.
    #[inline]
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }

    /// Parses the notation letter `b` or `w`.
    #[inline]
    #[must_use]
    pub const fn from_char(c: char) -> Option<Color> {
        match c {
            'b' => Some(Color::Black),
            'w' => Some(Color::White),
            _ => None,
        }
    }

    /// The lower-case English name, `"black"` or `"white"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error returned when a side cannot be parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("invalid side: expected b, w, black or white")]
pub struct ParseColorError;

impl core::str::FromStr for Color {
    type Err = ParseColorError;

    /// Parses the notation letter (`b`, `w`) or the name (`black`,
    /// `white`), as [`Color::char`] and [`Color::name`] write them.
    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        match s {
            "b" | "black" => Ok(Color::Black),
            "w" | "white" => Ok(Color::White),
            _ => Err(ParseColorError),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_letters_parse() {
        for c in Color::ALL {
            assert_eq!(c.to_string().parse::<Color>(), Ok(c));
            assert_eq!(c.char().to_string().parse::<Color>(), Ok(c));
        }
        for bad in ["", "B", "Black", "x", "bw"] {
            assert_eq!(bad.parse::<Color>(), Err(ParseColorError), "{bad:?}");
        }
    }
}
