//! Lazy SMP: helper threads each run their own iterative deepening on the
//! root with a full window, every other one a ply deeper, filling the shared
//! transposition table (and history) for the main thread, whose iterations
//! alone are the result.

use std::sync::atomic::{AtomicBool, Ordering};

/// Raises the flag when dropped.
struct AbortOnDrop<'a>(&'a AtomicBool);

impl Drop for AbortOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The first iteration of helper `helper` (numbered from 1): the
/// odd-numbered ones start a ply deeper, to stay a ply ahead of the main
/// thread.
fn first_depth(helper: usize) -> i32 {
    (1 + helper % 2) as i32
}

/// Runs `main` on this thread beside `helpers` helpers on `pool` (the
/// engine's threads, which live as long as the engine: a search starts no
/// thread). Each helper builds its iteration with `new_helper` and runs it
/// at each depth from [`first_depth`] to `max_depth`, stopping after an
/// iteration that ends with `abort` raised. Whatever ends `main` (even a
/// panic, say in a report callback) raises `abort`, so the helpers stop and
/// the scope ends.
pub(super) fn with_helpers<H: FnMut(i32), R>(
    pool: &rayon::ThreadPool,
    helpers: usize,
    abort: &AtomicBool,
    max_depth: u32,
    new_helper: impl Fn() -> H + Sync,
    main: impl FnOnce() -> R,
) -> R {
    pool.in_place_scope(|scope| {
        for helper in 1..=helpers {
            let new_helper = &new_helper;
            scope.spawn(move |_| {
                let mut iterate = new_helper();
                for depth in first_depth(helper)..=max_depth as i32 {
                    iterate(depth);
                    if abort.load(Ordering::Relaxed) {
                        break;
                    }
                }
            });
        }
        let _stop_helpers = AbortOnDrop(abort);
        main()
    })
}
