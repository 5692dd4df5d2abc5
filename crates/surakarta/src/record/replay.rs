//! Replaying a record's moves under its rules: each move checked legal and
//! not after the end of the game, and the result checked against the Result
//! tag and the rules' outcome.

use super::{GameRecord, GameResult, RecordErrorKind};
use crate::color::Color;
use crate::excerpt::Excerpt;
use crate::game::{outcome_under, Game, GameError};
use crate::moves::Move;
use crate::notation::MoveText;
use crate::position::Position;
use crate::rules::{Outcome, Rules};
use std::collections::HashMap;

impl GameRecord {
    /// The game the record describes: its moves replayed under `rules` from
    /// `start`. Fails on an illegal move or a move after the end of the game
    /// (never for a record that was read from text). Linear in the moves,
    /// whatever the rules (repetitions are counted in a hash map).
    pub fn to_game(&self) -> Result<Game, GameError> {
        self.game_after(self.moves.len())
    }

    /// The game after the record's first `plies` moves (all of them when it
    /// has fewer), replayed as [`GameRecord::to_game`] replays them.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::GameRecord;
    ///
    /// let record: GameRecord = "1. b2-b3 e5-e4 2. b3-b4 *".parse()?;
    /// assert_eq!(record.game_after(1)?.moves().len(), 1);
    /// assert_eq!(record.game_after(9)?, record.to_game()?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn game_after(&self, plies: usize) -> Result<Game, GameError> {
        let moves = &self.moves[..plies.min(self.moves.len())];
        let mut replay = Replay::new(self.rules, self.start);
        replay.path.reserve(moves.len());
        for &m in moves {
            if let Some(outcome) = replay.outcome() {
                return Err(GameError::GameOver(outcome));
            }
            let next = replay.position().play(m)?;
            replay.advance(next);
        }
        Ok(Game::from_checked(self.rules, replay.path, moves.to_vec()))
    }
}

/// A line of play replayed under its rules: the positions from the start
/// to the current one and, when the rules limit repetitions, how often each
/// placement occurs among them. Gives the same outcome as
/// [`Game::outcome`] in constant time per move, and takes moves back in
/// constant time ([`Replay::undo`]), so that a variation is read from the
/// position before the move it replaces without replaying the line again:
/// reading a record is linear in its moves, variations included.
#[derive(Clone)]
pub(super) struct Replay {
    rules: Rules,
    /// The start, then the position after each move; never empty.
    path: Vec<Position>,
    /// How often each placement occurs in `path` (only when the rules
    /// limit repetitions). Positions before a capture have more pieces, so
    /// they never match a later one: no count needs clearing.
    seen: HashMap<(u64, u64, Color), u32>,
    /// Moves played so far, those taken back and played again included:
    /// the work of a replay, which reading keeps linear in the moves read
    /// (counted for the tests).
    #[cfg(test)]
    played: usize,
}

impl Replay {
    /// The game at `start`, before any move.
    pub(super) fn new(rules: Rules, start: Position) -> Replay {
        let mut replay = Replay {
            rules,
            path: vec![start],
            seen: HashMap::new(),
            #[cfg(test)]
            played: 0,
        };
        replay.count(start);
        replay
    }

    /// What a repetition compares: the placement and the side to move.
    fn key(pos: &Position) -> (u64, u64, Color) {
        (
            pos.pieces(Color::Black).bits(),
            pos.pieces(Color::White).bits(),
            pos.turn(),
        )
    }

    /// Counts one more occurrence of `pos`.
    fn count(&mut self, pos: Position) {
        if self.rules.repetitions().is_some() {
            let n = self.seen.entry(Replay::key(&pos)).or_insert(0);
            *n = n.saturating_add(1);
        }
    }

    /// How the game has ended under its rules, if it has.
    fn outcome(&self) -> Option<Outcome> {
        let position = self.position();
        outcome_under(self.rules, position, || {
            self.seen.get(&Replay::key(position)).copied().unwrap_or(1)
        })
    }

    /// The current position.
    pub(super) fn position(&self) -> &Position {
        self.path.last().expect("the path holds the start at least")
    }

    /// How many moves have been played (and not taken back).
    pub(super) fn plies(&self) -> usize {
        self.path.len() - 1
    }

    /// Moves played so far, those played again after [`Replay::undo`]
    /// included.
    #[cfg(test)]
    pub(super) fn played(&self) -> usize {
        self.played
    }

    /// Moves on to `next`, the position after the legal move just played.
    pub(super) fn advance(&mut self, next: Position) {
        #[cfg(test)]
        {
            self.played += 1;
        }
        self.path.push(next);
        self.count(next);
    }

    /// Plays `m` again after [`Replay::undo`] took it back (a legal move
    /// here).
    pub(super) fn redo(&mut self, m: Move) {
        let next = self.position().after(m);
        self.advance(next);
    }

    /// Takes the last move back, in constant time; nothing at the start.
    pub(super) fn undo(&mut self) {
        if self.path.len() < 2 {
            return;
        }
        let Some(last) = self.path.pop() else {
            return;
        };
        if self.rules.repetitions().is_some() {
            let key = Replay::key(&last);
            if let Some(n) = self.seen.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    self.seen.remove(&key);
                }
            }
        }
    }

    /// Plays `written`, ply `ply` of the game as `text`: an error if the game
    /// is already over or the move is illegal here.
    pub(super) fn play(
        &mut self,
        ply: usize,
        text: &str,
        written: MoveText,
    ) -> Result<Move, RecordErrorKind> {
        if let Some(outcome) = self.outcome() {
            return Err(RecordErrorKind::MoveAfterEnd {
                ply,
                text: written,
                outcome,
            });
        }
        let m = self
            .position()
            .check_move(written)
            .map_err(|error| RecordErrorKind::Move {
                ply,
                text: Excerpt::new(text),
                error,
            })?;
        let next = self.position().after(m);
        self.advance(next);
        Ok(m)
    }

    /// Checks the result token `token` against the `Result` tag (`tag`, when
    /// there is one) and, when the game is over, against its outcome.
    pub(super) fn check_result(
        &self,
        tag: Option<GameResult>,
        token: GameResult,
    ) -> Result<(), RecordErrorKind> {
        if let Some(tag) = tag {
            if tag != token {
                return Err(RecordErrorKind::ResultMismatch { tag, token });
            }
        }
        if let Some(outcome) = self.outcome() {
            if GameResult::from_outcome(Some(outcome)) != token {
                return Err(RecordErrorKind::ResultContradicts {
                    result: token,
                    outcome,
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// The replay's constant-time outcome is `Game::outcome` at every
        /// ply, on sparse positions where random play repeats positions.
        #[test]
        fn replay_outcome_is_game_outcome(
            fen in prop::sample::select(vec![
                "6/6/2w3/6/1b4/b5 b",
                "w5/6/6/6/6/5b b 30 4",
                "1w4/6/6/2b3/6/w4b w",
                "ww4/6/6/6/6/4bb b",
                "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b",
            ]),
            rules in prop::sample::select(vec![
                Rules::ICGA,
                Rules::PKU,
                Rules::PURE,
                Rules::new(Some(2), None).unwrap(),
                Rules::new(Some(4), Some(60)).unwrap(),
            ]),
            choices in prop::collection::vec(any::<u8>(), 0..200),
        ) {
            let start: Position = fen.parse().unwrap();
            let mut game = Game::new(start, rules);
            let mut replay = Replay::new(rules, start);
            for c in choices {
                prop_assert_eq!(replay.outcome(), game.outcome(), "{:?}", game.moves());
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[c as usize % moves.len()];
                game.play(m).unwrap();
                replay.advance(*game.position());
            }
            prop_assert_eq!(replay.outcome(), game.outcome());
        }

        /// Taking moves back and playing them again gives the outcome of
        /// the game at every ply, as a variation's end does.
        #[test]
        fn undo_restores_the_outcome(
            rules in prop::sample::select(vec![Rules::ICGA, Rules::new(Some(2), None).unwrap()]),
            choices in prop::collection::vec(any::<u8>(), 0..120),
            back in 0usize..40,
        ) {
            let start: Position = "1w4/6/6/2b3/6/w4b w".parse().unwrap();
            let mut game = Game::new(start, rules);
            let mut replay = Replay::new(rules, start);
            for c in choices {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[c as usize % moves.len()];
                game.play(m).unwrap();
                replay.advance(*game.position());
            }
            let back = back.min(game.moves().len());
            let keep = game.moves().len() - back;
            for _ in 0..back {
                replay.undo();
            }
            let mut shorter = Game::new(start, rules);
            for &m in &game.moves()[..keep] {
                shorter.play(m).unwrap();
            }
            prop_assert_eq!(replay.position(), shorter.position());
            prop_assert_eq!(replay.outcome(), shorter.outcome());
            for &m in &game.moves()[keep..] {
                replay.redo(m);
                shorter.play(m).unwrap();
                prop_assert_eq!(replay.outcome(), shorter.outcome());
            }
        }
    }

    #[test]
    fn replay_sees_repetitions() {
        let mut game = Game::new(Position::new(), Rules::ICGA);
        let mut replay = Replay::new(Rules::ICGA, Position::new());
        for m in "b2-b3 e5-e4 b3-b2 e4-e5 b2-b3 e5-e4 b3-b2 e4-e5".split_whitespace() {
            assert_eq!(replay.outcome(), None);
            game.play_text(m).unwrap();
            replay.advance(*game.position());
        }
        assert!(game.outcome().is_some());
        assert_eq!(replay.outcome(), game.outcome());
    }
}
