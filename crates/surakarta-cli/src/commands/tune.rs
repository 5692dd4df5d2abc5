//! `surakarta tune`: SPSA tuning of the search parameters by self-play,
//! with a progress bar and the result (text or JSON). The work is the match
//! crate's `tune` module; `--list` prints the parameters.

use crate::common::checks::{
    in_range, BALANCE_CP, CONCURRENCY, GAME_PLIES, MAX_DEPTH, MOVETIME_MS, NODES, OPENING_PLIES,
};
use crate::common::engine_args::EngineArgs;
use crate::common::error::CliError;
use crate::common::memory::check_engines_fit;
use crate::common::output::check_output;
use crate::progress::counter;
use clap::Args;
use serde_json::json;
use std::ops::Bound;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use surakarta_match::openings;
use surakarta_match::tune::{self, TuneConfig, TuneState, MAX_ITERATIONS, MAX_PAIRS, MAX_R_END};
use surakarta_search::{Limits, PARAMETER_SPECS};

/// The arguments of `surakarta tune`.
#[derive(Args, Debug)]
pub(crate) struct TuneArgs {
    /// The state file: created if missing, resumed if it holds a run of the
    /// same settings (written after every iteration).
    #[arg(long, value_name = "FILE", required_unless_present = "list")]
    out: Option<PathBuf>,
    /// The parameters to tune, comma-separated (default: all of them).
    #[arg(long, value_name = "NAME,…", value_delimiter = ',')]
    tune: Vec<String>,
    /// Iterations of the run (the schedules end at the last one), 1 to
    /// 1000000.
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = in_range(1..=MAX_ITERATIONS))]
    iterations: u64,
    /// Game pairs per iteration, each opening played with both colours, 1
    /// to 10000.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = in_range(1..=MAX_PAIRS))]
    pairs: usize,
    /// Depth of every move, 1 to 64.
    #[arg(long, value_name = "PLIES", value_parser = in_range(1..=MAX_DEPTH))]
    depth: Option<u32>,
    /// Nodes of every move, 1 to 10⁹.
    #[arg(long, value_name = "N", value_parser = in_range(NODES))]
    nodes: Option<u64>,
    /// Milliseconds of every move, 1 to 86400000.
    #[arg(long, value_name = "MS", value_parser = in_range(MOVETIME_MS))]
    movetime: Option<u64>,
    /// Learning rate at the last iteration, for every parameter
    /// (fishtest's default 0.002): above 0 and at most 1.
    #[arg(long, value_name = "R", default_value_t = tune::DEFAULT_R_END,
          value_parser = in_range((Bound::Excluded(0.0), Bound::Included(MAX_R_END))))]
    r_end: f64,
    /// Random plies from the start position of each opening, 0 to 200.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = in_range(OPENING_PLIES))]
    plies: usize,
    /// Seed of the signs and the openings.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Play only openings the default engine scores within this many
    /// centipawns after a search of --balance-nodes nodes (as `match
    /// --balance`), so that a pair is rarely won by the same colour twice;
    /// 1 to 100000.
    #[arg(long, value_name = "CP", value_parser = in_range(BALANCE_CP))]
    balance: Option<u32>,
    /// Nodes of the search that judges an opening's balance (--balance),
    /// 1 to 10⁹.
    #[arg(long, value_name = "N", default_value_t = openings::DEFAULT_BALANCE_NODES,
          value_parser = in_range(NODES))]
    balance_nodes: u64,
    /// Rule set: icga, pku, pure, or a list like repetitions=3,no-capture=50.
    #[arg(long, value_name = "RULES", default_value = "icga")]
    rules: String,
    /// Games stopped and drawn at this many plies, 1 to 100000.
    #[arg(long, value_name = "PLIES", default_value_t = 400, value_parser = in_range(GAME_PLIES))]
    max_plies: usize,
    /// Games played at the same time, 1 to 256.
    #[arg(long, short = 'c', value_name = "N", default_value_t = 1, value_parser = in_range(CONCURRENCY))]
    concurrency: usize,
    /// Print the tunable parameters (name, default, range, meaning) and
    /// stop.
    #[arg(long)]
    list: bool,
    /// Print one JSON object at the end (and no progress) instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs `surakarta tune`.
pub(crate) fn run(args: TuneArgs) -> Result<(), CliError> {
    if args.list {
        print_list(args.json);
        return Ok(());
    }
    let (config, out) = check(&args)?;
    let bar = counter(config.iterations, "iterations", !args.json);
    bar.enable_steady_tick(Duration::from_millis(200));
    let start = Instant::now();
    let mut first = true;
    let result = tune::run(&config, &out, &AtomicBool::new(false), &mut |step| {
        if first {
            bar.set_position(step.iteration - 1);
            first = false;
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    let state = result.map_err(|e| CliError(e.to_string()))?;
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        println!("{}", summary_json(&config, &out, &state, seconds));
    } else {
        print_summary(&config, &out, &state, seconds);
    }
    Ok(())
}

/// Checks the arguments into the library's configuration.
fn check(args: &TuneArgs) -> Result<(TuneConfig, PathBuf), CliError> {
    let out = args
        .out
        .clone()
        .expect("clap requires --out without --list");
    check_output("--out", &out)?;
    let options = args.engine.options()?;
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    if limits == Limits::default() {
        return Err(CliError(
            "give a limit per move: --depth, --nodes or --movetime".into(),
        ));
    }
    let names: Vec<&str> = if args.tune.is_empty() {
        PARAMETER_SPECS.iter().map(|spec| spec.name).collect()
    } else {
        args.tune.iter().map(String::as_str).collect()
    };
    let mut config =
        TuneConfig::new(options, limits, &names).map_err(|e| CliError(format!("--tune: {e}")))?;
    for t in &mut config.tuned {
        t.r_end = args.r_end;
    }
    config.iterations = args.iterations;
    config.pairs = args.pairs;
    config.opening_plies = args.plies;
    config.seed = args.seed;
    config.rules = args.rules.parse()?;
    config.balance = args.balance.map(|max_score| openings::Balance {
        nodes: args.balance_nodes,
        ..openings::Balance::new(max_score, config.rules)
    });
    config.max_plies = args.max_plies;
    config.concurrency = args.concurrency;
    check_engines_fit(
        &config.options,
        2 * args.concurrency.min(2 * args.pairs) as u64,
        "of the games played at once (--concurrency)",
    )
    .map_err(CliError)?;
    Ok((config, out))
}

/// `--list`: the tunable parameters.
fn print_list(json: bool) {
    if json {
        let list: Vec<_> = PARAMETER_SPECS
            .iter()
            .map(|spec| {
                json!({
                    "name": spec.name,
                    "default": spec.default,
                    "min": spec.min,
                    "max": spec.max,
                    "about": spec.about,
                })
            })
            .collect();
        println!("{}", serde_json::Value::Array(list));
        return;
    }
    println!(
        "{:<26} {:>7} {:>10}  meaning",
        "parameter", "default", "range"
    );
    for spec in PARAMETER_SPECS {
        println!(
            "{:<26} {:>7} {:>10}  {}",
            spec.name,
            spec.default,
            format!("{}..{}", spec.min, spec.max),
            spec.about
        );
    }
}

/// The result as the JSON object of `--json`.
fn summary_json(
    config: &TuneConfig,
    out: &std::path::Path,
    state: &TuneState,
    seconds: f64,
) -> serde_json::Value {
    let start = config.options.parameters.values();
    let tuned = state.parameters(config).values();
    let parameters: Vec<_> = config
        .tuned
        .iter()
        .zip(&state.theta)
        .map(|(t, theta)| {
            json!({
                "name": PARAMETER_SPECS[t.index].name,
                "start": start[t.index],
                "estimate": theta,
                "value": tuned[t.index],
                "c_end": t.c_end,
                "r_end": t.r_end,
            })
        })
        .collect();
    let tally = state.tally();
    json!({
        "out": out.display().to_string(),
        "iterations": config.iterations,
        "done": state.steps.len(),
        "pairs": config.pairs,
        "seed": config.seed,
        "balance": config.balance.as_ref().map(|b| b.max_score),
        "games": tally.games(),
        "plus": { "wins": tally.wins, "draws": tally.draws, "losses": tally.losses },
        "parameters": parameters,
        "result": state.parameters(config).to_string(),
        "seconds": seconds,
    })
}

/// Prints the result as text.
fn print_summary(config: &TuneConfig, out: &std::path::Path, state: &TuneState, seconds: f64) {
    let tally = state.tally();
    println!(
        "{} of {} iterations done ({} games; plus against minus {}-{}-{}) in {}",
        state.steps.len(),
        config.iterations,
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses,
        out.display()
    );
    let start = config.options.parameters.values();
    let tuned = state.parameters(config).values();
    println!(
        "{:<26} {:>7} {:>10} {:>7}",
        "parameter", "start", "estimate", "value"
    );
    for (t, theta) in config.tuned.iter().zip(&state.theta) {
        println!(
            "{:<26} {:>7} {:>10.3} {:>7}",
            PARAMETER_SPECS[t.index].name, start[t.index], theta, tuned[t.index]
        );
    }
    let result = state.parameters(config).to_string();
    if result.is_empty() {
        println!("the shipped values (nothing moved by a whole step)");
    } else {
        println!("--parameters {result}");
    }
    println!("{seconds:.1} s this run");
}
