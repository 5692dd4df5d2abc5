//! Search limits and time management: [`Limits`] (depth, nodes, move
//! time, clock) and the time budget they give (its constants are in
//! `parameters`).

use std::time::Duration;

use crate::parameters::{
    DEFAULT_MOVES_TO_GO, HARD_LIMIT_DIVISOR, HARD_LIMIT_FACTOR, INCREMENT_USED_DENOMINATOR,
    INCREMENT_USED_NUMERATOR, MAX_MOVES_TO_GO, SOFT_LIMIT_DIVISOR, TIME_RESERVE_DIVISOR,
    TIME_RESERVE_MS,
};
use crate::score::MAX_PLY;

/// A side's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub time: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// When to stop searching. Every limit given applies; with none the search
/// runs until stopped (or to [`crate::MAX_PLY`]).
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use surakarta_search::{Clock, Limits};
///
/// assert_eq!(Limits::depth(8).depth, Some(8));
/// assert_eq!(Limits::movetime(Duration::from_millis(500)).budget().1, Some(Duration::from_millis(500)));
/// // Limits combine: whichever is reached first ends the search.
/// let both = Limits { nodes: Some(100_000), ..Limits::depth(12) };
/// assert_eq!((both.depth, both.nodes), (Some(12), Some(100_000)));
///
/// // With a clock the engine spends a share of the time left.
/// let clock = Clock { time: Duration::from_secs(60), increment: Duration::ZERO, moves_to_go: None };
/// let (soft, hard) = Limits { clock: Some(clock), ..Limits::default() }.budget();
/// assert!(soft.unwrap() < hard.unwrap() && hard.unwrap() < Duration::from_secs(60));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Think exactly this long (at most).
    pub movetime: Option<Duration>,
    /// The clock of the side to move.
    pub clock: Option<Clock>,
}

impl Limits {
    /// Search to a fixed depth.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search about `nodes` nodes.
    #[must_use]
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Search for `movetime`.
    #[must_use]
    pub fn movetime(movetime: Duration) -> Limits {
        Limits {
            movetime: Some(movetime),
            ..Limits::default()
        }
    }

    /// The time budget: `(soft, hard)`. No new iteration starts after the
    /// soft limit; the search is aborted at the hard limit. A clock without
    /// moves to go is spread over 30 moves (the plain time management's
    /// expectation).
    #[must_use]
    pub fn budget(&self) -> (Option<Duration>, Option<Duration>) {
        self.budget_over(DEFAULT_MOVES_TO_GO)
    }

    /// [`Limits::budget`] with `expected_moves` to go when the clock gives
    /// none.
    pub(crate) fn budget_over(&self, expected_moves: u32) -> (Option<Duration>, Option<Duration>) {
        let mut soft = self.movetime;
        let mut hard = self.movetime;
        if let Some(clock) = self.clock {
            // Keep a reserve for overhead; spread the rest over the expected
            // remaining moves, spending most of the increment.
            let reserve =
                Duration::from_millis(TIME_RESERVE_MS).min(clock.time / TIME_RESERVE_DIVISOR);
            let usable = clock.time.saturating_sub(reserve);
            let moves = clock
                .moves_to_go
                .unwrap_or(expected_moves)
                .clamp(1, MAX_MOVES_TO_GO);
            let share = usable / moves
                + clock.increment * INCREMENT_USED_NUMERATOR / INCREMENT_USED_DENOMINATOR;
            let target = share.min(usable);
            let ceiling = (target * HARD_LIMIT_FACTOR)
                .min(usable / HARD_LIMIT_DIVISOR)
                .max(target);
            let soft_target = target / SOFT_LIMIT_DIVISOR;
            soft = Some(soft.map_or(soft_target, |s| s.min(soft_target)));
            hard = Some(hard.map_or(ceiling, |h| h.min(ceiling)));
        }
        (soft, hard)
    }

    /// The deepest iteration: the depth limit within `1..MAX_PLY`, else
    /// `MAX_PLY - 1`.
    pub(crate) fn max_depth(&self) -> u32 {
        self.depth
            .map_or(MAX_PLY as u32 - 1, |d| d.clamp(1, MAX_PLY as u32 - 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_is_both_limits() {
        let l = Limits::movetime(Duration::from_millis(300));
        assert_eq!(
            l.budget(),
            (
                Some(Duration::from_millis(300)),
                Some(Duration::from_millis(300))
            )
        );
        assert_eq!(Limits::depth(5).budget(), (None, None));
    }

    #[test]
    fn clock_budget_stays_inside_the_clock() {
        for (ms, inc) in [(10, 0), (1_000, 0), (60_000, 1_000), (500, 2_000)] {
            let clock = Clock {
                time: Duration::from_millis(ms),
                increment: Duration::from_millis(inc),
                moves_to_go: None,
            };
            let l = Limits {
                clock: Some(clock),
                ..Limits::default()
            };
            let (soft, hard) = l.budget();
            let (soft, hard) = (soft.unwrap(), hard.unwrap());
            assert!(soft <= hard, "{ms} {inc}");
            assert!(hard < clock.time, "{ms} {inc}: {hard:?}");
        }
    }
}
