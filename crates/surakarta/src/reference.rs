//! A deliberately plain move generator that follows the rules text literally
//! on an array board. It is slow and obviously correct: the tests, the fuzz
//! targets and the benches compare the fast bitboard generator against it, and
//! other Surakarta programs may use it the same way.

use crate::color::Color;
use crate::moves::Move;
use crate::setup::Setup;
use crate::square::Square;

/// The two circuits written out as in the rules, `~` marking an arc.
const CIRCUITS: [&str; 2] = [
    "b1 b2 b3 b4 b5 b6 ~ a5 b5 c5 d5 e5 f5 ~ e6 e5 e4 e3 e2 e1 ~ f2 e2 d2 c2 b2 a2 ~",
    "c1 c2 c3 c4 c5 c6 ~ a4 b4 c4 d4 e4 f4 ~ d6 d5 d4 d3 d2 d1 ~ f3 e3 d3 c3 b3 a3 ~",
];

/// One stop on a circuit's loop: a point, or an arc.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    Point(usize),
    Arc,
}

fn circuit_loop(text: &str) -> Vec<Stop> {
    text.split_whitespace()
        .map(|token| match token {
            "~" => Stop::Arc,
            name => {
                let b = name.as_bytes();
                Stop::Point(((b[1] - b'1') * 6 + (b[0] - b'a')) as usize)
            }
        })
        .collect()
}

/// A board as an array of 36 points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ArrayBoard {
    /// `cells[i]`: the piece on the point with index `i`.
    pub cells: [Option<Color>; 36],
    /// The side to move.
    pub turn: Color,
}

impl ArrayBoard {
    /// The array form of a setup's placement and side to move.
    #[must_use]
    pub fn from_setup(setup: &Setup) -> ArrayBoard {
        let mut cells = [None; 36];
        for (i, cell) in cells.iter_mut().enumerate() {
            *cell = setup.piece_at(Square::ALL[i]);
        }
        ArrayBoard {
            cells,
            turn: setup.turn,
        }
    }

    /// Every legal move, sorted, each `(from, to)` once.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        let loops = CIRCUITS.map(circuit_loop);
        let me = Some(self.turn);
        let enemy = Some(!self.turn);
        for from in 0..36 {
            if self.cells[from] != me {
                continue;
            }
            // Steps: the eight neighbours that are on the board and empty.
            let (x, y) = ((from % 6) as i32, (from / 6) as i32);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    let (tx, ty) = (x + dx, y + dy);
                    if (dx, dy) == (0, 0) || !(0..6).contains(&tx) || !(0..6).contains(&ty) {
                        continue;
                    }
                    let to = (ty * 6 + tx) as usize;
                    if self.cells[to].is_none() {
                        moves.push(Move::step(Square::ALL[from], Square::ALL[to]));
                    }
                }
            }
            // Captures: from every place the piece stands on each loop, in
            // both directions, walk over empty points (its own start counts
            // as empty) until the first occupied point; capture it if it is an
            // enemy and at least one arc was passed.
            for stops in &loops {
                let n = stops.len() as i32;
                for start in 0..stops.len() {
                    if stops[start] != Stop::Point(from) {
                        continue;
                    }
                    for dir in [1, -1] {
                        let mut i = start as i32;
                        let mut arcs = 0;
                        for _ in 0..2 * n {
                            i = (i + dir).rem_euclid(n);
                            match stops[i as usize] {
                                Stop::Arc => arcs += 1,
                                Stop::Point(p) if p == from || self.cells[p].is_none() => {}
                                Stop::Point(p) => {
                                    if self.cells[p] == enemy && arcs > 0 {
                                        moves
                                            .push(Move::capture(Square::ALL[from], Square::ALL[p]));
                                    }
                                    break;
                                }
                            }
                        }
                    }
                }
            }
        }
        moves.sort();
        moves.dedup();
        moves
    }

    /// The board after a legal move.
    #[must_use]
    pub fn after(&self, m: Move) -> ArrayBoard {
        let mut next = *self;
        next.cells[m.to().index()] = next.cells[m.from().index()].take();
        next.turn = !self.turn;
        next
    }
}

/// The legal moves of a setup's position by the literal rules, sorted.
#[must_use]
pub fn legal_moves(setup: &Setup) -> Vec<Move> {
    ArrayBoard::from_setup(setup).legal_moves()
}

/// Perft by the plain generator (no bulk counting at the last ply).
#[must_use]
pub fn perft(setup: &Setup, depth: u32) -> u64 {
    fn go(board: &ArrayBoard, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        board
            .legal_moves()
            .into_iter()
            .map(|m| go(&board.after(m), depth - 1))
            .sum()
    }
    go(&ArrayBoard::from_setup(setup), depth)
}
