//! Finding training data files: the `.skdata` paths `train`, `data` and
//! `endgames --exclude` take.

use crate::common::error::CliError;
use std::path::PathBuf;

/// The `.skdata` files of `paths`: files as given, directories' `*.skdata`
/// entries in name order (whatever their type: one that is not a regular
/// file is never skipped here; `train` refuses it, `data` counts it
/// damaged). A directory without any is an error naming it.
pub(crate) fn data_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let entries = std::fs::read_dir(path)
                .map_err(|e| CliError(format!("cannot read directory {}: {e}", path.display())))?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "skdata"))
                .collect();
            if found.is_empty() {
                return Err(CliError(format!(
                    "no .skdata files in directory {}",
                    path.display()
                )));
            }
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}
