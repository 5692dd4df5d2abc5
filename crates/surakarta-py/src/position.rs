//! `Move`, `Position`, squares and `perft`.

use crate::args;
use crate::color::color_name;
use crate::errors::{bad_position, move_error, InvalidNotationError};
use crate::outcome::PyOutcome;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyString, PyType};
use std::collections::HashSet;
use std::fmt::Write;
use surakarta::capture_path::capture_paths;
use surakarta::{svg, Color, Move, MoveText, Position, Square, Symmetry};

/// The name of a square index (`0` → `"a1"`, `35` → `"f6"`).
#[pyfunction]
pub(crate) fn square_name(square: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(args::square(square, "square")?.to_string())
}

/// The index of a square's name (`"a1"` → `0`, `"f6"` → `35`): `6 * rank + file`.
#[pyfunction]
pub(crate) fn parse_square(name: &str) -> PyResult<usize> {
    name.parse()
        .map(Square::index)
        .map_err(|e: surakarta::ParseSquareError| InvalidNotationError::new_err(e.to_string()))
}

/// A move: a step (`b2-c3`) or a capture (`b2xe5`), from one square to
/// another. `Move("b2-c3")` reads one; `str(move)` writes it back.
#[pyclass(name = "Move", module = "surakarta", frozen)]
#[derive(Clone, Copy)]
pub(crate) struct PyMove {
    pub(crate) inner: Move,
}

#[pymethods]
impl PyMove {
    /// Reads a move written `b2-c3` (a step) or `b2xe5` (a capture). Text
    /// without the separator (`b2c3`) names a move only in a position: use
    /// `Position.parse_move`.
    #[new]
    fn new(text: &str) -> PyResult<PyMove> {
        let written = read_move_text(text)?;
        let inner = match written.capture {
            Some(true) => Move::capture(written.from, written.to),
            Some(false) => Move::step(written.from, written.to),
            None => {
                return Err(InvalidNotationError::new_err(format!(
                    "move text {} does not say whether it is a step (-) or a capture (x): use Position.parse_move",
                    surakarta::Excerpt::new(text)
                )))
            }
        };
        Ok(PyMove { inner })
    }

    /// The move written `b2-c3` or `b2xe5`, as the engine protocol writes
    /// moves: python-chess's `Move.from_uci`, the same as `Move(text)`.
    #[staticmethod]
    fn from_uci(text: &str) -> PyResult<PyMove> {
        PyMove::new(text)
    }

    /// The move as the engine protocol writes it (`b2-c3`, `b2xe5`), the
    /// same as `str(move)`: python-chess's `Move.uci()`.
    fn uci(&self) -> String {
        self.inner.to_string()
    }

    /// A step from one square to a neighbouring one.
    #[staticmethod]
    fn step(from_square: &Bound<'_, PyAny>, to_square: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        Ok(PyMove {
            inner: Move::step(
                args::square(from_square, "from_square")?,
                args::square(to_square, "to_square")?,
            ),
        })
    }

    /// A capture from one square to another along a circuit.
    #[staticmethod]
    fn capture(from_square: &Bound<'_, PyAny>, to_square: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        Ok(PyMove {
            inner: Move::capture(
                args::square(from_square, "from_square")?,
                args::square(to_square, "to_square")?,
            ),
        })
    }

    /// The origin square's index (0 = a1 … 35 = f6).
    #[getter(from_square)]
    fn origin(&self) -> usize {
        self.inner.from().index()
    }

    /// The target square's index (0 = a1 … 35 = f6).
    #[getter(to_square)]
    fn target(&self) -> usize {
        self.inner.to().index()
    }

    /// Whether the move is a capture.
    #[getter]
    fn is_capture(&self) -> bool {
        self.inner.is_capture()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.inner)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyMove>()
            .is_ok_and(|o| o.inner == self.inner)
    }

    fn __hash__(&self) -> u64 {
        u64::from(self.inner.to_bits())
    }
}

/// A move given as a `Move` or as text.
pub(crate) enum MoveArg {
    /// A `Move`.
    Move(PyMove),
    /// Text: `b2-c3`, `b2xe5` or `b2c3`.
    Text(String),
}

impl MoveArg {
    /// The argument `move` (taken as an object, since the name is a Rust
    /// keyword that Python's messages would show as `r#move`): a `Move` or
    /// a move's text; `TypeError` for anything else.
    pub(crate) fn read(value: &Bound<'_, PyAny>) -> PyResult<MoveArg> {
        if let Ok(m) = value.downcast::<PyMove>() {
            return Ok(MoveArg::Move(*m.get()));
        }
        if let Ok(text) = value.downcast::<PyString>() {
            return Ok(MoveArg::Text(text.to_cow()?.into_owned()));
        }
        Err(args::wrong_type_of(
            "move",
            value,
            "a Move or a move's text (str)",
        ))
    }

    /// The legal move of `position` this names, or the error saying why not.
    pub(crate) fn legal_in(&self, position: &Position) -> PyResult<Move> {
        match self {
            MoveArg::Move(m) => position
                .check_move(MoveText {
                    from: m.inner.from(),
                    to: m.inner.to(),
                    capture: Some(m.inner.is_capture()),
                })
                .map_err(move_error),
            MoveArg::Text(text) => position.parse_move(text).map_err(move_error),
        }
    }
}

/// Reads a position's notation.
pub(crate) fn parse_position(text: &str) -> PyResult<Position> {
    text.parse().map_err(|e| bad_position(text, e))
}

/// The Python class `surakarta.MoveList`, imported once.
static MOVE_LIST: GILOnceCell<Py<PyType>> = GILOnceCell::new();

/// Moves as a `surakarta.MoveList`: a fixed sequence of `Move` with
/// python-chess's `count()`, in which `in` also takes a move's text.
pub(crate) fn move_list(
    py: Python<'_>,
    moves: impl IntoIterator<Item = Move>,
) -> PyResult<Bound<'_, PyAny>> {
    MOVE_LIST
        .import(py, "surakarta._movelist", "MoveList")?
        .call1((moves_of(moves),))
}

/// The squares and kind (`True` capture, `False` step, `None` not said) of
/// a move's text, for `MoveList`; `InvalidNotationError` for text that is
/// not a move.
#[pyfunction]
pub(crate) fn _move_text(text: &str) -> PyResult<(usize, usize, Option<bool>)> {
    let written = read_move_text(text)?;
    Ok((written.from.index(), written.to.index(), written.capture))
}

/// Reads a move's text (`b2-c3`, `b2xe5` or `b2c3`) without a position;
/// `InvalidNotationError` for text that is not a move.
fn read_move_text(text: &str) -> PyResult<MoveText> {
    text.parse().map_err(|error| {
        move_error(surakarta::MoveError::Syntax {
            text: surakarta::Excerpt::new(text),
            error,
        })
    })
}

/// The board as text: rank 6 at the top, `b`, `w` and `.` for the points.
pub(crate) fn board_text(position: &Position) -> String {
    let mut out = String::new();
    for rank in (0..6).rev() {
        let _ = write!(out, "{} ", rank + 1);
        for file in 0..6 {
            let sq = Square::from_xy(file, rank).unwrap_or(Square::ALL[0]);
            let piece = position.piece_at(sq).map_or('.', Color::char);
            let _ = write!(out, " {piece} ");
        }
        out = out.trim_end().to_string();
        out.push('\n');
    }
    out.push_str("   a  b  c  d  e  f\n");
    out
}

/// Moves as a Python list of `Move`.
pub(crate) fn moves_of(moves: impl IntoIterator<Item = Move>) -> Vec<PyMove> {
    moves.into_iter().map(|inner| PyMove { inner }).collect()
}

/// A position: where the pieces stand, whose move it is, the no-capture
/// count and the move number. Immutable (play moves with `after` or on a
/// `Game`); `str(position)` is its notation.
#[pyclass(name = "Position", module = "surakarta", frozen)]
#[derive(Clone, Copy)]
pub(crate) struct PyPosition {
    pub(crate) inner: Position,
}

#[pymethods]
impl PyPosition {
    /// The position written in `notation` (docs/notation.md; or a
    /// `Position`, or a `Game` for its current position), or the start
    /// position if none is given.
    #[new]
    #[pyo3(signature = (notation = None))]
    fn new(notation: Option<&Bound<'_, PyAny>>) -> PyResult<PyPosition> {
        let Some(given) = notation.filter(|n| !n.is_none()) else {
            return Ok(PyPosition {
                inner: Position::new(),
            });
        };
        if let Ok(p) = given.downcast::<PyPosition>() {
            return Ok(PyPosition {
                inner: p.get().inner,
            });
        }
        if let Ok(text) = given.downcast::<PyString>() {
            return Ok(PyPosition {
                inner: parse_position(&text.to_cow()?)?,
            });
        }
        // A `Game` (defined above this module) through its `position`.
        if let Some(p) = given
            .getattr("position")
            .ok()
            .filter(|_| args::type_name(given) == "Game")
            .and_then(|p| p.downcast::<PyPosition>().ok().map(|p| p.get().inner))
        {
            return Ok(PyPosition { inner: p });
        }
        Err(args::wrong_type_of("notation", given, args::POSITION_TYPES))
    }

    /// The legal moves, captures and steps, as a `MoveList`
    /// (python-chess's `legal_moves`: `count()`, `len()`, and `in` with a
    /// `Move` or its text, `"b2-b3" in position.legal_moves`).
    #[getter]
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        move_list(py, self.inner.legal_moves())
    }

    /// The legal captures, as a `MoveList`.
    #[getter]
    fn captures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        move_list(py, self.inner.captures())
    }

    /// The notation of the position (docs/notation.md), which
    /// `Position(text)` reads back: python-chess's `Board.fen()`.
    fn fen(&self) -> String {
        self.inner.to_string()
    }

    /// The same position (positions are immutable, so this is only for
    /// code written for python-chess's `Board.copy()`).
    fn copy(&self) -> PyPosition {
        *self
    }

    fn __copy__(&self) -> PyPosition {
        *self
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyPosition {
        *self
    }

    /// Whether the game is over here under the pure rules (a side has no
    /// pieces or no moves); repetitions and the no-capture limit need a `Game`.
    fn is_game_over(&self) -> bool {
        self.inner.outcome().is_some()
    }

    /// The side to move: `"black"` or `"white"`.
    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.inner.turn())
    }

    /// Plies since the last capture.
    #[getter]
    fn halfmoves(&self) -> u32 {
        self.inner.halfmoves()
    }

    /// The move number (1 at the start; it grows after White moves).
    #[getter]
    fn fullmoves(&self) -> u32 {
        self.inner.fullmoves()
    }

    /// The Zobrist hash of the position (placement and side to move).
    #[getter]
    fn zobrist(&self) -> u64 {
        self.inner.zobrist()
    }

    /// The squares (indices 0 = a1 … 35 = f6) of a side's pieces.
    fn pieces(&self, color: &str) -> PyResult<HashSet<usize>> {
        let color = args::color(color, "color")?;
        Ok(self.inner.pieces(color).iter().map(Square::index).collect())
    }

    /// A side's pieces as a 36-bit integer: bit `i` is square `i`.
    fn pieces_mask(&self, color: &str) -> PyResult<u64> {
        Ok(self.inner.pieces(args::color(color, "color")?).bits())
    }

    /// The side whose piece stands on `square`, or `None` if it is empty.
    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<&'static str>> {
        Ok(self
            .inner
            .piece_at(args::square(square, "square")?)
            .map(color_name))
    }

    /// The legal move `text` names (`b2-c3`, `b2xe5`, or `b2c3` without the
    /// separator); `InvalidNotationError` or `IllegalMoveError` otherwise.
    fn parse_move(&self, text: &str) -> PyResult<PyMove> {
        let inner = self.inner.parse_move(text).map_err(move_error)?;
        Ok(PyMove { inner })
    }

    /// The legal move `text` names, the same as `parse_move`:
    /// python-chess's `Board.parse_uci()`.
    fn parse_uci(&self, text: &str) -> PyResult<PyMove> {
        self.parse_move(text)
    }

    /// Whether `move` (a `Move` or text) is legal here. Text that is not a
    /// move at all raises `InvalidNotationError`.
    #[pyo3(signature = (r#move))]
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let written = match MoveArg::read(r#move)? {
            MoveArg::Move(m) => MoveText {
                from: m.inner.from(),
                to: m.inner.to(),
                capture: Some(m.inner.is_capture()),
            },
            MoveArg::Text(text) => read_move_text(&text)?,
        };
        Ok(self.inner.check_move(written).is_ok())
    }

    /// The position after `move` (a `Move` or text); `IllegalMoveError` if
    /// it is not legal here.
    #[pyo3(signature = (r#move))]
    fn after(&self, r#move: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        let m = MoveArg::read(r#move)?.legal_in(&self.inner)?;
        Ok(PyPosition {
            inner: self.inner.after(m),
        })
    }

    /// How the game has ended here under the pure rules (a side with no
    /// pieces or no moves has lost), or `None`; repetitions and the
    /// no-capture limit need a `Game`.
    fn outcome(&self) -> Option<PyOutcome> {
        self.inner.outcome().map(PyOutcome::from)
    }

    /// The position under each of the 8 symmetries of the board, by name
    /// (`"id"` first).
    fn symmetries<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for sym in Symmetry::ALL {
            let p = PyPosition {
                inner: self.inner.transformed(sym),
            };
            out.set_item(sym.name(), p)?;
        }
        Ok(out)
    }

    /// The board as text: rank 6 at the top, `b`, `w` and `.` for the
    /// points, the files and ranks named; `print(position)` shows it.
    fn board(&self) -> String {
        board_text(&self.inner)
    }

    /// The board as an SVG picture with both circuits, as `surakarta show
    /// --svg` draws it; with `move`, that legal move is marked (a capture
    /// with the way it travels).
    #[pyo3(signature = (r#move = None))]
    fn svg(&self, r#move: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let Some(arg) = r#move.filter(|m| !m.is_none()) else {
            return Ok(svg::board(&self.inner, None, None, &self.inner.to_string()));
        };
        let m = MoveArg::read(arg)?.legal_in(&self.inner)?;
        let path = if m.is_capture() {
            capture_paths(&self.inner, m.from(), m.to())
                .into_iter()
                .next()
        } else {
            None
        };
        let title = format!("{}, highlighted move {m}", self.inner);
        Ok(svg::board(&self.inner, Some(m), path.as_ref(), &title))
    }

    /// The SVG picture, for Jupyter.
    fn _repr_svg_(&self) -> String {
        svg::board(&self.inner, None, None, &self.inner.to_string())
    }

    fn __str__(&self) -> String {
        board_text(&self.inner).trim_end().to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.inner)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyPosition>()
            .is_ok_and(|o| o.inner == self.inner)
    }

    fn __hash__(&self) -> u64 {
        self.inner.zobrist()
    }
}
