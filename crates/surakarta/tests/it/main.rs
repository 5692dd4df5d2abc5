//! Integration tests of the rules crate, one module per concern, in one test
//! binary (the dependency tree linked once).

mod perft;
// The property tests use the crate's strategies, behind its `proptest`
// feature (`cargo test --all-features`).
#[cfg(feature = "proptest")]
mod properties;
mod record;
