//! `surakarta tb verify`: every entry re-derived from its successors and
//! every checksum checked; exit code 1 on any error.

use super::shared::fen;
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
use surakarta_index::{Indexer, Material};
use surakarta_tablebase::{DirLock, Tablebase, TablebaseError, VerifyCheckpoints, VerifyReport};

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
    /// GiB (default: the memory available when the command starts).
    #[arg(long, value_name = "GIB")]
    memory_limit: Option<f64>,
    /// Save each table's progress in DIR (`6v4-verify.ckpt`) at most every
    /// this many seconds, and continue from it when run again with this
    /// option: a stopped verification of big tables resumes instead of
    /// starting over. The checkpoints are removed when the run finishes.
    #[arg(long, value_name = "SECONDS")]
    checkpoint_every: Option<u64>,
    /// Print one JSON object (and no progress bars) instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `surakarta tb verify`.
pub(super) fn run(args: VerifyArgs) -> Result<ExitCode, CliError> {
    let pool = thread_pool(check_threads(args.threads)?)?;
    let memory_limit = memory_limit(args.memory_limit)?;
    // A run that writes the whole directory (generate --pieces, compress)
    // holds its lock: the directory is in use, rather than a pair half
    // written reported as a failure. With checkpoints the verification
    // takes the lock itself.
    let _reading = match args.checkpoint_every {
        None if args.dir.is_dir() => DirLock::acquire_for_reading(&args.dir)?,
        _ => None,
    };
    let mut tb = open_partial(&args.dir)?;
    let chosen = |m: Material| args.classes.is_empty() || args.classes.contains(&m);
    let open_errors: Vec<TablebaseError> = tb
        .load_errors()
        .filter(|&(m, _)| chosen(m))
        .filter_map(|(m, _)| tb.lookup(m).err())
        .collect();
    for &class in &args.classes {
        if tb.table(class).is_none() && tb.load_errors().all(|(m, _)| m != class) {
            // Not in DIR at all: say so, as a probe of it would.
            tb.lookup(class)?;
        }
    }
    // Pair by pair: each pair's compact tables and the compact tables its
    // captures reach are expanded into memory (re-deriving probes every
    // move, far faster unpacked), verified, and dropped before the next.
    // Every pair is checked against the memory limit before any starts.
    let pairs = tb.verify_pairs(&args.classes);
    for &(pair, _) in &pairs {
        tb.check_verify_memory(pair, memory_limit)?;
    }
    let verified: usize = pairs.iter().map(|(_, classes)| classes.len()).sum();
    let bars = Bars::new(!args.json);
    bars.set_total(
        pairs
            .iter()
            .flat_map(|(_, classes)| classes)
            .filter_map(|&m| tb.table(m))
            .map(|t| t.indexer().size())
            .sum(),
    );
    let start = Instant::now();
    let mut tally = Tally {
        errors: open_errors.len() as u64,
        ..Tally::default()
    };
    for e in &open_errors {
        if args.json {
            tally.reports.push(json!({ "file": e.path().map(|p| p.display().to_string()), "error": e.to_string(), "errors": 1 }));
        } else {
            bars.println(&format!("error: {e}"));
        }
    }
    let checkpoints = args
        .checkpoint_every
        .map(|s| VerifyCheckpoints::new(&args.dir, Duration::from_secs(s)))
        .transpose()?;
    let mut checkpointed = Vec::new();
    for (pair, classes) in pairs {
        if checkpoints.is_some() {
            checkpointed.extend(&classes);
        }
        // A pair finished in an earlier run is reported from its
        // checkpoints, without expanding it.
        let finished = checkpoints
            .as_ref()
            .is_some_and(|c| classes.iter().all(|&m| c.is_finished(&tb, m)));
        let verify_one = |source: &Tablebase, material: Material| {
            let slots = source.table(material).map_or(0, |t| t.indexer().size());
            bars.start_table(material, slots);
            let result = pool.install(|| source.verify_with(material, &bars, checkpoints.as_ref()));
            bars.finish_table(slots);
            result
        };
        if finished {
            for &material in &classes {
                tally.add(material, verify_one(&tb, material), args.json, &bars);
            }
        } else {
            let expanded = pool.install(|| tb.expand_pair(pair, memory_limit))?;
            for &material in &classes {
                tally.add(material, verify_one(&expanded, material), args.json, &bars);
            }
        }
    }
    bars.clear();
    if let Some(c) = &checkpoints {
        for &material in &checkpointed {
            c.remove(material)
                .map_err(|e| CliError(format!("{}: {e}", c.path(material).display())))?;
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    let tables = verified + open_errors.len();
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
                "errors": errors,
                "seconds": seconds,
            })
        );
    } else {
        println!(
            "verified {tables} tables, {positions} positions in {seconds:.2} s: {errors} error{}",
            if errors == 1 { "" } else { "s" }
        );
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
    /// Counts one table's result and reports it (as JSON later, or as a
    /// line now).
    fn add(
        &mut self,
        material: Material,
        result: Result<VerifyReport, TablebaseError>,
        json: bool,
        bars: &Bars,
    ) {
        match result {
            Ok(report) => {
                self.errors += report.errors();
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
            Err(e) => {
                self.errors += 1;
                if json {
                    self.reports.push(json!({ "class": material.to_string(), "error": e.to_string(), "errors": 1 }));
                } else {
                    bars.println(&format!("{material}: cannot verify: {e}"));
                }
            }
        }
    }
}
