//! A position or a game from command-line text: a position in notation and
//! moves played from it under a rule set.

use crate::common::error::CliError;
use surakarta::{Excerpt, Game, Position, Rules};

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
