//! The plain combinatorial index of FuChou and Schadd.
//!
//! `index = colex(occupied) · C(n, a) + colex(pattern)`, where `occupied` is
//! the set of the `n` occupied points, ranked among all `C(36, n)` sets, and
//! `pattern` is the `n`-bit word that says which occupied points hold the
//! side to move's `a` pieces (the side to move's set compressed by the
//! occupied set), ranked among the `C(n, a)` such words. Every slot below
//! `C(36, n) · C(n, a)` is one position: no gaps.

use crate::bits::{self, BitCompress, Bmi2, WithBits};
use crate::combinatorics::{
    binomial, colex_rank_and_pext, colex_unrank, highest_bits, lowest_bits, next_combination,
    next_subset_within, pattern_rank,
};
use crate::indexer::{Indexer, Ranked};
use crate::material::{Material, Sides};
use crate::IndexError;
use surakarta::{Bitboard, Symmetry};

/// The plain index of one material class (design and sizes: `docs/index.md`).
///
/// # Examples
///
/// ```
/// use surakarta_index::{Indexer, Material, PlainIndexer};
///
/// let indexer = PlainIndexer::new("2v1".parse::<Material>()?);
/// assert_eq!(indexer.size(), 7140 * 3); // C(36, 3) occupied sets, C(3, 2) patterns
/// // Every slot is a position, and ranking gives the slot back.
/// for index in [0, 1234, indexer.size() - 1] {
///     let sides = indexer.unrank(index)?;
///     assert_eq!(indexer.rank(sides)?.index, index);
/// }
/// assert_eq!(indexer.positions().count() as u64, indexer.size());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlainIndexer {
    material: Material,
    patterns: u64,
    size: u64,
    bmi2: Option<Bmi2>,
}

impl PlainIndexer {
    /// The indexer for `material`. It uses the CPU's `pext`/`pdep`
    /// instructions where they are fast (BMI2 and POPCNT, detected at run
    /// time), tables otherwise.
    #[must_use]
    pub fn new(material: Material) -> PlainIndexer {
        PlainIndexer {
            bmi2: Bmi2::detect(),
            ..PlainIndexer::portable(material)
        }
    }

    /// The indexer for `material` that never uses BMI2 instructions (for
    /// comparison; same results as [`PlainIndexer::new`]).
    #[must_use]
    pub fn portable(material: Material) -> PlainIndexer {
        let patterns = binomial(material.pieces(), material.us());
        PlainIndexer {
            material,
            patterns,
            size: binomial(36, material.pieces()) * patterns,
            bmi2: None,
        }
    }

    /// Whether this indexer uses the BMI2 instructions.
    #[must_use]
    pub fn uses_bmi2(&self) -> bool {
        self.bmi2.is_some()
    }

    /// The index of `sides`, which must match the material and lie on the
    /// board without overlap; the result is unspecified otherwise (checked
    /// in debug builds). See [`Indexer::rank`] for the checked version.
    #[inline]
    #[must_use]
    pub fn rank_unchecked(&self, sides: Sides) -> u64 {
        debug_assert!(sides.check(self.material).is_ok());
        bits::dispatch(self.bmi2, Rank(self, sides))
    }

    #[inline(always)]
    fn rank_with<B: BitCompress>(&self, bits: B, sides: Sides) -> u64 {
        let occupied = sides.us.bits() | sides.them.bits();
        let (occupied_rank, pattern) = colex_rank_and_pext(bits, occupied, sides.us.bits());
        occupied_rank * self.patterns + pattern_rank(pattern, self.material.pieces())
    }

    /// The positions of the class in index order, from index `start`
    /// (each next one found without unranking: Gosper's hack for the
    /// occupied set, a masked increment for the colour pattern).
    pub fn positions_from(&self, start: u64) -> Result<PlainPositions, IndexError> {
        if start > self.size {
            return Err(self.out_of_range(start));
        }
        let (a, n) = (self.material.us(), self.material.pieces());
        if start == self.size {
            return Ok(PlainPositions {
                us: 0,
                occupied: 0,
                last_us: 0,
                a,
                remaining: 0,
            });
        }
        let Sides { us, them } = self.unrank_unchecked(start);
        let occupied = us.bits() | them.bits();
        debug_assert_eq!(occupied.count_ones(), n);
        Ok(PlainPositions {
            us: us.bits(),
            occupied,
            last_us: highest_bits(occupied, a),
            a,
            remaining: self.size - start,
        })
    }

    /// All positions of the class in index order.
    #[must_use]
    pub fn positions(&self) -> PlainPositions {
        match self.positions_from(0) {
            Ok(p) => p,
            Err(_) => unreachable!("index 0 is always in range"),
        }
    }

    fn out_of_range(&self, index: u64) -> IndexError {
        IndexError::OutOfRange {
            index,
            material: self.material,
            size: self.size,
        }
    }

    #[inline]
    fn unrank_unchecked(&self, index: u64) -> Sides {
        let n = self.material.pieces();
        let occupied = colex_unrank(index / self.patterns, n);
        let pattern = colex_unrank(index % self.patterns, self.material.us());
        let us = bits::pdep(self.bmi2, pattern, occupied);
        Sides::new(
            Bitboard::from_bits_truncate(us),
            Bitboard::from_bits_truncate(occupied ^ us),
        )
    }
}

/// [`PlainIndexer::rank_unchecked`] for [`bits::dispatch`].
struct Rank<'a>(&'a PlainIndexer, Sides);

impl WithBits for Rank<'_> {
    type Output = u64;

    #[inline(always)]
    fn run<B: BitCompress>(self, bits: B) -> u64 {
        self.0.rank_with(bits, self.1)
    }
}

impl Indexer for PlainIndexer {
    fn material(&self) -> Material {
        self.material
    }

    fn size(&self) -> u64 {
        self.size
    }

    #[inline]
    fn rank(&self, sides: Sides) -> Result<Ranked, IndexError> {
        sides.check(self.material)?;
        Ok(Ranked {
            index: self.rank_unchecked(sides),
            symmetry: Symmetry::IDENTITY,
        })
    }

    fn unrank(&self, index: u64) -> Result<Sides, IndexError> {
        if index >= self.size {
            return Err(self.out_of_range(index));
        }
        Ok(self.unrank_unchecked(index))
    }
}

/// Iterator over the positions of a class in plain index order; see
/// [`PlainIndexer::positions_from`].
#[derive(Clone, Debug)]
pub struct PlainPositions {
    us: u64,
    occupied: u64,
    /// The last pattern for this occupied set: the top `a` occupied points.
    last_us: u64,
    a: u32,
    remaining: u64,
}

impl Iterator for PlainPositions {
    type Item = Sides;

    #[inline]
    fn next(&mut self) -> Option<Sides> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let current = Sides::new(
            Bitboard::from_bits_truncate(self.us),
            Bitboard::from_bits_truncate(self.occupied ^ self.us),
        );
        if self.remaining > 0 {
            if self.us != self.last_us {
                self.us = next_subset_within(self.us, self.occupied);
            } else {
                self.occupied = next_combination(self.occupied);
                self.us = lowest_bits(self.occupied, self.a);
                self.last_us = highest_bits(self.occupied, self.a);
            }
        }
        Some(current)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        match usize::try_from(self.remaining) {
            Ok(n) => (n, Some(n)),
            Err(_) => (usize::MAX, None),
        }
    }
}

impl core::iter::FusedIterator for PlainPositions {}
