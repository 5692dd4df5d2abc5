//! Answers beyond a value: each move's value, the best move, and the
//! principal line to the conversion.

use crate::error::TablebaseError;
use crate::table::Table;
use crate::value::{Value, Wdl, MAX_DTC};
use crate::Tablebase;
use surakarta::{capture_moves, Move, Position};
use surakarta_index::Sides;

impl Tablebase {
    /// The exact value of a position from the value `table` stores for it.
    /// A compact table may store any win where a capture wins in 1, so a
    /// stored win in more than 1 is checked against the captures; one with
    /// [`Table::capture_draws`] may store any draw or loss where a capture
    /// draws, so a stored loss is checked against the captures too.
    #[inline]
    pub(crate) fn resolve(
        &self,
        table: &Table,
        stored: Value,
        sides: Sides,
    ) -> Result<Value, TablebaseError> {
        match stored {
            Value::Win(d) if d > 1 && table.is_compact() && self.wins_by_capture(sides)? => {
                Ok(Value::Win(1))
            }
            Value::Loss(_) if table.capture_draws() && self.draws_by_capture(sides)? => {
                Ok(Value::Draw)
            }
            value => Ok(value),
        }
    }

    /// Whether the side to move has a capture into a position lost for the
    /// opponent (or of the opponent's last piece).
    pub(crate) fn wins_by_capture(&self, sides: Sides) -> Result<bool, TablebaseError> {
        self.captures_reach(sides, Wdl::Win)
    }

    /// Whether the side to move has a capture that draws or wins.
    pub(crate) fn draws_by_capture(&self, sides: Sides) -> Result<bool, TablebaseError> {
        self.captures_reach(sides, Wdl::Draw)
    }

    /// Whether some capture of the side to move reaches at least `least`
    /// for it (the opponent's exact win/draw/loss after the capture, seen
    /// from the mover).
    fn captures_reach(&self, sides: Sides, least: Wdl) -> Result<bool, TablebaseError> {
        for m in capture_moves(sides.us, sides.them) {
            let after = Sides::new(
                sides.them.without(m.to()),
                sides.us.without(m.from()).with(m.to()),
            );
            if after.us.is_empty() {
                return Ok(true);
            }
            let reached = match self.probe_wdl(after)? {
                Wdl::Loss => Wdl::Win,
                Wdl::Draw => Wdl::Draw,
                Wdl::Win => Wdl::Loss,
            };
            if reached >= least {
                return Ok(true);
            }
        }
        Ok(false)
    }

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
