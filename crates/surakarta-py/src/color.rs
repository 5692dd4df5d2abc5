//! A side as Python writes and reads it.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use surakarta::Color;

/// A side as Python sees it: `"black"` or `"white"`.
pub(crate) fn color_name(color: Color) -> &'static str {
    color.name()
}

/// Reads a side: `"black"`, `"white"`, `"b"` or `"w"`.
pub(crate) fn parse_color(text: &str) -> PyResult<Color> {
    text.parse()
        .map_err(|e: surakarta::ParseColorError| PyValueError::new_err(e.to_string()))
}
