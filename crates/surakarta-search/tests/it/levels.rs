//! Strength levels: the table's shape, a deterministic choice among the
//! best lines, and the top level equal to the full engine.

use std::sync::atomic::AtomicBool;

use surakarta::random::{random_playout, SplitMix};
use surakarta::{Game, Move, Position, Rules};
use surakarta_search::{
    level_parameters, Engine, Limits, Options, SearchError, SearchResult, MAX_LEVEL,
};

fn engine(level: Option<u8>, seed: u64) -> Engine {
    Engine::new(Options {
        hash_mb: 8,
        level,
        level_seed: seed,
        ..Options::default()
    })
    .unwrap()
}

fn search(engine: &mut Engine, position: Position, limits: Limits) -> SearchResult {
    let game = Game::new(position, Rules::ICGA);
    engine.search(&game, &limits, &AtomicBool::new(false), &mut |_| {})
}

fn positions() -> Vec<Position> {
    let mut rng = SplitMix::new(11);
    (0..24)
        .map(|i| random_playout(&mut rng, Position::new(), 4 + i % 8))
        .filter(|p| !p.legal_moves().is_empty())
        .collect()
}

#[test]
fn the_table_grows_deeper_and_narrower() {
    const { assert!(MAX_LEVEL >= 8) };
    assert_eq!(level_parameters(MAX_LEVEL), None);
    assert_eq!(level_parameters(0), None);
    let mut previous = level_parameters(1).unwrap();
    for level in 2..MAX_LEVEL {
        let now = level_parameters(level).unwrap();
        assert!(now.depth >= previous.depth, "level {level}");
        assert!(now.margin <= previous.margin, "level {level}");
        assert!(now.lines <= previous.lines, "level {level}");
        previous = now;
    }
}

#[test]
fn levels_out_of_range_are_refused() {
    for level in [0, MAX_LEVEL + 1, 255] {
        let options = Options {
            level: Some(level),
            ..Options::default()
        };
        assert_eq!(options.check(), Err(SearchError::Level(level)));
        assert!(matches!(Engine::new(options), Err(SearchError::Level(_))));
    }
}

#[test]
fn a_level_picks_a_legal_move_among_its_lines_and_the_same_one_for_a_seed() {
    for level in [1, 3, 5] {
        let parameters = level_parameters(level).unwrap();
        for position in positions() {
            let result = search(&mut engine(Some(level), 5), position, Limits::depth(20));
            let chosen = result.best_move.unwrap();
            assert!(position.is_legal(chosen));
            let firsts: Vec<Move> = result.lines().iter().map(|l| l.pv[0]).collect();
            assert!(firsts.contains(&chosen), "level {level}: {position}");
            assert!(result.lines().len() <= parameters.lines.max(1));
            assert!(result.info.depth <= parameters.depth);
            let again = search(&mut engine(Some(level), 5), position, Limits::depth(20));
            assert_eq!(again.best_move, Some(chosen), "level {level}: {position}");
        }
    }
}

#[test]
fn different_seeds_make_the_weak_levels_vary() {
    let mut differ = 0;
    for position in positions() {
        let moves: Vec<Option<Move>> = (0..4)
            .map(|seed| search(&mut engine(Some(1), seed), position, Limits::depth(20)).best_move)
            .collect();
        if moves.iter().any(|m| *m != moves[0]) {
            differ += 1;
        }
    }
    assert!(differ > 0, "level 1 played the same moves for every seed");
}

#[test]
fn the_top_level_is_the_full_engine() {
    for position in positions().into_iter().take(8) {
        let plain = search(&mut engine(None, 0), position, Limits::depth(4));
        let top = search(&mut engine(Some(MAX_LEVEL), 9), position, Limits::depth(4));
        assert_eq!(plain.best_move, top.best_move, "{position}");
        assert_eq!(plain.info.nodes, top.info.nodes, "{position}");
    }
}
