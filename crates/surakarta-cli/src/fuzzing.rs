//! Entry points for the fuzz targets in `fuzz/`: the parts of the command
//! line that read hostile input, driven without a terminal or a network.
//! Not an API: hidden from the docs, and may change at any time.

use crate::commands::engine::command::Command;
use crate::common::game::build_game;
use surakarta::{Color, Rules};
use surakarta_match::lines::{LineReader, MAX_LINE_BYTES};

/// Feeds `input` to the engine protocol's line handling as `surakarta
/// engine` reads its stdin: lines with the length limit, then each line
/// parsed into a command; a `position` command's game is built, a `go`
/// command's limits are worked out for both sides. Nothing is searched or
/// allocated by option. Returns the number of lines read.
///
/// Panics (which the fuzzer reports) if an invariant breaks: a line longer
/// than the limit is kept, or an error message is empty, spans lines or
/// runs longer than a line's excerpt allows.
pub fn engine_protocol(input: &[u8]) -> usize {
    let mut lines = 0;
    for line in LineReader::new(input) {
        let Ok(line) = line else {
            unreachable!("reading a byte slice cannot fail");
        };
        lines += 1;
        let text = match line.text() {
            Ok(text) => text,
            Err(dropped) => {
                check_message(&dropped.to_string());
                continue;
            }
        };
        assert!(
            text.len() <= MAX_LINE_BYTES,
            "a line over the limit was kept"
        );
        match Command::parse(&text) {
            Ok(Some(Command::Position { start, moves })) => {
                if let Err(e) = build_game(start.as_deref(), &moves, Rules::ICGA) {
                    check_message(&e.0);
                }
            }
            Ok(Some(Command::Go(go))) => {
                let (black, white) = (go.limits(Color::Black), go.limits(Color::White));
                assert!(black.depth.is_none_or(|d| (1..=64).contains(&d)));
                assert_eq!(black.depth, white.depth);
            }
            Ok(_) => {}
            Err(message) => check_message(&message),
        }
    }
    lines
}

/// An error message is one short line: whatever the input, it quotes it
/// through an excerpt.
fn check_message(message: &str) {
    assert!(!message.is_empty(), "an empty error message");
    assert!(
        !message.contains('\n'),
        "an error message spans lines: {message:?}"
    );
    assert!(
        message.len() <= 1024,
        "an error message of {} bytes",
        message.len()
    );
}
