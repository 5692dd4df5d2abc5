//! [Proptest] strategies for the rules' types, for property tests in
//! programs that depend on this crate (cargo feature `proptest`).
//!
//! Every strategy yields valid values only: positions that
//! [`Position::from_setup`] accepts, moves legal in their position, games
//! played by the rules. The crate's own property tests draw from these.
//!
//! ```
//! use proptest::prelude::*;
//! use surakarta::strategy;
//!
//! proptest! {
//!     // In a test file, with `#[test]` above it.
//!     fn every_legal_move_can_be_undone(
//!         (position, m) in strategy::position()
//!             .prop_filter("has a move", |p| !p.legal_moves().is_empty())
//!             .prop_flat_map(|p| (Just(p), strategy::legal_move(p)))
//!     ) {
//!         let mut after = position;
//!         let undo = after.play_unchecked(m);
//!         after.undo(m, undo);
//!         prop_assert_eq!(after, position);
//!     }
//! }
//! # every_legal_move_can_be_undone();
//! ```
//!
//! [Proptest]: https://docs.rs/proptest

use crate::{Bitboard, Color, Game, Move, Position, Rules, Setup, Square};
use core::ops::RangeInclusive;
use proptest::arbitrary::Arbitrary;
use proptest::prelude::*;
use proptest::sample::Index;

/// Any of the 36 points.
pub fn square() -> impl Strategy<Value = Square> {
    (0u8..36).prop_map(|i| Square::ALL[usize::from(i)])
}

/// Any set of points.
pub fn bitboard() -> impl Strategy<Value = Bitboard> {
    (0u64..1 << 36).prop_map(Bitboard::from_bits_truncate)
}

/// Either side.
pub fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::Black), Just(Color::White)]
}

/// A valid position, of three kinds in turn: reached by random legal play
/// from the start (captures played now and then, so games thin out), a
/// random board (each point empty, black or white), and a sparse
/// endgame-like board of 2 to 10 pieces; either side to move, counters
/// random where the board is.
pub fn position() -> impl Strategy<Value = Position> {
    prop_oneof![played_position(), dense_position(), position_with(2..=10)]
}

/// A valid position with a number of pieces (both sides together) in
/// `pieces`, placed at random; either side to move. The range is clamped
/// to 1–24; where it allows few valid positions (1 piece: the side to move
/// has none) proptest rejects many draws.
pub fn position_with(pieces: RangeInclusive<u32>) -> impl Strategy<Value = Position> {
    let low = (*pieces.start()).clamp(1, 24) as usize;
    let high = (*pieces.end()).clamp(low as u32, 24) as usize;
    (
        proptest::sample::subsequence((0u8..36).collect::<Vec<_>>(), low..=high),
        any::<u32>(),
        color(),
    )
        .prop_filter_map("not a valid position", |(points, colours, turn)| {
            let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
            for (i, &p) in points.iter().enumerate() {
                let sq = Square::ALL[usize::from(p)];
                if colours >> i & 1 == 1 {
                    black.insert(sq);
                } else {
                    white.insert(sq);
                }
            }
            let (us, them) = match turn {
                Color::Black => (black, white),
                Color::White => (white, black),
            };
            Position::from_sides(us, them, turn).ok()
        })
}

/// Each point empty, black or white (at most 12 a side), counters random.
fn dense_position() -> impl Strategy<Value = Position> {
    (
        proptest::collection::vec(0u8..3, 36),
        color(),
        0u32..60,
        1u32..100,
    )
        .prop_filter_map(
            "not a valid position",
            |(cells, turn, halfmoves, fullmoves)| {
                let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
                for (sq, c) in Square::ALL.into_iter().zip(cells) {
                    match c {
                        1 if black.len() < 12 => black.insert(sq),
                        2 if white.len() < 12 => white.insert(sq),
                        _ => {}
                    }
                }
                Position::from_setup(Setup {
                    black,
                    white,
                    turn,
                    halfmoves,
                    fullmoves,
                })
                .ok()
            },
        )
}

/// Up to 120 random legal plies from the start.
fn played_position() -> impl Strategy<Value = Position> {
    proptest::collection::vec(any::<u8>(), 0..120).prop_map(|choices| {
        let mut position = Position::new();
        for c in choices {
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures = position.captures();
            let m = if c % 4 == 0 && !captures.is_empty() {
                captures[usize::from(c) % captures.len()]
            } else {
                moves[usize::from(c) % moves.len()]
            };
            position.play_unchecked(m);
        }
        position
    })
}

/// A legal move of `position`. A position without a legal move (the game
/// is over) has none to give: every draw is rejected, and proptest reports
/// too many rejections, so filter such positions out first.
pub fn legal_move(position: Position) -> impl Strategy<Value = Move> {
    let moves = position.legal_moves().to_vec();
    any::<Index>().prop_filter_map("the position has no legal move", move |i| {
        (!moves.is_empty()).then(|| moves[i.index(moves.len())])
    })
}

/// A game of up to `plies` random legal moves from the start under rules
/// drawn by [`rules`]; it stops where the game ends.
pub fn game(plies: usize) -> impl Strategy<Value = Game> {
    (
        rules(),
        proptest::collection::vec(any::<Index>(), 0..=plies),
    )
        .prop_map(|(rules, choices)| {
            let mut game = Game::new(Position::new(), rules);
            for i in choices {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                if game.play(moves[i.index(moves.len())]).is_err() {
                    break;
                }
            }
            game
        })
}

/// A rule set: a preset or custom limits (2–9 repetitions, 1–200 plies
/// without a capture, either possibly off).
pub fn rules() -> impl Strategy<Value = Rules> {
    prop_oneof![
        Just(Rules::PURE),
        Just(Rules::ICGA),
        Just(Rules::PKU),
        (
            proptest::option::of(2u32..10),
            proptest::option::of(1u32..=200)
        )
            .prop_filter_map("valid limits", |(repetitions, no_capture)| Rules::new(
                repetitions,
                no_capture
            )
            .ok()),
    ]
}

/// Implements [`Arbitrary`] through one of the strategies above.
macro_rules! arbitrary_via {
    ($type:ty, $strategy:expr_2021) => {
        impl Arbitrary for $type {
            type Parameters = ();
            type Strategy = BoxedStrategy<$type>;

            fn arbitrary_with(_: ()) -> Self::Strategy {
                $strategy.boxed()
            }
        }
    };
}

arbitrary_via!(Square, square());
arbitrary_via!(Bitboard, bitboard());
arbitrary_via!(Color, color());
arbitrary_via!(Position, position());
arbitrary_via!(Rules, rules());

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    #[test]
    fn positions_with_a_piece_count_have_it() {
        let mut runner = TestRunner::deterministic();
        for range in [2..=2, 3..=5, 20..=24] {
            let strategy = position_with(range.clone());
            for _ in 0..200 {
                let p = strategy.new_tree(&mut runner).unwrap().current();
                let n = p.pieces(Color::Black).len() + p.pieces(Color::White).len();
                assert!(range.contains(&n), "{p} has {n} pieces");
            }
        }
    }

    #[test]
    fn moves_are_legal_and_games_follow_the_rules() {
        let mut runner = TestRunner::deterministic();
        let positions = position();
        let mut moves_seen = 0;
        for _ in 0..300 {
            let p = positions.new_tree(&mut runner).unwrap().current();
            if p.legal_moves().is_empty() {
                continue;
            }
            let m = legal_move(p).new_tree(&mut runner).unwrap().current();
            assert!(p.is_legal(m), "{m} in {p}");
            moves_seen += 1;
        }
        assert!(moves_seen > 200);
        let games = game(60);
        for _ in 0..50 {
            let g = games.new_tree(&mut runner).unwrap().current();
            let replay = crate::record::GameRecord::from_game(&g).to_game().unwrap();
            assert_eq!(replay, g);
        }
    }
}
