//! A whole game judged, as the page shows it and `surakarta analyse --json`
//! prints it: the JSON of a [`GameAnalysis`] (the library's game analysis,
//! `surakarta_match::analysis`), and the annotated record.

use serde_json::json;
use std::time::Duration;
use surakarta::{Game, GameRecord};
use surakarta_match::analysis::{annotate, Eval, GameAnalysis, Summary};
use surakarta_search::Limits;

/// The search time per position of a game analysis when the request names
/// no limit, in milliseconds.
pub const DEFAULT_POSITION_MS: u64 = 500;

/// The limits of each position's search in a game analysis: `movetime_ms`
/// if given, else `nodes` alone if given, else [`DEFAULT_POSITION_MS`]
/// (or `max_ms` if lower).
///
/// ```
/// use std::time::Duration;
///
/// let limits = surakarta_board::review_limits(None, None, 300);
/// assert_eq!(limits.movetime, Some(Duration::from_millis(300)));
/// assert_eq!(surakarta_board::review_limits(None, Some(2000), 300).movetime, None);
/// ```
pub fn review_limits(movetime_ms: Option<u64>, nodes: Option<u64>, max_ms: u64) -> Limits {
    let movetime = match (movetime_ms, nodes) {
        (Some(ms), _) => Some(ms),
        (None, None) => Some(DEFAULT_POSITION_MS.min(max_ms)),
        (None, Some(_)) => None,
    };
    Limits {
        nodes,
        movetime: movetime.map(Duration::from_millis),
        ..Limits::default()
    }
}

/// One side's totals as JSON.
fn summary_json(s: &Summary) -> serde_json::Value {
    json!({
        "moves": s.moves,
        "inaccuracies": s.inaccuracies,
        "mistakes": s.mistakes,
        "blunders": s.blunders,
        "average_loss": s.average_loss,
    })
}

/// A game's analysis as JSON: `plies`, each `{"ply", "side", "move",
/// "mark", "before", "after", "win_chance_before", "win_chance_after",
/// "loss", "exact", "best", "tables", "cutoff"}` (`before` and `after` are
/// the evaluations for the mover as text, `+0.35` or `tables: win in 7`;
/// the win chances 0 to 1; `tables` what the tables say of the position
/// before the move under the pure rules, `tables: win in 7`, or null where
/// they do not hold it; `cutoff` why that is not the game's value, in
/// words, or null), and `black` and `white`, the totals (`moves`,
/// `inaccuracies`, `mistakes`, `blunders`, `average_loss`).
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use surakarta::{Game, GameRecord};
/// use surakarta_match::analysis::analyse_game;
/// use surakarta_search::{Engine, Limits, Options};
///
/// let mut game = Game::default();
/// game.play_text("b2-b3")?;
/// let record = GameRecord::from_game(&game);
/// let mut engine = Engine::new(Options { hash_mb: 1, ..Options::default() })?;
/// let analysis = analyse_game(&record, &mut engine, &Limits::depth(2), None, &AtomicBool::new(false), &mut |_, _| {})?;
/// let json = surakarta_board::analysis_json(&analysis);
/// assert_eq!(json["plies"][0]["move"], "b2-b3");
/// assert_eq!(json["black"]["moves"], 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn analysis_json(analysis: &GameAnalysis) -> serde_json::Value {
    let plies: Vec<serde_json::Value> = analysis
        .plies
        .iter()
        .map(|p| {
            json!({
                "ply": p.ply,
                "side": p.mover.name(),
                "move": p.played.to_string(),
                "mark": p.mark.map(|m| m.as_str()),
                "before": p.before.to_string(),
                "after": p.after.to_string(),
                "win_chance_before": p.before.win_chance(),
                "win_chance_after": p.after.win_chance(),
                "loss": p.loss,
                "exact": p.exact,
                "best": p.best.map(|b| b.to_string()),
                "tables": p.tables.map(|v| Eval::Table(v.table).to_string()),
                "cutoff": p.tables.and_then(|v| v.cutoff).map(|c| c.to_string()),
            })
        })
        .collect();
    json!({
        "plies": plies,
        "black": summary_json(&analysis.black),
        "white": summary_json(&analysis.white),
    })
}

/// The page's game analysis answer: [`analysis_json`] with `record`, the
/// game's record text with the marks and a comment on every move
/// (`surakarta analyse --out`).
pub fn review_json(game: &Game, analysis: &GameAnalysis) -> serde_json::Value {
    let mut record = GameRecord::from_game(game);
    annotate(&mut record, analysis);
    let mut answer = analysis_json(analysis);
    answer["record"] = serde_json::Value::String(record.to_string());
    answer
}
