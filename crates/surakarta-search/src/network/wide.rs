//! The network's row loops (evaluation and training) in a second copy
//! compiled for AVX2, chosen at run time where the CPU has it.
//!
//! The loops over the accumulator's `i16` lanes (and the trainer's `f32`
//! ones) are plain Rust that the compiler vectorizes: for the build's
//! baseline (`x86-64-v2` in this workspace, SSE2 on any x86-64) and,
//! through [`run`], with AVX2. Both copies give the same results bit for
//! bit (tested): the integer sums cannot overflow ([`super::file`]
//! checks), so their grouping does not matter, and the floats are
//! computed lane by lane in the same order, without contraction into
//! fused multiply-adds. Only the speed differs.
//!
//! This module holds all of the crate's `unsafe` code (the rest of the
//! crate denies it): the call of the AVX2 copy, made only after the CPU was
//! found to have AVX2.

/// Runs `work`, in a copy compiled for AVX2 where the CPU has it.
///
/// `work` should be a closure calling `#[inline(always)]` code, so that the
/// AVX2 copy inlines it and its loops are vectorized with AVX2.
#[inline(always)]
pub(super) fn run<R>(work: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && !baseline_only() {
        // SAFETY: the CPU has AVX2, the one feature `run_avx2` is compiled
        // for (`is_x86_feature_detected!` asks the CPU once, then reads the
        // answer it cached).
        return unsafe { run_avx2(work) };
    }
    work()
}

/// `work` compiled for AVX2.
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn run_avx2<R>(work: impl FnOnce() -> R) -> R {
    work()
}

/// `work` in the AVX2 copy whatever [`set_baseline_only`] says, or `None`
/// where the CPU lacks AVX2: for the tests that compare the copies.
#[cfg(test)]
pub(super) fn run_avx2_if_available<R>(work: impl FnOnce() -> R) -> Option<R> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, the one feature `run_avx2` is compiled
        // for.
        return Some(unsafe { run_avx2(work) });
    }
    let _ = work;
    None
}

/// Whether tests have asked for the baseline copy everywhere
/// ([`set_baseline_only`]); never outside tests.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn baseline_only() -> bool {
    #[cfg(test)]
    return BASELINE_ONLY.load(std::sync::atomic::Ordering::Relaxed);
    #[cfg(not(test))]
    false
}

#[cfg(test)]
static BASELINE_ONLY: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes [`run`] take the baseline copy on every thread (`true`) or the
/// AVX2 copy where the CPU has it (`false`). The answers are the same
/// either way, so tests running meanwhile are not disturbed.
#[cfg(test)]
pub(super) fn set_baseline_only(baseline: bool) {
    BASELINE_ONLY.store(baseline, std::sync::atomic::Ordering::Relaxed);
}
