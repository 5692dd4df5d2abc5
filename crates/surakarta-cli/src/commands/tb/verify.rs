//! `surakarta tb verify`: every entry re-derived from its successors and
//! every checksum checked; exit code 1 on any error.

use super::shared::fen;
use crate::common::checks::{in_range, CHECKPOINT_SECONDS};
use crate::common::error::CliError;
use crate::common::memory::memory_limit;
use crate::common::tables::open_partial;
use crate::common::threads::{check_threads, thread_pool};
use crate::progress::Bars;
use clap::Args;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use surakarta_index::Material;
use surakarta_tablebase::{verify_tables, VerifyOptions, VerifyOutcome};

/// The arguments of `surakarta tb verify`.
#[derive(Args, Debug)]
pub(super) struct VerifyArgs {
    /// Directory of the tables.
    #[arg(long, short = 'd', value_name = "DIR")]
    dir: PathBuf,
    /// Only these classes (e.g. 5v4); default all. The tables their
    /// captures reach must be in DIR too.
    #[arg(value_name = "CLASS")]
    classes: Vec<Material>,
    /// Worker threads, 1 to 1024 (default: one per core).
    #[arg(long, short = 't', value_name = "T")]
    threads: Option<usize>,
    /// Refuse to start if a pair's modelled peak memory (its compact
    /// tables and those its captures reach, expanded) exceeds this many
    /// GiB (default: the memory available when the command starts); a
    /// format 1 partner class larger than half of what is left is read in
    /// windows of that size, so the pages read at random stay resident.
    #[arg(long, value_name = "GIB")]
    memory_limit: Option<f64>,
    /// Save each table's progress in DIR (`6v4-verify.ckpt`) at most every
    /// this many seconds, and continue from it when run again with this
    /// option: a stopped verification of big tables resumes instead of
    /// starting over. The checkpoints are removed when the run finishes.
    /// 0 to 604800 (a week; 0: after every segment).
    #[arg(long, value_name = "SECONDS", conflicts_with = "checksums_only",
          value_parser = in_range(CHECKPOINT_SECONDS))]
    checkpoint_every: Option<u64>,
    /// Only check each file's header, length and payload checksum: no
    /// entry re-derived, so seconds instead of hours for big tables, and
    /// the tables captures reach need not be there. Exit code 1 if any
    /// file is damaged.
    #[arg(long)]
    checksums_only: bool,
    /// Print one JSON object (and no progress bars) instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `surakarta tb verify`: the library verifies
/// ([`verify_tables`], the tables mapped), this prints each table's
/// outcome as it comes and the totals.
pub(super) fn run(args: VerifyArgs) -> Result<ExitCode, CliError> {
    let pool = thread_pool(check_threads(args.threads)?)?;
    let options = VerifyOptions {
        classes: args.classes.clone(),
        memory_limit: memory_limit(args.memory_limit)?,
        checkpoint_every: args.checkpoint_every.map(Duration::from_secs),
        checksums_only: args.checksums_only,
    };
    let bars = Bars::new(!args.json);
    let start = Instant::now();
    let mut tally = Tally::default();
    let outcomes = pool.install(|| {
        verify_tables(&args.dir, &options, open_partial, &bars, |outcome| {
            tally.add(outcome, args.json, args.checksums_only, &bars);
        })
    });
    bars.clear();
    let tables = outcomes?.len();
    let seconds = start.elapsed().as_secs_f64();
    let Tally {
        errors,
        positions,
        reports,
    } = tally;
    if args.json {
        println!(
            "{}",
            json!({
                "dir": args.dir.display().to_string(),
                "tables": reports,
                "positions": positions,
                "checksums_only": args.checksums_only,
                "errors": errors,
                "seconds": seconds,
            })
        );
    } else {
        let plural = if errors == 1 { "" } else { "s" };
        if args.checksums_only {
            println!("checked the checksums of {tables} tables in {seconds:.2} s: {errors} error{plural}");
        } else {
            println!(
                "verified {tables} tables, {positions} positions in {seconds:.2} s: {errors} error{plural}"
            );
        }
    }
    Ok(if errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// What the verified tables gave: errors, positions, JSON reports.
#[derive(Default)]
struct Tally {
    errors: u64,
    positions: u64,
    reports: Vec<serde_json::Value>,
}

impl Tally {
    /// Counts one table's outcome and reports it (as JSON later, or as a
    /// line now).
    fn add(&mut self, outcome: &VerifyOutcome, json: bool, checksums_only: bool, bars: &Bars) {
        self.errors += outcome.errors();
        match outcome {
            VerifyOutcome::Unreadable { error, .. } => {
                if json {
                    self.reports.push(json!({ "file": error.path().map(|p| p.display().to_string()), "error": error.to_string(), "errors": 1 }));
                } else {
                    bars.println(&format!("error: {error}"));
                }
            }
            VerifyOutcome::Verified(report) => {
                let material = report.material;
                self.positions += report.positions;
                let examples: Vec<_> = report
                    .examples
                    .iter()
                    .map(|m| {
                        json!({
                            "position": fen(m.sides.us, m.sides.them),
                            "stored": m.stored.to_string(),
                            "derived": m.derived.to_string(),
                        })
                    })
                    .collect();
                if json {
                    self.reports.push(json!({
                        "class": material.to_string(),
                        "positions": report.positions,
                        "checksum_ok": report.checksum_ok,
                        "counts_ok": report.stats_ok,
                        "mismatches": report.mismatches,
                        "errors": report.errors(),
                        "examples": examples,
                    }));
                } else if report.errors() == 0 && checksums_only {
                    bars.println(&format!("{material}: checksum ok"));
                } else if report.errors() == 0 {
                    bars.println(&format!("{material}: {} positions, ok", report.positions));
                } else {
                    let mut parts = Vec::new();
                    if !report.checksum_ok {
                        parts.push("payload checksum mismatch".to_string());
                    }
                    if report.checksum_ok && !report.stats_ok {
                        parts.push("header counts differ from the payload".to_string());
                    }
                    if report.mismatches > 0 {
                        parts.push(format!(
                            "{} entries differ from their successors",
                            report.mismatches
                        ));
                    }
                    bars.println(&format!("{material}: FAILED: {}", parts.join("; ")));
                    for (m, e) in report.examples.iter().zip(&examples) {
                        bars.println(&format!(
                            "  {}: stored {}, successors give {}",
                            e["position"].as_str().unwrap_or(""),
                            m.stored,
                            m.derived
                        ));
                    }
                }
            }
            VerifyOutcome::Failed { material, error } => {
                if json {
                    self.reports.push(json!({ "class": material.to_string(), "error": error.to_string(), "errors": 1 }));
                } else {
                    bars.println(&format!("{material}: cannot verify: {error}"));
                }
            }
        }
    }
}
