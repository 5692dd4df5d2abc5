//! The JSON and SVG answers: `/api/position`, `/api/probe`, `/api/svg`
//! (docs/serve.md). Each reads its query, calls the libraries (and the CLI's
//! shared `common` code) and writes the answer; nothing here knows a rule.

use crate::common::info::outcome_json;
use crate::common::picture::{capture_path, svg_picture};
use crate::common::probe::{probe as probe_tables, probe_json};
use crate::serve::error::{json_response, ApiError};
use crate::serve::query::Params;
use crate::serve::state::State;
use axum::extract::{RawQuery, State as Shared};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use std::cmp::Ordering;
use std::sync::Arc;
use surakarta::capture_path::capture_paths;
use surakarta::{Game, Move, Position, Rules, Termination};
use surakarta_tablebase::{Tablebase, TablebaseError, Value};

/// A value as JSON, `{"wdl": "win", "dtc": 3}` (`dtc` null for a draw), or
/// null where there is none.
fn value_json(value: Option<Value>) -> serde_json::Value {
    match value {
        Some(v) => json!({ "wdl": v.wdl().name(), "dtc": v.dtc() }),
        None => serde_json::Value::Null,
    }
}

/// The order of the move list: wins by rising distance, draws, losses by
/// falling distance, then moves without a value (ties: by notation).
fn value_rank(value: Option<Value>) -> (u8, i64) {
    match value {
        Some(Value::Win(d)) => (0, i64::from(d)),
        Some(Value::Draw) => (1, 0),
        Some(Value::Loss(d)) => (2, -i64::from(d)),
        None => (3, 0),
    }
}

/// One legal move of `position` with its value for the mover.
struct MoveEntry {
    m: Move,
    text: String,
    value: Option<Value>,
}

/// Whether a failed probe only means that the tables do not cover the
/// position (no table for its class), rather than a table that should
/// answer and cannot (a damaged or unreadable file).
fn not_covered(e: &TablebaseError) -> bool {
    matches!(
        e,
        TablebaseError::MissingTable { .. } | TablebaseError::Index(_) | TablebaseError::NoPieces
    )
}

/// The values of a position's answer, with the first table error met.
#[derive(Default)]
struct Lookups {
    error: Option<String>,
}

impl Lookups {
    /// The value of a probe: `None` where no table covers it, and where a
    /// table failed (the error kept for the answer).
    fn value(&mut self, probe: Result<Value, TablebaseError>) -> Option<Value> {
        match probe {
            Ok(value) => Some(value),
            Err(e) if not_covered(&e) => None,
            Err(e) => {
                self.error.get_or_insert_with(|| e.to_string());
                None
            }
        }
    }
}

/// `GET /api/position?fen=F`: pieces, outcome, value and every legal move
/// with its value, best first; a table that fails is named in
/// `tablebase_error`.
pub(crate) async fn position(
    Shared(state): Shared<Arc<State>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let params = Params::parse(query.as_deref())?;
    let position = params.position()?;
    let tb = state.tb.as_deref();
    let game = Game::new(position, Rules::default());
    let outcome = game.outcome();
    let mut lookups = Lookups::default();
    // A game ended by a rule of the game record (repetition, the
    // no-capture limit) has a result the tables know nothing of.
    let ended_by_record = outcome.is_some_and(|o| {
        matches!(
            o.termination,
            Termination::Repetition | Termination::NoCaptureLimit
        )
    });
    let value = match tb {
        Some(tb) if !ended_by_record => lookups.value(tb.probe_position(&position)),
        _ => None,
    };
    let mut moves: Vec<MoveEntry> = if outcome.is_some() {
        Vec::new()
    } else {
        game.legal_moves()
            .iter()
            .map(|&m| MoveEntry {
                m,
                text: m.to_string(),
                value: tb.and_then(|tb| lookups.value(tb.move_value(&position, m))),
            })
            .collect()
    };
    moves.sort_by(|a, b| match value_rank(a.value).cmp(&value_rank(b.value)) {
        Ordering::Equal => a.text.cmp(&b.text),
        order => order,
    });
    let squares = |color| {
        position
            .pieces(color)
            .into_iter()
            .map(|sq| sq.to_string())
            .collect::<Vec<_>>()
    };
    let answer = json!({
        "fen": position.to_string(),
        "side_to_move": position.turn().to_string(),
        "black": squares(surakarta::Color::Black),
        "white": squares(surakarta::Color::White),
        "outcome": outcome.as_ref().map(outcome_json),
        "value": value_json(value),
        "tablebase_error": lookups.error,
        "moves": moves.iter().map(|e| move_json(&position, e)).collect::<Vec<_>>(),
    });
    Ok(json_response(&answer))
}

/// One entry of `moves`.
fn move_json(position: &Position, e: &MoveEntry) -> serde_json::Value {
    let m = e.m;
    let path = if m.is_capture() {
        capture_paths(position, m.from(), m.to()).first().map(|p| {
            p.points()
                .iter()
                .map(|sq| sq.to_string())
                .collect::<Vec<_>>()
        })
    } else {
        None
    };
    json!({
        "move": e.text,
        "from": m.from().to_string(),
        "to": m.to().to_string(),
        "capture": m.is_capture(),
        "path": path,
        "fen": position.after(m).to_string(),
        "value": value_json(e.value),
    })
}

/// The status of a failed probe: 404 where the tables do not cover the
/// position, 500 where a table that should answer cannot.
fn probe_error(e: TablebaseError) -> ApiError {
    if not_covered(&e) {
        ApiError::not_found(e.to_string())
    } else {
        ApiError::internal(e.to_string())
    }
}

/// `GET /api/probe?fen=F`: the object `surakarta tb probe --json` prints.
pub(crate) async fn probe(
    Shared(state): Shared<Arc<State>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let params = Params::parse(query.as_deref())?;
    let position = params.position()?;
    let tb: &Tablebase = state
        .tb
        .as_deref()
        .ok_or_else(|| ApiError::not_found("this server has no tables (start it with --tb DIR)"))?;
    let answer = probe_tables(tb, position).map_err(probe_error)?;
    Ok(json_response(&probe_json(&answer)))
}

/// `GET /api/svg?fen=F[&move=M]`: the picture `surakarta show F --move M
/// --svg FILE` writes.
pub(crate) async fn svg(RawQuery(query): RawQuery) -> Result<Response, ApiError> {
    let params = Params::parse(query.as_deref())?;
    let (position, highlight) = svg_request(&params)?;
    let path = capture_path(highlight, Some(&position));
    let picture = svg_picture(
        &position,
        highlight.map(|m| (m, "highlighted move")),
        path.as_ref(),
    );
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], picture).into_response())
}

/// The parameters of `/api/svg`: the position and the move to highlight
/// (legal in it), if any.
pub(crate) fn svg_request(params: &Params) -> Result<(Position, Option<Move>), ApiError> {
    let position = params.position()?;
    let highlight = match params.get("move") {
        Some(text) => Some(
            position
                .parse_move(text)
                .map_err(|e| ApiError::bad_request(format!("move: {e}")))?,
        ),
        None => None,
    };
    Ok((position, highlight))
}
