//! Opening the files the project reads (only regular files, and never
//! blocking) and listing the table files of a directory.

use crate::error::TablebaseError;
use crate::format::{self, FileProblem};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::Path;
use std::path::PathBuf;
use surakarta_index::Material;

/// Opens any file the project reads (table files, networks, training data,
/// openings, records, manifests) the one safe way: only a regular file is
/// accepted, and opening never blocks. Anything but a regular file (a
/// directory, a FIFO, a device, a socket) is an error saying "not a
/// regular file", which [`is_not_a_regular_file`] tells from the system's
/// errors.
///
/// On Unix the file is opened with `O_NONBLOCK`, so that opening a FIFO
/// does not wait for a writer; the type is then checked on the opened
/// handle, not the path, so it cannot change between check and use. For a
/// regular file the flag has no effect on reads or maps.
///
/// # Examples
///
/// ```
/// use surakarta_tablebase::open_regular_file;
///
/// let dir = std::env::temp_dir();
/// let error = open_regular_file(&dir).unwrap_err(); // a directory
/// assert!(surakarta_tablebase::is_not_a_regular_file(&error));
/// assert_eq!(error.to_string(), "not a regular file");
/// ```
pub fn open_regular_file(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(not_a_regular_file());
    }
    Ok(file)
}

/// What [`open_regular_file`] says of anything but a regular file.
#[derive(Debug)]
struct NotARegularFile;

impl std::fmt::Display for NotARegularFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not a regular file")
    }
}

impl std::error::Error for NotARegularFile {}

/// The error of [`open_regular_file`] for anything but a regular file.
fn not_a_regular_file() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, NotARegularFile)
}

/// Whether `error` is [`open_regular_file`]'s (or [`read_regular_file`]'s)
/// refusal of something that is not a regular file, as opposed to an error
/// of the system (a missing file, no permission).
///
/// # Examples
///
/// ```
/// use surakarta_tablebase::{is_not_a_regular_file, open_regular_file};
///
/// assert!(is_not_a_regular_file(&open_regular_file(&std::env::temp_dir()).unwrap_err()));
/// let missing = open_regular_file("/nonexistent/file".as_ref()).unwrap_err();
/// assert!(!is_not_a_regular_file(&missing));
/// ```
#[must_use]
pub fn is_not_a_regular_file(error: &std::io::Error) -> bool {
    error
        .get_ref()
        .is_some_and(|inner| inner.is::<NotARegularFile>())
}

/// At most `max_bytes` bytes of a file opened with [`open_regular_file`]:
/// a longer file is an error of kind [`std::io::ErrorKind::InvalidData`]
/// naming the limit, found after reading one byte past it (never the whole
/// of a huge or endless file).
///
/// # Examples
///
/// ```
/// use surakarta_tablebase::read_regular_file;
///
/// let path = std::env::temp_dir().join(format!("surakarta-doc-read-{}", std::process::id()));
/// std::fs::write(&path, b"12345")?;
/// assert_eq!(read_regular_file(&path, 5)?, b"12345");
/// assert!(read_regular_file(&path, 4).is_err()); // over the limit
/// std::fs::remove_file(&path)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_regular_file(path: &Path, max_bytes: u64) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open_regular_file(path)?
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("longer than the {max_bytes} bytes such a file may have"),
        ));
    }
    Ok(bytes)
}

/// Opens a table file for reading with [`open_regular_file`]; anything but
/// a regular file is [`FileProblem::NotAFile`].
pub(crate) fn open_table_file(path: &Path) -> Result<File, FileProblem> {
    open_regular_file(path).map_err(|e| {
        if is_not_a_regular_file(&e) {
            FileProblem::NotAFile
        } else {
            FileProblem::from(e)
        }
    })
}

/// The whole of a table file, opened with [`open_table_file`].
pub(crate) fn read_table_file(path: &Path) -> Result<Vec<u8>, FileProblem> {
    let mut bytes = Vec::new();
    open_table_file(path)?.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The table files of a directory by class, in class order.
///
/// # Examples
///
/// ```
/// use surakarta_index::Material;
/// use surakarta_tablebase::table_files;
///
/// let dir = std::env::temp_dir().join(format!("surakarta-doc-files-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join("2v1.sktb"), b"")?;
/// std::fs::write(dir.join("notes.txt"), b"")?; // not a table: ignored
/// let files = table_files(&dir)?;
/// assert_eq!(files.keys().copied().collect::<Vec<_>>(), [Material::new(2, 1)?]);
/// assert_eq!(files[&Material::new(2, 1)?], dir.join("2v1.sktb"));
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn table_files(dir: &Path) -> Result<BTreeMap<Material, PathBuf>, TablebaseError> {
    let dir_error = |source| TablebaseError::Directory {
        path: dir.to_path_buf(),
        source,
    };
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).map_err(dir_error)? {
        let path = entry.map_err(dir_error)?.path();
        if path.extension().and_then(|e| e.to_str()) != Some(format::EXTENSION) {
            continue;
        }
        let material = path
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(|s| s.parse::<Material>().ok());
        if let Some(material) = material {
            out.insert(material, path);
        }
    }
    Ok(out)
}
