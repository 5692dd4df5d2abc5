//! A game as record text and back (docs/notation.md, "Game records"):
//! what `Game.record()` and `Game.from_record()` need, below both `Game`
//! and `Record` (records.rs).

use crate::args;
use crate::errors::{game_error, InvalidNotationError};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::path::Path;
use surakarta::record::is_tag_name;
use surakarta::{Excerpt, Game, GameRecord, RecordError};

/// The tags a record writes from its game, which `tags=` may not set.
pub(crate) const GAME_TAGS: [&str; 3] = ["Rules", "Start", "Result"];

/// The record of `game` with the `tags` given before its own (checked).
pub(crate) fn record_of(game: &Game, tags: Option<&Bound<'_, PyAny>>) -> PyResult<GameRecord> {
    let given = match tags.filter(|t| !t.is_none()) {
        None => Vec::new(),
        Some(tags) => tag_list(tags, game.is_over())?,
    };
    let leading: Vec<(&str, &str)> = given
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    Ok(GameRecord::from_game_tagged(game, &leading))
}

/// The tags of a mapping of names to text values: `TypeError` for
/// something else, `ValueError` for a name that is not a tag name or that
/// the game writes itself (`Rules`, `Start`, `Result`, and `Termination`
/// when the game is over).
fn tag_list(tags: &Bound<'_, PyAny>, over: bool) -> PyResult<Vec<(String, String)>> {
    let what = "a mapping of tag names to values (dict of str to str)";
    let items = tags
        .call_method0("items")
        .and_then(|items| items.try_iter())
        .map_err(|_| args::wrong_type_of("tags", tags, what))?;
    let mut out = Vec::new();
    for item in items {
        let (name, value): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item?.extract()?;
        let name = name
            .downcast::<PyString>()
            .map_err(|_| args::wrong_type_of("a tag's name", &name, "str"))?
            .to_cow()?
            .into_owned();
        if !is_tag_name(&name) {
            return Err(PyValueError::new_err(format!(
                "invalid tag name {}: give letters, digits and '_'",
                Excerpt::new(&name)
            )));
        }
        if GAME_TAGS.contains(&name.as_str()) || (over && name == "Termination") {
            return Err(PyValueError::new_err(format!(
                "tag {name} is written from the game (its rules, start position and end), \
                 not from tags="
            )));
        }
        let value = value
            .downcast::<PyString>()
            .map_err(|_| {
                PyTypeError::new_err(format!(
                    "tag {name}: the value must be str, not {}",
                    args::type_name(&value)
                ))
            })?
            .to_cow()?
            .into_owned();
        out.push((name, value));
    }
    Ok(out)
}

/// The record's text (`GameRecord::to_text`): `ValueError` naming the
/// limit for a record its reader would refuse (more than 1,000 tags, a
/// text over 16 MiB, …).
pub(crate) fn record_text(record: &GameRecord) -> PyResult<String> {
    record
        .to_text()
        .map_err(|e| PyValueError::new_err(format!("cannot write the record: {}", e.kind)))
}

/// A record error as `InvalidNotationError`, after `source` (a file's
/// name) when given.
pub(crate) fn record_error(source: Option<&Path>, error: &RecordError) -> PyErr {
    InvalidNotationError::new_err(match source {
        Some(path) => format!("{}: {error}", path.display()),
        None => error.to_string(),
    })
}

/// The game of a record's text holding exactly one game (`Game.from_record`).
pub(crate) fn game_of_text(text: &str) -> PyResult<Game> {
    let record: GameRecord = text.parse().map_err(|e| record_error(None, &e))?;
    record.to_game().map_err(game_error)
}
