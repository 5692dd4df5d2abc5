//! `surakarta tb verify`: every entry re-derived from its successors and
//! every checksum checked; exit code 1 on any error.

use super::fen;
use crate::common::memory::memory_limit;
use crate::common::tables::open_partial;
use crate::common::threads::{check_threads, thread_pool};
use crate::common::usage::UsageError;
use crate::progress::Bars;
use clap::Args;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use surakarta_index::{Indexer, Material};
use surakarta_tablebase::TablebaseError;

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
    /// Print one JSON object (and no progress bars) instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `surakarta tb verify`.
pub(super) fn run(args: VerifyArgs) -> Result<ExitCode, UsageError> {
    let pool = thread_pool(check_threads(args.threads)?)?;
    let memory_limit = memory_limit(args.memory_limit)?;
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
    let mut errors = open_errors.len() as u64;
    let mut positions = 0;
    let mut reports = Vec::new();
    for e in &open_errors {
        if args.json {
            reports.push(json!({ "file": e.path().map(|p| p.display().to_string()), "error": e.to_string(), "errors": 1 }));
        } else {
            bars.println(&format!("error: {e}"));
        }
    }
    for (pair, classes) in pairs {
        let expanded = pool.install(|| tb.expand_pair(pair, memory_limit))?;
        for material in classes {
            let slots = expanded.table(material).map_or(0, |t| t.indexer().size());
            bars.start_table(material, slots);
            let result = pool.install(|| expanded.verify(material, &bars));
            bars.finish_table(slots);
            match result {
                Ok(report) => {
                    errors += report.errors();
                    positions += report.positions;
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
                    if args.json {
                        reports.push(json!({
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
                    errors += 1;
                    if args.json {
                        reports.push(json!({ "class": material.to_string(), "error": e.to_string(), "errors": 1 }));
                    } else {
                        bars.println(&format!("{material}: cannot verify: {e}"));
                    }
                }
            }
        }
    }
    bars.clear();
    let seconds = start.elapsed().as_secs_f64();
    let tables = verified + open_errors.len();
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
