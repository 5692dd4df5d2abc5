//! The module's exceptions and the conversion of the libraries' errors to
//! them. Messages are the libraries' (and so the CLI's) messages.

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::PyErr;
use surakarta::{Excerpt, GameError, MoveError};
use surakarta_tablebase::TablebaseError as TbError;

create_exception!(
    surakarta,
    InvalidNotationError,
    PyValueError,
    "Text that is not a valid position, move, square or rule set."
);
create_exception!(
    surakarta,
    IllegalMoveError,
    PyValueError,
    "A well-formed move that cannot be played here (or a game that is over)."
);
create_exception!(
    surakarta,
    TablebaseError,
    PyOSError,
    "A table file or directory that cannot be used; the message names it."
);
create_exception!(
    surakarta,
    MissingTableError,
    TablebaseError,
    "A position whose class has no table; the message names the file looked for."
);

/// A position's text that did not read, as the CLI says it.
pub(crate) fn bad_position(text: &str, error: impl std::fmt::Display) -> PyErr {
    InvalidNotationError::new_err(format!("invalid position {}: {error}", Excerpt::new(text)))
}

/// A move that could not be played.
pub(crate) fn move_error(error: MoveError) -> PyErr {
    match error {
        MoveError::Syntax { .. } => InvalidNotationError::new_err(error.to_string()),
        _ => IllegalMoveError::new_err(error.to_string()),
    }
}

/// A move that could not be played in a game.
pub(crate) fn game_error(error: GameError) -> PyErr {
    match error {
        GameError::Move(e) => move_error(e),
        GameError::GameOver(_) => IllegalMoveError::new_err(error.to_string()),
    }
}

/// A tablebase error: `MissingTableError` for a class without a table,
/// `ValueError` for a position no table can hold, `TablebaseError` (an
/// `OSError`) for files and directories.
pub(crate) fn tablebase_error(error: TbError) -> PyErr {
    match error {
        TbError::MissingTable { .. } => MissingTableError::new_err(error.to_string()),
        TbError::Index(_) | TbError::NoPieces => PyValueError::new_err(error.to_string()),
        _ => TablebaseError::new_err(error.to_string()),
    }
}
