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

/// A finished iteration: `{"depth", "partial", "score", "nodes", "nps",
/// "time_ms", "pv", "lines"}` (`lines`: the iteration's lines, best first,
/// each `{"multipv", "depth", "score", "pv"}`).
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
        "lines": lines_json(info),
    })
}

/// The lines of an iteration, best first: `[{"multipv": 1, "depth",
/// "score", "pv"}, …]`, as many as the search's MultiPV (the iteration's
/// own line alone when it has none, and none when the game is over).
fn lines_json(info: &Info) -> Vec<serde_json::Value> {
    let line = |i: usize, depth: u32, score, pv: &[surakarta::Move]| {
        json!({
            "multipv": i + 1,
            "depth": depth,
            "score": score_json(score),
            "pv": pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        })
    };
    if info.lines.is_empty() {
        if info.pv.is_empty() {
            return Vec::new();
        }
        return vec![line(0, info.depth, info.score, &info.pv)];
    }
    info.lines
        .iter()
        .enumerate()
        .map(|(i, l)| line(i, l.depth, l.score, &l.pv))
        .collect()
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
