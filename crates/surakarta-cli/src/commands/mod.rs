//! One module per subcommand. Each defines its clap arguments and a `run`
//! that checks them, calls the libraries and prints. Subcommands import only
//! from `common`, `render`, `progress` and the library crates, never from
//! each other; what two of them need lives in `common`.

pub(crate) mod analyse;
pub(crate) mod bench;
pub(crate) mod data;
pub(crate) mod datagen;
pub(crate) mod endgames;
pub(crate) mod engine;
pub(crate) mod matches;
pub(crate) mod perft;
pub(crate) mod play;
pub(crate) mod search;
pub(crate) mod serve;
pub(crate) mod show;
pub(crate) mod tb;
pub(crate) mod train;
pub(crate) mod tune;
