//! Binomial coefficients, the combinatorial number system (colex ranks of
//! bit sets) and bit compression (PEXT/PDEP), all table driven.
//!
//! The colex rank of a set `{p_0 < p_1 < … < p_{k-1}}` is
//! `C(p_0, 1) + C(p_1, 2) + … + C(p_{k-1}, k)`: the number of `k`-sets that
//! come before it when sets are compared as binary numbers. Ranking reads the
//! 36-bit word in six 6-bit chunks; the contribution of a chunk depends only
//! on its bits and on how many set bits lie below it, so one table lookup per
//! chunk replaces the loop over bits.

use crate::bits::{BitCompress, PEXT6, WIDE_BOARD};

/// Largest `n` in [`binomial`]'s table.
const MAX_N: usize = 36;

/// `BINOMIAL[n][k] = C(n, k)` for `n, k <= 36` (zero when `k > n`).
static BINOMIAL: [[u64; MAX_N + 1]; MAX_N + 1] = {
    let mut t = [[0u64; MAX_N + 1]; MAX_N + 1];
    let mut n = 0;
    while n <= MAX_N {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, k)` for `n, k <= 36`; zero when `k > n`.
#[inline]
pub(crate) fn binomial(n: u32, k: u32) -> u64 {
    BINOMIAL[n as usize][k as usize]
}

/// Bits per chunk of the chunked tables: one rank of the board.
const CHUNK: u32 = 6;
/// Chunks in a 36-bit word.
const CHUNKS: usize = 6;

/// `COLEX[c][below][bits]`: the colex contribution of the set bits `bits` of
/// chunk `c` when `below` set bits lie in the lower chunks.
static COLEX: [[[u64; 64]; 31]; CHUNKS] = {
    let mut t = [[[0u64; 64]; 31]; CHUNKS];
    let mut c = 0;
    while c < CHUNKS {
        let mut below = 0;
        while below <= 6 * c && below < 31 {
            let mut bits = 0;
            while bits < 64 {
                let mut sum = 0;
                let mut seen = below;
                let mut i = 0;
                while i < 6 {
                    if bits >> i & 1 == 1 {
                        seen += 1;
                        sum += BINOMIAL[6 * c + i][seen];
                    }
                    i += 1;
                }
                t[c][below][bits] = sum;
                bits += 1;
            }
            below += 1;
        }
        c += 1;
    }
    t
};

/// `COLEX_32`: [`COLEX`] truncated to 32 bits, half the cache footprint. Sums
/// of its entries wrap to the colex rank modulo 2^32, which is the rank itself
/// for set sizes where all ranks fit in 32 bits ([`ranks_fit_u32`]).
static COLEX_32: [[[u32; 64]; 31]; CHUNKS] = {
    let mut t = [[[0u32; 64]; 31]; CHUNKS];
    let mut c = 0;
    while c < CHUNKS {
        let mut below = 0;
        while below < 31 {
            let mut bits = 0;
            while bits < 64 {
                t[c][below][bits] = COLEX[c][below][bits] as u32;
                bits += 1;
            }
            below += 1;
        }
        c += 1;
    }
    t
};

/// Whether the colex ranks of all `k`-point sets fit in 32 bits (`k <= 14`
/// or `k >= 22`), so [`wide_colex_rank`] may use the 32-bit table.
pub(crate) fn ranks_fit_u32(k: u32) -> bool {
    binomial(36, k) <= 1 << 32
}

/// The colex rank of a set `w` in the wide layout (rank `r` of the board in
/// the low six bits of byte `r`), from the 32-bit table if `fits_u32` (see
/// [`ranks_fit_u32`]).
#[inline(always)]
pub(crate) fn wide_colex_rank(w: u64, fits_u32: bool) -> u64 {
    debug_assert!(w & !WIDE_BOARD == 0);
    if fits_u32 {
        let mut rank = 0u32;
        for c in 0..CHUNKS {
            rank = rank.wrapping_add(COLEX_32[c][wide_below(w, c)][wide_chunk(w, c)]);
        }
        rank as u64
    } else {
        wide_colex_rank_u64(w)
    }
}

/// [`wide_colex_rank`] with 64-bit sums. Out of line: only sets of 15 to 21
/// points need it, and inlined it costs the rank functions registers.
#[inline(never)]
fn wide_colex_rank_u64(w: u64) -> u64 {
    let mut rank = 0;
    for c in 0..CHUNKS {
        rank += COLEX[c][wide_below(w, c)][wide_chunk(w, c)];
    }
    rank
}

/// The number of points of the wide-layout set `w` in the ranks below `c`.
/// Masking with the board bounds it by 30, so table indices need no check.
#[inline(always)]
fn wide_below(w: u64, c: usize) -> usize {
    (w & WIDE_BOARD & ((1u64 << (8 * c)) - 1)).count_ones() as usize
}

/// The points of the wide-layout set `w` in rank `c`.
#[inline(always)]
fn wide_chunk(w: u64, c: usize) -> usize {
    (w >> (8 * c) & 63) as usize
}

/// The colex rank of the set `w` (bits 0..36) among all sets of its size.
#[cfg(test)]
pub(crate) fn colex_rank(w: u64) -> u64 {
    debug_assert!(w >> 36 == 0);
    let mut rank = 0;
    let mut c = 0;
    while c < CHUNKS {
        let below = (w & ((1u64 << (CHUNK * c as u32)) - 1)).count_ones() as usize;
        rank += COLEX[c][below][(w >> (CHUNK * c as u32) & 63) as usize];
        c += 1;
    }
    rank
}

/// The colex rank of the set `occupied` and the bits of `x` it selects,
/// packed low (`pext(x, occupied)`): one pass over the chunks shares the
/// prefix counts between both.
#[inline(always)]
pub(crate) fn colex_rank_and_pext<B: BitCompress>(bits: B, occupied: u64, x: u64) -> (u64, u64) {
    debug_assert!(occupied >> 36 == 0);
    let mut rank = 0;
    let mut packed = 0;
    let mut c = 0;
    while c < CHUNKS {
        let shift = CHUNK * c as u32;
        let below = (occupied & ((1u64 << shift) - 1)).count_ones();
        let chunk = (occupied >> shift & 63) as usize;
        rank += COLEX[c][below as usize][chunk];
        if !B::HARDWARE {
            packed |= (PEXT6[chunk][(x >> shift & 63) as usize] as u64) << below;
        }
        c += 1;
    }
    if B::HARDWARE {
        packed = bits.pext(x, occupied);
    }
    (rank, packed)
}

/// The colex rank of a set confined to bits `0..24` (four chunks).
#[inline(always)]
pub(crate) fn colex_rank_24(w: u64) -> u64 {
    debug_assert!(w >> 24 == 0);
    let b1 = (w & 0x3f).count_ones() as usize;
    let b2 = (w & 0xfff).count_ones() as usize;
    let b3 = (w & 0x3_ffff).count_ones() as usize;
    COLEX[0][0][(w & 63) as usize]
        + COLEX[1][b1][(w >> 6 & 63) as usize]
        + COLEX[2][b2][(w >> 12 & 63) as usize]
        + COLEX[3][b3][(w >> 18 & 63) as usize]
}

/// `COLEX_12[w]`: the colex rank of the set `w < 2^12` (at most 924).
static COLEX_12: [u16; 4096] = {
    let mut t = [0u16; 4096];
    let mut w = 0;
    while w < 4096 {
        let mut rank = 0;
        let mut seen = 0;
        let mut i = 0;
        while i < 12 {
            if w >> i & 1 == 1 {
                seen += 1;
                rank += BINOMIAL[i][seen];
            }
            i += 1;
        }
        t[w] = rank as u16;
        w += 1;
    }
    t
};

/// The colex rank of a colour pattern of `pieces` bits (`pieces <= 24`): one
/// lookup up to 12 pieces.
#[inline(always)]
pub(crate) fn pattern_rank(pattern: u64, pieces: u32) -> u64 {
    if pieces <= 12 {
        COLEX_12[(pattern & 0xfff) as usize] as u64
    } else {
        colex_rank_24(pattern)
    }
}

/// The `k`-set (`k <= 36`) with colex rank `rank`; `rank` must be below
/// `C(36, k)`.
#[inline]
pub(crate) fn colex_unrank(mut rank: u64, k: u32) -> u64 {
    debug_assert!(rank < binomial(36, k));
    let mut set = 0u64;
    let mut p = 36u32;
    let mut k = k as usize;
    while k > 0 {
        // Largest p with C(p, k) <= rank; p >= k - 1 because C(k-1, k) = 0.
        p -= 1;
        while BINOMIAL[p as usize][k] > rank {
            p -= 1;
        }
        rank -= BINOMIAL[p as usize][k];
        set |= 1 << p;
        k -= 1;
    }
    set
}

/// The next larger set with the same number of bits (Gosper's hack); the
/// result may run past bit 35, which ends an enumeration.
#[inline]
pub(crate) fn next_combination(x: u64) -> u64 {
    let low = x & x.wrapping_neg();
    let ripple = x + low;
    ripple | ((x ^ ripple) >> 2) >> x.trailing_zeros()
}

/// The next subset of `mask` after `x` (a subset of `mask`) with the same
/// number of bits, in the order of the compressed values `pext(x, mask)`.
/// `x` must not be the last such subset (the highest bits of `mask`).
#[inline]
pub(crate) fn next_subset_within(x: u64, mask: u64) -> u64 {
    let low = x & x.wrapping_neg();
    // Carries run through the lowest block of `x` and the holes of `mask`.
    let moved = (x | !mask).wrapping_add(low) & mask;
    let refill = x.count_ones() - moved.count_ones();
    moved | lowest_bits(mask, refill)
}

/// The `k` lowest set bits of `mask`.
#[inline]
pub(crate) fn lowest_bits(mut mask: u64, k: u32) -> u64 {
    let mut out = 0;
    for _ in 0..k {
        out |= mask & mask.wrapping_neg();
        mask &= mask - 1;
    }
    out
}

/// The `k` highest set bits of `mask`.
#[inline]
pub(crate) fn highest_bits(mut mask: u64, k: u32) -> u64 {
    let mut out = 0;
    for _ in 0..k {
        let top = 1u64 << (63 - mask.leading_zeros());
        out |= top;
        mask ^= top;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::{pdep_portable, pext_portable, Bmi2, Portable};

    /// Plain colex rank: a loop over the set bits.
    fn colex_rank_loop(w: u64) -> u64 {
        let mut rank = 0;
        for (i, p) in (0..36).filter(|p| w >> p & 1 == 1).enumerate() {
            rank += binomial(p, i as u32 + 1);
        }
        rank
    }

    fn pext_loop(x: u64, mask: u64) -> u64 {
        let mut out = 0;
        for (k, i) in (0..64).filter(|i| mask >> i & 1 == 1).enumerate() {
            out |= (x >> i & 1) << k;
        }
        out
    }

    fn pdep_loop(x: u64, mask: u64) -> u64 {
        let mut out = 0;
        for (k, i) in (0..64).filter(|i| mask >> i & 1 == 1).enumerate() {
            out |= (x >> k & 1) << i;
        }
        out
    }

    fn words() -> impl Iterator<Item = u64> {
        let mut state = 0x243f_6a88_85a3_08d3u64;
        (0..20_000).map(move |i| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // Vary the density: AND or OR a few random words together.
            let w = match i % 4 {
                0 => state,
                1 => state & state.rotate_left(17),
                2 => state & state.rotate_left(17) & state.rotate_left(31),
                _ => state | state.rotate_left(9),
            };
            w & ((1 << 36) - 1)
        })
    }

    #[test]
    fn binomials() {
        assert_eq!(binomial(36, 6), 1_947_792);
        assert_eq!(binomial(36, 18), 9_075_135_300);
        assert_eq!(binomial(5, 7), 0);
        assert_eq!((0..=36).map(|k| binomial(36, k)).sum::<u64>(), 1 << 36);
    }

    #[test]
    fn chunked_colex_rank_matches_loop() {
        for w in words() {
            assert_eq!(colex_rank(w), colex_rank_loop(w), "{w:#x}");
            let low = w & 0xff_ffff;
            assert_eq!(colex_rank_24(low), colex_rank_loop(low), "{low:#x}");
            assert_eq!(pattern_rank(low, 24), colex_rank_loop(low), "{low:#x}");
            let low = w & 0xfff;
            assert_eq!(pattern_rank(low, 12), colex_rank_loop(low), "{low:#x}");
            let k = w.count_ones();
            assert_eq!(colex_unrank(colex_rank(w), k), w);
            let x = w.rotate_left(7) ^ w.rotate_right(3);
            assert_eq!(
                colex_rank_and_pext(Portable, w, x),
                (colex_rank_loop(w), pext_loop(x, w))
            );
        }
    }

    #[test]
    fn wide_colex_rank_matches_loop() {
        for w in words() {
            let wide = Portable.widen(w);
            let k = w.count_ones();
            assert_eq!(wide_colex_rank(wide, false), colex_rank_loop(w), "{w:#x}");
            if ranks_fit_u32(k) {
                assert_eq!(wide_colex_rank(wide, true), colex_rank_loop(w), "{w:#x}");
            }
        }
        // The largest set of each size, whose rank is the largest.
        for k in 0..=36 {
            let w = ((1u64 << k) - 1) << (36 - k);
            assert_eq!(
                wide_colex_rank(Portable.widen(w), false),
                binomial(36, k) - 1
            );
            if ranks_fit_u32(k) {
                assert_eq!(
                    wide_colex_rank(Portable.widen(w), true),
                    binomial(36, k) - 1
                );
            }
        }
        let fit: Vec<u32> = (0..=36).filter(|&k| ranks_fit_u32(k)).collect();
        assert_eq!(
            fit,
            [(0..=14).collect::<Vec<_>>(), (22..=36).collect()].concat()
        );
    }

    #[test]
    fn colex_order_is_numeric_order() {
        for k in [0, 1, 2, 3, 34, 35, 36] {
            let mut set = (1u64 << k) - 1;
            let mut rank = 0;
            while set >> 36 == 0 {
                assert_eq!(colex_rank(set), rank);
                assert_eq!(colex_unrank(rank, k), set);
                rank += 1;
                if set == 0 {
                    break;
                }
                set = next_combination(set);
            }
            assert_eq!(rank, binomial(36, k).max(1));
        }
    }

    #[test]
    fn pext_and_pdep_match_loops() {
        let all: Vec<u64> = words().collect();
        for pair in all.windows(2) {
            let (x, mask) = (pair[0], pair[1]);
            assert_eq!(pext_portable(x, mask), pext_loop(x, mask));
            if let Some(bmi2) = Bmi2::detect() {
                assert_eq!(bmi2.pext(x, mask), pext_loop(x, mask));
                let packed = x & ((1 << mask.count_ones()) - 1);
                assert_eq!(bmi2.pdep(packed, mask), pdep_loop(packed, mask));
                assert_eq!(colex_rank_and_pext(bmi2, mask, x).1, pext_loop(x, mask));
            }
            let packed = x & ((1 << mask.count_ones()) - 1);
            assert_eq!(pdep_portable(packed, mask), pdep_loop(packed, mask));
        }
    }

    #[test]
    fn subsets_within_a_mask_follow_compressed_order() {
        for mask in words().take(300) {
            let n = mask.count_ones();
            for k in 1..=n.min(4) {
                let mut x = lowest_bits(mask, k);
                let last = highest_bits(mask, k);
                let mut expected = (1u64 << k) - 1;
                loop {
                    assert_eq!(pext_loop(x, mask), expected);
                    if x == last {
                        break;
                    }
                    x = next_subset_within(x, mask);
                    expected = next_combination(expected);
                }
                assert_eq!(colex_rank(expected), binomial(n, k) - 1);
            }
        }
    }
}
