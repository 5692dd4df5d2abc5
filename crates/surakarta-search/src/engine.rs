//! The engine: the transposition table, history and thread pool that
//! persist between searches, and the iterative-deepening driver.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use surakarta::{Game, Move, MoveList};
use surakarta_tablebase::{Tablebase, Value};

use crate::error::SearchError;
use crate::eval::Weights;
use crate::limits::Limits;
use crate::options::{Options, Techniques};
use crate::ordering::History;
use crate::parameters::{
    ASPIRATION_BASE, ASPIRATION_GROWTH, ASPIRATION_MIN_DEPTH, ASPIRATION_SCORE_DIVISOR,
};
use crate::score::{Score, INFINITY, MAX_PLY};
use crate::search::{Info, Pv, SearchResult, Shared, Worker};
use crate::smp::Threads;
use crate::tt::TranspositionTable;

/// A search engine. Keeps its transposition table and history between
/// searches of one game; [`Engine::new_game`] forgets them.
pub struct Engine {
    options: Options,
    tt: TranspositionTable,
    history: History,
    tablebase: Option<Arc<Tablebase>>,
    threads: Threads,
}

impl Engine {
    /// An engine with the given options and no tablebases. Fails on a
    /// thread count or hash size out of range, a transposition table the
    /// machine cannot allocate, or a thread pool that cannot start.
    pub fn new(options: Options) -> Result<Engine, SearchError> {
        options.check()?;
        let tt = TranspositionTable::new(options.hash_mb)?;
        let threads = Threads::new(options.threads, options.smp)?;
        Ok(Engine {
            options,
            tt,
            history: History::new(),
            tablebase: None,
            threads,
        })
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Uses these tablebases (or none) from the next search on.
    pub fn set_tablebase(&mut self, tablebase: Option<Arc<Tablebase>>) {
        self.tablebase = tablebase;
    }

    /// The tablebases in use.
    pub fn tablebase(&self) -> Option<&Arc<Tablebase>> {
        self.tablebase.as_ref()
    }

    /// Changes the evaluation weights and techniques (threads and hash size
    /// need a new engine).
    pub fn set_evaluation(&mut self, weights: Weights, techniques: Techniques) {
        self.options.weights = weights;
        self.options.techniques = techniques;
    }

    /// Forgets the transposition table and history (a new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.history.clear();
    }

    /// Searches the current position of `game` (under the game's rules,
    /// with its history for repetitions) until a limit is reached or `stop`
    /// is raised, reporting each finished iteration to `on_info`.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let start = Instant::now();
        let root = *game.position();
        let rules = game.rules();
        let (soft_limit, hard_limit) = limits.budget();
        let max_depth = limits
            .depth
            .map_or(MAX_PLY as u32 - 1, |d| d.clamp(1, MAX_PLY as u32 - 1));
        self.tt.new_search();

        let tablebase = self.tablebase.as_deref();
        let shared = Shared {
            tt: &self.tt,
            history: &self.history,
            tablebase,
            tb_pieces: tablebase.map_or(0, |t| t.complete_pieces()),
            weights: self.options.weights,
            techniques: self.options.techniques,
            rules,
            parallel: self.threads.splits(),
            user_stop: stop,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            tb_hits: AtomicU64::new(0),
            tb_errors: AtomicU64::new(0),
            seldepth: AtomicUsize::new(0),
            start,
            hard_limit,
            node_limit: limits.nodes,
        };
        let info = |depth: u32, score: Score, pv: Vec<Move>| {
            let elapsed = start.elapsed();
            let nodes = shared.nodes.load(Ordering::Relaxed);
            Info {
                depth,
                seldepth: shared.seldepth.load(Ordering::Relaxed) as u32,
                score,
                nodes,
                nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
                elapsed,
                pv,
                hashfull: self.tt.hashfull(),
                tb_hits: shared.tb_hits.load(Ordering::Relaxed),
            }
        };
        let finish = |best_move: Option<Move>, info: Info| SearchResult {
            best_move,
            info,
            tb_errors: shared.tb_errors.load(Ordering::Relaxed),
        };

        if game.outcome().is_some() {
            return finish(None, info(0, Score::DRAW, Vec::new()));
        }
        let legal = root.legal_moves();

        // The tablebases decide the root when they cover it: play the move
        // that converts fastest (or loses slowest); in a draw, search only
        // among the moves that keep it.
        let mut root_moves = None;
        if root.occupied().len() <= shared.tb_pieces {
            if let Some(tb) = tablebase {
                match tb.move_values(&root) {
                    Ok(values) => {
                        let best = values.iter().copied().reduce(|a, b| {
                            if b.1.is_better_than(a.1) {
                                b
                            } else {
                                a
                            }
                        });
                        if let Some((m, value)) = best {
                            let decided = match value {
                                Value::Win(d) if shared.converts_in_time(&root, d) => {
                                    Some(Score::tb_win_at(d))
                                }
                                Value::Loss(d) if shared.converts_in_time(&root, d) => {
                                    Some(Score::tb_loss_at(d))
                                }
                                _ => None,
                            };
                            if let Some(score) = decided {
                                let line = tb.line(&root).unwrap_or_else(|_| vec![m]);
                                let line = if line.first() == Some(&m) {
                                    line
                                } else {
                                    vec![m]
                                };
                                shared.tb_hits.fetch_add(1, Ordering::Relaxed);
                                let report = info(0, score, line);
                                on_info(&report);
                                return finish(Some(m), report);
                            }
                            if value == Value::Draw {
                                let keep: MoveList = values
                                    .iter()
                                    .filter(|(_, v)| *v == Value::Draw)
                                    .map(|&(m, _)| m)
                                    .collect();
                                root_moves = Some(keep);
                            }
                        }
                    }
                    Err(_) => {
                        shared.tb_errors.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        }

        // Hashes of the game's positions since the last capture, then the root.
        let window = root.halfmoves() as usize;
        let positions = game.positions();
        let from = positions.len().saturating_sub(window + 1);
        let game_hashes: Vec<u64> = positions[from..].iter().map(|p| p.zobrist()).collect();

        let fallback = root_moves.as_ref().unwrap_or(&legal)[0];
        let best = self.threads.with_helpers(
            &shared.abort,
            max_depth,
            || {
                // A Lazy SMP helper searches the root on its own, filling the
                // shared table for the main thread.
                let mut worker = Worker::new(&shared, game_hashes.clone());
                worker.root_moves = root_moves.clone();
                move |depth| {
                    let mut pv = Pv::new();
                    worker.negamax(&root, depth, -INFINITY, INFINITY, 0, &mut pv, None);
                    worker.flush_nodes();
                }
            },
            || {
            let mut best: Option<Info> = None;
            let mut worker = Worker::new(&shared, game_hashes.clone());
            worker.root_moves = root_moves.clone();
            for depth in 1..=max_depth as i32 {
                let previous = best.as_ref().map(|i| i.score.0);
                let mut delta = match previous {
                    Some(p)
                        if shared.techniques.aspiration
                            && depth >= ASPIRATION_MIN_DEPTH
                            && !Score(p).is_decisive() =>
                    {
                        // FuChou's window: wider when the score is larger, with a
                        // floor so that it is never empty.
                        ASPIRATION_BASE + p.abs() / ASPIRATION_SCORE_DIVISOR
                    }
                    _ => INFINITY,
                };
                let centre = previous.unwrap_or(0);
                let (mut alpha, mut beta) = if delta >= INFINITY {
                    (-INFINITY, INFINITY)
                } else {
                    (
                        (centre - delta).max(-INFINITY),
                        (centre + delta).min(INFINITY),
                    )
                };
                let mut pv = Pv::new();
                let score = loop {
                    let score = self.threads.install(|| {
                        worker.negamax(&root, depth, alpha, beta, 0, &mut pv, None)
                    });
                    worker.flush_nodes();
                    if shared.abort.load(Ordering::Relaxed) {
                        break None;
                    }
                    delta = delta.saturating_mul(ASPIRATION_GROWTH);
                    if score <= alpha && alpha > -INFINITY {
                        alpha = (score - delta).max(-INFINITY);
                    } else if score >= beta && beta < INFINITY {
                        beta = (score + delta).min(INFINITY);
                    } else {
                        break Some(score);
                    }
                };
                let Some(score) = score else { break };
                let mut line = pv.moves();
                if line.is_empty() {
                    line.push(
                        best.as_ref()
                            .and_then(|i| i.pv.first().copied())
                            .unwrap_or(fallback),
                    );
                }
                let report = info(depth as u32, Score(score), line);
                on_info(&report);
                let decided = Score(score).is_decisive()
                    && matches!(Score(score).kind(), crate::ScoreKind::Win(n) | crate::ScoreKind::Loss(n) if n <= depth as u32);
                best = Some(report);
                if decided || soft_limit.is_some_and(|s| start.elapsed() >= s) {
                    break;
                }
                if limits
                    .nodes
                    .is_some_and(|n| shared.nodes.load(Ordering::Relaxed) >= n)
                {
                    break;
                }
            }
            best
            },
        );
        let report = best.unwrap_or_else(|| info(0, Score::DRAW, vec![fallback]));
        let best_move = report.pv.first().copied().or(Some(fallback));
        let report = Info {
            nodes: shared.nodes.load(Ordering::Relaxed),
            elapsed: start.elapsed(),
            ..report
        };
        finish(best_move, report)
    }
}
