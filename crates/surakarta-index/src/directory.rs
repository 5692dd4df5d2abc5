//! The directory of canonical occupied sets: a bitmap over the colex ranks of
//! all `n`-point sets, with a bit set for each set that is the least (as a
//! number) of its images under the eight symmetries, and rank and select
//! structures over it.
//!
//! The bitmap is stored in 64-byte blocks, each holding 448 bits and a header
//! word with the number of canonical sets before the block and within its
//! first two, four and six words, so a rank costs one cache line and two
//! POPCNTs.

use crate::bits::{BitCompress, Portable};
use crate::combinatorics::{binomial, colex_unrank, next_combination};

/// Bits per block.
const BLOCK_BITS: u64 = 448;
/// One select sample every `1 << SAMPLE_SHIFT` canonical sets.
const SAMPLE_SHIFT: u32 = 10;
/// Where the count of canonical sets before a block starts in its header;
/// below it, three 9-bit fields count the canonical sets in the block's
/// first two, four and six bitmap words.
const BEFORE_SHIFT: u32 = 27;

/// A block: `words[0]` is the header (see [`BEFORE_SHIFT`]), `words[1..]` the
/// 448 bits.
#[derive(Clone, Copy, Default, Debug)]
#[repr(C, align(64))]
struct Block {
    words: [u64; 8],
}

impl Block {
    /// The bitmap words.
    #[inline]
    fn bits(&self) -> &[u64] {
        &self.words[1..]
    }

    /// Canonical sets before this block.
    #[inline]
    fn before(&self) -> u64 {
        self.words[0] >> BEFORE_SHIFT
    }
}

/// Mirror files in the wide layout (bit `x` of byte `y` is point `(x, y)`).
#[inline(always)]
fn wide_flip_files(w: u64) -> u64 {
    const LOW3: u64 = 0x0707_0707_0707;
    const ENDS: u64 = 0x0909_0909_0909;
    let halves = (w >> 3 & LOW3) | (w & LOW3) << 3;
    let t = (halves ^ halves >> 2) & ENDS;
    halves ^ t ^ t << 2
}

/// Mirror ranks in the wide layout: reverse the six bytes.
#[inline(always)]
fn wide_flip_ranks(w: u64) -> u64 {
    w.swap_bytes() >> 16
}

/// `TRANSPOSED_ROW[r][bits]`: the transpose of rank `r` holding `bits`, in
/// the wide layout (file `r` holding `bits`).
static TRANSPOSED_ROW: [[u64; 64]; 6] = {
    let mut table = [[0u64; 64]; 6];
    let mut r = 0;
    while r < 6 {
        let mut bits = 0;
        while bits < 64 {
            let mut x = 0;
            while x < 6 {
                if bits >> x & 1 == 1 {
                    table[r][bits] |= 1 << (8 * x + r);
                }
                x += 1;
            }
            bits += 1;
        }
        r += 1;
    }
    table
};

/// Transpose in the wide layout: one lookup per rank, which has a shorter
/// dependency chain than delta swaps.
#[inline(always)]
fn wide_transpose(w: u64) -> u64 {
    let mut t = 0;
    let mut r = 0;
    while r < 6 {
        t |= TRANSPOSED_ROW[r][(w >> (8 * r) & 63) as usize];
        r += 1;
    }
    t
}

/// The eight images of a wide-layout set under the symmetries, in the order
/// of [`surakarta::Symmetry::ALL`]. The wide layout keeps the numeric order of
/// sets, so the least image is the least image of the 36-bit set, and mirroring
/// ranks is a byte swap.
#[inline(always)]
pub(crate) fn wide_orbit(w: u64) -> [u64; 8] {
    let f = wide_flip_files(w);
    let t = wide_transpose(w);
    let tf = wide_flip_files(t);
    [
        w,
        f,
        wide_flip_ranks(w),
        wide_flip_ranks(f),
        t,
        tf,
        wide_flip_ranks(t),
        wide_flip_ranks(tf),
    ]
}

/// Whether the 36-bit set `b` is the least of its images.
#[inline]
pub(crate) fn is_canonical(b: u64) -> bool {
    let w = Portable.widen(b);
    let f = wide_flip_files(w);
    if f < w || wide_flip_ranks(w) < w || wide_flip_ranks(f) < w {
        return false;
    }
    let t = wide_transpose(w);
    let tf = wide_flip_files(t);
    t >= w && tf >= w && wide_flip_ranks(t) >= w && wide_flip_ranks(tf) >= w
}

/// Canonical `n`-point sets, ranked; shared by every material with `n`
/// pieces. Memory: `C(36, n) / 8` bytes plus a little (about 32 MB for
/// `n = 10`).
///
/// # Examples
///
/// ```
/// use surakarta_index::{occupancy_orbits, OccupancyDirectory};
///
/// let directory = OccupancyDirectory::build(4);
/// assert_eq!(directory.pieces(), 4);
/// assert_eq!(directory.canonical_count(), occupancy_orbits(4));
/// ```
#[derive(Clone, Debug)]
pub struct OccupancyDirectory {
    pieces: u32,
    blocks: Vec<Block>,
    /// `samples[j]`: the block holding canonical set number `j << SAMPLE_SHIFT`.
    samples: Vec<u32>,
    canonical: u64,
}

impl OccupancyDirectory {
    /// Builds the directory for sets of `pieces` points (`pieces <= 36`),
    /// on one thread.
    #[must_use]
    pub fn build(pieces: u32) -> OccupancyDirectory {
        OccupancyDirectory::build_with_threads(pieces, 1)
    }

    /// Builds the directory on `threads` threads (at least one is used).
    /// Cost: one canonical test per set, `C(36, pieces)` sets (254 M for 10).
    #[must_use]
    pub fn build_with_threads(pieces: u32, threads: usize) -> OccupancyDirectory {
        let pieces = pieces.min(36);
        let sets = binomial(36, pieces);
        let block_count = sets.div_ceil(BLOCK_BITS) as usize;
        let mut blocks = vec![Block::default(); block_count];
        let threads = threads.clamp(1, block_count.max(1));
        let per_thread = block_count.div_ceil(threads);
        if threads == 1 {
            // On this thread: no thread is started (where there are none,
            // as in WebAssembly in a browser, starting one would fail).
            fill_blocks(&mut blocks, 0, sets, pieces);
        } else {
            std::thread::scope(|scope| {
                for (i, chunk) in blocks.chunks_mut(per_thread.max(1)).enumerate() {
                    let first = (i * per_thread) as u64 * BLOCK_BITS;
                    scope.spawn(move || fill_blocks(chunk, first, sets, pieces));
                }
            });
        }
        let mut canonical = 0u64;
        let mut samples = Vec::new();
        for (i, block) in blocks.iter_mut().enumerate() {
            let counts = block.bits().iter().map(|w| w.count_ones() as u64);
            let mut header = canonical << BEFORE_SHIFT;
            let mut count = 0;
            for (j, c) in counts.enumerate() {
                count += c;
                if j % 2 == 1 {
                    header |= count << (9 * (j / 2));
                }
            }
            assert!(
                canonical >> (64 - BEFORE_SHIFT) == 0,
                "too many canonical sets"
            );
            block.words[0] = header;
            // Sample every canonical number `j << SAMPLE_SHIFT` in this block.
            let mut next = (samples.len() as u64) << SAMPLE_SHIFT;
            while next < canonical + count {
                samples.push(i as u32);
                next = (samples.len() as u64) << SAMPLE_SHIFT;
            }
            canonical += count;
        }
        OccupancyDirectory {
            pieces,
            blocks,
            samples,
            canonical,
        }
    }

    /// The number of points in the sets.
    #[must_use]
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// The number of canonical sets: the number of orbits of `n`-point sets
    /// under the symmetries.
    #[must_use]
    pub fn canonical_count(&self) -> u64 {
        self.canonical
    }

    /// Bytes of memory held.
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        self.blocks.len() * core::mem::size_of::<Block>() + self.samples.len() * 4
    }

    /// Whether the set with colex rank `colex` is canonical.
    #[cfg(test)]
    pub(crate) fn contains(&self, colex: u64) -> bool {
        let block = &self.blocks[(colex / BLOCK_BITS) as usize];
        let bit = colex % BLOCK_BITS;
        block.bits()[(bit / 64) as usize] >> (bit % 64) & 1 == 1
    }

    /// The number of canonical sets with colex rank below `colex`.
    #[inline]
    pub(crate) fn rank(&self, colex: u64) -> u64 {
        let words = &self.blocks[(colex / BLOCK_BITS) as usize].words;
        let bit = colex % BLOCK_BITS;
        let word = (bit / 64) as usize;
        let header = words[0];
        // Whole pairs of words below the bit's word from the header (the
        // field for no pair reads the zeros shifted in), the word before it
        // if it is odd (`words[word]`, else masked out), part of its word.
        let pairs = header << 9 >> (9 * (word / 2)) & 511;
        let odd = (word as u64 & 1).wrapping_neg();
        let partial = (1u64 << (bit % 64)) - 1;
        (header >> BEFORE_SHIFT)
            + pairs
            + (words[word] & odd).count_ones() as u64
            + (words[word + 1] & partial).count_ones() as u64
    }

    /// The colex rank of canonical set number `k` (`k < canonical_count()`).
    #[inline]
    pub(crate) fn select(&self, k: u64) -> u64 {
        debug_assert!(k < self.canonical);
        let sample = (k >> SAMPLE_SHIFT) as usize;
        let lo = self.samples[sample] as usize;
        let hi = match self.samples.get(sample + 1) {
            Some(&b) => b as usize + 1,
            None => self.blocks.len(),
        };
        // The last block in lo..hi that starts at or before k.
        let offset = self.blocks[lo..hi].partition_point(|b| b.before() <= k);
        let index = lo + offset - 1;
        let block = &self.blocks[index];
        let mut left = k - block.before();
        for (w, &word) in block.bits().iter().enumerate() {
            let ones = word.count_ones() as u64;
            if left < ones {
                let mut word = word;
                for _ in 0..left {
                    word &= word - 1;
                }
                return index as u64 * BLOCK_BITS + w as u64 * 64 + word.trailing_zeros() as u64;
            }
            left -= ones;
        }
        unreachable!("the select samples and block counts are consistent")
    }

    /// The canonical set with colex rank `colex`, or the first canonical set
    /// after it; `None` past the last.
    pub(crate) fn next_canonical(&self, colex: u64) -> Option<u64> {
        let mut block = (colex / BLOCK_BITS) as usize;
        let mut bit = colex % BLOCK_BITS;
        while block < self.blocks.len() {
            let bits = self.blocks[block].bits();
            let mut word = (bit / 64) as usize;
            let mut mask = !0u64 << (bit % 64);
            while word < 7 {
                let w = bits[word] & mask;
                if w != 0 {
                    return Some(
                        block as u64 * BLOCK_BITS + word as u64 * 64 + w.trailing_zeros() as u64,
                    );
                }
                word += 1;
                mask = !0;
            }
            block += 1;
            bit = 0;
        }
        None
    }
}

/// Sets the bits of the canonical sets among colex ranks
/// `first .. first + 448 · blocks.len()` (stopping at `sets`).
fn fill_blocks(blocks: &mut [Block], first: u64, sets: u64, pieces: u32) {
    if first >= sets {
        return;
    }
    let end = (first + blocks.len() as u64 * BLOCK_BITS).min(sets);
    let mut set = colex_unrank(first, pieces);
    for colex in first..end {
        if is_canonical(set) {
            let bit = colex - first;
            blocks[(bit / BLOCK_BITS) as usize].words[1 + (bit % BLOCK_BITS / 64) as usize] |=
                1 << (bit % 64);
        }
        if set != 0 {
            set = next_combination(set);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combinatorics::colex_rank;
    use surakarta::Symmetry;

    use surakarta::Bitboard;

    /// The eight images of a 36-bit set.
    fn orbit(b: u64) -> [u64; 8] {
        wide_orbit(Portable.widen(b)).map(|w| Portable.narrow(w))
    }

    /// The transpose by three delta swaps on the 8×8 bit matrix (the
    /// previous implementation), for reference.
    fn delta_swap_transpose(mut w: u64) -> u64 {
        const K1: u64 = 0x5500_5500_5500_5500;
        const K2: u64 = 0x3333_0000_3333_0000;
        const K4: u64 = 0x0f0f_0f0f_0000_0000;
        let t = K4 & (w ^ w << 28);
        w ^= t ^ t >> 28;
        let t = K2 & (w ^ w << 14);
        w ^= t ^ t >> 14;
        let t = K1 & (w ^ w << 7);
        w ^ t ^ t >> 7
    }

    #[test]
    fn table_transpose_matches_delta_swaps() {
        for r in 0..6 {
            for bits in 0..64u64 {
                let w = bits << (8 * r);
                assert_eq!(wide_transpose(w), delta_swap_transpose(w), "{w:#x}");
            }
        }
        let mut b = 0x3_9a1c_7e05u64;
        for _ in 0..1000 {
            let w = Portable.widen(b);
            assert_eq!(wide_transpose(w), delta_swap_transpose(w), "{w:#x}");
            b = b.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(23) & ((1 << 36) - 1);
        }
    }

    #[test]
    fn orbit_order_matches_symmetries() {
        let mut b = 0x8_1c0f_3a51u64;
        for _ in 0..1000 {
            assert_eq!(Portable.narrow(Portable.widen(b)), b);
            for (sym, image) in Symmetry::ALL.into_iter().zip(orbit(b)) {
                assert_eq!(
                    sym.bitboard(Bitboard::from_bits_truncate(b)).bits(),
                    image,
                    "{sym}"
                );
            }
            b = b.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17) & ((1 << 36) - 1);
        }
    }

    #[test]
    fn rank_and_select_agree_with_a_scan() {
        for pieces in [0, 1, 2, 3, 4, 33, 36] {
            for threads in [1, 3] {
                let dir = OccupancyDirectory::build_with_threads(pieces, threads);
                let mut k = 0;
                for colex in 0..binomial(36, pieces) {
                    let set = colex_unrank(colex, pieces);
                    let canonical = orbit(set).into_iter().min() == Some(set);
                    assert_eq!(dir.contains(colex), canonical);
                    assert_eq!(dir.rank(colex), k);
                    if canonical {
                        assert_eq!(dir.select(k), colex);
                        assert_eq!(colex_rank(set), colex);
                        k += 1;
                    }
                    let expected = if canonical {
                        Some(colex)
                    } else {
                        (k < dir.canonical_count()).then(|| dir.select(k))
                    };
                    assert_eq!(dir.next_canonical(colex), expected);
                }
                assert_eq!(k, dir.canonical_count());
            }
        }
    }
}
