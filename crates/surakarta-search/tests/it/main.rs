//! Integration tests of the search crate, one module per concern, in one test
//! binary (the dependency tree linked once). The test that counts the
//! process's threads (`tests/threads.rs`) stays a binary of its own: other
//! tests' threads would be counted with it.

mod levels;
mod multipv;
mod network_bounds;
mod search;
