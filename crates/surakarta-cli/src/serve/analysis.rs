//! `GET /api/analysis`: a search streamed as Server-Sent Events.
//!
//! The search runs on a blocking thread with its own [`Engine`]; each
//! finished iteration goes through a channel into the event stream, then
//! the `bestmove` event, then the stream ends. The stream holds a
//! [`StopOnDrop`]: when the client goes away, the server drops the stream
//! and the guard raises the search's stop flag. A semaphore bounds the
//! searches running at once (503 when full); the permit lives as long as
//! the search thread.

use crate::common::checks::MAX_DEPTH;
use crate::common::memory::new_engine;
use crate::serve::error::ApiError;
use crate::serve::query::Params;
use crate::serve::state::State;
use axum::extract::{RawQuery, State as Shared};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use surakarta::Game;
use surakarta_board::{bestmove_json, finished_json, info_json};
use surakarta_search::{Engine, Limits, Options, MAX_LEVEL};
use tokio::sync::{mpsc, OwnedSemaphorePermit};

/// The search time when the request names none, in milliseconds.
pub(crate) const DEFAULT_MOVETIME_MS: u64 = 2000;

/// Raises the stop flag of a search when dropped (the client is gone, or
/// the stream ended).
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// An event named `name` holding `data`.
pub(crate) fn event(name: &str, data: &serde_json::Value) -> Event {
    Event::default().event(name).data(data.to_string())
}

/// The most lines an analysis of the page may ask for (`multipv`).
pub(crate) const MAX_ANALYSIS_LINES: u64 = 8;

/// What an analysis request asks for, checked.
#[derive(Debug)]
pub(crate) struct AnalysisRequest {
    /// The game to search: `fen` without history, or `rules`, `start` and
    /// `moves` with it.
    pub(crate) game: Game,
    /// The search time in milliseconds (1 to the server's cap).
    pub(crate) movetime_ms: u64,
    /// The depth to stop at, if any (1 to `MAX_DEPTH`).
    pub(crate) depth: Option<u32>,
    /// The nodes to stop at, if any.
    pub(crate) nodes: Option<u64>,
    /// The strength level (1 to 11), if any.
    pub(crate) level: Option<u8>,
    /// The seed of the level's choice.
    pub(crate) seed: u64,
    /// The lines to search (1 to [`MAX_ANALYSIS_LINES`]).
    pub(crate) multipv: usize,
}

impl AnalysisRequest {
    /// Reads the game (`fen`, or `rules`, `start` and `moves`), `movetime`
    /// (at most `max_movetime`, default [`DEFAULT_MOVETIME_MS`] or the cap
    /// if lower), `depth`, `nodes`, `level` (1 to 11), `seed` and
    /// `multipv` (1 to [`MAX_ANALYSIS_LINES`]).
    pub(crate) fn read(params: &Params, max_movetime: u64) -> Result<AnalysisRequest, ApiError> {
        let game = params.game()?;
        let default = DEFAULT_MOVETIME_MS.min(max_movetime);
        let movetime_ms = params
            .number("movetime", Some(default), max_movetime)?
            .unwrap_or(default);
        let depth = params
            .number("depth", None, MAX_DEPTH.into())?
            .map(|d| u32::try_from(d).unwrap_or(MAX_DEPTH));
        let nodes = params.number("nodes", None, u64::MAX)?;
        let level = params
            .number("level", None, MAX_LEVEL.into())?
            .map(|l| u8::try_from(l).unwrap_or(MAX_LEVEL));
        let seed = match params.get("seed") {
            None => 0,
            Some(text) => text.parse::<u64>().map_err(|_| {
                ApiError::bad_request(format!(
                    "seed {} is not a whole number: give 0 to {}",
                    surakarta::Excerpt::new(text),
                    u64::MAX
                ))
            })?,
        };
        let multipv = params
            .number("multipv", Some(1), MAX_ANALYSIS_LINES)?
            .map_or(1, |n| usize::try_from(n).unwrap_or(1));
        Ok(AnalysisRequest {
            game,
            movetime_ms,
            depth,
            nodes,
            level,
            seed,
            multipv,
        })
    }
}

/// `GET /api/analysis?fen=F&movetime=MS[&depth=D][&nodes=N][&level=L&seed=S][&multipv=K]`
/// (or the game as `rules`, `start` and `moves` instead of `fen`).
pub(crate) async fn analysis(
    Shared(state): Shared<Arc<State>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let params = Params::parse(query.as_deref())?;
    let request = AnalysisRequest::read(&params, state.config.max_movetime_ms)?;
    let limits = Limits {
        depth: request.depth,
        nodes: request.nodes,
        movetime: Some(Duration::from_millis(request.movetime_ms)),
        clock: None,
    };
    let game = request.game;
    if let Some(outcome) = game.outcome() {
        let event = event("bestmove", &finished_json(&outcome));
        let events = stream::once(async move { Ok::<Event, Infallible>(event) });
        return Ok(Sse::new(events).into_response());
    }

    let options = Options {
        level: request.level,
        level_seed: request.seed,
        multipv: request.multipv,
        ..state.config.engine_options()
    };
    let Started {
        mut engine,
        slot,
        stop,
    } = start_engine(&state, options).await?;

    let (tx, rx) = mpsc::unbounded_channel::<Event>();
    let flag = stop.clone();
    tokio::task::spawn_blocking(move || {
        let _slot = slot;
        let result = engine.search(&game, &limits, &flag, &mut |info| {
            // A closed channel: the client is gone and the flag is up.
            let _ = tx.send(event("info", &info_json(info)));
        });
        let _ = tx.send(event("bestmove", &bestmove_json(&result)));
    });

    Ok(event_stream(rx, stop))
}

/// The events of `rx` as a Server-Sent Events answer that raises `stop`
/// when the client goes away (or the stream ends).
pub(crate) fn event_stream(rx: mpsc::UnboundedReceiver<Event>, stop: Arc<AtomicBool>) -> Response {
    let guard = StopOnDrop(stop);
    let events = stream::unfold((rx, guard), |(mut rx, guard)| async move {
        let event = rx.recv().await?;
        Some((Ok::<Event, Infallible>(event), (rx, guard)))
    });
    Sse::new(events)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(5)))
        .into_response()
}

/// An engine started for one analysis: its slot among the server's
/// analyses and its share of their memory (held until dropped), and its
/// stop flag (registered, so that a shutdown stops it).
pub(crate) struct Started {
    pub(crate) engine: Engine,
    pub(crate) slot: (OwnedSemaphorePermit, OwnedSemaphorePermit),
    pub(crate) stop: Arc<AtomicBool>,
}

/// Takes a slot and the memory of one analysis and makes its engine, with
/// the server's tables; 503 when the slots or the memory are taken or the
/// server is stopping.
pub(crate) async fn start_engine(
    state: &Arc<State>,
    options: Options,
) -> Result<Started, ApiError> {
    let stop = Arc::new(AtomicBool::new(false));
    // Registered first, so that a shutdown from now on stops this search.
    if !state.register(&stop) {
        return Err(ApiError::unavailable("the server is shutting down"));
    }
    let permit = state.analyses.clone().try_acquire_owned().map_err(|_| {
        ApiError::unavailable(format!(
            "{} analyses are already running (the server's --max-analyses): try again when one ends",
            state.config.max_analyses
        ))
    })?;
    let analysis_mib = state.config.analysis_mib();
    let memory = u32::try_from(analysis_mib)
        .ok()
        .and_then(|mib| state.memory.clone().try_acquire_many_owned(mib).ok())
        .ok_or_else(|| {
            ApiError::unavailable(format!(
                "the analyses' memory budget (--analysis-memory {} MiB) has {} MiB free and an analysis needs {analysis_mib} MiB (its --hash table and the stacks and search state of its --threads): try again when one ends",
                state.config.analysis_memory_mib,
                state.memory.available_permits(),
            ))
        })?;
    let mut engine = tokio::task::spawn_blocking(move || new_engine(options))
        .await
        .map_err(|e| ApiError::internal(format!("cannot start a search: {e}")))?
        .map_err(|e| ApiError::internal(format!("cannot start a search: {e}")))?;
    engine.set_tablebase(state.tb.clone());
    Ok(Started {
        engine,
        slot: (permit, memory),
        stop,
    })
}
