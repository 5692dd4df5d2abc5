//! `surakarta tb compress`: format 1 tables converted to format 2 in place,
//! and compact tables without a draw map given one.

use super::shared::compact_options;
use crate::common::error::CliError;
use crate::common::threads::{check_threads, thread_pool};
use crate::progress::Bars;
use clap::Args;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use surakarta_index::Material;
use surakarta_tablebase::{CompressOutcome, CompressStep};

/// The arguments of `surakarta tb compress`.
#[derive(Args, Debug)]
pub(super) struct CompressArgs {
    /// Directory of the tables.
    #[arg(long, short = 'd', value_name = "DIR")]
    dir: PathBuf,
    /// Only these classes (e.g. 4v6); default all. The tables their
    /// captures reach must be in DIR too.
    #[arg(value_name = "CLASS")]
    classes: Vec<Material>,
    /// Worker threads, 1 to 1024 (default: one per core).
    #[arg(long, short = 't', value_name = "T")]
    threads: Option<usize>,
    /// Store every draw exactly (format 2): larger tables (about 1.4× up
    /// to 8 pieces) whose weaker-side probes need no capture probes.
    #[arg(long)]
    no_capture_draws: bool,
    /// Print one JSON object (and no progress bars) instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `surakarta tb compress`.
pub(super) fn run(args: CompressArgs) -> Result<ExitCode, CliError> {
    let threads = check_threads(args.threads)?;
    let pool = thread_pool(threads)?;
    let bars = Bars::new(!args.json);
    let start = Instant::now();
    // Mapped, not read: a directory may hold more table bytes than memory.
    let tablebase = crate::common::tables::open(&args.dir)?;
    let result = pool.install(|| {
        surakarta_tablebase::compress_tables(
            &tablebase,
            &args.dir,
            &args.classes,
            &compact_options(args.no_capture_draws),
            &bars,
        )
    });
    bars.clear();
    let outcomes = result?;
    if outcomes.is_empty() {
        return Err(CliError(format!(
            "{}: no table files (*.sktb) found",
            args.dir.display()
        )));
    }
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        println!("{}", report_json(&args.dir, &outcomes, threads, seconds));
    } else {
        print_report(&outcomes, threads, seconds);
    }
    Ok(ExitCode::SUCCESS)
}

/// The bytes before and after, summed over the tables.
fn totals(outcomes: &[CompressOutcome]) -> (u64, u64) {
    let before = outcomes.iter().map(|o| o.before).sum();
    let after = outcomes.iter().map(|o| o.after).sum();
    (before, after)
}

/// The conversion as the JSON object of `--json`.
fn report_json(
    dir: &Path,
    outcomes: &[CompressOutcome],
    threads: usize,
    seconds: f64,
) -> serde_json::Value {
    let (before, after) = totals(outcomes);
    let converted = count(outcomes, CompressStep::Converted);
    let mapped = count(outcomes, CompressStep::DrawMapAdded);
    let tables: Vec<_> = outcomes
        .iter()
        .map(|o| {
            json!({
                "class": o.material.to_string(),
                "before": o.before,
                "after": o.after,
                "skipped": o.step == CompressStep::Unchanged,
                "step": step_name(o.step),
                "seconds": o.seconds,
            })
        })
        .collect();
    json!({
        "dir": dir.display().to_string(),
        "tables": tables,
        "converted": converted,
        "draw_maps_added": mapped,
        "before": before,
        "after": after,
        "threads": threads,
        "seconds": seconds,
    })
}

/// Prints the conversion as text: a line per table, then the totals.
fn print_report(outcomes: &[CompressOutcome], threads: usize, seconds: f64) {
    let (before, after) = totals(outcomes);
    let converted = count(outcomes, CompressStep::Converted);
    let mapped = count(outcomes, CompressStep::DrawMapAdded);
    println!(
        "{:<6} {:>13} {:>13} {:>8} {:>8}",
        "class", "bytes before", "bytes after", "ratio", "seconds"
    );
    for o in outcomes {
        let time = match o.step {
            CompressStep::Unchanged => "compact".to_string(),
            CompressStep::DrawMapAdded => format!("{:.2} (draw map added)", o.seconds),
            CompressStep::Converted => format!("{:.2}", o.seconds),
        };
        println!(
            "{:<6} {:>13} {:>13} {:>7.1}x {:>8}",
            o.material.to_string(),
            o.before,
            o.after,
            o.before as f64 / o.after.max(1) as f64,
            time
        );
    }
    println!(
        "{converted} of {} tables converted, {mapped} given a draw map, {before} -> {after} bytes ({:.1}x) in {seconds:.2} s on {threads} thread{}",
        outcomes.len(),
        before as f64 / after.max(1) as f64,
        if threads == 1 { "" } else { "s" },
    );
}

/// How many tables had `step` done.
fn count(outcomes: &[CompressOutcome], step: CompressStep) -> usize {
    outcomes.iter().filter(|o| o.step == step).count()
}

/// The JSON name of a step.
fn step_name(step: CompressStep) -> &'static str {
    match step {
        CompressStep::Converted => "converted",
        CompressStep::DrawMapAdded => "draw map added",
        CompressStep::Unchanged => "unchanged",
    }
}
