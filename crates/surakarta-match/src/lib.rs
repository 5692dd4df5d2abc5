//! Matches between Surakarta engines.
//!
//! A match plays every opening twice, colours swapped, between two players
//! and reports each finished game to a [`Reporter`]; it never prints.
//! Players are the in-process engine ([`EnginePlayer`]) or any program that
//! speaks the engine protocol of `docs/protocol.md` ([`ExternalEngine`]).
//!
//! Module map: [`openings`] (start positions: random plies, random boards
//! with a piece count, files), [`player`] (the [`Player`] trait and the
//! in-process engine), [`external`] (engines in other processes), [`game`]
//! (one game and how it ended), [`lines`] (lines from a pipe with a length
//! limit, for the protocol), [`runner`] (parallel games, SPRT stop),
//! [`stats`] (tally, Elo with its interval, SPRT).
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use surakarta::Rules;
//! use surakarta_match::{openings, EnginePlayer, MatchConfig, Player, PlayerError, run_match, Silent};
//! use surakarta_search::{Limits, Options};
//!
//! let make = |depth| move || -> Result<Box<dyn Player>, PlayerError> {
//!     Ok(Box::new(EnginePlayer::new(format!("depth {depth}"), Options::default(), None, Limits::depth(depth))?))
//! };
//! let (deep, shallow) = (make(3), make(1));
//! let starts = openings::from_start(2, 6, 1);
//! let config = MatchConfig { rules: Rules::ICGA, max_plies: 300, concurrency: 1, sprt: None };
//! let result = run_match(&deep, &shallow, &starts, &config, &Silent, &AtomicBool::new(false)).unwrap();
//! assert_eq!(result.tally.games(), 4);
//! ```

#![forbid(unsafe_code)]

pub mod external;
pub mod game;
pub mod lines;
pub mod openings;
pub mod player;
pub mod runner;
pub mod stats;

pub use external::ExternalEngine;
pub use game::{play_game, FinishedGame, GameEnd};
pub use player::{EnginePlayer, Player, PlayerError};
pub use runner::{run_match, GameReport, MatchConfig, MatchError, MatchResult, Reporter, Silent};
pub use stats::{Elo, Pentanomial, Sprt, SprtDecision, Tally};
