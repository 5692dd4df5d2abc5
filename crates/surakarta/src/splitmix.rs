//! SplitMix64, the one pseudo-random sequence of the crate: the step
//! function, usable in constant evaluation for the fixed Zobrist keys, and
//! the seeded generator [`SplitMix`] built on it (exported as
//! `surakarta::random::SplitMix`).

/// One SplitMix64 step: the next state and the output it gives.
pub(crate) const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

/// A seeded pseudo-random generator (SplitMix64): fast, 64 bits of state,
/// not for cryptography.
///
/// # Examples
///
/// ```
/// use surakarta::random::SplitMix;
///
/// let mut a = SplitMix::new(42);
/// let mut b = SplitMix::new(42);
/// assert_eq!(a.next_u64(), b.next_u64()); // seeded: reproducible
/// assert!(a.below(6) < 6);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator started from `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let (state, out) = splitmix64(self.0);
        self.0 = state;
        out
    }

    /// A number below `n`, or 0 when `n` is 0 (Lemire's multiply-shift, so
    /// every value is within 2⁻⁶⁴ of equally likely).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_numbers() {
        let mut a = SplitMix::new(42);
        let mut b = SplitMix::new(42);
        let xs: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..8).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(xs[0], xs[1]);
        // The published first output of SplitMix64 from seed 0.
        assert_eq!(SplitMix::new(0).next_u64(), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = SplitMix::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7)] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        assert_eq!(rng.below(0), 0);
    }
}
