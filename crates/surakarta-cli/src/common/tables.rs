//! Opening a directory of endgame tables: the one place the CLI maps table
//! files into memory.

use crate::common::error::CliError;
use std::path::Path;
use surakarta_tablebase::Tablebase;

/// Maps the tables of `dir`; a file that cannot be opened is an error now
/// (the engine must not play on without a table it was given).
pub(crate) fn open(dir: &Path) -> Result<Tablebase, CliError> {
    // SAFETY: table files are never rewritten in place (generation writes a
    // temporary file and renames it), and docs/tablebase.md tells users not
    // to edit or truncate tables while they are in use.
    let tb = unsafe { Tablebase::map_dir(dir) }?;
    any_tables(dir, tb)
}

/// Maps the tables of `dir`, keeping the error of a file that cannot be
/// opened for when its class is needed: the other classes still answer
/// (`tb probe`, `tb verify`, `tb stats`).
pub(crate) fn open_partial(dir: &Path) -> Result<Tablebase, CliError> {
    // SAFETY: as in `open`.
    let tb = unsafe { Tablebase::map_dir_partial(dir) }?;
    any_tables(dir, tb)
}

/// The tablebase, or an error if `dir` has no table files at all.
fn any_tables(dir: &Path, tb: Tablebase) -> Result<Tablebase, CliError> {
    if tb.materials().next().is_none() && tb.load_errors().next().is_none() {
        return Err(CliError(format!(
            "{}: no table files (*.sktb) found",
            dir.display()
        )));
    }
    Ok(tb)
}
