//! Writing files of our own into a directory of tables: every table,
//! checkpoint and verification checkpoint goes to a temporary file beside
//! its final name, is synced and renamed into place, so the final name is
//! always complete or absent.
//!
//! The temporary file is created new (`O_CREAT | O_EXCL`, and on Unix
//! `O_NOFOLLOW | O_CLOEXEC`): whatever is already at its name is never
//! opened, so a symbolic link there is not followed (nothing outside the
//! directory is written) and a FIFO there cannot block the run. A regular
//! file there, left by a run that was killed, is removed (unlinking a name
//! touches no other name of the file) and the temporary created again;
//! anything else there is [`TablebaseError::InTheWay`], naming it.

use crate::error::file_error;
use crate::error::{FileKind, TablebaseError};
use crate::format::FileProblem;
use std::fs::{File, Metadata, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Opening never waits for a FIFO's writer (Unix).
#[cfg(unix)]
const NONBLOCK: i32 = libc::O_NONBLOCK;
#[cfg(not(unix))]
const NONBLOCK: i32 = 0;

/// Bytes buffered per write.
const BUFFER: usize = 1 << 20;

/// Options that never follow a symbolic link at the last component of the
/// path and keep the descriptor out of child processes; on Unix, `flags`
/// (`O_NONBLOCK`) are added.
fn no_follow(options: &mut OpenOptions, #[allow(unused)] flags: i32) -> &mut OpenOptions {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC | flags);
    }
    options
}

/// [`TablebaseError::InTheWay`] for `path` of type `metadata`.
fn in_the_way(path: &Path, metadata: &Metadata) -> TablebaseError {
    TablebaseError::InTheWay {
        path: path.to_path_buf(),
        kind: FileKind::of(metadata.file_type()),
    }
}

/// Opens (creating it if missing) a file of our own that lives on, such as
/// a directory's lock file, for reading and writing: never through a
/// symbolic link, never blocking on a FIFO (`O_NONBLOCK` on Unix), and only
/// a regular file with no other name (checked on the opened handle);
/// anything else there is [`TablebaseError::InTheWay`].
pub(crate) fn open_own_file(path: &Path) -> Result<File, TablebaseError> {
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    let file = match no_follow(&mut options, NONBLOCK).open(path) {
        Ok(file) => file,
        Err(e) => {
            // A link (ELOOP), a directory (EISDIR), a socket (ENXIO): say what.
            return Err(match std::fs::symlink_metadata(path) {
                Ok(metadata) if !metadata.is_file() => in_the_way(path, &metadata),
                _ => file_error(path, e.into()),
            });
        }
    };
    let metadata = file.metadata().map_err(|e| file_error(path, e.into()))?;
    if !metadata.is_file() {
        return Err(in_the_way(path, &metadata));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if metadata.nlink() > 1 {
            return Err(TablebaseError::InTheWay {
                path: path.to_path_buf(),
                kind: FileKind::HardLink,
            });
        }
    }
    Ok(file)
}

/// Creates `path` new for reading and writing (see the module
/// documentation): a regular file left there by an earlier run is removed
/// and the file created again; anything else there is
/// [`TablebaseError::InTheWay`].
pub(crate) fn create_fresh(path: &Path) -> Result<File, TablebaseError> {
    let create = || {
        no_follow(
            OpenOptions::new().read(true).write(true).create_new(true),
            0,
        )
        .open(path)
    };
    match create() {
        Ok(file) => Ok(file),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let metadata =
                std::fs::symlink_metadata(path).map_err(|e| file_error(path, e.into()))?;
            if !metadata.is_file() {
                return Err(in_the_way(path, &metadata));
            }
            // Left by an earlier run: unlinking it removes that name
            // only, whatever other names the file has.
            std::fs::remove_file(path).map_err(|e| file_error(path, e.into()))?;
            create().map_err(|e| file_error(path, e.into()))
        }
        Err(e) => Err(file_error(path, e.into())),
    }
}

/// A temporary file made for a final name (`NAME.tmp` beside `NAME`):
/// created new, written, then [`persist`](TempFile::persist)ed by renaming
/// it over the final name. Dropped before that, it is removed.
#[derive(Debug)]
pub(crate) struct TempFile {
    file: File,
    path: PathBuf,
    destination: PathBuf,
    persisted: bool,
}

impl TempFile {
    /// Creates `destination` with `.tmp` appended, for reading and writing
    /// (see the module documentation): a regular file left there is
    /// replaced; anything else is [`TablebaseError::InTheWay`].
    pub(crate) fn create(destination: &Path) -> Result<TempFile, TablebaseError> {
        let mut name = destination.as_os_str().to_owned();
        name.push(".tmp");
        let path = PathBuf::from(name);
        let file = create_fresh(&path)?;
        Ok(TempFile {
            file,
            path,
            destination: destination.to_path_buf(),
            persisted: false,
        })
    }

    /// The open file (for reading it back).
    pub(crate) fn file(&mut self) -> &mut File {
        &mut self.file
    }

    /// Writes the file through `fill` (buffered), then syncs it; an error
    /// names the temporary file. Returns what `fill` returns.
    pub(crate) fn fill<T>(
        &mut self,
        fill: impl FnOnce(&mut BufWriter<&mut File>) -> std::io::Result<T>,
    ) -> Result<T, TablebaseError> {
        let result = (|| {
            let mut out = BufWriter::with_capacity(BUFFER, &mut self.file);
            let value = fill(&mut out)?;
            out.flush()?;
            drop(out);
            self.file.sync_all()?;
            Ok(value)
        })();
        result.map_err(|e: std::io::Error| file_error(&self.path, FileProblem::Io(e)))
    }

    /// Renames the file over its final name (a symbolic link there is
    /// replaced, not followed) and syncs the directory.
    pub(crate) fn persist(self) -> Result<(), TablebaseError> {
        self.persist_open().map(drop)
    }

    /// [`persist`](TempFile::persist), keeping the file open: it goes on
    /// under its final name, written at its end.
    fn persist_open(mut self) -> Result<File, TablebaseError> {
        std::fs::rename(&self.path, &self.destination)
            .map_err(|e| file_error(&self.destination, e.into()))?;
        self.persisted = true;
        sync_dir(&self.destination);
        self.file
            .try_clone()
            .map_err(|e| file_error(&self.destination, e.into()))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.persisted {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Writes a file through `fill` so that `path` is always complete or
/// absent: a temporary file beside it filled, synced and renamed into place, the
/// directory synced (the temporary file is removed on failure). Returns
/// what `fill` returns.
///
/// Tables, checkpoints, training data and network files are all written
/// this way.
///
/// # Examples
///
/// ```
/// use std::io::Write;
/// use surakarta_tablebase::write_atomically;
///
/// let path = std::env::temp_dir().join(format!("atomic-doc-{}.txt", std::process::id()));
/// write_atomically(&path, |out| out.write_all(b"whole or absent"))?;
/// assert_eq!(std::fs::read(&path)?, b"whole or absent");
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_atomically<T>(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<&mut File>) -> std::io::Result<T>,
) -> Result<T, TablebaseError> {
    let mut tmp = TempFile::create(path)?;
    let value = tmp.fill(fill)?;
    tmp.persist()?;
    Ok(value)
}

/// [`write_atomically`] for a file that grows after it is made (a match's
/// record file): the file is filled through `fill`, renamed into place and
/// returned open, to be written on at its end. Whatever was at `path` is
/// replaced whole (a symbolic link there is replaced, not followed).
///
/// # Examples
///
/// ```
/// use std::io::Write;
/// use surakarta_tablebase::create_atomically;
///
/// let path = std::env::temp_dir().join(format!("create-doc-{}.txt", std::process::id()));
/// let mut file = create_atomically(&path, |out| out.write_all(b"first\n"))?;
/// file.write_all(b"second\n")?;
/// assert_eq!(std::fs::read(&path)?, b"first\nsecond\n");
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn create_atomically(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<&mut File>) -> std::io::Result<()>,
) -> Result<File, TablebaseError> {
    let mut tmp = TempFile::create(path)?;
    tmp.fill(fill)?;
    tmp.persist_open()
}

/// Syncs the directory holding `path`, so a rename or removal in it is
/// durable (best effort: not every platform can open a directory).
pub(crate) fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent() {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("surakarta-atomic-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_stale_regular_file_is_replaced_and_the_result_is_a_regular_file() {
        let dir = scratch("stale");
        let path = dir.join("a.ckpt");
        std::fs::write(dir.join("a.ckpt.tmp"), b"left by a killed run").unwrap();
        let n = write_atomically(&path, |out| out.write_all(b"new").map(|()| 3)).unwrap();
        assert_eq!(n, 3);
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert!(std::fs::symlink_metadata(&path).unwrap().is_file());
        assert!(!dir.join("a.ckpt.tmp").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_hard_link_left_as_temporary_file_is_unlinked_not_written() {
        let dir = scratch("hard-link");
        let outside = dir.join("outside");
        std::fs::write(&outside, b"keep").unwrap();
        std::fs::hard_link(&outside, dir.join("a.ckpt.tmp")).unwrap();
        write_atomically(&dir.join("a.ckpt"), |out| out.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read(&outside).unwrap(), b"keep");
        assert_eq!(std::fs::read(dir.join("a.ckpt")).unwrap(), b"new");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_or_directory_at_the_temporary_name_is_named_and_left_alone() {
        let dir = scratch("in-the-way");
        let outside = dir.join("outside");
        std::fs::write(&outside, b"keep").unwrap();
        let tmp = dir.join("a.ckpt.tmp");
        std::os::unix::fs::symlink(&outside, &tmp).unwrap();
        let e = write_atomically(&dir.join("a.ckpt"), |out| out.write_all(b"new")).unwrap_err();
        assert!(
            matches!(&e, TablebaseError::InTheWay { path, kind: FileKind::SymbolicLink } if *path == tmp),
            "{e}"
        );
        assert!(
            e.to_string().contains("a.ckpt.tmp is a symbolic link"),
            "{e}"
        );
        assert_eq!(std::fs::read(&outside).unwrap(), b"keep");
        assert!(std::fs::symlink_metadata(&tmp)
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(!dir.join("a.ckpt").exists());
        std::fs::remove_file(&tmp).unwrap();
        std::fs::create_dir(&tmp).unwrap();
        let e = write_atomically(&dir.join("a.ckpt"), |out| out.write_all(b"new")).unwrap_err();
        assert!(
            matches!(
                e,
                TablebaseError::InTheWay {
                    kind: FileKind::Directory,
                    ..
                }
            ),
            "{e}"
        );
        assert!(tmp.is_dir());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn an_own_file_is_never_a_link_or_a_second_name() {
        let dir = scratch("own");
        let outside = dir.join("outside");
        std::fs::write(&outside, b"keep").unwrap();
        let path = dir.join("own");
        std::os::unix::fs::symlink(&outside, &path).unwrap();
        let e = open_own_file(&path).unwrap_err();
        assert!(
            matches!(
                e,
                TablebaseError::InTheWay {
                    kind: FileKind::SymbolicLink,
                    ..
                }
            ),
            "{e}"
        );
        // (A FIFO is tried end to end by the CLI's tests: a process spawned
        // here would hold a copy of the lock tests' descriptors until it
        // runs.)
        std::fs::remove_file(&path).unwrap();
        std::fs::hard_link(&outside, &path).unwrap();
        let e = open_own_file(&path).unwrap_err();
        assert!(
            matches!(
                e,
                TablebaseError::InTheWay {
                    kind: FileKind::HardLink,
                    ..
                }
            ),
            "{e}"
        );
        std::fs::remove_file(&path).unwrap();
        assert!(open_own_file(&path).unwrap().metadata().unwrap().is_file());
        assert_eq!(std::fs::read(&outside).unwrap(), b"keep");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
