//! A game as the page names it: a rule set, a start position and the moves
//! played since, replayed and checked. The page's calls take one wherever
//! the history matters (repetitions, the no-capture limit): the position's
//! answer, an analysis, a game analysis.

use serde_json::Value as Json;
use surakarta::{Excerpt, Game, GameError, ParsePositionError, ParseRulesError, Position, Rules};

/// Most moves a game of the page may carry.
pub const MAX_GAME_MOVES: usize = 1024;

/// What is wrong with a game the page names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameRequestError {
    /// The rule set is not one.
    #[error("rules: {0}")]
    Rules(#[from] ParseRulesError),
    /// The start position is not one.
    #[error("start: {0}")]
    Start(#[from] ParsePositionError),
    /// More than [`MAX_GAME_MOVES`] moves.
    #[error("moves: more than {MAX_GAME_MOVES} moves")]
    TooManyMoves,
    /// A move text is empty: two commas in a row, or a comma at either
    /// end of the moves.
    #[error("moves: ply {ply} is empty (two commas in a row, or a comma at either end)")]
    EmptyMove {
        /// Which move, counting from 1.
        ply: usize,
    },
    /// A field of a game given as JSON is of the wrong kind.
    #[error("{field}: {problem}")]
    Field {
        /// The field: `rules`, `start`, `moves` or `moves[3]`.
        field: String,
        /// What it should be.
        problem: &'static str,
    },
    /// A move cannot be played where it stands.
    #[error("moves: ply {ply} {text}: {error}")]
    Move {
        /// Which move, counting from 1.
        ply: usize,
        /// The move as given.
        text: Excerpt,
        /// Why it cannot be played (illegal, or the game was over).
        error: GameError,
    },
}

/// The game of `rules` (`icga` when `None`), `start` (the start position
/// when `None`) and `moves` (move texts separated by commas or white
/// space; none when it is blank), each move checked in turn. An empty
/// move between commas (`b2-b3,,e5-e4`, `,,,`) is an error.
///
/// ```
/// use surakarta::Rules;
///
/// let game = surakarta_board::replay_game(Some("pku"), None, Some("b2-b3,e5-e4"))?;
/// assert_eq!((game.rules(), game.moves().len()), (Rules::PKU, 2));
/// let bad = surakarta_board::replay_game(None, None, Some("b2-b3 b3-b4")).unwrap_err();
/// assert!(bad.to_string().starts_with("moves: ply 2 \"b3-b4\": "), "{bad}");
/// let empty = surakarta_board::replay_game(None, None, Some("b2-b3,,e5-e4")).unwrap_err();
/// assert_eq!(empty.to_string(), "moves: ply 2 is empty (two commas in a row, or a comma at either end)");
/// assert!(surakarta_board::replay_game(None, None, Some(",,,")).is_err());
/// assert_eq!(surakarta_board::replay_game(None, None, Some(" "))?.moves().len(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn replay_game(
    rules: Option<&str>,
    start: Option<&str>,
    moves: Option<&str>,
) -> Result<Game, GameRequestError> {
    let rules: Rules = rules.map_or(Ok(Rules::default()), str::parse)?;
    let start: Position = start.map_or(Ok(Position::new()), str::parse)?;
    let mut game = Game::new(start, rules);
    let moves = moves.unwrap_or("");
    if moves.trim_ascii().is_empty() {
        return Ok(game);
    }
    let mut ply = 0;
    for between_commas in moves.split(',') {
        if between_commas.trim_ascii().is_empty() {
            return Err(GameRequestError::EmptyMove { ply: ply + 1 });
        }
        for text in between_commas.split_ascii_whitespace() {
            ply += 1;
            if ply > MAX_GAME_MOVES {
                return Err(GameRequestError::TooManyMoves);
            }
            game.play_text(text)
                .map_err(|error| GameRequestError::Move {
                    ply,
                    text: Excerpt::new(text),
                    error,
                })?;
        }
    }
    Ok(game)
}

/// The game of a JSON object `{"rules", "start", "moves"}` as the page
/// sends it (each optional: `icga`, the start position, no moves; `moves`
/// an array of move texts), replayed as [`replay_game`] does.
///
/// ```
/// use serde_json::json;
///
/// let game = surakarta_board::game_from_json(&json!({"rules": "pure", "moves": ["b2-b3"]}))?;
/// assert_eq!(game.moves().len(), 1);
/// assert!(surakarta_board::game_from_json(&json!({"moves": "b2-b3"})).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn game_from_json(game: &Json) -> Result<Game, GameRequestError> {
    let field = |field: String, problem| GameRequestError::Field { field, problem };
    let object = game
        .as_object()
        .ok_or_else(|| field("game".into(), "expected an object"))?;
    let text = |name: &str| match object.get(name) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::String(s)) => Ok(Some(s.as_str())),
        Some(_) => Err(field(name.into(), "expected a string")),
    };
    let (rules, start) = (text("rules")?, text("start")?);
    let moves = match object.get("moves") {
        None | Some(Json::Null) => Vec::new(),
        Some(Json::Array(moves)) => {
            if moves.len() > MAX_GAME_MOVES {
                return Err(GameRequestError::TooManyMoves);
            }
            moves
                .iter()
                .enumerate()
                .map(|(i, m)| match m.as_str() {
                    Some(m)
                        if !m.is_empty()
                            && !m.contains(|c: char| c == ',' || c.is_whitespace()) =>
                    {
                        Ok(m)
                    }
                    _ => Err(field(format!("moves[{i}]"), "expected a move text")),
                })
                .collect::<Result<Vec<_>, _>>()?
        }
        Some(_) => return Err(field("moves".into(), "expected an array of move texts")),
    };
    replay_game(rules, start, Some(&moves.join(",")))
}
