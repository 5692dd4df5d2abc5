//! `surakarta bench`: the fixed benchmark (a node-count signature and the
//! speed), optionally with tablebase probes timed.

use crate::common::checks::{check_depth, in_range};
use crate::common::engine_args::EngineArgs;
use crate::common::error::CliError;
use crate::common::memory::{check_engine_fits, check_memory_fits};
use crate::common::tables;
use clap::Args;
use serde_json::json;
use std::path::PathBuf;
use std::sync::Arc;
use surakarta::Position;
use surakarta_search::bench::{self, BenchReport};
use surakarta_search::{Evaluation, SearchResult, Weights};
use surakarta_tablebase::ProbeTiming;

/// Most probes `--probes` times.
const MAX_PROBES: usize = 100_000_000;

/// The arguments of `surakarta bench`.
#[derive(Args, Debug)]
pub(crate) struct BenchArgs {
    /// Depth of each search, 1 to 64.
    #[arg(long, short = 'd', value_name = "PLIES", default_value_t = bench::DEFAULT_DEPTH)]
    depth: u32,
    #[command(flatten)]
    engine: EngineArgs,
    /// Search with the tables of DIR, then time probes of random positions
    /// of its classes with the most pieces.
    #[arg(long, value_name = "DIR")]
    tb: Option<PathBuf>,
    /// Probes to time with --tb, 1 to 100000000.
    #[arg(long, value_name = "N", default_value_t = 100_000, requires = "tb", value_parser = in_range(1..=MAX_PROBES))]
    probes: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `surakarta bench`.
pub(crate) fn run(args: BenchArgs) -> Result<(), CliError> {
    check_depth("--depth", args.depth.into()).map_err(CliError)?;
    let json = args.json;
    let tablebase = match &args.tb {
        Some(dir) => Some(Arc::new(tables::open(dir)?)),
        None => None,
    };
    let options = args.engine.options()?;
    check_engine_fits(&options).map_err(CliError)?;
    if tablebase.is_some() {
        check_memory_fits(
            &format!("the {} probes to time (--probes)", args.probes),
            ProbeTiming::bytes_for(args.probes),
        )
        .map_err(CliError)?;
    }
    let evaluation = options.evaluation.clone();
    let report = bench::run(
        options,
        tablebase.clone(),
        args.depth,
        &mut |i, position, result| {
            if !json {
                println!("{}", position_line(i, position, result));
            }
        },
    )?;
    let timing = match &tablebase {
        Some(tb) => Some(surakarta_tablebase::time_probes(tb, args.probes)?),
        None => None,
    };
    let threads = args.engine.threads;
    let costs = EvaluationCosts {
        name: evaluation.name(),
        used: bench::evaluation_cost(&evaluation, EVALUATION_ROUNDS),
        classic: bench::evaluation_cost(&Evaluation::Classic(Weights::DEFAULT), EVALUATION_ROUNDS),
    };
    if json {
        println!("{}", report_json(&report, threads, &costs, timing.as_ref()));
    } else {
        print_report(&report, threads, &costs, timing.as_ref());
    }
    Ok(())
}

/// Rounds over the benchmark positions' children when timing evaluations
/// (about 15,000 evaluations a round).
const EVALUATION_ROUNDS: u32 = 200;

/// What one evaluation costs: the one searched with and the classic one.
struct EvaluationCosts {
    name: String,
    used: std::time::Duration,
    classic: std::time::Duration,
}

/// The line printed after the `i`th position's search.
fn position_line(i: usize, position: &Position, result: &SearchResult) -> String {
    let best = result.best_move.map_or("none".into(), |m| m.to_string());
    format!(
        "{:>2} {:<40} {:>10} nodes  score {:<10} best {best}",
        i + 1,
        position.to_string(),
        result.info.nodes,
        result.info.score.to_string()
    )
}

/// The benchmark (and probe timing) as the JSON object of `--json`.
fn report_json(
    report: &BenchReport,
    threads: usize,
    costs: &EvaluationCosts,
    timing: Option<&ProbeTiming>,
) -> serde_json::Value {
    json!({
        "eval": costs.name,
        "eval_ns": costs.used.as_nanos() as u64,
        "classic_eval_ns": costs.classic.as_nanos() as u64,
        "positions": report.positions,
        "depth": report.depth,
        "threads": threads,
        "nodes": report.nodes,
        "seconds": report.elapsed.as_secs_f64(),
        "nps": report.nps(),
        "tb_hits": report.tb_hits,
        "probes": timing.map(|t| json!({
            "classes": t.classes.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "probes": t.probes,
            "median_ns": t.median.as_nanos() as u64,
            "p90_ns": t.p90.as_nanos() as u64,
            "p99_ns": t.p99.as_nanos() as u64,
            "mean_ns": t.mean.as_nanos() as u64,
            "first_probes_ms": t.first_probes.as_secs_f64() * 1e3,
        })),
    })
}

/// Prints the benchmark's totals and signature (and probe timing) as text.
fn print_report(
    report: &BenchReport,
    threads: usize,
    costs: &EvaluationCosts,
    timing: Option<&ProbeTiming>,
) {
    println!(
        "{} positions, depth {}, {} threads, eval {}: {} nodes in {:.2} s, {} nodes/s",
        report.positions,
        report.depth,
        threads,
        costs.name,
        report.nodes,
        report.elapsed.as_secs_f64(),
        report.nps()
    );
    println!(
        "evaluation {} ns per node ({}), classic {} ns",
        costs.used.as_nanos(),
        costs.name,
        costs.classic.as_nanos()
    );
    println!("signature {}", report.nodes);
    if let Some(t) = timing {
        println!("tablebase hits {}", report.tb_hits);
        let classes: Vec<String> = t.classes.iter().map(ToString::to_string).collect();
        println!(
            "probes of {}: {} probes, median {} ns, p90 {} ns, p99 {} ns, mean {} ns; first probe of each class (checksums) {:.1} ms",
            classes.join(" "),
            t.probes,
            t.median.as_nanos(),
            t.p90.as_nanos(),
            t.p99.as_nanos(),
            t.mean.as_nanos(),
            t.first_probes.as_secs_f64() * 1e3
        );
    }
}
