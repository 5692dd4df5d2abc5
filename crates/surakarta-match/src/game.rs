//! One game between two players, and how it ended.

use core::fmt;

use surakarta::{Color, Excerpt, Game, GameResult, Outcome, Position, Rules};

use std::time::Instant;

use crate::player::{Clocks, Player, PlayerError, TimeControl};

/// How a match game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameEnd {
    /// The rules ended it (no pieces, no moves, repetition, no-capture
    /// limit).
    Rules(Outcome),
    /// The ply cap of the match was reached: a draw.
    PlyCap(usize),
    /// A side's clock ran out: it lost.
    Flag {
        /// The side whose time ran out.
        loser: Color,
    },
    /// A player failed (crashed, timed out, gave an illegal move) and lost.
    Forfeit {
        /// The side that failed.
        loser: Color,
        /// What went wrong.
        error: PlayerError,
    },
}

impl GameEnd {
    /// The winner, or `None` for a draw.
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        match self {
            GameEnd::Rules(outcome) => outcome.winner,
            GameEnd::PlyCap(_) => None,
            GameEnd::Flag { loser } | GameEnd::Forfeit { loser, .. } => Some(!*loser),
        }
    }

    /// The result (`1-0` when Black won, `0-1`, `1/2-1/2`).
    #[must_use]
    pub fn result(&self) -> GameResult {
        GameResult::from_winner(self.winner())
    }

    /// Why the game ended, in a few words (no winner).
    #[must_use]
    pub fn reason(&self) -> String {
        match self {
            GameEnd::Rules(outcome) => outcome.termination.describe().to_string(),
            GameEnd::PlyCap(plies) => format!("ply cap of {plies} reached"),
            GameEnd::Flag { loser } => format!("{loser} lost on time"),
            GameEnd::Forfeit { loser, error } => format!("{loser} forfeits: {error}"),
        }
    }
}

impl fmt::Display for GameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result(), self.reason())
    }
}

/// A finished game: every move and how it ended.
#[derive(Debug, Clone)]
pub struct FinishedGame {
    /// The game with its moves, under the match's rules.
    pub game: Game,
    /// How it ended.
    pub end: GameEnd,
}

/// Plays one game from `start` under `rules`, `black` against `white`,
/// until the rules end it, a player fails, or `max_plies` moves are
/// played. Every move is checked again before it is played.
///
/// # Examples
///
/// ```
/// use surakarta::{Color, Rules};
/// use surakarta_match::{play_game, EnginePlayer, GameEnd};
/// use surakarta_search::{Limits, Options};
///
/// let mut black = EnginePlayer::new("black".into(), Options::default(), None, Limits::depth(3))?;
/// let mut white = EnginePlayer::new("white".into(), Options::default(), None, Limits::depth(3))?;
/// // Black can take White's only piece at once.
/// let start = "6/1w4/6/6/1b4/6 b".parse()?;
/// let finished = play_game(&mut black, &mut white, start, Rules::ICGA, 100);
/// assert_eq!(finished.game.moves().len(), 1);
/// assert_eq!(finished.end.winner(), Some(Color::Black));
/// assert!(matches!(finished.end, GameEnd::Rules(_)));
/// assert_eq!(finished.end.to_string(), "1-0 (no pieces left)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn play_game(
    black: &mut dyn Player,
    white: &mut dyn Player,
    start: Position,
    rules: Rules,
    max_plies: usize,
) -> FinishedGame {
    play_game_on_clock(black, white, start, rules, max_plies, None)
}

/// [`play_game`] with both sides on a clock under `control`, if given:
/// each move's wall time, from the request to the answer, is taken from
/// the mover's time, then the increment added; a side whose time runs out
/// loses ([`GameEnd::Flag`]).
///
/// # Examples
///
/// ```
/// use surakarta::Rules;
/// use surakarta_match::game::play_game_on_clock;
/// use surakarta_match::{EnginePlayer, GameEnd};
/// use surakarta_search::{Limits, Options};
///
/// let mut black = EnginePlayer::new("black".into(), Options::default(), None, Limits::default())?;
/// let mut white = EnginePlayer::new("white".into(), Options::default(), None, Limits::default())?;
/// // Two seconds and 50 ms a move each: the engines spend about a tenth of
/// // a second a move, far from running out even on a busy machine.
/// let control = "2+0.05".parse()?;
/// let finished = play_game_on_clock(&mut black, &mut white, Default::default(), Rules::ICGA, 8, Some(control));
/// assert!(matches!(finished.end, GameEnd::PlyCap(8))); // nobody ran out of time
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn play_game_on_clock(
    black: &mut dyn Player,
    white: &mut dyn Player,
    start: Position,
    rules: Rules,
    max_plies: usize,
    control: Option<TimeControl>,
) -> FinishedGame {
    let mut clocks = control.map(Clocks::new);
    let mut game = Game::new(start, rules);
    let started = black
        .new_game(rules)
        .map_err(|e| (Color::Black, e))
        .and_then(|()| white.new_game(rules).map_err(|e| (Color::White, e)));
    if let Err((loser, error)) = started {
        let end = GameEnd::Forfeit { loser, error };
        return FinishedGame { game, end };
    }
    loop {
        if let Some(outcome) = game.outcome() {
            return FinishedGame {
                game,
                end: GameEnd::Rules(outcome),
            };
        }
        if game.moves().len() >= max_plies {
            return FinishedGame {
                game,
                end: GameEnd::PlyCap(max_plies),
            };
        }
        let side = game.position().turn();
        let player: &mut dyn Player = match side {
            Color::Black => &mut *black,
            Color::White => &mut *white,
        };
        let asked = Instant::now();
        let answer = match &clocks {
            Some(c) => player.choose_on_clock(&game, c),
            None => player.choose(&game),
        };
        if let Some(c) = &mut clocks {
            let increment = c.increment;
            let left = c.left_mut(side);
            let Some(rest) = left.checked_sub(asked.elapsed()) else {
                return FinishedGame {
                    game,
                    end: GameEnd::Flag { loser: side },
                };
            };
            *left = rest + increment;
        }
        let chosen = answer.and_then(|m| {
            game.play(m).map_err(|e| PlayerError::Illegal {
                name: player.name().to_string(),
                text: Excerpt::new(&m.to_string()),
                error: e,
            })
        });
        if let Err(error) = chosen {
            return FinishedGame {
                game,
                end: GameEnd::Forfeit { loser: side, error },
            };
        }
    }
}
