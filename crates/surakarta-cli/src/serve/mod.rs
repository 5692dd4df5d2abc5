//! The server of `surakarta serve` (docs/serve.md): the analysis board's
//! page and its JSON API over HTTP/1.1, on axum and tokio.
//!
//! [`app`] builds the router over a shared [`State`]; [`run`] binds the
//! address, prints the URL and serves until SIGINT or SIGTERM, then stops
//! the running analyses and closes. The handlers only read the request,
//! call the libraries (through `common` where the CLI already has the
//! answer: the probe object, the SVG picture, the score) and write the
//! answer: `api` (position, probe, SVG), `analysis` (the search as
//! Server-Sent Events), `records` (game records read and written),
//! `assets` (the embedded page), `query` (the query
//! string and its limits), `error` (`ApiError`, a status and `{"error"}`),
//! `connections` (the accept loop, the connection cap, the timeouts and
//! the limits of a request head). The handlers share `state` (`State`:
//! the settings of `config`, the tables, the analysis slots and stop
//! flags).

mod analysis;
mod api;
mod assets;
mod config;
mod connections;
mod error;
mod query;
mod records;
mod review;
mod state;

use crate::common::error::CliError;
pub(crate) use analysis::AnalysisRequest;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::Router;
pub(crate) use config::Config;
pub(crate) use connections::ConnectionLimits;
pub(crate) use error::ApiError;
pub(crate) use query::MAX_QUERY;
use state::State;
use std::sync::Arc;
use std::time::Duration;

/// How long connections may stay open after a shutdown signal before the
/// server closes them anyway.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// The parameters a route reads from its query string, checked: what
/// each handler reads before it does its work (the fuzz target
/// `serve_query` drives this).
#[derive(Debug)]
pub(crate) enum RouteQuery {
    /// `/api/position`: the game (a position without history when no game
    /// is named).
    Game(surakarta::Game),
    /// `/api/probe`: the position.
    Position(surakarta::Position),
    /// `/api/svg`: the position and the move to highlight, if any.
    Svg(surakarta::Position, Option<surakarta::Move>),
    /// `/api/analysis`: what to search.
    Analysis(AnalysisRequest),
    /// Any other path: the query string is not read.
    Unread,
}

/// Reads the raw query string of a request for `path` as its handler does
/// (`max_movetime_ms`: the server's `--max-movetime`).
pub(crate) fn read_route_query(
    path: &str,
    raw: Option<&str>,
    max_movetime_ms: u64,
) -> Result<RouteQuery, ApiError> {
    let read = || query::Params::parse(raw);
    Ok(match path {
        "/api/position" => RouteQuery::Game(read()?.game()?),
        "/api/probe" => RouteQuery::Position(read()?.position()?),
        "/api/svg" => {
            let (position, highlight) = api::svg_request(&read()?)?;
            RouteQuery::Svg(position, highlight)
        }
        "/api/analysis" => RouteQuery::Analysis(AnalysisRequest::read(&read()?, max_movetime_ms)?),
        _ => RouteQuery::Unread,
    })
}

/// The router: the page, the API, and JSON errors for unknown paths and
/// methods.
pub(crate) fn app(state: Arc<State>) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::app_js))
        .route("/tree.js", get(assets::tree_js))
        .route("/analysis-view.js", get(assets::analysis_view_js))
        .route("/backend.js", get(assets::backend_js))
        .route("/site.js", get(assets::site_js))
        .route("/style.css", get(assets::style_css))
        .route("/api/position", get(api::position))
        .route("/api/probe", get(api::probe))
        .route("/api/svg", get(api::svg))
        .route("/api/analysis", get(analysis::analysis))
        .route("/api/game-analysis", get(review::game_analysis))
        .route("/api/record", post(records::read))
        .route("/api/record/text", post(records::write))
        .fallback(|| async { ApiError::not_found("no such page") })
        .method_not_allowed_fallback(|| async {
            ApiError {
                status: StatusCode::METHOD_NOT_ALLOWED,
                message: "only GET is served (and POST for /api/record and /api/record/text)"
                    .into(),
            }
        })
        .with_state(state)
}

/// Serves `config` until SIGINT or SIGTERM: prints the URL (with the port
/// actually bound) on stdout, and on the signal stops the analyses, lets
/// open answers finish (at most [`SHUTDOWN_GRACE`]) and returns.
pub(crate) fn run(config: Config) -> Result<(), CliError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("serve")
        .build()
        .map_err(|e| CliError(format!("cannot start the server's threads: {e}")))?;
    let result = runtime.block_on(serve(config));
    // The searches were stopped; do not wait long for their threads.
    runtime.shutdown_timeout(Duration::from_secs(2));
    result
}

/// The server's main task.
async fn serve(config: Config) -> Result<(), CliError> {
    let bind = config.bind;
    let listener = tokio::net::TcpListener::bind(bind)
        .await
        .map_err(|e| CliError(format!("cannot listen on {bind}: {e}")))?;
    let local = listener
        .local_addr()
        .map_err(|e| CliError(format!("cannot listen on {bind}: {e}")))?;
    println!("http://{local}/");
    let limits = config.connections;
    eprintln!(
        "serving the analysis board on http://{local}/ (Ctrl-C stops); at most {} analyses at once, \
         their engines within {} MiB (--analysis-memory); at most {} connections, closed after {} s idle \
         or {} s reading a request head",
        config.max_analyses,
        config.analysis_memory_mib,
        limits.max_connections,
        limits.idle_timeout.as_secs(),
        limits.header_timeout.as_secs(),
    );
    let state = Arc::new(State::new(config));
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let connections = Arc::new(connections::Connections::new(limits));
    let server = tokio::spawn(connections::serve(
        listener,
        app(state.clone()),
        connections,
        stop_rx,
    ));
    shutdown_signal().await;
    state.stop_all();
    let _ = stop_tx.send(true);
    tokio::select! {
        done = server => done.map_err(|e| CliError(format!("the server failed: {e}"))),
        () = tokio::time::sleep(SHUTDOWN_GRACE) => {
            eprintln!("closing the connections still open");
            Ok(())
        }
    }
}

/// Waits for Ctrl-C (SIGINT) or, on Unix, SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}
