//! The tables' values judged against a game: the tables follow the pure
//! rules, so their value is the game's only where the game's rule set and
//! history leave it room ([`Tablebase::probe_game`]).
//!
//! A win in `d` (or a loss in `d`) is the game's value when
//!
//! - the no-capture counter leaves room for the conversion: the `d`-th ply
//!   is played before the limit ends the game (`halfmoves + d ≤ limit`);
//! - every conversion after it fits too: the longest distance of every
//!   smaller class a capture can lead to is at most the limit (the counter
//!   starts again from 0 after each capture);
//! - no repetition can end the game first: the table's line never repeats a
//!   position of its own (every ply brings the conversion one ply closer),
//!   so only a position of the game since the last capture that has already
//!   occurred one time short of the repetition limit can stop it.
//!
//! A draw is the game's value under the pure rules, and with one piece a
//! side under any rule set (a capture would end the game; endless play is
//! adjudicated equal). Elsewhere a repetition or no-capture limit ends
//! endless play and adjudicates it by piece count, and a side may force a
//! capture that the pure rules call a draw but the count calls a win.

use crate::error::TablebaseError;
use crate::probe::tablebase::Tablebase;
use crate::value::Value;
use core::fmt;
use std::collections::HashMap;
use surakarta::{Game, Move, Outcome, Position, Rules};
use surakarta_index::Material;

/// Why the tables' value of a position is not the value of the game at it.
///
/// # Examples
///
/// ```
/// use surakarta_tablebase::Cutoff;
///
/// let cutoff = Cutoff::NoCaptureLimit { halfmoves: 48, dtc: 3, limit: 50 };
/// assert_eq!(
///     cutoff.to_string(),
///     "the no-capture limit (50 plies) ends the game in 2 plies, before the conversion in 3"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Cutoff {
    /// The game is already over by its rule set (repetition or no-capture
    /// limit, adjudicated by piece count).
    GameOver(Outcome),
    /// A draw of the tables (endless play under the pure rules) where the
    /// rules end endless play and adjudicate it by piece count.
    Adjudication,
    /// The no-capture limit ends the game before the conversion:
    /// `halfmoves` plies without a capture so far, the conversion `dtc`
    /// plies away, the limit `limit` plies.
    NoCaptureLimit {
        /// Plies since the last capture.
        halfmoves: u32,
        /// The table's distance to conversion.
        dtc: u32,
        /// The rule set's no-capture limit.
        limit: u32,
    },
    /// A later conversion, in a smaller class, may take `longest` plies,
    /// more than the no-capture limit `limit`.
    LaterConversion {
        /// The longest distance to conversion of the classes after a capture.
        longest: u32,
        /// The rule set's no-capture limit.
        limit: u32,
    },
    /// The table of a class a capture can lead to is not loaded, so the
    /// later conversions cannot be checked against the no-capture limit.
    MissingTable(Material),
    /// A position of the game since the last capture has occurred `count`
    /// times, one short of the repetition limit `limit`: the table's line
    /// may pass it and end the game by repetition.
    Repetition {
        /// How often that position has occurred.
        count: u32,
        /// The rule set's repetition limit.
        limit: u32,
    },
}

impl fmt::Display for Cutoff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Cutoff::GameOver(outcome) => write!(f, "the game is over: {outcome}"),
            Cutoff::Adjudication => f.write_str(
                "the rules end endless play and adjudicate it by piece count, \
                 so the tables' draw is not the game's value",
            ),
            Cutoff::NoCaptureLimit {
                halfmoves,
                dtc,
                limit,
            } => {
                let left = limit.saturating_sub(halfmoves);
                write!(
                    f,
                    "the no-capture limit ({limit} plies) ends the game in {left} {}, \
                     before the conversion in {dtc}",
                    if left == 1 { "ply" } else { "plies" }
                )
            }
            Cutoff::LaterConversion { longest, limit } => write!(
                f,
                "a later conversion may take {longest} plies, more than the \
                 no-capture limit ({limit} plies)"
            ),
            Cutoff::MissingTable(material) => write!(
                f,
                "no table of {material}, so later conversions cannot be checked \
                 against the no-capture limit"
            ),
            Cutoff::Repetition { count, limit } => write!(
                f,
                "a position since the last capture has occurred {count} times: \
                 a repetition (limit {limit}) may end the game first"
            ),
        }
    }
}

/// The tables' value of a game's position for its side to move, and why it
/// is not the game's value where it is not.
///
/// # Examples
///
/// ```
/// use surakarta::{Game, Rules};
/// use surakarta_index::Scheme;
/// use surakarta_tablebase::{Cutoff, NoProgress, Tablebase, Value};
///
/// let (tables, _) = Tablebase::generate(3, Scheme::Symmetric, &NoProgress)?;
/// // Black wins in 3 under the pure rules...
/// let game = Game::new("b5/6/6/6/6/w4w b".parse()?, Rules::ICGA);
/// assert_eq!(tables.probe_game(&game)?.exact(), Some(Value::Win(3)));
/// // ...but not 48 plies after the last capture: the 50-ply limit comes first.
/// let late = Game::new("b5/6/6/6/6/w4w b 48 1".parse()?, Rules::ICGA);
/// let value = tables.probe_game(&late)?;
/// assert_eq!(value.table, Value::Win(3));
/// assert!(matches!(value.cutoff, Some(Cutoff::NoCaptureLimit { .. })));
/// assert_eq!(value.exact(), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameValue {
    /// What the tables say (the pure rules).
    pub table: Value,
    /// Why that is not the game's value, or `None` when it is.
    pub cutoff: Option<Cutoff>,
}

impl GameValue {
    /// The game's value, if the tables' value is it.
    #[must_use]
    pub fn exact(&self) -> Option<Value> {
        match self.cutoff {
            None => Some(self.table),
            Some(_) => None,
        }
    }
}

/// The positions of a game since its last capture, the current one last:
/// all a repetition can come back to.
fn since_last_capture(game: &Game) -> &[Position] {
    let positions = game.positions();
    let window = (game.position().halfmoves() as usize).min(positions.len() - 1);
    &positions[positions.len() - 1 - window..]
}

impl Tablebase {
    /// The tables' value of the current position of `game`, judged against
    /// its rule set and history (the module's conditions); an error if the
    /// tables do not cover the position or a probe fails.
    pub fn probe_game(&self, game: &Game) -> Result<GameValue, TablebaseError> {
        let position = game.position();
        let table = self.probe_position(position)?;
        let cutoff = match game.outcome() {
            Some(outcome) if outcome.termination.is_adjudicated() => {
                Some(Cutoff::GameOver(outcome))
            }
            _ => self.cutoff(table, position, game.rules(), since_last_capture(game))?,
        };
        Ok(GameValue { table, cutoff })
    }

    /// Every legal move of the current position of `game` (none if the
    /// game is over) with its value for the side to move
    /// ([`Tablebase::move_value`]), judged against the game after the move.
    pub fn move_values_in_game(
        &self,
        game: &Game,
    ) -> Result<Vec<(Move, GameValue)>, TablebaseError> {
        if game.is_over() {
            return Ok(Vec::new());
        }
        let position = game.position();
        let recent = since_last_capture(game);
        let mut history = Vec::with_capacity(recent.len() + 1);
        let mut values = Vec::new();
        for &m in position.legal_moves().iter() {
            let table = self.move_value(position, m)?;
            let next = position.after(m);
            // After a capture nothing before can repeat.
            history.clear();
            if !m.is_capture() {
                history.extend_from_slice(recent);
            }
            history.push(next);
            let cutoff = match adjudicated_end(game.rules(), &next, &history) {
                Some(outcome) => Some(Cutoff::GameOver(outcome)),
                None => {
                    let value = self.probe_position(&next)?;
                    self.cutoff(value, &next, game.rules(), &history)?
                }
            };
            values.push((m, GameValue { table, cutoff }));
        }
        Ok(values)
    }

    /// Why `value`, the tables' value of `position` (the last of `recent`,
    /// the game's positions since its last capture), is not the game's
    /// value under `rules`; `None` when it is.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Position, Rules};
    /// use surakarta_index::Scheme;
    /// use surakarta_tablebase::{Cutoff, NoProgress, Tablebase};
    ///
    /// let (tables, _) = Tablebase::generate(3, Scheme::Symmetric, &NoProgress)?;
    /// let position: Position = "b5/6/6/6/6/w4w b 47 1".parse()?;
    /// let value = tables.probe_position(&position)?; // a win in 3
    /// assert_eq!(tables.cutoff(value, &position, Rules::ICGA, &[position])?, None);
    /// let pku = tables.cutoff(value, &position, Rules::PKU, &[position])?;
    /// assert!(matches!(pku, Some(Cutoff::NoCaptureLimit { limit: 40, .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cutoff(
        &self,
        value: Value,
        position: &Position,
        rules: Rules,
        recent: &[Position],
    ) -> Result<Option<Cutoff>, TablebaseError> {
        let dtc = match value {
            // No move: lost now, whatever the counters.
            Value::Loss(0) => return Ok(None),
            Value::Draw if rules == Rules::PURE => return Ok(None),
            Value::Draw if position.us().len() == 1 && position.them().len() == 1 => {
                return Ok(None)
            }
            Value::Draw => return Ok(Some(Cutoff::Adjudication)),
            Value::Win(d) | Value::Loss(d) => d,
        };
        if let Some(limit) = rules.no_capture_plies() {
            let halfmoves = position.halfmoves();
            if halfmoves.saturating_add(dtc) > limit {
                return Ok(Some(Cutoff::NoCaptureLimit {
                    halfmoves,
                    dtc,
                    limit,
                }));
            }
            match self
                .longest_after_captures(Material::new(position.us().len(), position.them().len())?)
            {
                Err(missing) => return Ok(Some(Cutoff::MissingTable(missing))),
                Ok(longest) if longest > limit => {
                    return Ok(Some(Cutoff::LaterConversion { longest, limit }))
                }
                Ok(_) => {}
            }
        }
        if let Some(limit) = rules.repetitions() {
            if let Some(count) = most_repeated_before(position, recent) {
                if count + 1 >= limit {
                    return Ok(Some(Cutoff::Repetition { count, limit }));
                }
            }
        }
        Ok(None)
    }

    /// The longest distance to conversion of the loaded classes with fewer
    /// than `pieces` pieces (0 if there are none): a bound on every
    /// conversion after the first one from a position of `pieces` pieces,
    /// where all smaller classes are loaded.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_index::Scheme;
    /// use surakarta_tablebase::{NoProgress, Tablebase};
    ///
    /// let (tables, _) = Tablebase::generate(3, Scheme::Symmetric, &NoProgress)?;
    /// assert_eq!(tables.longest_below(3), 3); // 1v1's longest conversion
    /// assert_eq!(tables.longest_below(2), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn longest_below(&self, pieces: u32) -> u32 {
        self.tables
            .iter()
            .filter(|(material, _)| material.pieces() < pieces)
            .map(|(_, table)| table.stats().longest)
            .max()
            .unwrap_or(0)
    }

    /// The longest distance to conversion of every class a capture (or
    /// several) can lead to from `material`, with either side to move; the
    /// first such class without a table as the error.
    pub fn longest_after_captures(&self, material: Material) -> Result<u32, Material> {
        let (us, them) = (material.us(), material.them());
        let mut longest = 0;
        for a in 1..=us {
            for b in 1..=them {
                if a + b == us + them {
                    continue;
                }
                for class in [Material::new(a, b), Material::new(b, a)] {
                    let Ok(class) = class else { continue };
                    match self.table(class) {
                        Some(table) => longest = longest.max(table.stats().longest),
                        None => return Err(class),
                    }
                }
            }
        }
        Ok(longest)
    }
}

/// How often the most repeated position of `recent` other than `position`
/// occurred there (`None` if none did).
fn most_repeated_before(position: &Position, recent: &[Position]) -> Option<u32> {
    let mut counts: HashMap<u64, u32> = HashMap::new();
    let mut most = None;
    for p in recent {
        if p.zobrist() == position.zobrist() && p.same_placement(position) {
            continue;
        }
        let count = counts.entry(p.zobrist()).or_insert(0);
        *count += 1;
        most = most.max(Some(*count));
    }
    most
}

/// The rule set's adjudicated end at `position`, the last of `recent` (the
/// positions since the last capture), as [`Game::outcome`] would give it.
fn adjudicated_end(rules: Rules, position: &Position, recent: &[Position]) -> Option<Outcome> {
    let repetitions = || {
        recent
            .iter()
            .rev()
            .step_by(2)
            .filter(|p| p.zobrist() == position.zobrist() && p.same_placement(position))
            .count() as u32
    };
    rules
        .outcome(position, repetitions)
        .filter(|outcome| outcome.termination.is_adjudicated())
}
