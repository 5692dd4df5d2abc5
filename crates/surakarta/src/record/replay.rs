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
    /// (never for a record that was read from text).
    pub fn to_game(&self) -> Result<Game, GameError> {
        let mut replay = Replay::new(self.rules, self.start);
        let mut positions = Vec::with_capacity(self.moves.len() + 1);
        positions.push(self.start);
        for &m in &self.moves {
            if let Some(outcome) = replay.outcome() {
                return Err(GameError::GameOver(outcome));
            }
            let next = replay.position.play(m)?;
            replay.advance(m, next);
            positions.push(next);
        }
        Ok(Game::from_checked(
            self.rules,
            positions,
            self.moves.clone(),
        ))
    }
}

/// A game replayed under its rules: the current position and, when the rules
/// limit repetitions, how often each placement has occurred since the last
/// capture. Gives the same outcome as [`Game::outcome`] in constant time per
/// move.
#[derive(Clone)]
pub(super) struct Replay {
    rules: Rules,
    position: Position,
    seen: HashMap<(u64, u64, Color), u32>,
}

impl Replay {
    /// The game at `start`, before any move.
    pub(super) fn new(rules: Rules, start: Position) -> Replay {
        let mut replay = Replay {
            rules,
            position: start,
            seen: HashMap::new(),
        };
        replay.count();
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

    /// Counts one more occurrence of the current position.
    fn count(&mut self) {
        if self.rules.repetitions().is_some() {
            let n = self.seen.entry(Replay::key(&self.position)).or_insert(0);
            *n = n.saturating_add(1);
        }
    }

    /// How the game has ended under its rules, if it has.
    fn outcome(&self) -> Option<Outcome> {
        outcome_under(self.rules, &self.position, || {
            self.seen
                .get(&Replay::key(&self.position))
                .copied()
                .unwrap_or(1)
        })
    }

    /// The current position.
    pub(super) fn position(&self) -> &Position {
        &self.position
    }

    /// Moves on to `next`, the position after the legal move `m`.
    pub(super) fn advance(&mut self, m: Move, next: Position) {
        if m.is_capture() {
            // Positions before a capture have more pieces: none can recur.
            self.seen.clear();
        }
        self.position = next;
        self.count();
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
            .position
            .check_move(written)
            .map_err(|error| RecordErrorKind::Move {
                ply,
                text: Excerpt::new(text),
                error,
            })?;
        let next = self.position.after(m);
        self.advance(m, next);
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
                replay.advance(m, *game.position());
            }
            prop_assert_eq!(replay.outcome(), game.outcome());
        }
    }

    #[test]
    fn replay_sees_repetitions() {
        let mut game = Game::new(Position::new(), Rules::ICGA);
        let mut replay = Replay::new(Rules::ICGA, Position::new());
        for m in "b2-b3 e5-e4 b3-b2 e4-e5 b2-b3 e5-e4 b3-b2 e4-e5".split_whitespace() {
            assert_eq!(replay.outcome(), None);
            let m = game.play_text(m).unwrap();
            replay.advance(m, *game.position());
        }
        assert!(game.outcome().is_some());
        assert_eq!(replay.outcome(), game.outcome());
    }
}
