//! Bit compression (`pext`/`pdep`) of 36-bit board sets, by tables or by the
//! BMI2 instructions, and the one run-time dispatch between the two.
//!
//! This module holds all of the crate's `unsafe` code (the rest of the crate
//! denies it): the BMI2 intrinsics, the functions compiled with BMI2 and
//! POPCNT enabled, and [`dispatch`], which calls them. Calling them is sound
//! because a [`Bmi2`] token exists only if the CPU has both features, and
//! only [`Bmi2::detect`] makes one.

/// Bit compression (`pext`) and expansion (`pdep`) of 36-bit words: by tables
/// ([`Portable`]) or by the BMI2 instructions ([`Bmi2`]).
pub(crate) trait BitCompress: Copy {
    /// Whether `pext` is one instruction (so no table pass is needed).
    const HARDWARE: bool;
    /// The bits of `x` selected by `mask`, packed low.
    fn pext(self, x: u64, mask: u64) -> u64;
    /// The low bits of `x` spread onto the set bits of `mask`.
    fn pdep(self, x: u64, mask: u64) -> u64;

    /// A 36-bit board set in the wide layout: rank `r` in byte `r`.
    #[inline(always)]
    fn widen(self, b: u64) -> u64 {
        (b & 0x3f)
            | (b & 0xfc0) << 2
            | (b & 0x3_f000) << 4
            | (b & 0xfc_0000) << 6
            | (b & 0x3f00_0000) << 8
            | (b & 0xf_c000_0000) << 10
    }

    /// The inverse of [`BitCompress::widen`].
    #[inline(always)]
    fn narrow(self, w: u64) -> u64 {
        (w & 0x3f)
            | (w >> 2 & 0xfc0)
            | (w >> 4 & 0x3_f000)
            | (w >> 6 & 0xfc_0000)
            | (w >> 8 & 0x3f00_0000)
            | (w >> 10 & 0xf_c000_0000)
    }
}

/// The points of the wide layout: six low bits of bytes 0 to 5.
pub(crate) const WIDE_BOARD: u64 = 0x3f3f_3f3f_3f3f;

/// Table-driven bit compression, for every CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Portable;

impl BitCompress for Portable {
    const HARDWARE: bool = false;

    #[inline(always)]
    fn pext(self, x: u64, mask: u64) -> u64 {
        pext_portable(x, mask)
    }

    #[inline(always)]
    fn pdep(self, x: u64, mask: u64) -> u64 {
        pdep_portable(x, mask)
    }
}

/// Proof that the CPU has BMI2 and POPCNT and runs `pext`/`pdep` fast: only
/// [`Bmi2::detect`] makes one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bmi2 {
    _detected: (),
}

impl Bmi2 {
    /// A token if the CPU has BMI2 and POPCNT and executes BMI2 fast (AMD
    /// before Zen 3, CPU family 0x19, runs `pext` in microcode, slower than
    /// the tables). The CPU is examined once per process.
    pub(crate) fn detect() -> Option<Bmi2> {
        static FAST_BMI2: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        if *FAST_BMI2.get_or_init(fast_bmi2) {
            Some(Bmi2 { _detected: () })
        } else {
            None
        }
    }
}

/// Whether the CPU has BMI2 and POPCNT (everything the BMI2 copies of the
/// code are compiled for) and is not an AMD CPU before Zen 3.
fn fast_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && !slow_bmi2()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this is an AMD CPU older than Zen 3.
#[cfg(target_arch = "x86_64")]
fn slow_bmi2() -> bool {
    use core::arch::x86_64::__cpuid;
    // SAFETY: every x86-64 CPU has the CPUID instruction and leaves 0 and 1.
    // Compilers since 1.94 declare `__cpuid` safe; older ones need the block.
    #[allow(unused_unsafe)]
    let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1).eax) };
    let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
    let family = (signature >> 8 & 0xf) + (signature >> 20 & 0xff);
    amd && family < 0x19
}

impl BitCompress for Bmi2 {
    const HARDWARE: bool = true;

    #[inline(always)]
    fn pext(self, x: u64, mask: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: a `Bmi2` token exists only if the CPU has BMI2.
            unsafe { core::arch::x86_64::_pext_u64(x, mask) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            pext_portable(x, mask)
        }
    }

    #[inline(always)]
    fn pdep(self, x: u64, mask: u64) -> u64 {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: a `Bmi2` token exists only if the CPU has BMI2.
            unsafe { core::arch::x86_64::_pdep_u64(x, mask) }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            pdep_portable(x, mask)
        }
    }

    #[inline(always)]
    fn widen(self, b: u64) -> u64 {
        self.pdep(b, WIDE_BOARD)
    }

    #[inline(always)]
    fn narrow(self, w: u64) -> u64 {
        self.pext(w, WIDE_BOARD)
    }
}

/// Work generic over the bit compression, run by [`dispatch`].
pub(crate) trait WithBits {
    /// The result.
    type Output;

    /// Does the work with `bits`. Implementations should be
    /// `#[inline(always)]`, so that [`dispatch`]'s BMI2 copy inlines them and
    /// the instructions with them.
    fn run<B: BitCompress>(self, bits: B) -> Self::Output;
}

/// Runs `work` with the BMI2 instructions, in a copy compiled for BMI2 and
/// POPCNT, if `bmi2` holds a token; with the tables otherwise.
#[inline(always)]
pub(crate) fn dispatch<W: WithBits>(bmi2: Option<Bmi2>, work: W) -> W::Output {
    #[cfg(target_arch = "x86_64")]
    if let Some(bmi2) = bmi2 {
        // SAFETY: a `Bmi2` token exists only if the CPU has BMI2 and POPCNT,
        // the features `run_bmi2` is compiled for.
        return unsafe { run_bmi2(bmi2, work) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = bmi2;
    work.run(Portable)
}

/// [`WithBits::run`] compiled for BMI2 and POPCNT, so the intrinsics inline.
///
/// # Safety
///
/// The CPU must have BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
unsafe fn run_bmi2<W: WithBits>(bits: Bmi2, work: W) -> W::Output {
    work.run(bits)
}

/// `pdep(x, mask)` by the instruction if `bmi2` holds a token, by tables
/// otherwise.
#[inline]
pub(crate) fn pdep(bmi2: Option<Bmi2>, x: u64, mask: u64) -> u64 {
    match bmi2 {
        Some(bmi2) => bmi2.pdep(x, mask),
        None => Portable.pdep(x, mask),
    }
}

/// `pext(x, mask)` by the instruction if `bmi2` holds a token, by tables
/// otherwise.
#[inline]
pub(crate) fn pext(bmi2: Option<Bmi2>, x: u64, mask: u64) -> u64 {
    match bmi2 {
        Some(bmi2) => bmi2.pext(x, mask),
        None => Portable.pext(x, mask),
    }
}

/// `PEXT6[mask][bits]`: the bits of `bits` selected by `mask`, packed low.
pub(crate) static PEXT6: [[u8; 64]; 64] = {
    let mut t = [[0u8; 64]; 64];
    let mut mask = 0;
    while mask < 64 {
        let mut bits = 0;
        while bits < 64 {
            let mut out = 0;
            let mut k = 0;
            let mut i = 0;
            while i < 6 {
                if mask >> i & 1 == 1 {
                    out |= (bits >> i & 1) << k;
                    k += 1;
                }
                i += 1;
            }
            t[mask][bits] = out as u8;
            bits += 1;
        }
        mask += 1;
    }
    t
};

/// `PDEP6[mask][bits]`: the low bits of `bits` spread onto the set bits of
/// `mask`.
static PDEP6: [[u8; 64]; 64] = {
    let mut t = [[0u8; 64]; 64];
    let mut mask = 0;
    while mask < 64 {
        let mut bits = 0;
        while bits < 64 {
            let mut out = 0;
            let mut k = 0;
            let mut i = 0;
            while i < 6 {
                if mask >> i & 1 == 1 {
                    out |= (bits >> k & 1) << i;
                    k += 1;
                }
                i += 1;
            }
            t[mask][bits] = out as u8;
            bits += 1;
        }
        mask += 1;
    }
    t
};

/// Parallel bit extract of a 36-bit `x` under a 36-bit `mask`, by tables.
#[inline]
pub(crate) fn pext_portable(x: u64, mask: u64) -> u64 {
    let mut out = 0;
    let mut shift = 0;
    let mut c = 0;
    while c < 36 {
        let m = (mask >> c & 63) as usize;
        out |= (PEXT6[m][(x >> c & 63) as usize] as u64) << shift;
        shift += m.count_ones();
        c += 6;
    }
    out
}

/// Parallel bit deposit of `x` onto a 36-bit `mask`, by tables.
#[inline]
pub(crate) fn pdep_portable(mut x: u64, mask: u64) -> u64 {
    let mut out = 0;
    let mut c = 0;
    while c < 36 {
        let m = (mask >> c & 63) as usize;
        out |= (PDEP6[m][(x & 63) as usize] as u64) << c;
        x >>= m.count_ones();
        c += 6;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// All four operations through `dispatch`, with the bits' `HARDWARE`.
    struct AllOps {
        x: u64,
        mask: u64,
    }

    impl WithBits for AllOps {
        type Output = (bool, [u64; 4]);

        #[inline(always)]
        fn run<B: BitCompress>(self, bits: B) -> (bool, [u64; 4]) {
            let packed = self.x & ((1 << self.mask.count_ones()) - 1);
            let ops = [
                bits.pext(self.x, self.mask),
                bits.pdep(packed, self.mask),
                bits.widen(self.mask),
                bits.narrow(self.x & WIDE_BOARD),
            ];
            (B::HARDWARE, ops)
        }
    }

    fn all_ops(bmi2: Option<Bmi2>, x: u64, mask: u64) -> (bool, [u64; 4]) {
        dispatch(bmi2, AllOps { x, mask })
    }

    /// The detection is what `std` reports, minus the slow AMD CPUs, and the
    /// same every time.
    #[test]
    fn detection_checks_both_features() {
        #[cfg(target_arch = "x86_64")]
        let expected = std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && !slow_bmi2();
        #[cfg(not(target_arch = "x86_64"))]
        let expected = false;
        assert_eq!(Bmi2::detect().is_some(), expected);
        assert_eq!(Bmi2::detect(), Bmi2::detect());
    }

    /// `dispatch` takes the BMI2 copy exactly when given a token.
    #[test]
    fn dispatch_takes_the_path_of_the_token() {
        assert!(!all_ops(None, 0, 0).0);
        if let Some(bmi2) = Bmi2::detect() {
            assert!(all_ops(Some(bmi2), 0, 0).0);
        }
    }

    #[test]
    fn widen_and_narrow_are_inverse() {
        let full = (1u64 << 36) - 1;
        assert_eq!(Portable.widen(full), WIDE_BOARD);
        assert_eq!(Portable.narrow(WIDE_BOARD), full);
        for b in [0, 1, 1 << 35, 0x5_5555_5555, 0xa_aaaa_aaaa, full] {
            assert_eq!(Portable.narrow(Portable.widen(b)), b);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// Instructions (called directly, through `dispatch`'s BMI2 copy and
        /// through `pdep`) and tables agree on 36-bit words.
        #[test]
        fn bmi2_matches_portable(x in 0..1u64 << 36, mask in 0..1u64 << 36, sparse in any::<bool>()) {
            // Sparse masks as well: the tables' chunk boundaries matter.
            let mask = if sparse { mask & mask.rotate_left(13) & mask.rotate_left(29) } else { mask };
            let expected = all_ops(None, x, mask).1;
            let packed = x & ((1 << mask.count_ones()) - 1);
            prop_assert_eq!(pdep(None, packed, mask), expected[1]);
            if let Some(bmi2) = Bmi2::detect() {
                prop_assert_eq!(all_ops(Some(bmi2), x, mask).1, expected);
                prop_assert_eq!(AllOps { x, mask }.run(bmi2), (true, expected));
                prop_assert_eq!(pdep(Some(bmi2), packed, mask), expected[1]);
            }
        }
    }
}
