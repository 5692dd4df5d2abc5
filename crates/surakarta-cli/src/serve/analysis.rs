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
use surakarta::{Game, Position, Rules};
use surakarta_board::{bestmove_json, finished_json, info_json};
use surakarta_search::Limits;
use tokio::sync::mpsc;

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
fn event(name: &str, data: &serde_json::Value) -> Event {
    Event::default().event(name).data(data.to_string())
}

/// What an analysis request asks for, checked.
#[derive(Debug)]
pub(crate) struct AnalysisRequest {
    /// The position to search.
    pub(crate) position: Position,
    /// The search time in milliseconds (1 to the server's cap).
    pub(crate) movetime_ms: u64,
    /// The depth to stop at, if any (1 to `MAX_DEPTH`).
    pub(crate) depth: Option<u32>,
}

impl AnalysisRequest {
    /// Reads `fen`, `movetime` (at most `max_movetime`, default
    /// [`DEFAULT_MOVETIME_MS`] or the cap if lower) and `depth`.
    pub(crate) fn read(params: &Params, max_movetime: u64) -> Result<AnalysisRequest, ApiError> {
        let position = params.position()?;
        let default = DEFAULT_MOVETIME_MS.min(max_movetime);
        let movetime_ms = params
            .number("movetime", Some(default), max_movetime)?
            .unwrap_or(default);
        let depth = params
            .number("depth", None, MAX_DEPTH.into())?
            .map(|d| u32::try_from(d).unwrap_or(MAX_DEPTH));
        Ok(AnalysisRequest {
            position,
            movetime_ms,
            depth,
        })
    }
}

/// `GET /api/analysis?fen=F&movetime=MS[&depth=D]`.
pub(crate) async fn analysis(
    Shared(state): Shared<Arc<State>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let params = Params::parse(query.as_deref())?;
    let request = AnalysisRequest::read(&params, state.config.max_movetime_ms)?;
    let limits = Limits {
        depth: request.depth,
        nodes: None,
        movetime: Some(Duration::from_millis(request.movetime_ms)),
        clock: None,
    };
    let game = Game::new(request.position, Rules::default());
    if let Some(outcome) = game.outcome() {
        let event = event("bestmove", &finished_json(&outcome));
        let events = stream::once(async move { Ok::<Event, Infallible>(event) });
        return Ok(Sse::new(events).into_response());
    }

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
    let options = state.config.engine_options();
    let engine = tokio::task::spawn_blocking(move || new_engine(options))
        .await
        .map_err(|e| ApiError::internal(format!("cannot start a search: {e}")))?
        .map_err(|e| ApiError::internal(format!("cannot start a search: {e}")))?;
    let mut engine = engine;
    engine.set_tablebase(state.tb.clone());

    let (tx, rx) = mpsc::unbounded_channel::<Event>();
    let flag = stop.clone();
    tokio::task::spawn_blocking(move || {
        let _permits = (permit, memory);
        let result = engine.search(&game, &limits, &flag, &mut |info| {
            // A closed channel: the client is gone and the flag is up.
            let _ = tx.send(event("info", &info_json(info)));
        });
        let _ = tx.send(event("bestmove", &bestmove_json(&result)));
    });

    let guard = StopOnDrop(stop);
    let events = stream::unfold((rx, guard), |(mut rx, guard)| async move {
        let event = rx.recv().await?;
        Some((Ok::<Event, Infallible>(event), (rx, guard)))
    });
    Ok(Sse::new(events)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(5)))
        .into_response())
}
