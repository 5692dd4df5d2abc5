//! Game records for the page: a record text's games as JSON, and a game
//! given as JSON back as record text, the answers of `surakarta serve`'s
//! `/api/record` and `/api/record/text` ([`surakarta_board::records_json`],
//! [`surakarta_board::record_text`]).

/// The longest record text or game JSON read (256 KiB), as the server's.
pub const MAX_RECORD_INPUT: usize = 256 * 1024;

/// A record text's games as the JSON text `{"games": […]}` of
/// [`surakarta_board::records_json`]; an error names the line.
///
/// ```
/// let games = surakarta_wasm::read_record("1. b2-b3 ( 1. b2-c3 ) e5-e4 *")?;
/// assert!(games.contains("\"variations\":[[{"));
/// # Ok::<(), String>(())
/// ```
pub fn read_record(text: &str) -> Result<String, String> {
    if text.len() > MAX_RECORD_INPUT {
        return Err(format!(
            "record: longer than {} KiB",
            MAX_RECORD_INPUT / 1024
        ));
    }
    surakarta_board::records_json(text)
        .map(|games| games.to_string())
        .map_err(|e| format!("record: {e}"))
}

/// A game given as JSON text (the shape of [`read_record`]'s games) as
/// record text; an error names the field or the move.
///
/// ```
/// let text = surakarta_wasm::write_record(r#"{"line": [{"move": "b2-b3"}]}"#)?;
/// assert!(text.ends_with("1. b2-b3 *\n"));
/// assert!(surakarta_wasm::write_record(r#"{"line": [{"move": "b2-b5"}]}"#).is_err());
/// # Ok::<(), String>(())
/// ```
pub fn write_record(game: &str) -> Result<String, String> {
    if game.len() > MAX_RECORD_INPUT {
        return Err(format!("game: longer than {} KiB", MAX_RECORD_INPUT / 1024));
    }
    surakarta_board::record_text_of_json(game).map_err(|e| format!("game: {e}"))
}
