//! Where the solver keeps its per-slot state (a value byte per slot, and
//! the candidate and capture-draw bitmaps): in memory, or in a work file
//! beside the tables (`AvB.sktb.work`) mapped shared and writable, so that
//! the kernel pages the state in and out and the process's resident memory
//! stays within a limit. The solver sees `&[AtomicU8]` and `&[AtomicU64]`
//! either way, so both give the same tables, byte for byte.
//!
//! A work file is scratch: it is created new (all zeros, its blocks
//! reserved where the system can) when a
//! pair starts or resumes, filled from the pair's checkpoint if there is
//! one, and removed when the pair's state is dropped. The checkpoint, not
//! the work file, is what a killed run continues from.

use crate::error::{file_error, TablebaseError};
use crate::files::atomic::create_fresh;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicU8};

/// Where [`crate::generate_dir_with`] keeps a pair's state while solving
/// it.
///
/// # Examples
///
/// ```
/// use surakarta_tablebase::{GenerateOptions, Storage};
///
/// // By default a pair is solved in memory, and in mapped work files only
/// // when its modelled memory exceeds the limit.
/// assert_eq!(GenerateOptions::default().storage, Storage::Auto);
/// assert_eq!("mapped".parse::<Storage>(), Ok(Storage::Mapped));
/// assert_eq!(Storage::Memory.to_string(), "memory");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Storage {
    /// In memory when the pair's modelled memory fits the limit (or there
    /// is none), else mapped (if what must stay resident fits).
    #[default]
    Auto,
    /// In memory: a byte per slot and two bitmaps, allocated.
    Memory,
    /// In work files mapped from the tables' directory
    /// (`AvB.sktb.work`), paged by the kernel.
    Mapped,
}

impl std::fmt::Display for Storage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Storage::Auto => "auto",
            Storage::Memory => "memory",
            Storage::Mapped => "mapped",
        })
    }
}

/// Not a [`Storage`] name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown storage {0:?}: give auto, memory or mapped")]
pub struct UnknownStorage(pub String);

impl std::str::FromStr for Storage {
    type Err = UnknownStorage;

    fn from_str(s: &str) -> Result<Storage, UnknownStorage> {
        match s {
            "auto" => Ok(Storage::Auto),
            "memory" => Ok(Storage::Memory),
            "mapped" => Ok(Storage::Mapped),
            _ => Err(UnknownStorage(s.to_string())),
        }
    }
}

/// The atomics a [`Store`] holds: all-zero bytes are a valid zero.
pub(crate) trait Zeroed: Sized + Send + Sync {
    fn zero() -> Self;
}

impl Zeroed for AtomicU8 {
    fn zero() -> Self {
        AtomicU8::new(0)
    }
}

impl Zeroed for AtomicU64 {
    fn zero() -> Self {
        AtomicU64::new(0)
    }
}

/// A slice of atomics, zero at first: allocated, or a part of a mapped
/// work file.
pub(crate) enum Store<T> {
    Memory(Vec<T>),
    Mapped { map: memmap2::MmapMut, len: usize },
}

impl<T: Zeroed> Store<T> {
    /// `len` zeros in memory.
    pub(crate) fn zeros(len: usize) -> Store<T> {
        Store::Memory((0..len).map(|_| T::zero()).collect())
    }
}

impl<T> Deref for Store<T> {
    type Target = [T];

    #[inline]
    #[allow(unsafe_code)]
    fn deref(&self) -> &[T] {
        match self {
            Store::Memory(v) => v,
            // SAFETY: the map is a shared writable mapping of at least
            // `len * size_of::<T>()` bytes (checked when made), page
            // aligned (so aligned for `T`, an atomic of at most 8 bytes
            // whose every bit pattern is valid), alive as long as `self`
            // and the returned slice. Its pointer comes from the mapping,
            // not from a `&[u8]`, so writes through the atomics' interior
            // mutability are allowed; every access goes through those
            // atomics. The file is ours, created new in a directory whose
            // lock the run holds, and neither resized nor mapped elsewhere
            // while the map lives.
            Store::Mapped { map, len } => unsafe {
                std::slice::from_raw_parts(map.as_ptr().cast::<T>(), *len)
            },
        }
    }
}

/// A work file of one class: its value bytes, then its capture-draw and
/// candidate bitmaps, each part starting at a multiple of [`PART_ALIGN`].
/// Removed when dropped (the maps made from it stay valid on Unix).
pub(crate) struct WorkFile {
    path: PathBuf,
    file: std::fs::File,
}

/// Parts of a work file start at multiples of this (a multiple of every
/// page size in use).
const PART_ALIGN: u64 = 1 << 16;

/// The file name extension of work files, after the table's name.
pub(crate) const EXTENSION: &str = "work";

/// The work file of the class whose table is `table_name` in `dir`.
pub(crate) fn path(dir: &Path, table_name: &str) -> PathBuf {
    dir.join(format!("{table_name}.{EXTENSION}"))
}

/// The bytes of the work file of a class of `slots` slots (reserved on
/// Linux, so that a full disk is found when the file is made).
#[must_use]
pub(crate) fn work_file_bytes(slots: u64) -> u64 {
    let words = slots.div_ceil(64) * 8;
    slots.next_multiple_of(PART_ALIGN) + 2 * words.next_multiple_of(PART_ALIGN)
}

/// The state of one class: its values and its two bitmaps.
pub(crate) struct ClassStores {
    pub(crate) values: Store<AtomicU8>,
    pub(crate) capture_draws: Store<AtomicU64>,
    pub(crate) candidates: Store<AtomicU64>,
    /// The work file they are mapped from, if mapped.
    pub(crate) work: Option<WorkFile>,
}

impl ClassStores {
    /// The state of a class of `slots` slots, all zero: in memory, or
    /// mapped from a new work file at `work`.
    pub(crate) fn new(slots: u64, work: Option<&Path>) -> Result<ClassStores, TablebaseError> {
        let words = slots.div_ceil(64);
        let Some(path) = work.filter(|_| slots > 0) else {
            return Ok(ClassStores {
                values: Store::zeros(slots as usize),
                capture_draws: Store::zeros(words as usize),
                candidates: Store::zeros(words as usize),
                work: None,
            });
        };
        let file = create_fresh(path)?;
        let work = WorkFile {
            path: path.to_path_buf(),
            file,
        };
        let error = |e: std::io::Error| file_error(path, e.into());
        work.file.set_len(work_file_bytes(slots)).map_err(error)?;
        reserve(&work.file, work_file_bytes(slots)).map_err(error)?;
        let draws_at = slots.next_multiple_of(PART_ALIGN);
        let candidates_at = draws_at + (words * 8).next_multiple_of(PART_ALIGN);
        Ok(ClassStores {
            values: work.map(0, slots).map_err(error)?,
            capture_draws: work.map(draws_at, words).map_err(error)?,
            candidates: work.map(candidates_at, words).map_err(error)?,
            work: Some(work),
        })
    }
}

/// Reserves the disk blocks of the first `bytes` of `file` (Linux), so
/// that a full disk is an error here rather than a `SIGBUS` when the
/// kernel writes a page of the map back into a hole. Elsewhere nothing is
/// reserved.
#[allow(unsafe_code)]
fn reserve(file: &std::fs::File, bytes: u64) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::io::AsRawFd;
        let len = libc::off_t::try_from(bytes).map_err(std::io::Error::other)?;
        // SAFETY: a plain system call on a descriptor this function
        // borrows open; it reads and writes no memory of the process.
        let status = unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, len) };
        // A file system that cannot reserve (EOPNOTSUPP, EINVAL) keeps the
        // sparse file.
        if status != 0 && status != libc::EOPNOTSUPP && status != libc::EINVAL {
            return Err(std::io::Error::from_raw_os_error(status));
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (file, bytes);
    Ok(())
}

impl WorkFile {
    /// Where the file is.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// `len` atomics of type `T` at byte `offset` (a multiple of
    /// [`PART_ALIGN`]), mapped shared and writable.
    #[allow(unsafe_code)]
    fn map<T>(&self, offset: u64, len: u64) -> std::io::Result<Store<T>> {
        let bytes = len * std::mem::size_of::<T>() as u64;
        debug_assert!(offset.is_multiple_of(PART_ALIGN));
        // SAFETY: the file was created new by this run (`create_fresh`) in
        // a directory whose lock it holds, and is set to its full length
        // before any map is made; nothing truncates or writes it but
        // through the maps, whose parts do not overlap.
        let map = unsafe {
            memmap2::MmapOptions::new()
                .offset(offset)
                .len(bytes as usize)
                .map_mut(&self.file)?
        };
        if map.len() as u64 != bytes || map.as_ptr().align_offset(8) != 0 {
            return Err(std::io::Error::other("a work file map of the wrong size"));
        }
        Ok(Store::Mapped {
            map,
            len: len as usize,
        })
    }
}

impl Drop for WorkFile {
    fn drop(&mut self) {
        // Scratch: a failure leaves a file the next run replaces.
        let _ = std::fs::remove_file(&self.path);
    }
}
