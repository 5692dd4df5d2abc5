//! The engine: what persists between searches (options, transposition
//! table, history, tablebases, threads) and the driver of one search,
//! [`Engine::search`], in named steps:
//!
//! 1. [`Engine::shared`]: the state every search thread shares (limits,
//!    counters, table, history);
//! 2. [`root_tablebase`]: the answer from the tables when they cover the
//!    root (a win or loss is played at once, its lines ranked by the
//!    tables; a draw restricts the search to the moves that keep it);
//! 3. [`Root::new`]: the root's moves, the game's positions for repetitions
//!    and the move to fall back on;
//! 4. [`Threads::with_helpers`](crate::smp::Threads::with_helpers) with
//!    [`helper`]: starting the Lazy SMP helper threads, if any, beside
//! 5. [`iterative_deepening`]: the main thread's iterations, each an
//!    [`aspiration_search`] in an [`aspiration_window`] per line of
//!    MultiPV ([`Options::multipv`]), the root's moves of earlier lines
//!    left out of each later one;
//! 6. [`final_answer`]: the last reported iteration's move and report
//!    (a stopped iteration's when one of its root moves finished).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use web_time::Instant;

use surakarta::{Game, Move, MoveList, Position, Rules};
use surakarta_tablebase::{GameValue, Tablebase, Value};

use crate::error::SearchError;
use crate::level::{choose_line, level_parameters, LevelParameters};
use crate::limits::Limits;
use crate::options::check_level;
use crate::options::{check_multipv, Evaluation, Options, Techniques, TimeManagement};
use crate::ordering::History;
use crate::parameters::{
    SearchParameters, TIME_GROWTH_MAX, TIME_GROWTH_MIN, TIME_NODE_SHARE_BASE,
    TIME_NODE_SHARE_FACTOR, TIME_STABILITY_SCALE,
};
use crate::score::{Score, ScoreKind, EVAL_LIMIT, INFINITY};
use crate::search::{Info, Line, Pv, SearchResult, Shared, Worker};
use crate::smp::Threads;
use crate::tt::TranspositionTable;

/// A search engine. Keeps its transposition table and history between
/// searches of one game; [`Engine::new_game`] forgets them.
///
/// # Examples
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use surakarta::{Game, Rules};
/// use surakarta_search::{Engine, Limits, Options, ScoreKind};
///
/// let mut engine = Engine::new(Options::default())?;
/// // Black to move can take White's last piece: a win in one ply.
/// let game = Game::new("6/1w4/6/6/1b4/6 b".parse()?, Rules::ICGA);
/// let result = engine.search(&game, &Limits::depth(3), &AtomicBool::new(false), &mut |_| {});
/// assert_eq!(result.best_move.map(|m| m.to_string()), Some("b2xb5".to_string()));
/// assert_eq!(result.info.score.kind(), ScoreKind::Win(1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Engine {
    options: Options,
    tt: TranspositionTable,
    history: History,
    tablebase: Option<Arc<Tablebase>>,
    /// What the searches need of the tablebases' coverage, computed when
    /// they are set.
    tb_coverage: Coverage,
    threads: Threads,
}

/// How far the tablebases of an engine reach: the largest piece count all
/// of whose classes they hold, and for each piece count the longest
/// conversion of the smaller classes (what a no-capture limit must leave
/// room for after a capture).
#[derive(Clone, Copy, Debug, Default)]
struct Coverage {
    pieces: u32,
    longest_below: [u32; 25],
}

impl Coverage {
    fn of(tablebase: Option<&Tablebase>) -> Coverage {
        tablebase.map_or_else(Coverage::default, |t| Coverage {
            pieces: t.complete_pieces(),
            longest_below: core::array::from_fn(|pieces| t.longest_below(pieces as u32)),
        })
    }
}

impl Engine {
    /// An engine with the given options and no tablebases. Fails on a
    /// thread count or hash size out of range, a transposition table the
    /// machine cannot allocate, or a thread pool that cannot start.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_search::{Engine, Options, SearchError};
    ///
    /// let engine = Engine::new(Options { threads: 2, hash_mb: 16, ..Options::default() })?;
    /// assert_eq!(engine.options().threads, 2);
    /// assert!(engine.tablebase().is_none());
    /// // Out of range: refused before anything is allocated.
    /// let error = Engine::new(Options { threads: 0, ..Options::default() }).err();
    /// assert!(matches!(error, Some(SearchError::Threads(0))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(options: Options) -> Result<Engine, SearchError> {
        options.check()?;
        let tt = TranspositionTable::new(options.hash_mb)?;
        let threads = Threads::new(options.threads, options.smp)?;
        Ok(Engine {
            options,
            tt,
            history: History::new(),
            tablebase: None,
            tb_coverage: Coverage::default(),
            threads,
        })
    }

    /// The options.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Uses these tablebases (or none) from the next search on.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::{atomic::AtomicBool, Arc};
    /// use surakarta::{Game, Rules};
    /// use surakarta_index::Scheme;
    /// use surakarta_search::{Engine, Limits, Options, ScoreKind};
    /// use surakarta_tablebase::{NoProgress, Tablebase};
    ///
    /// let (tables, _) = Tablebase::generate(3, Scheme::Symmetric, &NoProgress)?;
    /// let mut engine = Engine::new(Options::default())?;
    /// engine.set_tablebase(Some(Arc::new(tables)));
    /// // A position the tables hold is answered from them, without searching.
    /// let game = Game::new("b5/6/6/6/6/w4w b".parse()?, Rules::PURE);
    /// let result = engine.search(&game, &Limits::depth(6), &AtomicBool::new(false), &mut |_| {});
    /// assert_eq!(result.best_move.map(|m| m.to_string()), Some("a6-a5".to_string()));
    /// assert_eq!(result.info.score.kind(), ScoreKind::TbWin(3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_tablebase(&mut self, tablebase: Option<Arc<Tablebase>>) {
        self.tb_coverage = Coverage::of(tablebase.as_deref());
        self.tablebase = tablebase;
    }

    /// The tablebases in use.
    #[must_use]
    pub fn tablebase(&self) -> Option<&Arc<Tablebase>> {
        self.tablebase.as_ref()
    }

    /// Changes the evaluation and techniques (threads and hash size need a
    /// new engine).
    pub fn set_evaluation(&mut self, evaluation: Evaluation, techniques: Techniques) {
        self.options.evaluation = evaluation;
        self.options.techniques = techniques;
    }

    /// Sets how many principal variations the next searches report
    /// ([`Options::multipv`]); fails, changing nothing, outside
    /// `1..=`[`MAX_MULTIPV`](crate::MAX_MULTIPV). The table and history
    /// are kept.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use surakarta::{Game, Position, Rules};
    /// use surakarta_search::{Engine, Limits, Options, SearchError};
    ///
    /// let mut engine = Engine::new(Options::default())?;
    /// engine.set_multipv(4)?;
    /// let game = Game::new(Position::new(), Rules::ICGA);
    /// let result = engine.search(&game, &Limits::depth(2), &AtomicBool::new(false), &mut |_| {});
    /// assert_eq!(result.lines().len(), 4);
    /// assert_eq!(engine.set_multipv(0), Err(SearchError::MultiPv(0)));
    /// assert_eq!(engine.options().multipv, 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_multipv(&mut self, lines: usize) -> Result<(), SearchError> {
        check_multipv(lines)?;
        self.options.multipv = lines;
        Ok(())
    }

    /// Sets how searches on a clock decide when to stop, keeping the table
    /// and history.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_search::{Engine, Options, TimeManagement};
    ///
    /// let mut engine = Engine::new(Options::default())?;
    /// engine.set_time_management(TimeManagement::Plain);
    /// assert_eq!(engine.options().time_management, TimeManagement::Plain);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_time_management(&mut self, time_management: TimeManagement) {
        self.options.time_management = time_management;
    }

    /// Changes the tunable search parameters of the next searches (the
    /// table and history stay).
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_search::{Engine, Options};
    ///
    /// let mut engine = Engine::new(Options::default())?;
    /// engine.set_parameters("aspiration-base=30".parse()?);
    /// assert_eq!(engine.options().parameters.get("aspiration-base"), Some(30));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_parameters(&mut self, parameters: SearchParameters) {
        self.options.parameters = parameters;
    }

    /// Forgets the transposition table and history (a new game).
    pub fn new_game(&mut self) {
        self.threads.clear(&mut self.tt);
        self.history.clear();
    }

    /// Searches the current position of `game` (under the game's rules,
    /// with its history for repetitions) until a limit is reached or `stop`
    /// is raised, reporting each finished iteration to `on_info`.
    ///
    /// In steps (private functions of the `engine` module): `Engine::shared`
    /// (what the threads share), `root_tablebase` (the tables' answer at the
    /// root), `Root::new` (root moves, repetition history, fallback move),
    /// `Threads::with_helpers` starting the Lazy SMP helpers (`helper`)
    /// beside `iterative_deepening` (each iteration an `aspiration_search`
    /// per line of MultiPV), and `final_answer`.
    ///
    /// With [`Options::multipv`] above 1 each iteration searches the root
    /// once per line, leaving out the first moves of the lines found
    /// before, and reports the lines best first in [`Info::lines`]
    /// ([`SearchResult::lines`]); `best_move` is the first line's.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use surakarta::{Game, Position, Rules};
    /// use surakarta_search::{Engine, Limits, Options};
    ///
    /// let mut engine = Engine::new(Options::default())?;
    /// let game = Game::new(Position::new(), Rules::ICGA);
    /// let stop = AtomicBool::new(false); // another thread may raise it to stop early
    /// let mut reports = Vec::new();
    /// let result = engine.search(&game, &Limits::nodes(20_000), &stop, &mut |info| {
    ///     reports.push((info.depth, info.score, info.pv.len()))
    /// });
    /// let best = result.best_move.unwrap();
    /// assert!(game.position().is_legal(best));
    /// assert_eq!(result.info.pv.first(), Some(&best));
    /// assert!(!reports.is_empty());
    ///
    /// // A game that is over has no move to play.
    /// let over = Game::new("6/6/6/6/1b4/6 w".parse()?, Rules::ICGA);
    /// assert_eq!(engine.search(&over, &Limits::depth(1), &stop, &mut |_| {}).best_move, None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        if let Some(parameters) = self.options.level.and_then(level_parameters) {
            return self.search_at_level(game, limits, stop, on_info, parameters);
        }
        let multipv = self.options.multipv.clamp(1, crate::MAX_MULTIPV);
        self.search_lines(game, limits, stop, on_info, multipv)
    }

    /// Sets the strength level ([`Options::level`]; `None` is the full
    /// engine); fails, changing nothing, outside 1 to
    /// [`MAX_LEVEL`](crate::MAX_LEVEL).
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_search::{Engine, Options, SearchError};
    ///
    /// let mut engine = Engine::new(Options::default())?;
    /// engine.set_level(Some(3))?;
    /// assert_eq!(engine.set_level(Some(0)), Err(SearchError::Level(0)));
    /// assert_eq!(engine.options().level, Some(3));
    /// # Ok::<(), SearchError>(())
    /// ```
    pub fn set_level(&mut self, level: Option<u8>) -> Result<(), SearchError> {
        if let Some(level) = level {
            check_level(level)?;
        }
        self.options.level = level;
        Ok(())
    }

    /// Sets the seed of a level's choice ([`Options::level_seed`]).
    ///
    /// ```
    /// use surakarta_search::{Engine, Options};
    ///
    /// let mut engine = Engine::new(Options { hash_mb: 1, ..Options::default() })?;
    /// engine.set_level_seed(7);
    /// assert_eq!(engine.options().level_seed, 7);
    /// # Ok::<(), surakarta_search::SearchError>(())
    /// ```
    pub fn set_level_seed(&mut self, seed: u64) {
        self.options.level_seed = seed;
    }

    /// A search at a level below the top: the level's depth (or the
    /// limits' if shallower), its lines of MultiPV (or more if asked), with
    /// [`SearchParameters::UNTUNED`], then [`choose_line`] among them with
    /// the level's margin.
    fn search_at_level(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
        parameters: LevelParameters,
    ) -> SearchResult {
        let depth = limits
            .depth
            .map_or(parameters.depth, |d| d.min(parameters.depth));
        let limits = Limits {
            depth: Some(depth),
            ..*limits
        };
        let multipv = parameters
            .lines
            .max(self.options.multipv)
            .clamp(1, crate::MAX_MULTIPV);
        let full = std::mem::replace(&mut self.options.parameters, SearchParameters::UNTUNED);
        let mut result = self.search_lines(game, &limits, stop, on_info, multipv);
        self.options.parameters = full;
        if let Some(chosen) = choose_line(
            result.lines(),
            parameters.margin,
            self.options.level_seed,
            game.position().zobrist(),
        ) {
            result.best_move = Some(chosen);
        }
        result
    }

    /// The search itself, with `multipv` lines.
    fn search_lines(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
        multipv: usize,
    ) -> SearchResult {
        self.tt.new_search();
        let shared = self.shared(game.rules(), limits, stop);
        if game.outcome().is_some() {
            return finish(&shared, None, report(&shared, Vec::new()));
        }
        let (moves, table_lines) = match root_tablebase(&shared, game, multipv) {
            RootTablebase::Decided(lines) => {
                let best_move = lines[0].pv[0];
                let report = report(&shared, lines);
                on_info(&report);
                return finish(&shared, Some(best_move), report);
            }
            RootTablebase::Drawn(moves, others) => (Some(*moves), others),
            RootTablebase::Unknown => (None, Vec::new()),
        };
        let root = Root::new(game, moves, multipv, table_lines);
        let best = self.threads.with_helpers(
            &shared.abort,
            limits.max_depth(),
            || helper(&shared, &root),
            || {
                iterative_deepening(
                    &shared,
                    &self.threads,
                    &root,
                    limits,
                    self.options.time_management,
                    on_info,
                )
            },
        );
        final_answer(&shared, best, root.fallback)
    }

    /// Step 1: the state every thread of a search shares: the table, the
    /// history, the tablebases, the evaluation, the rules, the limits, and
    /// fresh counters and abort flag.
    fn shared<'a>(&'a self, rules: Rules, limits: &Limits, stop: &'a AtomicBool) -> Shared<'a> {
        let start = Instant::now();
        let (_, hard_limit) = limits.budget_over(self.options.time_management.expected_moves());
        let tablebase = self.tablebase.as_deref();
        Shared {
            tt: &self.tt,
            history: &self.history,
            tablebase,
            tb_pieces: self.tb_coverage.pieces,
            tb_longest_below: self.tb_coverage.longest_below,
            evaluation: &self.options.evaluation,
            techniques: self.options.techniques,
            parameters: self.options.parameters,
            rules,
            parallel: self.threads.splits(),
            user_stop: stop,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            tb_hits: AtomicU64::new(0),
            tb_errors: AtomicU64::new(0),
            first_tb_error: OnceLock::new(),
            seldepth: AtomicUsize::new(0),
            start,
            hard_limit,
            node_limit: limits.nodes,
        }
    }
}

/// A report of the search so far: `lines` (the first one's `depth`,
/// `score` and `pv`; depth 0, a draw and no line without lines) with the
/// shared counters (nodes, speed, selective depth, table use, tablebase
/// hits).
///
/// A searched score (a line's `depth` above 0) in the tablebase band counts
/// plies to a conversion through the tables' values; once a probe of the
/// search has failed, part of the tree was searched without the tables and
/// that count may be wrong (a faster conversion through the damaged table
/// is missed), so the score is reported as the evaluation's bound
/// (`±EVAL_LIMIT`: winning, no exact distance) instead.
fn report(shared: &Shared<'_>, lines: Vec<Line>) -> Info {
    let failed_probes = shared.tb_errors.load(Ordering::Relaxed) > 0;
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|line| Line {
            score: if line.depth > 0 && failed_probes {
                without_table_distance(line.score)
            } else {
                line.score
            },
            ..line
        })
        .collect();
    let (depth, score, pv) = lines.first().map_or((0, Score::DRAW, Vec::new()), |l| {
        (l.depth, l.score, l.pv.clone())
    });
    let elapsed = shared.start.elapsed();
    let nodes = shared.nodes.load(Ordering::Relaxed);
    Info {
        depth,
        seldepth: shared.seldepth.load(Ordering::Relaxed) as u32,
        score,
        nodes,
        nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
        elapsed,
        pv,
        hashfull: shared.tt.hashfull(),
        tb_hits: shared.tb_hits.load(Ordering::Relaxed),
        partial: false,
        lines,
    }
}

/// `score` with a tablebase win or loss replaced by the evaluation's bound
/// of the same sign (`±EVAL_LIMIT`); other scores unchanged.
fn without_table_distance(score: Score) -> Score {
    match score.kind() {
        ScoreKind::TbWin(_) => Score(EVAL_LIMIT),
        ScoreKind::TbLoss(_) => Score(-EVAL_LIMIT),
        _ => score,
    }
}

/// The result of a search: the move, the report and the failed probes.
fn finish(shared: &Shared<'_>, best_move: Option<Move>, info: Info) -> SearchResult {
    SearchResult {
        best_move,
        info,
        tb_errors: shared.tb_errors.load(Ordering::Relaxed),
        first_tb_error: shared.first_tb_error.get().cloned(),
    }
}

/// What the tablebases say about the root.
enum RootTablebase {
    /// A win or loss that converts before the no-capture limit: play the
    /// first line's move (the fastest conversion, or the slowest loss)
    /// without searching. The lines (as many as MultiPV asks, at least
    /// one) are the root moves ranked by the tables ([`table_lines`]), the
    /// first with its conversion line.
    Decided(Vec<Line>),
    /// A draw: search only these moves, the ones that keep it (boxed: a
    /// move list is large); when MultiPV asks for more lines than there
    /// are such moves, the other moves ranked by the tables follow the
    /// searched lines (the lines given here).
    Drawn(Box<MoveList>, Vec<Line>),
    /// No tables, a root they do not cover, a failed probe (counted in
    /// `tb_errors`) or a result that does not hold under the rules: search
    /// every move.
    Unknown,
}

/// Step 2: the answer from the tablebases when they cover the root of
/// `game` and their value is the game's (judged against its rules and
/// history by [`Tablebase::probe_game`]; a hit is counted for a decided
/// root), with `multipv` lines.
fn root_tablebase(shared: &Shared<'_>, game: &Game, multipv: usize) -> RootTablebase {
    let Some(tb) = shared.tablebase else {
        return RootTablebase::Unknown;
    };
    let root = game.position();
    if root.occupied().len() > shared.tb_pieces {
        return RootTablebase::Unknown;
    }
    let judged = tb
        .probe_game(game)
        .and_then(|root_value| Ok((root_value, tb.move_values_in_game(game)?)));
    let (root_value, values) = match judged {
        Ok(judged) => judged,
        Err(e) => {
            shared.tb_error(&e);
            return RootTablebase::Unknown;
        }
    };
    let best = values.iter().copied().reduce(|a, b| {
        if b.1.table.is_better_than(a.1.table) {
            b
        } else {
            a
        }
    });
    let Some((m, GameValue { table: value, .. })) = best else {
        return RootTablebase::Unknown;
    };
    let decided = match root_value.exact() {
        Some(Value::Win(d)) => Some(Score::tb_win_at(d)),
        Some(Value::Loss(d)) => Some(Score::tb_loss_at(d)),
        _ => None,
    };
    if let Some(score) = decided {
        // A failed line lookup is counted like any failed probe: the move
        // and score stand, the line is cut to the move.
        let line = tb.line(root).unwrap_or_else(|e| {
            shared.tb_error(&e);
            vec![m]
        });
        let line = if line.first() == Some(&m) {
            line
        } else {
            vec![m]
        };
        shared.tb_hits.fetch_add(1, Ordering::Relaxed);
        let mut lines = vec![Line {
            depth: 0,
            score,
            pv: line,
        }];
        lines.extend(table_lines(
            shared,
            tb,
            root,
            &values,
            multipv - 1,
            |o, _| o != m,
        ));
        return RootTablebase::Decided(lines);
    }
    // A drawn root is the game's value only under the pure rules: the
    // drawing moves are then the ones that keep it.
    if root_value.exact() == Some(Value::Draw) && value == Value::Draw {
        let keep: MoveList = values
            .iter()
            .filter(|(_, v)| v.table == Value::Draw)
            .map(|&(m, _)| m)
            .collect();
        let others = multipv.saturating_sub(keep.len());
        let others = table_lines(shared, tb, root, &values, others, |_, v| v != Value::Draw);
        return RootTablebase::Drawn(Box::new(keep), others);
    }
    RootTablebase::Unknown
}

/// The first `count` root moves among `values` (each move's table value)
/// that `keep` accepts, ranked by their values (the fastest win first,
/// then draws, then the slowest loss; moves of equal value in generation
/// order), each as a line of depth 0: the move and, for a move that does
/// not convert at once, the tables' conversion line after it. A move
/// whose value is the game's (it converts before the no-capture limit, no
/// repetition can cut it) is scored exactly (as a search scores it); a win
/// or loss that is not, as the evaluation's bound (`±EVAL_LIMIT`: winning
/// or losing, no exact distance); a draw as 0. A failed line lookup is
/// counted like any failed probe and cuts the line to its move.
fn table_lines(
    shared: &Shared<'_>,
    tb: &Tablebase,
    root: &Position,
    values: &[(Move, GameValue)],
    count: usize,
    keep: impl Fn(Move, Value) -> bool,
) -> Vec<Line> {
    if count == 0 {
        return Vec::new();
    }
    let mut ranked: Vec<(Move, GameValue)> = values
        .iter()
        .copied()
        .filter(|&(m, v)| keep(m, v.table))
        .collect();
    // Stable: moves of equal value stay in generation order.
    ranked.sort_by(|a, b| {
        if b.1.table.is_better_than(a.1.table) {
            std::cmp::Ordering::Greater
        } else if a.1.table.is_better_than(b.1.table) {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Equal
        }
    });
    ranked
        .into_iter()
        .take(count)
        .map(|(m, judged)| {
            let value = judged.table;
            let score = match (judged.exact(), value) {
                (Some(Value::Win(d)), _) => Score::tb_win_at(d),
                (Some(Value::Loss(d)), _) => Score::tb_loss_at(d),
                (_, Value::Win(_)) => Score(EVAL_LIMIT),
                (_, Value::Loss(_)) => Score(-EVAL_LIMIT),
                (_, Value::Draw) => Score::DRAW,
            };
            let mut pv = vec![m];
            if !m.is_capture() && value != Value::Draw {
                match tb.line(&root.after(m)) {
                    Ok(rest) => pv.extend(rest),
                    Err(e) => shared.tb_error(&e),
                }
            }
            Line {
                depth: 0,
                score,
                pv,
            }
        })
        .collect()
}

/// The root of a search to be run: what every thread's iterations start
/// from.
struct Root {
    /// The position searched.
    position: Position,
    /// The moves searched at the root (the tablebase's drawing moves), or
    /// `None` for every legal move.
    moves: Option<MoveList>,
    /// How many lines to search (MultiPV, at most the moves searched).
    lines: usize,
    /// The lines after the searched ones, from the tables (the losing
    /// moves of a drawn root when MultiPV asks for more lines than there
    /// are drawing moves).
    table_lines: Vec<Line>,
    /// Hashes of the game's positions since the last capture, the root
    /// last: the history repetitions are counted in.
    history: Vec<u64>,
    /// The move played if no iteration finishes: the first root move.
    fallback: Move,
}

impl Root {
    /// Step 3: the root of `game`, a game that is not over, searching
    /// `moves` (or every legal move) for `multipv` lines, followed by
    /// `table_lines`.
    fn new(game: &Game, moves: Option<MoveList>, multipv: usize, table_lines: Vec<Line>) -> Root {
        let position = *game.position();
        let legal = position.legal_moves();
        let searched = moves.as_ref().unwrap_or(&legal);
        let fallback = searched[0];
        let lines = multipv.min(searched.len()).max(1);
        let window = position.halfmoves() as usize;
        let positions = game.positions();
        let from = positions.len().saturating_sub(window + 1);
        let history = positions[from..].iter().map(|p| p.zobrist()).collect();
        Root {
            position,
            moves,
            lines,
            table_lines,
            history,
            fallback,
        }
    }

    /// A worker to search this root.
    fn worker<'a>(&self, shared: &'a Shared<'a>) -> Worker<'a> {
        let mut worker = Worker::new(shared, self.history.clone(), &self.position);
        worker.root_moves = self.moves.clone();
        worker
    }
}

/// Step 4: a Lazy SMP helper's iteration, run by its own thread (see
/// [`Threads::with_helpers`]): a full-window search of the root to the
/// depth given, whose result stays in the shared table and history.
fn helper<'a>(shared: &'a Shared<'a>, root: &'a Root) -> impl FnMut(i32) + 'a {
    let mut worker = root.worker(shared);
    move |depth| {
        let mut pv = Pv::new();
        worker.negamax(&root.position, depth, -INFINITY, INFINITY, 0, &mut pv, None);
        worker.flush_nodes();
    }
}

/// Step 5: the main thread's iterative deepening from depth 1, each
/// iteration reported to `on_info`: [`search_lines`] finds the root's
/// lines, followed by the root's table lines. Stops at the deepest
/// iteration of `limits`, after an iteration that proves a win or loss
/// within its depth on every searched line, when no iteration may start
/// any more (soft time limit, node limit), or when an iteration is aborted
/// (reported if a root move of its first line finished, see
/// [`aspiration_search`]). Returns the last report, if any.
fn iterative_deepening(
    shared: &Shared<'_>,
    threads: &Threads,
    root: &Root,
    limits: &Limits,
    time_management: TimeManagement,
    on_info: &mut dyn FnMut(&Info),
) -> Option<Info> {
    let (soft_limit, hard_limit) = limits.budget_over(time_management.expected_moves());
    let mut adaptive = match (time_management, limits.clock, soft_limit, hard_limit) {
        (TimeManagement::Adaptive, Some(_), Some(soft), Some(hard)) => {
            Some(AdaptiveTime::new(soft, hard))
        }
        _ => None,
    };
    let mut worker = root.worker(shared);
    let mut best: Option<Info> = None;
    for depth in 1..=limits.max_depth() as i32 {
        let previous = best.as_ref().map_or(&[][..], |i| &i.lines[..]);
        worker.clear_root_nodes();
        let Some(found) = search_lines(shared, threads, &mut worker, root, depth, previous) else {
            break;
        };
        let proven = found.complete
            && found
                .lines
                .iter()
                .all(|line| proven_within(line.score, depth));
        let mut lines = found.lines;
        lines.extend(root.table_lines.iter().cloned());
        let report = Info {
            partial: found.partial,
            ..report(shared, lines)
        };
        on_info(&report);
        let soft_limit = match &mut adaptive {
            Some(a) => {
                let first = report.lines.first().and_then(|l| l.pv.first().copied());
                let share = first.and_then(|m| worker.root_node_share(m));
                Some(a.after_iteration(first, share, shared.start.elapsed()))
            }
            None => soft_limit,
        };
        best = Some(report);
        if !found.complete || proven || no_new_iteration(shared, soft_limit, limits.nodes) {
            break;
        }
    }
    best
}

/// [`TimeManagement::Adaptive`]'s state through one search: the best
/// move's stability, its share of the iteration's nodes and the
/// iterations' durations.
struct AdaptiveTime {
    /// The soft limit of [`Limits::budget`].
    soft: Duration,
    /// The hard limit, where the search is aborted.
    hard: Duration,
    /// The last iteration's best move and how many iterations in a row
    /// before it had the same.
    best: Option<(Move, u32)>,
    /// When the last two iterations ended.
    ended: [Duration; 2],
}

impl AdaptiveTime {
    fn new(soft: Duration, hard: Duration) -> AdaptiveTime {
        AdaptiveTime {
            soft,
            hard,
            best: None,
            ended: [Duration::ZERO; 2],
        }
    }

    /// After an iteration that ended at `elapsed` with first move `best`,
    /// which took `share` of the root's nodes (if known): the soft limit
    /// for starting the next one. Scaled by the best move's stability and
    /// by its share (a move that took nearly all the nodes had no rival
    /// worth searching; one that took few had); zero (start nothing more)
    /// when the next iteration, as long as the last one times the growth
    /// between the last two, would end past the hard limit.
    fn after_iteration(
        &mut self,
        best: Option<Move>,
        share: Option<f64>,
        elapsed: Duration,
    ) -> Duration {
        let stable = match (self.best, best) {
            (Some((m, n)), Some(b)) if m == b => n + 1,
            _ => 0,
        };
        self.best = best.map(|m| (m, stable));
        let [before, last] = self.ended;
        self.ended = [last, elapsed];
        let stability = TIME_STABILITY_SCALE[(stable as usize).min(TIME_STABILITY_SCALE.len() - 1)];
        let nodes = share.map_or(1.0, |s| {
            (TIME_NODE_SHARE_BASE - s.clamp(0.0, 1.0)) * TIME_NODE_SHARE_FACTOR
        });
        let soft = self.soft.mul_f64(stability * nodes).min(self.hard);
        let this = elapsed.saturating_sub(last);
        let previous = last.saturating_sub(before);
        if !previous.is_zero() && !this.is_zero() {
            let growth = (this.as_secs_f64() / previous.as_secs_f64())
                .clamp(TIME_GROWTH_MIN, TIME_GROWTH_MAX);
            if elapsed + this.mul_f64(growth) > self.hard {
                return Duration::ZERO;
            }
        }
        soft
    }
}

/// The searched lines of one iteration.
struct Lines {
    /// Best first; lines this iteration did not reach are the previous
    /// iteration's.
    lines: Vec<Line>,
    /// Whether the first line is a stopped search's ([`Info::partial`]).
    partial: bool,
    /// Whether every line was searched to the iteration's depth.
    complete: bool,
}

/// The root's lines at `depth` (MultiPV): line 1 is an
/// [`aspiration_search`] of every root move, each further line one of the
/// root moves that no earlier line starts with, around the score of the
/// `previous` iteration's line of the same rank. The lines found are
/// sorted best first (a later line may score above an earlier one when the
/// search is unstable). If the search is aborted, the lines that finished
/// are followed by the `previous` iteration's lines of other moves (a
/// stopped later line is dropped; a stopped first line is kept if one of
/// its moves finished, see [`aspiration_search`]). `None` if the first
/// line found nothing: the previous iteration's answer stands.
fn search_lines(
    shared: &Shared<'_>,
    threads: &Threads,
    worker: &mut Worker<'_>,
    root: &Root,
    depth: i32,
    previous: &[Line],
) -> Option<Lines> {
    // The previous iteration's searched lines (its table lines have depth 0).
    let previous: Vec<&Line> = previous.iter().filter(|l| l.depth > 0).collect();
    let all_moves = (root.lines > 1).then(|| {
        root.moves
            .clone()
            .unwrap_or_else(|| root.position.legal_moves())
    });
    let mut lines: Vec<Line> = Vec::with_capacity(root.lines);
    let mut partial = false;
    let mut complete = true;
    for rank in 0..root.lines {
        if let Some(all) = &all_moves {
            if rank > 0 {
                let rest: MoveList = all
                    .iter()
                    .copied()
                    .filter(|m| !lines.iter().any(|l| l.pv.first() == Some(m)))
                    .collect();
                if rest.is_empty() {
                    break;
                }
                worker.root_moves = Some(rest);
                worker.excluding = true;
            }
        }
        let score = previous.get(rank).map(|l| l.score.0);
        let found = aspiration_search(shared, threads, worker, root, depth, score);
        let Some(Iteration {
            score,
            pv,
            partial: cut,
        }) = found
        else {
            complete = false;
            break;
        };
        if cut && rank > 0 {
            complete = false;
            break;
        }
        let mut line = pv.moves();
        if line.is_empty() {
            let first = match &worker.root_moves {
                Some(moves) if rank > 0 => moves[0],
                _ => previous
                    .first()
                    .and_then(|l| l.pv.first().copied())
                    .unwrap_or(root.fallback),
            };
            line.push(first);
        }
        lines.push(Line {
            depth: depth as u32,
            score: Score(score),
            pv: line,
        });
        if cut {
            partial = true;
            complete = false;
            break;
        }
    }
    worker.root_moves.clone_from(&root.moves);
    worker.excluding = false;
    if lines.is_empty() {
        return None;
    }
    // Stable: equal scores keep the order they were found in.
    lines.sort_by_key(|line| std::cmp::Reverse(line.score));
    if !complete {
        for line in previous {
            if lines.len() >= root.lines {
                break;
            }
            if !lines.iter().any(|l| l.pv.first() == line.pv.first()) {
                lines.push(line.clone());
            }
        }
    }
    Some(Lines {
        lines,
        partial,
        complete,
    })
}

/// The aspiration window of iteration `depth` after a `previous` score:
/// `(alpha, beta, delta)`, centred on the previous score with half-width
/// `delta` (`18 + |score|/7` by default, tuned from FuChou's `20 +
/// |score|/8`: wider when the score is larger, never empty) from the
/// parameters' `aspiration-min-depth` on,
/// else (or after a decisive score, or with aspiration off) the full window
/// with `delta` = [`INFINITY`].
fn aspiration_window(
    techniques: Techniques,
    parameters: &SearchParameters,
    depth: i32,
    previous: Option<i32>,
) -> (i32, i32, i32) {
    let delta = match previous {
        Some(p)
            if techniques.aspiration
                && depth >= parameters.aspiration_min_depth()
                && !Score(p).is_decisive() =>
        {
            parameters.aspiration_base() + p.abs() / parameters.aspiration_score_divisor()
        }
        _ => INFINITY,
    };
    let centre = previous.unwrap_or(0);
    if delta >= INFINITY {
        (-INFINITY, INFINITY, delta)
    } else {
        (
            (centre - delta).max(-INFINITY),
            (centre + delta).min(INFINITY),
            delta,
        )
    }
}

/// What one iteration of the main thread found.
struct Iteration {
    /// The score of `pv` (a lower bound of the root's if `partial`).
    score: i32,
    /// The principal variation.
    pv: Pv,
    /// Whether the iteration was stopped before every root move was
    /// searched.
    partial: bool,
}

/// One iteration of the main thread: the root to `depth` in the
/// [`aspiration_window`], widening the failed side (`aspiration-growth`
/// times the half-width) and searching again until the score falls inside.
/// The search runs on the thread pool when nodes split.
///
/// If the search is aborted, the iteration is partial: its line is that
/// of the best root move that finished and beat alpha in the last window,
/// else of the move that failed high in an earlier window of this
/// iteration (a move better than the previous iteration's score). `None`
/// if no such move finished: the previous iteration's answer stands.
fn aspiration_search(
    shared: &Shared<'_>,
    threads: &Threads,
    worker: &mut Worker<'_>,
    root: &Root,
    depth: i32,
    previous: Option<i32>,
) -> Option<Iteration> {
    let (mut alpha, mut beta, mut delta) =
        aspiration_window(shared.techniques, &shared.parameters, depth, previous);
    let mut pv = Pv::new();
    let mut failed_high: Option<(i32, Pv)> = None;
    loop {
        let score = threads
            .install(|| worker.negamax(&root.position, depth, alpha, beta, 0, &mut pv, None));
        worker.flush_nodes();
        if shared.abort.load(Ordering::Relaxed) {
            let finished = if !pv.is_empty() {
                Some((score, pv))
            } else {
                failed_high
            };
            return finished.map(|(score, pv)| Iteration {
                score,
                pv,
                partial: true,
            });
        }
        delta = delta.saturating_mul(shared.parameters.aspiration_growth());
        if score <= alpha && alpha > -INFINITY {
            alpha = (score - delta).max(-INFINITY);
        } else if score >= beta && beta < INFINITY {
            failed_high = Some((score, pv));
            beta = (score + delta).min(INFINITY);
        } else {
            return Some(Iteration {
                score,
                pv,
                partial: false,
            });
        }
    }
}

/// Whether an iteration to `depth` has proven a win or loss within its
/// depth: a deeper search cannot change it.
fn proven_within(score: Score, depth: i32) -> bool {
    score.is_decisive()
        && matches!(score.kind(), ScoreKind::Win(n) | ScoreKind::Loss(n) if n <= depth as u32)
}

/// Whether no new iteration may start: the soft time limit has passed or
/// the node limit is spent.
fn no_new_iteration(shared: &Shared<'_>, soft_limit: Option<Duration>, nodes: Option<u64>) -> bool {
    soft_limit.is_some_and(|s| shared.start.elapsed() >= s)
        || nodes.is_some_and(|n| shared.nodes.load(Ordering::Relaxed) >= n)
}

/// Step 6: the answer: the last reported iteration's first move (or the
/// fallback if none was reported or its line is empty), with the final
/// node count and time.
fn final_answer(shared: &Shared<'_>, best: Option<Info>, fallback: Move) -> SearchResult {
    let report = best.unwrap_or_else(|| {
        let line = Line {
            depth: 0,
            score: Score::DRAW,
            pv: vec![fallback],
        };
        report(shared, vec![line])
    });
    let best_move = report.pv.first().copied().or(Some(fallback));
    let report = Info {
        nodes: shared.nodes.load(Ordering::Relaxed),
        elapsed: shared.start.elapsed(),
        ..report
    };
    finish(shared, best_move, report)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    /// The soft limit grows after a change of the best move and shrinks
    /// while it stays; nothing starts that would end past the hard limit.
    #[test]
    fn adaptive_time_follows_the_best_move_and_the_iterations_growth() {
        let moves = Position::new().legal_moves();
        let (a, b) = (moves[0], moves[1]);
        let mut time = AdaptiveTime::new(100 * MS, 400 * MS);
        // The first iteration: nothing to compare, a new best move.
        assert_eq!(time.after_iteration(Some(a), None, MS), 150 * MS);
        let mut elapsed = MS;
        let mut limits = Vec::new();
        for _ in 0..6 {
            elapsed += MS;
            limits.push(time.after_iteration(Some(a), None, elapsed));
        }
        assert_eq!(limits[0], 120 * MS);
        assert_eq!(limits[1], 100 * MS);
        assert_eq!(*limits.last().unwrap(), 70 * MS);
        assert!(limits.windows(2).all(|w| w[0] >= w[1]), "{limits:?}");
        // Another best move: back to 1.5 times.
        elapsed += MS;
        assert_eq!(time.after_iteration(Some(b), None, elapsed), 150 * MS);
        // An iteration of 100 ms after one of 1 ms (growth taken as 6) at
        // 108 ms: the next would end near 700 ms, past 400 ms.
        assert_eq!(
            time.after_iteration(Some(b), None, elapsed + 100 * MS),
            Duration::ZERO
        );
        // Growth from 100 ms to 110 ms (taken as 1.5) at 320 ms: 485 ms, past.
        let mut time = AdaptiveTime::new(100 * MS, 400 * MS);
        time.after_iteration(Some(a), None, 100 * MS);
        time.after_iteration(Some(a), None, 210 * MS);
        assert_eq!(
            time.after_iteration(Some(a), None, 320 * MS),
            Duration::ZERO
        );
        // … but at 150 ms after 50 ms and 50 ms more: 225 ms, in time.
        let mut time = AdaptiveTime::new(100 * MS, 400 * MS);
        time.after_iteration(Some(a), None, 50 * MS);
        time.after_iteration(Some(a), None, 100 * MS);
        assert!(time.after_iteration(Some(a), None, 150 * MS) > Duration::ZERO);
    }

    /// The best move's share of the nodes scales the soft limit: down when
    /// it took nearly all, up when it took few, monotonically.
    #[test]
    fn adaptive_time_weighs_the_best_moves_share_of_the_nodes() {
        let a = Position::new().legal_moves()[0];
        let limit = |share| {
            let mut time = AdaptiveTime::new(100 * MS, 1_000 * MS);
            // A stable move (scale 1.0 on its third iteration).
            time.after_iteration(Some(a), None, MS);
            time.after_iteration(Some(a), None, 2 * MS);
            time.after_iteration(Some(a), share, 3 * MS)
        };
        assert_eq!(limit(None), 100 * MS);
        let limits: Vec<Duration> = [0.0, 0.3, 0.5, 0.8, 1.0].map(|s| limit(Some(s))).to_vec();
        assert!(limits.windows(2).all(|w| w[0] > w[1]), "{limits:?}");
        assert!(limits[0] > 150 * MS && limits[4] < 70 * MS, "{limits:?}");
    }

    /// On a clock, both time managements answer a legal move within the
    /// clock; without a clock the option changes nothing (same nodes).
    #[test]
    fn adaptive_time_management_plays_on_a_clock_and_changes_nothing_else() {
        let game = Game::default();
        let stop = AtomicBool::new(false);
        let mut nodes = Vec::new();
        for time_management in [TimeManagement::Plain, TimeManagement::Adaptive] {
            let mut engine = Engine::new(Options {
                time_management,
                ..Options::default()
            })
            .unwrap();
            let clock = Limits {
                clock: Some(crate::Clock {
                    time: 300 * MS,
                    increment: 10 * MS,
                    moves_to_go: None,
                }),
                ..Limits::default()
            };
            let result = engine.search(&game, &clock, &stop, &mut |_| {});
            assert!(game.position().is_legal(result.best_move.unwrap()));
            engine.new_game();
            let fixed = engine.search(&game, &Limits::depth(5), &stop, &mut |_| {});
            nodes.push(fixed.info.nodes);
        }
        assert_eq!(nodes[0], nodes[1]);
    }
}
