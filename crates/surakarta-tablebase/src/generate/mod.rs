//! Building tables: the retrograde solver of one pair of classes, its
//! checkpoints, runs over a directory (every class up to a piece count, or
//! one pair per process), conversion between the formats, and plans that
//! estimate what each pair costs on many machines.

pub(crate) mod checkpoint;
pub(crate) mod convert;
pub mod plan;
pub(crate) mod runs;
pub(crate) mod set_moves;
pub(crate) mod solver;
pub(crate) mod store;
