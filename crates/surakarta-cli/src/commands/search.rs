//! `surakarta search`: one search from the command line, its iterations as
//! `info` lines and the best move (or one JSON object).

use crate::common::engine_args::EngineArgs;
use crate::common::game::build_game;
use crate::common::info::info_line;
use crate::common::tables;
use crate::common::usage::{check_depth, UsageError};
use clap::Args;
use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use surakarta::Rules;
use surakarta_search::{Engine, Limits, Score, ScoreKind};

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
    /// Search about this many nodes.
    #[arg(long, value_name = "N", group = "limit")]
    nodes: Option<u64>,
    /// Search for this many milliseconds.
    #[arg(long, value_name = "MS", group = "limit")]
    movetime: Option<u64>,
    /// Rule set: icga, pku, pure, or a list like repetitions=3,no-capture=50.
    #[arg(long, value_name = "RULES", default_value = "icga")]
    rules: String,
    /// Probe the endgame tables in this directory.
    #[arg(long, value_name = "DIR")]
    tb: Option<PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
    /// Print one JSON object at the end instead of text.
    #[arg(long)]
    json: bool,
}

/// The score as a JSON object: `{"kind": "cp", "value": 12}`.
fn score_json(score: Score) -> serde_json::Value {
    let (kind, value) = match score.kind() {
        ScoreKind::Eval(v) => ("cp", i64::from(v)),
        ScoreKind::Win(n) => ("win", i64::from(n)),
        ScoreKind::Loss(n) => ("loss", i64::from(n)),
        ScoreKind::TbWin(n) => ("tbwin", i64::from(n)),
        ScoreKind::TbLoss(n) => ("tbloss", i64::from(n)),
    };
    json!({ "kind": kind, "value": value })
}

/// Runs `surakarta search`.
pub(crate) fn run(args: SearchArgs) -> Result<(), UsageError> {
    let depth = args
        .depth
        .map(|d| check_depth("--depth", d.into()))
        .transpose()
        .map_err(UsageError)?;
    let rules: Rules = args.rules.parse()?;
    let game = build_game(args.position.as_deref(), &args.moves, rules)?;
    let limits = Limits {
        depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        clock: None,
    };
    if limits == Limits::default() {
        return Err(UsageError(
            "give a limit: --depth PLIES, --nodes N or --movetime MS".into(),
        ));
    }
    let mut engine = Engine::new(args.engine.options()?)?;
    if let Some(dir) = &args.tb {
        engine.set_tablebase(Some(Arc::new(tables::open(dir)?)));
    }
    let stop = AtomicBool::new(false);
    let json = args.json;
    let result = engine.search(&game, &limits, &stop, &mut |info| {
        if !json {
            println!("info {}", info_line(info));
        }
    });
    if result.tb_errors > 0 {
        eprintln!(
            "warning: {} tablebase probes failed (run `surakarta tb verify`)",
            result.tb_errors
        );
    }
    let best = result.best_move.map(|m| m.to_string());
    if json {
        let info = &result.info;
        let object = json!({
            "position": game.position().to_string(),
            "best_move": best,
            "score": score_json(info.score),
            "depth": info.depth,
            "seldepth": info.seldepth,
            "nodes": info.nodes,
            "nps": info.nps,
            "pv": info.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            "seconds": info.elapsed.as_secs_f64(),
            "tb_hits": info.tb_hits,
        });
        println!("{object}");
    } else {
        match best {
            Some(m) => println!("bestmove {m}"),
            None => println!(
                "bestmove none ({})",
                game.outcome().map_or("no move".into(), |o| o.to_string())
            ),
        }
    }
    Ok(())
}
