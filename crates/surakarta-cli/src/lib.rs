//! The `surakarta` command line: a thin layer over the workspace's libraries.
//! It parses arguments, calls the libraries and prints; nothing else.
//!
//! The binary (`main.rs`) only calls [`main`]; the code is a library target
//! so that the fuzz targets can drive the parts that read hostile input
//! (`fuzz/`, through [`fuzzing`]). It is not an API: nothing here is stable.
//!
//! This file only parses the arguments, dispatches to the subcommand and
//! turns its error into one `error:` line and an exit code. The
//! subcommands are in `commands` (one module each); what several of them
//! share is in `common`; drawing the board is in `render`; the tablebase
//! progress bars are in `progress`; the HTTP server of `serve` is in
//! `serve`. Subcommands never import each other.
//!
//! Exit codes: 0 success, 1 a verification found errors (`tb verify`), 2 bad
//! input or a failure (one `error:` line on stderr; clap's own argument
//! errors also exit 2, with a usage hint).

mod commands;
mod common;
#[doc(hidden)]
pub mod fuzzing;
mod progress;
mod render;
mod serve;

use clap::{Parser, Subcommand};
use commands::{bench, engine, matches, perft, play, search, show, tb};
use common::error::CliError;
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
    Bench(bench::BenchArgs),
    /// Play a match between two engine configurations or programs.
    Match(matches::MatchArgs),
    /// Draw a position or a game record (terminal text, optionally SVG).
    Show(show::ShowArgs),
    /// Play against the engine in the terminal (commands on stdin).
    Play(play::PlayArgs),
    /// Serve the analysis board in the browser and its JSON API (docs/serve.md).
    Serve(commands::serve::ServeArgs),
}

/// Runs the command line of `std::env::args` and returns the exit code.
#[must_use = "the exit code says whether the command succeeded"]
pub fn main() -> ExitCode {
    end_quietly_when_stdout_closes();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(args).map(|()| ExitCode::SUCCESS),
        Command::Tb(args) => tb::run(args),
        Command::Search(args) => search::run(args).map(|()| ExitCode::SUCCESS),
        Command::Engine(args) => engine::run(args).map(|()| ExitCode::SUCCESS),
        Command::Bench(args) => bench::run(args).map(|()| ExitCode::SUCCESS),
        Command::Match(args) => matches::run(args).map(|()| ExitCode::SUCCESS),
        Command::Show(args) => show::run(args).map(|()| ExitCode::SUCCESS),
        Command::Play(args) => play::run(args).map(|()| ExitCode::SUCCESS),
        Command::Serve(args) => commands::serve::run(args).map(|()| ExitCode::SUCCESS),
    };
    match result {
        Ok(code) => code,
        Err(CliError(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// `println!` panics when standard output is closed before the command is
/// done (`surakarta tb stats --dir DIR | head`). End quietly then, with exit
/// code 0, as `head` expects of the command before it (ripgrep does the
/// same), instead of printing a panic.
fn end_quietly_when_stdout_closes() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout")
            && message.to_ascii_lowercase().contains("broken pipe")
        {
            std::process::exit(0);
        }
        default(info);
    }));
}
