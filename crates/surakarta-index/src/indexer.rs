//! [`Indexer`], what both schemes' indexers are, and [`Ranked`], the slot
//! of a position with its symmetry.

use crate::material::{Material, Sides};
use crate::IndexError;
use surakarta::Symmetry;

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
