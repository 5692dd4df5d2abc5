#![doc = include_str!("../README.md")]
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[allow(unsafe_code)] // The BMI2 intrinsics and their dispatch: all of the crate's `unsafe`.
mod bits;
mod burnside;
mod combinatorics;
mod directory;
mod material;
mod plain;
mod symmetric;

use core::fmt;
use core::str::FromStr;
use surakarta::Excerpt;

pub use burnside::{occupancy_orbits, position_orbits};
pub use directory::OccupancyDirectory;
pub use material::{Material, Sides};
pub use plain::{PlainIndexer, PlainPositions};
pub use surakarta::Symmetry;
pub use symmetric::{canonical_form, StepRanks, SymmetricIndexer, SymmetricPositions};

/// Why a position or an index was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum IndexError {
    /// A material class needs 1 to 12 pieces on each side.
    #[error("invalid material {us}v{them}: each side needs 1 to 12 pieces")]
    InvalidMaterial {
        /// Pieces of the side to move.
        us: u32,
        /// Pieces of the other side.
        them: u32,
    },
    /// A material class written other than as `AvB`, e.g. `4v3`.
    #[error("invalid material {text}: expected pieces of the side to move, `v`, pieces of the other side, e.g. 4v3")]
    MaterialSyntax {
        /// The rejected text.
        text: Excerpt,
    },
    /// The position's piece counts differ from the indexer's material.
    #[error("position has material {us}v{them}, the index is for {expected}")]
    MaterialMismatch {
        /// The indexer's material.
        expected: Material,
        /// Pieces of the side to move in the position.
        us: u32,
        /// Pieces of the other side in the position.
        them: u32,
    },
    /// A point holds pieces of both sides.
    #[error("a point holds pieces of both sides")]
    Overlap,
    /// A bitboard has bits above the 36 points of the board.
    #[error("a bitboard has bits outside the board")]
    OffBoard,
    /// An index at or beyond the size of the index space.
    #[error("index {index} is out of range for {material} (size {size})")]
    OutOfRange {
        /// The rejected index.
        index: u64,
        /// The indexer's material.
        material: Material,
        /// The number of slots.
        size: u64,
    },
    /// A slot of the symmetric scheme that no position maps to (a colour
    /// pattern on a symmetric occupancy that is not its pattern's
    /// representative).
    #[error("index {index} is an unused slot of the symmetric index for {material}")]
    UnusedSlot {
        /// The rejected index.
        index: u64,
        /// The indexer's material.
        material: Material,
    },
    /// The directory of canonical occupancies was built for another piece count.
    #[error(
        "the occupancy directory is for {directory} pieces, the material {material} has {pieces}"
    )]
    DirectoryMismatch {
        /// Pieces the directory was built for.
        directory: u32,
        /// The requested material.
        material: Material,
        /// Its piece count.
        pieces: u32,
    },
}

/// An index and the symmetry that maps the ranked position onto the position
/// stored at that index (the identity for the plain scheme).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ranked {
    /// The slot.
    pub index: u64,
    /// `sides.transformed(symmetry) == unrank(index)`.
    pub symmetry: Symmetry,
}

/// A bijection between the positions of one material class (up to
/// symmetry, for the symmetric scheme) and the slots `0..size()`.
///
/// # Examples
///
/// ```
/// use surakarta_index::{Indexer, Material, PlainIndexer, SymmetricIndexer};
///
/// /// Checks that every used slot of an indexer ranks back to itself.
/// fn round_trips(indexer: &dyn Indexer) -> bool {
///     (0..indexer.size()).all(|i| match indexer.unrank(i) {
///         Ok(sides) => indexer.rank(sides).map(|r| r.index) == Ok(i),
///         Err(_) => true, // an unused slot of the symmetric scheme
///     })
/// }
/// let material = Material::new(1, 1)?;
/// assert!(round_trips(&PlainIndexer::new(material)));
/// assert!(round_trips(&SymmetricIndexer::new(material)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Indexer {
    /// The material class.
    #[must_use]
    fn material(&self) -> Material;

    /// The number of slots.
    #[must_use]
    fn size(&self) -> u64;

    /// The slot of a position, with the symmetry that maps it onto the
    /// position stored there. Fails if the sides do not fit the board or the
    /// material.
    fn rank(&self, sides: Sides) -> Result<Ranked, IndexError>;

    /// The position stored in a slot. Fails for an index out of range and,
    /// in the symmetric scheme, for an unused slot.
    fn unrank(&self, index: u64) -> Result<Sides, IndexError>;
}

/// The indexing schemes.
///
/// # Examples
///
/// ```
/// use surakarta_index::{Material, Scheme};
///
/// let material: Material = "3v2".parse()?;
/// assert_eq!("symmetric".parse::<Scheme>()?, Scheme::Symmetric);
/// assert_eq!(Scheme::Plain.size(material), 376_992 * 10); // C(36, 5) · C(5, 3)
/// assert!(Scheme::Symmetric.size(material) < Scheme::Plain.size(material) / 7);
/// assert_eq!(Scheme::default().name(), Scheme::default().to_string());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Scheme {
    /// [`PlainIndexer`]: the paper's index, `C(36, n) · C(n, a)` slots.
    Plain,
    /// [`SymmetricIndexer`]: one slot per orbit under the board's eight
    /// symmetries (plus a small waste), about an eighth of the plain size.
    #[default]
    Symmetric,
}

impl Scheme {
    /// The scheme's name: `plain` or `symmetric`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Scheme::Plain => "plain",
            Scheme::Symmetric => "symmetric",
        }
    }

    /// The number of slots of `material`'s index in this scheme (what
    /// [`Indexer::size`] of its indexer returns), computed without building
    /// the indexer: `C(36, n) · C(n, a)` for the plain scheme,
    /// [`occupancy_orbits`]`(n) · C(n, a)` for the symmetric one (one slot
    /// per canonical occupied set and colour pattern). Cheap for every
    /// class (up to 12 v 12, well within `u64`), where building a 12-piece
    /// directory takes seconds and 150 MiB.
    #[must_use]
    pub fn size(self, material: Material) -> u64 {
        let patterns = combinatorics::binomial(material.pieces(), material.us());
        let sets = match self {
            Scheme::Plain => combinatorics::binomial(36, material.pieces()),
            Scheme::Symmetric => occupancy_orbits(material.pieces()),
        };
        sets * patterns
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown scheme name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown index scheme {0}: expected `plain` or `symmetric`")]
pub struct ParseSchemeError(Excerpt);

impl FromStr for Scheme {
    type Err = ParseSchemeError;

    fn from_str(s: &str) -> Result<Scheme, ParseSchemeError> {
        match s {
            "plain" => Ok(Scheme::Plain),
            "symmetric" => Ok(Scheme::Symmetric),
            _ => Err(ParseSchemeError(Excerpt::new(s))),
        }
    }
}
