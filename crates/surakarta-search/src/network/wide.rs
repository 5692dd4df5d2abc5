//! The network's row loops (evaluation and training) in a second copy compiled for AVX2, chosen at run
//! time where the CPU has it.
//!
//! The loops over the accumulator's `i16` lanes are plain Rust that the
//! compiler vectorizes: for the build's baseline (`x86-64-v2`, SSE4.2:
//! eight lanes an instruction) and, through [`run`], with AVX2 (sixteen).
//! Both copies do the same operations on each lane, in the same order: the
//! evaluation's integers and the trainer's floats come out the same bit for
//! bit (tested); only the speed differs.
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
