//! Bytes as a game: a start position, then one move index per byte.
//!
//! If the first byte is even the game starts from the start position. If it
//! is odd, the next 13 bytes build a position: 6 bytes of black bitboard,
//! 6 of white (little-endian, masked to the 36 points), and one byte whose
//! low bit is the side to move and whose other bits are the no-capture ply
//! count; `Position::from_setup` validates it and invalid ones are skipped.
//! Every following byte picks `moves[byte % len]` and plays it.
//!
//! Invariants checked at every ply: the fast move list equals the reference
//! generator's (sorted); `count_moves`, `has_moves`, `captures` and
//! `is_legal` agree with it; the side to move has no moves exactly when
//! `Position::outcome` says so; all eight symmetric images have the same
//! moves up to the symmetry; after `play_unchecked` the incremental hash
//! equals `compute_zobrist`, no piece count increases, a capture removes exactly
//! one enemy piece and a step none, and `undo` restores the exact previous
//! position. A `Game` under `Rules::ICGA` is driven alongside: it stays in
//! step with the position until `Game::outcome()` is `Some`, from when on its
//! `legal_moves()` is empty and `play` refuses with `GameOver`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use surakarta::{Bitboard, Color, Game, GameError, Position, Rules, Setup};
use surakarta_fuzz::check_position;

/// Longest game played from one input.
const MAX_PLIES: usize = 512;

fn bitboard(bytes: &[u8]) -> Bitboard {
    let mut word = [0u8; 8];
    word[..6].copy_from_slice(bytes);
    Bitboard::from_bits_truncate(u64::from_le_bytes(word))
}

/// The start position and the move bytes, or `None` for an invalid position.
fn start(data: &[u8]) -> Option<(Position, &[u8])> {
    match data.split_first() {
        None => None,
        Some((first, rest)) if first % 2 == 0 => Some((Position::new(), rest)),
        Some((_, rest)) => {
            if rest.len() < 13 {
                return None;
            }
            let (board, moves) = rest.split_at(13);
            let setup = Setup {
                black: bitboard(&board[0..6]),
                white: bitboard(&board[6..12]),
                turn: if board[12] & 1 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                halfmoves: u32::from(board[12] >> 1),
                fullmoves: 1,
            };
            let pos = Position::from_setup(setup.clone()).ok()?;
            assert_eq!(pos.to_setup(), setup);
            assert_eq!(pos.to_string().parse::<Position>(), Ok(pos));
            Some((pos, moves))
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((mut pos, indices)) = start(data) else {
        return;
    };
    let mut game = Game::new(pos, Rules::ICGA);
    let mut game_live = true;

    for &byte in indices.iter().take(MAX_PLIES) {
        let moves = check_position(&pos);

        if game_live {
            assert_eq!(*game.position(), pos, "game out of step");
            assert!(
                game.repetitions() >= 1,
                "{pos:?}: the current position counts once"
            );
            match game.outcome() {
                Some(outcome) => {
                    assert!(
                        game.legal_moves().is_empty(),
                        "{pos:?}: game over ({outcome}) but moves"
                    );
                    if let Some(pure) = pos.outcome() {
                        assert_eq!(outcome, pure, "{pos:?}");
                    } else {
                        assert!(
                            pos.halfmoves() >= 50 || game.repetitions() >= 3,
                            "{pos:?}: game over ({outcome}) for no reason"
                        );
                    }
                    if let Some(&m) = moves.first() {
                        assert_eq!(game.play(m), Err(GameError::GameOver(outcome)), "{pos:?}");
                    }
                    game_live = false;
                }
                None => {
                    assert!(
                        pos.outcome().is_none(),
                        "{pos:?}: pure outcome but game goes on"
                    );
                    assert!(pos.halfmoves() < 50, "{pos:?}: no-capture limit ignored");
                    assert!(game.repetitions() < 3, "{pos:?}: repetition ignored");
                    assert_eq!(game.legal_moves().to_vec(), moves, "{pos:?}: game moves");
                }
            }
        }

        if moves.is_empty() {
            break;
        }
        let m = moves[byte as usize % moves.len()];

        let prev = pos;
        let undo = pos.play_unchecked(m);
        assert_eq!(
            pos.zobrist(),
            pos.compute_zobrist(),
            "{prev:?} after {m}: stale hash"
        );
        assert_eq!(pos, prev.after(m), "{prev:?}: after {m}");
        assert_eq!(prev.play(m), Ok(pos), "{prev:?}: play {m}");
        assert_eq!(pos.turn(), !prev.turn(), "{prev:?}: {m}");
        let (us, them) = (prev.turn(), !prev.turn());
        let count = |p: &Position, c: Color| p.pieces(c).len();
        assert_eq!(
            count(&pos, us),
            count(&prev, us),
            "{prev:?}: {m} changed the mover's pieces"
        );
        let lost = if m.is_capture() { 1 } else { 0 };
        assert_eq!(
            count(&pos, them) + lost,
            count(&prev, them),
            "{prev:?}: {m}"
        );
        if m.is_capture() {
            assert_eq!(pos.halfmoves(), 0, "{prev:?}: {m}");
        } else {
            assert_eq!(pos.halfmoves(), prev.halfmoves() + 1, "{prev:?}: {m}");
        }

        let mut back = pos;
        back.undo(m, undo);
        assert_eq!(back, prev, "{prev:?}: undo of {m}");
        assert_eq!(back.zobrist(), prev.zobrist(), "{prev:?}: undo of {m}");

        if game_live {
            game.play(m)
                .unwrap_or_else(|e| panic!("{prev:?}: game refuses {m}: {e}"));
            assert_eq!(game.undo(), Some(m), "{prev:?}: game undo");
            assert_eq!(*game.position(), prev, "{prev:?}: game undo of {m}");
            game.play(m)
                .unwrap_or_else(|e| panic!("{prev:?}: game refuses {m} again: {e}"));
        }
    }
    check_position(&pos);
});
