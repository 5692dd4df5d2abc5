//! The page, embedded in the binary: `index.html`, `app.js` (with
//! `tree.js`, the game tree, and `analysis-view.js`, the game analysis's
//! graph), `backend.js`, `site.js` (which names this server's API as the
//! back end) and `style.css` from `crates/surakarta-cli/assets/serve/`, each with its
//! content type. The static site (`scripts/build-web.sh`) is the same page
//! with its own `site.js`, the WebAssembly module and `engine-worker.js`.

use axum::http::header;
use axum::response::{IntoResponse, Response};

const INDEX_HTML: &str = include_str!("../../assets/serve/index.html");
const APP_JS: &str = include_str!("../../assets/serve/app.js");
const TREE_JS: &str = include_str!("../../assets/serve/tree.js");
const ANALYSIS_VIEW_JS: &str = include_str!("../../assets/serve/analysis-view.js");
const BACKEND_JS: &str = include_str!("../../assets/serve/backend.js");
const SITE_JS: &str = include_str!("../../assets/serve/site.js");
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

/// `GET /tree.js`.
pub(crate) async fn tree_js() -> Response {
    asset("text/javascript; charset=utf-8", TREE_JS)
}

/// `GET /analysis-view.js`.
pub(crate) async fn analysis_view_js() -> Response {
    asset("text/javascript; charset=utf-8", ANALYSIS_VIEW_JS)
}

/// `GET /backend.js`.
pub(crate) async fn backend_js() -> Response {
    asset("text/javascript; charset=utf-8", BACKEND_JS)
}

/// `GET /site.js`.
pub(crate) async fn site_js() -> Response {
    asset("text/javascript; charset=utf-8", SITE_JS)
}

/// `GET /style.css`.
pub(crate) async fn style_css() -> Response {
    asset("text/css; charset=utf-8", STYLE_CSS)
}
