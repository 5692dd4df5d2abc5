//! Games: a start position, the moves played, and a rule set.

use crate::color::Color;
use crate::moves::{Move, MoveList};
use crate::position::{MoveError, Position};
use crate::rules::{Outcome, Rules, Termination};

/// Why a move cannot be played in a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game has already ended.
    #[error("the game is over: {0}")]
    GameOver(Outcome),
    /// The move is not legal in the current position.
    #[error(transparent)]
    Move(#[from] MoveError),
}

/// A game in progress: the positions so far, the moves between them, and the
/// rule set that decides when it ends (repetitions and the no-capture limit).
///
/// # Examples
///
/// ```
/// use surakarta::{Color, Game, Position, Rules, Termination};
///
/// let mut game = Game::new(Position::new(), Rules::ICGA);
/// game.play_text("b2-b3").unwrap();
/// assert_eq!(game.position().turn(), Color::White);
/// assert!(game.play_text("a1-a2").is_err()); // a Black piece: not White's move
/// assert_eq!(game.undo().map(|m| m.to_string()), Some("b2-b3".to_string()));
/// assert!(!game.is_over());
///
/// // A position where White has no piece left: Black has won.
/// let over = Game::new("b5/6/6/6/6/6 w".parse().unwrap(), Rules::PURE);
/// assert!(over.is_over());
/// let outcome = over.outcome().unwrap();
/// assert_eq!((outcome.winner, outcome.termination), (Some(Color::Black), Termination::NoPieces));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    /// A game from `start` under `rules`.
    #[must_use]
    pub fn new(start: Position, rules: Rules) -> Game {
        Game {
            rules,
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// A game from parts its caller has already checked: `positions` is the
    /// start followed by the position after each of `moves`, every move legal
    /// and played before the game was over. Lets a replay that checked the
    /// moves itself skip the per-move checks of [`Game::play`].
    pub(crate) fn from_checked(rules: Rules, positions: Vec<Position>, moves: Vec<Move>) -> Game {
        debug_assert_eq!(positions.len(), moves.len() + 1);
        debug_assert!(moves
            .iter()
            .zip(positions.windows(2))
            .all(|(&m, w)| w[0].is_legal(m) && w[0].after(m) == w[1]));
        Game {
            rules,
            positions,
            moves,
        }
    }

    /// The rule set.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// The moves played so far.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position so far, the start first and the current last.
    #[must_use]
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// How many times the current placement with the current side to move has
    /// occurred in this game, counting the current one.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Game, Position, Rules, Termination};
    ///
    /// let mut game = Game::new(Position::new(), Rules::new(Some(3), None)?);
    /// for m in ["b2-b3", "e5-e4", "b3-b2", "e4-e5"].repeat(2) {
    ///     game.play_text(m)?;
    /// }
    /// assert_eq!(game.repetitions(), 3); // the start position, a third time
    /// assert_eq!(game.outcome().map(|o| o.termination), Some(Termination::Repetition));
    /// assert!(game.play_text("b2-b3").is_err()); // the game is over
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn repetitions(&self) -> u32 {
        let current = self.position();
        // Positions before the last capture have more pieces and cannot repeat.
        let window = (current.halfmoves() as usize).min(self.positions.len() - 1);
        let last = self.positions.len() - 1;
        (0..=window)
            .step_by(2)
            .filter(|&back| {
                let p = &self.positions[last - back];
                p.zobrist() == current.zobrist() && p.same_placement(current)
            })
            .count() as u32
    }

    /// The result, if the game is over. A side with no pieces or no legal
    /// move loses; otherwise the rule set's repetition and no-capture limits
    /// end the game, adjudicated by piece count.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        outcome_under(self.rules, self.position(), || self.repetitions())
    }

    /// Whether the game is over ([`Game::outcome`] is `Some`).
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The legal moves, or none if the game is over.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        if self.outcome().is_some() {
            MoveList::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// Plays a move, checking that it is legal and that the game is not over.
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::GameOver(outcome));
        }
        let next = self.position().play(m)?;
        self.positions.push(next);
        self.moves.push(m);
        Ok(())
    }

    /// Reads a move (`b2-c3`, `b2xe5` or `b2c3`) and plays it.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Game, GameError};
    ///
    /// let mut game = Game::default();
    /// let m = game.play_text("b2-b3")?;
    /// assert_eq!(game.moves(), [m]);
    /// assert_eq!(game.positions().len(), 2); // the start and the position after b2-b3
    /// assert!(matches!(game.play_text("b3-b4"), Err(GameError::Move(_)))); // White's turn
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        if let Some(outcome) = self.outcome() {
            return Err(GameError::GameOver(outcome));
        }
        let m = self.position().parse_move(text)?;
        self.play(m)?;
        Ok(m)
    }

    /// Takes back the last move, returning it; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }
}

impl Rules {
    /// The result under these rules of a game whose current position is
    /// `position`, where `repetitions` tells how often `position` (placement
    /// and side to move) has occurred in the game, the current occurrence
    /// included (called only if the rules have a repetition limit): a side
    /// with no pieces or no move loses first, then the repetition and
    /// no-capture limits end the game, adjudicated by piece count, as
    /// [`Game::outcome`] does.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Position, Rules, Termination};
    ///
    /// let position: Position = "b5/6/6/6/6/w4w b 50 1".parse()?;
    /// let outcome = Rules::ICGA.outcome(&position, || 1).unwrap();
    /// assert_eq!(outcome.termination, Termination::NoCaptureLimit);
    /// assert_eq!(outcome.result(), "0-1"); // two white pieces against one
    /// assert_eq!(Rules::PURE.outcome(&position, || 1), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn outcome(
        self,
        position: &Position,
        repetitions: impl FnOnce() -> u32,
    ) -> Option<Outcome> {
        outcome_under(self, position, repetitions)
    }
}

/// The outcome of a game under `rules` whose current position is `pos`, where
/// `repetitions` tells how often `pos` (placement and side to move) has
/// occurred in it, the current occurrence included; it is called only if the
/// rules have a repetition limit. The one definition of the precedence that
/// [`Game::outcome`] documents, shared with the game-record replay.
pub(crate) fn outcome_under(
    rules: Rules,
    pos: &Position,
    repetitions: impl FnOnce() -> u32,
) -> Option<Outcome> {
    if let Some(outcome) = pos.outcome() {
        return Some(outcome);
    }
    let adjudicate = |termination| {
        Rules::adjudicate(
            pos.pieces(Color::Black).len(),
            pos.pieces(Color::White).len(),
            termination,
        )
    };
    if let Some(limit) = rules.repetitions() {
        if repetitions() >= limit {
            return Some(adjudicate(Termination::Repetition));
        }
    }
    if let Some(limit) = rules.no_capture_plies() {
        if pos.halfmoves() >= limit {
            return Some(adjudicate(Termination::NoCaptureLimit));
        }
    }
    None
}

impl Default for Game {
    /// The start position under the ICGA rules.
    fn default() -> Game {
        Game::new(Position::new(), Rules::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(game: &mut Game, moves: &str) {
        for m in moves.split_whitespace() {
            game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
    }

    #[test]
    fn threefold_repetition_under_icga() {
        let mut game = Game::new(Position::new(), Rules::ICGA);
        let shuffle = "b2-b3 e5-e4 b3-b2 e4-e5";
        play_all(&mut game, shuffle);
        assert_eq!(game.repetitions(), 2);
        assert_eq!(game.outcome(), None);
        play_all(&mut game, shuffle);
        assert_eq!(game.repetitions(), 3);
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.termination, Termination::Repetition);
        assert_eq!(outcome.winner, None);
        assert!(game.legal_moves().is_empty());
        assert!(matches!(
            game.play_text("b2-b3"),
            Err(GameError::GameOver(_))
        ));
        // Pure rules never stop it.
        let mut pure = Game::new(Position::new(), Rules::PURE);
        play_all(&mut pure, &format!("{shuffle} {shuffle} {shuffle}"));
        assert_eq!(pure.outcome(), None);
        assert_eq!(pure.repetitions(), 4);
    }

    #[test]
    fn no_capture_limit_adjudicates_by_material() {
        let start: Position = "w5/6/6/6/6/bb4 b 38 1".parse().unwrap();
        let mut game = Game::new(start, Rules::PKU);
        play_all(&mut game, "a1-a2");
        assert_eq!(game.outcome(), None);
        play_all(&mut game, "a6-b6");
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.termination, Termination::NoCaptureLimit);
        assert_eq!(outcome.winner, Some(Color::Black));
    }

    #[test]
    fn undo_restores() {
        let mut game = Game::default();
        play_all(&mut game, "b2-b3 e5-e4");
        let before = *game.position();
        play_all(&mut game, "b3-b4");
        assert_eq!(game.undo().map(|m| m.to_string()), Some("b3-b4".into()));
        assert_eq!(*game.position(), before);
        game.undo();
        game.undo();
        assert_eq!(game.undo(), None);
        assert_eq!(*game.position(), Position::new());
    }

    #[test]
    fn errors_are_specific() {
        let mut game = Game::default();
        let err = |g: &mut Game, m: &str| g.play_text(m).unwrap_err().to_string();
        assert!(err(&mut game, "c3-c4").contains("no piece on c3"));
        assert!(err(&mut game, "e5-e4").contains("white's"));
        assert!(err(&mut game, "b1-b3").contains("illegal"));
        assert!(err(&mut game, "b2-b9").contains("invalid move text"));
        assert!(err(&mut game, "b2xb3").contains("b2-b3"));
    }
}
