//! What more than one `tb` subcommand uses: a class's figures as JSON
//! (`generate`, `stats`), a position from bitboards (`stats`, `verify`) and
//! how format 2 tables are written (`generate`, `compress`).

use serde_json::json;
use surakarta::{Bitboard, Color, Position};
use surakarta_tablebase::{ClassStats, CompactOptions};

/// A class's figures as a JSON object, for other fields to be added to.
pub(super) fn stats_json(s: &ClassStats) -> serde_json::Value {
    json!({
        "class": s.material.to_string(),
        "slots": s.slots,
        "positions": s.positions,
        "wins": s.wins,
        "draws": s.draws,
        "losses": s.losses,
        "longest": s.longest,
    })
}

/// A position in notation with the side owning `us` (Black) to move.
pub(super) fn fen(us: Bitboard, them: Bitboard) -> String {
    Position::from_sides(us, them, Color::Black)
        .map(|p| p.to_string())
        .unwrap_or_else(|e| format!("(invalid: {e})"))
}

/// How format 2 tables are written, from the `--no-capture-draws` flag of
/// `generate` and `compress`.
pub(super) fn compact_options(no_capture_draws: bool) -> CompactOptions {
    CompactOptions {
        capture_draws: !no_capture_draws,
        ..CompactOptions::default()
    }
}
