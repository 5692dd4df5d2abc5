//! The `surakarta` command line: a thin layer over the workspace's libraries.
//! It parses arguments, calls the libraries and prints; nothing else.
//!
//! Exit codes: 0 success, 2 bad input (one `error:` line on stderr; clap's
//! own argument errors also exit 2, with a usage hint). Code 1 is reserved for
//! failed verifications (tablebases, later).

mod perft;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Surakarta from the command line: perft (tablebases, search and play are planned).
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
        Command::Perft(args) => perft::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(UsageError(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
