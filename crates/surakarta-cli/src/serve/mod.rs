//! The server of `surakarta serve` (docs/serve.md): the analysis board's
//! page and its JSON API over HTTP/1.1, on axum and tokio.
//!
//! [`app`] builds the router over a shared [`State`]; [`run`] binds the
//! address, prints the URL and serves until SIGINT or SIGTERM, then stops
//! the running analyses and closes. The handlers only read the request,
//! call the libraries (through `common` where the CLI already has the
//! answer: the probe object, the SVG picture, the score) and write the
//! answer: `api` (position, probe, SVG), `analysis` (the search as
//! Server-Sent Events), `assets` (the embedded page), `query` (the query
//! string and its limits), `error` (`ApiError`, a status and `{"error"}`).

mod analysis;
mod api;
mod assets;
mod error;
mod query;

use crate::common::usage::UsageError;
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;
use error::ApiError;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use surakarta_search::Options;
use surakarta_tablebase::Tablebase;
use tokio::sync::Semaphore;

/// How long connections may stay open after a shutdown signal before the
/// server closes them anyway.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// The server's settings, checked.
#[derive(Debug)]
pub(crate) struct Config {
    /// Where to listen.
    pub(crate) bind: SocketAddr,
    /// The tables, if the server has any.
    pub(crate) tb: Option<Arc<Tablebase>>,
    /// Search threads of each analysis.
    pub(crate) threads: usize,
    /// Transposition table of each analysis, in MiB.
    pub(crate) hash_mb: usize,
    /// The longest analysis, in milliseconds.
    pub(crate) max_movetime_ms: u64,
    /// The most analyses running at once.
    pub(crate) max_analyses: usize,
}

impl Config {
    /// The engine options of one analysis.
    pub(crate) fn engine_options(&self) -> Options {
        Options {
            threads: self.threads,
            hash_mb: self.hash_mb,
            ..Options::default()
        }
    }
}

/// What every request shares: the settings, the tables, the analysis
/// slots and the stop flags of the running analyses.
#[derive(Debug)]
pub(crate) struct State {
    config: Config,
    tb: Option<Arc<Tablebase>>,
    analyses: Arc<Semaphore>,
    /// The stop flags of the analyses (dead ones pruned on each new one),
    /// and whether the server is shutting down.
    running: Mutex<(Vec<Weak<AtomicBool>>, bool)>,
}

impl State {
    /// The state of a server with these settings.
    pub(crate) fn new(config: Config) -> State {
        State {
            tb: config.tb.clone(),
            analyses: Arc::new(Semaphore::new(config.max_analyses)),
            running: Mutex::new((Vec::new(), false)),
            config,
        }
    }

    /// Registers an analysis's stop flag so that a shutdown raises it;
    /// false if the server is already shutting down.
    fn register(&self, stop: &Arc<AtomicBool>) -> bool {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if running.1 {
            return false;
        }
        running.0.retain(|w| w.strong_count() > 0);
        running.0.push(Arc::downgrade(stop));
        true
    }

    /// Raises the stop flag of every running analysis and refuses new ones.
    fn stop_all(&self) {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.1 = true;
        for stop in running.0.drain(..).filter_map(|w| w.upgrade()) {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// The router: the page, the API, and JSON errors for unknown paths and
/// methods.
pub(crate) fn app(state: Arc<State>) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::app_js))
        .route("/style.css", get(assets::style_css))
        .route("/api/position", get(api::position))
        .route("/api/probe", get(api::probe))
        .route("/api/svg", get(api::svg))
        .route("/api/analysis", get(analysis::analysis))
        .fallback(|| async { ApiError::not_found("no such page") })
        .method_not_allowed_fallback(|| async {
            ApiError {
                status: StatusCode::METHOD_NOT_ALLOWED,
                message: "only GET is served".into(),
            }
        })
        .with_state(state)
}

/// Serves `config` until SIGINT or SIGTERM: prints the URL (with the port
/// actually bound) on stdout, and on the signal stops the analyses, lets
/// open answers finish (at most [`SHUTDOWN_GRACE`]) and returns.
pub(crate) fn run(config: Config) -> Result<(), UsageError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("serve")
        .build()
        .map_err(|e| UsageError(format!("cannot start the server's threads: {e}")))?;
    let result = runtime.block_on(serve(config));
    // The searches were stopped; do not wait long for their threads.
    runtime.shutdown_timeout(Duration::from_secs(2));
    result
}

/// The server's main task.
async fn serve(config: Config) -> Result<(), UsageError> {
    let bind = config.bind;
    let listener = tokio::net::TcpListener::bind(bind)
        .await
        .map_err(|e| UsageError(format!("cannot listen on {bind}: {e}")))?;
    let local = listener
        .local_addr()
        .map_err(|e| UsageError(format!("cannot listen on {bind}: {e}")))?;
    println!("http://{local}/");
    eprintln!("serving the analysis board on http://{local}/ (Ctrl-C stops)");
    let state = Arc::new(State::new(config));
    let (stopped_tx, stopped_rx) = tokio::sync::oneshot::channel::<()>();
    let on_signal = {
        let state = state.clone();
        async move {
            shutdown_signal().await;
            state.stop_all();
            let _ = stopped_tx.send(());
        }
    };
    let server = axum::serve(listener, app(state)).with_graceful_shutdown(on_signal);
    let server = tokio::spawn(async move { server.await });
    let grace = async {
        if stopped_rx.await.is_ok() {
            tokio::time::sleep(SHUTDOWN_GRACE).await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        done = server => match done {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(UsageError(format!("the server failed: {e}"))),
            Err(e) => Err(UsageError(format!("the server failed: {e}"))),
        },
        () = grace => {
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
