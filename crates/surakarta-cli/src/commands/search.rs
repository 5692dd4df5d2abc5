//! `surakarta search`: one search from the command line, its iterations as
//! `info` lines (one per principal variation with `--multipv`) and the best
//! move (or one JSON object).

use crate::common::checks::{check_depth, in_range, MOVETIME_MS, NODES};
use crate::common::engine_args::EngineArgs;
use crate::common::error::CliError;
use crate::common::game::build_game;
use crate::common::info::{info_lines, tb_warning};
use clap::Args;
use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use surakarta::{Game, Rules};
use surakarta_board::{outcome_json, score_json};
use surakarta_search::{Limits, SearchResult, MAX_MULTIPV};

/// The arguments of `surakarta search`.
#[derive(Args, Debug)]
pub(crate) struct SearchArgs {
    /// The position (notation as in docs/notation.md); default: the start.
    #[arg(long, short = 'p', value_name = "FEN")]
    position: Option<String>,
    /// Moves played from the position first (`b2-c3`, `b2xe5` or `b2c3`).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
    /// Search to this depth in plies, 1 to 64.
    #[arg(long, short = 'd', value_name = "PLIES", group = "limit")]
    depth: Option<u32>,
    /// Search about this many nodes, 1 to 10⁹.
    #[arg(long, value_name = "N", group = "limit", value_parser = in_range(NODES))]
    nodes: Option<u64>,
    /// Search for this many milliseconds, 1 to 86400000 (a day).
    #[arg(long, value_name = "MS", group = "limit", value_parser = in_range(MOVETIME_MS))]
    movetime: Option<u64>,
    /// Rule set: icga, pku, pure, or a list like repetitions=3,no-capture=50.
    #[arg(long, value_name = "RULES", default_value = "icga")]
    rules: String,
    /// Probe the endgame tables in this directory.
    #[arg(long, value_name = "DIR")]
    tb: Option<PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
    /// Report this many best lines (MultiPV), 1 to 256: each iteration
    /// prints one `info` line per line, ranked after `multipv`.
    #[arg(long, value_name = "K", default_value_t = 1)]
    multipv: usize,
    /// Print one JSON object at the end instead of text.
    #[arg(long)]
    json: bool,
}

/// What to search, checked.
struct Settings {
    game: Game,
    limits: Limits,
}

/// Checks the depth, MultiPV, rules, position, moves and that a limit was
/// given.
fn check(args: &SearchArgs) -> Result<Settings, CliError> {
    if !(1..=MAX_MULTIPV).contains(&args.multipv) {
        return Err(CliError(format!(
            "--multipv {} is out of range: give 1 to {MAX_MULTIPV}",
            args.multipv
        )));
    }
    let depth = args
        .depth
        .map(|d| check_depth("--depth", d.into()))
        .transpose()
        .map_err(CliError)?;
    let rules: Rules = args.rules.parse()?;
    let game = build_game(args.position.as_deref(), &args.moves, rules)?;
    let limits = Limits {
        depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        clock: None,
    };
    if limits == Limits::default() {
        return Err(CliError(
            "give a limit: --depth PLIES, --nodes N or --movetime MS".into(),
        ));
    }
    Ok(Settings { game, limits })
}

/// Runs `surakarta search`.
pub(crate) fn run(args: SearchArgs) -> Result<(), CliError> {
    let Settings { game, limits } = check(&args)?;
    let mut engine = args.engine.engine(args.tb.as_deref())?;
    engine
        .set_multipv(args.multipv)
        .map_err(|e| CliError(e.to_string()))?;
    let stop = AtomicBool::new(false);
    let json = args.json;
    let multipv = args.multipv;
    let result = engine.search(&game, &limits, &stop, &mut |info| {
        if !json {
            for line in info_lines(info, multipv) {
                println!("info {line}");
            }
        }
    });
    if let Some(warning) = tb_warning(&result) {
        eprintln!("warning: {warning}");
    }
    if json {
        println!("{}", result_json(&game, &result));
    } else {
        println!("{}", result_text(&game, &result));
    }
    Ok(())
}

/// The `bestmove` line (`bestmove none (WHY)` if there is no move).
fn result_text(game: &Game, result: &SearchResult) -> String {
    match result.best_move {
        Some(m) => format!("bestmove {m}"),
        None => format!(
            "bestmove none ({})",
            game.outcome().map_or("no move".into(), |o| o.to_string())
        ),
    }
}

/// The result as the JSON object of `--json`. A finished game has no score
/// (`null`) but an `outcome` ([`outcome_json`]); otherwise `outcome` is
/// `null`. `lines` holds the principal variations best first (one without
/// `--multipv`, none for a finished game), each with its rank (`multipv`),
/// score, depth and line.
fn result_json(game: &Game, result: &SearchResult) -> serde_json::Value {
    let info = &result.info;
    let outcome = game.outcome();
    json!({
        "position": game.position().to_string(),
        "best_move": result.best_move.map(|m| m.to_string()),
        "score": if outcome.is_some() { serde_json::Value::Null } else { score_json(info.score) },
        "outcome": outcome.as_ref().map(outcome_json),
        "depth": info.depth,
        "partial": info.partial,
        "seldepth": info.seldepth,
        "nodes": info.nodes,
        "nps": info.nps,
        "pv": info.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "seconds": info.elapsed.as_secs_f64(),
        "tb_hits": info.tb_hits,
        "lines": info.lines.iter().enumerate().map(|(i, line)| json!({
            "multipv": i + 1,
            "score": score_json(line.score),
            "depth": line.depth,
            "pv": line.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}
