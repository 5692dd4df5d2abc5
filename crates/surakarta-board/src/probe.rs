//! A tablebase probe's full answer (value, best move, conversion line) and
//! its JSON object: what `tb probe --json` prints and `/api/probe` answers.

use serde_json::json;
use surakarta::{Move, Position};
use surakarta_tablebase::{Tablebase, TablebaseError, Value};

/// One position's answer from the tables.
pub struct ProbeAnswer {
    /// The position probed.
    pub position: Position,
    /// Its value for the side to move.
    pub value: Value,
    /// The best move, if the side to move has one.
    pub best: Option<Move>,
    /// The principal conversion line (empty for a draw).
    pub line: Vec<Move>,
}

/// Probes `position`: its value, best move and conversion line.
pub fn probe(tb: &Tablebase, position: Position) -> Result<ProbeAnswer, TablebaseError> {
    Ok(ProbeAnswer {
        value: tb.probe_position(&position)?,
        best: tb.best_move(&position)?.map(|(m, _)| m),
        line: tb.line(&position)?,
        position,
    })
}

/// The answer as one JSON object:
/// `{"position", "wdl", "dtc", "best_move", "line"}`.
pub fn probe_json(a: &ProbeAnswer) -> serde_json::Value {
    json!({
        "position": a.position.to_string(),
        "wdl": a.value.wdl().name(),
        "dtc": a.value.dtc(),
        "best_move": a.best.map(|m| m.to_string()),
        "line": a.line.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
    })
}
