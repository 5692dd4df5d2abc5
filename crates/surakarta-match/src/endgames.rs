//! Endgame judgement: how often an engine's move keeps a position's exact
//! value, on positions drawn from the tables and searched without them.
//!
//! [`sample`] draws test positions: a class with the asked piece count,
//! uniformly among the classes the tables hold, then a uniformly random
//! position of it with a random side to move, kept if the side to move wins
//! or draws, the game is not over, and **some legal move loses that value**
//! (else every engine passes it). [`judge`] searches each position with an
//! engine that has no tables, at a fixed node budget, under the pure rules
//! (the tables' values ignore the repetition and no-capture limits), and
//! asks the tables whether the chosen move keeps the value: a win stays a
//! win, a draw stays a draw or better.
//!
//! # Examples
//!
//! ```
//! use std::collections::HashSet;
//! use surakarta_match::endgames::{judge, sample};
//! use surakarta_search::Options;
//! use surakarta_tablebase::{generate_dir_with, GenerateOptions, NoProgress, Tablebase};
//!
//! let dir = std::env::temp_dir().join(format!("endgames-doc-{}", std::process::id()));
//! generate_dir_with(&dir, 4, &GenerateOptions::default(), &NoProgress)?;
//! let tables = Tablebase::open_dir(&dir)?;
//! let positions = sample(&tables, &[4], 20, 1, &HashSet::new())?;
//! assert_eq!(positions.len(), 20);
//! let report = judge(&Options::default(), &tables, &positions, 2_000, 1, &|_| {})?;
//! assert_eq!(report.total(), 20);
//! assert!(report.kept() <= 20);
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use surakarta::random::{random_position, SplitMix};
use surakarta::{Color, Game, Position, Rules};
use surakarta_search::{Limits, Options, SearchError};
use surakarta_tablebase::{Tablebase, TablebaseError, Wdl};

use crate::workers::on_engines;

/// The most draws [`sample`] makes per position asked before it gives up.
const MAX_DRAWS_PER_POSITION: usize = 10_000;

/// A test position and its exact value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndgamePosition {
    /// The position (counters at their start values).
    pub position: Position,
    /// Its value for the side to move: a win or a draw.
    pub value: Wdl,
}

/// Why test positions could not be drawn or judged.
#[derive(Debug, thiserror::Error)]
pub enum EndgameError {
    /// The tables hold no class with the piece count asked.
    #[error("the tables hold no class with {0} pieces")]
    NoClass(u32),
    /// Too few positions qualify: every draw was a loss, over, or a
    /// position where every move keeps the value.
    #[error("found only {found} of {wanted} test positions in {draws} draws")]
    TooFew {
        /// Positions found.
        found: usize,
        /// Positions asked for.
        wanted: usize,
        /// Random positions drawn.
        draws: usize,
    },
    /// A probe failed.
    #[error(transparent)]
    Tablebase(#[from] TablebaseError),
    /// The engine could not be built.
    #[error(transparent)]
    Search(#[from] SearchError),
}

/// The key of a position in an exclusion set: Black's points, White's
/// points and the side to move, packed (the training data stores the same).
///
/// # Examples
///
/// ```
/// use surakarta::Position;
/// use surakarta_match::endgames::key;
///
/// assert_ne!(key(&Position::new()), key(&"wwwwww/wwwwww/6/6/bbbbbb/bbbbbb w".parse()?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn key(position: &Position) -> u128 {
    u128::from(position.pieces(Color::Black).bits())
        | u128::from(position.pieces(Color::White).bits()) << 36
        | u128::from(position.turn() == Color::White) << 72
}

/// Draws `count` test positions with a piece count from `pieces`
/// (cycling through them), reproducibly from `seed`, skipping any whose
/// [`key`] is in `exclude` (the training positions).
pub fn sample(
    tables: &Tablebase,
    pieces: &[u32],
    count: usize,
    seed: u64,
    exclude: &HashSet<u128>,
) -> Result<Vec<EndgamePosition>, EndgameError> {
    let mut classes = Vec::new();
    for &n in pieces {
        // Classes as (side to move's pieces, the other side's).
        let held: Vec<(u32, u32)> = tables
            .materials()
            .filter(|m| m.pieces() == n && m.us() > 0 && m.them() > 0)
            .map(|m| (m.us(), m.them()))
            .collect();
        if held.is_empty() {
            return Err(EndgameError::NoClass(n));
        }
        classes.push(held);
    }
    let mut rng = SplitMix::new(seed);
    let mut out = Vec::with_capacity(count);
    let mut seen = HashSet::new();
    let limit = count.saturating_mul(MAX_DRAWS_PER_POSITION).max(1);
    let mut draws = 0;
    while out.len() < count {
        if draws >= limit {
            return Err(EndgameError::TooFew {
                found: out.len(),
                wanted: count,
                draws,
            });
        }
        draws += 1;
        let held = &classes[out.len() % classes.len()];
        let (us, them) = held[rng.below(held.len())];
        let (turn, black, white) = if rng.next_u64() & 1 == 0 {
            (Color::Black, us, them)
        } else {
            (Color::White, them, us)
        };
        let Ok(position) = random_position(&mut rng, black, white, turn) else {
            continue;
        };
        if position.outcome().is_some() || exclude.contains(&key(&position)) {
            continue;
        }
        let value = tables.probe_position(&position)?.wdl();
        if value == Wdl::Loss || !seen.insert(key(&position)) {
            continue;
        }
        let mut some_move_fails = false;
        for (_, v) in tables.move_values(&position)? {
            if v.wdl() < value {
                some_move_fails = true;
                break;
            }
        }
        if some_move_fails {
            out.push(EndgamePosition { position, value });
        }
    }
    Ok(out)
}

/// How many test positions an engine's moves kept the value of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JudgeReport {
    /// Won positions.
    pub wins: usize,
    /// Won positions whose move kept the win.
    pub wins_kept: usize,
    /// Drawn positions.
    pub draws: usize,
    /// Drawn positions whose move kept the draw (or won).
    pub draws_kept: usize,
}

impl JudgeReport {
    /// Positions judged.
    #[must_use]
    pub fn total(&self) -> usize {
        self.wins + self.draws
    }

    /// Positions whose move kept the value.
    #[must_use]
    pub fn kept(&self) -> usize {
        self.wins_kept + self.draws_kept
    }

    /// The share kept, 0 to 1 (0 for no positions).
    #[must_use]
    pub fn share(&self) -> f64 {
        self.kept() as f64 / self.total().max(1) as f64
    }
}

/// Searches every position with an engine of `options` (one thread each,
/// no tables, a fresh table per position) to `nodes` nodes on `threads`
/// workers and counts the moves that keep the value; `on_done` is called
/// with the number of positions done after each. The result does not depend
/// on `threads` (1 to [`MAX_THREADS`](surakarta_search::MAX_THREADS); no
/// more start than there are positions).
pub fn judge(
    options: &Options,
    tables: &Tablebase,
    positions: &[EndgamePosition],
    nodes: u64,
    threads: usize,
    on_done: &(dyn Fn(usize) + Sync),
) -> Result<JudgeReport, EndgameError> {
    let done = AtomicUsize::new(0);
    let report = Mutex::new(JudgeReport::default());
    let never = AtomicBool::new(false);
    on_engines(options, threads, positions.len(), |engine, i| {
        let test = positions[i];
        let game = Game::new(test.position, Rules::PURE);
        let result = engine.search(&game, &Limits::nodes(nodes), &never, &mut |_| {});
        let kept = match result.best_move {
            None => false,
            Some(m) => tables
                .move_value(&test.position, m)
                .map(|v| v.wdl() >= test.value)?,
        };
        {
            let mut r = report.lock().unwrap_or_else(|p| p.into_inner());
            match test.value {
                Wdl::Win => {
                    r.wins += 1;
                    r.wins_kept += usize::from(kept);
                }
                _ => {
                    r.draws += 1;
                    r.draws_kept += usize::from(kept);
                }
            }
        }
        on_done(done.fetch_add(1, Ordering::Relaxed) + 1);
        Ok::<(), EndgameError>(())
    })?;
    Ok(report.into_inner().unwrap_or_else(|p| p.into_inner()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use surakarta_tablebase::{generate_dir_with, GenerateOptions, NoProgress};

    fn tables(pieces: u32) -> (std::path::PathBuf, Tablebase) {
        let dir = std::env::temp_dir().join(format!(
            "surakarta-endgames-{}-{pieces}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        generate_dir_with(&dir, pieces, &GenerateOptions::default(), &NoProgress).unwrap();
        let tb = Tablebase::open_dir(&dir).unwrap();
        (dir, tb)
    }

    #[test]
    fn samples_are_won_or_drawn_and_can_fail() {
        let (dir, tb) = tables(4);
        let positions = sample(&tb, &[3, 4], 40, 7, &HashSet::new()).unwrap();
        assert_eq!(positions.len(), 40);
        for (i, p) in positions.iter().enumerate() {
            assert_eq!(p.position.occupied().len(), [3, 4][i % 2]);
            assert_eq!(tb.probe_position(&p.position).unwrap().wdl(), p.value);
            assert_ne!(p.value, Wdl::Loss);
            let values = tb.move_values(&p.position).unwrap();
            assert!(values.iter().any(|(_, v)| v.wdl() < p.value));
        }
        assert_eq!(
            sample(&tb, &[3, 4], 40, 7, &HashSet::new()).unwrap(),
            positions
        );
        // Excluded positions are not drawn.
        let exclude: HashSet<u128> = positions.iter().map(|p| key(&p.position)).collect();
        let others = sample(&tb, &[3, 4], 40, 7, &exclude).unwrap();
        assert!(others.iter().all(|p| !exclude.contains(&key(&p.position))));
        assert!(matches!(
            sample(&tb, &[9], 1, 7, &HashSet::new()),
            Err(EndgameError::NoClass(9))
        ));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn deeper_searches_keep_more_and_threads_do_not_change_the_count() {
        let (dir, tb) = tables(4);
        let positions = sample(&tb, &[4], 60, 3, &HashSet::new()).unwrap();
        let options = Options::default();
        let shallow = judge(&options, &tb, &positions, 50, 1, &|_| {}).unwrap();
        let deep = judge(&options, &tb, &positions, 20_000, 1, &|_| {}).unwrap();
        let deep_two = judge(&options, &tb, &positions, 20_000, 2, &|_| {}).unwrap();
        assert_eq!(deep, deep_two);
        assert_eq!(deep.total(), 60);
        assert!(deep.kept() >= shallow.kept(), "{deep:?} {shallow:?}");
        assert!(deep.share() > 0.8, "{deep:?}");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
