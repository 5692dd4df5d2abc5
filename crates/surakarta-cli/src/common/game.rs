//! A position or a game from command-line text: a position in notation and
//! moves played from it under a rule set, or a game of a record file.

use crate::common::error::CliError;
use std::path::Path;
use surakarta::record::MAX_RECORD_TEXT;
use surakarta::{Excerpt, Game, GameRecord, Position, Rules};
use surakarta_tablebase::read_regular_file;

/// The position written as `text` (docs/notation.md), or the error `invalid
/// position TEXT: WHY`.
pub(crate) fn parse_position(text: &str) -> Result<Position, CliError> {
    text.parse::<Position>()
        .map_err(|e| CliError(format!("invalid position {}: {e}", Excerpt::new(text))))
}

/// The game described by a position (`None` or `startpos`: the start) and
/// moves under a rule set; a bad move is named by its number.
pub(crate) fn build_game(
    position: Option<&str>,
    moves: &[String],
    rules: Rules,
) -> Result<Game, CliError> {
    let start = match position {
        None | Some("startpos") => Position::new(),
        Some(text) => parse_position(text)?,
    };
    let mut game = Game::new(start, rules);
    for (i, text) in moves.iter().enumerate() {
        game.play_text(text)
            .map_err(|e| CliError(format!("move {} ({}): {e}", i + 1, Excerpt::new(text))))?;
    }
    Ok(game)
}

/// The game records in `file`: a regular file only (a FIFO or device would
/// block or never end), no more than a record may hold, UTF-8 text whose
/// records read (every move legal). The errors name the file.
pub(crate) fn read_records(file: &Path) -> Result<Vec<GameRecord>, CliError> {
    let name = file.display();
    let bytes = read_regular_file(file, MAX_RECORD_TEXT as u64)
        .map_err(|e| CliError(format!("cannot read {name}: {e}")))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| CliError(format!("cannot read {name}: not UTF-8 text")))?;
    GameRecord::parse_all(&text).map_err(|e| CliError(format!("{name}: {e}")))
}

/// The index of game `k` (1-based; `None`: the last) of the `count` games
/// read from `file`.
pub(crate) fn pick_game(file: &Path, count: usize, k: Option<usize>) -> Result<usize, CliError> {
    let name = file.display();
    match k {
        _ if count == 0 => Err(CliError(format!("{name}: no game in the file"))),
        None => Ok(count - 1),
        Some(k) if (1..=count).contains(&k) => Ok(k - 1),
        Some(k) => {
            let games = if count == 1 { "game" } else { "games" };
            Err(CliError(format!(
                "--game {k}: {name} holds {count} {games} (give 1 to {count})"
            )))
        }
    }
}

/// The game of `record` (read from `file`) after its first `plies` moves,
/// replayed under its rules in time linear in the moves
/// (`GameRecord::game_after`); a record that does not replay is named.
pub(crate) fn replay(record: &GameRecord, plies: usize, file: &Path) -> Result<Game, CliError> {
    // A record that was read replays; say which if not.
    record
        .game_after(plies)
        .map_err(|e| CliError(format!("{}: {e}", file.display())))
}
