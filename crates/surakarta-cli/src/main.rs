//! The `surakarta` command line: a thin layer over the workspace's libraries.
//! It parses arguments, calls the libraries and prints; nothing else.
//!
//! Exit codes: 0 success, 1 a verification found errors (`tb verify`), 2 bad
//! input or a failure (one `error:` line on stderr; clap's own argument
//! errors also exit 2, with a usage hint).

mod capture_path;
mod draw;
mod engine;
mod matches;
mod perft;
mod play;
mod progress;
mod search;
mod show;
mod svg;
mod tb;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Surakarta from the command line: perft, endgame tablebases, search, an engine protocol, drawing and playing.
#[derive(Parser, Debug)]
#[command(name = "surakarta", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count move paths to a fixed depth (tests and benchmarks move generation).
    Perft(perft::PerftArgs),
    /// Endgame tablebases: generate (all, or one pair), probe, verify, statistics, compress, plan.
    Tb(tb::TbArgs),
    /// Search a position and print the best move.
    Search(search::SearchArgs),
    /// Speak the engine protocol (docs/protocol.md) on stdin and stdout.
    Engine(engine::EngineProtocolArgs),
    /// Search a fixed set of positions: node-count signature and speed.
    Bench(search::BenchArgs),
    /// Play a match between two engine configurations or programs.
    Match(matches::MatchArgs),
    /// Draw a position or a game record (terminal text, optionally SVG).
    Show(show::ShowArgs),
    /// Play against the engine in the terminal (commands on stdin).
    Play(play::PlayArgs),
}

/// A failure the user must fix: printed as one line, exit code 2.
#[derive(Debug)]
pub(crate) struct UsageError(pub(crate) String);

impl<E: std::error::Error> From<E> for UsageError {
    fn from(e: E) -> UsageError {
        UsageError(e.to_string())
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(args).map(|()| ExitCode::SUCCESS),
        Command::Tb(args) => tb::run(args),
        Command::Search(args) => search::run(args).map(|()| ExitCode::SUCCESS),
        Command::Engine(args) => engine::run(args).map(|()| ExitCode::SUCCESS),
        Command::Bench(args) => search::run_bench(args).map(|()| ExitCode::SUCCESS),
        Command::Match(args) => matches::run(args).map(|()| ExitCode::SUCCESS),
        Command::Show(args) => show::run(args).map(|()| ExitCode::SUCCESS),
        Command::Play(args) => play::run(args).map(|()| ExitCode::SUCCESS),
    };
    match result {
        Ok(code) => code,
        Err(UsageError(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Most worker threads accepted.
pub(crate) const MAX_THREADS: usize = 1024;

/// A rayon pool of `threads` workers (default: one per core) and its size.
pub(crate) fn thread_pool(
    threads: Option<usize>,
) -> Result<(rayon::ThreadPool, usize), UsageError> {
    let threads = match threads {
        Some(n) if n == 0 || n > MAX_THREADS => {
            return Err(UsageError(format!(
                "--threads {n} is out of range: give 1 to {MAX_THREADS}"
            )))
        }
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| UsageError(format!("cannot start {threads} threads: {e}")))?;
    Ok((pool, threads))
}
