//! Perft from the start position: the bitboard generator (depths 5 and 7)
//! and the plain array reference (depth 4) as the baseline.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use std::time::Duration;
use surakarta::{perft, reference, Position, Setup};

fn perft_benches(c: &mut Criterion) {
    let pos = Position::new();
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));

    group.throughput(Throughput::Elements(2_572_484));
    group.bench_function("start/5", |b| b.iter(|| perft(black_box(&pos), 5)));

    group.throughput(Throughput::Elements(111_122));
    let setup = Setup::start();
    group.bench_function("reference/start/4", |b| {
        b.iter(|| reference::perft(black_box(&setup), 4))
    });

    // Depth 7: 1,442,032,302 leaves, a few seconds per run. Set
    // SURAKARTA_BENCH_PERFT7=0 to skip it.
    if std::env::var("SURAKARTA_BENCH_PERFT7").as_deref() != Ok("0") {
        group.throughput(Throughput::Elements(1_442_032_302));
        group.measurement_time(Duration::from_secs(60));
        group.bench_function("start/7", |b| b.iter(|| perft(black_box(&pos), 7)));
    }
    group.finish();
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
