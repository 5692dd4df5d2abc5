//! The checks of the arguments that the package's functions, classes and
//! methods take, in one place. Every numeric bound is declared here once,
//! with the CLI's range for the same setting (`tb generate --pieces`,
//! `--threads`, `--hash`, `--depth`, `--nodes`, `perft`'s depth, `--rules`),
//! and read through the same few functions, so that the package refuses
//! what the CLI refuses, with the same kind of message:
//!
//! - a value of the wrong type raises `TypeError` naming the argument and
//!   what it takes (`pieces must be an int, 2 to 10, not bool`); a `bool`
//!   is never taken for a number, though Python counts it as an `int`;
//! - a value out of range raises `ValueError` naming the argument, the
//!   value and the range (`pieces 1000 is out of range: give 2 to 10`), as
//!   the CLI words it; NaN and infinities are out of every range.
//!
//! Text (positions, moves, rule sets, squares' names) is read by the rules
//! crate, whose errors `errors` maps; the argument types that take either
//! an object or its text (`MoveArg`, `RulesArg`, …) say what they take
//! through [`wrong_type`] or [`wrong_type_of`]. A position is taken one way
//! everywhere: [`PositionArg`] (a `Position`, a `Game` or position text),
//! and a sequence of them by [`positions`].

use crate::errors::InvalidNotationError;
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};
use std::path::PathBuf;
use surakarta::{Color, Excerpt, Square};

/// A whole-number argument: its name as Python spells it, the range it
/// takes (both ends included) and the unit the message gives after it.
pub(crate) struct Whole {
    /// The argument's name.
    pub(crate) name: &'static str,
    /// The least value taken.
    pub(crate) low: u64,
    /// The greatest value taken.
    pub(crate) high: u64,
    /// The unit, with its leading space (`" MiB"`), or `""`.
    pub(crate) unit: &'static str,
}

/// The largest piece count of `generate_tables`: `tb generate --pieces`,
/// 2 to 10 (10 pieces already need about 65 GB).
pub(crate) const PIECES: Whole = Whole {
    name: "pieces",
    low: 2,
    high: 10,
    unit: "",
};

/// The engine's search threads: `--threads`, 1 to 1024 (the engine's own
/// bound).
pub(crate) const THREADS: Whole = Whole {
    name: "threads",
    low: 1,
    high: surakarta_search::MAX_THREADS as u64,
    unit: "",
};

/// The engine's transposition table: `--hash`, 1 to 65536 MiB.
pub(crate) const HASH: Whole = Whole {
    name: "hash",
    low: 1,
    high: 65_536,
    unit: " MiB",
};

/// A search's depth: `search --depth`, 1 to 64 plies.
pub(crate) const DEPTH: Whole = Whole {
    name: "depth",
    low: 1,
    high: 64,
    unit: "",
};

/// A search's node count: `search --nodes`, at least 1.
pub(crate) const NODES: Whole = Whole {
    name: "nodes",
    low: 1,
    high: u64::MAX,
    unit: "",
};

/// The lines `Engine.analyse` is asked for (`multipv`): 1 to 256 (what
/// the engine searches today is checked by `analyse` itself).
pub(crate) const MULTIPV: Whole = Whole {
    name: "multipv",
    low: 1,
    high: 256,
    unit: "",
};

/// The engine's strength level: `--level`, 1 to 11 (11 the full engine).
pub(crate) const LEVEL: Whole = Whole {
    name: "level",
    low: 1,
    high: surakarta_search::MAX_LEVEL as u64,
    unit: "",
};

/// The seed of a level's choice: `--level-seed`, any `u64`.
pub(crate) const LEVEL_SEED: Whole = Whole {
    name: "level_seed",
    low: 0,
    high: u64::MAX,
    unit: "",
};

/// `perft`'s depth: `surakarta perft DEPTH`, 1 to 12 plies.
pub(crate) const PERFT_DEPTH: Whole = Whole {
    name: "depth",
    low: 1,
    high: 12,
    unit: "",
};

/// The repetition limit of `Rules`: `--rules repetitions=N`, at least 2.
pub(crate) const REPETITIONS: Whole = Whole {
    name: "repetitions",
    low: 2,
    high: u32::MAX as u64,
    unit: "",
};

/// The no-capture limit of `Rules`: `--rules no-capture=N`, at least 1 ply.
pub(crate) const NO_CAPTURE_PLIES: Whole = Whole {
    name: "no_capture_plies",
    low: 1,
    high: u32::MAX as u64,
    unit: "",
};

/// A square's index: 0 (a1) to 35 (f6).
pub(crate) const fn square_index(name: &'static str) -> Whole {
    Whole {
        name,
        low: 0,
        high: 35,
        unit: "",
    }
}

impl Whole {
    /// The range as a message gives it: `2 to 10`, `1 to 65536 MiB`.
    fn range(&self) -> String {
        format!("{} to {}{}", self.low, self.high, self.unit)
    }

    /// The `ValueError` for `value` (as `str()` writes it), out of range.
    fn out_of_range(&self, value: &str) -> PyErr {
        PyValueError::new_err(format!(
            "{} {value} is out of range: give {}",
            self.name,
            self.range()
        ))
    }

    /// `value` if it is an `int` (or an object with `__index__`, such as
    /// NumPy's integers; never a `bool`) in the range: `TypeError` for
    /// another type, `ValueError` out of the range.
    pub(crate) fn read<T: TryFrom<u64>>(&self, value: &Bound<'_, PyAny>) -> PyResult<T> {
        if value.is_instance_of::<PyBool>() {
            return Err(self.wrong_type(value));
        }
        let n: i128 = match value.extract() {
            Ok(n) => n,
            Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => {
                return Err(self.out_of_range(&shown(value)?))
            }
            Err(_) => return Err(self.wrong_type(value)),
        };
        u64::try_from(n)
            .ok()
            .filter(|n| (self.low..=self.high).contains(n))
            .and_then(|n| T::try_from(n).ok())
            .ok_or_else(|| self.out_of_range(&n.to_string()))
    }

    /// [`read`](Whole::read) for an argument that may be left out
    /// (`None`): `None` stays `None`.
    pub(crate) fn read_optional<T: TryFrom<u64>>(
        &self,
        value: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<T>> {
        value
            .filter(|v| !v.is_none())
            .map(|v| self.read(v))
            .transpose()
    }

    /// The `TypeError` for a value that is not an `int`.
    fn wrong_type(&self, value: &Bound<'_, PyAny>) -> PyErr {
        PyTypeError::new_err(format!(
            "{} must be an int, {}, not {}",
            self.name,
            self.range(),
            type_name(value)
        ))
    }
}

/// A real-number argument: its name, the range it takes (both ends
/// included) and its unit.
pub(crate) struct Real {
    /// The argument's name.
    pub(crate) name: &'static str,
    /// The least value taken.
    pub(crate) low: f64,
    /// The greatest value taken.
    pub(crate) high: f64,
    /// The unit, with its leading space, or `""`.
    pub(crate) unit: &'static str,
}

/// A search's time in seconds: `search --movetime` (at least 1 ms), at
/// most a day.
pub(crate) const TIME: Real = Real {
    name: "time",
    low: 0.001,
    high: 86_400.0,
    unit: " seconds",
};

impl Real {
    /// `value` if it is an `int` or a `float` (or any object with
    /// `__float__`, such as NumPy's numbers; never a `bool`) in the range:
    /// `TypeError` for another type, `ValueError` for NaN, an infinity or
    /// a value out of the range.
    pub(crate) fn read(&self, value: &Bound<'_, PyAny>) -> PyResult<f64> {
        let wrong_type = || {
            PyTypeError::new_err(format!(
                "{} must be a number (int or float), {} to {}{}, not {}",
                self.name,
                self.low,
                self.high,
                self.unit,
                type_name(value)
            ))
        };
        if value.is_instance_of::<PyBool>() || value.is_instance_of::<PyString>() {
            return Err(wrong_type());
        }
        let x: f64 = match value.extract() {
            Ok(x) => x,
            // An int too large for a float.
            Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => f64::INFINITY,
            Err(_) => return Err(wrong_type()),
        };
        if x.is_finite() && self.low <= x && x <= self.high {
            return Ok(x);
        }
        Err(PyValueError::new_err(format!(
            "{} {} is out of range: give {} to {}{}",
            self.name,
            shown(value)?,
            self.low,
            self.high,
            self.unit
        )))
    }

    /// [`read`](Real::read) for an argument that may be left out (`None`).
    pub(crate) fn read_optional(&self, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<f64>> {
        value
            .filter(|v| !v.is_none())
            .map(|v| self.read(v))
            .transpose()
    }
}

/// A path argument (`str` or `os.PathLike`): `TypeError` for another
/// type, `ValueError` for an empty path or one with a NUL character
/// (which no file can have).
pub(crate) fn path(value: &Bound<'_, PyAny>, name: &str) -> PyResult<PathBuf> {
    let path: PathBuf = value.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "{name} must be a path (str or os.PathLike), not {}",
            type_name(value)
        ))
    })?;
    let bytes = path.as_os_str().as_encoded_bytes();
    if bytes.is_empty() {
        return Err(PyValueError::new_err(format!(
            "{name} is empty: give a path"
        )));
    }
    if bytes.contains(&0) {
        return Err(PyValueError::new_err(format!(
            "{name} {} contains a NUL character: no file has such a name",
            Excerpt::new(&path.to_string_lossy())
        )));
    }
    Ok(path)
}

/// [`path`] for an argument that may be left out (`None`).
pub(crate) fn optional_path(
    value: Option<&Bound<'_, PyAny>>,
    name: &str,
) -> PyResult<Option<PathBuf>> {
    value
        .filter(|v| !v.is_none())
        .map(|v| path(v, name))
        .transpose()
}

/// A side: `"black"`, `"white"`, `"b"` or `"w"` (`ValueError` otherwise).
pub(crate) fn color(text: &str, name: &str) -> PyResult<Color> {
    text.parse().map_err(|_: surakarta::ParseColorError| {
        PyValueError::new_err(format!(
            "{name} {} is not a side: give \"black\", \"white\", \"b\" or \"w\"",
            Excerpt::new(text)
        ))
    })
}

/// A square given as its index (0 = a1 … 35 = f6, never a `bool`) or its
/// name (`"b2"`): `TypeError` for another type, `ValueError` for an index
/// out of range, `InvalidNotationError` for a name that is not a square.
pub(crate) fn square(value: &Bound<'_, PyAny>, name: &'static str) -> PyResult<Square> {
    if let Ok(text) = value.downcast::<PyString>() {
        return text
            .to_cow()?
            .parse()
            .map_err(|e: surakarta::ParseSquareError| {
                InvalidNotationError::new_err(format!("{name}: {e}"))
            });
    }
    let index: u8 = square_index(name).read(value).map_err(|e| {
        if e.is_instance_of::<PyTypeError>(value.py()) {
            PyTypeError::new_err(format!(
                "{name} must be a square's index (int, 0 to 35) or name (str, \"a1\" to \"f6\"), not {}",
                type_name(value)
            ))
        } else {
            e
        }
    })?;
    Square::new(index).ok_or_else(|| square_index(name).out_of_range(&index.to_string()))
}

/// A callable argument (`TypeError` otherwise).
pub(crate) fn callable(value: Option<Bound<'_, PyAny>>, name: &str) -> PyResult<Option<PyObject>> {
    match value {
        Some(v) if v.is_none() => Ok(None),
        Some(v) if !v.is_callable() => Err(PyTypeError::new_err(format!(
            "{name} must be callable (a function taking one argument), not {}",
            type_name(&v)
        ))),
        other => Ok(other.map(Bound::unbind)),
    }
}

/// The `TypeError` for an argument that takes one of a few kinds of
/// objects: `expected WHAT, not TYPE` (Python adds the argument's name).
pub(crate) fn wrong_type(value: &Bound<'_, PyAny>, what: &str) -> PyErr {
    PyTypeError::new_err(format!("expected {what}, not {}", type_name(value)))
}

/// The `TypeError` for an argument that takes one of a few kinds of
/// objects, named in the message: `NAME must be WHAT, not TYPE`.
pub(crate) fn wrong_type_of(name: &str, value: &Bound<'_, PyAny>, what: &str) -> PyErr {
    PyTypeError::new_err(format!("{name} must be {what}, not {}", type_name(value)))
}

/// What a position argument takes, as its `TypeError` says it.
pub(crate) const POSITION_TYPES: &str = "a Position, a Game or position text";

/// A number as a message shows it: `str(value)`, its middle left out when
/// it is long (an `int` of a thousand digits).
fn shown(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let text = value.str()?.to_cow()?.into_owned();
    let count = text.chars().count();
    if count <= 40 {
        return Ok(text);
    }
    let head: String = text.chars().take(12).collect();
    let tail: String = text.chars().skip(count - 6).collect();
    Ok(format!("{head}…{tail} ({count} characters)"))
}

/// A value's type as a message names it: `bool`, `float`, `NoneType`.
pub(crate) fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "an unknown type".to_string(), |n| n.to_string())
}
