//! Players: anything that picks a move in a game. The in-process engine is
//! [`EnginePlayer`]; programs in other processes are
//! [`ExternalEngine`](crate::ExternalEngine).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use surakarta::{Color, Excerpt, Game, GameError, Move, Rules};
use surakarta_search::{Clock, Engine, Limits, Options, SearchError};
use surakarta_tablebase::Tablebase;

/// Why a player could not start or could not give a move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayerError {
    /// The in-process engine could not be built.
    #[error("{name}: {source}")]
    Engine {
        /// The player.
        name: String,
        /// What failed.
        source: SearchError,
    },
    /// The player gave no move although the game is not over.
    #[error("{0}: gave no move")]
    NoMove(String),
    /// The player gave a move that is not legal.
    #[error("{name}: illegal move {text} ({error})")]
    Illegal {
        /// The player.
        name: String,
        /// The move as the player wrote it.
        text: Excerpt,
        /// Why it is not legal (the source).
        #[source]
        error: GameError,
    },
    /// An external program failed: could not start, exited, broke the
    /// protocol or did not answer in time.
    #[error("{name}: {message}")]
    External {
        /// The player.
        name: String,
        /// What went wrong.
        message: String,
    },
}

/// A side in a match: it is told when a game starts and asked for moves.
///
/// # Examples
///
/// ```
/// use surakarta::{Game, Move, Rules};
/// use surakarta_match::{play_game, Player, PlayerError};
///
/// /// Plays the first legal move, always.
/// struct FirstMove;
///
/// impl Player for FirstMove {
///     fn name(&self) -> &str {
///         "first move"
///     }
///     fn new_game(&mut self, _rules: Rules) -> Result<(), PlayerError> {
///         Ok(())
///     }
///     fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
///         Ok(game.legal_moves()[0])
///     }
/// }
///
/// let finished = play_game(&mut FirstMove, &mut FirstMove, Default::default(), Rules::ICGA, 40);
/// assert!(finished.game.moves().len() <= 40);
/// ```
pub trait Player: Send {
    /// The name written into game records.
    #[must_use]
    fn name(&self) -> &str;

    /// A new game under `rules` starts.
    fn new_game(&mut self, rules: Rules) -> Result<(), PlayerError>;

    /// The move to play in the current position of `game`, which is not
    /// over. The move must be legal; the caller checks it again.
    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError>;

    /// The move to play in a game on a clock: `clocks` holds both sides'
    /// time left and the increment. A player that does not manage time
    /// plays [`Player::choose`] (the default).
    fn choose_on_clock(&mut self, game: &Game, clocks: &Clocks) -> Result<Move, PlayerError> {
        let _ = clocks;
        self.choose(game)
    }
}

/// A time control: each side's time for the game and the time added after
/// each of its moves (Fischer increment).
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use surakarta_match::player::TimeControl;
///
/// let tc: TimeControl = "2+0.05".parse()?;
/// assert_eq!((tc.time, tc.increment), (Duration::from_secs(2), Duration::from_millis(50)));
/// assert_eq!(tc.to_string(), "2+0.05");
/// assert!("2+".parse::<TimeControl>().is_err());
/// assert!("1++1".parse::<TimeControl>().is_err());
/// assert!("1e-9".parse::<TimeControl>().is_err());
/// # Ok::<(), String>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Each side's time for the game.
    pub time: Duration,
    /// Added to a side's time after each of its moves.
    pub increment: Duration,
}

/// The longest time a side gets, in seconds (a day).
pub const MAX_CLOCK_SECONDS: f64 = 86_400.0;

/// The shortest time a side gets, in seconds: less is lost on time before
/// the first search ends.
pub const MIN_CLOCK_SECONDS: f64 = 0.1;

impl std::str::FromStr for TimeControl {
    type Err = String;

    /// `SECONDS+INCREMENT` (seconds as digits with an optional decimal
    /// point, no sign or exponent; the increment optional): `2+0.05`, `60`,
    /// `0.5+0`. The time is [`MIN_CLOCK_SECONDS`] to
    /// [`MAX_CLOCK_SECONDS`], the increment 0 to [`MAX_CLOCK_SECONDS`].
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let seconds = |t: &str| {
            let t = t.trim();
            let plain = t.bytes().any(|b| b.is_ascii_digit())
                && t.bytes().all(|b| b.is_ascii_digit() || b == b'.');
            plain
                .then(|| t.parse::<f64>().ok())
                .flatten()
                .filter(|s| (0.0..=MAX_CLOCK_SECONDS).contains(s))
                .map(Duration::from_secs_f64)
                .ok_or_else(|| {
                    format!(
                        "{} is not a time control: give SECONDS+INCREMENT in digits, \
                         the time {MIN_CLOCK_SECONDS} to {MAX_CLOCK_SECONDS} seconds and the \
                         increment 0 to {MAX_CLOCK_SECONDS} (for example 2+0.05)",
                        Excerpt::new(text)
                    )
                })
        };
        let (time, increment) = match text.split_once('+') {
            Some((t, i)) => (seconds(t)?, seconds(i)?),
            None => (seconds(text)?, Duration::ZERO),
        };
        if time.as_secs_f64() < MIN_CLOCK_SECONDS {
            return Err(format!(
                "{}: the time must be at least {MIN_CLOCK_SECONDS} seconds",
                Excerpt::new(text)
            ));
        }
        Ok(TimeControl { time, increment })
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}+{}",
            self.time.as_secs_f64(),
            self.increment.as_secs_f64()
        )
    }
}

/// Both sides' clocks while a game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// Black's time left.
    pub black: Duration,
    /// White's time left.
    pub white: Duration,
    /// Added after each move.
    pub increment: Duration,
}

impl Clocks {
    /// Both sides at the start of a game under `control`.
    #[must_use]
    pub fn new(control: TimeControl) -> Clocks {
        Clocks {
            black: control.time,
            white: control.time,
            increment: control.increment,
        }
    }

    /// The time left of `side`.
    #[must_use]
    pub fn left(&self, side: Color) -> Duration {
        match side {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// The time left of `side`, to change.
    pub fn left_mut(&mut self, side: Color) -> &mut Duration {
        match side {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}

/// The in-process engine with fixed limits for every move.
///
/// # Examples
///
/// ```
/// use surakarta::Game;
/// use surakarta_match::{EnginePlayer, Player};
/// use surakarta_search::{Limits, Options};
///
/// let mut player = EnginePlayer::new("depth 2".into(), Options::default(), None, Limits::depth(2))?;
/// assert_eq!(player.name(), "depth 2");
/// let game = Game::default();
/// let m = player.choose(&game)?;
/// assert!(game.position().is_legal(m));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct EnginePlayer {
    name: String,
    engine: Engine,
    limits: Limits,
    stop: AtomicBool,
}

impl EnginePlayer {
    /// An engine with `options`, optional tablebases, and `limits` for each
    /// move.
    pub fn new(
        name: String,
        options: Options,
        tablebase: Option<Arc<Tablebase>>,
        limits: Limits,
    ) -> Result<EnginePlayer, PlayerError> {
        let mut engine = Engine::new(options).map_err(|source| PlayerError::Engine {
            name: name.clone(),
            source,
        })?;
        engine.set_tablebase(tablebase);
        Ok(EnginePlayer {
            name,
            engine,
            limits,
            stop: AtomicBool::new(false),
        })
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, _rules: Rules) -> Result<(), PlayerError> {
        self.engine.new_game();
        Ok(())
    }

    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
        let limits = self.limits;
        self.search(game, &limits)
    }

    /// Searches within the player's limits and its side's clock.
    fn choose_on_clock(&mut self, game: &Game, clocks: &Clocks) -> Result<Move, PlayerError> {
        let limits = Limits {
            clock: Some(Clock {
                time: clocks.left(game.position().turn()),
                increment: clocks.increment,
                moves_to_go: None,
            }),
            ..self.limits
        };
        self.search(game, &limits)
    }
}

impl EnginePlayer {
    fn search(&mut self, game: &Game, limits: &Limits) -> Result<Move, PlayerError> {
        let result = self.engine.search(game, limits, &self.stop, &mut |_| {});
        result
            .best_move
            .ok_or_else(|| PlayerError::NoMove(self.name.clone()))
    }
}
