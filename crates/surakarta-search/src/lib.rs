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
//! Module map, in the manner of Stockfish's source tree (details in
//! `ARCHITECTURE.md` and `docs/search.md`):
//!
//! - [`score`]: score bands (evaluation, tablebase, game end) and their
//!   display;
//! - [`eval`]: the evaluation's features and [`Weights`];
//! - [`tt`]: the lock-free transposition table;
//! - `ordering`: move ordering (table move, captures, killers, history);
//! - [`limits`]: [`Limits`] and the time budget;
//! - `parameters`: the tuning constants (aspiration, reductions, ordering
//!   bonuses, table replacement, splits, time);
//! - `options`: what a user sets, [`Options`] and [`Techniques`];
//! - `error`: [`SearchError`];
//! - `search`: the tree walk of one thread (PVS, quiescence, probes);
//! - `smp`: both parallel schemes, [`Smp`] (parallel siblings, Lazy SMP);
//! - `engine`: the [`Engine`] and [`Engine::search`], the driver, in named
//!   steps (root tablebase move, helper threads, iterative deepening with
//!   aspiration windows, the final answer);
//! - [`bench`](mod@bench): the fixed benchmark.
//!
//! Games and matches between engines are in the `surakarta-match` crate.

#![forbid(unsafe_code)]

pub mod bench;
mod engine;
mod error;
pub mod eval;
pub mod limits;
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
pub use limits::{Clock, Limits};
pub use options::{Options, Techniques};
pub use ordering::History;
pub use score::{Score, ScoreKind, MAX_PLY};
pub use search::{Info, SearchResult};
pub use smp::Smp;
