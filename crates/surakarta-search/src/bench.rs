//! The fixed benchmark: a set of positions searched to a fixed depth with
//! fresh tables. Its node count is a signature of the search (it changes
//! when the search's behaviour changes, and only then, with one thread);
//! its speed is the engine's nodes per second.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use web_time::Instant;

use surakarta::{Game, Position, Rules};
use surakarta_tablebase::Tablebase;

use crate::engine::Engine;
use crate::error::SearchError;
use crate::eval::evaluate;
use crate::limits::Limits;
use crate::network::Accumulator;
use crate::options::{Evaluation, Options};
use crate::search::SearchResult;

/// The benchmark positions: the start and positions from plies 12, 30 and
/// 60 of self-play games (depth 5) after random four-ply openings.
pub const POSITIONS: &[&str] = &[
    "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1",
    "1wwwww/ww4/1w1w2/2b2b/b1b3/bbbb1b b 0 9",
    "1w4/w1w2b/1www2/1bbbw1/2b3/bb4 b 1 18",
    "ww2ww/1ww1ww/w3b1/6/bbb1b1/bb2bb b 1 9",
    "2w1ww/2b1bw/6/4w1/b5/bb4 b 0 18",
    "w1wwww/1wwww1/1w2w1/b2bb1/1bbb1b/b1b1bb b 5 9",
    "w1w2w/6/6/6/1b4/b4b b 2 18",
    "1www1w/wwww2/1w4/b3wb/b1bbb1/bbb2b b 2 9",
    "3w2/www3/wbw3/b2b1b/1b1bw1/2b3 b 4 18",
    "w1wwww/1ww3/2wwww/bbbbbb/w1b3/b1bbbb b 16 9",
    "w2w1w/3w2/3w1w/2wb1b/3b2/b2b1b b 0 18",
    "w1w2w/6/5w/6/b5/4b1 b 20 33",
    "wwww1w/3w1w/wwww1w/bbbb2/3bb1/bbbb1b b 0 9",
    "w1w2w/6/w1wb2/b1b3/2w3/b1b2b b 0 18",
    "6/w3w1/6/b5/6/b2b1b b 21 33",
];

/// The default benchmark depth.
pub const DEFAULT_DEPTH: u32 = 8;

/// What a benchmark run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchReport {
    /// Positions searched.
    pub positions: usize,
    /// Depth of every search.
    pub depth: u32,
    /// Total nodes: the signature.
    pub nodes: u64,
    /// Time spent searching: the searches' wall times added up (clearing
    /// the table between positions not counted).
    pub elapsed: Duration,
    /// Tablebase hits (0 without tables).
    pub tb_hits: u64,
}

impl BenchReport {
    /// Nodes per second.
    #[must_use]
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every benchmark position to `depth` under the ICGA rules with
/// a cleared engine state each time (probing `tablebase` if given: the node
/// count is then a signature of the search and those tables), calling
/// `on_position` after each.
pub fn run(
    options: Options,
    tablebase: Option<Arc<Tablebase>>,
    depth: u32,
    on_position: &mut dyn FnMut(usize, &Position, &SearchResult),
) -> Result<BenchReport, SearchError> {
    let mut engine = Engine::new(options)?;
    engine.set_tablebase(tablebase);
    let stop = AtomicBool::new(false);
    let mut searching = Duration::ZERO;
    let mut nodes = 0;
    let mut tb_hits = 0;
    for (i, text) in POSITIONS.iter().enumerate() {
        let position: Position = text.parse().unwrap_or_else(|_| Position::new());
        engine.new_game();
        let game = Game::new(position, Rules::ICGA);
        let result = engine.search(&game, &Limits::depth(depth), &stop, &mut |_| {});
        nodes += result.info.nodes;
        tb_hits += result.info.tb_hits;
        searching += result.info.elapsed;
        on_position(i, &position, &result);
    }
    Ok(BenchReport {
        positions: POSITIONS.len(),
        depth,
        nodes,
        elapsed: searching,
        tb_hits,
    })
}

/// The time one static evaluation costs the search, measured over the
/// children of the benchmark positions (each evaluated `rounds` times):
/// for the classic evaluation, the evaluation of the child; for a network,
/// the accumulator's update by the move and the output, as the search
/// pays them.
///
/// # Examples
///
/// ```
/// use surakarta_search::{bench, Evaluation};
///
/// let classic = bench::evaluation_cost(&Evaluation::named("classic").unwrap(), 1);
/// let network = bench::evaluation_cost(&Evaluation::network(), 1);
/// assert!(classic.as_nanos() > 0 && network.as_nanos() > 0);
/// ```
#[must_use]
pub fn evaluation_cost(evaluation: &Evaluation, rounds: u32) -> Duration {
    let positions: Vec<Position> = POSITIONS.iter().filter_map(|t| t.parse().ok()).collect();
    let mut evaluations = 0u64;
    let mut sink = 0i64;
    let start = Instant::now();
    for _ in 0..rounds.max(1) {
        for position in &positions {
            let moves = position.legal_moves();
            match evaluation {
                Evaluation::Classic(weights) => {
                    for &m in moves.iter() {
                        sink += i64::from(evaluate(&position.after(m), weights));
                    }
                }
                Evaluation::Network(net) => {
                    let parent = Accumulator::new(net, position);
                    for &m in moves.iter() {
                        let child = position.after(m);
                        let acc = parent.after(net, position, m);
                        sink += i64::from(net.evaluate_with(&acc, &child));
                    }
                }
            }
            evaluations += moves.len() as u64;
        }
    }
    let elapsed = start.elapsed();
    std::hint::black_box(sink);
    elapsed / u32::try_from(evaluations.max(1)).unwrap_or(u32::MAX)
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
