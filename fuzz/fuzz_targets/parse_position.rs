//! Arbitrary text into the position parsers.
//!
//! Invariants: parsing never panics; a parsed `Setup` prints as text that
//! parses back to an equal `Setup`; a `Position` parses exactly when its
//! `Setup` parses and validates; a parsed `Position` prints as text that
//! parses back to an equal `Position`, and it passes every single-position
//! check of `surakarta_fuzz::check_position` (fresh hash, fast generator
//! equal to `surakarta::reference::legal_moves`, symmetric images).

#![no_main]

use libfuzzer_sys::fuzz_target;
use surakarta::{Position, Setup};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };

    let setup = text.parse::<Setup>();
    if let Ok(setup) = &setup {
        let printed = setup.to_string();
        let reparsed = printed.parse::<Setup>();
        assert_eq!(
            reparsed.as_ref(),
            Ok(setup),
            "Setup round trip of {text:?} via {printed:?}"
        );
        assert_eq!(
            reparsed.unwrap().to_string(),
            printed,
            "Setup text is not a fixed point"
        );
    }

    let position = text.parse::<Position>();
    // `Position::from_str` is `Setup::from_str` followed by validation.
    let via_setup = setup.clone().ok().map(Position::from_setup);
    match (&position, &via_setup) {
        (Ok(pos), Some(Ok(p))) => assert_eq!(pos, p, "{text:?}"),
        (Err(_), None) | (Err(_), Some(Err(_))) => {}
        _ => {
            panic!("{text:?}: Position {position:?} but Setup {setup:?} validates to {via_setup:?}")
        }
    }

    let Ok(pos) = position else {
        return;
    };
    let printed = pos.to_string();
    assert_eq!(
        Ok(&printed),
        setup.as_ref().map(Setup::to_string).as_ref(),
        "{text:?}"
    );
    assert_eq!(
        printed.parse::<Position>(),
        Ok(pos),
        "Position round trip of {text:?} via {printed:?}"
    );
    assert_eq!(pos.to_setup(), setup.unwrap(), "{text:?}");

    surakarta_fuzz::check_position(&pos);
});
