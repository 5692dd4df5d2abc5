//! Retrograde distance-to-conversion (DTC) endgame tablebases for Surakarta.
//!
//! Semantics (pure rules, values for the side to move) are in
//! `docs/tablebase.md`, the file format in `docs/tablebase-format.md`.
//!
//! - [`Tablebase::generate`] solves every class up to a piece count in
//!   memory; [`generate_dir`] does the same into a directory of files,
//!   skipping the tables already there; [`generate_pair`] solves one
//!   [`Pair`] into a directory that holds the tables it needs (one process
//!   per pair, for clusters), and [`plan`] estimates what each pair costs
//!   and writes the workflow files that run them in order.
//! - [`Tablebase::open_dir`] (reads) or [`Tablebase::map_dir`] (memory maps)
//!   a directory; [`Tablebase::probe`], [`Tablebase::best_move`] and
//!   [`Tablebase::line`] answer for positions.
//! - [`Tablebase::verify`] re-derives every entry of a table from its
//!   successors.
//!
//! The library never prints; long work reports through a [`Progress`].

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod atomic_file;
mod cache;
mod checkpoint;
mod compact;
mod context;
mod convert;
mod dir;
mod dir_lock;
mod error;
pub mod file;
mod generate;
mod huffman;
mod moves;
mod open;
mod pair;
pub mod plan;
mod progress;
mod repair;
mod table;
mod tablebase;
mod timing;
mod value;
mod verify;
mod verify_checkpoint;

pub use atomic_file::FileKind;
pub use context::ContextModel;
pub use convert::{
    compress_dir, compress_tables, ClassSummary, CompactOptions, CompressOutcome, CompressStep,
    SAMPLE_SLOTS, STREAMING_ABOVE,
};
pub use dir::generate_pair;
pub use dir::{generate_dir, generate_dir_with, pairs, table_files, ClassOutcome, GenerateOptions};
pub use dir_lock::{DirLock, LOCK_FILE_NAME};
pub use error::{PairWork, TablebaseError};
pub use file::{BlockOffsets, ClassStats, CompactShape, FileProblem, Header, OFFSET_GROUP};
pub use pair::Pair;
pub use progress::{NoProgress, Pass, Progress, Stage};
pub use table::{Directories, Histogram, StepRanker, Table, TableIndexer};
pub use tablebase::Tablebase;
pub use timing::{time_probes, ProbeTiming};
pub use value::{Value, Wdl, MAX_DTC};
pub use verify::{ExpandedPair, Mismatch, VerifyReport};
pub use verify_checkpoint::VerifyCheckpoints;

/// Bytes of the compact body `values` would get with every slot exact (a
/// measuring aid for format studies, not part of the API).
#[doc(hidden)]
#[must_use]
pub fn study_compact_len(values: &[u8], freedom: &[u8]) -> u64 {
    compact::encode(values, freedom, compact::Stored::Values)
        .1
        .len() as u64
}
