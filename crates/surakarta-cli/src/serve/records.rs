//! Game records for the page (docs/serve.md): `POST /api/record` reads a
//! record text (the body) as its games, trees of moves with marks,
//! comments and variations; `POST /api/record/text` writes a game of that
//! shape (a JSON body) as record text. Both answers are
//! `surakarta_board`'s, which the WebAssembly board shares.
//!
//! Each request's work is bounded: a body over [`MAX_RECORD_BODY`] is
//! refused (at once when its `Content-Length` says so), a text of more
//! than `surakarta_board::MAX_PAGE_GAMES` games too, and at most
//! [`MAX_RECORD_WORKERS`] bodies are read as records (or written) at once;
//! a request that finds them all busy for [`RECORD_WAIT`] is answered 503.

use crate::serve::error::{json_response, ApiError};
use crate::serve::state::State;
use axum::body::{to_bytes, Body, HttpBody as _};
use axum::extract::State as Shared;
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;
use surakarta_board::{record_text_of_json, records_json};

/// The largest body either route reads (256 KiB): a record of thousands of
/// annotated moves.
pub(crate) const MAX_RECORD_BODY: usize = 256 * 1024;

/// How long a body may take to arrive.
const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// The most record bodies read or written at once (each takes a core and
/// memory a small multiple of its body while it runs).
pub(crate) const MAX_RECORD_WORKERS: usize = 2;

/// How long a request waits for one of the [`MAX_RECORD_WORKERS`] before
/// it is answered 503.
pub(crate) const RECORD_WAIT: Duration = Duration::from_secs(10);

/// The 413 of a body over [`MAX_RECORD_BODY`].
fn too_large() -> ApiError {
    ApiError {
        status: StatusCode::PAYLOAD_TOO_LARGE,
        message: format!("the body is larger than {} KiB", MAX_RECORD_BODY / 1024),
    }
}

/// The body, at most [`MAX_RECORD_BODY`] bytes within [`BODY_TIMEOUT`]; a
/// body whose length (its `Content-Length`) is over the limit is refused
/// before any of it is read.
async fn read_body(body: Body) -> Result<axum::body::Bytes, ApiError> {
    if body.size_hint().lower() > MAX_RECORD_BODY as u64 {
        return Err(too_large());
    }
    match tokio::time::timeout(BODY_TIMEOUT, to_bytes(body, MAX_RECORD_BODY)).await {
        Err(_) => Err(ApiError {
            status: StatusCode::REQUEST_TIMEOUT,
            message: format!(
                "the body did not arrive within {} s",
                BODY_TIMEOUT.as_secs()
            ),
        }),
        Ok(Err(_)) => Err(too_large()),
        Ok(Ok(bytes)) => Ok(bytes),
    }
}

/// Runs `work` off the server's threads (a long record takes
/// milliseconds) once one of the [`MAX_RECORD_WORKERS`] is free; 503 if
/// none is within [`RECORD_WAIT`].
async fn blocking<T: Send + 'static>(
    state: &State,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let permit = tokio::time::timeout(RECORD_WAIT, state.records.clone().acquire_owned())
        .await
        .ok()
        .and_then(Result::ok)
        .ok_or_else(|| {
            ApiError::unavailable(format!(
                "{MAX_RECORD_WORKERS} records are already being read: try again in a moment"
            ))
        })?;
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work()
    })
    .await
    .map_err(|e| ApiError::internal(format!("the record task failed: {e}")))?
}

/// `POST /api/record` (body: record text): `{"games": [...]}`
/// ([`records_json`]); a record that does not read is a 400 naming its
/// line and what is wrong (more than `MAX_PAGE_GAMES` games included).
pub(crate) async fn read(
    Shared(state): Shared<Arc<State>>,
    body: Body,
) -> Result<Response, ApiError> {
    let bytes = read_body(body).await?;
    let games = blocking(&state, move || {
        let text = std::str::from_utf8(&bytes)
            .map_err(|_| ApiError::bad_request("record: the text is not UTF-8"))?;
        records_json(text).map_err(|e| ApiError::bad_request(format!("record: {e}")))
    })
    .await?;
    Ok(json_response(&games))
}

/// `POST /api/record/text` (body: a game as JSON): `{"text": "…"}`
/// ([`record_text_of_json`]); a game that is not one is a 400 naming the field or
/// the move.
pub(crate) async fn write(
    Shared(state): Shared<Arc<State>>,
    body: Body,
) -> Result<Response, ApiError> {
    let bytes = read_body(body).await?;
    let text = blocking(&state, move || {
        let game = std::str::from_utf8(&bytes)
            .map_err(|_| ApiError::bad_request("game: not JSON (the text is not UTF-8)"))?;
        record_text_of_json(game).map_err(|e| ApiError::bad_request(format!("game: {e}")))
    })
    .await?;
    Ok(json_response(&json!({ "text": text })))
}
