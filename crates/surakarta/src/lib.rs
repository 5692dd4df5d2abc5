#![doc = include_str!("../README.md")]
//!
//! ## Modules
//!
//! The crate root only declares the modules and re-exports their items.
//! Modules without a link are private (their public items are re-exported
//! at the root) or exist only with a cargo feature.
//!
//! | module | what it holds |
//! |---|---|
//! | `square` | [`Square`] (a1 = 0 … f6 = 35, index 6·rank + file, constants `Square::A1` … `Square::F6`), [`File`], [`Rank`]; text both ways |
//! | `bitboard` | [`Bitboard`]: the 36 points as bits of a `u64` behind a private field (never a bit above 35); iteration ([`Squares`]), subsets ([`Subsets`]), neighbours |
//! | `color` | [`Color`] |
//! | `excerpt` | [`Excerpt`]: input quoted in an error message, at most [`Excerpt::MAX_CHARS`] (80) characters between the quotes, escapes counted, with its length (`"bbbb…" (1048576 bytes)`); every error that names its input holds one |
//! | `circuit` | [`Circuit`]: the two circuits as paths of [`PATH_LEN`] (24) positions; per-rank tables that gather a board into both circuits' 24-bit cyclic occupancy words |
//! | `symmetry` | [`Symmetry`]: the 8 symmetries of the board, on points and on bitboards (six table lookups) |
//! | `moves` | [`Move`] (13 bits: origin, target, capture flag), [`MoveList`] (on the stack, capacity [`MAX_MOVES`] = 112) |
//! | `movegen` | the fast generator: steps from neighbour masks (or eight whole-board shifts when only counting), captures from the circuits' occupancy words; for other crates, the same on raw bitboards ([`capture_moves`], [`capture_targets`], [`defended`], [`has_capture`], [`count_steps`], [`count_safe_steps`]) and a point's neighbours ([`step_targets`]) |
//! | `setup` | [`Setup`]: an unchecked position with public fields |
//! | [`notation`] | position text ([`Setup`]'s `FromStr` and `Display`) and move text ([`MoveText`]), with an error per field |
//! | `position` | [`Position`]: validated, `Copy`, with an incremental Zobrist hash; legal moves, [`Position::play`] (checked), [`Position::after`], [`Position::play_unchecked`] and [`Position::undo`] |
//! | `splitmix` | SplitMix64: the `const` step function (for the Zobrist keys) and the seeded generator [`random::SplitMix`]; imports nothing of the crate |
//! | [`zobrist`] | the fixed hash keys: SplitMix64 from a constant seed, computed at compile time |
//! | [`random`] | [`random::random_position`] and [`random::random_playout`], driven by a seeded [`random::SplitMix`] (the same on every platform): openings, experiments, tests, benches |
//! | `rules` | [`Rules`] (the limits that end a game besides the loss of all pieces or moves; private fields, checked by [`Rules::new`], through which parsing goes too), [`Outcome`], [`Termination`] |
//! | `game` | [`Game`]: a start position, the moves played, repetitions and the outcome under a rule set |
//! | [`record`] | the types of game records: [`GameRecord`] (whole games as PGN-like text: tags, movetext, result), [`GameResult`], [`RecordError`] and [`RecordErrorKind`] with line numbers, the size limits |
//! | `record::parse` | text → lines → tags and movetext tokens (comments, variations, move numbers, moves, result): [`GameRecord::parse_all`], [`GameRecord::records`] and `FromStr` |
//! | `record::replay` | each move checked against the rules (illegal, after the end), repetitions counted in a hash map, moves taken back in constant time for variations, the result checked against the `Result` tag and the outcome; [`GameRecord::to_game`] |
//! | `record::write` | the canonical text ([`GameRecord::to_text`], [`GameRecord::format_all`] and `Display`), which reads back as an equal record; the writers refuse what the reader would refuse |
//! | `perft` | [`perft()`], [`divide`] |
//! | [`capture_path`] | the points and arcs a capture travels ([`capture_path::CapturePath`], [`capture_path::capture_paths`]), found by walking the public [`Circuit`] paths and tested against the move generator; for drawing only: the move generator decides legality |
//! | [`svg`] | the board as a self-contained SVG picture ([`svg::board`]), with a transparent hit target per point on top (`class="point" data-square="c3"`) for pages; string building only |
//! | [`reference`](mod@reference) | the plain array-based generator that the tests, fuzz targets and benches compare the fast one against |
//! | `strategy` (feature `proptest`) | proptest strategies and `Arbitrary` impls yielding valid values only, for property tests here and downstream |
//! | `fuzzing` (feature `arbitrary`) | `arbitrary::Arbitrary` impls (valid values only) for fuzzers |
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
    capture_moves, capture_sets, capture_targets, count_safe_steps, count_steps, defended,
    has_capture, step_targets, CaptureSets,
};
pub use moves::{IntoIter, Move, MoveList, MAX_MOVES};
pub use notation::{MoveText, ParseMoveError, ParseSetupError};
pub use perft::{divide, perft};
pub use position::{
    MoveError, ParsePositionError, Position, PositionError, Undo, MAX_PIECES_PER_SIDE,
};
pub use record::{
    GameRecord, GameResult, Mark, MoveAnnotation, ParseGameResultError, ParseMarkError,
    RecordError, RecordErrorKind, RecordWriteError, Records, Variation,
};
pub use rules::{Outcome, ParseRulesError, Rules, RulesError, Termination};
pub use setup::Setup;
pub use square::{File, ParseCoordinateError, ParseSquareError, Rank, Square};
pub use symmetry::Symmetry;

/// The workspace README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct WorkspaceReadmeDoctests;
