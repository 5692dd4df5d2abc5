//! `GET /api/analysis`: a search streamed as Server-Sent Events.
//!
//! The search runs on a blocking thread with its own [`Engine`]; each
//! finished iteration goes through a channel into the event stream, then
//! the `bestmove` event, then the stream ends. The stream holds a
//! [`StopOnDrop`]: when the client goes away, the server drops the stream
//! and the guard raises the search's stop flag. A semaphore bounds the
//! searches running at once (503 when full); the permit lives as long as
//! the search thread.

use crate::common::info::score_json;
use crate::common::memory::new_engine;
use crate::common::usage::MAX_DEPTH;
use crate::serve::error::ApiError;
use crate::serve::query::Params;
use crate::serve::State;
use axum::extract::{RawQuery, State as Shared};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use serde_json::json;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use surakarta::{Game, Rules};
use surakarta_search::{Info, Limits, SearchResult};
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

/// The principal variation as move texts.
fn pv_json(info: &Info) -> Vec<String> {
    info.pv.iter().map(|m| m.to_string()).collect()
}

/// A finished iteration as an `info` event.
fn info_event(info: &Info) -> Event {
    let data = json!({
        "depth": info.depth,
        "score": score_json(info.score),
        "nodes": info.nodes,
        "nps": info.nps,
        "time_ms": u64::try_from(info.elapsed.as_millis()).unwrap_or(u64::MAX),
        "pv": pv_json(info),
    });
    Event::default().event("info").data(data.to_string())
}

/// The search's answer as the `bestmove` event.
fn bestmove_event(result: &SearchResult) -> Event {
    let info = &result.info;
    let data = json!({
        "move": result.best_move.map(|m| m.to_string()),
        "score": score_json(info.score),
        "depth": info.depth,
        "nodes": info.nodes,
        "time_ms": u64::try_from(info.elapsed.as_millis()).unwrap_or(u64::MAX),
        "pv": pv_json(info),
    });
    Event::default().event("bestmove").data(data.to_string())
}

/// `GET /api/analysis?fen=F&movetime=MS[&depth=D]`.
pub(crate) async fn analysis(
    Shared(state): Shared<Arc<State>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let params = Params::parse(query.as_deref())?;
    let position = params.position()?;
    let max_movetime = state.config.max_movetime_ms;
    let movetime = params
        .number(
            "movetime",
            Some(DEFAULT_MOVETIME_MS.min(max_movetime)),
            max_movetime,
        )?
        .unwrap_or(DEFAULT_MOVETIME_MS);
    let depth = params
        .number("depth", None, MAX_DEPTH.into())?
        .map(|d| u32::try_from(d).unwrap_or(MAX_DEPTH));
    let limits = Limits {
        depth,
        nodes: None,
        movetime: Some(Duration::from_millis(movetime)),
        clock: None,
    };
    let game = Game::new(position, Rules::default());

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
        let _permit = permit;
        let result = engine.search(&game, &limits, &flag, &mut |info| {
            // A closed channel: the client is gone and the flag is up.
            let _ = tx.send(info_event(info));
        });
        let _ = tx.send(bestmove_event(&result));
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
