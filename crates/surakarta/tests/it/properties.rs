//! Property tests: the fast generator against the plain reference, notation
//! round trips, hashing, undo and symmetry.

use proptest::prelude::*;
use surakarta::{perft, reference, strategy, Bitboard, Move, Position, Setup, Symmetry};

/// Positions from the crate's own strategies (feature `proptest`): the same
/// source of random positions that downstream tests use.
fn any_position() -> impl Strategy<Value = Position> {
    strategy::position()
}

fn sorted(moves: &[Move]) -> Vec<Move> {
    let mut v = moves.to_vec();
    v.sort();
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Every generated move is legal and every legal move is generated.
    #[test]
    fn movegen_matches_reference(pos in any_position()) {
        let fast = pos.legal_moves();
        let slow = reference::legal_moves(&pos.to_setup());
        prop_assert_eq!(sorted(&fast), slow.clone(), "{}", pos);
        prop_assert_eq!(fast.len(), slow.len(), "duplicates in the fast list at {}", pos);
        prop_assert_eq!(pos.count_moves(), slow.len());
        prop_assert_eq!(pos.has_moves(), !slow.is_empty());
        let captures: Vec<Move> = slow.iter().copied().filter(|m| m.is_capture()).collect();
        prop_assert_eq!(sorted(&pos.captures()), captures.clone());
        let targets: Bitboard = captures.iter().map(|m| m.to()).collect();
        prop_assert_eq!(pos.capture_targets(pos.turn()), targets);
        let (us, them) = (pos.pieces(pos.turn()), pos.pieces(!pos.turn()));
        prop_assert_eq!(surakarta::has_capture(us, them), !captures.is_empty(), "{}", pos);
        let safe = slow
            .iter()
            .filter(|m| !m.is_capture())
            .filter(|m| {
                let after = pos.after(**m);
                !after.captures().iter().any(|_| true)
            })
            .count() as u32;
        for limit in [0, 1, 3, 40] {
            prop_assert_eq!(surakarta::count_safe_steps(us, them, limit), safe.min(limit), "{}", pos);
        }
        for m in &slow {
            prop_assert!(pos.is_legal(*m), "{} should be legal at {}", m, pos);
        }
    }

    /// The fast safe-step count (captures listed once, most steps decided
    /// without a test) against the plain one (a capture test after every
    /// step), for both sides and several limits.
    #[test]
    fn safe_steps_match_reference(pos in prop_oneof![any_position(), strategy::position_with(4..=12)]) {
        let (black, white) = (pos.pieces(surakarta::Color::Black), pos.pieces(surakarta::Color::White));
        for (us, them) in [(black, white), (white, black)] {
            for limit in [0, 1, 2, 3, 5, 40] {
                prop_assert_eq!(
                    surakarta::count_safe_steps(us, them, limit),
                    surakarta::count_safe_steps_reference(us, them, limit),
                    "{} limit {}", pos, limit
                );
            }
        }
    }

    /// `is_legal` rejects what the generator does not produce.
    #[test]
    fn is_legal_agrees_with_generator(pos in any_position(), from in 0u8..36, to in 0u8..36, capture: bool) {
        let (from, to) = (surakarta::Square::ALL[from as usize], surakarta::Square::ALL[to as usize]);
        let m = if capture { Move::capture(from, to) } else { Move::step(from, to) };
        prop_assert_eq!(pos.is_legal(m), pos.legal_moves().contains(&m));
        prop_assert_eq!(pos.play(m).is_ok(), pos.legal_moves().contains(&m));
    }

    #[test]
    fn notation_round_trip(pos in any_position()) {
        let text = pos.to_string();
        prop_assert_eq!(text.parse::<Position>(), Ok(pos));
        let setup = pos.to_setup();
        prop_assert_eq!(setup.to_string(), text.clone());
        prop_assert_eq!(text.parse::<Setup>(), Ok(setup));
        for m in pos.legal_moves() {
            prop_assert_eq!(pos.parse_move(&m.to_string()), Ok(m));
        }
    }

    #[test]
    fn incremental_hash_equals_fresh_hash(pos in any_position(), choices in proptest::collection::vec(any::<u8>(), 1..40)) {
        let mut pos = pos;
        for c in choices {
            prop_assert_eq!(pos.zobrist(), pos.compute_zobrist());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[c as usize % moves.len()]);
        }
        prop_assert_eq!(pos.zobrist(), pos.compute_zobrist());
    }

    #[test]
    fn play_then_undo_restores(pos in any_position()) {
        for m in pos.legal_moves() {
            let mut p = pos;
            let undo = p.play_unchecked(m);
            prop_assert_eq!(p, pos.after(m));
            prop_assert_eq!(p.turn(), !pos.turn());
            let lost = pos.them().len() - p.pieces(!pos.turn()).len();
            prop_assert_eq!(lost, u32::from(m.is_capture()));
            p.undo(m, undo);
            prop_assert_eq!(p, pos);
        }
    }

    /// Symmetric positions have the symmetric moves.
    #[test]
    fn moves_commute_with_symmetries(pos in any_position()) {
        let moves = sorted(&pos.legal_moves());
        for sym in Symmetry::ALL {
            let image = pos.transformed(sym);
            let mapped: Vec<Move> = moves.iter().map(|m| m.transformed(sym)).collect();
            prop_assert_eq!(sorted(&image.legal_moves()), sorted(&mapped), "{}", sym);
            prop_assert_eq!(image.transformed(sym.inverse()), pos);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn perft_is_invariant_under_symmetries(pos in any_position()) {
        let expected = perft(&pos, 3);
        for sym in Symmetry::ALL {
            prop_assert_eq!(perft(&pos.transformed(sym), 3), expected, "{} under {}", pos, sym);
        }
    }

    #[test]
    fn perft_matches_reference_perft(pos in strategy::position_with(2..=10)) {
        prop_assert_eq!(perft(&pos, 2), reference::perft(&pos.to_setup(), 2));
    }
}
