//! `surakarta perft`: move path counts, split over threads with rayon.

use crate::common::threads::{check_threads, thread_pool};
use crate::common::usage::UsageError;
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

/// Runs `surakarta perft`.
pub(crate) fn run(args: PerftArgs) -> Result<(), UsageError> {
    if args.depth == 0 || args.depth > MAX_DEPTH {
        return Err(UsageError(format!(
            "depth {} is out of range: give a depth from 1 to {MAX_DEPTH}",
            args.depth
        )));
    }
    let pos: Position = match &args.position {
        Some(text) => text.parse().map_err(|e| {
            UsageError(format!("--position {}: {e}", surakarta::Excerpt::new(text)))
        })?,
        None => Position::new(),
    };
    let threads = check_threads(args.threads)?;
    let pool = thread_pool(threads)?;

    let start = Instant::now();
    let (nodes, split) = pool.install(|| {
        if args.divide {
            let split = parallel_divide(&pos, args.depth, threads);
            (split.iter().map(|(_, n)| n).sum(), split)
        } else if threads == 1 {
            (perft(&pos, args.depth), Vec::new())
        } else {
            (parallel_perft(&pos, args.depth), Vec::new())
        }
    });
    let seconds = start.elapsed().as_secs_f64();
    let nps = nodes as f64 / seconds.max(1e-9);

    if args.json {
        let divide: Vec<_> = split
            .iter()
            .map(|(m, n)| serde_json::json!({ "move": m.to_string(), "nodes": n }))
            .collect();
        let mut out = serde_json::json!({
            "position": pos.to_string(),
            "depth": args.depth,
            "nodes": nodes,
            "seconds": seconds,
            "nps": nps.round(),
            "threads": threads,
        });
        if args.divide {
            out["divide"] = serde_json::Value::Array(divide);
        }
        println!("{out}");
    } else {
        for (m, n) in &split {
            println!("{m}: {n}");
        }
        if args.divide {
            println!();
        }
        println!(
            "perft {}: {nodes} nodes in {seconds:.3} s ({:.1} M nodes/s, {threads} thread{})",
            args.depth,
            nps / 1e6,
            if threads == 1 { "" } else { "s" }
        );
    }
    Ok(())
}
