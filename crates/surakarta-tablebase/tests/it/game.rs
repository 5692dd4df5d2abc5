//! The tables' values judged against games (`Tablebase::probe_game`): near
//! the no-capture limit of every rule set, after repetitions, and against
//! a brute-force solver of the game under a no-capture limit.

use std::collections::HashMap;
use std::sync::OnceLock;
use surakarta::random::{random_position, SplitMix};
use surakarta::{Color, Game, Position, Rules};
use surakarta_index::Scheme;
use surakarta_tablebase::{Cutoff, NoProgress, Table, Tablebase, Value, Wdl};

/// Every class up to 4 pieces, solved once for the module.
fn tables() -> &'static Tablebase {
    static TABLES: OnceLock<Tablebase> = OnceLock::new();
    TABLES.get_or_init(|| {
        Tablebase::generate(4, Scheme::Symmetric, &NoProgress)
            .unwrap()
            .0
    })
}

/// `position` with its no-capture counter set to `halfmoves`.
fn with_halfmoves(position: &Position, halfmoves: u32) -> Position {
    let text = position.to_string();
    let mut fields = text.split(' ');
    let (placement, turn) = (fields.next().unwrap(), fields.next().unwrap());
    format!("{placement} {turn} {halfmoves} 1").parse().unwrap()
}

fn rules(text: &str) -> Rules {
    text.parse().unwrap()
}

/// The rule sets of the tests: the presets and custom limits.
fn rule_sets() -> Vec<Rules> {
    vec![
        Rules::PURE,
        Rules::ICGA,
        Rules::PKU,
        rules("repetitions=3,no-capture=0"),
        rules("repetitions=0,no-capture=12"),
        rules("repetitions=2,no-capture=7"),
    ]
}

#[test]
fn a_win_holds_exactly_while_the_counter_leaves_room_under_every_rule_set() {
    let tb = tables();
    // Black to move wins in 3 under the pure rules (1v2).
    let start: Position = "b5/6/6/6/6/w4w b".parse().unwrap();
    assert_eq!(tb.probe_position(&start).unwrap(), Value::Win(3));
    for rules in rule_sets() {
        let limit = rules.no_capture_plies();
        for halfmoves in 0..=limit.unwrap_or(60) {
            let game = Game::new(with_halfmoves(&start, halfmoves), rules);
            let judged = tb.probe_game(&game).unwrap();
            assert_eq!(judged.table, Value::Win(3), "{rules} at {halfmoves}");
            let room = limit.is_none_or(|l| halfmoves + 3 <= l);
            let later_fits = limit.is_none_or(|l| tb.longest_below(3) <= l);
            if game.is_over() {
                assert!(
                    matches!(judged.cutoff, Some(Cutoff::GameOver(_))),
                    "{rules} at {halfmoves}"
                );
            } else if room && later_fits {
                assert_eq!(
                    judged.exact(),
                    Some(Value::Win(3)),
                    "{rules} at {halfmoves}"
                );
            } else if !room {
                assert_eq!(
                    judged.cutoff,
                    Some(Cutoff::NoCaptureLimit {
                        halfmoves,
                        dtc: 3,
                        limit: limit.unwrap()
                    }),
                    "{rules} at {halfmoves}"
                );
            } else {
                assert!(
                    matches!(judged.cutoff, Some(Cutoff::LaterConversion { .. })),
                    "{rules} at {halfmoves}: {:?}",
                    judged.cutoff
                );
            }
        }
    }
}

#[test]
fn the_game_from_the_limit_example_is_lost_for_the_side_the_tables_call_winning() {
    // ICGA, 48 plies without a capture: Black wins in 3 under the pure
    // rules, but two plies later the 50-ply limit ends the game and White,
    // with two pieces against one, wins it.
    let tb = tables();
    let mut game = Game::new("w5/6/6/6/6/b4w b 48 1".parse().unwrap(), Rules::ICGA);
    let judged = tb.probe_game(&game).unwrap();
    assert_eq!(judged.table, Value::Win(3));
    assert_eq!(judged.exact(), None);
    // Every Black move: the tables' value for Black, none of them the game's.
    let moves = tb.move_values_in_game(&game).unwrap();
    assert!(!moves.is_empty());
    for (m, v) in &moves {
        assert!(v.exact().is_none(), "{m}: {v:?}");
    }
    game.play_text("a1-b1").unwrap();
    game.play_text("f1-e1").unwrap();
    assert_eq!(game.outcome().unwrap().result(), "0-1");
    let over = tb.probe_game(&game).unwrap();
    assert!(matches!(over.cutoff, Some(Cutoff::GameOver(_))));
}

#[test]
fn a_draw_is_the_games_value_under_the_pure_rules_and_with_one_piece_a_side() {
    let tb = tables();
    let drawn: Position = "6/1w4/6/6/6/2b3 b".parse().unwrap();
    assert_eq!(tb.probe_position(&drawn).unwrap(), Value::Draw);
    for rules in rule_sets() {
        let judged = tb.probe_game(&Game::new(drawn, rules)).unwrap();
        assert_eq!(judged.exact(), Some(Value::Draw), "{rules}");
    }
}

#[test]
fn a_draw_of_more_pieces_is_the_games_value_only_under_the_pure_rules() {
    let tb = tables();
    // A drawn 2v2 position under the pure rules.
    let mut rng = SplitMix::new(11);
    let drawn = loop {
        let p = random_position(&mut rng, 2, 2, Color::Black).unwrap();
        if p.outcome().is_none() && tb.probe_position(&p).unwrap() == Value::Draw {
            break p;
        }
    };
    for rules in rule_sets() {
        let judged = tb.probe_game(&Game::new(drawn, rules)).unwrap();
        if rules == Rules::PURE {
            assert_eq!(judged.exact(), Some(Value::Draw));
        } else {
            assert_eq!(judged.cutoff, Some(Cutoff::Adjudication), "{rules}");
        }
    }
}

#[test]
fn a_position_one_short_of_the_repetition_limit_cuts_the_tables_line() {
    let tb = tables();
    let start: Position = "b5/6/6/6/6/w4w b".parse().unwrap();
    // Back and forth once: the start occurs twice, then Black moves away.
    let shuffle = ["a6-a5", "f1-e1", "a5-a6", "e1-f1", "a6-b6"];
    for (rules, cut) in [
        (Rules::ICGA, true),
        (rules("repetitions=4,no-capture=50"), false),
        (Rules::PKU, false),
    ] {
        let mut game = Game::new(start, rules);
        for m in shuffle {
            game.play_text(m).unwrap();
        }
        let judged = tb.probe_game(&game).unwrap();
        assert!(judged.table.wdl() != Wdl::Draw, "{:?}", judged.table);
        if cut {
            assert_eq!(
                judged.cutoff,
                Some(Cutoff::Repetition { count: 2, limit: 3 }),
                "{rules}"
            );
        } else {
            assert_eq!(judged.cutoff, None, "{rules}");
        }
    }
}

#[test]
fn a_conversion_after_the_first_must_fit_the_limit_too() {
    let tb = tables();
    let longest = tb.longest_below(4);
    assert!(longest >= 3, "{longest}");
    // A 3v1 win converting at once, under a limit shorter than the longest
    // 3-piece conversion that may follow.
    let mut rng = SplitMix::new(5);
    let position = loop {
        let p = random_position(&mut rng, 3, 1, Color::Black).unwrap();
        if p.outcome().is_none() && tb.probe_position(&p).unwrap() == Value::Win(1) {
            break p;
        }
    };
    let short = Rules::new(None, Some(longest - 1)).unwrap();
    let judged = tb.probe_game(&Game::new(position, short)).unwrap();
    assert!(
        matches!(judged.cutoff, Some(Cutoff::LaterConversion { limit, .. }) if limit == longest - 1),
        "{:?}",
        judged.cutoff
    );
    let enough = Rules::new(None, Some(longest)).unwrap();
    assert_eq!(
        tb.probe_game(&Game::new(position, enough)).unwrap().exact(),
        Some(Value::Win(1))
    );
    // Without the smaller tables nothing after a capture can be checked.
    let mut only_four = Tablebase::new();
    for material in tb.materials().filter(|m| m.pieces() == 4) {
        let table = tb.table(material).unwrap();
        let values = table.stored_bytes().unwrap().into_owned();
        only_four.insert(Table::new(table.indexer().clone(), values).unwrap());
    }
    assert!(matches!(
        only_four
            .probe_game(&Game::new(position, enough))
            .unwrap()
            .cutoff,
        Some(Cutoff::MissingTable(_))
    ));
}

/// The value of `position` for its side to move under a no-capture limit
/// and no repetition rule, by searching the whole game: +1 win, 0 draw, -1
/// loss.
fn solve(position: &Position, rules: Rules, memo: &mut HashMap<(String, u32), i8>) -> i8 {
    if let Some(outcome) = rules.outcome(position, || 1) {
        return match outcome.winner {
            None => 0,
            Some(c) if c == position.turn() => 1,
            Some(_) => -1,
        };
    }
    let key = (position.to_string(), position.halfmoves());
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut best = -1;
    for &m in position.legal_moves().iter() {
        best = best.max(-solve(&position.after(m), rules, memo));
        if best == 1 {
            break;
        }
    }
    memo.insert(key, best);
    best
}

#[test]
fn every_exact_value_agrees_with_the_game_solved_under_the_limit() {
    let tb = tables();
    let mut rng = SplitMix::new(2024);
    for limit in [3, 5, 8] {
        let rules = Rules::new(None, Some(limit)).unwrap();
        let mut memo = HashMap::new();
        let (mut exact, mut cut) = (0, 0);
        for i in 0..3000 {
            let (black, white) = [(2, 1), (1, 2), (2, 2), (3, 1)][i % 4];
            let turn = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let p = random_position(&mut rng, black, white, turn).unwrap();
            let p = with_halfmoves(&p, rng.below(limit as usize) as u32);
            let game = Game::new(p, rules);
            if game.is_over() {
                continue;
            }
            let judged = tb.probe_game(&game).unwrap();
            match judged.exact() {
                Some(value) => {
                    exact += 1;
                    let want = match value.wdl() {
                        Wdl::Win => 1,
                        Wdl::Draw => 0,
                        Wdl::Loss => -1,
                    };
                    assert_eq!(
                        solve(&p, rules, &mut memo),
                        want,
                        "{p} under {rules}: {value:?}"
                    );
                }
                None => cut += 1,
            }
        }
        assert!(
            exact > 20 && cut > 20,
            "limit {limit}: {exact} exact, {cut} cut"
        );
    }
}
