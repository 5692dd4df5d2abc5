//! Entry points for the fuzz targets in `fuzz/`: each runs the code that
//! reads one kind of hostile input, without a network or files, and
//! checks the invariants that code promises, panicking when one fails so
//! that the fuzzer reports it. Not an API: nothing here is stable.

use crate::common::game::parse_position;
use crate::serve::{read_route_query, RouteQuery};

/// The `--max-movetime` of the server the queries are read for (its
/// default).
const MAX_MOVETIME_MS: u64 = 30_000;
/// The longest query string the server reads (docs/serve.md).
const MAX_QUERY: usize = 1000;
/// The longest error message an answer may carry: input is quoted cut
/// short, never whole.
const MAX_MESSAGE: usize = 1000;

/// Reads `query` as the raw query string of a request for `route`
/// (`/api/position`, `/api/probe`, `/api/svg`, `/api/analysis` or any
/// other path) with the same code the server's handler runs, and checks:
/// nothing panics; a refusal has a 4xx status and a message of at most
/// [`MAX_MESSAGE`] bytes; an accepted query is at most [`MAX_QUERY`]
/// bytes long, an accepted position reads back as itself from its
/// notation, an analysis's `movetime` is 1 to the server's cap and its
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
            assert!(
                !e.message.is_empty() && e.message.len() <= MAX_MESSAGE,
                "message of {} bytes",
                e.message.len()
            );
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
                RouteQuery::Svg(_, None) | RouteQuery::Unread => {}
            }
        }
    }
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
