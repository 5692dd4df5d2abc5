//! `Limit`: how long a search may run, in python-chess's style (`time` in
//! seconds, `depth` in plies, `nodes`), with absurd values refused (by
//! the checks of `args`).

use crate::args::{DEPTH, NODES, TIME};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyFloat;
use std::time::Duration;
use surakarta_search::Limits;

/// What `search(movetime=…)` (or `play`, `analyse`: `method` names it)
/// raises: the name meant seconds here and milliseconds in the CLI and the
/// engine protocol, so it is gone.
pub(crate) fn movetime_removed(method: &str) -> String {
    format!(
        "{method}() takes no movetime: give time=SECONDS (or Limit(time=SECONDS)), as \
         python-chess does; the CLI's --movetime and the engine protocol's movetime are \
         milliseconds, so their movetime 500 is time=0.5 here"
    )
}

/// A search limit, as python-chess writes it: `time` in seconds (0.001 to
/// 86400, a millisecond to a day), `depth` in plies (1 to 64), `nodes` (at
/// least 1), each checked by `args`. At
/// least one is needed; the first reached stops the search.
#[pyclass(name = "Limit", module = "surakarta", frozen, eq)]
#[derive(Clone, Copy, PartialEq)]
pub(crate) struct PyLimit {
    time: Option<f64>,
    depth: Option<u32>,
    nodes: Option<u64>,
}

impl PyLimit {
    /// Checks the values given (as Python objects, so that messages show
    /// them as they were written) and makes the limit.
    pub(crate) fn checked(
        time: Option<&Bound<'_, PyAny>>,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyLimit> {
        let time = TIME.read_optional(time)?;
        let depth = DEPTH.read_optional(depth)?;
        let nodes = NODES.read_optional(nodes)?;
        if time.is_none() && depth.is_none() && nodes.is_none() {
            return Err(PyValueError::new_err(
                "give at least one limit: time=SECONDS, depth=PLIES or nodes=N",
            ));
        }
        Ok(PyLimit { time, depth, nodes })
    }

    /// The search library's limits.
    pub(crate) fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.time.map(Duration::from_secs_f64),
            clock: None,
        }
    }
}

#[pymethods]
impl PyLimit {
    /// A limit; `TypeError` for a value that is not a number (a `bool`
    /// included), `ValueError` for a time outside 0.001 to 86400 seconds, a
    /// depth outside 1 to 64, a node count below 1, or no limit at all.
    #[new]
    #[pyo3(signature = (time = None, depth = None, nodes = None))]
    fn new(
        time: Option<&Bound<'_, PyAny>>,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyLimit> {
        PyLimit::checked(time, depth, nodes)
    }

    /// Seconds to think, or `None`.
    #[getter]
    fn time(&self) -> Option<f64> {
        self.time
    }

    /// Plies to search, or `None`.
    #[getter]
    fn depth(&self) -> Option<u32> {
        self.depth
    }

    /// Nodes to search (about), or `None`.
    #[getter]
    fn nodes(&self) -> Option<u64> {
        self.nodes
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut parts = Vec::new();
        if let Some(t) = self.time {
            parts.push(format!("time={}", PyFloat::new(py, t).repr()?));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        Ok(format!("Limit({})", parts.join(", ")))
    }
}
