//! `Outcome`: how a game ended.

use crate::color::color_name;
use pyo3::prelude::*;
use surakarta::{Outcome, Termination};

/// How a game ended: the winner (`"black"`, `"white"` or `None` for a draw)
/// and the reason (`termination`: `"no_pieces"`, `"no_moves"`,
/// `"repetition"` or `"no_capture_limit"`).
#[pyclass(name = "Outcome", module = "surakarta", frozen)]
#[derive(Clone, Copy)]
pub(crate) struct PyOutcome {
    inner: Outcome,
}

impl From<Outcome> for PyOutcome {
    fn from(inner: Outcome) -> PyOutcome {
        PyOutcome { inner }
    }
}

#[pymethods]
impl PyOutcome {
    /// The winner, or `None` for a draw.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.inner.winner.map(color_name)
    }

    /// Why the game ended, as an identifier.
    #[getter]
    fn termination(&self) -> &'static str {
        match self.inner.termination {
            Termination::NoPieces => "no_pieces",
            Termination::NoMoves => "no_moves",
            Termination::Repetition => "repetition",
            Termination::NoCaptureLimit => "no_capture_limit",
        }
    }

    /// Why the game ended, in words (`"no legal move"`).
    #[getter]
    fn reason(&self) -> &'static str {
        self.inner.termination.describe()
    }

    /// The result as a record writes it (`"1-0"`, `"0-1"` or `"1/2-1/2"`).
    #[getter]
    fn result(&self) -> &'static str {
        self.inner.result()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("<Outcome {}>", self.inner)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyOutcome>()
            .is_ok_and(|o| o.inner == self.inner)
    }
}
