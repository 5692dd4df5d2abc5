//! End-to-end checks of the search against exact answers.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use surakarta::random::{random_playout, SplitMix};
use surakarta::{Bitboard, Color, Game, Position, Rules, Square};
use surakarta_index::Scheme;
use surakarta_search::{
    Engine, Limits, Options, Score, ScoreKind, SearchParameters, Smp, Techniques,
};
use surakarta_tablebase::{NoProgress, Tablebase, Value};

fn search(
    engine: &mut Engine,
    position: Position,
    rules: Rules,
    limits: Limits,
) -> surakarta_search::SearchResult {
    let game = Game::new(position, rules);
    engine.search(&game, &limits, &AtomicBool::new(false), &mut |_| {})
}

fn tables(pieces: u32) -> Arc<Tablebase> {
    static TABLES: OnceLock<Arc<Tablebase>> = OnceLock::new();
    assert!(pieces <= 4);
    TABLES
        .get_or_init(|| {
            Arc::new(
                Tablebase::generate(4, Scheme::Symmetric, &NoProgress)
                    .unwrap()
                    .0,
            )
        })
        .clone()
}

#[test]
fn takes_the_last_piece() {
    let mut engine = Engine::new(Options::default()).unwrap();
    let p: Position = "6/w5/6/6/6/1b4 b".parse().unwrap();
    let r = search(&mut engine, p, Rules::ICGA, Limits::depth(3));
    assert_eq!(r.best_move.unwrap().to_string(), "b1xa5");
    assert_eq!(r.info.score, Score::win_at(1));
}

/// A search without tables scores a tablebase win or loss with its exact
/// distance (conversion ends the game when one piece is left) and never
/// finds a win in a draw.
fn assert_exact_score(p: &Position, value: Value, score: Score) {
    match value {
        Value::Win(d) => assert_eq!(score, Score::win_at(d as usize), "{p}"),
        Value::Loss(d) => assert_eq!(score, Score::loss_at(d as usize), "{p}"),
        Value::Draw => assert!(!score.is_decisive(), "{p}: {score}"),
    }
}

/// Every 1-against-1 position: the search without tables finds exactly the
/// tablebase's win or loss distance (conversion = game end here) and never a
/// win in a draw.
#[test]
fn one_against_one_matches_the_tablebase_exactly() {
    let tb = tables(2);
    let mut engine = Engine::new(Options::default()).unwrap();
    let mut checked = 0;
    for a in Square::ALL {
        for b in Square::ALL {
            if a >= b {
                continue;
            }
            let p = Position::from_sides(
                Bitboard::from_square(a),
                Bitboard::from_square(b),
                Color::Black,
            )
            .unwrap();
            let value = tb.probe_position(&p).unwrap();
            let r = search(&mut engine, p, Rules::PURE, Limits::depth(9));
            assert_exact_score(&p, value, r.info.score);
            if let (Value::Win(_), Some(m)) = (value, r.best_move) {
                assert!(
                    matches!(tb.move_value(&p, m).unwrap(), Value::Win(_)),
                    "{p}: {m} spoils the win"
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 630);
}

/// With tables, the root move never spoils a win and converts fastest.
#[test]
fn tablebase_root_moves_are_dtc_optimal() {
    let tb = tables(4);
    let mut engine = Engine::new(Options::default()).unwrap();
    engine.set_tablebase(Some(tb.clone()));
    let mut rng = SplitMix::new(7);
    let mut wins = 0;
    for _ in 0..300 {
        let p = random_position(&mut rng, 2, 2);
        if p.outcome().is_some() {
            continue;
        }
        let value = tb.probe_position(&p).unwrap();
        let r = search(&mut engine, p, Rules::PURE, Limits::depth(4));
        let m = r.best_move.expect("a move");
        let got = tb.move_value(&p, m).unwrap();
        match value {
            Value::Win(_) | Value::Loss(_) => {
                assert_eq!(got, value, "{p}: {m}");
                wins += u32::from(value.wdl() == surakarta_tablebase::Wdl::Win);
            }
            Value::Draw => assert_eq!(got, Value::Draw, "{p}: {m} spoils the draw"),
        }
    }
    assert!(wins > 20);
}

/// Interior probes: a 5-piece root searched with tables up to 4 pieces
/// finds a tablebase win when a capture into a lost 4-piece position exists.
#[test]
fn interior_probes_score_conversions() {
    let tb = tables(4);
    let mut rng = SplitMix::new(11);
    let mut found = 0;
    for _ in 0..200 {
        let p = random_position(&mut rng, 3, 2);
        if p.outcome().is_some() {
            continue;
        }
        let converts = p.captures().iter().any(|&m| {
            let next = p.after(m);
            next.us().is_empty() || matches!(tb.probe_position(&next).unwrap(), Value::Loss(_))
        });
        // A small table: each of the 200 searches starts from a fresh one.
        let options = Options {
            hash_mb: 1,
            ..Options::default()
        };
        let mut engine = Engine::new(options).unwrap();
        engine.set_tablebase(Some(tb.clone()));
        let r = search(&mut engine, p, Rules::PURE, Limits::depth(2));
        if converts {
            found += 1;
            assert!(
                matches!(r.info.score.kind(), ScoreKind::TbWin(_) | ScoreKind::Win(_)),
                "{p}: {}",
                r.info.score
            );
        }
        assert!(r.info.tb_hits > 0 || p.legal_moves().is_empty());
    }
    assert!(found > 5, "{found}");
}

fn random_position(rng: &mut SplitMix, us: u32, them: u32) -> Position {
    surakarta::random::random_position(rng, us, them, Color::Black).unwrap()
}

/// The search parameters with reverse futility and null-move pruning off
/// (the default).
fn without_pruning() -> SearchParameters {
    "rfp-max-depth=0,nmp-min-depth=0".parse().unwrap()
}

/// The search parameters with reverse futility and null-move pruning on.
fn with_pruning() -> SearchParameters {
    "rfp-max-depth=4,nmp-min-depth=3".parse().unwrap()
}

/// With no table, no reductions and no pruning, alpha-beta's root value
/// does not depend on move order, so two threads must agree with one
/// exactly, whether they split siblings or run Lazy SMP (whose helpers then
/// share only history).
#[test]
fn parallel_searches_give_the_serial_value() {
    let exact = Techniques {
        transposition: false,
        aspiration: false,
        reductions: false,
        ..Techniques::default()
    };
    let options = |threads, smp| Options {
        threads,
        techniques: exact,
        smp,
        parameters: without_pruning(),
        ..Options::default()
    };
    let mut one = Engine::new(options(1, Smp::Siblings)).unwrap();
    let mut siblings = Engine::new(options(2, Smp::Siblings)).unwrap();
    let mut lazy = Engine::new(options(2, Smp::Lazy)).unwrap();
    for seed in 0..6 {
        let p = random_opening(seed, 10 + 3 * seed as usize);
        let a = search(&mut one, p, Rules::ICGA, Limits::depth(5));
        let b = search(&mut siblings, p, Rules::ICGA, Limits::depth(5));
        let c = search(&mut lazy, p, Rules::ICGA, Limits::depth(5));
        assert_eq!(a.info.score, b.info.score, "{p}");
        assert_eq!(a.info.score, c.info.score, "{p}");
    }
}

/// Lazy SMP with every technique on still finds the exact tablebase scores.
#[test]
fn lazy_smp_finds_exact_wins() {
    let tb = tables(4);
    let mut engine = Engine::new(Options {
        threads: 2,
        smp: Smp::Lazy,
        ..Options::default()
    })
    .unwrap();
    let mut rng = SplitMix::new(21);
    let mut checked = 0;
    for _ in 0..60 {
        let p = random_position(&mut rng, 1, 1);
        if p.outcome().is_some() {
            continue;
        }
        let value = tb.probe_position(&p).unwrap();
        let r = search(&mut engine, p, Rules::PURE, Limits::depth(9));
        assert_exact_score(&p, value, r.info.score);
        checked += usize::from(value != Value::Draw);
    }
    assert!(checked > 5, "{checked}");
}

#[test]
fn one_thread_is_deterministic() {
    let mut engine = Engine::new(Options::default()).unwrap();
    let p = random_opening(3, 12);
    let a = search(&mut engine, p, Rules::ICGA, Limits::depth(6));
    engine.new_game();
    let b = search(&mut engine, p, Rules::ICGA, Limits::depth(6));
    assert_eq!(
        (a.info.nodes, &a.info.pv, a.info.score),
        (b.info.nodes, &b.info.pv, b.info.score)
    );
}

#[test]
fn limits_and_stop_are_obeyed() {
    let mut engine = Engine::new(Options::default()).unwrap();
    let game = Game::new(Position::new(), Rules::ICGA);
    let r = engine.search(
        &game,
        &Limits::nodes(20_000),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert!(r.info.nodes < 20_000 + 5_000, "{}", r.info.nodes);
    assert!(game.position().is_legal(r.best_move.unwrap()));
    // Stopped before it starts: still a legal move.
    let r = engine.search(
        &game,
        &Limits::default(),
        &AtomicBool::new(true),
        &mut |_| {},
    );
    assert!(game.position().is_legal(r.best_move.unwrap()));
}

/// Under the ICGA rules the no-capture limit ends the game by material: with
/// one ply left and no capture, the side with more pieces has won.
#[test]
fn the_no_capture_limit_adjudicates_by_material() {
    let mut engine = Engine::new(Options::default()).unwrap();
    // Black: a1 and f1 corners; White: c6. No captures possible at once.
    let p: Position = "2w3/6/6/6/6/b4b b 49 40".parse().unwrap();
    assert!(p.captures().is_empty());
    let r = search(&mut engine, p, Rules::ICGA, Limits::depth(3));
    assert_eq!(r.info.score, Score::win_at(1), "{}", r.info.score);
    let r = search(&mut engine, p, Rules::PURE, Limits::depth(3));
    assert!(!r.info.score.is_decisive());
}

/// The tables decide the root only where their value is the game's: near
/// the no-capture limit (48 plies of the ICGA's 50 gone, a win in 3 that
/// the limit cuts off) the search finds the game's value, a loss by
/// material; one ply earlier the tables' win stands. Under every rule set.
#[test]
fn the_tables_decide_the_root_only_where_the_rules_leave_room() {
    let mut engine = Engine::new(Options::default()).unwrap();
    engine.set_tablebase(Some(tables(4)));
    for rules in [
        "pure",
        "icga",
        "pku",
        "repetitions=3,no-capture=0",
        "repetitions=0,no-capture=10",
    ] {
        let rules: Rules = rules.parse().unwrap();
        let limit = rules.no_capture_plies().unwrap_or(60);
        for halfmoves in [
            0,
            limit.saturating_sub(3),
            limit.saturating_sub(2),
            limit - 1,
        ] {
            let p: Position = format!("w5/6/6/6/6/b4w b {halfmoves} 1").parse().unwrap();
            let r = search(&mut engine, p, rules, Limits::depth(6));
            let room = rules.no_capture_plies().is_none_or(|l| halfmoves + 3 <= l);
            if room {
                assert_eq!(r.info.score, Score::tb_win_at(3), "{rules} at {halfmoves}");
                assert_eq!(
                    r.info.depth, 0,
                    "{rules} at {halfmoves}: decided by the tables"
                );
            } else {
                // Two white pieces against one when the limit ends the game.
                assert!(
                    matches!(r.info.score.kind(), ScoreKind::Loss(_)),
                    "{rules} at {halfmoves}: {}",
                    r.info.score
                );
            }
        }
    }
}

/// A drawn root of the tables is searched on its drawing moves only under
/// the pure rules: elsewhere piece count decides endless play, and a move
/// the tables call losing may win the game.
#[test]
fn a_drawn_root_keeps_to_the_drawing_moves_only_under_the_pure_rules() {
    let tb = tables(4);
    let mut rng = SplitMix::new(3);
    // A 2v1 draw for the side to move (more pieces: adjudication wins).
    let p = loop {
        let p = surakarta::random::random_position(&mut rng, 2, 1, Color::Black).unwrap();
        if p.outcome().is_none() && tb.probe_position(&p).unwrap() == Value::Draw {
            break p;
        }
    };
    let text = p.to_string();
    let fields: Vec<&str> = text.split(' ').collect();
    let p: Position = format!("{} {} 45 1", fields[0], fields[1]).parse().unwrap();
    let mut engine = Engine::new(Options::default()).unwrap();
    engine.set_tablebase(Some(tb));
    let r = search(&mut engine, p, Rules::PURE, Limits::depth(5));
    assert_eq!(r.info.score, Score::DRAW, "{p}");
    let r = search(&mut engine, p, Rules::ICGA, Limits::depth(7));
    assert!(
        matches!(r.info.score.kind(), ScoreKind::Win(_) | ScoreKind::TbWin(_)),
        "{p}: {} (more pieces when the limit ends the game)",
        r.info.score
    );
}

#[test]
fn a_finished_game_has_no_move() {
    let mut engine = Engine::new(Options::default()).unwrap();
    let p: Position = "6/6/6/6/6/1b4 w".parse().unwrap();
    let game = Game::new(p, Rules::ICGA);
    assert!(game.outcome().is_some());
    let r = engine.search(
        &game,
        &Limits::depth(3),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert_eq!(r.best_move, None);
}

/// Pruning cuts nodes; at zero its switches turn it off entirely, whatever
/// its other values.
#[test]
fn pruning_cuts_nodes_and_its_zero_switches_turn_it_off() {
    let nodes = |parameters: SearchParameters| {
        let mut engine = Engine::new(Options {
            parameters,
            ..Options::default()
        })
        .unwrap();
        let p = random_opening(5, 14);
        search(&mut engine, p, Rules::ICGA, Limits::depth(9))
            .info
            .nodes
    };
    let off = nodes(without_pruning());
    assert!(nodes(with_pruning()) < off);
    assert_eq!(nodes(SearchParameters::default()), off);
    let mut other = without_pruning();
    for (name, value) in [
        ("rfp-margin", 400),
        ("nmp-reduction", 1),
        ("nmp-depth-divisor", 1),
    ] {
        other.set(name, value).unwrap();
    }
    assert_eq!(nodes(other), off);
}

/// Null-move and reverse futility pruning keep the decisive results of the
/// full-width search: where it proves a win or a loss within its depth, so
/// does the pruned search, for the same side (positions of four or five
/// pieces against one or two, either side to move, so that null moves are
/// tried by the stronger side).
#[test]
fn pruning_keeps_the_proven_results() {
    let mut rng = SplitMix::new(31);
    let mut proven = 0;
    for i in 0..200 {
        let (strong, weak) = (4 + rng.below(2) as u32, 1 + rng.below(2) as u32);
        let p = if i % 2 == 0 {
            random_position(&mut rng, strong, weak)
        } else {
            random_position(&mut rng, weak, strong)
        };
        if p.outcome().is_some() {
            continue;
        }
        let options = |parameters| Options {
            parameters,
            hash_mb: 1,
            ..Options::default()
        };
        let mut full = Engine::new(options(without_pruning())).unwrap();
        let mut pruned = Engine::new(options(with_pruning())).unwrap();
        let a = search(&mut full, p, Rules::PURE, Limits::depth(6))
            .info
            .score;
        if !a.is_decisive() {
            continue;
        }
        let b = search(&mut pruned, p, Rules::PURE, Limits::depth(6))
            .info
            .score;
        assert!(
            b.is_decisive() && (a.0 > 0) == (b.0 > 0),
            "{p}: {a} against {b}"
        );
        proven += 1;
    }
    assert!(proven > 20, "{proven}");
}

fn random_opening(seed: u64, plies: usize) -> Position {
    random_playout(&mut SplitMix::new(seed), Position::new(), plies)
}

/// A search stopped by its node limit keeps what its last iteration found.
/// Where iteration `d` changes the move of iteration `d - 1` to `m`, the
/// smallest node limit at which the search plays `m` (found by bisection:
/// once `m` has finished no later move beats it) stops iteration `d` after
/// `m` finished, so that iteration is reported as partial and `m` is played
/// (unless `m` finished within the limit check's step of the iteration's
/// end). Every limit tried plays the last report's move, and only the last
/// report can be partial.
#[test]
fn a_stopped_iteration_plays_its_best_finished_move() {
    // Hundreds of fresh engines: a small table each.
    let options = Options {
        threads: 1,
        hash_mb: 4,
        ..Options::default()
    };
    // A fresh one-thread engine's search: the result and every report.
    let fresh_search = |game: &Game, limits: Limits| {
        let mut engine = Engine::new(options.clone()).unwrap();
        let mut reports = Vec::new();
        let result = engine.search(game, &limits, &AtomicBool::new(false), &mut |info| {
            reports.push(info.clone())
        });
        let last = reports.last().unwrap();
        assert_eq!(result.best_move, last.pv.first().copied());
        assert!(reports[..reports.len() - 1].iter().all(|r| !r.partial));
        (result, reports)
    };
    let plays = |game: &Game, nodes: u64| fresh_search(game, Limits::nodes(nodes)).0;
    let mut partial_changes = 0;
    for seed in 35..75 {
        let game = Game::new(random_opening(seed, 12), Rules::ICGA);
        if game.outcome().is_some() {
            continue;
        }
        let (_, complete) = fresh_search(&game, Limits::depth(7));
        assert!(complete.iter().all(|r| !r.partial));
        let Some(d) = (3..complete.len())
            .rev()
            .find(|&i| complete[i].pv[0] != complete[i - 1].pv[0])
        else {
            continue;
        };
        let (before, after) = (&complete[d - 1], &complete[d]);
        let new_move = after.pv.first().copied();
        let (mut low, mut high) = (before.nodes, after.nodes);
        while high - low > 1 {
            let middle = low + (high - low) / 2;
            if plays(&game, middle).best_move == new_move {
                high = middle;
            } else {
                low = middle;
            }
        }
        let first_played = plays(&game, high);
        assert_eq!(first_played.best_move, new_move);
        if first_played.info.partial {
            assert_eq!(first_played.info.depth, after.depth, "{}", game.position());
            partial_changes += 1;
        }
        let earlier = plays(&game, low);
        assert_ne!(earlier.best_move, new_move);
        if partial_changes == 3 {
            return;
        }
    }
    panic!("only {partial_changes} stopped iterations played their new move");
}
