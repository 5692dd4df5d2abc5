//! Game records for the page (docs/serve.md): `POST /api/record` reads a
//! record text (the body) as its games, trees of moves with marks,
//! comments and variations; `POST /api/record/text` writes a game of that
//! shape (a JSON body) as record text. Both answers are
//! `surakarta_board`'s, which the WebAssembly board shares.

use crate::serve::error::{json_response, ApiError};
use axum::body::{to_bytes, Body};
use axum::http::StatusCode;
use axum::response::Response;
use serde_json::json;
use std::time::Duration;
use surakarta_board::{record_text, records_json};

/// The largest body either route reads (256 KiB): a record of thousands of
/// annotated moves.
pub(crate) const MAX_RECORD_BODY: usize = 256 * 1024;

/// How long a body may take to arrive.
const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// The body, at most [`MAX_RECORD_BODY`] bytes within [`BODY_TIMEOUT`].
async fn read_body(body: Body) -> Result<axum::body::Bytes, ApiError> {
    match tokio::time::timeout(BODY_TIMEOUT, to_bytes(body, MAX_RECORD_BODY)).await {
        Err(_) => Err(ApiError {
            status: StatusCode::REQUEST_TIMEOUT,
            message: format!(
                "the body did not arrive within {} s",
                BODY_TIMEOUT.as_secs()
            ),
        }),
        Ok(Err(_)) => Err(ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message: format!("the body is larger than {} KiB", MAX_RECORD_BODY / 1024),
        }),
        Ok(Ok(bytes)) => Ok(bytes),
    }
}

/// Runs `work` off the server's threads (a long record takes milliseconds).
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::internal(format!("the record task failed: {e}")))?
}

/// `POST /api/record` (body: record text): `{"games": [...]}`
/// ([`records_json`]); a record that does not read is a 400 naming its
/// line and what is wrong.
pub(crate) async fn read(body: Body) -> Result<Response, ApiError> {
    let bytes = read_body(body).await?;
    let games = blocking(move || {
        let text = std::str::from_utf8(&bytes)
            .map_err(|_| ApiError::bad_request("record: the text is not UTF-8"))?;
        records_json(text).map_err(|e| ApiError::bad_request(format!("record: {e}")))
    })
    .await?;
    Ok(json_response(&games))
}

/// `POST /api/record/text` (body: a game as JSON): `{"text": "…"}`
/// ([`record_text`]); a game that is not one is a 400 naming the field or
/// the move.
pub(crate) async fn write(body: Body) -> Result<Response, ApiError> {
    let bytes = read_body(body).await?;
    let text = blocking(move || {
        let game: serde_json::Value = serde_json::from_slice(&bytes)
            .map_err(|e| ApiError::bad_request(format!("game: not JSON ({e})")))?;
        record_text(&game).map_err(|e| ApiError::bad_request(format!("game: {e}")))
    })
    .await?;
    Ok(json_response(&json!({ "text": text })))
}
