//! The advisory lock of a directory of tables: one run at a time
//! generates, compresses or verifies with checkpoints there.
//!
//! The lock is `flock(LOCK_EX | LOCK_NB)` on `DIR/.surakarta.lock`, opened
//! as a file of our own (never through a link, never a FIFO). The holder
//! writes its process id into the file, which a refused run reads for its
//! message. The system releases the lock when the holder's file is closed:
//! when the [`DirLock`] is dropped, or the process ends in any way (even
//! killed), so a lock is never left behind; the file itself stays.

use crate::atomic_file::open_own_file;
use crate::error::TablebaseError;
use crate::table::file_error;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The name of the lock file in a directory of tables.
pub const LOCK_FILE_NAME: &str = ".surakarta.lock";

/// A directory's lock, held while this value lives (see the module
/// documentation). Generation ([`crate::generate_dir_with`],
/// [`crate::generate_pair`]), compression ([`crate::compress_tables`]) and
/// [`crate::VerifyCheckpoints`] take it themselves.
#[derive(Debug)]
pub struct DirLock {
    /// The open lock file (closing it releases the lock).
    _file: File,
    path: PathBuf,
}

impl DirLock {
    /// Takes the lock of `dir` (which must exist), without waiting: held
    /// by another process (or another `DirLock` of this one), it is
    /// [`TablebaseError::DirectoryInUse`], naming the holder's process id
    /// where the lock file gives it.
    pub fn acquire(dir: &Path) -> Result<DirLock, TablebaseError> {
        let path = dir.join(LOCK_FILE_NAME);
        let mut file = open_own_file(&path)?;
        if !try_lock(&file).map_err(|e| file_error(&path, e.into()))? {
            return Err(TablebaseError::DirectoryInUse {
                dir: dir.to_path_buf(),
                pid: holder(&mut file),
            });
        }
        // The id first, then the length: a reader sees a whole first line.
        let id = format!("{}\n", std::process::id());
        let written = (|| {
            file.seek(SeekFrom::Start(0))?;
            file.write_all(id.as_bytes())?;
            file.set_len(id.len() as u64)
        })();
        written.map_err(|e| file_error(&path, e.into()))?;
        Ok(DirLock { _file: file, path })
    }

    /// The lock file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// The process id the lock file's first line gives, if any.
fn holder(file: &mut File) -> Option<u32> {
    let mut text = String::new();
    file.seek(SeekFrom::Start(0)).ok()?;
    file.take(32).read_to_string(&mut text).ok()?;
    text.lines().next()?.trim().parse().ok()
}

/// Takes an exclusive `flock` on `file` without waiting: `Ok(false)` when
/// another open file of it holds one.
#[cfg(unix)]
#[allow(unsafe_code)]
fn try_lock(file: &File) -> std::io::Result<bool> {
    use std::os::unix::io::AsRawFd;
    loop {
        // SAFETY: `flock` takes a descriptor number and flags and touches no
        // memory of ours; the descriptor is open, owned by `file`, for the
        // whole call.
        let result = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
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

/// Without `flock` the lock file is made and written, but nothing is
/// locked.
#[cfg(not(unix))]
fn try_lock(_: &File) -> std::io::Result<bool> {
    Ok(true)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_naming_the_holder_until_the_first_is_dropped() {
        let dir = std::env::temp_dir().join(format!("surakarta-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let first = DirLock::acquire(&dir).unwrap();
        assert_eq!(first.path(), dir.join(LOCK_FILE_NAME));
        let e = DirLock::acquire(&dir).unwrap_err();
        let pid = std::process::id();
        assert!(
            matches!(&e, TablebaseError::DirectoryInUse { dir: d, pid: Some(p) } if *d == dir && *p == pid),
            "{e}"
        );
        assert_eq!(
            e.to_string(),
            format!(
                "{} is in use by process {pid} (another run holds {}): wait for it to finish, or stop it",
                dir.display(),
                dir.join(LOCK_FILE_NAME).display()
            )
        );
        drop(first);
        let again = DirLock::acquire(&dir).unwrap();
        drop(again);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
