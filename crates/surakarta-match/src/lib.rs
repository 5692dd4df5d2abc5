//! Matches between Surakarta engines.
//!
//! A match plays every opening twice, colours swapped, between two players
//! and reports each finished game to a [`Reporter`]; it never prints.
//! Players are the in-process engine ([`EnginePlayer`]) or any program that
//! speaks the engine protocol of `docs/protocol.md` ([`ExternalEngine`]).
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
//! let config = MatchConfig { rules: Rules::ICGA, max_plies: 300, concurrency: 1, sprt: None, time_control: None };
//! let result = run_match(&deep, &shallow, &starts, &config, &Silent, &AtomicBool::new(false)).unwrap();
//! assert_eq!(result.tally.games(), 4);
//! ```
//!
//! ## Modules
//!
//! The design and the formulas are in `docs/match.md` of the repository.
//!
//! | module | what it holds |
//! |---|---|
//! | [`analysis`] | game analysis: each position valued (the tables' exact value, else a search), each move's loss of win chance and its mark `?!`, `?`, `??` ([`analysis::analyse_game`]), the totals per side, the record annotated ([`analysis::annotate`]) |
//! | [`openings`] | the positions games start from, each generator reproducible from its seed: random plies from the start ([`openings::from_start`]), FuChou's random boards with a piece count and a bound on the difference ([`openings::random_boards`]), files of positions ([`openings::parse_file`], text given by the caller), and balanced ones: those an engine scores near zero ([`openings::balanced`], [`openings::judge_balance`]) |
//! | [`player`] | the [`Player`] trait (name, new game, choose a move) and [`EnginePlayer`], the in-process [`surakarta_search::Engine`] with fixed limits and optional tablebases |
//! | [`external`] | [`ExternalEngine`]: another process driven through the engine protocol, with a reader thread feeding a bounded channel, every wait a deadline and its output capped per wait and per game ([`OutputLimits`](external::OutputLimits)); told to quit, then killed, when dropped |
//! | [`lines`] | [`lines::LineReader`]: lines from a pipe with a limit ([`lines::MAX_LINE_BYTES`], 64 KiB), a longer line counted and dropped as it is read; an engine's output here, standard input in the command line's `engine`, `play` and `tb probe` |
//! | [`game`] | [`play_game`]: one game under the rules with a ply cap, every move checked again before it is played; [`GameEnd`] (the rules, the ply cap, or a forfeit) |
//! | [`runner`] | [`run_match`]: worker threads take the jobs (each opening with either colour first) from a shared counter, each worker with its own pair of players (made again after a forfeit); a [`Reporter`] receives each finished game; the SPRT's decision, a failing worker or the stop flag ends it; [`resume_match`] counts the [`PlayedGame`]s of an earlier run first and plays the rest |
//! | [`record_file`] | a match's record file as text: a finished game's record with the match's tags ([`record_file::game_record`]: `Event`, `Round`, `Opening`, players, `TimeControl`) and the games of such a text read back and checked against the match ([`record_file::read_played`]), a record cut off at the end dropped and anything else but whole records refused |
//! | [`datagen`] | training data by self-play ([`datagen::run`]): varied openings, a fixed node budget per move, filters (single move, decisive score, capture as best move), labels from the game's result or the tables' value, chunk files of [`surakarta_search::network::data`] records written atomically, a manifest of the settings, resumable and deterministic for a seed |
//! | [`endgames`] | endgame judgement: test positions drawn from the tables ([`endgames::sample`]: won or drawn, some move loses the value, training positions excluded) and the share of an engine's moves that keep the exact value ([`endgames::judge`]) |
//! | [`tune`] | SPSA tuning of the search's parameters by self-play ([`tune::run`]): game pairs between the engine moved up and down at random signs, the estimate moved towards the winner, fishtest's schedules; the whole state in one text file written after each iteration, resumable and checked against the settings |
//! | [`stats`] | [`Tally`], [`Pentanomial`] (game pairs), [`Elo`] with its 95% interval, [`Sprt`] |

#![forbid(unsafe_code)]

pub mod analysis;
pub mod datagen;
pub mod endgames;
pub mod external;
pub mod game;
pub mod lines;
pub mod openings;
pub mod player;
pub mod record_file;
pub mod runner;
pub mod stats;
pub mod tune;
mod workers;

pub use external::ExternalEngine;
pub use game::{play_game, play_game_on_clock, FinishedGame, GameEnd};
pub use player::{Clocks, EnginePlayer, Player, PlayerError, TimeControl};
pub use runner::{
    resume_match, run_match, GameReport, MatchConfig, MatchError, MatchResult, PlayedGame,
    Reporter, Silent, SprtStop,
};
pub use stats::{Elo, Pentanomial, Sprt, SprtDecision, Tally};
