//! Answers beyond a position's value: each move's value, the best move,
//! and the principal line to the conversion.

use crate::error::TablebaseError;
use crate::value::{Value, Wdl, MAX_DTC};
use crate::Tablebase;
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
