//! What more than one subcommand uses: the error type, the argument checks,
//! finding training data files, the thread pool, opening tablebase
//! directories, the shared engine arguments, the evaluation a user names,
//! the memory limit, percentages, building a game from the command line or
//! a record file, the engine's info line, writing output files. Subcommands import from here (and
//! from `render`, `progress` and the library crates, `surakarta_board` for
//! the JSON answers and the SVG picture), never from each other; nothing
//! here imports a subcommand.

pub(crate) mod checks;
pub(crate) mod data;
pub(crate) mod engine_args;
pub(crate) mod error;
pub(crate) mod evaluation;
pub(crate) mod game;
pub(crate) mod info;
pub(crate) mod memory;
pub(crate) mod output;
pub(crate) mod percent;
pub(crate) mod tables;
pub(crate) mod threads;
