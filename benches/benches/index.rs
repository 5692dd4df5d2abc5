//! Position indexing: rank, unrank and sequential enumeration of both schemes
//! at 8 pieces (4v4), and building the canonical-occupancy directory.
//!
//! Per-call figures come from batches of 1024 random positions or indices, so
//! the tables are warm but the branch pattern is not learned per position.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use surakarta::random::SplitMix;
use surakarta_benches::random_sides;
use surakarta_index::{Indexer, Material, OccupancyDirectory, PlainIndexer, SymmetricIndexer};

const BATCH: usize = 1024;

fn rank(c: &mut Criterion) {
    let material: Material = "4v4".parse().unwrap();
    let plain = PlainIndexer::new(material);
    let symmetric = SymmetricIndexer::new(material);
    let positions = random_sides(material, &mut SplitMix::new(0x9e37_79b9_7f4a_7c15), BATCH);
    let mut group = c.benchmark_group("index-4v4");
    group.throughput(Throughput::Elements(BATCH as u64));
    group.bench_function("plain/rank", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for &s in positions.iter() {
                sum = sum.wrapping_add(plain.rank(black_box(s)).unwrap().index);
            }
            sum
        })
    });
    group.bench_function("symmetric/rank", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for &s in positions.iter() {
                sum = sum.wrapping_add(symmetric.rank(black_box(s)).unwrap().index);
            }
            sum
        })
    });
    let plain_portable = PlainIndexer::portable(material);
    let symmetric_portable = symmetric.clone().into_portable();
    group.bench_function("plain/rank-portable", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for &s in positions.iter() {
                sum = sum.wrapping_add(plain_portable.rank(black_box(s)).unwrap().index);
            }
            sum
        })
    });
    group.bench_function("symmetric/rank-portable", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for &s in positions.iter() {
                sum = sum.wrapping_add(symmetric_portable.rank(black_box(s)).unwrap().index);
            }
            sum
        })
    });
    group.bench_function("symmetric/canonical_form", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for &s in positions.iter() {
                sum = sum.wrapping_add(surakarta_index::canonical_form(black_box(s)).0.us.bits());
            }
            sum
        })
    });
    let plain_indices: Vec<u64> = positions.iter().map(|&s| plain.rank_unchecked(s)).collect();
    let symmetric_indices: Vec<u64> = positions
        .iter()
        .map(|&s| symmetric.rank_unchecked(s).index)
        .collect();
    group.bench_function("plain/unrank", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for &i in plain_indices.iter() {
                sum = sum.wrapping_add(plain.unrank(black_box(i)).unwrap().us.bits());
            }
            sum
        })
    });
    group.bench_function("symmetric/unrank", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for &i in symmetric_indices.iter() {
                sum = sum.wrapping_add(symmetric.unrank(black_box(i)).map_or(0, |s| s.us.bits()));
            }
            sum
        })
    });

    // Sequential enumeration: a run of 10 M positions from the middle.
    const RUN: u64 = 10_000_000;
    group.throughput(Throughput::Elements(RUN));
    group.sample_size(10);
    group.bench_function("plain/enumerate", |b| {
        b.iter(|| {
            plain
                .positions_from(plain.size() / 2)
                .unwrap()
                .take(RUN as usize)
                .fold(0u64, |acc, s| {
                    acc.wrapping_add(s.us.bits() ^ s.them.bits() >> 1)
                })
        })
    });
    group.bench_function("symmetric/enumerate", |b| {
        b.iter(|| {
            symmetric
                .positions_from(symmetric.size() / 2)
                .unwrap()
                .take(RUN as usize)
                .fold(0u64, |acc, (i, s)| {
                    acc.wrapping_add(i ^ s.us.bits() ^ s.them.bits() >> 1)
                })
        })
    });
    group.finish();
}

fn directory(c: &mut Criterion) {
    let mut group = c.benchmark_group("directory");
    group.sample_size(10);
    for pieces in [6u32, 8] {
        group.bench_function(format!("build/{pieces}"), |b| {
            b.iter_batched(
                || pieces,
                |p| OccupancyDirectory::build(black_box(p)).canonical_count(),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, rank, directory);
criterion_main!(benches);
