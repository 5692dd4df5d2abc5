//! The `surakarta` Python module (`surakarta._surakarta`, re-exported by
//! `python/surakarta/__init__.py`): a thin binding over the rules
//! (`surakarta`), the endgame tables (`surakarta-tablebase`) and the engine
//! (`surakarta-search`). It holds no game logic of its own: every rule,
//! probe and search is a call into the libraries; this crate only converts
//! values and errors and manages the GIL.
//!
//! # Modules
//!
//! | module | concept |
//! |---|---|
//! | `args` | the checks of every argument, in one place: each numeric bound declared once with the CLI's range (`PIECES`, `THREADS`, `HASH`, `DEPTH`, `NODES`, `TIME`, …), paths, squares, sides, callbacks; `TypeError` for a wrong type (a `bool` for a number included), `ValueError` out of range in the CLI's words |
//! | `errors` | `InvalidNotationError`/`IllegalMoveError` (`ValueError`), `TablebaseError`/`MissingTableError` (`OSError`); the libraries' errors mapped to them with the libraries' (the CLI's) messages |
//! | `position` | `Move`, `Position` (legal moves as a `MoveList`, `after`, pieces, Zobrist, symmetries, text board, SVG through `surakarta::svg`), squares |
//! | `color` | a side as Python writes and reads it (`"black"`, `"white"`, `"b"`, `"w"`) |
//! | `outcome` | `Outcome`: the winner and the reason a game ended, for `Position.outcome()` and `Game.outcome()` |
//! | `game` | `Rules`, `Game` (push/pop, history, outcome, python-chess's `push_uci`, `move_stack`, `peek`), the position argument of every function that takes one (`PositionArg`: a `Position`, a `Game` or position text), `perft` |
//! | `record_text` | a game as record text and back, for `Game.record()`, `Game.from_record()` and `Record` |
//! | `records` | `Record`, `read_records` (files read as the CLI's `show` reads them), `parse_records`: the rules crate's game records |
//! | `tables` | `Tablebase` (files read into memory by `Tablebase::open_dir`: no `unsafe`, no map), `Probe`, `generate_tables` |
//! | `limit` | `Limit(time=, depth=, nodes=)`: a search's limits, time in seconds, every value checked by `args` |
//! | `engine` | `Engine`, `Score`, `SearchInfo`, `SearchResult`, and python-chess's shapes: `Engine.play` (`PlayResult`) and `Engine.analyse` (an info dictionary, a list of them with `multipv`): the search on a scoped thread with the GIL released, the caller polling for signals (Ctrl-C sets the stop flag) and the callback taking the GIL per iteration |
//! | `batch` | `encode`, `legal_move_masks`, `legal_move_counts`: many positions to NumPy arrays in one call |

mod args;
mod batch;
mod color;
mod engine;
mod errors;
mod game;
mod limit;
mod outcome;
mod position;
mod record_text;
mod records;
mod tables;

use pyo3::prelude::*;

/// Registers the classes, functions and exceptions.
#[pymodule]
fn _surakarta(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add(
        "InvalidNotationError",
        py.get_type::<errors::InvalidNotationError>(),
    )?;
    m.add(
        "IllegalMoveError",
        py.get_type::<errors::IllegalMoveError>(),
    )?;
    m.add("TablebaseError", py.get_type::<errors::TablebaseError>())?;
    m.add(
        "MissingTableError",
        py.get_type::<errors::MissingTableError>(),
    )?;
    m.add_class::<position::PyMove>()?;
    m.add_class::<position::PyPosition>()?;
    m.add_class::<game::PyRules>()?;
    m.add_class::<outcome::PyOutcome>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<tables::PyTablebase>()?;
    m.add_class::<tables::PyProbe>()?;
    m.add_class::<limit::PyLimit>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<engine::PyScore>()?;
    m.add_class::<engine::PySearchInfo>()?;
    m.add_class::<engine::PySearchResult>()?;
    m.add_class::<engine::PyPlayResult>()?;
    m.add_class::<records::PyRecord>()?;
    m.add_function(wrap_pyfunction!(game::perft, m)?)?;
    m.add_function(wrap_pyfunction!(position::square_name, m)?)?;
    m.add_function(wrap_pyfunction!(position::parse_square, m)?)?;
    m.add_function(wrap_pyfunction!(position::_move_text, m)?)?;
    m.add_function(wrap_pyfunction!(tables::generate_tables, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_records, m)?)?;
    m.add_function(wrap_pyfunction!(records::parse_records, m)?)?;
    m.add_function(wrap_pyfunction!(batch::encode, m)?)?;
    m.add_function(wrap_pyfunction!(batch::legal_move_masks, m)?)?;
    m.add_function(wrap_pyfunction!(batch::legal_move_counts, m)?)?;
    Ok(())
}
