//! Material classes and positions as seen from the side to move.

use crate::IndexError;
use core::fmt;
use core::str::FromStr;
use surakarta::{Bitboard, Excerpt, Position, Symmetry, MAX_PIECES_PER_SIDE};

/// A material class: the number of pieces of the side to move (`us`) and of
/// the other side (`them`), each `1..=12`. Written `4v3`.
///
/// Both sides' pieces move alike, so one class serves Black to move and White
/// to move.
///
/// # Examples
///
/// ```
/// use surakarta_index::Material;
///
/// let m: Material = "4v3".parse()?;
/// assert_eq!((m.us(), m.them(), m.pieces()), (4, 3, 7));
/// assert_eq!(m.swapped().to_string(), "3v4"); // where a quiet move leads
/// // After a capture the other side, one piece down, is to move.
/// assert_eq!(m.after_capture(), Some(Material::new(2, 4)?));
/// assert_eq!(Material::with_pieces(3).count(), 2); // 2v1 and 1v2
/// assert!("13v1".parse::<Material>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Material {
    us: u8,
    them: u8,
}

impl Material {
    /// The class with `us` pieces for the side to move and `them` for the
    /// other side; both must be `1..=12`.
    pub const fn new(us: u32, them: u32) -> Result<Material, IndexError> {
        let max = MAX_PIECES_PER_SIDE;
        if us == 0 || them == 0 || us > max || them > max {
            return Err(IndexError::InvalidMaterial { us, them });
        }
        Ok(Material {
            us: us as u8,
            them: them as u8,
        })
    }

    /// The class of the given sides.
    pub fn of(sides: Sides) -> Result<Material, IndexError> {
        Material::new(sides.us.len(), sides.them.len())
    }

    /// Pieces of the side to move.
    #[inline]
    #[must_use]
    pub const fn us(self) -> u32 {
        self.us as u32
    }

    /// Pieces of the other side.
    #[inline]
    #[must_use]
    pub const fn them(self) -> u32 {
        self.them as u32
    }

    /// Pieces on the board.
    #[inline]
    #[must_use]
    pub const fn pieces(self) -> u32 {
        self.us as u32 + self.them as u32
    }

    /// The class with the sides exchanged: where quiet moves lead.
    #[inline]
    #[must_use]
    pub const fn swapped(self) -> Material {
        Material {
            us: self.them,
            them: self.us,
        }
    }

    /// The class a capture leads to: `(them − 1) v us` (the opponent, one
    /// piece fewer, to move), or `None` after capturing the last piece.
    #[inline]
    #[must_use]
    pub fn after_capture(self) -> Option<Material> {
        Material::new(self.them() - 1, self.us()).ok()
    }

    /// Every class with exactly `pieces` pieces, the side to move's count
    /// descending (`4v1, 3v2, 2v3, 1v4` for five).
    pub fn with_pieces(pieces: u32) -> impl Iterator<Item = Material> {
        (1..pieces)
            .rev()
            .filter_map(move |us| Material::new(us, pieces - us).ok())
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.us, self.them)
    }
}

impl fmt::Debug for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Material({self})")
    }
}

impl FromStr for Material {
    type Err = IndexError;

    /// Parses `AvB` (also `AVB`), e.g. `4v3`.
    fn from_str(s: &str) -> Result<Material, IndexError> {
        let syntax = || IndexError::MaterialSyntax {
            text: Excerpt::new(s),
        };
        let (us, them) = s.split_once(['v', 'V']).ok_or_else(syntax)?;
        let count = |t: &str| -> Result<u32, IndexError> {
            if t.is_empty() || t.len() > 2 || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            t.parse().map_err(|_| syntax())
        };
        Material::new(count(us)?, count(them)?)
    }
}

/// The pieces of a position relative to the side to move: `us` moves next.
/// This is all a table stores: the colour to move does not matter.
///
/// # Examples
///
/// ```
/// use surakarta::{Bitboard, Position, Square};
/// use surakarta_index::{Material, Sides};
///
/// let position: Position = "6/1w4/6/6/1b4/6 w".parse()?;
/// let sides = Sides::of(&position); // seen from White, to move
/// assert_eq!(sides.us, Bitboard::from_square(Square::B5));
/// assert_eq!(sides.them, Bitboard::from_square(Square::B2));
/// assert_eq!(sides.occupied().len(), 2);
/// assert_eq!(Material::of(sides)?.to_string(), "1v1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Sides {
    /// Pieces of the side to move.
    pub us: Bitboard,
    /// Pieces of the other side.
    pub them: Bitboard,
}

impl Sides {
    /// Sides from the two sets.
    #[inline]
    #[must_use]
    pub const fn new(us: Bitboard, them: Bitboard) -> Sides {
        Sides { us, them }
    }

    /// The sides of a position.
    #[inline]
    #[must_use]
    pub fn of(position: &Position) -> Sides {
        Sides {
            us: position.us(),
            them: position.them(),
        }
    }

    /// All occupied points.
    #[inline]
    #[must_use]
    pub fn occupied(self) -> Bitboard {
        self.us | self.them
    }

    /// The image under a symmetry.
    #[inline]
    #[must_use]
    pub fn transformed(self, sym: Symmetry) -> Sides {
        Sides {
            us: sym.bitboard(self.us),
            them: sym.bitboard(self.them),
        }
    }

    /// Checks that the sides fit on the board without overlap and have the
    /// given material.
    #[inline]
    pub(crate) fn check(self, material: Material) -> Result<(), IndexError> {
        let (us, them) = (self.us.bits(), self.them.bits());
        if (us | them) >> 36 != 0 {
            return Err(IndexError::OffBoard);
        }
        if us & them != 0 {
            return Err(IndexError::Overlap);
        }
        let (a, b) = (us.count_ones(), them.count_ones());
        if a != material.us() || b != material.them() {
            return Err(IndexError::MaterialMismatch {
                expected: material,
                us: a,
                them: b,
            });
        }
        Ok(())
    }
}

impl From<&Position> for Sides {
    fn from(position: &Position) -> Sides {
        Sides::of(position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let m: Material = "4v3".parse().unwrap();
        assert_eq!((m.us(), m.them(), m.pieces()), (4, 3, 7));
        assert_eq!(m.to_string(), "4v3");
        assert_eq!(m.swapped().to_string(), "3v4");
        assert_eq!(m.after_capture().map(|t| t.to_string()), Some("2v4".into()));
        assert_eq!("3v1".parse::<Material>().unwrap().after_capture(), None);
        assert_eq!("12V1".parse::<Material>().unwrap().to_string(), "12v1");
        for bad in [
            "", "4", "v3", "4v", "4x3", "+4v3", "4v3v1", "0v3", "13v1", "100v1",
        ] {
            assert!(bad.parse::<Material>().is_err(), "{bad:?}");
        }
        // Long text is cut in the message, which says how long it was.
        let long = format!("4v{}", "3".repeat(100_000));
        let message = long.parse::<Material>().unwrap_err().to_string();
        assert!(
            message.starts_with(&format!(
                "invalid material \"4v{}…\" (100002 bytes): ",
                "3".repeat(78)
            )),
            "{message}"
        );
    }

    #[test]
    fn classes_with_a_piece_count() {
        let names: Vec<String> = Material::with_pieces(5).map(|m| m.to_string()).collect();
        assert_eq!(names, ["4v1", "3v2", "2v3", "1v4"]);
        assert_eq!(Material::with_pieces(1).count(), 0);
        assert_eq!(Material::with_pieces(24).count(), 1);
        assert_eq!(Material::with_pieces(25).count(), 0);
    }
}
