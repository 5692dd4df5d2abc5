//! Arbitrary text into the game-record reader.
//!
//! Invariants: reading never panics, and an error names a line of the text;
//! every record read is valid (its moves replay with the checked
//! `Game::play`, to the same game as `GameRecord::to_game`, and a finished
//! game's result is its outcome's); every record read writes back to text
//! that reads to an equal record and writes the same text again; marks
//! and comments are kept in their canonical form; a file of
//! records written with `format_all` reads back to the same records; a text
//! reads as a single record exactly when it reads as a file of one record.

#![no_main]

use libfuzzer_sys::fuzz_target;
use surakarta::record::MAX_COMMENT_LEN;
use surakarta::{Game, GameRecord, GameResult, Position, RecordErrorKind, Rules};

fn check(record: &GameRecord) {
    let text = record.to_string();
    let back: GameRecord = text
        .parse()
        .unwrap_or_else(|e| panic!("{record:?} writes as\n{text}\nwhich fails: {e}"));
    assert_eq!(&back, record, "round trip through\n{text}");
    assert_eq!(back.to_string(), text, "written twice differently");

    let game = record
        .to_game()
        .unwrap_or_else(|e| panic!("{record:?}: a record read does not replay: {e}"));
    let mut slow = Game::new(record.start, record.rules);
    for &m in &record.moves {
        slow.play(m)
            .unwrap_or_else(|e| panic!("{record:?}: Game::play({m}): {e}"));
    }
    assert_eq!(game, slow, "to_game differs from Game::play");
    if let Some(outcome) = slow.outcome() {
        assert_eq!(
            record.result,
            GameResult::from_outcome(Some(outcome)),
            "{record:?}: finished game with another result"
        );
    }

    // Marks and comments: at most one entry a move, none empty at the end,
    // comments in their kept form (no `}`, single spaces, not empty).
    assert!(record.annotations.len() <= record.moves.len());
    assert!(!record.annotations.last().is_some_and(|a| a.is_empty()));
    let comments = record
        .annotations
        .iter()
        .filter_map(|a| a.comment.as_deref())
        .chain(record.intro.as_deref());
    for c in comments {
        assert!(!c.is_empty() && !c.contains('}') && c.len() <= MAX_COMMENT_LEN);
        assert_eq!(c.split_ascii_whitespace().collect::<Vec<_>>().join(" "), c);
    }

    // The tags that set fields agree with them.
    let rules = record.rules.to_string();
    let start = record.start.to_string();
    assert!(record
        .tag("Rules")
        .map_or(record.rules == Rules::default(), |t| t == rules));
    assert!(record
        .tag("Start")
        .map_or(record.start == Position::new(), |t| t == start));
    if let Some(result) = record.tag("Result") {
        assert_eq!(result, record.result.as_str());
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let all = GameRecord::parse_all(text);
    let one = text.parse::<GameRecord>();
    let lines = text.split('\n').count();

    match &all {
        Ok(records) => {
            for record in records {
                check(record);
            }
            let written = GameRecord::format_all(records)
                .expect("records that were read can be written");
            assert_eq!(
                GameRecord::parse_all(&written).as_ref(),
                Ok(records),
                "file round trip through\n{written}"
            );
            match records.as_slice() {
                [record] => assert_eq!(one.as_ref(), Ok(record)),
                [] => assert_eq!(
                    one.as_ref().map_err(|e| &e.kind),
                    Err(&RecordErrorKind::NoGame)
                ),
                _ => assert_eq!(
                    one.as_ref().map_err(|e| &e.kind),
                    Err(&RecordErrorKind::ExtraGame)
                ),
            }
        }
        Err(e) => assert!((1..=lines).contains(&e.line), "{e} is beyond the text"),
    }
    match &one {
        Ok(record) => assert_eq!(all.as_deref(), Ok(std::slice::from_ref(record))),
        Err(e) => assert!((1..=lines).contains(&e.line), "{e} is beyond the text"),
    }
});
