//! Game analysis: marks from the tables' exact values.

use std::sync::atomic::AtomicBool;

use surakarta::random::{random_position, SplitMix};
use surakarta::{Color, Game, GameRecord, Mark, Rules};
use surakarta_index::Scheme;
use surakarta_match::analysis::{analyse_game, annotate};
use surakarta_search::{Engine, Limits, Options};
use surakarta_tablebase::{NoProgress, Tablebase};

/// Short games from 4- and 5-piece positions, mixing the tables' best moves
/// with moves that change the exact value: every value-changing move is a
/// blunder, no other move is marked.
#[test]
fn table_marks_are_exact() {
    let (tables, _) = Tablebase::generate(5, Scheme::Symmetric, &NoProgress).unwrap();
    let (wrong, kept) = marks_are_exact(&tables, 4..=5, 220, 7);
    assert!(wrong >= 50 && kept >= 50, "wrong {wrong}, kept {kept}");
}

/// [`table_marks_are_exact`] on 200 games from 7- and 8-piece positions of
/// generated tables (`tb generate --pieces 8`, either format):
/// `SURAKARTA_TB8=DIR cargo test --release -p surakarta-match --test it --
/// --ignored --nocapture analysis::`. It prints the counts.
#[test]
#[ignore = "needs the tables up to 8 pieces (SURAKARTA_TB8=DIR)"]
fn table_marks_are_exact_on_7_and_8_pieces() {
    let Some(dir) = std::env::var_os("SURAKARTA_TB8") else {
        return;
    };
    let tables = Tablebase::open_dir(std::path::Path::new(&dir)).unwrap();
    let started = std::time::Instant::now();
    let (wrong, kept) = marks_are_exact(&tables, 7..=8, 200, 8);
    println!(
        "200 games from 7- and 8-piece positions: {wrong} value-changing moves all marked ??, \
         {kept} value-keeping moves none marked, 0 errors, {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(wrong >= 50 && kept >= 50, "wrong {wrong}, kept {kept}");
}

/// Plays `games` short games (4 plies at most) from random positions of
/// `pieces` pieces under the pure rules, mixing the tables' best moves with
/// moves that change the exact value, analyses each with the tables, and
/// checks every mark against the exact values; returns the counts of
/// value-changing and value-keeping moves.
fn marks_are_exact(
    tables: &Tablebase,
    pieces: std::ops::RangeInclusive<u32>,
    games: usize,
    seed: u64,
) -> (usize, usize) {
    let mut engine = Engine::new(Options {
        hash_mb: 16,
        ..Options::default()
    })
    .unwrap();
    let mut rng = SplitMix::new(seed);
    let never = AtomicBool::new(false);
    let (mut played, mut wrong, mut kept, mut errors) = (0, 0, 0, Vec::new());
    let span = (pieces.end() - pieces.start() + 1) as usize;
    while played < games {
        let pieces = pieces.start() + rng.below(span) as u32;
        let black = 1 + rng.below(pieces as usize - 1) as u32;
        let turn = if rng.next_u64() & 1 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let Ok(start) = random_position(&mut rng, black, pieces - black, turn) else {
            continue;
        };
        if start.outcome().is_some() {
            continue;
        }
        played += 1;
        let mut game = Game::new(start, Rules::PURE);
        let mut expected = Vec::new();
        for _ in 0..4 {
            if game.outcome().is_some() {
                break;
            }
            let position = *game.position();
            let value = tables.probe_position(&position).unwrap().wdl();
            let values = tables.move_values(&position).unwrap();
            let worse: Vec<_> = values.iter().filter(|(_, v)| v.wdl() < value).collect();
            let m = if !worse.is_empty() && rng.below(2) == 0 {
                worse[rng.below(worse.len())].0
            } else {
                tables.best_move(&position).unwrap().unwrap().0
            };
            let changes = tables.move_value(&position, m).unwrap().wdl() < value;
            expected.push((position, value, changes));
            game.play(m).unwrap();
        }
        let record = GameRecord::from_game(&game);
        let analysis = analyse_game(
            &record,
            &mut engine,
            &Limits::depth(1),
            Some(tables),
            &never,
            &mut |_, _| {},
        )
        .unwrap();
        assert_eq!(analysis.plies.len(), expected.len());
        for (p, &(position, value, changes)) in analysis.plies.iter().zip(&expected) {
            assert!(p.exact);
            if changes {
                wrong += 1;
            } else {
                kept += 1;
            }
            let want = changes.then_some(Mark::Blunder);
            if p.mark != want {
                errors.push(format!(
                    "{start} ply {}: {} marked {:?}, expected {want:?}",
                    p.ply, p.played, p.mark
                ));
            }
            // The best move given is a table-best move: it keeps the value.
            let best = p.best.expect("a best move");
            assert_eq!(tables.move_value(&position, best).unwrap().wdl(), value);
        }
        // The annotated record reads back with the marks.
        let mut annotated = record.clone();
        annotate(&mut annotated, &analysis);
        let back: GameRecord = annotated.to_string().parse().unwrap();
        assert_eq!(back, annotated);
    }
    assert!(
        errors.is_empty(),
        "{} errors:\n{}",
        errors.len(),
        errors.join("\n")
    );
    (wrong, kept)
}
