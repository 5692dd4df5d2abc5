//! The symmetry-reduced index: one slot per orbit of positions under the
//! eight symmetries of the board (up to a small, measured waste).
//!
//! A position's representative is found in two steps. First its occupied set
//! is mapped to the least of its eight images (the canonical set). If only
//! one symmetry does that, the representative is that image of the position;
//! if several do (the occupied set is symmetric), the one that makes the side
//! to move's set least is taken. The index is then
//! `rank(canonical set) · C(n, a) + colex(pattern)`, where the rank counts
//! canonical sets only (an [`OccupancyDirectory`]).
//!
//! Slots whose pattern on a symmetric occupied set is not the least of its
//! images are unused: [`Indexer::unrank`] reports them as
//! [`IndexError::UnusedSlot`]. [`position_orbits`](crate::position_orbits)
//! counts the used slots exactly.

use crate::combinatorics::{
    binomial, colex_rank, colex_rank_24, colex_unrank, highest_bits, lowest_bits,
    next_subset_within, pdep, pext,
};
use crate::directory::{orbit, OccupancyDirectory};
use crate::error::IndexError;
use crate::material::{Material, Sides};
use crate::{Indexer, Ranked};
use std::sync::Arc;
use surakarta::{Bitboard, Symmetry};

/// The representative of a position's orbit and the symmetry that maps the
/// position onto it (`sides.transformed(symmetry) == representative`).
#[inline]
pub fn canonical_form(sides: Sides) -> (Sides, Symmetry) {
    let occupied = sides.us.0 | sides.them.0;
    let (canonical, symmetry) = canonical_occupancy(occupied, sides.us.0);
    let us = symmetry.bitboard(sides.us).0;
    let form = Sides::new(Bitboard(us), Bitboard(canonical ^ us));
    (form, symmetry)
}

/// The least image of `occupied` and the symmetry giving the representative
/// of the position whose side to move holds `us`.
#[inline]
fn canonical_occupancy(occupied: u64, us: u64) -> (u64, Symmetry) {
    let images = orbit(occupied);
    let mut best = images[0] << 3;
    for (s, &image) in images.iter().enumerate().skip(1) {
        best = best.min(image << 3 | s as u64);
    }
    let canonical = best >> 3;
    let first = (best & 7) as usize;
    let mut symmetry = Symmetry::ALL[first];
    // Symmetric occupied sets: several symmetries reach the least image;
    // take the one that gives the least set for the side to move.
    if images[first + 1..].contains(&canonical) {
        let mut best_us = symmetry.bitboard(Bitboard(us)).0;
        for (s, &image) in images.iter().enumerate().skip(first + 1) {
            if image == canonical {
                let candidate = Symmetry::ALL[s].bitboard(Bitboard(us)).0;
                if candidate < best_us {
                    best_us = candidate;
                    symmetry = Symmetry::ALL[s];
                }
            }
        }
    }
    (canonical, symmetry)
}

/// The symmetries other than the identity that fix the set `occupied`.
#[inline]
fn stabilizer(occupied: u64) -> ([Symmetry; 7], usize) {
    let images = orbit(occupied);
    let mut list = [Symmetry::IDENTITY; 7];
    let mut len = 0;
    for (s, &image) in images.iter().enumerate().skip(1) {
        if image == occupied {
            list[len] = Symmetry::ALL[s];
            len += 1;
        }
    }
    (list, len)
}

/// Whether `us` is the least of its images under the given symmetries.
#[inline]
fn is_least_pattern(us: u64, stabilizer: &[Symmetry]) -> bool {
    stabilizer
        .iter()
        .all(|sym| sym.bitboard(Bitboard(us)).0 >= us)
}

/// The symmetric index of one material class; see the [module](self) docs.
#[derive(Clone, Debug)]
pub struct SymmetricIndexer {
    material: Material,
    directory: Arc<OccupancyDirectory>,
    patterns: u64,
    size: u64,
}

impl SymmetricIndexer {
    /// The indexer for `material`, building its [`OccupancyDirectory`] (fast
    /// up to 8 pieces, seconds for 10; share one directory between the
    /// classes of a piece count with [`SymmetricIndexer::with_directory`]).
    pub fn new(material: Material) -> SymmetricIndexer {
        let directory = Arc::new(OccupancyDirectory::build(material.pieces()));
        SymmetricIndexer::build(material, directory)
    }

    /// The indexer for `material` over a directory built for its piece count.
    pub fn with_directory(
        material: Material,
        directory: Arc<OccupancyDirectory>,
    ) -> Result<SymmetricIndexer, IndexError> {
        if directory.pieces() != material.pieces() {
            return Err(IndexError::DirectoryMismatch {
                directory: directory.pieces(),
                material,
                pieces: material.pieces(),
            });
        }
        Ok(SymmetricIndexer::build(material, directory))
    }

    fn build(material: Material, directory: Arc<OccupancyDirectory>) -> SymmetricIndexer {
        let patterns = binomial(material.pieces(), material.us());
        SymmetricIndexer {
            material,
            size: directory.canonical_count() * patterns,
            directory,
            patterns,
        }
    }

    /// The directory of canonical occupied sets.
    pub fn directory(&self) -> &Arc<OccupancyDirectory> {
        &self.directory
    }

    /// The index of `sides` and the symmetry that maps it to its
    /// representative; `sides` must match the material and lie on the board
    /// without overlap, the result is unspecified otherwise (checked in debug
    /// builds). See [`Indexer::rank`] for the checked version.
    #[inline]
    pub fn rank_unchecked(&self, sides: Sides) -> Ranked {
        debug_assert!(sides.check(self.material).is_ok());
        let occupied = sides.us.0 | sides.them.0;
        let (canonical, symmetry) = canonical_occupancy(occupied, sides.us.0);
        let us = symmetry.bitboard(sides.us).0;
        let set = self.directory.rank(colex_rank(canonical));
        Ranked {
            index: set * self.patterns + colex_rank_24(pext(us, canonical)),
            symmetry,
        }
    }

    /// The used slots (positions up to symmetry) in index order from index
    /// `start`, each with its index. Unused slots are skipped.
    pub fn positions_from(&self, start: u64) -> Result<SymmetricPositions<'_>, IndexError> {
        if start > self.size {
            return Err(self.out_of_range(start));
        }
        let mut state = None;
        if start < self.size {
            let colex = self.directory.select(start / self.patterns);
            let occupied = colex_unrank(colex, self.material.pieces());
            let us = pdep(
                colex_unrank(start % self.patterns, self.material.us()),
                occupied,
            );
            state = Some(self.occupancy_state(colex, occupied, us, start));
        }
        Ok(SymmetricPositions {
            indexer: self,
            state,
        })
    }

    /// All used slots in index order, each with its index.
    pub fn positions(&self) -> SymmetricPositions<'_> {
        match self.positions_from(0) {
            Ok(p) => p,
            Err(_) => unreachable!("index 0 is always in range"),
        }
    }

    fn occupancy_state(&self, colex: u64, occupied: u64, us: u64, index: u64) -> WalkState {
        let (stabilizer, stabilizer_len) = stabilizer(occupied);
        WalkState {
            colex,
            occupied,
            us,
            last_us: highest_bits(occupied, self.material.us()),
            index,
            stabilizer,
            stabilizer_len,
        }
    }

    fn out_of_range(&self, index: u64) -> IndexError {
        IndexError::OutOfRange {
            index,
            material: self.material,
            size: self.size,
        }
    }
}

impl Indexer for SymmetricIndexer {
    fn material(&self) -> Material {
        self.material
    }

    fn size(&self) -> u64 {
        self.size
    }

    #[inline]
    fn rank(&self, sides: Sides) -> Result<Ranked, IndexError> {
        sides.check(self.material)?;
        Ok(self.rank_unchecked(sides))
    }

    fn unrank(&self, index: u64) -> Result<Sides, IndexError> {
        if index >= self.size {
            return Err(self.out_of_range(index));
        }
        let colex = self.directory.select(index / self.patterns);
        let occupied = colex_unrank(colex, self.material.pieces());
        let us = pdep(
            colex_unrank(index % self.patterns, self.material.us()),
            occupied,
        );
        let (stabilizer, len) = stabilizer(occupied);
        if !is_least_pattern(us, &stabilizer[..len]) {
            return Err(IndexError::UnusedSlot {
                index,
                material: self.material,
            });
        }
        Ok(Sides::new(Bitboard(us), Bitboard(occupied ^ us)))
    }
}

#[derive(Clone, Debug)]
struct WalkState {
    colex: u64,
    occupied: u64,
    us: u64,
    last_us: u64,
    index: u64,
    stabilizer: [Symmetry; 7],
    stabilizer_len: usize,
}

/// Iterator over the used slots of a symmetric index, as `(index, sides)`;
/// see [`SymmetricIndexer::positions_from`].
#[derive(Clone, Debug)]
pub struct SymmetricPositions<'a> {
    indexer: &'a SymmetricIndexer,
    state: Option<WalkState>,
}

impl Iterator for SymmetricPositions<'_> {
    type Item = (u64, Sides);

    #[inline]
    fn next(&mut self) -> Option<(u64, Sides)> {
        loop {
            let s = self.state.as_mut()?;
            let (index, occupied, us) = (s.index, s.occupied, s.us);
            let used =
                s.stabilizer_len == 0 || is_least_pattern(us, &s.stabilizer[..s.stabilizer_len]);
            if us != s.last_us {
                s.us = next_subset_within(us, occupied);
                s.index += 1;
            } else {
                let indexer = self.indexer;
                self.state = indexer.directory.next_canonical(s.colex + 1).map(|colex| {
                    let occupied = colex_unrank(colex, indexer.material.pieces());
                    let us = lowest_bits(occupied, indexer.material.us());
                    indexer.occupancy_state(colex, occupied, us, index + 1)
                });
            }
            if used {
                return Some((index, Sides::new(Bitboard(us), Bitboard(occupied ^ us))));
            }
        }
    }
}

impl core::iter::FusedIterator for SymmetricPositions<'_> {}
