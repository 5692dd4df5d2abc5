//! MultiPV: several best lines at once, each starting with its own root
//! move, ranked best first; with the tables, ranked by their exact values.

use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use proptest::prelude::*;
use surakarta::random::{random_playout, SplitMix};
use surakarta::{Color, Game, Move, Position, Rules};
use surakarta_index::Scheme;
use surakarta_search::{
    Engine, Info, Limits, Options, Score, SearchError, SearchResult, Smp, Techniques, MAX_MULTIPV,
};
use surakarta_tablebase::{NoProgress, Tablebase, Value};

fn engine(multipv: usize) -> Engine {
    Engine::new(Options {
        hash_mb: 8,
        multipv,
        ..Options::default()
    })
    .unwrap()
}

/// A search and every report it made.
fn search(
    engine: &mut Engine,
    position: Position,
    rules: Rules,
    limits: Limits,
) -> (SearchResult, Vec<Info>) {
    let game = Game::new(position, rules);
    let mut reports = Vec::new();
    let result = engine.search(&game, &limits, &AtomicBool::new(false), &mut |info| {
        reports.push(info.clone())
    });
    (result, reports)
}

fn first_moves(result: &SearchResult) -> Vec<Move> {
    result.lines().iter().map(|l| l.pv[0]).collect()
}

/// The lines of a report are well formed: distinct legal root moves, scores
/// best first, the first line the report's own.
fn assert_well_formed(position: &Position, info: &Info) {
    let firsts: Vec<Move> = info.lines.iter().map(|l| l.pv[0]).collect();
    let distinct: BTreeSet<String> = firsts.iter().map(|m| m.to_string()).collect();
    assert_eq!(distinct.len(), firsts.len(), "{position}: {firsts:?}");
    assert!(firsts.iter().all(|&m| position.is_legal(m)), "{position}");
    assert!(
        info.lines.windows(2).all(|w| w[0].score >= w[1].score),
        "{position}: {:?}",
        info.lines
    );
    let first = &info.lines[0];
    assert_eq!(
        (first.depth, first.score, &first.pv),
        (info.depth, info.score, &info.pv)
    );
}

fn random_opening(seed: u64, plies: usize) -> Position {
    let mut rng = SplitMix::new(seed);
    random_playout(&mut rng, Position::new(), plies)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// With as many lines as legal moves (or more), every legal move heads
    /// exactly one line, and the scores do not increase down the lines.
    #[test]
    fn every_legal_move_heads_one_line(seed in any::<u64>(), plies in 0usize..40, extra in 0usize..3) {
        let position = random_opening(seed, plies);
        prop_assume!(position.outcome().is_none());
        let legal: BTreeSet<String> = position.legal_moves().iter().map(|m| m.to_string()).collect();
        let mut engine = engine(legal.len() + extra);
        let (result, reports) = search(&mut engine, position, Rules::ICGA, Limits::depth(3));
        let lines: BTreeSet<String> = first_moves(&result).iter().map(|m| m.to_string()).collect();
        prop_assert_eq!(result.lines().len(), legal.len());
        prop_assert_eq!(lines, legal);
        prop_assert_eq!(reports.len(), 3);
        for info in &reports {
            assert_well_formed(&position, info);
            prop_assert!(info.lines.iter().all(|l| l.depth == info.depth));
        }
        prop_assert_eq!(result.best_move, Some(result.lines()[0].pv[0]));
    }
}

/// Without the transposition table, killers, history and reductions, line
/// 1 of each iteration is searched exactly as a one-line search searches
/// (the other lines share nothing with it that orders or prunes its
/// moves), so it is the same move, score and line at every depth. (With
/// them, the later lines' entries and history may reorder the next
/// iteration, as in any engine's MultiPV.)
#[test]
fn line_one_of_three_is_the_one_line_answer() {
    let techniques = Techniques {
        transposition: false,
        killers: false,
        history: false,
        reductions: false,
        ..Techniques::default()
    };
    let options = |multipv| Options {
        hash_mb: 1,
        techniques,
        multipv,
        ..Options::default()
    };
    for seed in 0..6 {
        let position = random_opening(seed, 6 + 4 * seed as usize);
        if position.outcome().is_some() {
            continue;
        }
        let mut one = Engine::new(options(1)).unwrap();
        let mut three = Engine::new(options(3)).unwrap();
        let (single, single_reports) = search(&mut one, position, Rules::ICGA, Limits::depth(4));
        let (multi, multi_reports) = search(&mut three, position, Rules::ICGA, Limits::depth(4));
        assert_eq!(single.best_move, multi.best_move, "{position}");
        for (s, m) in single_reports.iter().zip(&multi_reports) {
            assert_eq!(
                (s.depth, s.score, &s.pv),
                (m.depth, m.score, &m.pv),
                "{position}"
            );
            assert_well_formed(&position, m);
        }
        assert_eq!(single.lines().len(), 1);
        assert_eq!(multi.lines().len(), 3.min(position.legal_moves().len()));
    }
}

/// With the default techniques, one line is the search it always was:
/// its result has the one line of its report.
#[test]
fn one_line_is_the_answer() {
    let mut engine = engine(1);
    let (result, reports) = search(&mut engine, Position::new(), Rules::ICGA, Limits::depth(5));
    assert_eq!(result.lines().len(), 1);
    assert_eq!(result.lines()[0].pv, result.info.pv);
    assert!(reports.iter().all(|i| i.lines.len() == 1));
}

#[test]
fn the_number_of_lines_is_checked() {
    for bad in [0, MAX_MULTIPV + 1, usize::MAX] {
        let error = Engine::new(Options {
            multipv: bad,
            ..Options::default()
        })
        .err();
        assert_eq!(error, Some(SearchError::MultiPv(bad)));
        let mut engine = engine(2);
        assert_eq!(engine.set_multipv(bad), Err(SearchError::MultiPv(bad)));
        assert_eq!(engine.options().multipv, 2, "unchanged");
    }
    assert!(engine(MAX_MULTIPV).options().check().is_ok());
}

/// Both parallel schemes report well-formed lines: parallel siblings split
/// below the root of each line's search; Lazy SMP's helpers search every
/// root move, filling the shared table for all the lines.
#[test]
fn parallel_searches_report_the_lines() {
    for smp in [Smp::Siblings, Smp::Lazy] {
        let mut engine = Engine::new(Options {
            threads: 2,
            hash_mb: 8,
            smp,
            multipv: 4,
            ..Options::default()
        })
        .unwrap();
        for seed in 0..3 {
            let position = random_opening(100 + seed, 10);
            let (result, reports) = search(&mut engine, position, Rules::ICGA, Limits::depth(5));
            assert_eq!(result.lines().len(), 4.min(position.legal_moves().len()));
            assert_eq!(result.best_move, Some(result.lines()[0].pv[0]), "{smp:?}");
            for info in &reports {
                assert_well_formed(&position, info);
            }
        }
    }
}

/// A search stopped by its node limit still gives distinct lines, the
/// first the move played.
#[test]
fn a_stopped_search_keeps_its_lines() {
    for nodes in [300, 3_000, 30_000] {
        let mut engine = engine(5);
        let position = random_opening(7, 12);
        let (result, reports) = search(&mut engine, position, Rules::ICGA, Limits::nodes(nodes));
        let firsts = first_moves(&result);
        let distinct: BTreeSet<String> = firsts.iter().map(|m| m.to_string()).collect();
        assert_eq!(distinct.len(), firsts.len());
        assert!(!firsts.is_empty() && firsts.len() <= 5);
        assert_eq!(result.best_move, Some(firsts[0]));
        assert!(reports.iter().all(|i| !i.lines.is_empty()));
    }
}

fn tables() -> Arc<Tablebase> {
    static TABLES: OnceLock<Arc<Tablebase>> = OnceLock::new();
    TABLES
        .get_or_init(|| {
            Arc::new(
                Tablebase::generate(3, Scheme::Symmetric, &NoProgress)
                    .unwrap()
                    .0,
            )
        })
        .clone()
}

/// The score a line of an exact table value has under the pure rules.
fn exact(value: Value) -> Score {
    match value {
        Value::Win(d) => Score::tb_win_at(d),
        Value::Loss(d) => Score::tb_loss_at(d),
        Value::Draw => Score::DRAW,
    }
}

/// The root's moves by table value, best first, ties in generation order.
fn ranked(tb: &Tablebase, position: &Position) -> Vec<(Move, Value)> {
    let mut values = tb.move_values(position).unwrap();
    values.sort_by_key(|&(_, v)| std::cmp::Reverse(exact(v)));
    values
}

/// A root the tables decide: every line is a root move with its exact
/// value, wins by the fastest conversion first, then draws, then losses by
/// the slowest; the first is the one-line answer.
#[test]
fn tables_rank_the_lines_of_a_decided_root() {
    let tb = tables();
    let mut rng = SplitMix::new(5);
    let mut checked = 0;
    for _ in 0..200 {
        let position = surakarta::random::random_position(&mut rng, 2, 1, Color::Black).unwrap();
        if position.outcome().is_some() || tb.probe_position(&position).unwrap() == Value::Draw {
            continue;
        }
        let moves = position.legal_moves().len();
        let mut one = engine(1);
        one.set_tablebase(Some(tb.clone()));
        let mut all = engine(moves);
        all.set_tablebase(Some(tb.clone()));
        let (single, _) = search(&mut one, position, Rules::PURE, Limits::depth(4));
        let (multi, reports) = search(&mut all, position, Rules::PURE, Limits::depth(4));
        assert_eq!(reports.len(), 1, "answered from the tables");
        let expected = ranked(&tb, &position);
        let got: Vec<(Move, Score, u32)> = multi
            .lines()
            .iter()
            .map(|l| (l.pv[0], l.score, l.depth))
            .collect();
        let want: Vec<(Move, Score, u32)> =
            expected.iter().map(|&(m, v)| (m, exact(v), 0)).collect();
        assert_eq!(got, want, "{position}");
        assert_eq!(multi.lines()[0], single.lines()[0], "{position}");
        assert_eq!(multi.best_move, single.best_move);
        checked += 1;
    }
    assert!(checked > 20, "{checked}");
}

/// A drawn root: the drawing moves are searched (and score a draw under
/// the pure rules), then the losing moves follow, ranked by the tables.
#[test]
fn tables_put_the_losing_moves_of_a_drawn_root_after_the_draws() {
    let tb = tables();
    let mut rng = SplitMix::new(11);
    let mut checked = 0;
    for _ in 0..400 {
        let position = surakarta::random::random_position(&mut rng, 1, 2, Color::Black).unwrap();
        if position.outcome().is_some() || tb.probe_position(&position).unwrap() != Value::Draw {
            continue;
        }
        let expected = ranked(&tb, &position);
        let draws = expected.iter().filter(|(_, v)| *v == Value::Draw).count();
        if draws == expected.len() {
            continue;
        }
        let mut engine = engine(expected.len());
        engine.set_tablebase(Some(tb.clone()));
        let (result, reports) = search(&mut engine, position, Rules::PURE, Limits::depth(3));
        let lines = result.lines();
        assert_eq!(lines.len(), expected.len(), "{position}");
        let searched: BTreeSet<String> =
            lines[..draws].iter().map(|l| l.pv[0].to_string()).collect();
        let drawing: BTreeSet<String> = expected[..draws]
            .iter()
            .map(|(m, _)| m.to_string())
            .collect();
        assert_eq!(searched, drawing, "{position}");
        assert!(lines[..draws]
            .iter()
            .all(|l| l.score == Score::DRAW && l.depth > 0));
        let losing: Vec<(Move, Score, u32)> = lines[draws..]
            .iter()
            .map(|l| (l.pv[0], l.score, l.depth))
            .collect();
        let want: Vec<(Move, Score, u32)> = expected[draws..]
            .iter()
            .map(|&(m, v)| (m, exact(v), 0))
            .collect();
        assert_eq!(losing, want, "{position}");
        for info in &reports {
            assert_well_formed(&position, info);
        }
        checked += 1;
    }
    assert!(checked > 5, "{checked}");
}
