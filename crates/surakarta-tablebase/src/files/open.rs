//! Opening table files (only regular files, and never blocking) and
//! listing the table files of a directory.

use crate::error::TablebaseError;
use crate::format::{self, FileProblem};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::Path;
use std::path::PathBuf;
use surakarta_index::Material;

/// Opens a table file for reading. Anything but a regular file (a
/// directory, a FIFO, a device, a socket) is [`FileProblem::NotAFile`].
///
/// On Unix the file is opened with `O_NONBLOCK`, so that opening a FIFO
/// does not wait for a writer; the type is then checked on the opened
/// handle, not the path, so it cannot change between check and use. For a
/// regular file the flag has no effect on reads or maps.
pub(crate) fn open_table_file(path: &Path) -> Result<File, FileProblem> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(FileProblem::NotAFile);
    }
    Ok(file)
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
