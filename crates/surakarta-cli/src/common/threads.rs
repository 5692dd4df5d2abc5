//! Worker threads: the `--threads` check and the rayon pool of `perft` and
//! the `tb` subcommands.

use crate::common::error::CliError;

/// Most worker threads accepted: the engine's bound, the same for every
/// command.
pub(crate) use surakarta_search::MAX_THREADS;

/// The number of worker threads for `--threads`: the value given if it is 1
/// to [`MAX_THREADS`], one per core if none was given.
pub(crate) fn check_threads(threads: Option<usize>) -> Result<usize, CliError> {
    match threads {
        Some(n) if n == 0 || n > MAX_THREADS => Err(CliError(format!(
            "--threads {n} is out of range: give 1 to {MAX_THREADS}"
        ))),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// A rayon pool of `threads` workers (checked by [`check_threads`]).
pub(crate) fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, CliError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError(format!("cannot start {threads} threads: {e}")))
}
