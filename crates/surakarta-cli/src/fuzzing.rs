//! Entry points for the fuzz targets in `fuzz/`: each runs the code that
//! reads one kind of hostile input, without a terminal, a network or files,
//! and checks the invariants that code promises, panicking when one fails so
//! that the fuzzer reports it. Not an API: nothing here is stable.

use crate::commands::engine::command::Command;
use crate::common::game::{build_game, parse_position};
use crate::serve::{read_route_query, RouteQuery};
use surakarta::{Color, Rules};
use surakarta_match::lines::{LineReader, MAX_LINE_BYTES};

/// The `--max-movetime` of the server the queries are read for (its
/// default).
const MAX_MOVETIME_MS: u64 = 30_000;
/// The longest query string the server reads (docs/serve.md).
const MAX_QUERY: usize = crate::serve::MAX_QUERY;
/// The longest error message an answer may carry: input is quoted cut
/// short, never whole.
const MAX_MESSAGE: usize = 1000;

/// Reads `query` as the raw query string of a request for `route`
/// (`/api/position`, `/api/probe`, `/api/svg`, `/api/analysis` or any
/// other path) with the same code the server's handler runs, and checks:
/// nothing panics; a refusal has a 4xx status and a message of at most
/// `MAX_MESSAGE` (1000) bytes; an accepted query is at most `MAX_QUERY` (8192)
/// bytes long, an accepted position reads back as itself from its
/// notation, an accepted game has at most 1,024 moves, an analysis's `movetime` is 1 to the server's cap and its
/// `depth` 1 to 64, and a highlighted move is legal in its position.
/// Bytes that are not UTF-8 never reach a handler (the HTTP layer refuses
/// them) and are skipped.
pub fn serve_query(route: &str, query: &[u8]) {
    let Ok(raw) = std::str::from_utf8(query) else {
        return;
    };
    match read_route_query(route, Some(raw), MAX_MOVETIME_MS) {
        Err(e) => {
            assert!(
                e.status.is_client_error(),
                "status {}: {}",
                e.status,
                e.message
            );
            check_message(&e.message);
        }
        Ok(accepted) => {
            if !matches!(accepted, RouteQuery::Unread) {
                assert!(raw.len() <= MAX_QUERY, "{} bytes accepted", raw.len());
            }
            match accepted {
                RouteQuery::Analysis(request) => {
                    assert!((1..=MAX_MOVETIME_MS).contains(&request.movetime_ms));
                    assert!(request.depth.is_none_or(|d| (1..=64).contains(&d)));
                }
                RouteQuery::Svg(position, Some(m)) => {
                    assert!(position.legal_moves().contains(&m));
                }
                RouteQuery::Position(position) => {
                    // An accepted position reads back as itself.
                    let text = position.to_string();
                    assert_eq!(parse_position(&text).ok(), Some(position), "{text}");
                }
                RouteQuery::Game(game) => {
                    assert!(game.moves().len() <= surakarta_board::MAX_GAME_MOVES);
                }
                RouteQuery::Svg(_, None) | RouteQuery::Unread => {}
            }
        }
    }
}

/// Feeds `input` to the engine protocol's line handling as `surakarta
/// engine` reads its stdin: lines with the length limit, then each line
/// parsed into a command; a `position` command's game is built, a `go`
/// command's limits are worked out for both sides. Nothing is searched or
/// allocated by option. Returns the number of lines read.
///
/// Checks: nothing panics; a line longer than the limit is never kept;
/// every error is one line of 1 to `MAX_MESSAGE` (1000) bytes; a `go` depth is 1
/// to 64, the same for both sides.
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

/// An error message is one short line whatever the input: hostile text
/// in it is quoted through an excerpt, never whole.
fn check_message(message: &str) {
    assert!(!message.is_empty(), "an empty error message");
    assert!(
        !message.contains('\n'),
        "an error message spans lines: {message:?}"
    );
    assert!(
        message.len() <= MAX_MESSAGE,
        "an error message of {} bytes",
        message.len()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_reads_good_and_bad_queries() {
        for route in [
            "/api/position",
            "/api/probe",
            "/api/svg",
            "/api/analysis",
            "/",
        ] {
            for query in [
                &b""[..],
                b"fen=6%2F6%2F2b3%2F6%2F2w3%2F6+b",
                b"fen=xyz",
                b"movetime=0&depth=65",
                b"movetime=30000&depth=64",
                b"fen=a&fen=b",
                b"move=zz",
                b"%FF%FE=%00",
                b"\xff",
                &[b'a'; 1001],
            ] {
                serve_query(route, query);
            }
        }
    }
}
