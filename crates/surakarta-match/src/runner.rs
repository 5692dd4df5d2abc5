//! Running a match: openings played twice with colours swapped, several
//! games at a time, each finished game reported, an optional SPRT stop.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use surakarta::{Color, Position, Rules};

use crate::game::{play_game_on_clock, FinishedGame, GameEnd};
use crate::player::{Player, PlayerError, TimeControl};
use crate::stats::{Pentanomial, Sprt, SprtDecision, Tally};

/// Makes a fresh player; called once per worker, and again after the
/// player forfeits a game (an external engine may have died).
pub type PlayerFactory<'a> = dyn Fn() -> Result<Box<dyn Player>, PlayerError> + Sync + 'a;

/// How a match is played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchConfig {
    /// The rule set of every game.
    pub rules: Rules,
    /// Games reaching this many plies are stopped and drawn.
    pub max_plies: usize,
    /// Games played at the same time (at least 1).
    pub concurrency: usize,
    /// Stop early when this test decides.
    pub sprt: Option<Sprt>,
    /// Both players on a clock under this control, if given (each also
    /// keeps its own limits).
    pub time_control: Option<TimeControl>,
}

/// What the workers share while the match runs.
struct State {
    tally: Tally,
    pairs: Pentanomial,
    /// Per opening, the first player's points in its first finished game
    /// until the second one finishes.
    half_pairs: Vec<Option<f64>>,
    /// Where the SPRT decided.
    decision: Option<SprtStop>,
}

impl State {
    /// Counts a finished game of `opening` in which the first player had
    /// `first_color`, and asks the SPRT, if it has not decided yet.
    fn add(
        &mut self,
        opening: usize,
        first_color: Color,
        winner: Option<Color>,
        sprt: Option<Sprt>,
    ) {
        self.tally.add(first_color, winner);
        let points = match winner {
            None => 0.5,
            Some(w) if w == first_color => 1.0,
            Some(_) => 0.0,
        };
        match self.half_pairs[opening].take() {
            Some(other) => self.pairs.add(other, points),
            None => self.half_pairs[opening] = Some(points),
        }
        if self.decision.is_none() {
            self.decision = sprt
                .and_then(|s| s.decide_pairs(&self.pairs))
                .map(|decision| SprtStop {
                    decision,
                    tally: self.tally,
                    pairs: self.pairs,
                });
        }
    }
}

/// A finished game, as reported while the match runs.
#[derive(Debug)]
pub struct GameReport<'a> {
    /// 1-based count of finished games (finishing order).
    pub number: usize,
    /// Index of the opening in the list given to [`run_match`].
    pub opening: usize,
    /// The colour the first player had.
    pub first_color: Color,
    /// The game's players' names, Black first.
    pub names: [&'a str; 2],
    /// The game.
    pub finished: &'a FinishedGame,
    /// The tally after this game.
    pub tally: Tally,
}

/// Receives finished games; called from the worker threads, one game at a
/// time.
pub trait Reporter: Sync {
    /// A game has finished.
    fn game_finished(&self, report: &GameReport<'_>);
}

/// A reporter that ignores everything.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Reporter for Silent {
    fn game_finished(&self, _report: &GameReport<'_>) {}
}

/// The result of a match.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchResult {
    /// The first player's wins, draws and losses.
    pub tally: Tally,
    /// The first player's results by colour-swapped pair (an opening whose
    /// second game was not played is not counted here).
    pub pairs: Pentanomial,
    /// Games scheduled (twice the openings).
    pub scheduled: usize,
    /// The SPRT's decision, if it stopped the match (games still running
    /// then are finished and counted in `tally` and `pairs`, so the LLR may
    /// have moved back inside the bounds).
    pub sprt: Option<SprtStop>,
    /// Whether the caller's stop flag ended the match early.
    pub interrupted: bool,
    /// A player that forfeited could not be restarted, which ended the
    /// match early; the games before count.
    pub error: Option<MatchError>,
}

/// Where an SPRT stopped a match: its decision and the results it was
/// made on. A match decides on its pairs ([`Sprt::decide_pairs`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtStop {
    /// H0 or H1.
    pub decision: SprtDecision,
    /// The games then.
    pub tally: Tally,
    /// The complete pairs then.
    pub pairs: Pentanomial,
}

/// Why a match could not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// A player could not be started.
    #[error("cannot start a player: {0}")]
    Player(#[from] PlayerError),
    /// No openings were given.
    #[error("no openings to play")]
    NoOpenings,
    /// A game given as played names an opening the match does not have.
    #[error("a game already played starts from opening {opening}, beyond the {openings} openings of the match")]
    PlayedOpening {
        /// The opening's number (from 1).
        opening: usize,
        /// How many openings the match has.
        openings: usize,
    },
    /// Two games given as played are the same game of the match.
    #[error("opening {opening} with the first player as {first_color} was already played once")]
    PlayedTwice {
        /// The opening's number (from 1).
        opening: usize,
        /// The first player's colour in both.
        first_color: Color,
    },
}

/// A game a match played before it was interrupted, given to
/// [`resume_match`]: which of its games it was and who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// Index of the opening in the match's list.
    pub opening: usize,
    /// The colour the first player had.
    pub first_color: Color,
    /// The winner (`None`: drawn).
    pub winner: Option<Color>,
}

/// Plays every opening twice, the first player taking Black in one game and
/// White in the other, `config.concurrency` games at a time, until all are
/// played, the SPRT decides, or `stop` is raised (running games finish).
/// Fails only if a player cannot be started before any game has finished;
/// a later failure ends the match with the games so far and
/// [`MatchResult::error`] set.
///
/// # Examples
///
/// ```
/// use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
/// use surakarta::Rules;
/// use surakarta_match::{openings, run_match, EnginePlayer, GameReport, MatchConfig, Player, PlayerError, Reporter};
/// use surakarta_search::{Limits, Options};
///
/// /// Counts the games as they finish.
/// struct Count(AtomicUsize);
/// impl Reporter for Count {
///     fn game_finished(&self, _report: &GameReport<'_>) {
///         self.0.fetch_add(1, Ordering::Relaxed);
///     }
/// }
///
/// let player = |depth| move || -> Result<Box<dyn Player>, PlayerError> {
///     let name = format!("depth {depth}");
///     Ok(Box::new(EnginePlayer::new(name, Options::default(), None, Limits::depth(depth))?))
/// };
/// let starts = openings::from_start(2, 6, 1);
/// let config = MatchConfig { rules: Rules::ICGA, max_plies: 200, concurrency: 2, sprt: None, time_control: None };
/// let count = Count(AtomicUsize::new(0));
/// let result = run_match(&player(2), &player(1), &starts, &config, &count, &AtomicBool::new(false))?;
/// assert_eq!(result.scheduled, 4); // each opening twice, colours swapped
/// assert_eq!(result.tally.games(), 4);
/// assert_eq!(count.0.load(Ordering::Relaxed), 4);
/// assert_eq!(result.pairs.pairs(), 2);
/// assert!(!result.interrupted && result.error.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run_match(
    first: &PlayerFactory<'_>,
    second: &PlayerFactory<'_>,
    openings: &[Position],
    config: &MatchConfig,
    reporter: &dyn Reporter,
    stop: &AtomicBool,
) -> Result<MatchResult, MatchError> {
    resume_match(first, second, openings, &[], config, reporter, stop)
}

/// [`run_match`] after the games `played` (of the same players, openings
/// and settings, in the order they finished): they count in the tally,
/// the pairs and the SPRT as if just played, and the other games are
/// played. Reports number the new games after them. A game played twice or
/// from an opening beyond `openings` is refused.
///
/// # Examples
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use surakarta::{Color, Rules};
/// use surakarta_match::{openings, resume_match, EnginePlayer, MatchConfig, PlayedGame, Player, PlayerError, Silent};
/// use surakarta_search::{Limits, Options};
///
/// let player = || -> Result<Box<dyn Player>, PlayerError> {
///     Ok(Box::new(EnginePlayer::new("depth 1".into(), Options::default(), None, Limits::depth(1))?))
/// };
/// let starts = openings::from_start(2, 6, 1);
/// let config = MatchConfig { rules: Rules::ICGA, max_plies: 200, concurrency: 1, sprt: None, time_control: None };
/// // The first game of opening 0 was won by the first player, as Black.
/// let played = [PlayedGame { opening: 0, first_color: Color::Black, winner: Some(Color::Black) }];
/// let result = resume_match(&player, &player, &starts, &played, &config, &Silent, &AtomicBool::new(false))?;
/// assert_eq!(result.tally.games(), 4); // one resumed, three played
/// assert!(result.tally.wins >= 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn resume_match(
    first: &PlayerFactory<'_>,
    second: &PlayerFactory<'_>,
    openings: &[Position],
    played: &[PlayedGame],
    config: &MatchConfig,
    reporter: &dyn Reporter,
    stop: &AtomicBool,
) -> Result<MatchResult, MatchError> {
    if openings.is_empty() {
        return Err(MatchError::NoOpenings);
    }
    let scheduled = 2 * openings.len();
    let mut state = State {
        tally: Tally::default(),
        pairs: Pentanomial::default(),
        half_pairs: vec![None; openings.len()],
        decision: None,
    };
    // Which colour-swapped games of each opening are done: Black first, White first.
    let mut done = vec![[false; 2]; openings.len()];
    for game in played {
        let Some(done) = done.get_mut(game.opening) else {
            return Err(MatchError::PlayedOpening {
                opening: game.opening + 1,
                openings: openings.len(),
            });
        };
        let slot = &mut done[usize::from(game.first_color == Color::White)];
        if std::mem::replace(slot, true) {
            return Err(MatchError::PlayedTwice {
                opening: game.opening + 1,
                first_color: game.first_color,
            });
        }
        state.add(game.opening, game.first_color, game.winner, config.sprt);
    }
    let jobs: Vec<(usize, Color)> = (0..openings.len())
        .flat_map(|i| [(i, Color::Black), (i, Color::White)])
        .filter(|&(i, color)| !done[i][usize::from(color == Color::White)])
        .collect();
    let next = AtomicUsize::new(0);
    // Raised when the SPRT decides or a worker fails: take no new games.
    let decided = state.decision.is_some();
    let halt = AtomicBool::new(decided);
    let state = Mutex::new(state);
    let error = Mutex::new(None::<MatchError>);
    // Nothing to start when every game was played or the SPRT has decided.
    let workers = if jobs.is_empty() || decided {
        0
    } else {
        config.concurrency.clamp(1, jobs.len())
    };

    let worker = || -> Result<(), MatchError> {
        let mut a = first()?;
        let mut b = second()?;
        while !stop.load(Ordering::Relaxed) && !halt.load(Ordering::Relaxed) {
            let Some(&(opening, first_color)) = jobs.get(next.fetch_add(1, Ordering::Relaxed))
            else {
                break;
            };
            let (black, white) = match first_color {
                Color::Black => (&mut a, &mut b),
                Color::White => (&mut b, &mut a),
            };
            let finished = play_game_on_clock(
                black.as_mut(),
                white.as_mut(),
                openings[opening],
                config.rules,
                config.max_plies,
                config.time_control,
            );
            let names = [black.name().to_string(), white.name().to_string()];
            {
                let mut state = state.lock().unwrap_or_else(|p| p.into_inner());
                state.add(opening, first_color, finished.end.winner(), config.sprt);
                if state.decision.is_some() {
                    halt.store(true, Ordering::Relaxed);
                }
                reporter.game_finished(&GameReport {
                    number: state.tally.games() as usize,
                    opening,
                    first_color,
                    names: [&names[0], &names[1]],
                    finished: &finished,
                    tally: state.tally,
                });
            }
            // A player that failed may be unusable (a dead process): replace it.
            if let GameEnd::Forfeit { loser, .. } = finished.end {
                if loser == first_color {
                    a = first()?;
                } else {
                    b = second()?;
                }
            }
        }
        Ok(())
    };

    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                if let Err(e) = worker() {
                    error
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .get_or_insert(e);
                    // One failing worker ends the match.
                    halt.store(true, Ordering::Relaxed);
                }
            });
        }
    });
    let error = error.into_inner().unwrap_or_else(|p| p.into_inner());
    let State {
        tally,
        pairs,
        decision: sprt,
        ..
    } = state.into_inner().unwrap_or_else(|p| p.into_inner());
    if let (Some(e), 0) = (&error, tally.games()) {
        return Err(e.clone());
    }
    Ok(MatchResult {
        tally,
        pairs,
        scheduled,
        sprt,
        interrupted: stop.load(Ordering::Relaxed) && (tally.games() as usize) < scheduled,
        error,
    })
}
