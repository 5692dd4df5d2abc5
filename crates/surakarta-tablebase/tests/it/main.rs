//! Integration tests of the tablebase crate, one module per concern, in one
//! test binary (the dependency tree linked once).

mod compact;
mod files;
mod game;
mod hashes;
mod mapped;
mod naive;
mod pair;
mod shared;
