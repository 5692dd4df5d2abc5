//! `surakarta endgames`: how often the engine's move keeps the exact value
//! of positions drawn from the tables, searched without them, for one or
//! more evaluations side by side.

use crate::common::checks::{in_range, NODES};
use crate::common::data::data_files;
use crate::common::error::CliError;
use crate::common::evaluation::evaluation;
use crate::common::memory::check_engines_fit;
use crate::common::percent::percent;
use crate::common::tables;
use crate::common::threads::check_threads;
use crate::progress::counter;
use clap::Args;
use serde_json::json;
use std::collections::HashSet;
use std::path::PathBuf;
use surakarta_match::endgames::{judge, key, sample, JudgeReport};
use surakarta_search::network::data;
use surakarta_search::{Evaluation, Options};

/// Most test positions (`--positions`).
const MAX_POSITIONS: usize = 1_000_000;

/// The arguments of `surakarta endgames`.
#[derive(Args, Debug)]
pub(crate) struct EndgamesArgs {
    /// The tables the positions are drawn from and judged by.
    #[arg(long, value_name = "DIR")]
    tb: PathBuf,
    /// Piece counts of the positions (cycled through), comma-separated,
    /// each 2 to 24.
    #[arg(long, value_name = "LIST", value_delimiter = ',', default_values_t = [9, 10],
          value_parser = in_range(2..=24u32))]
    pieces: Vec<u32>,
    /// Test positions (won or drawn, some move loses the value), 1 to
    /// 1000000.
    #[arg(long, value_name = "N", default_value_t = 2000, value_parser = in_range(1..=MAX_POSITIONS))]
    positions: usize,
    /// Nodes each search may visit, 1 to 10⁹.
    #[arg(long, value_name = "N", default_value_t = 20_000, value_parser = in_range(NODES))]
    nodes: u64,
    /// Seed of the positions.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Positions searched at once (one thread each), 1 to 1024.
    #[arg(long, short = 't', value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Evaluations to compare, comma-separated: classic, paper, nnue, default.
    #[arg(long, value_name = "LIST", value_delimiter = ',', default_values_t = ["classic".to_string(), "nnue".to_string()])]
    eval: Vec<String>,
    /// Also judge the network in this file (`.sknn`).
    #[arg(long, value_name = "PATH")]
    eval_file: Option<PathBuf>,
    /// Training data (`.skdata` files or directories of them) whose
    /// positions are not drawn.
    #[arg(long, value_name = "PATH")]
    exclude: Vec<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The positions of the training data at `paths` (files, or directories
/// whose `*.skdata` files are read), as [`key`]s.
fn excluded(paths: &[PathBuf]) -> Result<HashSet<u128>, CliError> {
    let mut keys = HashSet::new();
    for file in data_files(paths).map_err(|e| CliError(format!("--exclude: {}", e.0)))? {
        // The error names the file.
        let read = data::read(&file).map_err(|e| CliError(format!("--exclude: {e}")))?;
        keys.extend(read.records.iter().map(|r| key(&r.position)));
    }
    Ok(keys)
}

/// Runs `surakarta endgames`.
pub(crate) fn run(args: EndgamesArgs) -> Result<(), CliError> {
    let threads = check_threads(Some(args.threads))?;
    let mut evaluations: Vec<Evaluation> = Vec::new();
    for name in &args.eval {
        evaluations
            .push(evaluation(Some(name), None, ["--eval", "--eval-file"]).map_err(CliError)?);
    }
    if let Some(file) = &args.eval_file {
        evaluations
            .push(evaluation(None, Some(file), ["--eval", "--eval-file"]).map_err(CliError)?);
    }
    let tables = tables::open(&args.tb)?;
    let exclude = excluded(&args.exclude)?;
    let positions = sample(&tables, &args.pieces, args.positions, args.seed, &exclude)
        .map_err(|e| CliError(format!("--tb {}: {e}", args.tb.display())))?;
    let wins = positions
        .iter()
        .filter(|p| p.value == surakarta_tablebase::Wdl::Win)
        .count();
    // Each thread holds an engine of one thread with the default table.
    check_engines_fit(
        &Options::default(),
        threads.min(positions.len()) as u64,
        "searching positions at once (--threads)",
    )
    .map_err(CliError)?;
    let mut rows = Vec::new();
    for evaluation in &evaluations {
        let bar = counter(args.positions as u64, "positions", !args.json);
        bar.set_message(evaluation.name());
        let options = Options {
            evaluation: evaluation.clone(),
            ..Options::default()
        };
        let report = judge(
            &options,
            &tables,
            &positions,
            args.nodes,
            threads,
            &|done| bar.set_position(done as u64),
        )
        .map_err(|e| CliError(e.to_string()))?;
        bar.finish_and_clear();
        rows.push((evaluation.name(), report));
    }
    if args.json {
        println!("{}", report_json(&args, wins, &exclude, &rows));
    } else {
        print_report(&args, positions.len(), wins, &rows);
    }
    Ok(())
}

fn print_report(args: &EndgamesArgs, total: usize, wins: usize, rows: &[(String, JudgeReport)]) {
    let pieces: Vec<String> = args.pieces.iter().map(ToString::to_string).collect();
    println!(
        "{total} positions with {} pieces ({wins} won, {} drawn), seed {}, {} nodes a move, pure rules, no tables in the search",
        pieces.join(" or "),
        total - wins,
        args.seed,
        args.nodes
    );
    println!(
        "{:<24} {:>12} {:>12} {:>12}",
        "evaluation", "wins kept", "draws kept", "all kept"
    );
    for (name, r) in rows {
        println!(
            "{:<24} {:>11.1}% {:>11.1}% {:>11.1}%",
            name,
            percent(r.wins_kept as u64, r.wins as u64),
            percent(r.draws_kept as u64, r.draws as u64),
            100.0 * r.share()
        );
    }
}

fn report_json(
    args: &EndgamesArgs,
    wins: usize,
    exclude: &HashSet<u128>,
    rows: &[(String, JudgeReport)],
) -> serde_json::Value {
    json!({
        "tb": args.tb.display().to_string(),
        "pieces": args.pieces,
        "positions": args.positions,
        "won": wins,
        "drawn": args.positions - wins,
        "seed": args.seed,
        "nodes": args.nodes,
        "excluded_positions": exclude.len(),
        "results": rows.iter().map(|(name, r)| json!({
            "eval": name,
            "wins": r.wins,
            "wins_kept": r.wins_kept,
            "draws": r.draws,
            "draws_kept": r.draws_kept,
            "share_kept": r.share(),
        })).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_exclusion_file_is_an_error_naming_it() {
        let err = excluded(&[PathBuf::from("/nonexistent/data.skdata")]).unwrap_err();
        assert!(err.0.contains("/nonexistent/data.skdata"), "{}", err.0);
        assert!(excluded(&[]).unwrap().is_empty());
    }
}
