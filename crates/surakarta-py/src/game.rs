//! `Rules` and `Game`.

use crate::args::{
    self, wrong_type_of, NO_CAPTURE_PLIES, PERFT_DEPTH, POSITION_TYPES, REPETITIONS,
};
use crate::color::color_name;
use crate::errors::{game_error, move_error, InvalidNotationError};
use crate::outcome::PyOutcome;
use crate::position::parse_position;
use crate::position::{board_text, move_list, moves_of, MoveArg, PyMove, PyPosition};
use crate::record_text;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyAny;
use pyo3::types::{PyIterator, PyList, PyString};
use surakarta::{Game, Position, Rules};

/// A rule set: when a game ends besides a side having no pieces or no
/// moves. `Rules.icga()` (threefold repetition, 50 plies without a
/// capture), `Rules.pku()`, `Rules.pure()` (neither), or custom limits with
/// `Rules(repetitions=3, no_capture_plies=50)`; `Rules.parse("icga")` reads
/// the CLI's `--rules` text.
#[pyclass(name = "Rules", module = "surakarta", frozen)]
#[derive(Clone, Copy)]
pub(crate) struct PyRules {
    pub(crate) inner: Rules,
}

#[pymethods]
impl PyRules {
    /// Custom limits: the game is adjudicated (more pieces wins) when a
    /// position occurs `repetitions` times (at least 2) or after
    /// `no_capture_plies` plies without a capture (at least 1); `None` for
    /// no such limit. The bounds are those of the CLI's `--rules`.
    #[new]
    #[pyo3(signature = (repetitions = None, no_capture_plies = None))]
    fn new(
        repetitions: Option<&Bound<'_, PyAny>>,
        no_capture_plies: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyRules> {
        Rules::new(
            REPETITIONS.read_optional(repetitions)?,
            NO_CAPTURE_PLIES.read_optional(no_capture_plies)?,
        )
        .map(|inner| PyRules { inner })
        .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The ICGA tournament rules: threefold repetition, 50 plies without a capture.
    #[staticmethod]
    fn icga() -> PyRules {
        PyRules { inner: Rules::ICGA }
    }

    /// The PKU rules (docs/rules.md).
    #[staticmethod]
    fn pku() -> PyRules {
        PyRules { inner: Rules::PKU }
    }

    /// The pure rules: no repetition or no-capture limit.
    #[staticmethod]
    fn pure() -> PyRules {
        PyRules { inner: Rules::PURE }
    }

    /// Reads the CLI's `--rules` text: `icga`, `pku`, `pure`, or a list like
    /// `repetitions=3,no-capture=50`.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<PyRules> {
        text.parse()
            .map(|inner| PyRules { inner })
            .map_err(|e: surakarta::ParseRulesError| InvalidNotationError::new_err(e.to_string()))
    }

    /// How many occurrences of a position end the game, or `None`.
    #[getter]
    fn repetitions(&self) -> Option<u32> {
        self.inner.repetitions()
    }

    /// How many plies without a capture end the game, or `None`.
    #[getter]
    fn no_capture_plies(&self) -> Option<u32> {
        self.inner.no_capture_plies()
    }

    /// `"icga"`, `"pku"` or `"pure"` for a preset, else `None`.
    #[getter]
    fn name(&self) -> Option<&'static str> {
        self.inner.preset_name()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Rules.parse('{}')", self.inner)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRules>()
            .is_ok_and(|o| o.inner == self.inner)
    }

    fn __hash__(&self) -> u64 {
        let r = u64::from(self.inner.repetitions().unwrap_or(0));
        let n = u64::from(self.inner.no_capture_plies().unwrap_or(0));
        (r << 32) | n
    }
}

/// A rule set given as `Rules` or as text (`"icga"`).
pub(crate) enum RulesArg {
    /// A `Rules`.
    Rules(PyRules),
    /// Text for `Rules.parse`.
    Text(String),
}

impl<'py> FromPyObject<'py> for RulesArg {
    fn extract_bound(value: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(r) = value.downcast::<PyRules>() {
            return Ok(RulesArg::Rules(*r.get()));
        }
        if let Ok(text) = value.downcast::<PyString>() {
            return Ok(RulesArg::Text(text.to_cow()?.into_owned()));
        }
        Err(args::wrong_type(
            value,
            "a Rules or a rule set's text (str: \"icga\", \"pku\", \"pure\", \"repetitions=3,no-capture=50\")",
        ))
    }
}

impl RulesArg {
    /// The rules (ICGA if none are given).
    pub(crate) fn rules(arg: Option<RulesArg>) -> PyResult<Rules> {
        match arg {
            None => Ok(Rules::ICGA),
            Some(RulesArg::Rules(r)) => Ok(r.inner),
            Some(RulesArg::Text(t)) => PyRules::parse(&t).map(|r| r.inner),
        }
    }
}

/// A game: a start position, the moves played, and the rules that decide
/// when it ends. `push` plays a move, `pop` takes one back.
#[pyclass(name = "Game", module = "surakarta")]
pub(crate) struct PyGame {
    pub(crate) inner: Game,
}

#[pymethods]
impl PyGame {
    /// A game from `position` (a `Position`, position text, or a `Game`
    /// whose current position starts the new game; default the start)
    /// under `rules` (a `Rules` or its text; default ICGA).
    #[new]
    #[pyo3(signature = (position = None, rules = None))]
    fn new(position: Option<&Bound<'_, PyAny>>, rules: Option<RulesArg>) -> PyResult<PyGame> {
        let start = match PositionArg::read_optional(position, "position")? {
            Some(p) => p.position()?,
            None => Position::new(),
        };
        Ok(PyGame {
            inner: Game::new(start, RulesArg::rules(rules)?),
        })
    }

    /// Plays `move` (a `Move` or text) and returns it; `IllegalMoveError` if
    /// it is not legal or the game is over.
    #[pyo3(signature = (r#move))]
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let m = match MoveArg::read(r#move)? {
            MoveArg::Move(m) => {
                self.inner.play(m.inner).map_err(game_error)?;
                m.inner
            }
            MoveArg::Text(text) => self.inner.play_text(&text).map_err(game_error)?,
        };
        Ok(PyMove { inner: m })
    }

    /// Plays the move written `uci` (`b2-c3`, `b2xe5`, or `b2c3` without
    /// the separator) and returns it, as python-chess's `Board.push_uci`:
    /// `InvalidNotationError` for text that is not a move,
    /// `IllegalMoveError` if it is not legal or the game is over (both are
    /// `ValueError`s).
    fn push_uci(&mut self, uci: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let text = uci
            .downcast::<PyString>()
            .map_err(|_| args::wrong_type_of("uci", uci, "a move's text (str)"))?
            .to_cow()?;
        let inner = self.inner.play_text(&text).map_err(game_error)?;
        Ok(PyMove { inner })
    }

    /// The legal move now that `text` names (`b2-c3`, `b2xe5` or `b2c3`),
    /// without playing it: python-chess's `Board.parse_uci`.
    /// `IllegalMoveError` once the game is over.
    fn parse_uci(&self, text: &str) -> PyResult<PyMove> {
        if let Some(outcome) = self.inner.outcome() {
            return Err(game_error(surakarta::GameError::GameOver(outcome)));
        }
        let inner = self.inner.position().parse_move(text).map_err(move_error)?;
        Ok(PyMove { inner })
    }

    /// The last move played, left in the game: python-chess's
    /// `Board.peek()`; `IndexError` at the start.
    fn peek(&self) -> PyResult<PyMove> {
        self.inner
            .moves()
            .last()
            .map(|&inner| PyMove { inner })
            .ok_or_else(|| PyIndexError::new_err("peek at a game with no moves"))
    }

    /// Takes back the last move and returns it; `IndexError` at the start.
    fn pop(&mut self) -> PyResult<PyMove> {
        self.inner
            .undo()
            .map(|inner| PyMove { inner })
            .ok_or_else(|| PyIndexError::new_err("pop from a game with no moves"))
    }

    /// The rules.
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules {
            inner: self.inner.rules(),
        }
    }

    /// The start position.
    #[getter]
    fn start(&self) -> PyPosition {
        PyPosition {
            inner: *self.inner.start(),
        }
    }

    /// The current position.
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition {
            inner: *self.inner.position(),
        }
    }

    /// The moves played, in order.
    #[getter]
    fn moves(&self) -> Vec<PyMove> {
        moves_of(self.inner.moves().iter().copied())
    }

    /// The moves played, in order (the same as `moves`): python-chess's
    /// `Board.move_stack`.
    #[getter]
    fn move_stack(&self) -> Vec<PyMove> {
        self.moves()
    }

    /// Every position of the game, the start first and the current last.
    #[getter]
    fn positions(&self) -> Vec<PyPosition> {
        self.inner
            .positions()
            .iter()
            .map(|&inner| PyPosition { inner })
            .collect()
    }

    /// How often the current position has occurred.
    #[getter]
    fn repetitions(&self) -> u32 {
        self.inner.repetitions()
    }

    /// The legal moves now (none once the game is over), as a `MoveList`
    /// (python-chess's `legal_moves`: `count()`, `len()`, and `in` with a
    /// `Move` or its text, `"b2-b3" in game.legal_moves`).
    #[getter]
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        move_list(py, self.inner.legal_moves())
    }

    /// The side to move: `"black"` or `"white"`.
    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.inner.position().turn())
    }

    /// The notation of the current position: python-chess's `Board.fen()`.
    fn fen(&self) -> String {
        self.inner.position().to_string()
    }

    /// How the game has ended, or `None` while it goes on.
    fn outcome(&self) -> Option<PyOutcome> {
        self.inner.outcome().map(PyOutcome::from)
    }

    /// Whether the game has ended.
    fn is_over(&self) -> bool {
        self.inner.is_over()
    }

    /// Whether the game has ended (the same as `is_over`): python-chess's
    /// `Board.is_game_over()`.
    fn is_game_over(&self) -> bool {
        self.inner.is_over()
    }

    /// The game as a record (docs/notation.md): the `tags` given (a mapping
    /// of names to text, such as `{"Event": "Club"}`), then `Rules`,
    /// `Start`, `Result` and, once the game is over, `Termination`; the
    /// moves numbered. `Game.from_record` and `read_records` read it back;
    /// `ValueError` naming the limit for a record they would refuse (more
    /// than 1,000 tags, say).
    #[pyo3(signature = (tags = None))]
    fn record(&self, tags: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        record_text::record_text(&record_text::record_of(&self.inner, tags)?)
    }

    /// The game of a record's text holding exactly one game (what
    /// `Game.record()` writes); `InvalidNotationError` naming the line for
    /// text that is not one record (an illegal move included). Its tags
    /// are kept by `parse_records`.
    #[staticmethod]
    fn from_record(text: &str) -> PyResult<PyGame> {
        Ok(PyGame {
            inner: record_text::game_of_text(text)?,
        })
    }

    /// A copy of the game.
    fn copy(&self) -> PyGame {
        PyGame {
            inner: self.inner.clone(),
        }
    }

    fn __copy__(&self) -> PyGame {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.copy()
    }

    /// Whether `other` is a `Game` with the same rules, start and moves.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        match other.downcast::<PyGame>() {
            Ok(o) => Ok(o.try_borrow()?.inner == self.inner),
            Err(_) => Ok(false),
        }
    }

    /// The number of moves played.
    fn __len__(&self) -> usize {
        self.inner.moves().len()
    }

    /// The moves played, in order (`for move in game`).
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        PyList::new(py, moves_of(self.inner.moves().iter().copied()))?.try_iter()
    }

    /// The board of the current position, as `print(game.position)` draws it.
    fn __str__(&self) -> String {
        board_text(self.inner.position()).trim_end().to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Game {} moves, rules {}, at '{}'>",
            self.inner.moves().len(),
            self.inner.rules(),
            self.inner.position()
        )
    }
}

/// A position argument: a `Position`, a `Game` (its current position; the
/// whole game where its history counts, as in a search) or position text
/// (docs/notation.md). Every function and method that takes a position
/// reads it here, so all take the same things and say the same when given
/// something else.
pub(crate) enum PositionArg<'py> {
    /// A `Position`.
    Position(Position),
    /// A `Game`.
    Game(Bound<'py, PyGame>),
    /// Position text, read when the position is asked for.
    Text(String),
}

impl<'py> PositionArg<'py> {
    /// The argument `name`: `TypeError` (`position must be a Position, a
    /// Game or position text, not int`) for anything else.
    pub(crate) fn read(value: &Bound<'py, PyAny>, name: &str) -> PyResult<PositionArg<'py>> {
        if let Ok(p) = value.downcast::<PyPosition>() {
            return Ok(PositionArg::Position(p.get().inner));
        }
        if let Ok(game) = value.downcast::<PyGame>() {
            return Ok(PositionArg::Game(game.clone()));
        }
        if let Ok(text) = value.downcast::<PyString>() {
            return Ok(PositionArg::Text(text.to_cow()?.into_owned()));
        }
        Err(wrong_type_of(name, value, POSITION_TYPES))
    }

    /// [`read`](PositionArg::read) for an argument that may be left out
    /// (`None`).
    pub(crate) fn read_optional(
        value: Option<&Bound<'py, PyAny>>,
        name: &str,
    ) -> PyResult<Option<PositionArg<'py>>> {
        value
            .filter(|v| !v.is_none())
            .map(|v| PositionArg::read(v, name))
            .transpose()
    }

    /// The position (a game's current one); `InvalidNotationError` for
    /// text that is not a position.
    pub(crate) fn position(&self) -> PyResult<Position> {
        match self {
            PositionArg::Position(p) => Ok(*p),
            PositionArg::Game(game) => Ok(*game.try_borrow()?.inner.position()),
            PositionArg::Text(text) => parse_position(text),
        }
    }

    /// The game to search: a `Game` as it is (its history counts for
    /// repetitions, its rules decide the end), a position as a new game
    /// under `rules`.
    pub(crate) fn game(&self, rules: Rules) -> PyResult<Game> {
        match self {
            PositionArg::Game(game) => Ok(game.try_borrow()?.inner.clone()),
            other => Ok(Game::new(other.position()?, rules)),
        }
    }
}

/// A sequence of positions (a list, a tuple, any iterable), each read by
/// [`PositionArg`]: `TypeError` for text or anything not iterable, and for
/// an item that is not a position, naming it (`positions[3] must be …`).
pub(crate) fn positions(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<Position>> {
    let what = "a sequence of positions (Position, Game or position text)";
    if value.is_instance_of::<PyString>() {
        return Err(wrong_type_of(name, value, what));
    }
    let items = value
        .try_iter()
        .map_err(|_| wrong_type_of(name, value, what))?;
    items
        .enumerate()
        .map(|(i, item)| PositionArg::read(&item?, &format!("{name}[{i}]"))?.position())
        .collect()
}

/// The number of move sequences of `depth` plies (1 to 12, as `surakarta
/// perft` takes it) from `position` (a `Position`, a `Game` or position
/// text). The GIL is released while it counts.
#[pyfunction]
pub(crate) fn perft(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    depth: &Bound<'_, PyAny>,
) -> PyResult<u64> {
    let position = PositionArg::read(position, "position")?.position()?;
    let depth: u32 = PERFT_DEPTH.read(depth)?;
    Ok(py.allow_threads(|| surakarta::perft(&position, depth)))
}
