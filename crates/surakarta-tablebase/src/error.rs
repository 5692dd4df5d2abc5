//! Errors of generation and probing.

use crate::format::FileProblem;
use crate::pair::Pair;
use std::fs::FileType;
use std::path::{Path, PathBuf};
use surakarta::Excerpt;
use surakarta_index::{IndexError, Material};

fn looked_in(dir: &Option<PathBuf>, material: &Material) -> String {
    match dir {
        Some(dir) => format!(
            " ({} not found)",
            shown(&dir.join(crate::format::file_name(*material)))
        ),
        None => String::new(),
    }
}

/// A path as messages show it: unquoted, cut when long (a directory named
/// through the engine protocol can be any length).
fn shown(path: &Path) -> String {
    format!("{:#}", Excerpt::new(&path.to_string_lossy()))
}

/// The message of [`TablebaseError::DirectoryInUse`].
fn in_use(dir: &Path, pair: Option<Pair>, lock_file: &Path, pids: &[u32]) -> String {
    let what = match pair {
        Some(pair) => format!("pair {pair} in {}", shown(dir)),
        None => shown(dir),
    };
    let list = |pids: &[u32]| {
        let ids: Vec<String> = pids.iter().map(u32::to_string).collect();
        ids.join(", ")
    };
    let who = match pids {
        [] => "another process (it holds".to_string(),
        [pid] => format!("process {pid} (it holds"),
        _ => format!("processes {} (they hold", list(pids)),
    };
    format!(
        "{what} is in use by {who} {}): wait for it to finish, or stop it",
        shown(lock_file)
    )
}

/// What went wrong in the tablebase.
///
/// Messages are one line and complete: a variant that wraps another error
/// (the system's [`std::io::Error`] for a file or directory, a
/// [`FileProblem`], a dependency's error) shows its message too, and
/// returns it as the [`source`](std::error::Error::source), so that a caller
/// can look at it, e.g. for [`std::io::ErrorKind::NotFound`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TablebaseError {
    /// A position's class has no table.
    #[error("no table for material {material}{}", looked_in(dir, material))]
    MissingTable {
        /// The class.
        material: Material,
        /// The directory the tables came from, if any.
        dir: Option<PathBuf>,
    },
    /// A table file is unreadable, damaged or not a table.
    #[error("{}: {problem}", shown(path))]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong with it (the source).
        #[source]
        problem: FileProblem,
    },
    /// A directory could not be read or created.
    #[error("{}: {source}", shown(path))]
    Directory {
        /// The directory.
        path: PathBuf,
        /// The system's error (the source).
        source: std::io::Error,
    },
    /// A position the tables cannot hold.
    #[error("position not in a table: {0}")]
    Index(#[from] IndexError),
    /// A side has no pieces where a class needs at least one.
    #[error("position has no pieces for the side that just moved")]
    NoPieces,
    /// A table's value count differs from its index size.
    #[error("table {material} has {found} values, its index has {expected} slots")]
    SizeMismatch {
        /// The class.
        material: Material,
        /// Slots of the index.
        expected: u64,
        /// Values given.
        found: u64,
    },
    /// A table that generating a pair needs is not in the directory.
    #[error("missing table {material} needed by pair {pair}: {}", shown(path))]
    MissingDependency {
        /// The class whose table is missing.
        material: Material,
        /// The pair being generated.
        pair: Pair,
        /// Where its file should be.
        path: PathBuf,
    },
    /// A table that generating a pair needs did not load, or is damaged.
    #[error("table {material} needed by pair {pair} is unusable: {error}")]
    UnusableDependency {
        /// The class whose table is unusable.
        material: Material,
        /// The pair being generated.
        pair: Pair,
        /// What is wrong with it (naming the file; the source).
        #[source]
        error: Box<TablebaseError>,
    },
    /// A pair would need more memory than allowed, to be generated (see
    /// [`crate::GenerateOptions::memory_limit`]) or verified (see
    /// [`Tablebase::verify_memory_bytes`](crate::probe::tablebase::Tablebase::verify_memory_bytes)):
    /// refused before it starts.
    #[error(
        "{}pair {pair} needs about {} of memory at its peak ({}), more than the limit of {}",
        work.verb(),
        crate::units::human_bytes(*needed),
        work.held(),
        crate::units::human_bytes(*limit)
    )]
    NotEnoughMemory {
        /// The pair.
        pair: Pair,
        /// What it was refused for.
        work: PairWork,
        /// Its modelled peak, in bytes.
        needed: u64,
        /// The limit, in bytes.
        limit: u64,
    },
    /// A table format version this crate cannot write.
    #[error("format {0} is not a table format: give 1 (a byte per slot) or 2 (compact)")]
    Format(u16),
    /// Something other than a regular file of its own is where the
    /// tablebase writes one (a temporary file, a directory's lock file): a
    /// symbolic link is not followed, a FIFO or device not opened, nothing
    /// removed.
    #[error(
        "{} is a {kind}: tables, checkpoints and the lock are written only \
         into files of their own, never through a link or into a special \
         file; remove it",
        shown(path)
    )]
    InTheWay {
        /// What is there.
        path: PathBuf,
        /// What it is.
        kind: FileKind,
    },
    /// Another run holds a lock of the directory ([`crate::files::lock::DirLock`]):
    /// the whole directory's, or (`pair`) one pair's.
    #[error("{}", in_use(dir, *pair, lock_file, pids))]
    DirectoryInUse {
        /// The directory.
        dir: PathBuf,
        /// The pair whose lock is held, if it is one pair's.
        pair: Option<Pair>,
        /// The lock file held.
        lock_file: PathBuf,
        /// The holders' process ids, where the system or the lock file
        /// gives them.
        pids: Vec<u32>,
    },
    /// A distance to conversion beyond what a table byte holds.
    #[error("distance to conversion in {material} exceeds {max} plies")]
    DtcOverflow {
        /// The class.
        material: Material,
        /// The largest storable distance.
        max: u32,
    },
    /// Memory the system would not give.
    #[error("cannot allocate {bytes} bytes for {what}")]
    Allocation {
        /// What the memory was for.
        what: &'static str,
        /// The bytes asked for.
        bytes: u64,
    },
}

/// A copy of a system error: the same code for an OS error, else the same
/// kind and message (an `io::Error` cannot be cloned).
fn copy_io(e: &std::io::Error) -> std::io::Error {
    match e.raw_os_error() {
        Some(code) => std::io::Error::from_raw_os_error(code),
        None => std::io::Error::new(e.kind(), e.to_string()),
    }
}

impl FileProblem {
    /// A copy of this problem; see [`TablebaseError::duplicate`].
    pub(crate) fn duplicate(&self) -> FileProblem {
        match self {
            FileProblem::Io(e) => FileProblem::Io(copy_io(e)),
            FileProblem::Truncated { expected, found } => FileProblem::Truncated {
                expected: *expected,
                found: *found,
            },
            FileProblem::TooLong { expected, found } => FileProblem::TooLong {
                expected: *expected,
                found: *found,
            },
            FileProblem::Magic => FileProblem::Magic,
            FileProblem::Version(v) => FileProblem::Version(*v),
            FileProblem::HeaderChecksum => FileProblem::HeaderChecksum,
            FileProblem::Field { field, value } => FileProblem::Field {
                field,
                value: *value,
            },
            FileProblem::WrongMaterial { expected, found } => FileProblem::WrongMaterial {
                expected: *expected,
                found: *found,
            },
            FileProblem::SlotCount {
                material,
                scheme,
                expected,
                found,
            } => FileProblem::SlotCount {
                material: *material,
                scheme: *scheme,
                expected: *expected,
                found: *found,
            },
            FileProblem::Counts {
                positions,
                wins,
                draws,
                losses,
            } => FileProblem::Counts {
                positions: *positions,
                wins: *wins,
                draws: *draws,
                losses: *losses,
            },
            FileProblem::Corrupt(what) => FileProblem::Corrupt(what),
            FileProblem::PayloadChecksum { expected, found } => FileProblem::PayloadChecksum {
                expected: *expected,
                found: *found,
            },
            FileProblem::NotAFile => FileProblem::NotAFile,
        }
    }
}

/// What a pair needs its memory for ([`TablebaseError::NotEnoughMemory`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PairWork {
    /// Generating it ([`crate::generate_pair`]).
    Generate,
    /// Generating it with its state mapped from work files
    /// ([`crate::Storage::Mapped`]): what must stay resident even so.
    GenerateMapped,
    /// Verifying it ([`Tablebase::expand_pair`](crate::probe::tablebase::Tablebase::expand_pair)).
    Verify,
}

impl PairWork {
    /// How the error message begins.
    fn verb(self) -> &'static str {
        match self {
            PairWork::Generate | PairWork::GenerateMapped => "",
            PairWork::Verify => "verifying ",
        }
    }

    /// What the memory holds at the peak.
    fn held(self) -> &'static str {
        match self {
            PairWork::Generate => "values, candidate bitmaps and the tables its captures reach",
            PairWork::GenerateMapped => {
                "even with its values and bitmaps mapped from work files: the process, \
                 the index directories, and for format 2 the expanded tables its captures \
                 reach and compaction"
            }
            PairWork::Verify => {
                "its compact tables and the compact tables its captures reach, \
                 expanded to a byte per position"
            }
        }
    }
}

impl TablebaseError {
    /// A copy of this error, for reporting a stored error again (the error
    /// types are not `Clone`: they hold the system's `io::Error`). The copy
    /// has the same variant, fields and message; a system error in it is
    /// rebuilt with the same OS code, or else the same kind and message.
    pub(crate) fn duplicate(&self) -> TablebaseError {
        match self {
            TablebaseError::MissingTable { material, dir } => TablebaseError::MissingTable {
                material: *material,
                dir: dir.clone(),
            },
            TablebaseError::File { path, problem } => TablebaseError::File {
                path: path.clone(),
                problem: problem.duplicate(),
            },
            TablebaseError::Directory { path, source } => TablebaseError::Directory {
                path: path.clone(),
                source: copy_io(source),
            },
            TablebaseError::Index(e) => TablebaseError::Index(e.clone()),
            TablebaseError::Allocation { what, bytes } => TablebaseError::Allocation {
                what,
                bytes: *bytes,
            },
            TablebaseError::NoPieces => TablebaseError::NoPieces,
            TablebaseError::SizeMismatch {
                material,
                expected,
                found,
            } => TablebaseError::SizeMismatch {
                material: *material,
                expected: *expected,
                found: *found,
            },
            TablebaseError::MissingDependency {
                material,
                pair,
                path,
            } => TablebaseError::MissingDependency {
                material: *material,
                pair: *pair,
                path: path.clone(),
            },
            TablebaseError::UnusableDependency {
                material,
                pair,
                error,
            } => TablebaseError::UnusableDependency {
                material: *material,
                pair: *pair,
                error: Box::new(error.duplicate()),
            },
            TablebaseError::NotEnoughMemory {
                pair,
                work,
                needed,
                limit,
            } => TablebaseError::NotEnoughMemory {
                pair: *pair,
                work: *work,
                needed: *needed,
                limit: *limit,
            },
            TablebaseError::InTheWay { path, kind } => TablebaseError::InTheWay {
                path: path.clone(),
                kind: *kind,
            },
            TablebaseError::DirectoryInUse {
                dir,
                pair,
                lock_file,
                pids,
            } => TablebaseError::DirectoryInUse {
                dir: dir.clone(),
                pair: *pair,
                lock_file: lock_file.clone(),
                pids: pids.clone(),
            },
            TablebaseError::Format(format) => TablebaseError::Format(*format),
            TablebaseError::DtcOverflow { material, max } => TablebaseError::DtcOverflow {
                material: *material,
                max: *max,
            },
        }
    }

    /// The file this error is about, if it is about one.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        match self {
            TablebaseError::File { path, .. }
            | TablebaseError::Directory { path, .. }
            | TablebaseError::MissingDependency { path, .. }
            | TablebaseError::InTheWay { path, .. } => Some(path),
            TablebaseError::DirectoryInUse { dir, .. } => Some(dir),
            TablebaseError::UnusableDependency { error, .. } => error.path(),
            _ => None,
        }
    }
}

/// What a file system entry is, where the tablebase expected a regular file
/// of its own or nothing ([`TablebaseError::InTheWay`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileKind {
    /// A symbolic link (never followed).
    SymbolicLink,
    /// A directory.
    Directory,
    /// A named pipe (opening one could wait for ever).
    Fifo,
    /// A Unix domain socket.
    Socket,
    /// A block device.
    BlockDevice,
    /// A character device.
    CharacterDevice,
    /// A regular file that has other names too (writing it would change
    /// what they name).
    HardLink,
    /// Another kind of special file.
    Other,
}

impl FileKind {
    /// The kind of an entry of type `file_type` (one that is not a regular
    /// file).
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_tablebase::FileKind;
    ///
    /// let metadata = std::fs::symlink_metadata(std::env::temp_dir())?;
    /// assert_eq!(FileKind::of(metadata.file_type()).to_string(), "directory");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    #[must_use]
    pub fn of(file_type: FileType) -> FileKind {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if file_type.is_fifo() {
                return FileKind::Fifo;
            }
            if file_type.is_socket() {
                return FileKind::Socket;
            }
            if file_type.is_block_device() {
                return FileKind::BlockDevice;
            }
            if file_type.is_char_device() {
                return FileKind::CharacterDevice;
            }
        }
        if file_type.is_symlink() {
            FileKind::SymbolicLink
        } else if file_type.is_dir() {
            FileKind::Directory
        } else {
            FileKind::Other
        }
    }
}

impl std::fmt::Display for FileKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FileKind::SymbolicLink => "symbolic link",
            FileKind::Directory => "directory",
            FileKind::Fifo => "FIFO",
            FileKind::Socket => "socket",
            FileKind::BlockDevice => "block device",
            FileKind::CharacterDevice => "character device",
            FileKind::HardLink => "hard link to a file with other names",
            FileKind::Other => "special file",
        })
    }
}

/// A file error naming the file.
pub(crate) fn file_error(path: &Path, problem: FileProblem) -> TablebaseError {
    TablebaseError::File {
        path: path.to_path_buf(),
        problem,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error;
    use std::io::ErrorKind;

    #[test]
    fn a_duplicate_keeps_the_message_and_the_system_error_kind() {
        let errors = [
            std::io::Error::from_raw_os_error(2),
            std::io::Error::new(ErrorKind::UnexpectedEof, "short read"),
        ];
        for io in errors {
            let (kind, message) = (io.kind(), io.to_string());
            let e = TablebaseError::File {
                path: PathBuf::from("tables/2v1.sktb"),
                problem: FileProblem::Io(io),
            };
            let copy = e.duplicate();
            assert_eq!(copy.to_string(), e.to_string());
            assert_eq!(copy.to_string(), format!("tables/2v1.sktb: {message}"));
            let source = copy.source().and_then(Error::source);
            let io = source.and_then(|s| s.downcast_ref::<std::io::Error>());
            assert_eq!(io.map(std::io::Error::kind), Some(kind));
        }
    }
}
