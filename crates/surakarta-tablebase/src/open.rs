//! Opening table files: only regular files, and never blocking.

use crate::file::FileProblem;
use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::Path;

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
