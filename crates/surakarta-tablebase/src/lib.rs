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
//!   successors; [`verify_dir`] verifies a directory pair by pair (within
//!   a memory limit, with checkpoints to resume from: [`verify_dir_with`]).
//!
//! The library never prints; long work reports through a [`Progress`].

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod files;
pub mod format;
mod generate;
mod pair;
mod probe;
mod progress;
mod units;
mod value;
mod verify;

pub use error::{FileKind, PairWork, TablebaseError};
pub use files::lock::{DirLock, LOCK_FILE_NAME};
pub use files::open::table_files;
pub use format::compact::ContextModel;
pub use format::{BlockOffsets, ClassStats, CompactShape, FileProblem, Header, OFFSET_GROUP};
pub use generate::convert::{
    compress_dir, compress_tables, ClassSummary, CompactOptions, CompressOutcome, CompressStep,
    SAMPLE_SLOTS, STREAMING_ABOVE,
};
pub use generate::plan;
pub use generate::runs::{
    generate_dir, generate_dir_with, generate_pair, ClassOutcome, GenerateOptions,
};
pub use pair::Pair;
pub use probe::table::{Directories, Histogram, StepRanker, Table, TableIndexer};
pub use probe::tablebase::Tablebase;
pub use probe::timing::{time_probes, ProbeTiming};
pub use progress::{NoProgress, Pass, Progress, Stage};
pub use units::{human_bytes, human_seconds, thousands};
pub use value::{Value, Wdl, MAX_DTC};
pub use verify::checkpoint::VerifyCheckpoints;
pub use verify::dir::{verify_dir, verify_dir_with, verify_tables, VerifyOptions, VerifyOutcome};
pub use verify::report::{Mismatch, VerifyReport};
pub use verify::ExpandedPair;

/// Bytes of the compact body `values` would get with every slot exact (a
/// measuring aid for format studies, not part of the API).
#[doc(hidden)]
#[must_use]
pub fn study_compact_len(values: &[u8], freedom: &[u8]) -> u64 {
    format::compact::encode(values, freedom, format::compact::Stored::Values)
        .1
        .len() as u64
}
