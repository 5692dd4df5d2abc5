//! The analysis board of Surakarta as data.
//!
//! The board page (`surakarta serve`, or the static site where the same
//! page runs on WebAssembly) reads a few JSON objects; this crate makes
//! them, so both back ends answer alike:
//!
//! | function | the page's request | the object |
//! |---|---|---|
//! | [`position_answer`], [`game_answer`] (of [`replay_game`]) | `/api/position` | pieces, outcome, value, every legal move with its value, best first |
//! | [`probe`] and [`probe_json`] | `/api/probe` | value, best move, conversion line (also `tb probe --json`) |
//! | [`highlighted_picture`] (over [`svg_picture`]) | `/api/svg` | the board drawn, a move highlighted (`svg_picture` also draws `show --svg`) |
//! | [`info_json`], [`bestmove_json`], [`finished_json`] | `/api/analysis` events | the engine's iterations and its answer |
//! | [`records_json`], [`record_text`] | `/api/record` | a record's games as trees of moves, and a game back as record text |
//! | [`analysis_json`], [`review_json`] | `/api/game-analysis` | every move of a game judged (`surakarta_match::analysis`), with the annotated record |
//!
//! The fields are described in the project's `docs/serve.md`.
//!
//! ```
//! use surakarta::Position;
//!
//! let answer = surakarta_board::position_answer(&Position::new(), None);
//! assert_eq!(answer["fen"], Position::new().to_string());
//! assert!(answer["moves"].as_array().is_some_and(|m| !m.is_empty()));
//! ```

mod analysis;
mod game;
mod json;
mod picture;
mod position;
mod probe;
mod record;
mod review;

pub use analysis::{bestmove_json, finished_json, info_json};
pub use game::{game_from_json, replay_game, GameRequestError, MAX_GAME_MOVES};
pub use json::{outcome_json, score_json, value_json};
pub use picture::{capture_path, highlighted_picture, svg_picture};
pub use position::{game_answer, not_covered, position_answer};
pub use probe::{probe, probe_json, ProbeAnswer};
pub use record::{
    json_nesting, record_text, record_text_of_json, records_json, RecordJsonError,
    JSON_NESTING_LIMIT, MAX_PAGE_GAMES,
};
pub use review::{analysis_json, review_json, review_limits, DEFAULT_POSITION_MS};
