//! The engine's report of a finished iteration as one line of text, a
//! score as JSON, and the end of a finished game as JSON.

use serde_json::json;
use surakarta::{Color, Outcome, Termination};
use surakarta_search::{Info, Score, SearchResult};

/// One iteration as a protocol-style line (without the `info` word), as
/// `search` prints it and the engine protocol sends it.
pub(crate) fn info_line(info: &Info) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {} tbhits {} pv {}",
        info.depth,
        info.seldepth,
        info.score,
        info.nodes,
        info.nps,
        info.elapsed.as_millis(),
        info.hashfull,
        info.tb_hits,
        pv.join(" ")
    )
}

/// The score as a JSON object: `{"kind": "cp", "value": 12}` (`search
/// --json` and the server's analysis events).
pub(crate) fn score_json(score: Score) -> serde_json::Value {
    let (kind, value) = score.kind().parts();
    json!({ "kind": kind, "value": value })
}

/// The warning for a search whose tablebase probes failed: how many, the
/// first one's message and what to do; `None` if none failed. `search`
/// prints it on stderr, `play` on stdout, the engine protocol as an `info
/// string`.
pub(crate) fn tb_warning(result: &SearchResult) -> Option<String> {
    (result.tb_errors > 0).then(|| {
        let first = result.first_tb_error.as_deref().unwrap_or("no message");
        let probes = if result.tb_errors == 1 { "probe" } else { "probes" };
        format!(
            "{} tablebase {probes} failed, the search went on without them (run surakarta tb verify); the first: {first}",
            result.tb_errors
        )
    })
}

/// A finished game's end as a JSON object, reported instead of a score
/// (there is nothing to search): `{"result": "0-1", "winner": "white",
/// "termination": "no-pieces", "reason": "no pieces left"}`; `winner` is
/// `null` for a draw. `search --json`, the server's position and analysis
/// answers.
pub(crate) fn outcome_json(outcome: &Outcome) -> serde_json::Value {
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
