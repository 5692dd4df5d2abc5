//! The fixed benchmark: a set of positions searched to a fixed depth with
//! fresh tables. Its node count is a signature of the search (it changes
//! when the search's behaviour changes, and only then, with one thread);
//! its speed is the engine's nodes per second.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use surakarta::{Game, Position, Rules};

use crate::engine::{Engine, Options, SearchError};
use crate::limits::Limits;
use crate::search::SearchResult;

/// The benchmark positions: the start, openings, middlegames and endgames.
pub const POSITIONS: &[&str] = &["bbbbbb/bbbbbb/6/6/wwwwww/wwwwww b"];

/// The default benchmark depth.
pub const DEFAULT_DEPTH: u32 = 7;

/// What a benchmark run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchReport {
    /// Positions searched.
    pub positions: usize,
    /// Depth of every search.
    pub depth: u32,
    /// Total nodes: the signature.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl BenchReport {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every benchmark position to `depth` under the ICGA rules with
/// a fresh engine state each time, calling `on_position` after each.
pub fn run(
    options: Options,
    depth: u32,
    on_position: &mut dyn FnMut(usize, &Position, &SearchResult),
) -> Result<BenchReport, SearchError> {
    let mut engine = Engine::new(options)?;
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let mut nodes = 0;
    for (i, text) in POSITIONS.iter().enumerate() {
        let position: Position = text.parse().unwrap_or_else(|_| Position::new());
        engine.new_game();
        let game = Game::new(position, Rules::ICGA);
        let result = engine.search(&game, &Limits::depth(depth), &stop, &mut |_| {});
        nodes += result.info.nodes;
        on_position(i, &position, &result);
    }
    Ok(BenchReport {
        positions: POSITIONS.len(),
        depth,
        nodes,
        elapsed: start.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_benchmark_position_is_valid_and_alive() {
        for text in POSITIONS {
            let p: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert!(p.outcome().is_none(), "{text}");
        }
    }
}
