//! The files a command writes (`--out`, `--svg`, `--save`, a match's
//! `--record`, a network, a tuning state): each checked before any work
//! ([`check_output`]) and written whole under a temporary name beside it,
//! then renamed into place ([`write_output`], [`create_output`]). So an
//! output is complete or as it was, a symbolic link at its name is
//! replaced (never written through), and a FIFO, a device or a directory
//! there is refused, never opened (writing into one would block or go
//! elsewhere).

use crate::common::error::CliError;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use surakarta_tablebase::{create_atomically, write_atomically, FileKind};

/// Checks that the output `path` of `flag` can be written: a file name in
/// an existing directory, where nothing is or a regular file or a symbolic
/// link is (replaced whole); anything else is refused, naming what it is.
pub(crate) fn check_output(flag: &str, path: &Path) -> Result<(), CliError> {
    let shown = path.display();
    if path.file_name().is_none() {
        return Err(CliError(format!("{flag} {shown} is not a file name")));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !dir.is_dir() {
        return Err(CliError(format!(
            "cannot write {shown}: directory {} does not exist",
            dir.display()
        )));
    }
    match std::fs::symlink_metadata(path) {
        Ok(metadata) if metadata.is_file() || metadata.file_type().is_symlink() => Ok(()),
        Ok(metadata) => Err(CliError(format!(
            "cannot write {shown}: it is a {}, not a regular file ({flag} replaces a file, never writes into anything else)",
            FileKind::of(metadata.file_type())
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(CliError(format!("cannot write {shown}: {e}"))),
    }
}

/// Checks that the output `path` of `flag` is not the file `input` the
/// command reads (the same name, or another name of the same file):
/// replacing it would lose what the output does not hold.
pub(crate) fn check_not_input(flag: &str, path: &Path, input: &Path) -> Result<(), CliError> {
    if same_file(path, input) {
        return Err(CliError(format!(
            "{flag} {} is the file read ({}): give another file, so that nothing in it is lost",
            path.display(),
            input.display()
        )));
    }
    Ok(())
}

/// Whether `a` and `b` name the same file (through links too), or the
/// same path when neither exists yet.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        #[cfg(unix)]
        (Ok(a), Ok(b)) => {
            use std::os::unix::fs::MetadataExt;
            (a.dev(), a.ino()) == (b.dev(), b.ino())
        }
        _ => match (a.canonicalize(), b.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        },
    }
}

/// Writes `bytes` as the file `path` (checked with [`check_output`]
/// first): to a temporary file beside it, renamed into place.
pub(crate) fn write_output(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    write_atomically(path, |out| out.write_all(bytes))
        .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))
}

/// Makes the file `path` (checked with [`check_output`] first) with
/// `bytes` as [`write_output`] does, and returns it open to be written on
/// at its end.
pub(crate) fn create_output(path: &Path, bytes: &[u8]) -> Result<File, CliError> {
    create_atomically(path, |out| out.write_all(bytes))
        .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_are_file_names_in_existing_directories_and_never_special_files() {
        let dir = std::env::temp_dir();
        assert!(check_output("--out", &dir.join("surakarta-none.txt")).is_ok());
        let e = check_output("--out", &dir).unwrap_err();
        assert!(e.0.contains("it is a directory"), "{}", e.0);
        let e = check_output("--out", &dir.join("no-such-dir").join("x")).unwrap_err();
        assert!(e.0.contains("does not exist"), "{}", e.0);
        #[cfg(unix)]
        {
            let e = check_output("--svg", Path::new("/dev/null")).unwrap_err();
            assert!(e.0.contains("it is a character device"), "{}", e.0);
        }
        assert!(same_file(Path::new("a"), Path::new("a")));
        assert!(!same_file(Path::new("a-none"), Path::new("b-none")));
    }
}
