//! Answers beyond a position's value: each move's value, the best move,
//! and the principal line to the conversion.

use crate::error::TablebaseError;
use crate::probe::tablebase::Tablebase;
use crate::value::{Value, Wdl, MAX_DTC};
use surakarta::{Move, Position};
use surakarta_index::Sides;

impl Tablebase {
    /// The value of a position for its side to move (counters and rule set
    /// ignored: tables follow the pure rules).
    pub fn probe_position(&self, position: &Position) -> Result<Value, TablebaseError> {
        self.probe(Sides::of(position))
    }

    /// The value of playing `m` (legal) in `position`, for the side playing
    /// it. A capture converts: it wins in 1 if the opponent is then lost (or
    /// has no piece), loses in 1 if the opponent then wins, else draws.
    pub fn move_value(&self, position: &Position, m: Move) -> Result<Value, TablebaseError> {
        let next = Sides::of(&position.after(m));
        Ok(if m.is_capture() {
            match self.probe_wdl(next)? {
                Wdl::Loss => Value::Win(1),
                Wdl::Win => Value::Loss(1),
                Wdl::Draw => Value::Draw,
            }
        } else {
            self.probe(next)?.back()
        })
    }

    /// Every legal move with its value for the side to move, in move
    /// generation order.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::Position;
    /// use surakarta_index::Scheme;
    /// use surakarta_tablebase::{NoProgress, Tablebase, Value};
    ///
    /// let (tables, _) = Tablebase::generate(3, Scheme::Symmetric, &NoProgress)?;
    /// let position: Position = "6/1w4/6/6/1b4/6 b".parse()?;
    /// let values = tables.move_values(&position)?;
    /// assert_eq!(values.len(), position.legal_moves().len());
    /// // The capture wins at once: White has no piece left.
    /// assert_eq!(values[0].0.to_string(), "b2xb5");
    /// assert_eq!(values[0].1, Value::Win(1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn move_values(&self, position: &Position) -> Result<Vec<(Move, Value)>, TablebaseError> {
        position
            .legal_moves()
            .iter()
            .map(|&m| Ok((m, self.move_value(position, m)?)))
            .collect()
    }

    /// The best move (the first in generation order among the equally
    /// good: fastest win, else a draw, else slowest loss) and its value;
    /// `None` when the side to move has no move (lost in 0).
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::Position;
    /// use surakarta_index::Scheme;
    /// use surakarta_tablebase::{NoProgress, Tablebase, Value};
    ///
    /// let (tables, _) = Tablebase::generate(3, Scheme::Symmetric, &NoProgress)?;
    /// // White, to move, is lost; the best defence holds out longest.
    /// let position: Position = "6/1w4/6/6/bb4/6 w".parse()?;
    /// let (m, value) = tables.best_move(&position)?.unwrap();
    /// assert_eq!((m.to_string(), value), ("b5-a4".to_string(), Value::Loss(4)));
    /// assert_eq!(tables.derive(&position)?, value); // what the table stores
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn best_move(&self, position: &Position) -> Result<Option<(Move, Value)>, TablebaseError> {
        let mut best: Option<(Move, Value)> = None;
        for &m in position.legal_moves().iter() {
            let value = self.move_value(position, m)?;
            if best.is_none_or(|(_, b)| value.is_better_than(b)) {
                best = Some((m, value));
            }
        }
        Ok(best)
    }

    /// The value the moves of a position imply (what its table entry must
    /// be): the best move's value, or a loss in 0 without moves.
    pub fn derive(&self, position: &Position) -> Result<Value, TablebaseError> {
        Ok(self
            .best_move(position)?
            .map_or(Value::Loss(0), |(_, value)| value))
    }

    /// The principal conversion line: best moves for both sides up to and
    /// including the capture that converts (or until the side to move has
    /// no move). Empty for a draw, which never converts.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::Position;
    /// use surakarta_index::Scheme;
    /// use surakarta_tablebase::{NoProgress, Tablebase};
    ///
    /// let (tables, _) = Tablebase::generate(3, Scheme::Symmetric, &NoProgress)?;
    /// let position: Position = "b5/6/6/6/6/w4w b".parse()?; // a win in 3
    /// let line: Vec<String> = tables.line(&position)?.iter().map(|m| m.to_string()).collect();
    /// assert_eq!(line, ["a6-a5", "a1-b1", "a5xb1"]); // ends with the converting capture
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn line(&self, position: &Position) -> Result<Vec<Move>, TablebaseError> {
        let mut line = Vec::new();
        let mut position = *position;
        if self.probe_position(&position)? == Value::Draw {
            return Ok(line);
        }
        // Distances fall by one each ply in a consistent table; the bound
        // only guards against a damaged one.
        while line.len() <= MAX_DTC as usize {
            let Some((m, value)) = self.best_move(&position)? else {
                break;
            };
            line.push(m);
            if m.is_capture() || value == Value::Draw {
                break;
            }
            position = position.after(m);
        }
        Ok(line)
    }
}
