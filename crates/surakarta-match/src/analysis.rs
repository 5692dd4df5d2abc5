//! Game analysis: every move of a game judged, as lichess marks chess games.
//!
//! [`analyse_game`] evaluates each position of a game for its side to move:
//! with the tables when they hold it and their value is the game's (the
//! exact value; [`Tablebase::probe_game`] judges it against the game's rule
//! set and history), else with a search at fixed limits (its score and best
//! move). A move's **loss** is the drop
//! in the mover's win chance from the position before it to the position
//! after it, never below 0:
//!
//! - the **win chance** of a search score `s` (one piece = 100) is
//!   `1 / (1 + exp(-0.00368208 · s))` ([`win_chance`], lichess's constant:
//!   a piece ahead is about 0.59, three pieces 0.75); a won game is 1, a
//!   lost one 0; an exact table value is 1 (win), 0.5 (draw) or 0 (loss);
//! - the **mark** ([`mark_for_loss`]): a loss of at least 0.15 is a blunder
//!   `??`, of at least 0.10 a mistake `?`, of at least 0.05 an inaccuracy
//!   `?!` (lichess's 0.3, 0.2, 0.1 on its −1..1 scale, halved for 0..1).
//!
//! Where the tables hold the position before the move, the mark comes from
//! the exact values alone: a move that turns a win into a draw or a loss, or
//! a draw into a loss, is a blunder `??`, and any other move is not marked;
//! the best move given is the tables' (fastest win, else a draw, else
//! slowest loss).
//!
//! The [`Summary`] of a side counts its marks and averages its losses (the
//! mean loss, 0..1, over its moves; lower is better, like chess's average
//! centipawn loss).
//!
//! # Examples
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use surakarta::GameRecord;
//! use surakarta_match::analysis::analyse_game;
//! use surakarta_search::{Engine, Limits, Options};
//!
//! let record: GameRecord = "1. b2-b3 e5-e4 2. b3-b4 *".parse()?;
//! let mut engine = Engine::new(Options::default())?;
//! let report = analyse_game(&record, &mut engine, &Limits::depth(2), None, &AtomicBool::new(false), &mut |_, _| {})?;
//! assert_eq!(report.plies.len(), 3);
//! assert_eq!(report.plies[0].played.to_string(), "b2-b3");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::atomic::AtomicBool;

use surakarta::{Color, Game, GameError, GameRecord, Mark, Move};
use surakarta_search::{Engine, Limits, Score, ScoreKind};
use surakarta_tablebase::{GameValue, Tablebase, TablebaseError, Value, Wdl};

/// The logistic scale of [`win_chance`], per unit of score (one piece is
/// 100 units).
pub const WIN_CHANCE_SCALE: f64 = 0.003_682_08;

/// The least loss of win chance marked an inaccuracy `?!`.
pub const INACCURACY: f64 = 0.05;
/// The least loss of win chance marked a mistake `?`.
pub const MISTAKE: f64 = 0.10;
/// The least loss of win chance marked a blunder `??`.
pub const BLUNDER: f64 = 0.15;

/// The win chance, 0 to 1, of a search score for its side: decisive scores
/// (a win or loss found, or the tables') are 1 or 0, an evaluation `s` is
/// `1 / (1 + exp(-WIN_CHANCE_SCALE · s))`.
///
/// # Examples
///
/// ```
/// use surakarta_match::analysis::win_chance;
/// use surakarta_search::Score;
///
/// assert_eq!(win_chance(Score(0)), 0.5);
/// assert!((win_chance(Score(100)) - 0.591).abs() < 0.001);
/// assert_eq!(win_chance(Score::win_at(3)), 1.0);
/// ```
#[must_use]
pub fn win_chance(score: Score) -> f64 {
    match score.kind() {
        ScoreKind::Eval(s) => 1.0 / (1.0 + (-WIN_CHANCE_SCALE * f64::from(s)).exp()),
        ScoreKind::Win(_) | ScoreKind::TbWin(_) => 1.0,
        ScoreKind::Loss(_) | ScoreKind::TbLoss(_) => 0.0,
    }
}

/// The mark of a move that lost `loss` of the mover's win chance (0 to 1):
/// `??` from [`BLUNDER`], `?` from [`MISTAKE`], `?!` from [`INACCURACY`],
/// else none.
///
/// # Examples
///
/// ```
/// use surakarta::Mark;
/// use surakarta_match::analysis::mark_for_loss;
///
/// assert_eq!(mark_for_loss(0.04), None);
/// assert_eq!(mark_for_loss(0.05), Some(Mark::Dubious));
/// assert_eq!(mark_for_loss(0.12), Some(Mark::Mistake));
/// assert_eq!(mark_for_loss(0.9), Some(Mark::Blunder));
/// ```
#[must_use]
pub fn mark_for_loss(loss: f64) -> Option<Mark> {
    if loss >= BLUNDER {
        Some(Mark::Blunder)
    } else if loss >= MISTAKE {
        Some(Mark::Mistake)
    } else if loss >= INACCURACY {
        Some(Mark::Dubious)
    } else {
        None
    }
}

/// The mark of a move from exact values for the mover, before and after it:
/// `??` when it makes the value worse (win to draw or loss, draw to loss),
/// else none.
#[must_use]
pub fn mark_for_values(before: Wdl, after: Wdl) -> Option<Mark> {
    (after < before).then_some(Mark::Blunder)
}

/// An evaluation of a position for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// A search score.
    Search(Score),
    /// The tables' exact value.
    Table(Value),
    /// The game is over: won, lost or drawn (`Wdl`) for this side.
    Over(Wdl),
}

impl Eval {
    /// The win chance, 0 to 1 (see [`win_chance`]).
    #[must_use]
    pub fn win_chance(self) -> f64 {
        match self {
            Eval::Search(s) => win_chance(s),
            Eval::Table(v) => wdl_chance(v.wdl()),
            Eval::Over(w) => wdl_chance(w),
        }
    }

    /// The same evaluation for the other side, one ply earlier.
    #[must_use]
    pub fn flipped(self) -> Eval {
        match self {
            Eval::Search(s) => Eval::Search(Score(-s.0)),
            Eval::Table(v) => Eval::Table(v.back()),
            Eval::Over(w) => Eval::Over(w.flipped()),
        }
    }
}

impl core::fmt::Display for Eval {
    /// A search score in pieces with a sign (`+0.35`), `win N`/`loss N` for
    /// a found end, `tables: win in N`, `tables: draw`, `win`, `loss`,
    /// `draw` for a game that is over.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Eval::Search(s) => match s.kind() {
                ScoreKind::Eval(v) => write!(f, "{:+.2}", f64::from(v) / 100.0),
                ScoreKind::Win(n) => write!(f, "win in {n}"),
                ScoreKind::Loss(n) => write!(f, "loss in {n}"),
                ScoreKind::TbWin(n) => write!(f, "tables: win in {n}"),
                ScoreKind::TbLoss(n) => write!(f, "tables: loss in {n}"),
            },
            Eval::Table(Value::Win(n)) => write!(f, "tables: win in {n}"),
            Eval::Table(Value::Loss(n)) => write!(f, "tables: loss in {n}"),
            Eval::Table(Value::Draw) => f.write_str("tables: draw"),
            Eval::Over(w) => f.write_str(w.name()),
        }
    }
}

fn wdl_chance(w: Wdl) -> f64 {
    match w {
        Wdl::Win => 1.0,
        Wdl::Draw => 0.5,
        Wdl::Loss => 0.0,
    }
}

/// The judgement of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyAnalysis {
    /// Which move, counting from 1.
    pub ply: usize,
    /// The side that played it.
    pub mover: Color,
    /// The move played.
    pub played: Move,
    /// The position before the move, for the mover.
    pub before: Eval,
    /// The position after the move, for the mover.
    pub after: Eval,
    /// The best move found (the tables' where they hold the position).
    pub best: Option<Move>,
    /// The loss of the mover's win chance, 0 to 1.
    pub loss: f64,
    /// Whether the mark comes from the tables' exact values.
    pub exact: bool,
    /// The mark: `?!`, `?`, `??` or none.
    pub mark: Option<Mark>,
    /// What the tables say of the position before the move, where they
    /// hold it: their value, and why it is not the game's where the rules
    /// or the game's history cut it off (the position is then searched).
    pub tables: Option<GameValue>,
}

/// One side's totals.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Moves played.
    pub moves: usize,
    /// Inaccuracies `?!`.
    pub inaccuracies: usize,
    /// Mistakes `?`.
    pub mistakes: usize,
    /// Blunders `??`.
    pub blunders: usize,
    /// The mean loss of win chance over the side's moves, 0 to 1 (0 with no
    /// moves).
    pub average_loss: f64,
}

/// The analysis of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    /// Every move, in order.
    pub plies: Vec<PlyAnalysis>,
    /// Black's totals.
    pub black: Summary,
    /// White's totals.
    pub white: Summary,
}

/// Why a game could not be analysed.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// The record's moves do not replay.
    #[error("the record does not replay: {0}")]
    Record(#[from] GameError),
    /// A probe failed (a damaged table; a missing one means no coverage).
    #[error(transparent)]
    Tablebase(#[from] TablebaseError),
}

/// The tables' value of the game's position judged against its rules and
/// history, or `None` when the tables do not hold the position.
fn probe(tables: Option<&Tablebase>, game: &Game) -> Result<Option<GameValue>, TablebaseError> {
    let Some(tables) = tables else {
        return Ok(None);
    };
    match tables.probe_game(game) {
        Ok(v) => Ok(Some(v)),
        Err(TablebaseError::MissingTable { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Analyses the game of `record`: each position searched once with `engine`
/// at `limits` (or valued by `tables` where they hold it), each move judged
/// as the module describes. `on_ply(done, total)` is called after each
/// position; raising `stop` ends each further search at once (the results
/// are then shallow).
pub fn analyse_game(
    record: &GameRecord,
    engine: &mut Engine,
    limits: &Limits,
    tables: Option<&Tablebase>,
    stop: &AtomicBool,
    on_ply: &mut dyn FnMut(usize, usize),
) -> Result<GameAnalysis, AnalysisError> {
    record.to_game()?;
    let total = record.moves.len() + 1;
    // Each position's evaluation for its side to move, best move, and what
    // the tables said of it.
    let mut evals: Vec<(Eval, Option<Move>, Option<GameValue>)> = Vec::with_capacity(total);
    let mut game = Game::new(record.start, record.rules);
    engine.new_game();
    for i in 0..total {
        let position = *game.position();
        let entry = if let Some(o) = game.outcome() {
            let w = match o.winner {
                None => Wdl::Draw,
                Some(c) if c == position.turn() => Wdl::Win,
                Some(_) => Wdl::Loss,
            };
            (Eval::Over(w), None, None)
        } else {
            let tables_say = probe(tables, &game)?;
            match (tables, tables_say.and_then(|v| v.exact())) {
                (Some(t), Some(v)) => {
                    let best = t.best_move(&position)?.map(|(m, _)| m);
                    (Eval::Table(v), best, tables_say)
                }
                _ => {
                    let result = engine.search(&game, limits, stop, &mut |_| {});
                    (
                        Eval::Search(result.info.score),
                        result.best_move,
                        tables_say,
                    )
                }
            }
        };
        evals.push(entry);
        on_ply(i + 1, total);
        if let Some(&m) = record.moves.get(i) {
            game.play(m)?;
        }
    }

    let mut plies = Vec::with_capacity(record.moves.len());
    let mut position = record.start;
    for (i, &played) in record.moves.iter().enumerate() {
        let mover = position.turn();
        let (before, best, tables_say) = evals[i];
        let next = evals[i + 1].0.flipped();
        // After a move into a position the tables value for the game, the
        // move's own value (a capture's counts to the capture itself); exact
        // where the tables' values hold on both sides of the move.
        let after = match (next, tables) {
            (Eval::Table(_), Some(t)) => Eval::Table(t.move_value(&position, played)?),
            _ => next,
        };
        let exact =
            matches!(before, Eval::Table(_)) && matches!(after, Eval::Table(_) | Eval::Over(_));
        let loss = (before.win_chance() - after.win_chance()).max(0.0);
        let mark = match (exact, before, after) {
            (true, Eval::Table(b), Eval::Table(a)) => mark_for_values(b.wdl(), a.wdl()),
            (true, Eval::Table(b), Eval::Over(a)) => mark_for_values(b.wdl(), a),
            _ => mark_for_loss(loss),
        };
        plies.push(PlyAnalysis {
            ply: i + 1,
            mover,
            played,
            before,
            after,
            best,
            loss,
            exact,
            mark,
            tables: tables_say,
        });
        position = position.after(played);
    }
    let black = summary(&plies, Color::Black);
    let white = summary(&plies, Color::White);
    Ok(GameAnalysis {
        plies,
        black,
        white,
    })
}

/// The totals of `side`'s moves.
fn summary(plies: &[PlyAnalysis], side: Color) -> Summary {
    let mut s = Summary::default();
    let mut total = 0.0;
    for p in plies.iter().filter(|p| p.mover == side) {
        s.moves += 1;
        total += p.loss;
        match p.mark {
            Some(Mark::Dubious) => s.inaccuracies += 1,
            Some(Mark::Mistake) => s.mistakes += 1,
            Some(Mark::Blunder) => s.blunders += 1,
            _ => {}
        }
    }
    if s.moves > 0 {
        s.average_loss = total / s.moves as f64;
    }
    s
}

/// Writes the analysis into the record: each move's mark (the analysis's,
/// replacing the record's) and a comment with the evaluations and the best
/// move when it differs, e.g. `-0.35 → -2.10; best d5-d4` or
/// `tables: win in 7 → tables: draw; best a1-b1`.
pub fn annotate(record: &mut GameRecord, analysis: &GameAnalysis) {
    for p in &analysis.plies {
        let mut comment = format!("{} → {}", p.before, p.after);
        if let Some(best) = p.best.filter(|&b| b != p.played) {
            comment.push_str(&format!("; best {best}"));
        }
        if let Some(GameValue {
            table,
            cutoff: Some(cutoff),
        }) = p.tables
        {
            comment.push_str(&format!(
                "; {}, not the game's value: {cutoff}",
                Eval::Table(table)
            ));
        }
        let mut annotation = record.annotation(p.ply - 1);
        annotation.mark = p.mark;
        annotation.comment = Some(comment);
        record.set_annotation(p.ply - 1, annotation);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_from_losses() {
        for (loss, mark) in [
            (0.0, None),
            (0.049, None),
            (0.05, Some(Mark::Dubious)),
            (0.099, Some(Mark::Dubious)),
            (0.10, Some(Mark::Mistake)),
            (0.149, Some(Mark::Mistake)),
            (0.15, Some(Mark::Blunder)),
            (1.0, Some(Mark::Blunder)),
        ] {
            assert_eq!(mark_for_loss(loss), mark, "{loss}");
        }
    }

    #[test]
    fn marks_from_values() {
        use Wdl::{Draw, Loss, Win};
        for (before, after, mark) in [
            (Win, Win, None),
            (Win, Draw, Some(Mark::Blunder)),
            (Win, Loss, Some(Mark::Blunder)),
            (Draw, Win, None),
            (Draw, Draw, None),
            (Draw, Loss, Some(Mark::Blunder)),
            (Loss, Loss, None),
            (Loss, Draw, None),
        ] {
            assert_eq!(mark_for_values(before, after), mark, "{before} → {after}");
        }
    }

    #[test]
    fn win_chances_and_losses() {
        // One piece up is about 0.59, three pieces 0.75; symmetric.
        assert!((win_chance(Score(100)) - 0.5920).abs() < 0.001);
        assert!((win_chance(Score(300)) - 0.7512).abs() < 0.001);
        assert!((win_chance(Score(-250)) + win_chance(Score(250)) - 1.0).abs() < 1e-12);
        assert_eq!(win_chance(Score::loss_at(4)), 0.0);
        // +3 pieces to -1 piece: a loss of about 0.34, a blunder.
        let loss = Eval::Search(Score(300)).win_chance() - Eval::Search(Score(-100)).win_chance();
        assert_eq!(mark_for_loss(loss), Some(Mark::Blunder));
        // +0.5 to 0: about 0.045, not marked.
        let loss = Eval::Search(Score(50)).win_chance() - Eval::Search(Score(0)).win_chance();
        assert_eq!(mark_for_loss(loss), None);
        assert_eq!(
            Eval::Table(Value::Win(3)).flipped(),
            Eval::Table(Value::Loss(4))
        );
        assert_eq!(Eval::Search(Score(-35)).to_string(), "-0.35");
    }

    #[test]
    fn summaries() {
        let m = surakarta::Position::new().legal_moves()[0];
        let ply = |ply, mover, loss, mark| PlyAnalysis {
            ply,
            mover,
            played: m,
            before: Eval::Search(Score(0)),
            after: Eval::Search(Score(0)),
            best: None,
            loss,
            exact: false,
            mark,
            tables: None,
        };
        let plies = [
            ply(1, Color::Black, 0.4, Some(Mark::Blunder)),
            ply(2, Color::White, 0.0, None),
            ply(3, Color::Black, 0.2, Some(Mark::Mistake)),
        ];
        let black = summary(&plies, Color::Black);
        assert_eq!(
            (
                black.moves,
                black.blunders,
                black.mistakes,
                black.inaccuracies
            ),
            (2, 1, 1, 0)
        );
        assert!((black.average_loss - 0.3).abs() < 1e-12);
        assert_eq!(summary(&plies, Color::White).average_loss, 0.0);
    }
}
