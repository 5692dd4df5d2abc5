//! `GET /api/game-analysis`: every move of a game judged, as `surakarta
//! analyse` judges it (`surakarta_match::analysis`), streamed as
//! Server-Sent Events: a `progress` event per position valued, then `done`
//! with the analysis and the annotated record (`surakarta_board::review_json`),
//! or `error`. It takes one of the server's analysis slots and its memory
//! while it runs; a client that goes away stops it.

use crate::serve::analysis::{event, event_stream, start_engine, Started};
use crate::serve::error::ApiError;
use crate::serve::query::Params;
use crate::serve::state::State;
use axum::extract::{RawQuery, State as Shared};
use axum::response::Response;
use serde_json::json;
use std::sync::Arc;
use surakarta::GameRecord;
use surakarta_match::analysis::analyse_game;
use tokio::sync::mpsc;

/// `GET /api/game-analysis?rules=R&start=F&moves=M,…[&movetime=MS | &nodes=N]`:
/// each position of the game searched for `movetime` (default 500 ms, at
/// most the server's `--max-movetime`) or `nodes`, or valued by the tables.
pub(crate) async fn game_analysis(
    Shared(state): Shared<Arc<State>>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let params = Params::parse(query.as_deref())?;
    let game = params.game()?;
    let max = state.config.max_movetime_ms;
    let nodes = params.number("nodes", None, u64::MAX)?;
    let movetime = params.number("movetime", None, max)?;
    let limits = surakarta_board::review_limits(movetime, nodes, max);
    let record = GameRecord::from_game(&game);
    let Started {
        mut engine,
        slot,
        stop,
    } = start_engine(&state, state.config.engine_options()).await?;
    let tables = state.tb.clone();
    let (tx, rx) = mpsc::unbounded_channel();
    let flag = stop.clone();
    tokio::task::spawn_blocking(move || {
        let _slot = slot;
        let analysis = analyse_game(
            &record,
            &mut engine,
            &limits,
            tables.as_deref(),
            &flag,
            &mut |done, total| {
                let _ = tx.send(event("progress", &json!({ "done": done, "total": total })));
            },
        );
        let last = match analysis {
            Ok(analysis) => event("done", &surakarta_board::review_json(&game, &analysis)),
            Err(e) => event("error", &json!({ "error": e.to_string() })),
        };
        let _ = tx.send(last);
    });
    Ok(event_stream(rx, stop))
}
