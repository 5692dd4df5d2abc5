//! Game records (docs/notation.md, "Game records"): `Record`, reading
//! files and text of records, and a `Game` written as a record. The format
//! is the rules crate's (`surakarta::GameRecord`): reading checks every
//! move and the result, writing is canonical and reads back as an equal
//! record. Files are read as the CLI's `show` reads them
//! (`surakarta_tablebase::read_regular_file`: regular files only, never
//! waiting on a FIFO, at most `MAX_RECORD_TEXT` bytes).

use crate::args;
use crate::errors::{game_error, InvalidNotationError};
use crate::game::{PyGame, PyRules};
use crate::position::{moves_of, PyMove, PyPosition};
use crate::record_text::{record_error, record_of, record_text};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::Path;
use surakarta::record::MAX_RECORD_TEXT;
use surakarta::{Excerpt, GameRecord};
use surakarta_tablebase::{is_not_a_regular_file, read_regular_file};

/// One game of a record file, as python-chess's `chess.pgn.Game` holds
/// one: its tags (`tags`, also `headers`), the rule set, the start
/// position, the moves and the result; `game()` replays it as a `Game`,
/// `str(record)` writes it.
#[pyclass(name = "Record", module = "surakarta", frozen)]
pub(crate) struct PyRecord {
    pub(crate) inner: GameRecord,
}

#[pymethods]
impl PyRecord {
    /// The record of `game`: the tags `Rules`, `Start`, `Result` and, when
    /// the game is over, `Termination`, after the `tags` given (a mapping
    /// of names, letters, digits and `_`, to text values, such as
    /// `{"Event": "Club", "Black": "Ann"}`). `ValueError` for a name that
    /// is not a tag name or one the game writes itself.
    #[staticmethod]
    #[pyo3(signature = (game, tags = None))]
    fn from_game(game: &Bound<'_, PyAny>, tags: Option<&Bound<'_, PyAny>>) -> PyResult<PyRecord> {
        let game = game
            .downcast::<PyGame>()
            .map_err(|_| args::wrong_type_of("game", game, "a Game"))?;
        let game = game.try_borrow()?;
        Ok(PyRecord {
            inner: record_of(&game.inner, tags)?,
        })
    }

    /// Every tag in the record's order (`Rules`, `Start` and `Result`
    /// included), as a new dictionary.
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in &self.inner.tags {
            dict.set_item(name, value)?;
        }
        Ok(dict)
    }

    /// The tags (the same as `tags`): python-chess's `Game.headers`.
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.tags(py)
    }

    /// The rule set (the `Rules` tag; ICGA when there is none).
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules {
            inner: self.inner.rules,
        }
    }

    /// The start position (the `Start` tag; the start when there is none).
    #[getter]
    fn start(&self) -> PyPosition {
        PyPosition {
            inner: self.inner.start,
        }
    }

    /// The moves, in order.
    #[getter]
    fn moves(&self) -> Vec<PyMove> {
        moves_of(self.inner.moves.iter().copied())
    }

    /// The moves, in order (the same as `moves`): python-chess's
    /// `Game.mainline_moves()`.
    fn mainline_moves(&self) -> Vec<PyMove> {
        self.moves()
    }

    /// The result: `"1-0"` (Black won), `"0-1"` (White won), `"1/2-1/2"`
    /// or `"*"` (unfinished or unknown).
    #[getter]
    fn result(&self) -> &'static str {
        self.inner.result.as_str()
    }

    /// The game, its moves replayed (a new `Game` each call).
    fn game(&self) -> PyResult<PyGame> {
        Ok(PyGame {
            inner: self.inner.to_game().map_err(game_error)?,
        })
    }

    /// The record's text, which `parse_records` reads back as an equal
    /// record; `ValueError` naming the limit for a record the reader would
    /// refuse (more than 1,000 tags, say).
    fn __str__(&self) -> PyResult<String> {
        record_text(&self.inner)
    }

    fn __repr__(&self) -> String {
        let moves = self.inner.moves.len();
        let unit = if moves == 1 { "move" } else { "moves" };
        let event = self
            .inner
            .tag("Event")
            .map_or(String::new(), |e| format!("Event {}, ", Excerpt::new(e)));
        format!(
            "<Record {event}{moves} {unit}, result {}>",
            self.inner.result
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<PyRecord>()
            .is_ok_and(|o| o.get().inner == self.inner)
    }
}

/// Reads `text` as records, one game at a time, checking for signals
/// (Ctrl-C raises `KeyboardInterrupt`) after each: a file of many games
/// can be interrupted. Reading is linear in the text and the games at most
/// `MAX_RECORD_GAMES`, so one game never takes long.
fn records_of(py: Python<'_>, text: &str, source: Option<&Path>) -> PyResult<Vec<PyRecord>> {
    let mut records = Vec::new();
    for record in GameRecord::records(text) {
        py.check_signals()?;
        let inner = record.map_err(|e| record_error(source, &e))?;
        records.push(PyRecord { inner });
    }
    Ok(records)
}

/// The records of a file of game records (docs/notation.md): a list of
/// `Record`, empty for an empty file. The file is read as the CLI's `show`
/// reads it: a regular file only (a FIFO or device is refused at once), at
/// most 16 MiB and 100,000 games. `OSError` (such as `FileNotFoundError`)
/// for a file that cannot be read, `InvalidNotationError` naming the file
/// and the line for text that is not records (an illegal move and a game
/// over the limit included). Ctrl-C interrupts a long read
/// (`KeyboardInterrupt`).
#[pyfunction]
pub(crate) fn read_records(py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<Vec<PyRecord>> {
    let path = args::path(path, "path")?;
    let bytes = py
        .allow_threads(|| read_regular_file(&path, MAX_RECORD_TEXT as u64))
        .map_err(|e| file_error(py, &path, &e))?;
    let text = String::from_utf8(bytes).map_err(|_| {
        InvalidNotationError::new_err(format!("{}: not UTF-8 text", path.display()))
    })?;
    records_of(py, &text, Some(&path))
}

/// The records in `text` (what `read_records` reads from a file, or
/// `str(record)`, `Game.record()`): a list of `Record`, empty for text
/// without a game; `InvalidNotationError` naming the line otherwise.
#[pyfunction]
pub(crate) fn parse_records(py: Python<'_>, text: &str) -> PyResult<Vec<PyRecord>> {
    records_of(py, text, None)
}

/// The error for a record file that could not be read: an `OSError` with
/// the system's number and the file's name (so `FileNotFoundError`,
/// `PermissionError`, …), `OSError` for something that is not a regular
/// file, `ValueError` for a file over the size limit.
fn file_error(py: Python<'_>, path: &Path, error: &std::io::Error) -> PyErr {
    let name = path.display();
    if let Some(errno) = error.raw_os_error() {
        let text = py
            .import("os")
            .and_then(|os| os.getattr("strerror")?.call1((errno,))?.extract::<String>())
            .unwrap_or_else(|_| error.to_string());
        return PyOSError::new_err((errno, text, path.as_os_str().to_os_string()));
    }
    if is_not_a_regular_file(error) {
        return PyOSError::new_err(format!("{name}: not a regular file"));
    }
    if error.kind() == std::io::ErrorKind::InvalidData {
        return PyValueError::new_err(format!("{name}: {error}"));
    }
    PyOSError::new_err(format!("{name}: {error}"))
}
