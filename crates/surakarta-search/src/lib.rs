//! A Surakarta engine: evaluation, iterative-deepening aspiration PVS with
//! parallel siblings, a lock-free transposition table, time control and
//! tablebase probing.
//!
//! The library never prints: a search reports each iteration through a
//! callback and returns a [`SearchResult`].
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use surakarta::{Game, Position, Rules};
//! use surakarta_search::{Engine, Limits, Options};
//!
//! let mut engine = Engine::new(Options::default()).unwrap();
//! let game = Game::new(Position::new(), Rules::ICGA);
//! let stop = AtomicBool::new(false);
//! let mut depths = Vec::new();
//! let result = engine.search(&game, &Limits::depth(4), &stop, &mut |info| depths.push(info.depth));
//! assert_eq!(depths, [1, 2, 3, 4]);
//! assert!(game.position().is_legal(result.best_move.unwrap()));
//! ```
//!
//! ## Modules
//!
//! Laid out like Stockfish's source tree (table, move picking, evaluation,
//! time, threads, parameters); the design is in `docs/search.md` of the
//! repository. Modules without a link are private; what they make public
//! is re-exported at the root.
//!
//! | module | what it holds |
//! |---|---|
//! | [`score`] | [`Score`]: evaluations below ±20,000, the tablebase and game-end bands, node-relative storage ([`Score::to_table`], [`Score::from_table`]), display; [`MAX_PLY`] |
//! | [`eval`] | the evaluation's features ([`eval::Features`], [`eval::PointClass`]) and [`Weights`] (`PAPER`, `DEFAULT`): the weights define the evaluation, so they stay here rather than in `parameters` |
//! | [`network`] | the learned evaluation: [`network::Network`] (quantized weights, the `.sknn` file format in [`network::file`]), [`network::Accumulator`] (updated on each move), the training positions ([`network::data`]); its row loops also compiled for AVX2 and chosen at run time (`network::wide`, the crate's only `unsafe`) |
//! | [`tt`] | [`tt::TranspositionTable`]: lock-free entries (key xor data) in 64-byte clusters of four, replacement by depth and age |
//! | `ordering` | move picking (Stockfish's movepick): `MoveOrder` (table move, captures, killers, then quiet moves by history, picked one at a time), [`History`] (shared relaxed atomics), `Killers` |
//! | [`level`] | strength levels: the table ([`level_parameters`]) and the choice among near-best lines ([`choose_line`]) |
//! | [`limits`] | [`Limits`] (depth, nodes, move time, [`Clock`]) and the time budget (soft and hard limits) |
//! | `parameters` | every tuning constant: ordering bonuses, history bounds, table replacement, split depth, limit polling, time management as crate-private constants; the aspiration window and late move reductions as [`SearchParameters`] (run-time values for a tuner, [`PARAMETER_SPECS`] their names and ranges); imports nothing of the crate |
//! | `options` | what a user sets per engine: [`Options`] (threads, hash, [`Evaluation`], techniques, parallel scheme, MultiPV; [`Options::check`]) and [`Techniques`] (switches); public and chosen at run time, unlike `parameters` |
//! | `error` | [`SearchError`] (bad options, table allocation, thread pool); its own module so that `tt`, `options` and `smp` need not import `engine` |
//! | `search` | one thread's tree walk: `Worker::negamax` (PVS, late move reductions, table cut-offs), `enter` (at every node: stop, no pieces left, the rules' ends, ply cap, tablebases), `quiesce` and `captures_only`, `younger_brother`; `Shared` (what the threads of a search share), [`Info`], [`Line`], [`SearchResult`] |
//! | `smp` | both parallel schemes: [`Smp`] names them; `Threads` holds the rayon pool (both schemes; its threads live as long as the engine); `smp::siblings` (`Split`: Young Brothers Wait, FuChou's parallel siblings, driven through closures so that `smp` imports neither `search` nor `engine`); `smp::lazy` (Lazy SMP helper threads and the guard that stops them) |
//! | `engine` | [`Engine`] (what persists between searches: options, table, history, tablebases, threads) and the driver [`Engine::search`], in named steps (the tables' answer at the root, helper threads, iterative deepening with aspiration windows, the final answer) |
//! | [`bench`](mod@bench) | the 15 benchmark positions and [`bench::run`] (the node-count signature) |
//!
//! Module imports form no circle: `parameters`, `error` and `score` import
//! nothing of the crate, `smp` only `error`, and `engine` and `bench` sit on
//! top.
//!
//! Games and matches between engines are in the `surakarta-match` crate.

#![deny(unsafe_code)]

pub mod bench;
mod engine;
mod error;
pub mod eval;
pub mod level;
pub mod limits;
pub mod network;
mod options;
mod ordering;
mod parameters;
pub mod score;
mod search;
mod smp;
pub mod tt;

pub use engine::Engine;
pub use error::SearchError;
pub use eval::{evaluate, evaluate_with_captures, Weights};
pub use level::{choose_line, level_parameters, LevelParameters};
pub use limits::{Clock, Limits};
pub use options::{check_level, MAX_LEVEL};
pub use options::{
    Evaluation, EvaluationChoiceError, Options, Techniques, TimeManagement, ENGINE_BASE_BYTES,
    MAX_HASH_MB, MAX_MULTIPV, MAX_THREADS, THREAD_STATE_BYTES,
};
pub use ordering::History;
pub use parameters::{
    parameter_index, ParameterError, ParameterSpec, SearchParameters, PARAMETER_COUNT,
    PARAMETER_SPECS,
};
pub use score::{Score, ScoreKind, MAX_PLY};
pub use search::{Info, Line, SearchResult};
pub use smp::{Smp, THREAD_STACK_BYTES};
