//! Arbitrary text as a match's record file, read back for `match --resume`.
//!
//! The identity is a small match (two start openings, event "m", first
//! player "a", no clock). Invariants: reading never panics; the whole
//! records end inside the text, on a line start; each game read names an
//! opening of the match; reading the whole records alone gives the same
//! games and the same length (a cut-off tail is all that is dropped).

#![no_main]

use libfuzzer_sys::fuzz_target;
use surakarta::{Position, Rules};
use surakarta_match::record_file::{read_played, MatchIdentity};

fuzz_target!(|text: &str| {
    let openings = [
        Position::new(),
        Position::new().after(Position::new().legal_moves()[0]),
    ];
    let identity = MatchIdentity {
        event: "m",
        first: "a",
        rules: Rules::ICGA,
        time_control: None,
        openings: &openings,
    };
    let Ok(played) = read_played(text, &identity) else {
        return;
    };
    assert!(played.whole_len <= text.len());
    assert!(
        played.whole_len == 0
            || text[..played.whole_len].ends_with('\n')
            || played.whole_len == text.len()
    );
    assert!(played.games.iter().all(|g| g.opening < openings.len()));
    let again =
        read_played(&text[..played.whole_len], &identity).expect("the whole records read again");
    assert_eq!(again.games, played.games);
    assert_eq!(again.whole_len, played.whole_len);
});
