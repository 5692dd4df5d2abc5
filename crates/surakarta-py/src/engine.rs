//! `Engine` and its answers: `Score`, `SearchInfo`, `SearchResult`, and
//! python-chess's shapes of them: `PlayResult` (`Engine.play`) and the info
//! dictionary (`Engine.analyse`).

use crate::args::{self, HASH, LEVEL, LEVEL_SEED, MULTIPV, THREADS};
use crate::game::RulesArg;
use crate::game::{PositionArg, PyGame};
use crate::limit::{movetime_removed, PyLimit};
use crate::position::{moves_of, PyMove};
use crate::records::PyRecord;
use crate::tables::PyTablebase;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::panic::PanicException;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use surakarta::{Game, GameRecord, Rules};
use surakarta_match::analysis::{analyse_game, annotate, Eval, GameAnalysis, Summary};
use surakarta_search::{
    Engine, Evaluation, EvaluationChoiceError, Info, Limits, Line, Options, ParameterError, Score,
    SearchParameters, SearchResult,
};
use surakarta_tablebase::Tablebase;

/// How often a search checks for Ctrl-C (and other signals).
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// A score for the side to move: `kind` is `"cp"` (an evaluation, `value`
/// in hundredths of a piece), `"win"`/`"loss"` (the game ends in `value`
/// plies) or `"tbwin"`/`"tbloss"` (the tables say so, converting in `value`
/// plies). `str(score)` is the protocol's form, `cp 35`.
#[pyclass(name = "Score", module = "surakarta", frozen, get_all)]
#[derive(Clone)]
pub(crate) struct PyScore {
    /// `"cp"`, `"win"`, `"loss"`, `"tbwin"` or `"tbloss"`.
    kind: &'static str,
    /// The evaluation or the number of plies.
    value: i64,
    /// The protocol's text.
    text: String,
}

impl From<Score> for PyScore {
    fn from(score: Score) -> PyScore {
        let (kind, value) = score.kind().parts();
        PyScore {
            kind,
            value,
            text: score.to_string(),
        }
    }
}

#[pymethods]
impl PyScore {
    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        format!("<Score {}>", self.text)
    }
}

/// One finished iteration of a search, as passed to the callback.
#[pyclass(name = "SearchInfo", module = "surakarta", frozen, get_all)]
pub(crate) struct PySearchInfo {
    /// The depth searched, in plies.
    depth: u32,
    /// The deepest ply reached.
    seldepth: u32,
    /// The score of the best line.
    score: PyScore,
    /// Nodes searched so far.
    nodes: u64,
    /// Nodes per second.
    nps: u64,
    /// Seconds since the search started.
    time: f64,
    /// The best line.
    pv: Vec<PyMove>,
    /// Transposition table use, per mille.
    hashfull: u32,
    /// Tablebase probes that answered.
    tb_hits: u64,
    /// Whether the iteration was stopped before every root move was
    /// searched (`pv` is then the best line among the moves that finished
    /// and `score` a lower bound).
    partial: bool,
}

impl From<&Info> for PySearchInfo {
    fn from(info: &Info) -> PySearchInfo {
        PySearchInfo {
            depth: info.depth,
            seldepth: info.seldepth,
            score: info.score.into(),
            nodes: info.nodes,
            nps: info.nps,
            time: info.elapsed.as_secs_f64(),
            pv: moves_of(info.pv.iter().copied()),
            hashfull: info.hashfull,
            tb_hits: info.tb_hits,
            partial: info.partial,
        }
    }
}

#[pymethods]
impl PySearchInfo {
    fn __repr__(&self) -> String {
        format!(
            "<SearchInfo depth {} score {} nodes {}>",
            self.depth, self.score.text, self.nodes
        )
    }
}

/// What a search found: the best move (`None` if the game is over), its
/// score, the principal variation and the figures of the last iteration.
#[pyclass(name = "SearchResult", module = "surakarta", frozen, get_all)]
pub(crate) struct PySearchResult {
    /// The move to play, or `None` if there is none.
    best_move: Option<PyMove>,
    /// The score for the side to move.
    score: PyScore,
    /// The principal variation, the best move first.
    pv: Vec<PyMove>,
    /// The depth of the last iteration (a stopped one if `partial`).
    depth: u32,
    /// Whether the last iteration was stopped before every root move was
    /// searched: the move is the best of those that finished.
    partial: bool,
    /// The deepest ply reached.
    seldepth: u32,
    /// Nodes searched.
    nodes: u64,
    /// Nodes per second.
    nps: u64,
    /// Seconds the search took.
    time: f64,
    /// Tablebase probes that answered.
    tb_hits: u64,
    /// Tablebase probes that failed (a damaged table; run `surakarta tb verify`).
    tb_errors: u64,
}

impl From<SearchResult> for PySearchResult {
    fn from(result: SearchResult) -> PySearchResult {
        let info = &result.info;
        PySearchResult {
            best_move: result.best_move.map(|inner| PyMove { inner }),
            score: info.score.into(),
            pv: moves_of(info.pv.iter().copied()),
            depth: info.depth,
            partial: info.partial,
            seldepth: info.seldepth,
            nodes: info.nodes,
            nps: info.nps,
            time: info.elapsed.as_secs_f64(),
            tb_hits: info.tb_hits,
            tb_errors: result.tb_errors,
        }
    }
}

#[pymethods]
impl PySearchResult {
    fn __repr__(&self) -> String {
        let best = self
            .best_move
            .map_or("None".to_string(), |m| m.inner.to_string());
        format!(
            "<SearchResult best_move {best} score {} depth {} nodes {}>",
            self.score.text, self.depth, self.nodes
        )
    }
}

/// Tables given as a `Tablebase` or a directory (`tables=`), or none.
fn tables_arg(
    py: Python<'_>,
    tables: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Arc<Tablebase>>> {
    match tables {
        None => Ok(None),
        Some(t) if t.is_none() => Ok(None),
        Some(t) => match t.downcast::<PyTablebase>() {
            Ok(tb) => Ok(Some(Arc::clone(&tb.get().inner))),
            Err(_) => Ok(Some(PyTablebase::open(py, args::path(t, "tables")?)?.inner)),
        },
    }
}

/// What `search`, `play` and `analyse` were given: the game to search (a
/// position, position text or a `Game`) and the limits (a `Limit` or the
/// keywords), read in one place.
struct Given<'py> {
    /// The position argument.
    position: PositionArg<'py>,
    /// The limits, checked.
    limits: Limits,
}

impl<'py> Given<'py> {
    /// Reads the arguments of the method `method`: `TypeError` for a
    /// position or limit of the wrong type or an unknown keyword (`movetime`
    /// named as seconds here), `ValueError` for a limit out of range or a
    /// `Limit` given with keywords.
    fn read(
        method: &str,
        position: &Bound<'py, PyAny>,
        limit: Option<&Bound<'_, PyAny>>,
        time: Option<&Bound<'_, PyAny>>,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        unknown: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Given<'py>> {
        if let Some((key, _)) = unknown.and_then(|kwargs| kwargs.iter().next()) {
            let key: String = key.extract()?;
            return Err(PyTypeError::new_err(if key == "movetime" {
                movetime_removed(method)
            } else {
                format!("{method}() got an unexpected keyword argument '{key}'")
            }));
        }
        let position = PositionArg::read(position, "position")?;
        let limits = read_limits(limit, time, depth, nodes)?;
        Ok(Given { position, limits })
    }
}

/// The limits given as a `Limit` or as the keywords `time`, `depth`,
/// `nodes` (not both).
fn read_limits(
    limit: Option<&Bound<'_, PyAny>>,
    time: Option<&Bound<'_, PyAny>>,
    depth: Option<&Bound<'_, PyAny>>,
    nodes: Option<&Bound<'_, PyAny>>,
) -> PyResult<Limits> {
    let limits = match limit {
        None => PyLimit::checked(time, depth, nodes)?,
        Some(_) if time.is_some() || depth.is_some() || nodes.is_some() => {
            return Err(PyValueError::new_err(
                "give a Limit or the keywords time=, depth=, nodes=, not both",
            ))
        }
        Some(given) => match given.downcast::<PyLimit>() {
            Ok(limit) => *limit.get(),
            Err(_) => {
                return Err(PyTypeError::new_err(format!(
                    "the limit must be a Limit, not {}: write Limit(depth=4), \
                         Limit(time=0.5) (seconds) or Limit(nodes=100000), or the keywords \
                         depth=, time=, nodes=",
                    given.repr()?
                )))
            }
        },
    }
    .limits();
    Ok(limits)
}

/// An iteration's figures as python-chess's info dictionary (`InfoDict`):
/// its keys where python-chess has them (`tbhits`, `lowerbound`), the
/// score a `Score` for the side to move; `multipv` numbers the line when
/// several were asked for.
fn info_dict<'py>(
    py: Python<'py>,
    info: &Info,
    multipv: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("score", PyScore::from(info.score))?;
    dict.set_item("pv", moves_of(info.pv.iter().copied()))?;
    dict.set_item("depth", info.depth)?;
    dict.set_item("seldepth", info.seldepth)?;
    dict.set_item("nodes", info.nodes)?;
    dict.set_item("nps", info.nps)?;
    dict.set_item("time", info.elapsed.as_secs_f64())?;
    dict.set_item("hashfull", info.hashfull)?;
    dict.set_item("tbhits", info.tb_hits)?;
    if let Some(k) = multipv {
        dict.set_item("multipv", k)?;
    }
    if info.partial {
        dict.set_item("lowerbound", true)?;
    }
    Ok(dict)
}

/// Line `k` (1 for the best) of an iteration as an info dictionary: the
/// line's own score, depth and principal variation, the iteration's
/// counters (nodes, time, …), shared by its lines.
fn line_dict<'py>(
    py: Python<'py>,
    info: &Info,
    line: &Line,
    k: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = info_dict(py, info, Some(k))?;
    dict.set_item("score", PyScore::from(line.score))?;
    dict.set_item("pv", moves_of(line.pv.iter().copied()))?;
    dict.set_item("depth", line.depth)?;
    if k > 1 {
        // Only line 1 of a stopped iteration is kept unfinished.
        dict.del_item("lowerbound").ok();
    }
    Ok(dict)
}

/// What `Engine.play` answers, as python-chess's `PlayResult`: the move
/// to play (`None` if the game is over), the reply the engine expects
/// (`ponder`, or `None`) and the last iteration's info dictionary.
#[pyclass(name = "PlayResult", module = "surakarta", frozen)]
pub(crate) struct PyPlayResult {
    /// The move to play, or `None` if there is none.
    #[pyo3(get, name = "move")]
    best_move: Option<PyMove>,
    /// The reply expected (the principal variation's second move), or `None`.
    #[pyo3(get)]
    ponder: Option<PyMove>,
    /// The last iteration, as `Engine.analyse` gives it.
    #[pyo3(get)]
    info: Py<PyDict>,
}

#[pymethods]
impl PyPlayResult {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let shown = |m: Option<PyMove>| m.map_or("None".to_string(), |m| m.inner.to_string());
        Ok(format!(
            "<PlayResult (move={}, ponder={}, info={})>",
            shown(self.best_move),
            shown(self.ponder),
            self.info.bind(py).repr()?
        ))
    }
}

/// The search engine: alpha-beta with a transposition table, on `threads`
/// threads with `hash` MiB of table, probing `tables` (a `Tablebase` or a
/// directory) if given, under `rules` (default ICGA) for positions searched
/// without a `Game`.
#[pyclass(name = "Engine", module = "surakarta", frozen)]
pub(crate) struct PyEngine {
    engine: Mutex<Engine>,
    rules: Rules,
    /// The constructor's arguments as `repr` shows them.
    settings: String,
}

#[pymethods]
impl PyEngine {
    /// A new engine; `TypeError` for an argument of the wrong type (a
    /// `bool` for a number included), `ValueError` for a thread count
    /// outside 1 to 1024, a hash size outside 1 to 65536 MiB, an unknown
    /// `eval` (`"classic"`, `"paper"`, `"nnue"`, `"default"`) or an
    /// `eval_file` that is not a valid network file (`.sknn`; it goes with
    /// `eval="nnue"` or no `eval`), or a `level` outside 1 to 11. A `level`
    /// below 10 plays weaker, human-like moves (`surakarta search --level`):
    /// shallower, and chosen among near-best moves by `level_seed` (the same
    /// position and seed give the same move). `parameters` are search
    /// parameters other than the shipped ones, `"name=value,…"` as
    /// `surakarta tune --list` names them (`ValueError` for an unknown name
    /// or a value out of range).
    #[new]
    #[pyo3(signature = (
        threads = None, hash = None, tables = None, rules = None, eval = None, eval_file = None,
        level = None, level_seed = None, parameters = None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        threads: Option<&Bound<'_, PyAny>>,
        hash: Option<&Bound<'_, PyAny>>,
        tables: Option<&Bound<'_, PyAny>>,
        rules: Option<RulesArg>,
        eval: Option<String>,
        eval_file: Option<&Bound<'_, PyAny>>,
        level: Option<&Bound<'_, PyAny>>,
        level_seed: Option<&Bound<'_, PyAny>>,
        parameters: Option<String>,
    ) -> PyResult<PyEngine> {
        let defaults = Options::default();
        let threads: usize = THREADS.read_optional(threads)?.unwrap_or(defaults.threads);
        let hash: usize = HASH.read_optional(hash)?.unwrap_or(defaults.hash_mb);
        let level: Option<u8> = LEVEL.read_optional(level)?;
        let level_seed: u64 = LEVEL_SEED
            .read_optional(level_seed)?
            .unwrap_or(defaults.level_seed);
        let eval_file = args::optional_path(eval_file, "eval_file")?;
        let rules = RulesArg::rules(rules)?;
        let evaluation =
            Evaluation::choose(eval.as_deref(), eval_file.as_deref()).map_err(|e| {
                PyValueError::new_err(match e {
                    EvaluationChoiceError::File(e) => format!("eval_file: {e}"),
                    other => other.to_string(),
                })
            })?;
        let eval_name = evaluation.name();
        let parameters: SearchParameters = parameters
            .as_deref()
            .unwrap_or("")
            .parse()
            .map_err(|e: ParameterError| PyValueError::new_err(format!("parameters: {e}")))?;
        let options = Options {
            threads,
            hash_mb: hash,
            evaluation,
            level,
            level_seed,
            parameters,
            ..defaults
        };
        let tablebase = tables_arg(py, tables)?;
        let mut engine = py
            .allow_threads(|| Engine::new(options))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let tables = match &tablebase {
            None => "None".to_string(),
            Some(tb) => tb.dir().map_or("<Tablebase>".to_string(), |dir| {
                format!("'{}'", dir.display())
            }),
        };
        let level = level.map_or(String::new(), |l| {
            format!(", level={l}, level_seed={level_seed}")
        });
        let parameters = if parameters == SearchParameters::default() {
            String::new()
        } else {
            format!(", parameters='{parameters}'")
        };
        let settings = format!(
            "threads={threads}, hash={hash}, tables={tables}, rules='{rules}', eval='{eval_name}'{level}{parameters}"
        );
        engine.set_tablebase(tablebase);
        Ok(PyEngine {
            engine: Mutex::new(engine),
            rules,
            settings,
        })
    }

    /// Searches `position` (a `Position`, position text, or a `Game`, whose
    /// history counts for repetitions and whose rules decide the end)
    /// within `limit` (a `Limit`), or within the limits given as keywords:
    /// `time` seconds, `depth` plies, about `nodes` nodes (at least one; the
    /// first reached stops it). `callback`, if given, is called with a
    /// `SearchInfo` after each iteration; an exception it raises stops the
    /// search and is raised here. The GIL is released while the engine
    /// thinks; Ctrl-C stops the search and raises `KeyboardInterrupt`.
    #[pyo3(signature = (
        position, limit = None, *, time = None, depth = None, nodes = None, callback = None,
        **unknown
    ))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        limit: Option<&Bound<'_, PyAny>>,
        time: Option<&Bound<'_, PyAny>>,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        callback: Option<Bound<'_, PyAny>>,
        unknown: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PySearchResult> {
        let given = Given::read("search", position, limit, time, depth, nodes, unknown)?;
        Ok(self.run(py, given, callback, 1)?.into())
    }

    /// The move to play in `position` (taken as `search` takes it, with the
    /// same limits and callback), as python-chess's `engine.play` answers:
    /// a `PlayResult` with `move` (`None` if the game is over), `ponder`
    /// (the reply expected, or `None`) and `info` (the last iteration, as
    /// `analyse` gives it).
    #[pyo3(signature = (
        position, limit = None, *, time = None, depth = None, nodes = None, callback = None,
        **unknown
    ))]
    #[allow(clippy::too_many_arguments)]
    fn play(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        limit: Option<&Bound<'_, PyAny>>,
        time: Option<&Bound<'_, PyAny>>,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        callback: Option<Bound<'_, PyAny>>,
        unknown: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyPlayResult> {
        let given = Given::read("play", position, limit, time, depth, nodes, unknown)?;
        let result = self.run(py, given, callback, 1)?;
        let best = result.best_move;
        let ponder = match result.info.pv.as_slice() {
            [first, reply, ..] if Some(*first) == best => Some(PyMove { inner: *reply }),
            _ => None,
        };
        Ok(PyPlayResult {
            best_move: best.map(|inner| PyMove { inner }),
            ponder,
            info: info_dict(py, &result.info, None)?.unbind(),
        })
    }

    /// What the engine thinks of `position` (taken as `search` takes it,
    /// with the same limits and callback), as python-chess's
    /// `engine.analyse` answers: a dictionary with `"score"` (a `Score` for
    /// the side to move), `"pv"`, `"depth"`, `"seldepth"`, `"nodes"`,
    /// `"nps"`, `"time"` (seconds), `"hashfull"`, `"tbhits"`, and
    /// `"lowerbound": True` when the last iteration was stopped early.
    /// With `multipv=K` (1 to 256) the answer is a list of such
    /// dictionaries, one per line, best first, each with `"multipv"` (1 for
    /// the best) and its own `"score"`, `"pv"` and `"depth"` (the counters
    /// are the search's); fewer than K when the position has fewer moves.
    #[pyo3(signature = (
        position, limit = None, *, multipv = None, time = None, depth = None, nodes = None,
        callback = None, **unknown
    ))]
    #[allow(clippy::too_many_arguments)]
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'_, PyAny>,
        limit: Option<&Bound<'_, PyAny>>,
        multipv: Option<&Bound<'_, PyAny>>,
        time: Option<&Bound<'_, PyAny>>,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        callback: Option<Bound<'_, PyAny>>,
        unknown: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let lines: Option<usize> = MULTIPV.read_optional(multipv)?;
        let given = Given::read("analyse", position, limit, time, depth, nodes, unknown)?;
        let result = self.run(py, given, callback, lines.unwrap_or(1))?;
        match lines {
            None => Ok(info_dict(py, &result.info, None)?.into_any()),
            Some(_) => {
                let dicts = result
                    .lines()
                    .iter()
                    .enumerate()
                    .map(|(i, line)| line_dict(py, &result.info, line, i + 1))
                    .collect::<PyResult<Vec<_>>>()?;
                Ok(PyList::new(py, dicts)?.into_any())
            }
        }
    }

    /// Judges every move of `game` (a `Game`, or a `Record`) as `surakarta
    /// analyse` does (docs/cli.md): each position searched once within
    /// `limit` (or the keywords `time`, `depth`, `nodes`), or valued exactly
    /// by the engine's tables where they hold it; each move marked by the
    /// drop of the mover's win chance (`"?!"` 0.05, `"?"` 0.10, `"??"`
    /// 0.15; from the tables, `"??"` for a move that loses the exact
    /// value). Returns a dictionary: `"plies"`, one per move with `"ply"`,
    /// `"side"`, `"move"` (a `Move`), `"mark"` (or `None`), `"before"` and
    /// `"after"` (the mover's evaluation as text, `"+0.35"` or `"tables:
    /// win in 7"`), `"win_chance_before"`, `"win_chance_after"`, `"loss"`,
    /// `"exact"` and `"best"` (a `Move` or `None`); `"black"` and
    /// `"white"`, each side's totals (`"moves"`, `"inaccuracies"`,
    /// `"mistakes"`, `"blunders"`, `"average_loss"`); and `"record"`, the
    /// game's record text with a mark and a comment on every move. The GIL
    /// is released while it runs; Ctrl-C stops it.
    #[pyo3(signature = (game, limit = None, *, time = None, depth = None, nodes = None))]
    fn analyse_game<'py>(
        &self,
        py: Python<'py>,
        game: &Bound<'py, PyAny>,
        limit: Option<&Bound<'_, PyAny>>,
        time: Option<&Bound<'_, PyAny>>,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let mut record = if let Ok(g) = game.downcast::<PyGame>() {
            GameRecord::from_game(&g.try_borrow()?.inner)
        } else if let Ok(r) = game.downcast::<PyRecord>() {
            r.get().inner.clone()
        } else {
            return Err(args::wrong_type_of("game", game, "a Game or a Record"));
        };
        let limits = read_limits(limit, time, depth, nodes)?;
        let analysis = self
            .on_engine(py, "the game analysis", |engine, stop, _| {
                let tables = engine.tablebase().cloned();
                analyse_game(
                    &record,
                    engine,
                    &limits,
                    tables.as_deref(),
                    stop,
                    &mut |_, _| {},
                )
            })?
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        annotate(&mut record, &analysis);
        analysis_dict(py, &analysis, &record.to_string())
    }

    /// Clears what the engine learnt (transposition table, history) for a new game.
    fn new_game(&self) {
        self.engine
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .new_game();
    }

    fn __repr__(&self) -> String {
        format!("Engine({})", self.settings)
    }

    /// The rules used for positions searched without a `Game`.
    #[getter]
    fn rules(&self) -> crate::game::PyRules {
        crate::game::PyRules { inner: self.rules }
    }
}

impl PyEngine {
    /// Searches what `given` names: a `Game` as it is, a position as a new
    /// game under the engine's rules. The search runs on a scoped thread
    /// with the GIL released, this thread polling for signals; `callback`
    /// takes the GIL per iteration.
    fn run(
        &self,
        py: Python<'_>,
        given: Given<'_>,
        callback: Option<Bound<'_, PyAny>>,
        lines: usize,
    ) -> PyResult<SearchResult> {
        let callback = args::callable(callback, "callback")?;
        let limits = given.limits;
        let game: Game = given.position.game(self.rules)?;
        self.on_engine(py, "the search", |engine, stop, fail| {
            // The lines of this search only (`analyse(multipv=K)`); K was
            // checked, so this cannot fail.
            if let Err(e) = engine.set_multipv(lines) {
                fail(PyValueError::new_err(e.to_string()));
            }
            let mut on_info = |info: &Info| {
                if let Some(callback) = &callback {
                    Python::with_gil(|py| {
                        if let Err(e) = callback.call1(py, (PySearchInfo::from(info),)) {
                            fail(e);
                        }
                    });
                }
            };
            let result = engine.search(&game, &limits, stop, &mut on_info);
            let _ = engine.set_multipv(1);
            result
        })
    }

    /// Runs `work` on the engine on a scoped thread with the GIL released,
    /// this thread looking for Ctrl-C between waits. `work` gets the
    /// engine, the stop flag and `fail`, which keeps the first error and
    /// raises the flag (Ctrl-C goes there too); that error is raised here,
    /// and a panic of `what` is a `PanicException`.
    fn on_engine<T: Send>(
        &self,
        py: Python<'_>,
        what: &str,
        work: impl FnOnce(&mut Engine, &AtomicBool, &(dyn Fn(PyErr) + Sync)) -> T + Send,
    ) -> PyResult<T> {
        let stop = AtomicBool::new(false);
        let error: Mutex<Option<PyErr>> = Mutex::new(None);
        let fail = |e: PyErr| {
            let mut slot = error.lock().unwrap_or_else(PoisonError::into_inner);
            slot.get_or_insert(e);
            stop.store(true, Ordering::Relaxed);
        };
        let engine = &self.engine;
        let outcome = py.allow_threads(|| {
            std::thread::scope(|scope| {
                let (done, finished) = mpsc::channel::<()>();
                let worker = scope.spawn(|| {
                    let mut engine = engine.lock().unwrap_or_else(PoisonError::into_inner);
                    let result = work(&mut engine, &stop, &fail);
                    drop(done);
                    result
                });
                while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(SIGNAL_POLL) {
                    if let Err(e) = Python::with_gil(|py| py.check_signals()) {
                        fail(e);
                    }
                }
                worker.join()
            })
        });
        if let Some(e) = error.into_inner().unwrap_or_else(PoisonError::into_inner) {
            return Err(e);
        }
        outcome.map_err(|_| PanicException::new_err(format!("{what} panicked")))
    }
}

/// A game's analysis as the dictionary of `Engine.analyse_game`.
fn analysis_dict<'py>(
    py: Python<'py>,
    analysis: &GameAnalysis,
    record: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let plies = PyList::empty(py);
    for p in &analysis.plies {
        let ply = PyDict::new(py);
        ply.set_item("ply", p.ply)?;
        ply.set_item("side", p.mover.name())?;
        ply.set_item("move", PyMove { inner: p.played })?;
        ply.set_item("mark", p.mark.map(|m| m.as_str()))?;
        ply.set_item("before", p.before.to_string())?;
        ply.set_item("after", p.after.to_string())?;
        ply.set_item("win_chance_before", p.before.win_chance())?;
        ply.set_item("win_chance_after", p.after.win_chance())?;
        ply.set_item("loss", p.loss)?;
        ply.set_item("exact", p.exact)?;
        ply.set_item("best", p.best.map(|inner| PyMove { inner }))?;
        ply.set_item("tables", p.tables.map(|v| Eval::Table(v.table).to_string()))?;
        ply.set_item(
            "cutoff",
            p.tables.and_then(|v| v.cutoff).map(|c| c.to_string()),
        )?;
        plies.append(ply)?;
    }
    let side = |s: &Summary| -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("moves", s.moves)?;
        d.set_item("inaccuracies", s.inaccuracies)?;
        d.set_item("mistakes", s.mistakes)?;
        d.set_item("blunders", s.blunders)?;
        d.set_item("average_loss", s.average_loss)?;
        Ok(d)
    };
    let dict = PyDict::new(py);
    dict.set_item("plies", plies)?;
    dict.set_item("black", side(&analysis.black)?)?;
    dict.set_item("white", side(&analysis.white)?)?;
    dict.set_item("record", record)?;
    Ok(dict)
}
