//! Game-theoretic values with distance to conversion, and their one-byte
//! encoding in tables.

use core::fmt;

/// Win, draw or loss for the side to move.
///
/// # Examples
///
/// ```
/// use surakarta_tablebase::Wdl;
///
/// assert_eq!(Wdl::Win.to_string(), "win");
/// assert!(Wdl::Loss < Wdl::Draw && Wdl::Draw < Wdl::Win); // ordered for the side to move
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// The side to move loses with best play.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins with best play.
    Win,
}

impl Wdl {
    /// `win`, `draw` or `loss`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        }
    }

    /// The same result for the other side.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_tablebase::Wdl;
    ///
    /// assert_eq!(Wdl::Win.flipped(), Wdl::Loss);
    /// assert_eq!(Wdl::Draw.flipped(), Wdl::Draw);
    /// ```
    #[must_use]
    pub const fn flipped(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The value of a position for the side to move: the result with best play
/// and, for wins and losses, the distance to conversion in plies (the winner
/// minimising, the loser maximising; see `docs/tablebase.md`).
///
/// # Examples
///
/// ```
/// use surakarta_tablebase::{Value, Wdl};
///
/// let win = Value::Win(3);
/// assert_eq!((win.wdl(), win.dtc()), (Wdl::Win, Some(3)));
/// // One ply earlier, for the side that moved into it, a win is a loss.
/// assert_eq!(Value::Win(3).back(), Value::Loss(4));
/// assert!(Value::Win(1).is_better_than(Value::Win(3)));
/// assert!(Value::Loss(9).is_better_than(Value::Loss(2))); // hold out longer
/// assert!(Value::Draw.is_better_than(Value::Loss(100)));
/// // The one-byte encoding of the tables.
/// assert_eq!(Value::from_byte(win.to_byte().unwrap()), Some(win));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A win converted in `dtc` plies (at least 1).
    Win(u32),
    /// A draw.
    Draw,
    /// A loss converted in `dtc` plies (0: no legal move now).
    Loss(u32),
}

/// The largest distance a table byte can hold.
pub const MAX_DTC: u32 = 127;

impl Value {
    /// Win, draw or loss.
    #[must_use]
    pub const fn wdl(self) -> Wdl {
        match self {
            Value::Win(_) => Wdl::Win,
            Value::Draw => Wdl::Draw,
            Value::Loss(_) => Wdl::Loss,
        }
    }

    /// The distance to conversion, `None` for a draw.
    #[must_use]
    pub const fn dtc(self) -> Option<u32> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// The value one ply earlier, for the side that moved into this one by a
    /// quiet move: a loss here is a win there, one ply longer.
    #[must_use]
    pub const fn back(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Draw => Value::Draw,
            Value::Loss(d) => Value::Win(d + 1),
        }
    }

    /// Whether `self` is better for the side to move than `other` (a faster
    /// win, a slower loss).
    #[must_use]
    pub fn is_better_than(self, other: Value) -> bool {
        self.order_key() > other.order_key()
    }

    fn order_key(self) -> i64 {
        match self {
            Value::Win(d) => 1_000_000 - d as i64,
            Value::Draw => 0,
            Value::Loss(d) => -1_000_000 + d as i64,
        }
    }

    /// The table byte: 0 draw, `1..=127` win in that many plies, `128 + d`
    /// loss in `d` plies. `None` if the distance does not fit.
    #[must_use]
    pub const fn to_byte(self) -> Option<u8> {
        match self {
            Value::Draw => Some(0),
            Value::Win(d) if d >= 1 && d <= MAX_DTC => Some(d as u8),
            Value::Loss(d) if d <= MAX_DTC => Some(128 + d as u8),
            _ => None,
        }
    }

    /// The value of a table byte; `None` for 0, which stands for a draw in a
    /// finished table and for "not yet known" during generation.
    #[inline]
    #[must_use]
    pub const fn from_byte(b: u8) -> Option<Value> {
        match b {
            0 => None,
            1..=127 => Some(Value::Win(b as u32)),
            _ => Some(Value::Loss(b as u32 - 128)),
        }
    }

    /// The value of a finished table's byte (0 is a draw).
    #[inline]
    #[must_use]
    pub const fn from_table_byte(b: u8) -> Value {
        match Value::from_byte(b) {
            Some(v) => v,
            None => Value::Draw,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Draw => f.write_str("draw"),
            Value::Loss(d) => write!(f, "loss in {d}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip() {
        for b in 0..=255u8 {
            let v = Value::from_table_byte(b);
            assert_eq!(v.to_byte(), Some(b));
        }
        assert_eq!(Value::Win(0).to_byte(), None);
        assert_eq!(Value::Win(128).to_byte(), None);
        assert_eq!(Value::Loss(128).to_byte(), None);
    }

    #[test]
    fn ordering() {
        assert!(Value::Win(1).is_better_than(Value::Win(3)));
        assert!(Value::Win(99).is_better_than(Value::Draw));
        assert!(Value::Draw.is_better_than(Value::Loss(50)));
        assert!(Value::Loss(5).is_better_than(Value::Loss(1)));
        assert_eq!(Value::Loss(0).back(), Value::Win(1));
    }
}
