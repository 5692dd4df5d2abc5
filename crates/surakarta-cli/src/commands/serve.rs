//! `surakarta serve`: the analysis board in the browser, served over HTTP
//! (docs/serve.md). This module only reads and checks the arguments; the
//! server is in `crate::serve`.

use crate::common::memory::new_engine;
use crate::common::tables;
use crate::common::threads::MAX_THREADS;
use crate::common::usage::UsageError;
use crate::serve::{self, Config};
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

/// The longest `--max-movetime` accepted: one hour, in milliseconds.
const MAX_MOVETIME_MS: u64 = 3_600_000;
/// The most analyses `--max-analyses` may allow at once.
const MAX_ANALYSES: usize = 64;

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
    #[arg(long, value_name = "MB", default_value_t = 64)]
    hash: usize,
    /// The longest analysis a client may ask for, in milliseconds (1 to
    /// 3600000).
    #[arg(long, value_name = "MS", default_value_t = 30_000)]
    max_movetime: u64,
    /// The most analyses running at once (1 to 64); more are answered 503.
    #[arg(long, value_name = "N", default_value_t = 2)]
    max_analyses: usize,
}

/// Checks the numbers, builds one engine with the analyses' options (so a
/// hash size the machine cannot give fails now, not per request) and opens
/// the tables.
fn check(args: &ServeArgs) -> Result<Config, UsageError> {
    if args.threads == 0 || args.threads > MAX_THREADS {
        return Err(UsageError(format!(
            "--threads {} is out of range: give 1 to {MAX_THREADS}",
            args.threads
        )));
    }
    if !(1..=MAX_MOVETIME_MS).contains(&args.max_movetime) {
        return Err(UsageError(format!(
            "--max-movetime {} is out of range: give 1 to {MAX_MOVETIME_MS}",
            args.max_movetime
        )));
    }
    if !(1..=MAX_ANALYSES).contains(&args.max_analyses) {
        return Err(UsageError(format!(
            "--max-analyses {} is out of range: give 1 to {MAX_ANALYSES}",
            args.max_analyses
        )));
    }
    let tb = match &args.tb {
        Some(dir) => Some(Arc::new(tables::open(dir)?)),
        None => None,
    };
    let config = Config {
        bind: args.bind,
        tb,
        threads: args.threads,
        hash_mb: args.hash,
        max_movetime_ms: args.max_movetime,
        max_analyses: args.max_analyses,
    };
    drop(new_engine(config.engine_options()).map_err(UsageError)?);
    Ok(config)
}

/// Runs `surakarta serve` until SIGINT or SIGTERM.
pub(crate) fn run(args: ServeArgs) -> Result<(), UsageError> {
    serve::run(check(&args)?)
}
