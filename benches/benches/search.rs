//! Evaluation cost and fixed-depth search speed on the benchmark positions.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use surakarta::{Game, Position, Rules};
use surakarta_search::{bench::POSITIONS, evaluate, Engine, Limits, Options, Weights};

fn positions() -> Vec<Position> {
    POSITIONS
        .iter()
        .map(|t| t.parse().expect("benchmark position"))
        .collect()
}

fn evaluation(c: &mut Criterion) {
    let all = positions();
    for (name, weights) in [("default", Weights::DEFAULT), ("paper", Weights::PAPER)] {
        c.bench_function(&format!("evaluate {name} (15 positions)"), |b| {
            b.iter(|| {
                all.iter()
                    .map(|p| evaluate(black_box(p), &weights))
                    .sum::<i32>()
            })
        });
    }
}

fn search(c: &mut Criterion) {
    let all = positions();
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for threads in [1, 2] {
        let mut engine = Engine::new(Options {
            threads,
            ..Options::default()
        })
        .expect("engine");
        let stop = AtomicBool::new(false);
        group.bench_function(format!("15 positions depth 7, {threads} threads"), |b| {
            b.iter(|| {
                let mut nodes = 0;
                for p in &all {
                    engine.new_game();
                    let game = Game::new(*p, Rules::ICGA);
                    nodes += engine
                        .search(&game, &Limits::depth(7), &stop, &mut |_| {})
                        .info
                        .nodes;
                }
                nodes
            })
        });
    }
    group.finish();
}

criterion_group!(benches, evaluation, search);
criterion_main!(benches);
