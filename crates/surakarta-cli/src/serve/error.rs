//! [`ApiError`]: a failed request as a status code and `{"error": "…"}`.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// A request the server does not answer: the status and the message (the
/// text the CLI prints for the same mistake, where there is one).
#[derive(Debug)]
pub(crate) struct ApiError {
    pub(crate) status: StatusCode,
    pub(crate) message: String,
}

impl ApiError {
    /// 400: malformed or out-of-range input.
    pub(crate) fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// 404: no such path, or no table for the position.
    pub(crate) fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }

    /// 503: too busy (or stopping) to start a search.
    pub(crate) fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: message.into(),
        }
    }

    /// 500: the server failed (a damaged table, memory for a search).
    pub(crate) fn internal(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: message.into(),
        }
    }
}

/// The body of every error answer: `{"error": "…"}`.
pub(crate) fn json_error_body(message: &str) -> String {
    json!({ "error": message }).to_string()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json_error_body(&self.message);
        (
            self.status,
            [(header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response()
    }
}

/// A JSON answer (`application/json`, status 200).
pub(crate) fn json_response(value: &serde_json::Value) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        value.to_string(),
    )
        .into_response()
}
