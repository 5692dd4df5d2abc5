//! `Tablebase`, its probe answers, and generating tables.

use crate::args::{self, PIECES};
use crate::errors::{tablebase_error, TablebaseError};
use crate::game::PositionArg;
use crate::position::{moves_of, PyMove};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;
use surakarta::Rules;
use surakarta_tablebase::{generate_dir_with, GenerateOptions, NoProgress, Tablebase, Value};

/// Endgame tables (distance to conversion) read from a directory of
/// `*.sktb` files, as `surakarta tb generate` writes them.
///
/// The files are read into memory when the tablebase is opened (headers
/// checked now, each table's checksum on its first use), so they may change
/// on disk afterwards without harm. A damaged file raises `TablebaseError`
/// naming it; a position whose class has no table raises
/// `MissingTableError` naming the file looked for.
#[pyclass(name = "Tablebase", module = "surakarta", frozen)]
pub(crate) struct PyTablebase {
    pub(crate) inner: Arc<Tablebase>,
}

/// The answer of `Tablebase.probe`: the value for the side to move (`wdl`:
/// `"win"`, `"draw"` or `"loss"`; `dtc`: plies to the conversion, `None` for
/// a draw), the best move and the line of best play to the conversion, all
/// under the pure rules the tables follow; `exact`, whether that value is
/// the game's (for a `Game`: its rule set and history leave it room; a
/// position alone is judged under the pure rules), and `cutoff`, why not.
#[pyclass(name = "Probe", module = "surakarta", frozen, get_all)]
pub(crate) struct PyProbe {
    /// `"win"`, `"draw"` or `"loss"` for the side to move.
    wdl: &'static str,
    /// Plies to the conversion (a capture or the end) with best play; `None` for a draw.
    dtc: Option<u32>,
    /// A best move, or `None` if there is no legal move.
    best_move: Option<PyMove>,
    /// Best play until the conversion.
    line: Vec<PyMove>,
    /// Whether the value is the game's.
    exact: bool,
    /// Why the value is not the game's (the no-capture limit, a repetition,
    /// adjudication of a draw), or `None`.
    cutoff: Option<String>,
}

#[pymethods]
impl PyProbe {
    fn __repr__(&self) -> String {
        let best = self
            .best_move
            .map_or("None".to_string(), |m| format!("'{}'", m.inner));
        format!(
            "Probe(wdl='{}', dtc={}, best_move={best}, line=[{}], exact={})",
            self.wdl,
            self.dtc.map_or("None".to_string(), |d| d.to_string()),
            self.line
                .iter()
                .map(|m| format!("'{}'", m.inner))
                .collect::<Vec<_>>()
                .join(", "),
            if self.exact { "True" } else { "False" }
        )
    }
}

/// The argument `position` of the probes.
fn read_position(position: &Bound<'_, PyAny>) -> PyResult<surakarta::Position> {
    PositionArg::read(position, "position")?.position()
}

/// The value of a probe, as the CLI shows it (`win in 3`, `draw`, `loss in 4`).
fn value_text(value: Value) -> String {
    value.to_string()
}

impl PyTablebase {
    /// Opens the tables in `directory` (a path already checked).
    pub(crate) fn open(py: Python<'_>, directory: PathBuf) -> PyResult<PyTablebase> {
        let tb = py
            .allow_threads(|| Tablebase::open_dir(&directory))
            .map_err(tablebase_error)?;
        if tb.materials().next().is_none() {
            return Err(TablebaseError::new_err(format!(
                "{}: no table files (*.sktb) found",
                directory.display()
            )));
        }
        Ok(PyTablebase {
            inner: Arc::new(tb),
        })
    }
}

#[pymethods]
impl PyTablebase {
    /// Opens the tables in `directory` (read into memory).
    #[new]
    fn py_new(py: Python<'_>, directory: &Bound<'_, PyAny>) -> PyResult<PyTablebase> {
        PyTablebase::open(py, args::path(directory, "directory")?)
    }

    /// The classes held, as `"4v1"` (pieces of the side to move v the other side).
    fn materials(&self) -> Vec<String> {
        self.inner.materials().map(|m| m.to_string()).collect()
    }

    /// Value, best move and conversion line of `position` (a `Position`, a
    /// `Game` for its current position, or position text), and whether the
    /// value is the game's (a `Game`'s rule set and history can cut it off).
    fn probe(&self, py: Python<'_>, position: &Bound<'_, PyAny>) -> PyResult<PyProbe> {
        let game = PositionArg::read(position, "position")?.game(Rules::PURE)?;
        let position = *game.position();
        let tb = &self.inner;
        let (judged, best, line) = py
            .allow_threads(|| -> Result<_, surakarta_tablebase::TablebaseError> {
                Ok((
                    tb.probe_game(&game)?,
                    tb.best_move(&position)?.map(|(m, _)| m),
                    tb.line(&position)?,
                ))
            })
            .map_err(tablebase_error)?;
        let value = judged.table;
        Ok(PyProbe {
            wdl: value.wdl().name(),
            dtc: value.dtc(),
            best_move: best.map(|inner| PyMove { inner }),
            line: moves_of(line),
            exact: judged.cutoff.is_none(),
            cutoff: judged.cutoff.map(|c| c.to_string()),
        })
    }

    /// `"win"`, `"draw"` or `"loss"` for the side to move of `position`.
    fn probe_wdl(&self, position: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        let value = self
            .inner
            .probe_position(&read_position(position)?)
            .map_err(tablebase_error)?;
        Ok(value.wdl().name())
    }

    /// Plies to the conversion with best play (`None` for a draw).
    fn probe_dtc(&self, position: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
        let value = self
            .inner
            .probe_position(&read_position(position)?)
            .map_err(tablebase_error)?;
        Ok(value.dtc())
    }

    /// The value as the CLI prints it: `"win in 3"`, `"draw"`, `"loss in 4"`.
    fn probe_text(&self, position: &Bound<'_, PyAny>) -> PyResult<String> {
        let value = self
            .inner
            .probe_position(&read_position(position)?)
            .map_err(tablebase_error)?;
        Ok(value_text(value))
    }

    fn __repr__(&self) -> String {
        let dir = self
            .inner
            .dir()
            .map_or(String::new(), |d| format!(" from {}", d.display()));
        format!(
            "<Tablebase {} classes{dir}>",
            self.inner.materials().count()
        )
    }
}

/// Generates every table with 2 to `pieces` pieces into `directory` (created
/// if missing), as `surakarta tb generate --pieces N --dir D` does; classes
/// already there are kept. Returns the classes written or found. `pieces`
/// is 2 to 10, as the CLI takes it (`TypeError` for a value that is not an
/// `int`, `ValueError` outside the range). The GIL is released while it
/// works. Up to 5 pieces takes seconds; more takes long (docs/tablebase.md).
#[pyfunction]
pub(crate) fn generate_tables(
    py: Python<'_>,
    directory: &Bound<'_, PyAny>,
    pieces: &Bound<'_, PyAny>,
) -> PyResult<Vec<String>> {
    let directory = args::path(directory, "directory")?;
    let pieces: u32 = PIECES.read(pieces)?;
    let outcomes = py
        .allow_threads(|| {
            generate_dir_with(&directory, pieces, &GenerateOptions::default(), &NoProgress)
        })
        .map_err(tablebase_error)?;
    Ok(outcomes
        .iter()
        .map(|o| o.stats.material.to_string())
        .collect())
}
