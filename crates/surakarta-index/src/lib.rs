#![doc = include_str!("../README.md")]
//!
//! ## Modules
//!
//! All modules are private; their public items are re-exported at the root.
//!
//! | module | what it holds |
//! |---|---|
//! | crate root | the module list and re-exports, and [`IndexError`] (why a position, a material class or an index was rejected): it names materials and `material` fails with it, so in a module of its own the two would import each other |
//! | `indexer` | the common trait [`Indexer`] (`material`, `size`, `rank` → [`Ranked`] `{ index, symmetry }`, `unrank`) that both schemes implement |
//! | `scheme` | [`Scheme`] (`plain`, `symmetric`) by name, for file headers and the command line, with [`ParseSchemeError`]; [`Scheme::size`] gives a class's slot count without building its indexer |
//! | `material` | [`Material`] (`4v3`: pieces of the side to move v the other side), [`Sides`] `{ us, them }` |
//! | `combinatorics` | binomials, colex rank and unrank of 36-bit sets six bits at a time, Gosper's and masked-subset successors |
//! | `bits` | PEXT/PDEP by tables (the 6-bit `PEXT6`/`PDEP6` tables) or by BMI2 (`BitCompress`); the `Bmi2` token, made only by run-time detection (BMI2 and POPCNT, not an AMD CPU before Zen 3; examined once per process); `dispatch` to code compiled for BMI2. All of the crate's `unsafe` |
//! | `plain` | [`PlainIndexer`]: `colex(occupied) · C(n, a) + colex(pattern)`; enumeration in index order, [`PlainPositions`] |
//! | `directory` | [`OccupancyDirectory`]: a bitmap over the colex ranks of the `n`-point sets marking the canonical ones (least of their eight images), with rank and select; the eight images of a set in the wide layout (rank `r` in byte `r`) |
//! | `symmetric` | [`SymmetricIndexer`], [`canonical_form`], enumeration of the used slots ([`SymmetricPositions`]), [`StepRanks`] (the ranks of the positions one step from a base position, from the base's eight images with two bits toggled) |
//! | `burnside` | exact orbit counts by Burnside's lemma: [`position_orbits`], [`occupancy_orbits`] |
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[allow(unsafe_code)] // The BMI2 intrinsics and their dispatch: all of the crate's `unsafe`.
mod bits;
mod burnside;
mod combinatorics;
mod directory;
mod indexer;
mod material;
mod plain;
mod scheme;
mod symmetric;

pub use burnside::{occupancy_orbits, position_orbits};
pub use directory::OccupancyDirectory;
pub use indexer::{Indexer, Ranked};
pub use material::{Material, Sides};
pub use plain::{PlainIndexer, PlainPositions};
pub use scheme::{ParseSchemeError, Scheme};
pub use surakarta::Symmetry;
pub use symmetric::{
    canonical_form, OccupancyImages, OccupancyRank, SideImages, StepRanks, SymmetricIndexer,
    SymmetricPositions,
};

// IndexError is defined here, not in a module of its own: it names
// materials and `material` returns it, so the two would import each other.
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
        text: surakarta::Excerpt,
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
    /// An occupied set's number of points differs from the material's
    /// pieces.
    #[error("{pieces} occupied points, the index for {material} needs {}", material.pieces())]
    OccupancyMismatch {
        /// The indexer's material.
        material: Material,
        /// The points given.
        pieces: u32,
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
