//! Arbitrary text into the position parsers.
//!
//! Invariants: parsing never panics; a parsed `Setup` prints as text that
//! parses back to an equal `Setup`; a `Position` parses exactly when its
//! `Setup` parses and validates; a parsed `Position` prints as text that
//! parses back to an equal `Position`, its incremental hash equals the hash
//! computed from scratch, and the fast move generator agrees with
//! `surakarta::reference::legal_moves`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use surakarta::{Move, Position, Setup};

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
    assert_eq!(pos.hash(), pos.compute_hash(), "{text:?}: stale hash");

    let mut fast: Vec<Move> = pos.legal_moves().to_vec();
    fast.sort();
    let reference = surakarta::reference::legal_moves(&pos.to_setup());
    assert_eq!(
        fast, reference,
        "{text:?}: fast and reference move generators disagree"
    );
    assert_eq!(pos.count_moves(), fast.len(), "{text:?}: count_moves");
    assert_eq!(pos.has_moves(), !fast.is_empty(), "{text:?}: has_moves");
});
