//! Move generation: the bitboard generator against the plain array reference.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use surakarta::reference;
use surakarta_benches::positions;

fn movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen");
    for (name, pos) in positions() {
        group.bench_function(format!("legal_moves/{name}"), |b| {
            b.iter(|| black_box(&pos).legal_moves())
        });
        group.bench_function(format!("count_moves/{name}"), |b| {
            b.iter(|| black_box(&pos).count_moves())
        });
        let setup = pos.to_setup();
        group.bench_function(format!("reference/{name}"), |b| {
            b.iter(|| reference::legal_moves(black_box(&setup)))
        });
    }
    group.finish();
}

criterion_group!(benches, movegen);
criterion_main!(benches);
