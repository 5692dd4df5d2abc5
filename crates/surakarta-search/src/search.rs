//! The tree walk: principal variation search (PVS) with late move
//! reductions, reverse futility and null-move pruning, quiescence on
//! captures, transposition-table cut-offs, the rules' ends and tablebase
//! probes at every node.
//!
//! One [`Worker`] walks the tree for one thread, reading what every thread
//! of a search shares from [`Shared`]. At a node deep enough, after the
//! first move (the eldest brother) has been searched alone, the remaining
//! moves go to [`crate::smp`]'s parallel siblings, which fork workers that
//! share a rising alpha through a [`Split`]. With one thread there are no
//! splits and the search is deterministic. The iterative deepening and
//! aspiration windows around this walk are the engine's (`engine`).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Duration;
use web_time::Instant;

use surakarta::{Color, Move, MoveList, Position, Rules};
use surakarta_tablebase::{Tablebase, Value};

use crate::eval::evaluate_with_captures;
use crate::network::{Accumulator, Network};
use crate::options::Evaluation;
use crate::options::Techniques;
use crate::ordering::{History, Killers, MoveOrder};
use crate::parameters::{SearchParameters, CHECK_EVERY, NULL_MOVE_MIN_PIECES, SPLIT_DEPTH};
use crate::score::{Score, INFINITY, MAX_PLY};
use crate::smp::Split;
use crate::tt::{Bound, Entry, TranspositionTable};

/// One iteration's report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// The score for the side to move. A searched tablebase win or loss
    /// (`tbwin N`, `tbloss N`) only when every tablebase probe of the
    /// search so far has answered; after a failed probe such a score is
    /// given as the evaluation's bound (`cp ±20000`: winning or losing, no
    /// exact distance), since part of the tree was searched without the
    /// tables.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Permille of the transposition table used by this search.
    pub hashfull: u32,
    /// Tablebase probes that gave an answer.
    pub tb_hits: u64,
    /// Whether the iteration was stopped before every root move was
    /// searched: `pv` is then the best line among the root moves that
    /// finished and `score` is a lower bound.
    pub partial: bool,
    /// The principal variations, best first, as many as
    /// [`Options::multipv`](crate::Options::multipv) asks (fewer when the
    /// root has fewer moves; none when the game is over). The first is the
    /// line of `depth`, `score` and `pv` above; each other line starts
    /// with another root move. A line keeps the depth it was last searched
    /// to: when an iteration is stopped, the lines it did not reach are
    /// the previous iteration's.
    pub lines: Vec<Line>,
}

/// One principal variation of a search: a root move's line with its score
/// and the depth it was searched to.
///
/// # Examples
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use surakarta::{Game, Position, Rules};
/// use surakarta_search::{Engine, Limits, Options};
///
/// let mut engine = Engine::new(Options { multipv: 3, ..Options::default() })?;
/// let game = Game::new(Position::new(), Rules::ICGA);
/// let result = engine.search(&game, &Limits::depth(3), &AtomicBool::new(false), &mut |_| {});
/// let lines = result.lines();
/// assert_eq!(lines.len(), 3);
/// assert_eq!(lines[0].pv, result.info.pv); // line 1 is the answer
/// assert!(lines.windows(2).all(|w| w[0].score >= w[1].score)); // best first
/// assert_ne!(lines[0].pv[0], lines[1].pv[0]); // each line its own root move
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The depth in plies the line was searched to (0: from the tablebases,
    /// without a search).
    pub depth: u32,
    /// The score for the side to move at the root, as [`Info::score`].
    pub score: Score,
    /// The principal variation, from its root move.
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` if the game is over.
    pub best_move: Option<Move>,
    /// The last iteration's report (a stopped iteration's if one of its
    /// root moves finished, see [`Info::partial`]; depth 0 for a tablebase
    /// move at the root or a game that is over).
    pub info: Info,
    /// Tablebase probes that failed (a damaged or missing table); the search
    /// went on without them.
    pub tb_errors: u64,
    /// The first of those failures, as its message (which table, what is
    /// wrong with it); `None` if none failed.
    pub first_tb_error: Option<String>,
}

impl SearchResult {
    /// The principal variations of the last reported iteration, best first
    /// ([`Info::lines`]): one with the default
    /// [`Options::multipv`](crate::Options::multipv), up to that many
    /// otherwise; the first is the line of `best_move`.
    #[must_use]
    pub fn lines(&self) -> &[Line] {
        &self.info.lines
    }
}

/// A principal variation under construction.
#[derive(Clone, Copy)]
pub(crate) struct Pv {
    moves: [Option<Move>; MAX_PLY],
    len: usize,
}

impl Pv {
    pub(crate) const fn new() -> Pv {
        Pv {
            moves: [None; MAX_PLY],
            len: 0,
        }
    }

    fn set(&mut self, first: Move, rest: &Pv) {
        self.moves[0] = Some(first);
        let n = rest.len.min(MAX_PLY - 1);
        self.moves[1..=n].copy_from_slice(&rest.moves[..n]);
        self.len = n + 1;
    }

    pub(crate) fn moves(&self) -> Vec<Move> {
        self.moves[..self.len].iter().flatten().copied().collect()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// What every worker of one search shares.
pub(crate) struct Shared<'a> {
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) history: &'a History,
    pub(crate) tablebase: Option<&'a Tablebase>,
    pub(crate) tb_pieces: u32,
    /// For each piece count up to `tb_pieces`, the longest conversion of
    /// the smaller classes: every conversion after a capture fits a
    /// no-capture limit at least this long.
    pub(crate) tb_longest_below: [u32; 25],
    pub(crate) evaluation: &'a Evaluation,
    pub(crate) techniques: Techniques,
    pub(crate) parameters: SearchParameters,
    pub(crate) rules: Rules,
    pub(crate) parallel: bool,
    pub(crate) user_stop: &'a AtomicBool,
    pub(crate) abort: AtomicBool,
    pub(crate) nodes: AtomicU64,
    pub(crate) tb_hits: AtomicU64,
    pub(crate) tb_errors: AtomicU64,
    /// The message of the first failed probe.
    pub(crate) first_tb_error: OnceLock<String>,
    pub(crate) seldepth: AtomicUsize,
    pub(crate) start: Instant,
    pub(crate) hard_limit: Option<Duration>,
    pub(crate) node_limit: Option<u64>,
}

impl Shared<'_> {
    fn stopped(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
    }

    /// Raises the abort flag if the user asked, time is up or the node
    /// budget is spent.
    fn check_limits(&self) {
        let out_of_time = self.hard_limit.is_some_and(|h| self.start.elapsed() >= h);
        let out_of_nodes = self
            .node_limit
            .is_some_and(|n| self.nodes.load(Ordering::Relaxed) >= n);
        if out_of_time || out_of_nodes || self.user_stop.load(Ordering::Relaxed) {
            self.abort.store(true, Ordering::Relaxed);
        }
    }

    /// The score the rules give when the game ends by repetition or the
    /// no-capture limit: more pieces wins; with neither rule (the pure rules)
    /// endless play is a draw.
    fn adjudication(&self, position: &Position, ply: usize) -> i32 {
        if self.rules.repetitions().is_none() && self.rules.no_capture_plies().is_none() {
            return Score::DRAW.0;
        }
        let (us, them) = (position.us().len(), position.them().len());
        match us.cmp(&them) {
            core::cmp::Ordering::Greater => Score::win_at(ply).0,
            core::cmp::Ordering::Less => Score::loss_at(ply).0,
            core::cmp::Ordering::Equal => Score::DRAW.0,
        }
    }

    /// Counts a failed tablebase probe and keeps the first one's message.
    pub(crate) fn tb_error(&self, error: &dyn std::fmt::Display) {
        self.tb_errors.fetch_add(1, Ordering::Relaxed);
        if self.first_tb_error.get().is_none() {
            let _ = self.first_tb_error.set(error.to_string());
        }
    }

    /// Whether a tablebase win or loss converting in `dtc` plies is decided
    /// before the no-capture limit can end the game: the conversion, and
    /// every later one (in the smaller classes), fit the limit
    /// ([`Tablebase::cutoff`] states the conditions in full, with the
    /// game's history).
    pub(crate) fn converts_in_time(&self, position: &Position, dtc: u32) -> bool {
        self.rules.no_capture_plies().is_none_or(|limit| {
            let longest_later = self
                .tb_longest_below
                .get(position.occupied().len() as usize)
                .copied()
                .unwrap_or(u32::MAX);
            position.halfmoves().saturating_add(dtc) <= limit && longest_later <= limit
        })
    }

    /// An exact score from the tablebases, if they cover the position and
    /// their answer holds under the rules.
    fn probe(&self, position: &Position, ply: usize) -> Option<i32> {
        let tablebase = self.tablebase?;
        if position.occupied().len() > self.tb_pieces {
            return None;
        }
        let value = match tablebase.probe_position(position) {
            Ok(v) => v,
            Err(e) => {
                self.tb_error(&e);
                return None;
            }
        };
        let score = match value {
            Value::Loss(0) => Score::loss_at(ply),
            Value::Win(d) if self.converts_in_time(position, d) => Score::tb_win_at(ply as u32 + d),
            Value::Loss(d) if self.converts_in_time(position, d) => {
                Score::tb_loss_at(ply as u32 + d)
            }
            // Under adjudicating rules a drawn table says nothing about the
            // material count when the game is cut off.
            Value::Draw if self.rules == Rules::PURE => Score::DRAW,
            _ => return None,
        };
        self.tb_hits.fetch_add(1, Ordering::Relaxed);
        Some(score.0)
    }
}

/// The network of `evaluation`, if it is one.
fn network(evaluation: &Evaluation) -> Option<&Network> {
    match evaluation {
        Evaluation::Network(net) => Some(net),
        Evaluation::Classic(_) => None,
    }
}

/// One thread's search state.
pub(crate) struct Worker<'a> {
    shared: &'a Shared<'a>,
    /// Hashes of the positions since the last capture, the current node last.
    path: Vec<u64>,
    /// Index in `path` of the root: earlier positions are the game's history.
    root_index: usize,
    killers: Killers,
    /// Nodes not yet added to the shared count.
    nodes: u64,
    /// Nodes added to the shared count by this worker.
    flushed: u64,
    /// The nodes spent on each root move searched by this worker since
    /// [`Worker::clear_root_nodes`] (time management weighs the best
    /// move's share).
    root_nodes: Vec<(Move, u64)>,
    /// Whether root moves were split over threads since
    /// [`Worker::clear_root_nodes`]: `root_nodes` then misses theirs.
    root_split: bool,
    /// The deepest ply this worker reached since its last flush.
    seldepth: usize,
    /// Restricts the root's moves (to the tablebase's drawing moves, and
    /// for the lines after the first of a MultiPV search, to the moves
    /// that no earlier line starts with).
    pub(crate) root_moves: Option<MoveList>,
    /// Whether `root_moves` leaves out moves of earlier lines: the root's
    /// score is then not the position's, and is not stored in the table.
    pub(crate) excluding: bool,
    /// The network's accumulators from the root to the current node, updated
    /// on each move (empty with the classic evaluation).
    accumulators: Vec<Accumulator>,
    /// Index in `path` of the last null move's child on the current line
    /// (0 if none): repetitions are not looked for across it.
    null_index: usize,
}

impl<'a> Worker<'a> {
    pub(crate) fn new(shared: &'a Shared<'a>, history: Vec<u64>, root: &Position) -> Worker<'a> {
        let network = network(shared.evaluation);
        let mut accumulators = Vec::with_capacity(if network.is_some() { MAX_PLY + 1 } else { 0 });
        accumulators.extend(network.map(|net| Accumulator::new(net, root)));
        Worker {
            shared,
            root_index: history.len().saturating_sub(1),
            path: history,
            killers: Killers::new(),
            nodes: 0,
            flushed: 0,
            root_nodes: Vec::new(),
            root_split: false,
            seldepth: 0,
            root_moves: None,
            excluding: false,
            accumulators,
            null_index: 0,
        }
    }

    fn fork(&self) -> Worker<'a> {
        Worker {
            shared: self.shared,
            path: self.path.clone(),
            root_index: self.root_index,
            killers: self.killers.clone(),
            nodes: 0,
            flushed: 0,
            root_nodes: Vec::new(),
            root_split: false,
            seldepth: 0,
            root_moves: None,
            excluding: false,
            accumulators: self.accumulators.clone(),
            null_index: self.null_index,
        }
    }

    /// Before searching the child `position.after(m)`: the network's
    /// accumulator follows the move.
    fn push_move(&mut self, position: &Position, m: Move) {
        if let Some(net) = network(self.shared.evaluation) {
            let next = match self.accumulators.last() {
                Some(top) => top.after(net, position, m),
                None => Accumulator::new(net, &position.after(m)),
            };
            self.accumulators.push(next);
        }
    }

    /// Before searching the child of a null move: the accumulator stays
    /// (the same pieces on the same points).
    fn push_null_move(&mut self) {
        if let Some(top) = self.accumulators.last() {
            self.accumulators.push(*top);
        }
    }

    /// After searching a child: back to the parent's accumulator.
    fn pop_move(&mut self) {
        self.accumulators.pop();
    }

    pub(crate) fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.nodes, Ordering::Relaxed);
        self.flushed += self.nodes;
        self.shared
            .seldepth
            .fetch_max(self.seldepth, Ordering::Relaxed);
        self.nodes = 0;
    }

    /// Forgets the nodes spent on each root move.
    pub(crate) fn clear_root_nodes(&mut self) {
        self.root_nodes.clear();
        self.root_split = false;
    }

    /// The share of this worker's root nodes since
    /// [`Worker::clear_root_nodes`] that went to the subtree of `m`, if it
    /// searched every root move it began (none split over threads).
    pub(crate) fn root_node_share(&self, m: Move) -> Option<f64> {
        if self.root_split {
            return None;
        }
        let total: u64 = self.root_nodes.iter().map(|&(_, n)| n).sum();
        let of_m: u64 = self
            .root_nodes
            .iter()
            .filter(|&&(r, _)| r == m)
            .map(|&(_, n)| n)
            .sum();
        (total > 0).then(|| of_m as f64 / total as f64)
    }

    /// Counts `nodes` spent on the root move `m`.
    fn count_root_move(&mut self, m: Move, nodes: u64) {
        match self.root_nodes.iter_mut().find(|(r, _)| *r == m) {
            Some((_, n)) => *n += nodes,
            None => self.root_nodes.push((m, nodes)),
        }
    }

    #[inline]
    fn count_node(&mut self, ply: usize) {
        self.nodes += 1;
        if self.nodes >= CHECK_EVERY {
            self.flush_nodes();
            self.shared.check_limits();
        }
        self.seldepth = self.seldepth.max(ply);
    }

    fn stopped(&self, split: Option<&Split<'_>>) -> bool {
        self.shared.stopped() || split.is_some_and(|s| s.cancelled())
    }

    /// Whether the current node (last in `path`) repeats an earlier position
    /// within the no-capture window: once inside the search, or often enough
    /// in the game's history for the repetition rule. Not across a null
    /// move (a pass is no move of the game).
    fn is_repetition(&self, halfmoves: u32) -> bool {
        let last = self.path.len() - 1;
        let key = self.path[last];
        let window = (halfmoves as usize).min(last - self.null_index);
        let needed = self
            .shared
            .rules
            .repetitions()
            .map_or(1, |r| r.saturating_sub(1).max(1));
        let mut seen = 0;
        for back in (2..=window).step_by(2) {
            let i = last - back;
            if self.path[i] == key {
                if i >= self.root_index {
                    return true;
                }
                seen += 1;
                if seen >= needed {
                    return true;
                }
            }
        }
        false
    }

    /// The score if the rules end the game here by repetition or the
    /// no-capture limit (a side with no move loses first, as in [`surakarta::Game`]).
    fn rules_end(&self, position: &Position, ply: usize) -> Option<i32> {
        let limit_reached = self
            .shared
            .rules
            .no_capture_plies()
            .is_some_and(|l| position.halfmoves() >= l);
        if limit_reached || self.is_repetition(position.halfmoves()) {
            if !position.has_moves() {
                return Some(Score::loss_at(ply).0);
            }
            return Some(self.shared.adjudication(position, ply));
        }
        None
    }

    fn evaluate(&self, position: &Position) -> i32 {
        self.evaluate_knowing(position, None)
    }

    /// The static evaluation when the side to move's captures are known.
    fn evaluate_with_captures(&self, position: &Position, captures: usize) -> i32 {
        self.evaluate_knowing(position, Some(captures))
    }

    /// The static evaluation, given the side to move's number of captures
    /// if they have been generated.
    fn evaluate_knowing(&self, position: &Position, captures: Option<usize>) -> i32 {
        match self.shared.evaluation {
            Evaluation::Classic(w) => evaluate_with_captures(position, w, captures),
            Evaluation::Network(net) => match self.accumulators.last() {
                Some(acc) => net.evaluate_with_captures(acc, position, captures),
                None => net.evaluate(position),
            },
        }
    }

    /// Principal variation search of `position` to `depth` plies.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn negamax(
        &mut self,
        position: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv: &mut Pv,
        split: Option<&Split<'_>>,
    ) -> i32 {
        pv.len = 0;
        let pv_node = beta - alpha > 1;
        if ply == 0 {
            self.count_node(ply);
        } else if let Some(score) = self.enter(position, ply, split, true) {
            return score;
        }
        if depth <= 0 {
            return self.captures_only(position, alpha, beta, ply, split);
        }

        let techniques = self.shared.techniques;
        let key = position.zobrist();
        let mut table_move = None;
        if techniques.transposition {
            if let Some(entry) = self.shared.tt.probe(key) {
                table_move = entry.best;
                if !pv_node && ply > 0 && i32::from(entry.depth) >= depth {
                    let s = entry.score_at(ply).0;
                    match entry.bound {
                        Bound::Exact => return s,
                        Bound::Lower if s >= beta => return s,
                        Bound::Upper if s <= alpha => return s,
                        _ => {}
                    }
                }
            }
        }

        let moves = match (ply, &self.root_moves) {
            (0, Some(list)) => list.clone(),
            _ => position.legal_moves(),
        };
        if moves.is_empty() {
            return Score::loss_at(ply).0;
        }
        if !pv_node && ply > 0 {
            if let Some(score) = self.prune(position, depth, beta, ply, split) {
                return score;
            }
        }
        let killers = if techniques.killers {
            self.killers.at(ply)
        } else {
            [None; 2]
        };
        let history = techniques.history.then_some(self.shared.history);
        let mut order = MoveOrder::new(moves, position.turn(), table_move, killers, history);

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut child_pv = Pv::new();
        let mut tried_quiets = MoveList::new();
        let mut index = 0;
        while let Some(m) = order.next() {
            if index == 1 && self.shared.parallel && depth >= SPLIT_DEPTH && order.remaining() >= 1
            {
                self.root_split |= ply == 0;
                let rest: Vec<Move> = core::iter::once(m).chain(order.by_ref()).collect();
                let outcome =
                    self.search_siblings(position, &rest, depth, alpha, beta, ply, split, index);
                if self.stopped(split) {
                    return aborted(ply, best);
                }
                if let Some((score, mv, line)) = outcome {
                    if score > best {
                        best = score;
                        best_move = Some(mv);
                        if score > alpha {
                            match line.as_deref() {
                                Some(line) => pv.set(mv, line),
                                None => pv.set(mv, &Pv::new()),
                            }
                        }
                    }
                }
                break;
            }
            let child = position.after(m);
            self.path.push(child.zobrist());
            self.push_move(position, m);
            let nodes_before = if ply == 0 {
                self.flushed + self.nodes
            } else {
                0
            };
            let reduction = self.reduction(index, depth, m, pv_node, &killers);
            let score = if index == 0 {
                -self.negamax(
                    &child,
                    depth - 1,
                    -beta,
                    -alpha,
                    ply + 1,
                    &mut child_pv,
                    split,
                )
            } else {
                self.younger_brother(
                    &child,
                    depth,
                    alpha,
                    beta,
                    reduction,
                    ply,
                    &mut child_pv,
                    split,
                )
            };
            self.path.pop();
            self.pop_move();
            if ply == 0 {
                self.count_root_move(m, self.flushed + self.nodes - nodes_before);
            }
            if self.stopped(split) {
                return aborted(ply, best);
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    pv.set(m, &child_pv);
                    if score >= beta {
                        self.reward(position.turn(), m, ply, depth, &tried_quiets);
                        break;
                    }
                }
            }
            if !m.is_capture() {
                tried_quiets.push(m);
            }
            index += 1;
        }

        if techniques.transposition && !(ply == 0 && self.excluding) {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.shared.tt.store(
                key,
                Entry {
                    best: best_move,
                    score: Score(best).to_table(ply),
                    depth: depth.clamp(0, 255) as u8,
                    bound,
                },
            );
        }
        best
    }

    /// Reverse futility and null-move pruning at a node off the principal
    /// variation with moves to play: the score to return if the node can
    /// be cut without searching its moves. Reverse futility: few plies to
    /// go and the static value beats `beta` by a margin per ply. Null move:
    /// enough plies to go, the static value at least `beta`, the side to
    /// move with enough pieces and the node not itself a null move's child;
    /// the side to move passes, and if a shallower null-window search of
    /// that still beats `beta`, so would a move. Never for a decisive `beta`.
    fn prune(
        &mut self,
        position: &Position,
        depth: i32,
        beta: i32,
        ply: usize,
        split: Option<&Split<'_>>,
    ) -> Option<i32> {
        let parameters = &self.shared.parameters;
        let futility = depth <= parameters.rfp_max_depth();
        let null_move = parameters.nmp_min_depth() > 0
            && depth >= parameters.nmp_min_depth()
            && self.null_index != self.path.len() - 1
            && position.us().len() >= NULL_MOVE_MIN_PIECES;
        if !(futility || null_move) || Score(beta).is_decisive() {
            return None;
        }
        let value = self.evaluate(position);
        if futility && value - parameters.rfp_margin() * depth >= beta {
            return Some(value);
        }
        if !null_move || value < beta {
            return None;
        }
        let reduction = parameters.nmp_reduction() + depth / parameters.nmp_depth_divisor();
        let child = position.null_move();
        let outer = self.null_index;
        self.path.push(child.zobrist());
        self.null_index = self.path.len() - 1;
        self.push_null_move();
        let score = -self.negamax(
            &child,
            depth - 1 - reduction,
            -beta,
            -beta + 1,
            ply + 1,
            &mut Pv::new(),
            split,
        );
        self.pop_move();
        self.path.pop();
        self.null_index = outer;
        if self.stopped(split) {
            return Some(aborted(ply, score));
        }
        (score >= beta).then(|| {
            if Score(score).is_decisive() {
                beta
            } else {
                score
            }
        })
    }

    /// Searches a move after the first (the child is already on the path):
    /// a null window at `alpha`, `reduction` plies shallower; again at full
    /// depth if a reduced search beat alpha; with the full window if it
    /// still lies inside it. Returns the score for the parent.
    #[allow(clippy::too_many_arguments)]
    fn younger_brother(
        &mut self,
        child: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        reduction: i32,
        ply: usize,
        line: &mut Pv,
        split: Option<&Split<'_>>,
    ) -> i32 {
        let mut score = -self.negamax(
            child,
            depth - 1 - reduction,
            -alpha - 1,
            -alpha,
            ply + 1,
            line,
            split,
        );
        if score > alpha && reduction > 0 && !self.stopped(split) {
            score = -self.negamax(child, depth - 1, -alpha - 1, -alpha, ply + 1, line, split);
        }
        if score > alpha && score < beta && !self.stopped(split) {
            score = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1, line, split);
        }
        score
    }

    /// How many plies to take off a late quiet move's null-window search.
    fn reduction(
        &self,
        index: usize,
        depth: i32,
        m: Move,
        pv_node: bool,
        killers: &[Option<Move>; 2],
    ) -> i32 {
        let parameters = &self.shared.parameters;
        if !self.shared.techniques.reductions
            || depth < parameters.lmr_min_depth()
            || index < parameters.lmr_first_index()
            || m.is_capture()
            || killers.contains(&Some(m))
        {
            return 0;
        }
        let r = if index >= parameters.lmr_deeper_index() && depth >= parameters.lmr_deeper_depth()
        {
            parameters.lmr_deeper_reduction()
        } else {
            parameters.lmr_reduction()
        };
        if pv_node {
            (r - parameters.lmr_pv_relief()).max(0)
        } else {
            r
        }
    }

    /// Killer and history credit for a quiet move that failed high.
    fn reward(&mut self, color: Color, m: Move, ply: usize, depth: i32, tried: &MoveList) {
        if m.is_capture() {
            return;
        }
        if self.shared.techniques.killers {
            self.killers.insert(ply, m);
        }
        if self.shared.techniques.history {
            self.shared.history.reward(color, m, tried, depth);
        }
    }

    /// Searches the moves after the eldest brother in parallel through
    /// [`Split::search`]: each sibling as [`Worker::younger_brother`] by a
    /// forked worker, against the split's rising alpha. Returns the best
    /// score found, its move and line, or `None` if none was better than
    /// `-INFINITY` (every sibling cancelled).
    #[allow(clippy::too_many_arguments)]
    fn search_siblings(
        &mut self,
        position: &Position,
        moves: &[Move],
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        parent: Option<&Split<'_>>,
        first_index: usize,
    ) -> Option<(i32, Move, Option<Box<Pv>>)> {
        let split = Split::new(alpha, parent);
        let base: &Worker<'a> = self;
        let killers = base.killers.at(ply);
        let pv_node = beta - alpha > 1;
        split.search(
            moves,
            beta,
            || (base.fork(), Pv::new()),
            || base.shared.stopped(),
            |(worker, line), i, m, a| {
                let child = position.after(m);
                worker.path.push(child.zobrist());
                worker.push_move(position, m);
                let reduction = worker.reduction(first_index + i, depth, m, pv_node, &killers);
                let score = worker.younger_brother(
                    &child,
                    depth,
                    a,
                    beta,
                    reduction,
                    ply,
                    line,
                    Some(&split),
                );
                worker.path.pop();
                worker.pop_move();
                worker.flush_nodes();
                // Only a score above the sibling's alpha has a line worth
                // keeping (the best sibling's score is above its alpha).
                let kept = (score > a).then(|| Box::new(*line));
                (!worker.stopped(Some(&split))).then_some((score, kept))
            },
            |m| {
                if !m.is_capture() && base.shared.techniques.history {
                    base.shared
                        .history
                        .reward(position.turn(), m, &MoveList::new(), depth);
                }
            },
        )
    }

    /// Counts a node below the root and ends it early if the search is
    /// cancelled, the side to move has no pieces, the rules end the game
    /// (only after a quiet move: a capture resets both limits), the ply cap
    /// is reached or the tablebases know the value.
    fn enter(
        &mut self,
        position: &Position,
        ply: usize,
        split: Option<&Split<'_>>,
        after_quiet_move: bool,
    ) -> Option<i32> {
        self.count_node(ply);
        if self.stopped(split) {
            return Some(0);
        }
        if position.us().is_empty() {
            return Some(Score::loss_at(ply).0);
        }
        if after_quiet_move {
            if let Some(score) = self.rules_end(position, ply) {
                return Some(score);
            }
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.evaluate(position));
        }
        self.shared.probe(position, ply)
    }

    /// Quiescence search of a capture's child.
    fn quiesce(
        &mut self,
        position: &Position,
        alpha: i32,
        beta: i32,
        ply: usize,
        split: Option<&Split<'_>>,
    ) -> i32 {
        match self.enter(position, ply, split, false) {
            Some(score) => score,
            None => self.captures_only(position, alpha, beta, ply, split),
        }
    }

    /// Captures only, with the static evaluation as a floor ("stand pat");
    /// the node has been entered already.
    fn captures_only(
        &mut self,
        position: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        split: Option<&Split<'_>>,
    ) -> i32 {
        let captures = position.captures();
        if captures.is_empty() && !position.has_moves() {
            return Score::loss_at(ply).0;
        }
        let stand = self.evaluate_with_captures(position, captures.len());
        if !self.shared.techniques.quiescence || stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        for &m in captures.iter() {
            let child = position.after(m);
            self.push_move(position, m);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1, split);
            self.pop_move();
            if self.stopped(split) {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// What [`Worker::negamax`] returns when the search is stopped inside a
/// node: `0`, which no caller uses, except at the root, where it is the
/// best score among the moves that finished (the root's `pv` then holds
/// the line of the one that beat alpha, if any did).
fn aborted(ply: usize, best: i32) -> i32 {
    if ply == 0 {
        best
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::THREAD_STATE_BYTES;

    /// The heap of one worker at its deepest: the accumulators of a line
    /// to `MAX_PLY`, the killers and a path of as many positions again.
    fn worker_bytes() -> usize {
        std::mem::size_of::<Worker<'static>>()
            + (MAX_PLY + 1) * std::mem::size_of::<Accumulator>()
            + std::mem::size_of::<Killers>()
            + (MAX_PLY + 1) * std::mem::size_of::<u64>()
    }

    #[test]
    fn the_thread_state_bound_holds_four_workers_at_their_deepest() {
        // A thread holds its own worker and, while it waits in a split,
        // may run another split's worker on the same stack.
        assert!(
            4 * worker_bytes() <= THREAD_STATE_BYTES,
            "a worker takes up to {} bytes: THREAD_STATE_BYTES ({THREAD_STATE_BYTES}) must hold four",
            worker_bytes()
        );
    }
}
