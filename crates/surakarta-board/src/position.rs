//! A position's answer: its pieces, outcome and value, and every legal
//! move with its value, best first.

use crate::json::{outcome_json, value_json};
use crate::picture::capture_path;
use serde_json::json;
use std::cmp::Ordering;
use surakarta::{Color, Game, Move, Position, Rules, Termination};
use surakarta_tablebase::{GameValue, Tablebase, TablebaseError, Value};

/// The order of the move list: wins by rising distance, draws, losses by
/// falling distance, then moves without a value (ties: by notation).
fn value_rank(value: Option<Value>) -> (u8, i64) {
    match value {
        Some(Value::Win(d)) => (0, i64::from(d)),
        Some(Value::Draw) => (1, 0),
        Some(Value::Loss(d)) => (2, -i64::from(d)),
        None => (3, 0),
    }
}

/// One legal move of a position with its value for the mover.
struct MoveEntry {
    m: Move,
    text: String,
    judged: Option<GameValue>,
}

/// Whether a failed probe only means that the tables do not cover the
/// position (no table for its class), rather than a table that should
/// answer and cannot (a damaged or unreadable file).
///
/// ```
/// use surakarta::Position;
/// use surakarta_tablebase::Tablebase;
///
/// let none = Tablebase::new();
/// let e = none.probe_position(&"6/6/2w3/6/1b4/b5 b".parse::<Position>()?).unwrap_err();
/// assert!(surakarta_board::not_covered(&e));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn not_covered(e: &TablebaseError) -> bool {
    matches!(
        e,
        TablebaseError::MissingTable { .. } | TablebaseError::Index(_) | TablebaseError::NoPieces
    )
}

/// The values of a position's answer, with the first table error met.
#[derive(Default)]
struct Lookups {
    error: Option<String>,
}

impl Lookups {
    /// The value of a probe: `None` where no table covers it, and where a
    /// table failed (the error kept for the answer).
    fn value<T>(&mut self, probe: Result<T, TablebaseError>) -> Option<T> {
        match probe {
            Ok(value) => Some(value),
            Err(e) if not_covered(&e) => None,
            Err(e) => {
                self.error.get_or_insert_with(|| e.to_string());
                None
            }
        }
    }
}

/// The answer of `/api/position` for `position` under the default rules:
/// `fen`, `side_to_move`, the `black` and `white` squares, `outcome` (null
/// while the game goes on), `value` (from `tb`: the game's value, null
/// where no table covers the position or where the rules and the game's
/// history cut the tables' value off), `tables_value` (what the tables say
/// under the pure rules, null where no table covers it), `cutoff` (why
/// `tables_value` is not the game's value, in words, or null),
/// `tablebase_error` (the first table that failed, or null) and `moves`,
/// every legal move with its `from`, `to`, `capture`, `path` (the squares a
/// capture travels), the `fen` after it and its `value`, `tables_value` and
/// `cutoff` for the mover, best first.
///
/// ```
/// use surakarta::Position;
///
/// let answer = surakarta_board::position_answer(&Position::new(), None);
/// let moves = answer["moves"].as_array().unwrap();
/// assert_eq!(moves.len(), Position::new().legal_moves().len());
/// assert!(answer["value"].is_null() && answer["outcome"].is_null());
/// ```
pub fn position_answer(position: &Position, tb: Option<&Tablebase>) -> serde_json::Value {
    game_answer(&Game::new(*position, Rules::default()), tb)
}

/// The answer of [`position_answer`] for a game's current position, under
/// the game's rules and with its history (a repetition or the no-capture
/// limit can end it), with `rules`, the rule set's name, added.
///
/// ```
/// let game = surakarta_board::replay_game(
///     Some("icga"), None, Some("b2-b3 e5-e4 b3-b2 e4-e5 b2-b3 e5-e4 b3-b2 e4-e5"),
/// )?;
/// let answer = surakarta_board::game_answer(&game, None);
/// assert_eq!(answer["outcome"]["termination"], "repetition");
/// assert_eq!(answer["rules"], "icga");
/// assert!(answer["moves"].as_array().unwrap().is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn game_answer(game: &Game, tb: Option<&Tablebase>) -> serde_json::Value {
    let position = game.position();
    let outcome = game.outcome();
    let mut lookups = Lookups::default();
    // A game ended by a rule of the game record (repetition, the
    // no-capture limit) has a result the tables know nothing of.
    let ended_by_record = outcome.is_some_and(|o| {
        matches!(
            o.termination,
            Termination::Repetition | Termination::NoCaptureLimit
        )
    });
    let judged = match tb {
        Some(tb) if !ended_by_record => lookups.value(tb.probe_game(game)),
        _ => None,
    };
    let move_values = match tb {
        Some(tb) if outcome.is_none() => lookups.value(tb.move_values_in_game(game)),
        _ => None,
    };
    let mut moves: Vec<MoveEntry> = game
        .legal_moves()
        .iter()
        .enumerate()
        .map(|(i, &m)| MoveEntry {
            m,
            text: m.to_string(),
            judged: move_values.as_ref().and_then(|v| v.get(i)).map(|&(_, v)| v),
        })
        .collect();
    // The moves ranked by the tables' values (the pure rules' order of
    // play), whether or not the game's rules cut them off.
    moves.sort_by(|a, b| {
        let rank = |e: &MoveEntry| value_rank(e.judged.map(|v| v.table));
        match rank(a).cmp(&rank(b)) {
            Ordering::Equal => a.text.cmp(&b.text),
            order => order,
        }
    });
    let squares = |color| {
        position
            .pieces(color)
            .into_iter()
            .map(|sq| sq.to_string())
            .collect::<Vec<_>>()
    };
    json!({
        "rules": game.rules().to_string(),
        "fen": position.to_string(),
        "side_to_move": position.turn().to_string(),
        "black": squares(Color::Black),
        "white": squares(Color::White),
        "outcome": outcome.as_ref().map(outcome_json),
        "value": value_json(judged.and_then(|v| v.exact())),
        "tables_value": value_json(judged.map(|v| v.table)),
        "cutoff": cutoff_json(judged),
        "tablebase_error": lookups.error,
        "moves": moves.iter().map(|e| move_json(position, e)).collect::<Vec<_>>(),
    })
}

/// One entry of `moves`.
fn move_json(position: &Position, e: &MoveEntry) -> serde_json::Value {
    let m = e.m;
    let path = capture_path(Some(m), Some(position)).map(|p| {
        p.points()
            .iter()
            .map(|sq| sq.to_string())
            .collect::<Vec<_>>()
    });
    json!({
        "move": e.text,
        "from": m.from().to_string(),
        "to": m.to().to_string(),
        "capture": m.is_capture(),
        "path": path,
        "fen": position.after(m).to_string(),
        "value": value_json(e.judged.and_then(|v| v.exact())),
        "tables_value": value_json(e.judged.map(|v| v.table)),
        "cutoff": cutoff_json(e.judged),
    })
}

/// Why the tables' value is not the game's, in words, or null.
fn cutoff_json(judged: Option<GameValue>) -> serde_json::Value {
    match judged.and_then(|v| v.cutoff) {
        Some(cutoff) => cutoff.to_string().into(),
        None => serde_json::Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use surakarta_index::Scheme;
    use surakarta_tablebase::NoProgress;

    /// Near the no-capture limit the answer gives the tables' value apart
    /// from the game's: none of Black's moves, and not the position, is the
    /// win in 3 the tables say; far from it both agree.
    #[test]
    fn values_cut_off_by_the_no_capture_limit_are_not_the_games() {
        let (tb, _) = Tablebase::generate(3, Scheme::Symmetric, &NoProgress).unwrap();
        let near = crate::replay_game(Some("icga"), Some("w5/6/6/6/6/b4w b 48 1"), None).unwrap();
        let answer = game_answer(&near, Some(&tb));
        assert!(answer["value"].is_null(), "{answer}");
        assert_eq!(answer["tables_value"]["wdl"], "win");
        assert_eq!(answer["tables_value"]["dtc"], 3);
        assert!(answer["cutoff"]
            .as_str()
            .unwrap()
            .contains("no-capture limit"));
        for m in answer["moves"].as_array().unwrap() {
            assert!(m["value"].is_null(), "{m}");
            assert!(
                m["tables_value"].is_object() && m["cutoff"].is_string(),
                "{m}"
            );
        }
        let far = crate::replay_game(Some("icga"), Some("w5/6/6/6/6/b4w b 0 1"), None).unwrap();
        let answer = game_answer(&far, Some(&tb));
        assert_eq!(answer["value"], answer["tables_value"]);
        assert!(answer["cutoff"].is_null());
        let best = &answer["moves"][0];
        assert_eq!(best["value"]["wdl"], "win");
        assert!(best["cutoff"].is_null());
        // `/api/position` plays under the default (ICGA) rules.
        let position: Position = "w5/6/6/6/6/b4w b 49 1".parse().unwrap();
        assert!(position_answer(&position, Some(&tb))["value"].is_null());
    }
}
