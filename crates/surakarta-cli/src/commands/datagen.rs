//! `surakarta datagen`: training data for a learned evaluation by
//! self-play, with a progress bar (or log lines) and a summary (text or
//! JSON). The work is the match crate's `datagen` module.

use crate::common::checks::{in_range, NODES};
use crate::common::error::CliError;
use crate::common::evaluation::evaluation;
use crate::common::memory::check_engines_fit;
use crate::common::percent::percent;
use crate::common::tables;
use crate::common::threads::check_threads;
use crate::progress::counter;
use clap::Args;
use indicatif::ProgressBar;
use serde_json::json;
use std::io::IsTerminal;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use surakarta::Rules;
use surakarta_match::datagen::{
    self, DatagenConfig, DatagenProgress, DatagenStats, DatagenTables, GameSummary, OpeningMix,
    MAX_GAMES, MAX_TABLE_PLIES,
};
use surakarta_search::{Options, SearchParameters};

/// The arguments of `surakarta datagen`.
#[derive(Args, Debug)]
pub(crate) struct DatagenArgs {
    /// Directory of the chunk files and the manifest (created if missing;
    /// a rerun with the same settings continues there).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Games to play, 1 to 10⁹.
    #[arg(long, short = 'n', value_name = "N", default_value_t = 100,
          value_parser = in_range(1..=MAX_DATAGEN_GAMES))]
    games: u64,
    /// Seed of the openings.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Nodes searched per move, 1 to 10⁹.
    #[arg(long, value_name = "N", default_value_t = 5000, value_parser = in_range(NODES))]
    nodes: u64,
    /// Worker threads, each playing one game at a time, 1 to 1024.
    #[arg(long, short = 't', value_name = "N", default_value_t = 1)]
    threads: usize,
    /// End games at positions these tables cover (every class up to the
    /// largest complete piece count in DIR), with the tables' value.
    #[arg(long, value_name = "DIR")]
    tb: Option<PathBuf>,
    /// Evaluation: `classic`, `paper`, `nnue` (the embedded network) or
    /// `default` (nnue).
    #[arg(long, value_name = "NAME")]
    eval: Option<String>,
    /// A network file (`.sknn`) to evaluate with instead of the embedded one.
    #[arg(long, value_name = "PATH")]
    eval_file: Option<PathBuf>,
    /// Transposition table size per worker in MiB, 1 to 65536.
    #[arg(long, value_name = "MB", default_value_t = 16,
          value_parser = in_range(1..=surakarta_search::MAX_HASH_MB))]
    hash: usize,
    /// Openings: `varied` (start position after random plies and random
    /// boards, alternately), `start` or `random`.
    #[arg(long, value_name = "MIX", default_value = "varied")]
    openings: OpeningMix,
    /// Plies played after the opening before a game is stopped and
    /// adjudicated by piece count, 1 to 100000.
    #[arg(long, value_name = "PLIES", default_value_t = 400, value_parser = in_range(1..=MAX_PLIES))]
    max_plies: u32,
    /// Rule set: icga, pku, pure, or a list like repetitions=3,no-capture=50.
    #[arg(long, value_name = "RULES", default_value = "icga")]
    rules: String,
    /// Games per chunk file, 1 to 2⁴⁰.
    #[arg(long, value_name = "N", default_value_t = 50, value_parser = in_range(1..=MAX_GAMES))]
    games_per_chunk: u64,
    /// End a game when the search reports a decisive score for the same
    /// side this many moves in a row, 0 to 1000 (0: never).
    #[arg(long, value_name = "MOVES", default_value_t = 4, value_parser = in_range(0..=1000u32))]
    adjudicate: u32,
    /// After a game reaches the tables (`--tb`), play on this many plies
    /// with the tables' moves and write each position with its exact
    /// value (0 to 1000; 0: the game ends there).
    #[arg(long, value_name = "PLIES", default_value_t = 0, value_parser = in_range(0..=MAX_TABLE_PLIES))]
    table_plies: u32,
    /// Make only these chunks: `FIRST..END` (END not included),
    /// `FIRST..=LAST` or one chunk `K`, numbered from 0 (default: all).
    /// Separate jobs, such as the tasks of a Slurm array, make disjoint
    /// ranges into one directory.
    #[arg(long, value_name = "RANGE")]
    chunks: Option<String>,
    /// Search parameters other than the shipped ones, e.g.
    /// `lmr-min-depth=3` (`surakarta tune --list`); recorded in the
    /// manifest when they differ from the shipped ones.
    #[arg(long, value_name = "NAME=VALUE,…", default_value = "")]
    parameters: String,
    /// Print one JSON object at the end (and no progress) instead of text.
    #[arg(long)]
    json: bool,
}

/// Most plies of a game (`--max-plies`): as many moves as a game record
/// holds.
const MAX_PLIES: u32 = surakarta::record::MAX_RECORD_MOVES as u32;

/// Most games of one run from the command line (`--games`), below the
/// library's bound (years of self-play at any node count).
const MAX_DATAGEN_GAMES: u64 = 1_000_000_000;

/// A chunk range of `--chunks`: `A..B`, `A..=B` or `K`.
fn parse_chunks(text: &str) -> Result<Range<u64>, CliError> {
    let number = |t: &str| {
        t.trim().parse::<u64>().map_err(|_| {
            CliError(format!(
                "--chunks {text}: {t:?} is not a chunk number (give FIRST..END, FIRST..=LAST or K)"
            ))
        })
    };
    let too_large = || CliError(format!("--chunks {text}: the last chunk is too large"));
    let range = if let Some((first, last)) = text.split_once("..=") {
        let (first, last) = (number(first)?, number(last)?);
        first..last.checked_add(1).ok_or_else(too_large)?
    } else if let Some((first, end)) = text.split_once("..") {
        number(first)?..number(end)?
    } else {
        let k = number(text)?;
        k..k.checked_add(1).ok_or_else(too_large)?
    };
    if range.is_empty() {
        return Err(CliError(format!("--chunks {text}: an empty range")));
    }
    Ok(range)
}

/// The progress bar (games played, positions written and filtered) on a
/// terminal; elsewhere, as in a batch job's log, a line on stderr when a
/// chunk is written, at most one a minute.
struct Bar {
    bar: ProgressBar,
    written: AtomicU64,
    filtered: AtomicU64,
    /// Whether to write the log lines.
    log: bool,
    start: Instant,
    /// The chunks to make (those of the range not present) and made, and
    /// the positions in those made.
    to_make: AtomicU64,
    made: AtomicU64,
    in_chunks: AtomicU64,
    /// When the last log line was written.
    last_line: Mutex<Option<Instant>>,
}

/// The shortest time between two log lines.
const LOG_EVERY: Duration = Duration::from_secs(60);

impl DatagenProgress for Bar {
    fn started(&self, chunks: u64, present: u64) {
        self.to_make
            .store(chunks.saturating_sub(present), Ordering::Relaxed);
    }

    fn chunk_written(&self, chunk: u64, records: u64) {
        let made = self.made.fetch_add(1, Ordering::Relaxed) + 1;
        let in_chunks = self.in_chunks.fetch_add(records, Ordering::Relaxed) + records;
        if !self.log {
            return;
        }
        let mut last = self.last_line.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        if last.is_some_and(|t| now.duration_since(t) < LOG_EVERY) {
            return;
        }
        *last = Some(now);
        let seconds = now.duration_since(self.start).as_secs_f64();
        eprintln!(
            "{:.0} s: chunk {chunk} written ({records} positions); {made} of {} chunks made, {in_chunks} positions in them ({:.0} an hour)",
            seconds,
            self.to_make.load(Ordering::Relaxed),
            in_chunks as f64 * 3600.0 / seconds.max(1e-9)
        );
    }

    fn game_done(&self, game: &GameSummary) {
        let written = self.written.fetch_add(game.written, Ordering::Relaxed) + game.written;
        let filtered = self.filtered.fetch_add(game.filtered, Ordering::Relaxed) + game.filtered;
        self.bar.inc(1);
        self.bar
            .set_message(format!("{written} positions written, {filtered} filtered"));
    }
}

/// Checks the arguments and builds the run's settings.
fn check(args: &DatagenArgs) -> Result<DatagenConfig, CliError> {
    check_threads(Some(args.threads))?;
    if args.out.exists() && !args.out.is_dir() {
        return Err(CliError(format!(
            "--out {}: not a directory",
            args.out.display()
        )));
    }
    let rules: Rules = args.rules.parse()?;
    let evaluation = evaluation(
        args.eval.as_deref(),
        args.eval_file.as_deref(),
        ["--eval", "--eval-file"],
    )
    .map_err(CliError)?;
    let parameters: SearchParameters = args
        .parameters
        .parse()
        .map_err(|e| CliError(format!("--parameters: {e}")))?;
    let options = Options {
        threads: 1,
        hash_mb: args.hash,
        evaluation,
        parameters,
        ..Options::default()
    };
    options.check()?;
    let workers = args.threads.min(args.games as usize);
    check_engines_fit(&options, workers as u64, "of the workers (--threads)").map_err(CliError)?;
    let tables = match &args.tb {
        None => None,
        Some(dir) => {
            let tb = tables::open(dir)
                .map_err(|e| CliError(format!("--tb: tablebase directory {}", e.0)))?;
            let pieces = tb.complete_pieces();
            if pieces < 2 {
                return Err(CliError(format!(
                    "--tb {}: the 2-piece tables are missing, so no piece count is covered",
                    dir.display()
                )));
            }
            Some(DatagenTables {
                tables: Arc::new(tb),
                pieces,
            })
        }
    };
    Ok(DatagenConfig {
        games: args.games,
        seed: args.seed,
        nodes: args.nodes,
        openings: args.openings,
        max_plies: args.max_plies,
        rules,
        options,
        tables,
        games_per_chunk: args.games_per_chunk,
        adjudicate_plies: args.adjudicate,
        table_plies: args.table_plies,
        threads: args.threads,
    })
}

/// Runs `surakarta datagen`.
pub(crate) fn run(args: DatagenArgs) -> Result<(), CliError> {
    let config = check(&args)?;
    let range = match &args.chunks {
        Some(text) => parse_chunks(text)?,
        None => 0..config.chunks(),
    };
    // The games of the range (the library refuses a range beyond the run).
    let games = (range.end.saturating_mul(config.games_per_chunk))
        .min(config.games)
        .saturating_sub(range.start.saturating_mul(config.games_per_chunk));
    let bar = counter(games, "games", !args.json);
    bar.enable_steady_tick(Duration::from_millis(200));
    let progress = Bar {
        bar,
        written: AtomicU64::new(0),
        filtered: AtomicU64::new(0),
        log: !args.json && !std::io::stderr().is_terminal(),
        start: Instant::now(),
        to_make: AtomicU64::new(0),
        made: AtomicU64::new(0),
        in_chunks: AtomicU64::new(0),
        last_line: Mutex::new(None),
    };
    let start = Instant::now();
    let result = datagen::run_chunks(&config, &args.out, range.clone(), &progress);
    progress.bar.finish_and_clear();
    let stats = result?;
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        println!("{}", summary_json(&args, &config, &range, &stats, seconds));
    } else {
        print_summary(&args, &config, &range, &stats, seconds);
    }
    Ok(())
}

/// The run as the JSON object of `--json`.
fn summary_json(
    args: &DatagenArgs,
    config: &DatagenConfig,
    range: &Range<u64>,
    s: &DatagenStats,
    seconds: f64,
) -> serde_json::Value {
    json!({
        "out": args.out.display().to_string(),
        "games": config.games,
        "seed": config.seed,
        "nodes": config.nodes,
        "openings": config.openings.name(),
        "max_plies": config.max_plies,
        "rules": config.rules.to_string(),
        "eval": config.options.evaluation.name(),
        "tb_pieces": config.tables.as_ref().map_or(0, |t| t.pieces),
        "threads": config.threads,
        "games_per_chunk": config.games_per_chunk,
        "chunks": config.chunks(),
        "chunk_range": [range.start, range.end],
        "chunks_written": s.chunks_written,
        "chunks_present": s.chunks_present,
        "games_played": s.games,
        "plies": s.plies,
        "opening_plies": s.opening_plies,
        "written": s.written,
        "exact": s.exact,
        "filtered": {
            "single_move": s.single_move,
            "decisive": s.decisive,
            "capture_best": s.capture_best,
        },
        "capture_available": s.capture_available,
        "ends": {
            "rules": s.ended_by_rules,
            "tables": s.ended_by_tables,
            "score": s.ended_by_score,
            "ply_cap": s.ended_by_ply_cap,
        },
        "results": {
            "black": s.black_wins,
            "white": s.white_wins,
            "draws": s.draws,
        },
        "average_plies": if s.games == 0 { 0.0 } else { s.plies as f64 / s.games as f64 },
        "seconds": seconds,
        "positions_per_second": s.written as f64 / seconds.max(1e-9),
    })
}

/// Prints the run as text.
fn print_summary(
    args: &DatagenArgs,
    config: &DatagenConfig,
    range: &Range<u64>,
    s: &DatagenStats,
    seconds: f64,
) {
    let part = if range.end - range.start == config.chunks() {
        String::new()
    } else {
        format!(" (chunks {}..{})", range.start, range.end)
    };
    println!(
        "{} games played, {} positions written ({} exact) in {} chunk file{} of {}{part} in {}",
        s.games,
        s.written,
        s.exact,
        s.chunks_written,
        if s.chunks_written == 1 { "" } else { "s" },
        config.chunks(),
        args.out.display()
    );
    if s.chunks_present > 0 {
        println!("{} chunk files were present already", s.chunks_present);
    }
    println!(
        "positions met {}: written {:.1}%, single move {:.1}%, decisive score {:.1}%, capture best {:.1}%; capture available {:.1}%; {} opening plies not written",
        s.plies,
        percent(s.written - s.exact, s.plies),
        percent(s.single_move, s.plies),
        percent(s.decisive, s.plies),
        percent(s.capture_best, s.plies),
        percent(s.capture_available, s.plies),
        s.opening_plies
    );
    let average = if s.games == 0 {
        0.0
    } else {
        s.plies as f64 / s.games as f64
    };
    println!(
        "games: {average:.1} plies on average; ended by the rules {}, the tables {}, a decisive score {}, the ply cap {}; Black {} White {} draws {}",
        s.ended_by_rules,
        s.ended_by_tables,
        s.ended_by_score,
        s.ended_by_ply_cap,
        s.black_wins,
        s.white_wins,
        s.draws
    );
    println!(
        "{seconds:.1} s, {:.1} positions written per second",
        s.written as f64 / seconds.max(1e-9)
    );
}
