//! Arbitrary text into the move parsers.
//!
//! Invariants: parsing never panics; a parsed `MoveText` prints as text that
//! parses back to the same `MoveText`; on the start position and on a
//! capture-rich position, `Position::parse_move` succeeds exactly when a legal
//! move has the written origin and target (and, if the text says step or
//! capture, that kind), and the move it returns is in `legal_moves()`; every
//! legal move's `to_string()` (and its separator-less form) parses back to
//! the same move; a `Game` fed the text's whitespace-separated words with
//! `play_text` accepts exactly the legal ones.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::Once;
use surakarta::{Game, GameError, MoveError, MoveText, Position, Rules};

/// The start position and one with captures in every direction.
const POSITIONS: [&str; 2] = [
    "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1",
    "ww1w2/5w/3bww/6/1w2b1/b3bb b",
];

fn check_in(pos: &Position, text: &str, parsed: &Result<MoveText, surakarta::ParseMoveError>) {
    let legal = pos.legal_moves();
    match (pos.parse_move(text), parsed) {
        (Ok(m), Ok(mt)) => {
            assert!(
                legal.contains(&m),
                "{pos:?}: parse_move({text:?}) = {m} is not legal"
            );
            assert!(
                pos.is_legal(m),
                "{pos:?}: {m} from parse_move is not is_legal"
            );
            assert_eq!((m.from(), m.to()), (mt.from, mt.to), "{pos:?}: {text:?}");
            if let Some(capture) = mt.capture {
                assert_eq!(m.is_capture(), capture, "{pos:?}: {text:?} gave {m}");
            }
        }
        (Ok(m), Err(e)) => panic!("{pos:?}: parse_move({text:?}) = {m} but MoveText fails: {e}"),
        (Err(MoveError::Syntax { text: given, error }), Err(e)) => {
            assert_eq!(error, *e, "{pos:?}: {text:?}");
            assert!(
                text.starts_with(given.head()),
                "{pos:?}: {text:?} echoed as {given}"
            );
        }
        (Err(e), Err(_)) => panic!("{pos:?}: {text:?} is not a move, yet the error is {e:?}"),
        (Err(MoveError::Syntax { error: e, .. }), Ok(_)) => {
            panic!("{pos:?}: {text:?} parses as MoveText but parse_move says {e}")
        }
        (Err(e), Ok(mt)) => {
            // Rejected: then no legal move has this origin and target and the written kind.
            let matching = legal.iter().find(|m| {
                m.from() == mt.from
                    && m.to() == mt.to
                    && mt.capture.is_none_or(|c| c == m.is_capture())
            });
            assert!(
                matching.is_none(),
                "{pos:?}: {text:?} rejected ({e}) but {matching:?} is legal"
            );
        }
    }
}

/// Every legal move of `pos` is written so that it parses back to itself.
fn check_legal_moves_round_trip(pos: &Position) {
    for m in pos.legal_moves() {
        let written = m.to_string();
        assert_eq!(pos.parse_move(&written), Ok(m), "{pos:?}: {written}");
        let bare = format!("{}{}", m.from(), m.to());
        assert_eq!(pos.parse_move(&bare), Ok(m), "{pos:?}: {bare}");
    }
}

fuzz_target!(|data: &[u8]| {
    // The same for every input: check it once per process.
    static ROUND_TRIP: Once = Once::new();
    ROUND_TRIP.call_once(|| {
        for fen in POSITIONS {
            check_legal_moves_round_trip(&fen.parse().expect("fixed position is valid"));
        }
    });

    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };

    let parsed = text.parse::<MoveText>();
    if let Ok(mt) = &parsed {
        let printed = mt.to_string();
        assert_eq!(
            printed.parse::<MoveText>().as_ref(),
            Ok(mt),
            "MoveText round trip of {text:?}"
        );
        assert_eq!(printed, text, "MoveText of {text:?} prints differently");
    }

    for fen in POSITIONS {
        let pos: Position = fen.parse().expect("fixed position is valid");
        check_in(&pos, text, &parsed);

        // Play the text's words as a game: accepted exactly when legal.
        let mut game = Game::new(pos, Rules::ICGA);
        for word in text.split_whitespace().take(64) {
            let before = *game.position();
            let over = game.outcome();
            let expected = before.parse_move(word);
            match game.play_text(word) {
                Ok(m) => {
                    assert!(over.is_none(), "{before:?}: {word} played after {over:?}");
                    check_legal_moves_round_trip(game.position());
                    assert_eq!(expected, Ok(m), "{before:?}: {word}");
                    assert_eq!(*game.position(), before.after(m), "{before:?}: {word}");
                }
                Err(GameError::GameOver(o)) => assert_eq!(over, Some(o), "{before:?}: {word}"),
                Err(GameError::Move(e)) => {
                    assert!(over.is_none(), "{before:?}: {word}");
                    assert_eq!(expected, Err(e), "{before:?}: {word}");
                    assert_eq!(*game.position(), before, "{before:?}: {word}");
                }
            }
        }
    }
});
