//! The JSON and SVG answers: `/api/position`, `/api/probe`, `/api/svg`
//! (docs/serve.md). Each reads its query, calls the libraries (the answers
//! themselves are `surakarta_board`'s, which the WebAssembly board shares)
//! and writes the answer; nothing here knows a rule.

use crate::serve::error::{json_response, ApiError};
use crate::serve::query::Params;
use crate::serve::state::State;
use axum::extract::{RawQuery, State as Shared};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use surakarta::{Move, Position};
use surakarta_board::{game_answer, highlighted_picture, not_covered, probe_json};
use surakarta_tablebase::{Tablebase, TablebaseError};

/// `GET /api/position?fen=F` (or `?rules=R&start=F&moves=M,…`): pieces,
/// outcome, value and every legal move with its value, best first; a table
/// that fails is named in `tablebase_error` ([`game_answer`]).
pub(crate) async fn position(
    Shared(state): Shared<Arc<State>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let params = Params::parse(query.as_deref())?;
    let game = params.game()?;
    Ok(json_response(&game_answer(&game, state.tb.as_deref())))
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
    let answer = surakarta_board::probe(tb, position).map_err(probe_error)?;
    Ok(json_response(&probe_json(&answer)))
}

/// `GET /api/svg?fen=F[&move=M]`: the picture `surakarta show F --move M
/// --svg FILE` writes.
pub(crate) async fn svg(RawQuery(query): RawQuery) -> Result<Response, ApiError> {
    let params = Params::parse(query.as_deref())?;
    let (position, highlight) = svg_request(&params)?;
    let picture = highlighted_picture(&position, highlight);
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
