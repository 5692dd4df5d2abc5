//! Small values as JSON: a tablebase value, an engine score, the end of a
//! game.

use serde_json::json;
use surakarta::{Color, Outcome, Termination};
use surakarta_search::Score;
use surakarta_tablebase::Value;

/// A tablebase value as JSON, `{"wdl": "win", "dtc": 3}` (`dtc` null for a
/// draw), or null where there is none.
///
/// ```
/// use surakarta_tablebase::Value;
///
/// assert_eq!(surakarta_board::value_json(Some(Value::Win(3))).to_string(), r#"{"dtc":3,"wdl":"win"}"#);
/// assert!(surakarta_board::value_json(None).is_null());
/// ```
pub fn value_json(value: Option<Value>) -> serde_json::Value {
    match value {
        Some(v) => json!({ "wdl": v.wdl().name(), "dtc": v.dtc() }),
        None => serde_json::Value::Null,
    }
}

/// An engine score as JSON: `{"kind": "cp", "value": 12}` (`search --json`
/// and the analysis events).
///
/// ```
/// use surakarta_search::Score;
///
/// assert_eq!(surakarta_board::score_json(Score::DRAW)["kind"], "cp");
/// ```
pub fn score_json(score: Score) -> serde_json::Value {
    let (kind, value) = score.kind().parts();
    json!({ "kind": kind, "value": value })
}

/// A finished game's end as JSON, reported instead of a score (there is
/// nothing to search): `{"result": "0-1", "winner": "white",
/// "termination": "no-pieces", "reason": "no pieces left"}`; `winner` is
/// `null` for a draw.
///
/// ```
/// use surakarta::{Game, Rules};
///
/// let over = Game::new("6/6/6/6/1b4/6 w".parse()?, Rules::ICGA);
/// let end = surakarta_board::outcome_json(&over.outcome().unwrap());
/// assert_eq!(end["winner"], "black");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn outcome_json(outcome: &Outcome) -> serde_json::Value {
    let termination = match outcome.termination {
        Termination::NoPieces => "no-pieces",
        Termination::NoMoves => "no-moves",
        Termination::Repetition => "repetition",
        Termination::NoCaptureLimit => "no-capture-limit",
    };
    json!({
        "result": outcome.result(),
        "winner": outcome.winner.map(|c| match c {
            Color::Black => "black",
            Color::White => "white",
        }),
        "termination": termination,
        "reason": outcome.termination.describe(),
    })
}
