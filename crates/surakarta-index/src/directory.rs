//! The directory of canonical occupied sets: a bitmap over the colex ranks of
//! all `n`-point sets, with a bit set for each set that is the least (as a
//! number) of its images under the eight symmetries, and rank and select
//! structures over it.
//!
//! The bitmap is stored in 64-byte blocks, each holding the number of
//! canonical sets before the block and 448 bits, so a rank costs one cache
//! line.

use crate::combinatorics::{binomial, colex_unrank, next_combination};
use surakarta::Bitboard;

/// Bits per block.
const BLOCK_BITS: u64 = 448;
/// One select sample every `1 << SAMPLE_SHIFT` canonical sets.
const SAMPLE_SHIFT: u32 = 10;

#[derive(Clone, Copy, Default, Debug)]
#[repr(C, align(64))]
struct Block {
    /// Canonical sets before this block.
    before: u64,
    bits: [u64; 7],
}

/// The eight images of a set under the symmetries, in the order of
/// [`surakarta::Symmetry::ALL`].
#[inline]
pub(crate) fn orbit(b: u64) -> [u64; 8] {
    let b = Bitboard(b);
    let f = b.flip_files();
    let t = b.transpose();
    let tf = t.flip_files();
    [
        b.0,
        f.0,
        b.flip_ranks().0,
        f.flip_ranks().0,
        t.0,
        tf.0,
        t.flip_ranks().0,
        tf.flip_ranks().0,
    ]
}

/// Whether `b` is the least of its images.
#[inline]
pub(crate) fn is_canonical(b: u64) -> bool {
    let bb = Bitboard(b);
    let f = bb.flip_files();
    if f.0 < b {
        return false;
    }
    let r = bb.flip_ranks();
    if r.0 < b || f.flip_ranks().0 < b {
        return false;
    }
    let t = bb.transpose();
    if t.0 < b {
        return false;
    }
    let tf = t.flip_files();
    tf.0 >= b && t.flip_ranks().0 >= b && tf.flip_ranks().0 >= b
}

/// Canonical `n`-point sets, ranked; shared by every material with `n`
/// pieces. Memory: `C(36, n) / 8` bytes plus a little (about 32 MB for
/// `n = 10`).
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
    pub fn build(pieces: u32) -> OccupancyDirectory {
        OccupancyDirectory::build_with_threads(pieces, 1)
    }

    /// Builds the directory on `threads` threads (at least one is used).
    /// Cost: one canonical test per set, `C(36, pieces)` sets (254 M for 10).
    pub fn build_with_threads(pieces: u32, threads: usize) -> OccupancyDirectory {
        let pieces = pieces.min(36);
        let sets = binomial(36, pieces);
        let block_count = sets.div_ceil(BLOCK_BITS) as usize;
        let mut blocks = vec![Block::default(); block_count];
        let threads = threads.clamp(1, block_count.max(1));
        let per_thread = block_count.div_ceil(threads);
        std::thread::scope(|scope| {
            for (i, chunk) in blocks.chunks_mut(per_thread.max(1)).enumerate() {
                let first = (i * per_thread) as u64 * BLOCK_BITS;
                scope.spawn(move || fill_blocks(chunk, first, sets, pieces));
            }
        });
        let mut canonical = 0u64;
        let mut samples = Vec::new();
        for (i, block) in blocks.iter_mut().enumerate() {
            block.before = canonical;
            let count: u64 = block.bits.iter().map(|w| w.count_ones() as u64).sum();
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
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// The number of canonical sets: the number of orbits of `n`-point sets
    /// under the symmetries.
    pub fn canonical_count(&self) -> u64 {
        self.canonical
    }

    /// Bytes of memory held.
    pub fn heap_bytes(&self) -> usize {
        self.blocks.len() * core::mem::size_of::<Block>() + self.samples.len() * 4
    }

    /// Whether the set with colex rank `colex` is canonical.
    #[cfg(test)]
    pub(crate) fn contains(&self, colex: u64) -> bool {
        let block = &self.blocks[(colex / BLOCK_BITS) as usize];
        let bit = colex % BLOCK_BITS;
        block.bits[(bit / 64) as usize] >> (bit % 64) & 1 == 1
    }

    /// The number of canonical sets with colex rank below `colex`.
    #[inline]
    pub(crate) fn rank(&self, colex: u64) -> u64 {
        let block = &self.blocks[(colex / BLOCK_BITS) as usize];
        let bit = colex % BLOCK_BITS;
        let word = (bit / 64) as usize;
        let mut count = block.before;
        for w in &block.bits[..word] {
            count += w.count_ones() as u64;
        }
        count + (block.bits[word] & ((1u64 << (bit % 64)) - 1)).count_ones() as u64
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
        let offset = self.blocks[lo..hi].partition_point(|b| b.before <= k);
        let index = lo + offset - 1;
        let block = &self.blocks[index];
        let mut left = k - block.before;
        for (w, &word) in block.bits.iter().enumerate() {
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
            let bits = &self.blocks[block].bits;
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
            blocks[(bit / BLOCK_BITS) as usize].bits[(bit % BLOCK_BITS / 64) as usize] |=
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

    #[test]
    fn orbit_order_matches_symmetries() {
        let b = 0x8_1c0f_3a51u64;
        for (sym, image) in Symmetry::ALL.into_iter().zip(orbit(b)) {
            assert_eq!(sym.bitboard(Bitboard(b)).0, image, "{sym}");
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
