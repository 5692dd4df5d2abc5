#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod bitboard;
pub mod capture_path;
mod circuit;
mod color;
mod excerpt;
#[cfg(feature = "arbitrary")]
mod fuzzing;
mod game;
mod movegen;
mod moves;
pub mod notation;
mod perft;
mod position;
pub mod random;
pub mod record;
pub mod reference;
mod rules;
mod setup;
mod splitmix;
mod square;
#[cfg(feature = "proptest")]
pub mod strategy;
pub mod svg;
mod symmetry;
pub mod zobrist;

pub use bitboard::{Bitboard, Squares, Subsets};
pub use circuit::{Circuit, PATH_LEN};
pub use color::{Color, ParseColorError};
pub use excerpt::Excerpt;
pub use game::{Game, GameError};
#[doc(hidden)]
pub use movegen::count_safe_steps_reference;
pub use movegen::{
    capture_moves, capture_targets, count_safe_steps, count_steps, has_capture, step_targets,
};
pub use moves::{IntoIter, Move, MoveList, MAX_MOVES};
pub use notation::{MoveText, ParseMoveError, ParseSetupError};
pub use perft::{divide, perft};
pub use position::{
    MoveError, ParsePositionError, Position, PositionError, Undo, MAX_PIECES_PER_SIDE,
};
pub use record::{GameRecord, GameResult, ParseGameResultError, RecordError, RecordErrorKind};
pub use rules::{Outcome, ParseRulesError, Rules, RulesError, Termination};
pub use setup::Setup;
pub use square::{File, ParseCoordinateError, ParseSquareError, Rank, Square};
pub use symmetry::Symmetry;

/// The workspace README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct WorkspaceReadmeDoctests;
