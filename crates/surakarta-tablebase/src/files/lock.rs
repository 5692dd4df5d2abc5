//! The advisory locks of a directory of tables, so that two runs never
//! write the same files.
//!
//! Two kinds of lock files, each opened as a file of our own (never
//! through a link, never a FIFO) and locked with `flock(LOCK_NB)`:
//!
//! - `DIR/.surakarta.lock`, the directory's: held exclusively by runs that
//!   write any table of the directory (generating every class,
//!   compressing), shared by runs that write the files of one pair
//!   (generating one pair, verifying with checkpoints), so that pair jobs
//!   of a workflow run side by side;
//! - `DIR/.surakarta-AvB.lock`, a pair's: held exclusively, besides the
//!   shared directory lock, by a run that generates the pair or verifies
//!   one of its classes with checkpoints; removed by its holder when done.
//!
//! An exclusive holder writes its process id into the lock file. A refused
//! run names the holders: on Linux every process `/proc/locks` lists on the
//! file, elsewhere the id the file holds. The system releases a lock when
//! the holder's file is closed: when the [`DirLock`] is dropped, or when
//! the process ends in any way (even killed), so a lock is never left
//! behind.

use crate::error::file_error;
use crate::error::TablebaseError;
use crate::files::atomic::open_own_file;
use crate::format::FileProblem;
use crate::pair::Pair;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The name of the directory's lock file.
pub const LOCK_FILE_NAME: &str = ".surakarta.lock";

/// The name of a pair's lock file: `.surakarta-4v3.lock`.
pub(crate) fn pair_lock_name(pair: Pair) -> String {
    format!(".surakarta-{pair}.lock")
}

/// Locks of a directory of tables, held while this value lives (see the
/// module documentation). Generation ([`crate::generate_dir_with`],
/// [`crate::generate_pair`]), compression ([`crate::compress_tables`]) and
/// verification with [`crate::VerifyCheckpoints`] take them themselves.
#[derive(Debug)]
pub struct DirLock {
    /// The pair's lock, released (and its file removed) first.
    _pair: Option<Held>,
    /// The directory's lock.
    _dir: Held,
}

/// One lock file, locked.
#[derive(Debug)]
struct Held {
    /// The open lock file (closing it releases the lock).
    _file: File,
    path: PathBuf,
    /// Remove the file when released (a pair's).
    remove: bool,
}

impl Drop for Held {
    fn drop(&mut self) {
        if self.remove {
            // While still locked: a run that opened the old file notices the
            // name now leads elsewhere (see `lock`) and tries again.
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// How a lock is held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Shared,
    Exclusive,
}

impl DirLock {
    /// Takes the lock of the whole directory `dir` (which must exist),
    /// without waiting: for a run that writes any of its tables. Held by
    /// another run (or another `DirLock` of this process), it is
    /// [`TablebaseError::DirectoryInUse`], naming the holders.
    pub fn acquire(dir: &Path) -> Result<DirLock, TablebaseError> {
        Ok(DirLock {
            _pair: None,
            _dir: lock(dir, LOCK_FILE_NAME, Mode::Exclusive, None)?,
        })
    }

    /// Takes the lock of one pair's files in `dir` (which must exist),
    /// without waiting: the directory's lock shared, the pair's exclusive.
    /// A run holding the whole directory is
    /// [`TablebaseError::DirectoryInUse`]; one holding the pair is the same,
    /// naming the pair.
    pub fn acquire_pair(dir: &Path, pair: Pair) -> Result<DirLock, TablebaseError> {
        let shared = DirLock::acquire_shared(dir)?;
        let held = lock(dir, &pair_lock_name(pair), Mode::Exclusive, Some(pair))?;
        Ok(DirLock {
            _pair: Some(held),
            ..shared
        })
    }

    /// The directory's lock, shared, for a run that only reads its tables
    /// and must not see them half written (verification): refused while a
    /// run holds the whole directory, so `tb verify` during `tb generate
    /// --pieces` says the directory is in use instead of reporting the pair
    /// being written as a failure. `None` when the lock file cannot be made
    /// because the directory is not writable (a read-only mount, another
    /// user's tables): whoever cannot write there reads without a lock.
    ///
    /// ```
    /// use surakarta_tablebase::DirLock;
    ///
    /// let dir = std::env::temp_dir().join(format!("dir-lock-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let reading = DirLock::acquire_for_reading(&dir)?;
    /// assert!(reading.is_some());
    /// assert!(DirLock::acquire(&dir).is_err(), "a writer waits for the reader");
    /// drop(reading);
    /// assert!(DirLock::acquire(&dir).is_ok());
    /// std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn acquire_for_reading(dir: &Path) -> Result<Option<DirLock>, TablebaseError> {
        match DirLock::acquire_shared(dir) {
            Err(TablebaseError::File {
                problem: FileProblem::Io(e),
                ..
            }) if matches!(
                e.kind(),
                std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem
            ) =>
            {
                Ok(None)
            }
            other => other.map(Some),
        }
    }

    /// The directory's lock, shared: what every pair's lock holds.
    pub(crate) fn acquire_shared(dir: &Path) -> Result<DirLock, TablebaseError> {
        Ok(DirLock {
            _pair: None,
            _dir: lock(dir, LOCK_FILE_NAME, Mode::Shared, None)?,
        })
    }
}

/// Locks `dir/name` in `mode`, writing our process id into it when
/// exclusive; `pair` names the pair for the error.
fn lock(dir: &Path, name: &str, mode: Mode, pair: Option<Pair>) -> Result<Held, TablebaseError> {
    let path = dir.join(name);
    let fail = |e: std::io::Error| file_error(&path, e.into());
    let mut file = loop {
        let file = open_own_file(&path)?;
        if !try_lock(&file, mode).map_err(fail)? {
            return Err(TablebaseError::DirectoryInUse {
                dir: dir.to_path_buf(),
                pair,
                lock_file: path.clone(),
                pids: holders(&file, mode),
            });
        }
        // A pair's file is removed by its holder when done: locked, it must
        // still be the file the name leads to, else the lock is of a
        // removed file and we try again.
        if same_file(&file, &path) {
            break file;
        }
    };
    if mode == Mode::Exclusive {
        // The id first, then the length: a reader sees a whole first line.
        let id = format!("{}\n", std::process::id());
        let written = (|| {
            file.seek(SeekFrom::Start(0))?;
            file.write_all(id.as_bytes())?;
            file.set_len(id.len() as u64)
        })();
        written.map_err(fail)?;
    }
    Ok(Held {
        _file: file,
        path,
        remove: pair.is_some(),
    })
}

/// Whether `path` names the open `file`.
fn same_file(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::symlink_metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

/// The processes holding a lock on `file` that refused one in `mode`: on
/// Linux those `/proc/locks` lists for it, else (or if it lists none) the
/// id the file's first line gives, which only an exclusive holder wrote
/// (none when the file can be locked shared: the holders share it).
fn holders(file: &File, mode: Mode) -> Vec<u32> {
    let mut pids = listed_holders(file);
    // Locked shared here, the lock is released when the caller closes
    // `file`.
    let shared = || mode == Mode::Exclusive && try_lock(file, Mode::Shared).unwrap_or(false);
    if pids.is_empty() && !shared() {
        let mut text = String::new();
        let mut reader = file;
        let read = reader
            .seek(SeekFrom::Start(0))
            .and_then(|_| reader.take(32).read_to_string(&mut text));
        if let Some(pid) = read
            .ok()
            .and_then(|_| text.lines().next())
            .and_then(|l| l.trim().parse().ok())
        {
            pids.push(pid);
        }
    }
    pids
}

/// The processes `/proc/locks` lists with a `flock` on `file`'s inode (a
/// line reads `1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF`: pid,
/// device as hexadecimal major:minor, inode).
#[cfg(target_os = "linux")]
fn listed_holders(file: &File) -> Vec<u32> {
    use std::os::unix::fs::MetadataExt;
    let (Ok(metadata), Ok(locks)) = (file.metadata(), std::fs::read_to_string("/proc/locks"))
    else {
        return Vec::new();
    };
    // The kernel's encoding of a device number (glibc's major and minor).
    let dev = metadata.dev();
    let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & !0xfff);
    let minor = (dev & 0xff) | ((dev >> 12) & !0xff);
    let inode = format!("{major:02x}:{minor:02x}:{}", metadata.ino());
    let mut pids: Vec<u32> = locks
        .lines()
        .filter(|line| !line.contains("->"))
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            (fields.get(1) == Some(&"FLOCK") && fields.get(5) == Some(&inode.as_str()))
                .then(|| fields.get(4)?.parse().ok())
                .flatten()
        })
        .collect();
    pids.sort_unstable();
    pids.dedup();
    pids
}

#[cfg(not(target_os = "linux"))]
fn listed_holders(_: &File) -> Vec<u32> {
    Vec::new()
}

/// Takes a `flock` on `file` in `mode` without waiting: `Ok(false)` when
/// another open file of it holds a lock that excludes it.
#[cfg(unix)]
#[allow(unsafe_code)]
fn try_lock(file: &File, mode: Mode) -> std::io::Result<bool> {
    use std::os::unix::io::AsRawFd;
    let operation = match mode {
        Mode::Shared => libc::LOCK_SH,
        Mode::Exclusive => libc::LOCK_EX,
    };
    loop {
        // SAFETY: `flock` takes a descriptor number and flags and touches no
        // memory of ours; the descriptor is open, owned by `file`, for the
        // whole call.
        let result = unsafe { libc::flock(file.as_raw_fd(), operation | libc::LOCK_NB) };
        if result == 0 {
            return Ok(true);
        }
        let e = std::io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EWOULDBLOCK) => return Ok(false),
            Some(libc::EINTR) => continue,
            _ => return Err(e),
        }
    }
}

/// Without `flock` the lock files are made and written, but nothing is
/// locked.
#[cfg(not(unix))]
fn try_lock(_: &File, _: Mode) -> std::io::Result<bool> {
    Ok(true)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use surakarta_index::Material;

    fn pair(s: &str) -> Pair {
        Pair::of(s.parse::<Material>().unwrap())
    }

    #[test]
    fn locks_exclude_each_other_as_documented_and_name_the_holder() {
        let dir = std::env::temp_dir().join(format!("surakarta-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let pid = std::process::id();
        let whole = DirLock::acquire(&dir).unwrap();
        let e = DirLock::acquire(&dir).unwrap_err();
        assert!(
            matches!(&e, TablebaseError::DirectoryInUse { dir: d, pair: None, pids, .. } if *d == dir && *pids == [pid]),
            "{e}"
        );
        assert_eq!(
            e.to_string(),
            format!(
                "{} is in use by process {pid} (it holds {}): wait for it to finish, or stop it",
                dir.display(),
                dir.join(LOCK_FILE_NAME).display()
            )
        );
        assert!(DirLock::acquire_pair(&dir, pair("2v1")).is_err());
        drop(whole);

        // Pairs side by side, each once; the whole directory waits for them.
        let two = DirLock::acquire_pair(&dir, pair("2v1")).unwrap();
        let three = DirLock::acquire_pair(&dir, pair("3v1")).unwrap();
        let e = DirLock::acquire_pair(&dir, pair("1v2")).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "pair 2v1 in {} is in use by process {pid} (it holds {}): wait for it to finish, or stop it",
                dir.display(),
                dir.join(".surakarta-2v1.lock").display()
            )
        );
        assert!(DirLock::acquire(&dir).is_err());
        drop(two);
        assert!(
            !dir.join(".surakarta-2v1.lock").exists(),
            "removed when done"
        );
        assert!(DirLock::acquire(&dir).is_err());
        drop(three);
        drop(DirLock::acquire(&dir).unwrap());
        drop(DirLock::acquire_pair(&dir, pair("2v1")).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
