//! Searching many positions at once: each worker thread has its own
//! engine and takes the next position until none is left, so the result
//! of a job that depends only on its position does not depend on the
//! number of workers.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use surakarta_search::{Engine, Options, SearchError, MAX_THREADS};

/// Runs `job(engine, i)` for every `i` in `0..count` on `threads` workers
/// (1 to [`MAX_THREADS`]; no more start than there are jobs), each with an
/// engine of `options` on one thread, made once and started on a new game
/// (an empty transposition table) before every job, so that a job's result
/// depends on nothing the worker did before. The first error stops the
/// workers and is returned.
pub(crate) fn on_engines<E>(
    options: &Options,
    threads: usize,
    count: usize,
    job: impl Fn(&mut Engine, usize) -> Result<(), E> + Sync,
) -> Result<(), E>
where
    E: From<SearchError> + Send,
{
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(SearchError::Threads(threads).into());
    }
    let options = Options {
        threads: 1,
        ..options.clone()
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let failed: Mutex<Option<E>> = Mutex::new(None);
    let fail = |e: E| {
        stop.store(true, Ordering::Relaxed);
        failed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_or_insert(e);
    };
    std::thread::scope(|scope| {
        for _ in 0..threads.min(count) {
            scope.spawn(|| {
                let mut engine = match Engine::new(options.clone()) {
                    Ok(e) => e,
                    Err(e) => return fail(e.into()),
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count || stop.load(Ordering::Relaxed) {
                        return;
                    }
                    engine.new_game();
                    if let Err(e) = job(&mut engine, i) {
                        return fail(e);
                    }
                }
            });
        }
    });
    match failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_job_runs_once_and_the_first_error_stops_the_rest() {
        let ran: Vec<AtomicUsize> = (0..50).map(|_| AtomicUsize::new(0)).collect();
        let result: Result<(), SearchError> = on_engines(&Options::default(), 3, 50, |_, i| {
            ran[i].fetch_add(1, Ordering::Relaxed);
            Ok(())
        });
        assert_eq!(result, Ok(()));
        assert!(ran.iter().all(|r| r.load(Ordering::Relaxed) == 1));

        let done = AtomicUsize::new(0);
        let result = on_engines(&Options::default(), 2, 1_000, |_, i| {
            done.fetch_add(1, Ordering::Relaxed);
            if i == 3 {
                Err(SearchError::Threads(i))
            } else {
                Ok(())
            }
        });
        assert_eq!(result, Err(SearchError::Threads(3)));
        assert!(done.load(Ordering::Relaxed) < 1_000);

        assert_eq!(
            on_engines(&Options::default(), 0, 5, |_, _| Ok::<(), SearchError>(())),
            Err(SearchError::Threads(0))
        );
        let no_memory = Options {
            hash_mb: 0,
            ..Options::default()
        };
        assert_eq!(
            on_engines(&no_memory, 1, 5, |_, _| Ok::<(), SearchError>(())),
            Err(SearchError::Hash(0))
        );
    }
}
