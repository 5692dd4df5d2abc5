//! Retrograde distance-to-conversion (DTC) endgame tablebases for Surakarta.
//!
//! Semantics (pure rules, values for the side to move) are in
//! `docs/tablebase.md`, the file format in `docs/tablebase-format.md`.
//!
//! - [`Tablebase::generate`] solves every class up to a piece count in
//!   memory; [`generate_dir`] does the same into a directory of files,
//!   skipping the tables already there; [`generate_pair`] solves one
//!   [`Pair`] into a directory that holds the tables it needs (one process
//!   per pair, for clusters), and [`plan`] lists the pairs in dependency
//!   order with the tables each writes and needs and what it costs (the
//!   data a workflow file that runs them is written from).
//! - [`Tablebase::open_dir`] (reads) or [`Tablebase::map_dir`] (memory maps)
//!   a directory; [`Tablebase::probe`], [`Tablebase::best_move`] and
//!   [`Tablebase::line`] answer for positions.
//! - [`Tablebase::verify`] re-derives every entry of a table from its
//!   successors; [`verify_dir`] verifies a directory pair by pair (within
//!   a memory limit, with checkpoints to resume from: [`verify_dir_with`]).
//!
//! The library never prints; long work reports through a [`Progress`].
//!
//! # Modules
//!
//! Folders by concern; each imports only the ones listed before it.
//!
//! | module | what it holds |
//! |---|---|
//! | `value`, `units` | [`Value`] and [`Wdl`] with their one-byte encoding; quantities as people read them ([`human_bytes`]) |
//! | [`format`](mod@format) | the file formats: the 128-byte [`Header`] (every field checked on parse), [`ClassStats`], [`CompactShape`], [`FileProblem`], CRC-32; `format::compact` is format 2's body with its writer (`encode`: don't-care filling, blocks, offsets, draw map) and reader (`decode`: the dictionary checked, one slot or a whole block decoded) apart, the constants they share (`layout`), canonical Huffman codes (`huffman`), the Re-Pair grammar (`re_pair`: frequent digrams become rules) and the [`ContextModel`]s |
//! | `pair`, `progress` | [`Pair`] (a class and its swap, the unit of generation and of cluster runs); the [`Progress`] trait long work reports through |
//! | `error` | [`TablebaseError`] (one complete line per failure, naming the file, class or pair) and [`FileKind`] |
//! | `files` | the file system under a directory of tables, handled as hostile: `open` (regular files only, never blocking; [`table_files`] lists a directory), `atomic` (our files written through temporary files created new and renamed into place), `lock` ([`DirLock`]: advisory locks of a directory and of one pair, an `unsafe` call) |
//! | `probe` | `table` ([`Table`]: one class, owned or mapped, its checksum checked on first use; [`TableIndexer`] for either scheme), `tablebase` ([`Tablebase`]: the tables of many classes, probing, a compact table's stored wins and capture draws resolved), `moves` (move values, best move, the line to the conversion), `cache` (a lock-free cache of decoded values), `timing` ([`time_probes`]) |
//! | `generate` | `solver` (the retrograde passes over one pair, segmented so they can checkpoint, each working through the partner class in windows where it does not fit the memory limit; between passes it reads the value bytes as plain bytes, an `unsafe` block), `store` (where the state lives: in memory or in mapped work files), `set_moves` (what the positions on one occupied set share, for the solver and the compact writer: capture targets and the ranks of the sets one move away), `checkpoint` (a pair's state saved and read back with every field checked), `runs` ([`Tablebase::generate`], [`generate_dir_with`], [`generate_pair`]), `convert` (exact values of any table, [`compress_dir`] to format 2), [`plan`] (what each pair costs: positions, memory, disk, time) |
//! | `verify` | [`Tablebase::verify`] (every entry re-derived from its successors), pair by pair with expansion of compact tables ([`ExpandedPair`]), `checkpoint` ([`VerifyCheckpoints`]), `report` ([`VerifyReport`], [`Mismatch`]) |

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
pub use files::atomic::{create_atomically, write_atomically};
pub use files::lock::{DirLock, LOCK_FILE_NAME};
pub use files::open::{is_not_a_regular_file, open_regular_file, read_regular_file, table_files};
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
pub use generate::store::{Storage, UnknownStorage};
pub use pair::Pair;
pub use probe::game::{Cutoff, GameValue};
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

/// Tables the unit tests of several modules read, generated once per test
/// binary.
#[cfg(test)]
pub(crate) mod test_tables {
    use crate::progress::NoProgress;
    use crate::Tablebase;
    use std::sync::OnceLock;
    use surakarta_index::Scheme;

    /// Every class up to 5 pieces, byte per slot, symmetric index.
    pub(crate) fn up_to_5() -> &'static Tablebase {
        static TABLES: OnceLock<Tablebase> = OnceLock::new();
        TABLES.get_or_init(|| {
            Tablebase::generate(5, Scheme::Symmetric, &NoProgress)
                .expect("the tables up to 5 pieces")
                .0
        })
    }
}
