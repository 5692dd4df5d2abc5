//! Integration tests of the match crate, one module per concern, in one test
//! binary (the dependency tree linked once).

mod analysis;
mod datagen;
mod external;
mod matches;
