//! Move ordering (Stockfish's movepick): the table move, then captures,
//! then killer moves, then quiet moves by history score, picked one at a
//! time; the history and killer tables it reads. The bonuses are in
//! `parameters`.

use std::sync::atomic::{AtomicI32, Ordering};
use surakarta::{Color, Move, MoveList};

use crate::parameters::{
    HISTORY_BONUS_MAX, HISTORY_MAX, ORDER_CAPTURE, ORDER_KILLER, ORDER_TABLE_MOVE,
};
use crate::score::MAX_PLY;

/// History scores of quiet moves by side, origin and target, shared by all
/// threads (relaxed atomics: a lost update only blurs a heuristic).
pub struct History {
    scores: Vec<AtomicI32>,
}

impl History {
    /// Empty scores.
    #[must_use]
    pub fn new() -> History {
        History {
            scores: (0..2 * 36 * 36).map(|_| AtomicI32::new(0)).collect(),
        }
    }

    fn slot(&self, color: Color, m: Move) -> &AtomicI32 {
        &self.scores[(color.index() * 36 + m.from().index()) * 36 + m.to().index()]
    }

    /// The score of a quiet move.
    #[must_use]
    pub fn get(&self, color: Color, m: Move) -> i32 {
        self.slot(color, m).load(Ordering::Relaxed)
    }

    fn add(&self, color: Color, m: Move, bonus: i32) {
        let slot = self.slot(color, m);
        let old = slot.load(Ordering::Relaxed);
        // Gravity: scores saturate smoothly at ±HISTORY_MAX.
        let new = old + bonus - old * bonus.abs() / HISTORY_MAX;
        slot.store(new.clamp(-HISTORY_MAX, HISTORY_MAX), Ordering::Relaxed);
    }

    /// Credits `good`, which failed high at `depth`, and debits the quiet
    /// moves tried before it.
    pub fn reward(&self, color: Color, good: Move, tried: &MoveList, depth: i32) {
        let bonus = (depth * depth).min(HISTORY_BONUS_MAX);
        self.add(color, good, bonus);
        for &m in tried.iter() {
            self.add(color, m, -bonus);
        }
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for s in &self.scores {
            s.store(0, Ordering::Relaxed);
        }
    }
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

/// Two killer moves per ply: quiet moves that recently failed high there.
#[derive(Clone)]
pub(crate) struct Killers([[Option<Move>; 2]; MAX_PLY + 1]);

impl Killers {
    pub(crate) fn new() -> Killers {
        Killers([[None; 2]; MAX_PLY + 1])
    }

    pub(crate) fn at(&self, ply: usize) -> [Option<Move>; 2] {
        self.0[ply.min(MAX_PLY)]
    }

    pub(crate) fn insert(&mut self, ply: usize, m: Move) {
        let k = &mut self.0[ply.min(MAX_PLY)];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
    }
}

/// The moves of a node with their ordering scores, handed out best first
/// (selection: cheap when a cut-off comes early).
pub(crate) struct MoveOrder {
    moves: MoveList,
    scores: [i32; surakarta::MAX_MOVES],
    next: usize,
}

impl MoveOrder {
    pub(crate) fn new(
        moves: MoveList,
        color: Color,
        table_move: Option<Move>,
        killers: [Option<Move>; 2],
        history: Option<&History>,
    ) -> MoveOrder {
        let mut scores = [0; surakarta::MAX_MOVES];
        for (score, &m) in scores.iter_mut().zip(moves.iter()) {
            let quiet = history.map_or(0, |h| h.get(color, m));
            *score = if Some(m) == table_move {
                ORDER_TABLE_MOVE
            } else if m.is_capture() {
                ORDER_CAPTURE + quiet
            } else if Some(m) == killers[0] {
                ORDER_KILLER + 1
            } else if Some(m) == killers[1] {
                ORDER_KILLER
            } else {
                quiet
            };
        }
        MoveOrder {
            moves,
            scores,
            next: 0,
        }
    }

    /// How many moves have not been handed out yet.
    pub(crate) fn remaining(&self) -> usize {
        self.moves.len() - self.next
    }
}

impl Iterator for MoveOrder {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use surakarta::Position;

    #[test]
    fn order_is_table_move_captures_killers_history() {
        let p: Position = "6/w5/6/6/2b3/1b4 b".parse().unwrap();
        let moves = p.legal_moves();
        let mut captures: Vec<Move> = moves.iter().copied().filter(|m| m.is_capture()).collect();
        assert_eq!(captures.len(), 2, "b1 and c2 take a5");
        let quiets: Vec<Move> = moves.iter().copied().filter(|m| !m.is_capture()).collect();
        let (table, killer, liked) = (quiets[3], quiets[5], quiets[7]);
        let history = History::new();
        history.reward(Color::Black, liked, &MoveList::new(), 4);
        let order: Vec<Move> = MoveOrder::new(
            moves.clone(),
            Color::Black,
            Some(table),
            [Some(killer), None],
            Some(&history),
        )
        .collect();
        assert_eq!(order.len(), moves.len());
        assert_eq!(order[0], table);
        let mut first_captures = order[1..3].to_vec();
        first_captures.sort();
        captures.sort();
        assert_eq!(first_captures, captures);
        assert_eq!(&order[3..5], &[killer, liked]);
        let mut sorted = order.clone();
        sorted.sort();
        let mut all: Vec<Move> = moves.iter().copied().collect();
        all.sort();
        assert_eq!(sorted, all, "every move exactly once");
    }

    #[test]
    fn history_saturates_and_debits() {
        let h = History::new();
        let p = Position::new();
        let moves = p.legal_moves();
        let (good, bad) = (moves[0], moves[1]);
        let tried: MoveList = [bad].into_iter().collect();
        for _ in 0..1000 {
            h.reward(Color::Black, good, &tried, 20);
        }
        assert!(
            h.get(Color::Black, good) <= HISTORY_MAX && h.get(Color::Black, good) > HISTORY_MAX / 2
        );
        assert!(h.get(Color::Black, bad) < 0);
        assert_eq!(h.get(Color::White, good), 0);
    }
}
