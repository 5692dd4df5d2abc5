//! The page, embedded in the binary: `index.html`, `app.js` and
//! `style.css` from `crates/surakarta-cli/assets/serve/`, each with its
//! content type.

use axum::http::header;
use axum::response::{IntoResponse, Response};

const INDEX_HTML: &str = include_str!("../../assets/serve/index.html");
const APP_JS: &str = include_str!("../../assets/serve/app.js");
const STYLE_CSS: &str = include_str!("../../assets/serve/style.css");

/// One embedded file with its content type; browsers revalidate it, so a
/// new binary's page is picked up at once.
fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// `GET /` (also `/?fen=F`: the page reads the address itself).
pub(crate) async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

/// `GET /app.js`.
pub(crate) async fn app_js() -> Response {
    asset("text/javascript; charset=utf-8", APP_JS)
}

/// `GET /style.css`.
pub(crate) async fn style_css() -> Response {
    asset("text/css; charset=utf-8", STYLE_CSS)
}
