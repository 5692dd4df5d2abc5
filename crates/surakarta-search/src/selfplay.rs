//! Whole games between two engine configurations, and small matches of
//! them: the harness that decides whether a change to the engine is kept.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use surakarta::{Color, Game, Outcome, Position, Rules};
use surakarta_tablebase::Tablebase;

use crate::engine::{Engine, Options, SearchError};
use crate::limits::Limits;

/// One side of a match: engine options, search limits and tablebases.
#[derive(Clone)]
pub struct Player {
    /// Engine settings.
    pub options: Options,
    /// Limits for every move.
    pub limits: Limits,
    /// Tablebases, if any.
    pub tablebase: Option<Arc<Tablebase>>,
}

impl Player {
    /// An engine for this player.
    pub fn engine(&self) -> Result<Engine, SearchError> {
        let mut engine = Engine::new(self.options)?;
        engine.set_tablebase(self.tablebase.clone());
        Ok(engine)
    }
}

/// A finished game: the moves and how it ended (`None`: stopped at the ply
/// cap, counted as a draw).
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The game with every move.
    pub game: Game,
    /// The rules' verdict, if the game ended by them.
    pub outcome: Option<Outcome>,
}

/// Plays one game from `start`: `engines[0]` plays Black, `engines[1]`
/// White, each with its own limits, until the rules end it or `max_plies`
/// moves have been played.
pub fn play_game(
    engines: [&mut Engine; 2],
    limits: [Limits; 2],
    start: Position,
    rules: Rules,
    max_plies: usize,
) -> PlayedGame {
    let mut game = Game::new(start, rules);
    let stop = AtomicBool::new(false);
    let [black, white] = engines;
    black.new_game();
    white.new_game();
    while game.outcome().is_none() && game.moves().len() < max_plies {
        let side = game.position().turn();
        let (engine, limit) = match side {
            Color::Black => (&mut *black, limits[0]),
            Color::White => (&mut *white, limits[1]),
        };
        let result = engine.search(&game, &limit, &stop, &mut |_| {});
        let Some(m) = result.best_move else { break };
        if game.play(m).is_err() {
            break;
        }
    }
    let outcome = game.outcome();
    PlayedGame { game, outcome }
}

/// Wins, draws and losses from the first player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first player won.
    pub wins: u32,
    /// Drawn games (including games stopped at the ply cap).
    pub draws: u32,
    /// Games the first player lost.
    pub losses: u32,
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first player's score fraction (wins plus half the draws).
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }

    /// Adds a game the first player played as `color`.
    pub fn add(&mut self, color: Color, outcome: Option<Outcome>) {
        match outcome.and_then(|o| o.winner) {
            None => self.draws += 1,
            Some(w) if w == color => self.wins += 1,
            Some(_) => self.losses += 1,
        }
    }
}

/// A small deterministic pseudo-random generator (SplitMix64), so that
/// openings are reproducible from a seed without another dependency.
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// The start position after `plies` random legal moves (fewer if a game
/// would end), from `seed`.
pub fn random_opening(seed: u64, plies: usize) -> Position {
    let mut rng = SplitMix(seed);
    let mut position = Position::new();
    for _ in 0..plies {
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        let next = position.after(moves[rng.below(moves.len())]);
        if next.outcome().is_some() || next.legal_moves().is_empty() {
            break;
        }
        position = next;
    }
    position
}

/// Plays each opening twice, colours swapped, between `first` and
/// `second`, `concurrency` games at a time; calls `on_game` after each game
/// with the first player's colour. Returns the first player's tally.
pub fn run_match(
    first: &Player,
    second: &Player,
    openings: &[Position],
    rules: Rules,
    max_plies: usize,
    concurrency: usize,
    on_game: &(dyn Fn(usize, Color, &PlayedGame) + Sync),
) -> Result<Tally, SearchError> {
    let jobs: Vec<(usize, Color)> = (0..openings.len())
        .flat_map(|i| [(i, Color::Black), (i, Color::White)])
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let tally = std::sync::Mutex::new(Tally::default());
    let error = std::sync::Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..concurrency.max(1) {
            scope.spawn(|| {
                let engines = first.engine().and_then(|a| Ok((a, second.engine()?)));
                let (mut a, mut b) = match engines {
                    Ok(e) => e,
                    Err(e) => {
                        *error.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                        return;
                    }
                };
                loop {
                    let job = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&(i, color)) = jobs.get(job) else {
                        break;
                    };
                    let played = match color {
                        Color::Black => play_game(
                            [&mut a, &mut b],
                            [first.limits, second.limits],
                            openings[i],
                            rules,
                            max_plies,
                        ),
                        Color::White => play_game(
                            [&mut b, &mut a],
                            [second.limits, first.limits],
                            openings[i],
                            rules,
                            max_plies,
                        ),
                    };
                    tally
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .add(color, played.outcome);
                    on_game(i, color, &played);
                }
            });
        }
    });
    if let Some(e) = error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    Ok(tally.into_inner().unwrap_or_else(|p| p.into_inner()))
}
