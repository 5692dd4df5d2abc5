//! The engine's reports as the analysis events of the board page: one
//! `info` object per finished iteration, then one `bestmove` object.

use crate::json::{outcome_json, score_json};
use serde_json::json;
use surakarta::Outcome;
use surakarta_search::{Info, SearchResult};

/// The principal variation as move texts.
fn pv_json(info: &Info) -> Vec<String> {
    info.pv.iter().map(|m| m.to_string()).collect()
}

/// Milliseconds of a report.
fn millis(info: &Info) -> u64 {
    u64::try_from(info.elapsed.as_millis()).unwrap_or(u64::MAX)
}

/// A finished iteration: `{"depth", "score", "nodes", "nps", "time_ms",
/// "pv"}`.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use surakarta::{Game, Position, Rules};
/// use surakarta_search::{Engine, Limits, Options};
///
/// let mut engine = Engine::new(Options { hash_mb: 1, ..Options::default() })?;
/// let game = Game::new(Position::new(), Rules::default());
/// let mut infos = Vec::new();
/// let result = engine.search(&game, &Limits::depth(2), &AtomicBool::new(false), &mut |info| {
///     infos.push(surakarta_board::info_json(info))
/// });
/// assert_eq!(infos.last().unwrap()["depth"], 2);
/// let best = surakarta_board::bestmove_json(&result);
/// assert_eq!(best["move"], result.best_move.unwrap().to_string());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn info_json(info: &Info) -> serde_json::Value {
    json!({
        "depth": info.depth,
        "partial": info.partial,
        "score": score_json(info.score),
        "nodes": info.nodes,
        "nps": info.nps,
        "time_ms": millis(info),
        "pv": pv_json(info),
    })
}

/// The search's answer: `{"move", "score", "outcome": null, "depth",
/// "nodes", "time_ms", "pv", "tb_errors"}`, `tb_errors` counting the
/// tablebase probes that failed (a damaged table: the search went on
/// without them).
pub fn bestmove_json(result: &SearchResult) -> serde_json::Value {
    let info = &result.info;
    json!({
        "move": result.best_move.map(|m| m.to_string()),
        "score": score_json(info.score),
        "outcome": null,
        "depth": info.depth,
        "partial": info.partial,
        "nodes": info.nodes,
        "time_ms": millis(info),
        "pv": pv_json(info),
        "tb_errors": result.tb_errors,
    })
}

/// The answer for a finished game: no move, no score, its outcome.
///
/// ```
/// use surakarta::{Game, Rules};
///
/// let over = Game::new("6/6/6/6/1b4/6 w".parse()?, Rules::default());
/// let answer = surakarta_board::finished_json(&over.outcome().unwrap());
/// assert!(answer["move"].is_null());
/// assert_eq!(answer["outcome"]["winner"], "black");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn finished_json(outcome: &Outcome) -> serde_json::Value {
    json!({
        "move": null,
        "score": null,
        "outcome": outcome_json(outcome),
        "depth": 0,
        "nodes": 0,
        "time_ms": 0,
        "pv": [],
        "tb_errors": 0,
    })
}
