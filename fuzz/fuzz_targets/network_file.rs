//! Network files (`.sknn`) and training data (`.skdata`) from hostile bytes.
//!
//! The first input byte is a mode. Bit 0 set: the rest gets a valid
//! checksum written into its last four bytes before parsing, so the fuzzer
//! reaches the field and bound checks behind it. Bit 1 set: the rest is
//! read as training data instead. Invariants: nothing panics; a network
//! that reads writes back to the same bytes and evaluates every position
//! inside the evaluation's range without an overflow (the fuzz build
//! checks them: the loader must have refused any network that could
//! overflow), on a game and on full and lopsided boards, its accumulator
//! updated along the game equal to one computed afresh; training data
//! passes the checks of `surakarta_fuzz::check_training_data` (the target
//! `training_data` has the same checks, with framing of valid checksums).

#![no_main]

use libfuzzer_sys::fuzz_target;
use surakarta::random::{random_position, SplitMix};
use surakarta::{Color, Position};
use surakarta_search::network::{Accumulator, Network};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode & 2 != 0 {
        surakarta_fuzz::check_training_data(rest);
        return;
    }
    let mut bytes = rest.to_vec();
    if mode & 1 != 0 && bytes.len() >= 4 {
        let n = bytes.len();
        let crc = crc32fast::hash(&bytes[..n - 4]);
        bytes[n - 4..].copy_from_slice(&crc.to_le_bytes());
    }
    let Ok(net) = Network::from_bytes(&bytes) else {
        return;
    };
    assert_eq!(net.to_bytes(), bytes);
    let mut position = Position::new();
    let mut acc = Accumulator::new(&net, &position);
    for step in 0..40 {
        let score = net.evaluate_with(&acc, &position);
        assert!(score.abs() < 20_000);
        let moves = position.legal_moves();
        if moves.is_empty() || position.outcome().is_some() {
            break;
        }
        let m = moves[(step * 7 + usize::from(mode)) % moves.len()];
        let child = position.after(m);
        acc = acc.after(&net, &position, m);
        position = child;
        assert_eq!(acc, Accumulator::new(&net, &position));
    }
    // Full and lopsided boards reach the accumulator's extremes that a
    // short game from the start does not.
    let mut rng = SplitMix::new(u64::from(mode));
    for (black, white) in [(12, 12), (12, 1), (1, 12), (6, 6)] {
        for turn in [Color::Black, Color::White] {
            if let Ok(p) = random_position(&mut rng, black, white, turn) {
                assert!(net.evaluate(&p).abs() < 20_000);
            }
        }
    }
});
