//! `surakarta perft`: move path counts, split over threads with rayon.

use crate::common::error::CliError;
use crate::common::threads::{check_threads, thread_pool};
use clap::Args;
use rayon::prelude::*;
use std::time::Instant;
use surakarta::{perft, Move, Position};

/// Deepest perft accepted: depth 9 from the start already takes hours.
const MAX_DEPTH: u32 = 12;

/// The arguments of `surakarta perft`.
#[derive(Args, Debug)]
pub(crate) struct PerftArgs {
    /// Depth in plies, 1 to 12.
    depth: u32,
    /// Start from this position instead of the start position (notation as in
    /// docs/notation.md, e.g. "ww3w/wb4/5w/6/6/b1w3 b").
    #[arg(long, short = 'p', value_name = "FEN")]
    position: Option<String>,
    /// Also print the count below each first move.
    #[arg(long)]
    divide: bool,
    /// Worker threads, 1 to 1024 (default: one per core; 1 runs single-threaded).
    #[arg(long, short = 't', value_name = "N")]
    threads: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// What to count, checked.
struct Settings {
    position: Position,
    depth: u32,
    divide: bool,
    threads: usize,
}

/// What a count found.
struct Report {
    position: Position,
    depth: u32,
    nodes: u64,
    /// The count below each first move (`--divide`), else empty.
    split: Vec<(Move, u64)>,
    divide: bool,
    seconds: f64,
    threads: usize,
}

/// Checks the depth, the position and the thread count.
fn check(args: &PerftArgs) -> Result<Settings, CliError> {
    if args.depth == 0 || args.depth > MAX_DEPTH {
        return Err(CliError(format!(
            "depth {} is out of range: give a depth from 1 to {MAX_DEPTH}",
            args.depth
        )));
    }
    let position: Position = match &args.position {
        Some(text) => text
            .parse()
            .map_err(|e| CliError(format!("--position {}: {e}", surakarta::Excerpt::new(text))))?,
        None => Position::new(),
    };
    Ok(Settings {
        position,
        depth: args.depth,
        divide: args.divide,
        threads: check_threads(args.threads)?,
    })
}

/// Runs `surakarta perft`.
pub(crate) fn run(args: PerftArgs) -> Result<(), CliError> {
    let settings = check(&args)?;
    let report = count(&settings)?;
    if args.json {
        println!("{}", report_json(&report));
    } else {
        print_report(&report);
    }
    Ok(())
}

/// Counts on a pool of the settings' threads, timing the count.
fn count(settings: &Settings) -> Result<Report, CliError> {
    let &Settings {
        position,
        depth,
        divide,
        threads,
    } = settings;
    let pool = thread_pool(threads)?;
    let start = Instant::now();
    let (nodes, split) = pool.install(|| {
        if divide {
            let split = parallel_divide(&position, depth, threads);
            (split.iter().map(|(_, n)| n).sum(), split)
        } else if threads == 1 {
            (perft(&position, depth), Vec::new())
        } else {
            (parallel_perft(&position, depth), Vec::new())
        }
    });
    Ok(Report {
        position,
        depth,
        nodes,
        split,
        divide,
        seconds: start.elapsed().as_secs_f64(),
        threads,
    })
}

/// Perft with the subtrees below the first two plies spread over rayon's pool.
fn parallel_perft(pos: &Position, depth: u32) -> u64 {
    if depth < 3 {
        return perft(pos, depth);
    }
    pos.legal_moves()
        .par_iter()
        .map(|&m| {
            let child = pos.after(m);
            child
                .legal_moves()
                .par_iter()
                .map(|&r| perft(&child.after(r), depth - 2))
                .sum::<u64>()
        })
        .sum()
}

/// Perft below each first move.
fn parallel_divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let below = |m: Move| {
        let child = pos.after(m);
        if threads == 1 {
            perft(&child, depth - 1)
        } else {
            parallel_perft(&child, depth - 1)
        }
    };
    pos.legal_moves().iter().map(|&m| (m, below(m))).collect()
}

/// Nodes per second.
fn nps(report: &Report) -> f64 {
    report.nodes as f64 / report.seconds.max(1e-9)
}

/// The count as the JSON object of `--json`.
fn report_json(report: &Report) -> serde_json::Value {
    let mut out = serde_json::json!({
        "position": report.position.to_string(),
        "depth": report.depth,
        "nodes": report.nodes,
        "seconds": report.seconds,
        "nps": nps(report).round(),
        "threads": report.threads,
    });
    if report.divide {
        let divide: Vec<_> = report
            .split
            .iter()
            .map(|(m, n)| serde_json::json!({ "move": m.to_string(), "nodes": n }))
            .collect();
        out["divide"] = serde_json::Value::Array(divide);
    }
    out
}

/// Prints the count (and the split below each first move) as text.
fn print_report(report: &Report) {
    for (m, n) in &report.split {
        println!("{m}: {n}");
    }
    if report.divide {
        println!();
    }
    let threads = report.threads;
    println!(
        "perft {}: {} nodes in {:.3} s ({:.1} M nodes/s, {threads} thread{})",
        report.depth,
        report.nodes,
        report.seconds,
        nps(report) / 1e6,
        if threads == 1 { "" } else { "s" }
    );
}
