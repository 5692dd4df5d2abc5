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
//! errors also exit 2: a value out of its range or not a number is one
//! line naming the flag, other argument errors add a usage hint).
//!
//! # Modules
//!
//! | module | concept |
//! |---|---|
//! | `main.rs` | the binary: calls `surakarta_cli::main` |
//! | `lib.rs` | the clap `Cli` and its `Command` enum; dispatches to the subcommand and turns its `CliError` into one `error:` line on stderr and exit code 2 (`tb verify` returns 1 itself); a closed stdout (`\| head`) ends the process quietly with exit code 0 |
//! | `commands/` | one module per subcommand, each with its clap arguments and a `run`: `perft` (rayon-parallel split over the first two plies), `search`, `bench`, `engine` (the engine protocol: `engine/command.rs` parses a line into a `Command`, `engine/mod.rs` is the session that carries it out, the search on its own thread), `matches` (`match`: player specs, progress, the record file and resuming from it), `datagen` (self-play training data: its flags into the match crate's `DatagenConfig`, a progress bar, the summary), `show`, `play` (a person against the engine), `analyse` (a recorded game judged move by move, over `surakarta_match::analysis`), `serve` (its flags and their checks; the server is `serve/`), `tune` (SPSA over the search parameters: its flags into the match crate's `TuneConfig`, a progress bar, the result), and `tb/` with one module per `tb` subcommand (`generate`, `probe`, `verify`, `stats`, `compress`, `plan`; `tb/mod.rs` dispatches, `tb/shared.rs` keeps what two of them share); `tb/plan/` writes the library's `Plan` out, a file per format (`json`, `snakemake`, `make`, `slurm`) and `quote`, which writes `--dir` and `--binary` for each place they land (shell word, Python literal, Snakemake file and command, make value) or refuses them (`Unwritable`) |
//! | `common/` | what more than one subcommand uses: `error` (`CliError`, the one error of the subcommands: bad arguments, files, library errors), `checks` (`in_range`, the one range checker of numeric flags, as clap's value parser; the ranges several commands share; `MAX_DEPTH`, `check_depth`), `threads` (`--threads` and the rayon pool), `tables` (opening a directory of tables, the CLI's only `unsafe`: the memory map), `engine_args` (`EngineArgs`, the engine flags of `search`, `bench` and `play`, into `Options` or an `Engine`), `game` (a position or a game from position, moves and rules; a game of a record file, read as `show` and `play --record` read one), `info` (the engine's `info` line; a score as JSON, for `search --json` and the server's analysis events; a finished game's outcome as JSON; the warning for failed table probes), `probe` (a tablebase probe's answer and its JSON object, for `tb probe --json` and `/api/probe`), `picture` (the SVG picture with its title and capture path, for `show --svg` and `/api/svg`), `memory` (what the process may use: `MemAvailable`, the cgroup v1/v2 limits above it, the address space limit; `new_engine`, where every engine of the CLI is made after its transposition table is checked against it; `--memory-limit` of `tb generate` and `tb verify`, never above it) |
//! | `fuzzing.rs` | entry points for the fuzz targets in `fuzz/` (`pub`, hidden from the docs): the engine protocol's line handling and the server's query parsing, driven without a terminal or a network; the one module outside `commands/` that reaches into a subcommand (`commands::engine::command`) |
//! | `render/` | the board for people, for `show` and `play`: `draw` (terminal text), `graph` (the evaluation graph of `analyse`, SVG); the SVG picture and capture paths come from the rules crate (`surakarta::svg`, `surakarta::capture_path`) |
//! | `progress.rs` | indicatif bars on stderr for long tablebase work, through the tablebase crate's `Progress` trait |
//! | `serve/` | the HTTP server of `surakarta serve` ([docs/serve.md](docs/serve.md)), on axum, hyper and tokio: `config` (`Config`, the checked settings), `state` (`State`, what the handlers share: the analysis semaphore, the analyses' memory budget (a semaphore of MiB) and stop flags), `mod.rs` (`app` the router, `read_route_query` (each route's query reading, for the fuzz target), `run`: bind, print the URL, serve until SIGINT/SIGTERM), `connections` (the accept loop: the connection cap that closes the longest idle connection to make room, the idle and header timeouts kept per connection, `HeadGuard` between socket and hyper that answers an overlong request head with JSON 414/431), `api` (`/api/position`, `/api/probe`, `/api/svg`), `analysis` (`/api/analysis`: the search on a blocking thread with its own `Engine`, infos through a channel into Server-Sent Events, a drop guard that stops the search when the client goes), `assets` (the page's three files from `assets/serve/`, embedded), `query` (the query string: 1,000 bytes at most, `fen`, bounded numbers), `error` (`ApiError`: a status and `{"error": …}`). No game logic: the handlers call the libraries and `common` |

mod commands;
mod common;
#[doc(hidden)]
pub mod fuzzing;
mod progress;
mod render;
mod serve;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use commands::{bench, datagen, engine, matches, perft, play, search, show, tb};
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
    /// Make training data for a learned evaluation by self-play (docs/evaluation.md).
    Datagen(datagen::DatagenArgs),
    /// How often the engine's move keeps the exact value of positions drawn from the tables.
    Endgames(commands::endgames::EndgamesArgs),
    /// Draw a position or a game record (terminal text, optionally SVG).
    Show(show::ShowArgs),
    /// Play against the engine in the terminal (commands on stdin).
    Play(play::PlayArgs),
    /// Analyse a recorded game: each move's evaluation and mark (?!, ?, ??), totals per side.
    Analyse(commands::analyse::AnalyseArgs),
    /// Serve the analysis board in the browser and its JSON API (docs/serve.md).
    Serve(commands::serve::ServeArgs),
    /// Check training data files (every checksum and record; exit code 1 if one is damaged) and count what they hold.
    Data(commands::data::DataArgs),
    /// Train the evaluation network on training data (docs/evaluation.md).
    Train(commands::train::TrainArgs),
    /// Tune the search parameters by SPSA self-play (docs/search.md).
    Tune(commands::tune::TuneArgs),
}

/// Runs the command line of `std::env::args` and returns the exit code.
#[must_use = "the exit code says whether the command succeeded"]
pub fn main() -> ExitCode {
    end_quietly_when_stdout_closes();
    let command = negative_numbers_are_values(Cli::command());
    let cli = match command
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches))
    {
        Ok(cli) => cli,
        Err(e) => return argument_error(&e),
    };
    let result = match cli.command {
        Command::Perft(args) => perft::run(args).map(|()| ExitCode::SUCCESS),
        Command::Tb(args) => tb::run(args),
        Command::Search(args) => search::run(args).map(|()| ExitCode::SUCCESS),
        Command::Engine(args) => engine::run(args).map(|()| ExitCode::SUCCESS),
        Command::Bench(args) => bench::run(args).map(|()| ExitCode::SUCCESS),
        Command::Match(args) => matches::run(args).map(|()| ExitCode::SUCCESS),
        Command::Datagen(args) => datagen::run(args).map(|()| ExitCode::SUCCESS),
        Command::Endgames(args) => commands::endgames::run(args).map(|()| ExitCode::SUCCESS),
        Command::Show(args) => show::run(args).map(|()| ExitCode::SUCCESS),
        Command::Play(args) => play::run(args).map(|()| ExitCode::SUCCESS),
        Command::Analyse(args) => commands::analyse::run(args).map(|()| ExitCode::SUCCESS),
        Command::Serve(args) => commands::serve::run(args).map(|()| ExitCode::SUCCESS),
        Command::Data(args) => commands::data::run(args),
        Command::Train(args) => commands::train::run(args).map(|()| ExitCode::SUCCESS),
        Command::Tune(args) => commands::tune::run(args).map(|()| ExitCode::SUCCESS),
    };
    match result {
        Ok(code) => code,
        Err(CliError(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// `command` with every flag that takes a value taking one that looks like
/// a negative number too (`--nodes -1`), so that its value parser refuses
/// it with the flag's range instead of clap taking `-1` for an unknown
/// flag.
fn negative_numbers_are_values(command: clap::Command) -> clap::Command {
    command
        .mut_args(|arg| {
            if arg.get_action().takes_values() {
                arg.allow_negative_numbers(true)
            } else {
                arg
            }
        })
        .mut_subcommands(negative_numbers_are_values)
}

/// Reports clap's error `e`: a bad value (out of its range, not a number:
/// [`common::checks::in_range`]) as its one `error:` line naming the flag
/// and the value, exit code 2; anything else (`--help`, a missing or
/// unknown argument) as clap prints it.
fn argument_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if e.kind() == ErrorKind::ValueValidation {
        let rendered = e.render().to_string();
        eprintln!(
            "{}",
            rendered.lines().next().unwrap_or("error: a bad value")
        );
        return ExitCode::from(2);
    }
    e.exit()
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
