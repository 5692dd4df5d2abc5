//! End-to-end tests of the `surakarta` binary: each module runs the built
//! binary as a user would and checks what it prints, writes and exits with;
//! `common` holds the helpers they share. One test binary, so the
//! dependency tree is linked once.

mod analyse;
mod checkpoint;
mod cli;
mod common;
mod datagen;
mod docs;
mod evaluation;
mod matches;
mod plan;
mod play;
mod ranges;
mod serve;
mod show;
mod tb_dir;
mod train;
mod tune;
