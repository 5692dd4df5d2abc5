//! `surakarta tb generate`: every class up to N pieces, or one pair, with
//! resume, checkpoints and a memory limit.

use super::shared::{compact_options, stats_json};
use crate::common::checks::{in_range, CHECKPOINT_SECONDS, WINDOW_SLOTS};
use crate::common::error::CliError;
use crate::common::memory::memory_limit;
use crate::common::threads::{check_threads, thread_pool};
use crate::progress::Bars;
use clap::Args;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use surakarta_index::Scheme;
use surakarta_tablebase::{
    generate_dir_with, generate_pair, ClassOutcome, GenerateOptions, Pair, Stage, Storage,
};

/// Most pieces `tb generate` accepts (10 pieces already need ~65 GB).
const MAX_PIECES: u32 = 10;

/// The arguments of `surakarta tb generate`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["pieces", "pair"])))]
pub(super) struct GenerateArgs {
    /// Largest piece count, 2 to 10.
    #[arg(long, short = 'n', value_name = "N")]
    pieces: Option<u32>,
    /// Only this pair (AvB: the classes AvB and BvA, or AvA alone); the
    /// tables its captures reach must be in DIR already.
    #[arg(long, value_name = "AvB")]
    pair: Option<Pair>,
    /// Directory of the tables (created if missing).
    #[arg(long, short = 'd', value_name = "DIR")]
    dir: PathBuf,
    /// Worker threads, 1 to 1024 (default: one per core).
    #[arg(long, short = 't', value_name = "T")]
    threads: Option<usize>,
    /// Index scheme: "symmetric" (8-fold smaller) or "plain" (the paper's).
    #[arg(long, value_name = "SCHEME", default_value = "symmetric")]
    index: Scheme,
    /// File format: 2 (compact, the default) or 1 (a byte per slot).
    #[arg(long, value_name = "VERSION", default_value_t = 2,
          value_parser = clap::value_parser!(u16).range(1..=2))]
    format: u16,
    /// Store every draw exactly (format 2): larger tables (about 1.4× up
    /// to 8 pieces) whose weaker-side probes need no capture probes.
    #[arg(long)]
    no_capture_draws: bool,
    /// Least seconds between two checkpoints of a pair, 0 to 604800 (a
    /// week; 0: at every level).
    #[arg(long, value_name = "SECONDS", default_value_t = 300,
          value_parser = in_range(CHECKPOINT_SECONDS))]
    checkpoint_every: u64,
    /// Memory a pair may use, in GiB (default: the memory available when
    /// the command starts): a pair whose modelled peak exceeds it is
    /// solved with its state mapped from work files in DIR (with
    /// --storage auto), or refused.
    #[arg(long, value_name = "GIB")]
    memory_limit: Option<f64>,
    /// Where a pair's values and bitmaps live while it is solved: "auto"
    /// (in memory, mapped from work files when over --memory-limit),
    /// "memory" (refuse a pair over the limit) or "mapped" (always work
    /// files, paged by the kernel).
    #[arg(long, value_name = "STORAGE", default_value = "auto")]
    storage: Storage,
    /// Slots of the windows a mapped pair works through each partner
    /// class in, 1048576 to 2^50 (default: from --memory-limit; a class
    /// that fits is worked on whole). For measuring what windows cost.
    #[arg(long, value_name = "SLOTS", value_parser = in_range(WINDOW_SLOTS))]
    window_slots: Option<u64>,
    /// Print one JSON object (and no progress bars) instead of text.
    #[arg(long)]
    json: bool,
}

/// What to generate: every class up to a piece count, or one pair.
#[derive(Clone, Copy)]
enum What {
    Pieces(u32),
    Pair(Pair),
}

/// What to generate and how, checked.
struct Settings {
    what: What,
    threads: usize,
    options: GenerateOptions,
}

/// Checks the piece count, the thread count and the memory limit.
fn check(args: &GenerateArgs) -> Result<Settings, CliError> {
    // clap requires exactly one of --pieces and --pair.
    let what = match (args.pieces, args.pair) {
        (_, Some(pair)) => What::Pair(pair),
        (Some(pieces), None) if (2..=MAX_PIECES).contains(&pieces) => What::Pieces(pieces),
        (Some(pieces), None) => {
            return Err(CliError(format!(
                "--pieces {pieces} is out of range: give 2 to {MAX_PIECES}"
            )))
        }
        (None, None) => return Err(CliError("give --pieces N or --pair AvB".into())),
    };
    let threads = check_threads(args.threads)?;
    let memory_limit = memory_limit(args.memory_limit)?;
    let options = GenerateOptions {
        scheme: args.index,
        format: args.format,
        compact: compact_options(args.no_capture_draws),
        checkpoint_every: Duration::from_secs(args.checkpoint_every),
        memory_limit,
        storage: args.storage,
        window_slots: args.window_slots,
    };
    Ok(Settings {
        what,
        threads,
        options,
    })
}

/// Runs `surakarta tb generate`.
pub(super) fn run(args: GenerateArgs) -> Result<ExitCode, CliError> {
    let settings = check(&args)?;
    let pool = thread_pool(settings.threads)?;
    let bars = Bars::new(!args.json);
    let start = Instant::now();
    let result = pool.install(|| match settings.what {
        What::Pair(pair) => generate_pair(&args.dir, pair, &settings.options, &bars),
        What::Pieces(pieces) => generate_dir_with(&args.dir, pieces, &settings.options, &bars),
    });
    bars.clear();
    let outcomes = result?;
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        println!("{}", report_json(&args, &settings, &outcomes, seconds));
    } else {
        print_report(&args, &settings, &outcomes, seconds);
    }
    Ok(ExitCode::SUCCESS)
}

/// The generation as the JSON object of `--json`.
fn report_json(
    args: &GenerateArgs,
    settings: &Settings,
    outcomes: &[ClassOutcome],
    seconds: f64,
) -> serde_json::Value {
    let positions: u64 = outcomes.iter().map(|o| o.stats.positions).sum();
    let skipped = outcomes.iter().filter(|o| o.skipped).count();
    let classes: Vec<_> = outcomes.iter().map(outcome_json).collect();
    let mut out = json!({
        "dir": args.dir.display().to_string(),
        "index": args.index.to_string(),
        "format": args.format,
        "threads": settings.threads,
        "classes": classes,
        "positions": positions,
        "skipped": skipped,
        "seconds": seconds,
        "memory_limit_bytes": settings.options.memory_limit,
        "storage": settings.options.storage.to_string(),
    });
    match settings.what {
        What::Pair(pair) => out["pair"] = json!(pair.to_string()),
        What::Pieces(pieces) => out["pieces"] = json!(pieces),
    }
    out
}

/// Prints the generation as text: a line per class, then the totals.
fn print_report(args: &GenerateArgs, settings: &Settings, outcomes: &[ClassOutcome], seconds: f64) {
    let positions: u64 = outcomes.iter().map(|o| o.stats.positions).sum();
    let skipped = outcomes.iter().filter(|o| o.skipped).count();
    let threads = settings.threads;
    println!(
        "{:<6} {:>13} {:>13} {:>13} {:>13} {:>7} {:>8}",
        "class", "positions", "wins", "draws", "losses", "longest", "seconds"
    );
    for o in outcomes {
        let s = &o.stats;
        let time = if o.skipped {
            "present".to_string()
        } else {
            format!("{:.2}", o.seconds)
        };
        println!(
            "{:<6} {:>13} {:>13} {:>13} {:>13} {:>7} {:>8}",
            s.material.to_string(),
            s.positions,
            s.wins,
            s.draws,
            s.losses,
            s.longest,
            time
        );
    }
    let mapped: Vec<String> = outcomes
        .iter()
        .filter(|o| o.storage == Some(Storage::Mapped))
        .map(|o| o.stats.material.to_string())
        .collect();
    if !mapped.is_empty() {
        println!(
            "solved with their state mapped from work files: {}",
            mapped.join(" ")
        );
    }
    println!(
        "{} classes ({skipped} already present), {positions} positions, {:.2} s on {threads} thread{} in {}",
        outcomes.len(),
        seconds,
        if threads == 1 { "" } else { "s" },
        args.dir.display()
    );
}

/// A generated (or present) class as a JSON object.
fn outcome_json(o: &ClassOutcome) -> serde_json::Value {
    let mut out = stats_json(&o.stats);
    out["seconds"] = json!(o.seconds);
    out["skipped"] = json!(o.skipped);
    // Where its pair continued from a checkpoint: the level (before or
    // inside it; null in the first pass), and in words.
    let level = match o.resumed_at {
        Some(Stage::Level(level) | Stage::InLevel { level, .. }) => Some(level),
        _ => None,
    };
    out["resumed_at_level"] = json!(level);
    out["resumed_at"] = json!(o.resumed_at.map(|stage| stage.to_string()));
    out["memory_estimate_bytes"] = json!(o.memory_estimate);
    // Where its pair's state was kept: "memory" or "mapped" (null when
    // skipped).
    out["storage"] = json!(o.storage.map(|s| s.to_string()));
    // The slots of the windows a mapped pair was worked through in (null:
    // each class whole).
    out["window_slots"] = json!(o.window_slots);
    out
}
