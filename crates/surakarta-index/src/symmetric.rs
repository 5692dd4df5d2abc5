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

use crate::bits::{self, BitCompress, Bmi2, Portable, WithBits};
use crate::combinatorics::{
    binomial, colex_unrank, highest_bits, lowest_bits, next_subset_within, pattern_rank,
    ranks_fit_u32, wide_colex_rank,
};
use crate::directory::{wide_orbit, OccupancyDirectory};
use crate::indexer::{Indexer, Ranked};
use crate::material::{Material, Sides};
use crate::IndexError;
use std::sync::Arc;
use surakarta::{Bitboard, Square, Symmetry};

/// The representative of a position's orbit and the symmetry that maps the
/// position onto it (`sides.transformed(symmetry) == representative`).
///
/// # Examples
///
/// ```
/// use surakarta::{Position, Symmetry};
/// use surakarta_index::{canonical_form, Sides};
///
/// let sides = Sides::of(&"6/1w4/6/6/bb4/6 w".parse::<Position>()?);
/// let (representative, symmetry) = canonical_form(sides);
/// assert_eq!(sides.transformed(symmetry), representative);
/// // Every image of the position has the same representative.
/// for sym in Symmetry::ALL {
///     assert_eq!(canonical_form(sides.transformed(sym)).0, representative);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[inline]
#[must_use]
pub fn canonical_form(sides: Sides) -> (Sides, Symmetry) {
    let occupied = sides.us.bits() | sides.them.bits();
    let (canonical, symmetry) = canonical_occupancy(Portable, occupied, sides.us.bits());
    let us = symmetry.bitboard(sides.us).bits();
    let form = Sides::new(
        Bitboard::from_bits_truncate(us),
        Bitboard::from_bits_truncate(Portable.narrow(canonical) ^ us),
    );
    (form, symmetry)
}

/// The least image of `occupied`, in the wide layout, and the symmetry giving
/// the representative of the position whose side to move holds `us`.
#[inline(always)]
fn canonical_occupancy<B: BitCompress>(bits: B, occupied: u64, us: u64) -> (u64, Symmetry) {
    let wide = bits.widen(occupied);
    let (canonical, s, symmetric) = least_image(&wide_orbit(wide));
    let symmetry = if symmetric {
        resolve_ties(wide, us)
    } else {
        Symmetry::new(s as u8).unwrap_or(Symmetry::IDENTITY)
    };
    (canonical, symmetry)
}

/// Of a set's images (wide layout, by symmetry index, the identity's
/// first): the least, the index of a symmetry reaching it, and whether
/// several do (the set is symmetric).
#[inline(always)]
fn least_image(images: &[u64; 8]) -> (u64, usize, bool) {
    // The least image and its symmetry in one comparison (index in the low
    // three bits), by a tree for a short dependency chain.
    let tagged: [u64; 8] = core::array::from_fn(|s| images[s] << 3 | s as u64);
    let best = (tagged[0].min(tagged[1]).min(tagged[2].min(tagged[3])))
        .min(tagged[4].min(tagged[5]).min(tagged[6].min(tagged[7])));
    // Several symmetries reach the least image iff a symmetry other than the
    // identity fixes the set. Every non-trivial subgroup of the square's
    // group holds one of the five involutions (the quarter turns square to
    // the half turn), so testing those suffices.
    let symmetric = [1, 2, 3, 4, 7]
        .iter()
        .fold(false, |any, &s| any | (images[s] == images[0]));
    (best >> 3, (best & 7) as usize, symmetric)
}

/// For a symmetric occupied set (wide layout): of the symmetries that reach
/// its least image, the one giving the least set for the side to move.
#[cold]
#[inline(never)]
fn resolve_ties(wide: u64, us: u64) -> Symmetry {
    let images = wide_orbit(wide);
    let least = images.iter().fold(wide, |m, &i| m.min(i));
    let mut best = (u64::MAX, Symmetry::IDENTITY);
    for sym in Symmetry::ALL {
        if images[sym.index()] == least {
            best = best.min((sym.bitboard(Bitboard::from_bits_truncate(us)).bits(), sym));
        }
    }
    best.1
}

/// The symmetries other than the identity that fix the set `occupied`.
#[inline]
fn stabilizer(occupied: u64) -> ([Symmetry; 7], usize) {
    let wide = Portable.widen(occupied);
    let images = wide_orbit(wide);
    let mut list = [Symmetry::IDENTITY; 7];
    let mut len = 0;
    for (s, &image) in images.iter().enumerate().skip(1) {
        if image == wide {
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
        .all(|sym| sym.bitboard(Bitboard::from_bits_truncate(us)).bits() >= us)
}

/// The symmetric index of one material class (design and sizes:
/// `docs/index.md`).
///
/// # Examples
///
/// ```
/// use surakarta::Position;
/// use surakarta_index::{position_orbits, Indexer, Material, Sides, SymmetricIndexer};
///
/// let material: Material = "1v2".parse()?;
/// let indexer = SymmetricIndexer::new(material);
/// // About an eighth of the plain index; the used slots are the orbits.
/// assert!(indexer.size() < 7140 * 3 / 7);
/// assert_eq!(indexer.positions().count() as u64, position_orbits(material));
///
/// // The eight images of a position share one slot.
/// let position: Position = "6/1w4/6/6/bb4/6 w".parse()?;
/// let sides = Sides::of(&position);
/// let ranked = indexer.rank(sides)?;
/// for sym in surakarta::Symmetry::ALL {
///     assert_eq!(indexer.rank(sides.transformed(sym))?.index, ranked.index);
/// }
/// assert_eq!(indexer.unrank(ranked.index)?, sides.transformed(ranked.symmetry));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct SymmetricIndexer {
    material: Material,
    directory: Arc<OccupancyDirectory>,
    patterns: u64,
    size: u64,
    ranks_fit_u32: bool,
    bmi2: Option<Bmi2>,
}

impl SymmetricIndexer {
    /// The indexer for `material`, building its [`OccupancyDirectory`] (fast
    /// up to 8 pieces, seconds for 10; share one directory between the
    /// classes of a piece count with [`SymmetricIndexer::with_directory`]).
    #[must_use]
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
            ranks_fit_u32: ranks_fit_u32(material.pieces()),
            bmi2: Bmi2::detect(),
        }
    }

    /// The same indexer, never using BMI2 instructions (for comparison).
    #[must_use]
    pub fn into_portable(self) -> SymmetricIndexer {
        SymmetricIndexer { bmi2: None, ..self }
    }

    /// Whether this indexer uses the BMI2 instructions (detected at run time,
    /// with POPCNT, where they are fast).
    #[must_use]
    pub fn uses_bmi2(&self) -> bool {
        self.bmi2.is_some()
    }

    #[inline]
    fn pdep(&self, x: u64, mask: u64) -> u64 {
        bits::pdep(self.bmi2, x, mask)
    }

    /// The directory of canonical occupied sets.
    #[must_use]
    pub fn directory(&self) -> &Arc<OccupancyDirectory> {
        &self.directory
    }

    /// The index of `sides` and the symmetry that maps it to its
    /// representative; `sides` must match the material and lie on the board
    /// without overlap, the result is unspecified otherwise (checked in debug
    /// builds). See [`Indexer::rank`] for the checked version.
    #[inline]
    #[must_use]
    pub fn rank_unchecked(&self, sides: Sides) -> Ranked {
        debug_assert!(sides.check(self.material).is_ok());
        bits::dispatch(self.bmi2, Rank(self, sides))
    }

    #[inline(always)]
    fn rank_with<B: BitCompress>(&self, bits: B, sides: Sides) -> Ranked {
        let occupied = sides.us.bits() | sides.them.bits();
        let (canonical, symmetry) = canonical_occupancy(bits, occupied, sides.us.bits());
        // The directory lookup waits on the colex rank: take it from the
        // wide layout directly.
        let colex = wide_colex_rank(canonical, self.ranks_fit_u32);
        let us = symmetry.bitboard(sides.us).bits();
        let pattern = bits.pext(us, bits.narrow(canonical));
        let set = self.directory.rank(colex);
        Ranked {
            index: set * self.patterns + pattern_rank(pattern, self.material.pieces()),
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
            let us = self.pdep(
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

    /// Calls `f` with every unused slot of `start..end` in index order: the
    /// slots of a set with symmetries whose side to move is not the least
    /// of its images (what [`Indexer::unrank`] reports as
    /// [`IndexError::UnusedSlot`]). It looks at each set of the range once
    /// and at the colourings of the symmetric ones only, a small part of
    /// what walking the positions costs.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_index::{Indexer, Material, SymmetricIndexer};
    ///
    /// let indexer = SymmetricIndexer::new(Material::new(2, 1)?);
    /// let mut unused = 0;
    /// indexer.for_each_unused_in(0, indexer.size(), |index| {
    ///     assert!(indexer.unrank(index).is_err());
    ///     unused += 1;
    /// });
    /// assert_eq!(unused + indexer.positions().count() as u64, indexer.size());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn for_each_unused_in(&self, start: u64, end: u64, mut f: impl FnMut(u64)) {
        let end = end.min(self.size);
        if start >= end {
            return;
        }
        let pieces = self.material.pieces();
        let movers = self.material.us();
        let last_set = (end - 1) / self.patterns;
        let mut set = start / self.patterns;
        let mut colex = self.directory.select(set);
        loop {
            let occupied = colex_unrank(colex, pieces);
            let (stabilizer, len) = stabilizer(occupied);
            if len > 0 {
                let last_us = highest_bits(occupied, movers);
                let mut us = lowest_bits(occupied, movers);
                let mut index = set * self.patterns;
                loop {
                    if (start..end).contains(&index) && !is_least_pattern(us, &stabilizer[..len]) {
                        f(index);
                    }
                    if us == last_us {
                        break;
                    }
                    us = next_subset_within(us, occupied);
                    index += 1;
                }
            }
            if set == last_set {
                return;
            }
            set += 1;
            match self.directory.next_canonical(colex + 1) {
                Some(next) => colex = next,
                None => return,
            }
        }
    }

    /// All used slots in index order, each with its index.
    #[must_use]
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
        let us = self.pdep(
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
        Ok(Sides::new(
            Bitboard::from_bits_truncate(us),
            Bitboard::from_bits_truncate(occupied ^ us),
        ))
    }
}

/// [`SymmetricIndexer::rank_unchecked`] for [`bits::dispatch`].
struct Rank<'a>(&'a SymmetricIndexer, Sides);

impl WithBits for Rank<'_> {
    type Output = Ranked;

    #[inline(always)]
    fn run<B: BitCompress>(self, bits: B) -> Ranked {
        self.0.rank_with(bits, self.1)
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

/// `SQUARE_IMAGES[s][p]`: the image of point `p` under symmetry `s`, as a
/// single bit in the wide layout (bit `8y + x` for the point `(x, y)`).
static SQUARE_IMAGES: [[u64; 36]; 8] = {
    let mut table = [[0u64; 36]; 8];
    let mut s = 0;
    while s < 8 {
        let mut p = 0;
        while p < 36 {
            let image = Symmetry::ALL[s].square(Square::ALL[p]).index();
            table[s][p] = 1 << (8 * (image / 6) + image % 6);
            p += 1;
        }
        s += 1;
    }
    table
};

/// Ranks the positions one step away from a base position: the base's
/// sets are mapped under the eight symmetries once, and each step's images
/// are those with two bits toggled, instead of a full [`Indexer::rank`]
/// (widening, transposing and mapping the side to move) per step. See
/// [`SymmetricIndexer::step_ranks`].
#[derive(Clone, Debug)]
pub struct StepRanks<'a> {
    indexer: &'a SymmetricIndexer,
    /// Wide images of the side that steps.
    mover: [u64; 8],
    /// Wide images of the other side.
    other: [u64; 8],
    /// Whether the side that steps is the side to move of the ranked
    /// positions.
    mover_is_us: bool,
}

impl SymmetricIndexer {
    /// A ranker of the positions of this class where `mover` has made one
    /// step (see [`StepRanks::rank`]) and `other` is unchanged; the side to
    /// move is `mover` if `mover_is_us`, else `other`. The sets must fit the
    /// material once a step is made (checked in debug builds).
    #[must_use]
    pub fn step_ranks(&self, mover: Bitboard, other: Bitboard, mover_is_us: bool) -> StepRanks<'_> {
        StepRanks {
            indexer: self,
            mover: wide_orbit(Portable.widen(mover.bits())),
            other: wide_orbit(Portable.widen(other.bits())),
            mover_is_us,
        }
    }
}

impl StepRanks<'_> {
    /// The index of the position where the mover stepped `from → to`
    /// (`from` holds a mover's piece, `to` is empty): the index
    /// [`Indexer::rank`] gives (the reference, compared in the tests).
    #[inline]
    #[must_use]
    pub fn rank(&self, from: Square, to: Square) -> u64 {
        bits::dispatch(self.indexer.bmi2, StepRank(self, from, to))
    }

    /// The stepped position itself.
    fn sides(&self, from: Square, to: Square) -> Sides {
        let mover = Bitboard::from_bits_truncate(Portable.narrow(self.mover[0]))
            .without(from)
            .with(to);
        let other = Bitboard::from_bits_truncate(Portable.narrow(self.other[0]));
        if self.mover_is_us {
            Sides::new(mover, other)
        } else {
            Sides::new(other, mover)
        }
    }

    #[inline(always)]
    fn rank_with<B: BitCompress>(&self, bits: B, from: Square, to: Square) -> u64 {
        let (f, t) = (from.index(), to.index());
        let mover: [u64; 8] =
            core::array::from_fn(|s| self.mover[s] ^ SQUARE_IMAGES[s][f] ^ SQUARE_IMAGES[s][t]);
        let images: [u64; 8] = core::array::from_fn(|s| mover[s] | self.other[s]);
        let (canonical, s, symmetric) = least_image(&images);
        if symmetric {
            // Ties between symmetries: the full rank (rare).
            return self.indexer.rank_with(bits, self.sides(from, to)).index;
        }
        let colex = wide_colex_rank(canonical, self.indexer.ranks_fit_u32);
        let us = if self.mover_is_us {
            mover[s]
        } else {
            self.other[s]
        };
        // The wide layout keeps the order of points, so the instruction
        // extracts the narrow sets' pattern from it; the tables take 36 bits.
        let pattern = if B::HARDWARE {
            bits.pext(us, canonical)
        } else {
            bits.pext(bits.narrow(us), bits.narrow(canonical))
        };
        let set = self.indexer.directory.rank(colex);
        set * self.indexer.patterns + pattern_rank(pattern, self.indexer.material.pieces())
    }
}

/// [`StepRanks::rank`] for [`bits::dispatch`].
struct StepRank<'a, 'b>(&'b StepRanks<'a>, Square, Square);

impl WithBits for StepRank<'_, '_> {
    type Output = u64;

    #[inline(always)]
    fn run<B: BitCompress>(self, bits: B) -> u64 {
        self.0.rank_with(bits, self.1, self.2)
    }
}

/// The part of a symmetric rank that depends on the occupied points only:
/// their least image, the symmetry that reaches it and the index of the
/// set's first slot (see [`SymmetricIndexer::occupancy_rank`]). Every
/// position on the same points is then ranked by its side to move alone,
/// without mapping the set or reading the directory again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OccupancyRank {
    /// The occupied points.
    occupied: u64,
    /// The least image of the points (narrow layout).
    canonical: u64,
    /// The index of the set's first slot.
    base: u64,
    /// The index of the symmetry onto the least image; [`UNSHARED`] if the
    /// set is symmetric (the side to move then decides between symmetries)
    /// or nothing is shared.
    symmetry: u8,
}

/// [`OccupancyRank::symmetry`] when each position is ranked in full.
const UNSHARED: u8 = 8;

impl OccupancyRank {
    /// Nothing shared: each position on `occupied` is ranked in full (what
    /// an index without a shared part, such as the plain one, holds).
    #[must_use]
    pub fn unshared(occupied: Bitboard) -> OccupancyRank {
        OccupancyRank {
            occupied: occupied.bits(),
            canonical: 0,
            base: 0,
            symmetry: UNSHARED,
        }
    }

    /// The occupied points.
    #[must_use]
    pub fn occupied(&self) -> Bitboard {
        Bitboard::from_bits_truncate(self.occupied)
    }
}

impl SymmetricIndexer {
    /// What ranking the positions on `occupied` shares, for
    /// [`SymmetricIndexer::rank_in`]: an error if the set does not hold the
    /// class's number of pieces.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Bitboard, Square};
    /// use surakarta_index::{Indexer, Material, Sides, SymmetricIndexer};
    ///
    /// let indexer = SymmetricIndexer::new(Material::new(2, 1)?);
    /// let (a, b, c) = (Square::A1, Square::C4, Square::F6);
    /// let points = Bitboard::from_square(a) | Bitboard::from_square(b) | Bitboard::from_square(c);
    /// let shared = indexer.occupancy_rank(points)?;
    /// let us = Bitboard::from_square(a) | Bitboard::from_square(c);
    /// let full = indexer.rank(Sides::new(us, points - us))?.index;
    /// assert_eq!(indexer.rank_in(&shared, us), full);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn occupancy_rank(&self, occupied: Bitboard) -> Result<OccupancyRank, IndexError> {
        if occupied.len() != self.material.pieces() {
            return Err(IndexError::OccupancyMismatch {
                material: self.material,
                pieces: occupied.len(),
            });
        }
        Ok(self.occupancy_rank_of(&OccupancyImages::new(occupied)))
    }

    /// [`SymmetricIndexer::occupancy_rank`] of the set whose images are
    /// `images` (cheap to derive for the sets one move away from a set, see
    /// [`OccupancyImages::toggled`]). The set must hold the class's number
    /// of pieces; the result is unspecified otherwise (checked in debug
    /// builds).
    #[inline]
    #[must_use]
    pub fn occupancy_rank_of(&self, images: &OccupancyImages) -> OccupancyRank {
        debug_assert_eq!(images.occupied().len(), self.material.pieces());
        bits::dispatch(self.bmi2, Occupancy(self, images))
    }

    #[inline(always)]
    fn occupancy_rank_with<B: BitCompress>(
        &self,
        bits: B,
        images: &OccupancyImages,
    ) -> OccupancyRank {
        let (canonical, s, symmetric) = least_image(&images.wide);
        let colex = wide_colex_rank(canonical, self.ranks_fit_u32);
        OccupancyRank {
            occupied: bits.narrow(images.wide[0]),
            canonical: bits.narrow(canonical),
            base: self.directory.rank(colex) * self.patterns,
            symmetry: if symmetric { UNSHARED } else { s as u8 },
        }
    }

    /// The index of the position on `occupancy`'s points whose side to move
    /// holds `us` (the rest being the other side): what [`Indexer::rank`]
    /// gives. `us` must be a subset of the points with the class's number
    /// of pieces to move; the result is unspecified otherwise (checked in
    /// debug builds).
    #[inline]
    #[must_use]
    pub fn rank_in(&self, occupancy: &OccupancyRank, us: Bitboard) -> u64 {
        debug_assert!(
            us.bits() & !occupancy.occupied == 0 && us.len() == self.material.us(),
            "{us:?} on {:#x}",
            occupancy.occupied
        );
        match Symmetry::new(occupancy.symmetry) {
            Some(symmetry) => self.pattern_rank_in(occupancy, symmetry.bitboard(us).bits()),
            None => {
                let them = occupancy.occupied() - us;
                self.rank_unchecked(Sides::new(us, them)).index
            }
        }
    }

    /// [`SymmetricIndexer::rank_in`] for the side to move `us`, whose images
    /// under the symmetries are worked out once for all the sets it is
    /// ranked on (the positions after each step of the other side).
    #[inline]
    #[must_use]
    pub fn rank_side_in(&self, occupancy: &OccupancyRank, us: &mut SideImages) -> u64 {
        match Symmetry::new(occupancy.symmetry) {
            Some(symmetry) => self.pattern_rank_in(occupancy, us.image(symmetry)),
            None => self.rank_in(occupancy, us.side),
        }
    }

    /// The index of the position on `occupancy`'s points whose side to move
    /// holds `image` once mapped onto the least image of the points.
    #[inline(always)]
    fn pattern_rank_in(&self, occupancy: &OccupancyRank, image: u64) -> u64 {
        let pattern = bits::pext(self.bmi2, image, occupancy.canonical);
        occupancy.base + pattern_rank(pattern, self.material.pieces())
    }
}

/// The images of one side's pieces under the symmetries of the board,
/// each worked out when first asked for (see
/// [`SymmetricIndexer::rank_side_in`]).
///
/// # Examples
///
/// ```
/// use surakarta::{Bitboard, Square};
/// use surakarta_index::{Indexer, Material, OccupancyImages, SideImages, Sides, SymmetricIndexer};
///
/// let indexer = SymmetricIndexer::new(Material::new(1, 2)?);
/// let us = Bitboard::from_square(Square::B2);
/// let them = Bitboard::from_square(Square::E5) | Bitboard::from_square(Square::C1);
/// let mut images = SideImages::new(us);
/// // Each step of the other side, ranked with the images of `us`.
/// for to in [Square::E4, Square::D5] {
///     let stepped = them.without(Square::E5).with(to);
///     let shared = indexer.occupancy_rank_of(&OccupancyImages::new(us | stepped));
///     let full = indexer.rank(Sides::new(us, stepped))?.index;
///     assert_eq!(indexer.rank_side_in(&shared, &mut images), full);
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SideImages {
    side: Bitboard,
    /// By symmetry index, the image (narrow), if `known` has its bit.
    images: [u64; 8],
    known: u8,
}

impl SideImages {
    /// The images of `side`, none worked out yet.
    #[inline]
    #[must_use]
    pub fn new(side: Bitboard) -> SideImages {
        SideImages {
            side,
            images: [0; 8],
            known: 0,
        }
    }

    /// The side.
    #[inline]
    #[must_use]
    pub fn side(&self) -> Bitboard {
        self.side
    }

    /// The image under `symmetry`.
    #[inline]
    fn image(&mut self, symmetry: Symmetry) -> u64 {
        let s = symmetry.index();
        if self.known & 1 << s == 0 {
            self.known |= 1 << s;
            self.images[s] = symmetry.bitboard(self.side).bits();
        }
        self.images[s]
    }
}

/// The images of an occupied set under the eight symmetries of the board:
/// what ranking it needs first, and, for a set one move away, derived by
/// toggling the points that changed.
///
/// # Examples
///
/// ```
/// use surakarta::{Bitboard, Square};
/// use surakarta_index::OccupancyImages;
///
/// let set = Bitboard::from_square(Square::A1) | Bitboard::from_square(Square::C4);
/// let stepped = set.without(Square::C4).with(Square::D4);
/// let images = OccupancyImages::new(set).toggled(Square::C4).toggled(Square::D4);
/// assert_eq!(images, OccupancyImages::new(stepped));
/// assert_eq!(images.occupied(), stepped);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OccupancyImages {
    /// By symmetry index, the image in the wide layout.
    wide: [u64; 8],
}

impl OccupancyImages {
    /// The images of `occupied`.
    #[inline]
    #[must_use]
    pub fn new(occupied: Bitboard) -> OccupancyImages {
        OccupancyImages {
            wide: wide_orbit(Portable.widen(occupied.bits())),
        }
    }

    /// The images of the set with `square` added or removed.
    #[inline]
    #[must_use]
    pub fn toggled(&self, square: Square) -> OccupancyImages {
        let p = square.index();
        OccupancyImages {
            wide: core::array::from_fn(|s| self.wide[s] ^ SQUARE_IMAGES[s][p]),
        }
    }

    /// The set itself.
    #[inline]
    #[must_use]
    pub fn occupied(&self) -> Bitboard {
        Bitboard::from_bits_truncate(Portable.narrow(self.wide[0]))
    }
}

/// [`SymmetricIndexer::occupancy_rank_of`] for [`bits::dispatch`].
struct Occupancy<'a, 'b>(&'a SymmetricIndexer, &'b OccupancyImages);

impl WithBits for Occupancy<'_, '_> {
    type Output = OccupancyRank;

    #[inline(always)]
    fn run<B: BitCompress>(self, bits: B) -> OccupancyRank {
        self.0.occupancy_rank_with(bits, self.1)
    }
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
                return Some((
                    index,
                    Sides::new(
                        Bitboard::from_bits_truncate(us),
                        Bitboard::from_bits_truncate(occupied ^ us),
                    ),
                ));
            }
        }
    }
}

impl core::iter::FusedIterator for SymmetricPositions<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The representative from its definition: the least occupied image,
    /// then the least image of `us`, then the least symmetry.
    fn reference(occupied: u64, us: u64) -> (u64, u64, Symmetry) {
        Symmetry::ALL
            .into_iter()
            .map(|g| {
                let image = |b| g.bitboard(Bitboard::from_bits_truncate(b)).bits();
                (image(occupied), image(us), g)
            })
            .min()
            .unwrap_or((occupied, us, Symmetry::IDENTITY))
    }

    fn check(occupied: u64, us: u64) {
        let (canonical, us_image, symmetry) = reference(occupied, us);
        let (wide, sym) = canonical_occupancy(Portable, occupied, us);
        assert_eq!((Portable.narrow(wide), sym), (canonical, symmetry));
        if let Some(bmi2) = Bmi2::detect() {
            let (wide, sym) = canonical_occupancy(bmi2, occupied, us);
            assert_eq!((bmi2.narrow(wide), sym), (canonical, symmetry));
        }
        let sides = Sides::new(
            Bitboard::from_bits_truncate(us),
            Bitboard::from_bits_truncate(occupied ^ us),
        );
        let expected = Sides::new(
            Bitboard::from_bits_truncate(us_image),
            Bitboard::from_bits_truncate(canonical ^ us_image),
        );
        assert_eq!(canonical_form(sides), (expected, symmetry));
    }

    #[test]
    fn fixed_sets_match_the_reference() {
        let full = (1u64 << 36) - 1;
        for occupied in [0, full, 1, 1 << 35, 0x21 | 0x21 << 30, 0xc_0300_0000] {
            for us in [
                0,
                occupied,
                occupied & 0x5_5555_5555,
                occupied & 0xa_aaaa_aaaa,
            ] {
                check(occupied, us);
            }
        }
    }

    /// The directory for `pieces` (at most 8), built once for all tests.
    fn directory(pieces: u32) -> Arc<OccupancyDirectory> {
        static DIRECTORIES: std::sync::OnceLock<Vec<Arc<OccupancyDirectory>>> =
            std::sync::OnceLock::new();
        DIRECTORIES.get_or_init(|| {
            (0..=8)
                .map(|n| Arc::new(OccupancyDirectory::build(n)))
                .collect()
        })[pieces as usize]
            .clone()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5000))]

        /// Step ranks agree with the full rank of the stepped position,
        /// symmetric occupied sets included (few pieces make them common).
        #[test]
        fn step_ranks_match_rank(
            points in proptest::collection::vec(0..36u32, 1..=7),
            split in any::<u64>(),
            mirror in 0..8usize,
            mover_is_us in any::<bool>(),
            portable in any::<bool>(),
        ) {
            // Half the cases symmetric: the points with their images.
            let mut occupied = points.iter().fold(0u64, |b, &p| b | 1 << p);
            if mirror > 3 && points.len() <= 4 {
                let g = Symmetry::ALL[mirror];
                occupied |= g.bitboard(Bitboard::from_bits_truncate(occupied)).bits();
            }
            let pieces = occupied.count_ones();
            let mover = Bitboard::from_bits_truncate(occupied & split);
            let other = Bitboard::from_bits_truncate(occupied & !split);
            if mover.is_empty() || other.is_empty() || pieces > 7 {
                return Ok(());
            }
            let (us, them) = if mover_is_us { (mover, other) } else { (other, mover) };
            let Ok(material) = Material::new(us.len(), them.len()) else {
                return Ok(());
            };
            let indexer =
                SymmetricIndexer::with_directory(material, directory(pieces)).unwrap();
            let indexer = if portable { indexer.into_portable() } else { indexer };
            let ranks = indexer.step_ranks(mover, other, mover_is_us);
            let empty = Bitboard::FULL - mover - other;
            for from in mover {
                for to in empty {
                    let moved = mover.without(from).with(to);
                    let sides = if mover_is_us {
                        Sides::new(moved, other)
                    } else {
                        Sides::new(other, moved)
                    };
                    prop_assert_eq!(ranks.rank(from, to), indexer.rank(sides).unwrap().index);
                }
            }
        }

        /// Ranks within an occupied set agree with the full rank, for every
        /// split of the set and symmetric sets included.
        #[test]
        fn occupancy_ranks_match_rank(
            points in proptest::collection::vec(0..36u32, 2..=7),
            mirror in 0..8usize,
            portable in any::<bool>(),
        ) {
            let mut occupied = points.iter().fold(0u64, |b, &p| b | 1 << p);
            if mirror > 3 && points.len() <= 4 {
                let g = Symmetry::ALL[mirror];
                occupied |= g.bitboard(Bitboard::from_bits_truncate(occupied)).bits();
            }
            let occupied = Bitboard::from_bits_truncate(occupied);
            let pieces = occupied.len();
            if pieces > 7 {
                return Ok(());
            }
            for a in 1..pieces {
                let material = Material::new(a, pieces - a).unwrap();
                let indexer = SymmetricIndexer::with_directory(material, directory(pieces)).unwrap();
                let indexer = if portable { indexer.into_portable() } else { indexer };
                let shared = indexer.occupancy_rank(occupied).unwrap();
                let mut seen = 0;
                for split in 0..1u64 << pieces {
                    if split.count_ones() != a {
                        continue;
                    }
                    let us = Bitboard::from_bits_truncate(
                        crate::bits::pdep_portable(split, occupied.bits()),
                    );
                    let full = indexer.rank(Sides::new(us, occupied - us)).unwrap().index;
                    prop_assert_eq!(indexer.rank_in(&shared, us), full);
                    let mut images = SideImages::new(us);
                    prop_assert_eq!(indexer.rank_side_in(&shared, &mut images), full);
                    // Again from the images now worked out.
                    prop_assert_eq!(indexer.rank_side_in(&shared, &mut images), full);
                    seen += 1;
                }
                prop_assert_eq!(seen, binomial(pieces, a));
            }
            // The images of a set one step away, by toggling two points.
            let images = OccupancyImages::new(occupied);
            for from in occupied {
                for to in Bitboard::FULL - occupied {
                    let stepped = occupied.without(from).with(to);
                    let toggled = images.toggled(from).toggled(to);
                    prop_assert_eq!(toggled, OccupancyImages::new(stepped));
                    prop_assert_eq!(toggled.occupied(), stepped);
                }
            }
            let wrong = Material::new(1, pieces).unwrap();
            let indexer = SymmetricIndexer::with_directory(wrong, directory(pieces + 1)).unwrap();
            prop_assert!(indexer.occupancy_rank(occupied).is_err());
        }

        #[test]
        fn sets_match_the_reference(occupied in 0..1u64 << 36, us in any::<u64>()) {
            check(occupied, occupied & us);
        }

        /// Sets fixed by a symmetry (the tie-breaking path): the union of
        /// the images of a few points under the powers of `g`.
        #[test]
        fn symmetric_sets_match_the_reference(
            points in proptest::collection::vec(0..36u32, 0..6),
            g in 1..8usize,
            us in any::<u64>(),
        ) {
            let g = Symmetry::ALL[g];
            let mut occupied = points.iter().fold(0u64, |b, &p| b | 1 << p);
            for _ in 0..4 {
                occupied |= g.bitboard(Bitboard::from_bits_truncate(occupied)).bits();
            }
            check(occupied, occupied & us);
        }
    }
}
