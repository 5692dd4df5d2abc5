//! `surakarta serve`: the analysis board in the browser, served over HTTP
//! (docs/serve.md). This module only reads and checks the arguments; the
//! server is in `crate::serve`.

use crate::common::checks::in_range;
use crate::common::error::CliError;
use crate::common::evaluation::evaluation;
use crate::common::memory::{new_engine, usable_memory, RESERVE_BYTES};
use crate::common::tables;
use crate::common::threads::MAX_THREADS;
use crate::serve::{self, Config, ConnectionLimits};
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The longest `--max-movetime` accepted: one hour, in milliseconds.
const MAX_MOVETIME_MS: u64 = 3_600_000;
/// The most analyses `--max-analyses` may allow at once.
const MAX_ANALYSES: usize = 64;
/// The largest `--analysis-memory` accepted where the machine's memory is
/// not known, in MiB (4 TiB).
const MAX_ANALYSIS_MEMORY_MIB: usize = 4 << 20;
/// The largest `--max-connections`.
const MAX_CONNECTIONS: usize = 1_000_000;
/// The longest `--idle-timeout` and `--header-timeout`, in seconds.
const MAX_TIMEOUT_SECS: u64 = 3600;
/// File descriptors kept free beside the connections (the tables, the
/// runtime, connections refused at the cap while their 503 is sent).
const SPARE_FILES: u64 = 48;

/// The arguments of `surakarta serve`.
#[derive(Args, Debug)]
pub(crate) struct ServeArgs {
    /// Probe the endgame tables in this directory (values of positions and
    /// moves, /api/probe, and the analyses).
    #[arg(long, value_name = "DIR")]
    tb: Option<PathBuf>,
    /// The address and port to listen on; port 0 picks a free one (the
    /// printed URL shows it). Only the loopback address by default: anyone
    /// who can reach the port can run searches.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    bind: SocketAddr,
    /// Search threads of each analysis, 1 to 1024.
    #[arg(long, short = 't', value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Transposition table of each analysis in MiB, 1 to 65536.
    #[arg(long, value_name = "MB", default_value_t = 64,
          value_parser = in_range(1..=surakarta_search::MAX_HASH_MB))]
    hash: usize,
    /// The analyses' evaluation: `classic`, `paper`, `nnue` or `default`.
    #[arg(long, value_name = "NAME")]
    eval: Option<String>,
    /// A network file (`.sknn`) for the analyses instead of the embedded one.
    #[arg(long, value_name = "PATH")]
    eval_file: Option<PathBuf>,
    /// The longest analysis a client may ask for, in milliseconds (1 to
    /// 3600000).
    #[arg(long, value_name = "MS", default_value_t = 30_000)]
    max_movetime: u64,
    /// The most analyses running at once (1 to 64); more are answered 503.
    #[arg(long, value_name = "N", default_value_t = 2)]
    max_analyses: usize,
    /// The memory all running analyses' transposition tables may take
    /// together, in MiB; an analysis that would go over it is answered
    /// 503. Default: half of the memory the process may use at start (at
    /// least one --hash); 1 to 16777216 (16 TiB).
    #[arg(long, value_name = "MIB", value_parser = in_range(1..=1usize << 24))]
    analysis_memory: Option<usize>,
    /// The most connections open at once (1 to 1000000; lowered to fit the
    /// open-file limit). At the cap a new connection closes the one idle
    /// the longest, or is answered 503 if every one is busy.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    max_connections: usize,
    /// Seconds a connection may stay open with no request being read or
    /// answered (1 to 3600).
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    idle_timeout: u64,
    /// Seconds a request head (request line and headers) may take to
    /// arrive from its first byte (1 to 3600).
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    header_timeout: u64,
}

/// The analyses' memory budget in MiB: `given` if it holds one analysis's
/// engine of `analysis_mib` (its table, threads' stacks and search state:
/// [`engine_mib`](crate::common::memory::engine_mib)) and fits in what the process may use (`usable` bytes, if
/// known) less the [`RESERVE_BYTES`] the process keeps for itself, else
/// half of `usable` (at least one analysis; every analysis if `usable` is
/// unknown).
fn analysis_memory(
    given: Option<usize>,
    analysis_mib: usize,
    max_analyses: usize,
    usable: Option<u64>,
) -> Result<usize, CliError> {
    let usable_mib = usable.map(|bytes| usize::try_from(bytes >> 20).unwrap_or(usize::MAX));
    let Some(mib) = given else {
        return Ok(match usable_mib {
            Some(usable) => (usable / 2).max(analysis_mib),
            None => analysis_mib.saturating_mul(max_analyses),
        });
    };
    if mib < analysis_mib {
        return Err(CliError(format!(
            "--analysis-memory {mib} is out of range: it must hold one analysis's engine ({analysis_mib} MiB: its --hash table and the stacks and search state of its --threads)"
        )));
    }
    let reserve_mib = usize::try_from(RESERVE_BYTES >> 20).unwrap_or(usize::MAX);
    let most = usable_mib.map_or(MAX_ANALYSIS_MEMORY_MIB, |usable| {
        usable.saturating_sub(reserve_mib)
    });
    if mib > most {
        return Err(CliError(format!(
            "--analysis-memory {mib} is out of range: this process may use only {most} MiB for analyses (keeping {reserve_mib} MiB for itself)"
        )));
    }
    Ok(mib)
}

/// The open-file limit (soft) and the files open now, from
/// `/proc/self/limits` and `/proc/self/fd`; `None` where unknown.
fn file_room() -> Option<(u64, u64)> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    let soft: u64 = line
        .strip_prefix("Max open files")?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let open = std::fs::read_dir("/proc/self/fd").ok()?.count() as u64;
    Some((soft, open))
}

/// The connection cap: `wanted`, lowered so that the connections, the
/// files open now and [`SPARE_FILES`] fit under the open-file limit.
fn connection_cap(wanted: usize, room: Option<(u64, u64)>) -> Result<usize, CliError> {
    let Some((limit, open)) = room else {
        return Ok(wanted);
    };
    let free = limit.saturating_sub(open).saturating_sub(SPARE_FILES);
    if free < 4 {
        return Err(CliError(format!(
            "the open-file limit ({limit}, ulimit -n) leaves room for {free} connections: raise it"
        )));
    }
    Ok(wanted.min(usize::try_from(free).unwrap_or(usize::MAX)))
}

/// Checks the numbers, builds one engine with the analyses' options (so a
/// hash size the machine cannot give fails now, not per request) and opens
/// the tables.
fn check(args: &ServeArgs) -> Result<Config, CliError> {
    if args.threads == 0 || args.threads > MAX_THREADS {
        return Err(CliError(format!(
            "--threads {} is out of range: give 1 to {MAX_THREADS}",
            args.threads
        )));
    }
    if !(1..=MAX_MOVETIME_MS).contains(&args.max_movetime) {
        return Err(CliError(format!(
            "--max-movetime {} is out of range: give 1 to {MAX_MOVETIME_MS}",
            args.max_movetime
        )));
    }
    if !(1..=MAX_ANALYSES).contains(&args.max_analyses) {
        return Err(CliError(format!(
            "--max-analyses {} is out of range: give 1 to {MAX_ANALYSES}",
            args.max_analyses
        )));
    }
    if !(1..=MAX_CONNECTIONS).contains(&args.max_connections) {
        return Err(CliError(format!(
            "--max-connections {} is out of range: give 1 to {MAX_CONNECTIONS}",
            args.max_connections
        )));
    }
    for (flag, secs) in [
        ("--idle-timeout", args.idle_timeout),
        ("--header-timeout", args.header_timeout),
    ] {
        if !(1..=MAX_TIMEOUT_SECS).contains(&secs) {
            return Err(CliError(format!(
                "{flag} {secs} is out of range: give 1 to {MAX_TIMEOUT_SECS}"
            )));
        }
    }
    let tb = match &args.tb {
        Some(dir) => Some(Arc::new(tables::open(dir)?)),
        None => None,
    };
    let connections = ConnectionLimits {
        max_connections: connection_cap(args.max_connections, file_room())?,
        idle_timeout: Duration::from_secs(args.idle_timeout),
        header_timeout: Duration::from_secs(args.header_timeout),
    };
    let mut config = Config {
        bind: args.bind,
        tb,
        threads: args.threads,
        hash_mb: args.hash,
        evaluation: evaluation(
            args.eval.as_deref(),
            args.eval_file.as_deref(),
            ["--eval", "--eval-file"],
        )
        .map_err(CliError)?,
        max_movetime_ms: args.max_movetime,
        max_analyses: args.max_analyses,
        analysis_memory_mib: 0,
        connections,
    };
    config.engine_options().check()?;
    config.analysis_memory_mib = analysis_memory(
        args.analysis_memory,
        config.analysis_mib(),
        args.max_analyses,
        usable_memory(),
    )?;
    drop(new_engine(config.engine_options()).map_err(CliError)?);
    Ok(config)
}

/// Runs `surakarta serve` until SIGINT or SIGTERM.
pub(crate) fn run(args: ServeArgs) -> Result<(), CliError> {
    serve::run(check(&args)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::memory::engine_mib;
    use surakarta_search::Options;

    #[test]
    fn the_memory_budget_defaults_to_half_and_is_checked() {
        let gib = Some(4u64 << 30);
        assert_eq!(analysis_memory(None, 64, 2, gib).unwrap(), 2048);
        assert_eq!(analysis_memory(None, 3000, 2, gib).unwrap(), 3000);
        assert_eq!(analysis_memory(None, 64, 3, None).unwrap(), 192);
        assert_eq!(analysis_memory(Some(100), 64, 3, gib).unwrap(), 100);
        assert!(analysis_memory(Some(63), 64, 3, gib).is_err());
        assert!(analysis_memory(Some(4097), 64, 3, gib).is_err());
        assert!(analysis_memory(Some(usize::MAX), 64, 3, None).is_err());
    }

    #[test]
    fn the_memory_budget_leaves_the_reserve_free() {
        // A budget taking all the room would let the analyses' tables push
        // the server itself over a cgroup limit: the reserve a single table
        // keeps aside stays free of the budget too.
        let gib = Some(1u64 << 30);
        assert!(analysis_memory(Some(1024), 64, 2, gib).is_err());
        assert!(analysis_memory(Some(1000), 64, 2, gib).is_err());
        assert_eq!(analysis_memory(Some(992), 64, 2, gib).unwrap(), 992);
        assert_eq!(analysis_memory(None, 64, 2, gib).unwrap(), 512);
    }

    #[test]
    fn an_analysis_counts_its_threads_as_well_as_its_table() {
        // 495 MiB of hash and 256 threads do not fit in 990 MiB: the
        // threads' stacks and search state are counted.
        let options = |threads| Options {
            threads,
            hash_mb: 495,
            ..Options::default()
        };
        let many = usize::try_from(engine_mib(&options(256))).unwrap();
        assert!(many > 990, "{many}");
        let gib = Some(1u64 << 30);
        let error = analysis_memory(Some(990), many, 2, gib).unwrap_err();
        assert!(
            error.0.contains("must hold one analysis's engine"),
            "{}",
            error.0
        );
        let one = usize::try_from(engine_mib(&options(1))).unwrap();
        assert_eq!(analysis_memory(Some(990), one, 2, gib).unwrap(), 990);
    }

    #[test]
    fn the_connection_cap_fits_the_open_file_limit() {
        assert_eq!(connection_cap(1000, None).unwrap(), 1000);
        assert_eq!(connection_cap(1000, Some((20000, 10))).unwrap(), 1000);
        assert_eq!(connection_cap(1000, Some((128, 12))).unwrap(), 68);
        assert!(connection_cap(1000, Some((60, 12))).is_err());
    }
}
