//! Rules of the board game Surakarta.
//!
//! Bitboards, step and circuit-capture move generation, validated positions,
//! text notation, Zobrist hashing, termination rule sets, games and perft.
//! No I/O, no threads, no `unsafe`.
//!
//! ```
//! use surakarta::{perft, Position};
//!
//! let pos = Position::new();
//! assert_eq!(pos.legal_moves().len(), 16);
//! assert_eq!(perft(&pos, 3), 5382);
//!
//! let pos: Position = "ww3w/wb4/5w/6/6/b1w3 b".parse()?;
//! let capture = pos.parse_move("b5xb6")?; // round three arcs of the small circuit
//! assert!(capture.is_capture());
//! assert_eq!(pos.after(capture).to_string(), "wb3w/w5/5w/6/6/b1w3 w 0 1");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The rules in full are in `docs/rules.md`; the notation in `docs/notation.md`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod bitboard;
mod circuit;
mod color;
mod game;
mod movegen;
mod moves;
pub mod notation;
mod perft;
mod position;
pub mod reference;
mod rules;
mod setup;
mod square;
mod symmetry;
pub mod zobrist;

pub use bitboard::{Bitboard, Subsets};
pub use circuit::{Circuit, PATH_LEN};
pub use color::Color;
pub use game::{Game, GameError};
pub use movegen::step_targets;
pub use moves::{IntoIter, Move, MoveList, MAX_MOVES};
pub use notation::{MoveText, ParseMoveError, ParseSetupError};
pub use perft::{divide, perft};
pub use position::{MoveError, ParsePositionError, Position, PositionError, Undo, MAX_PIECES_PER_SIDE};
pub use rules::{Outcome, ParseRulesError, Rules, Termination};
pub use setup::Setup;
pub use square::{File, ParseSquareError, Rank, Square};
pub use symmetry::Symmetry;
