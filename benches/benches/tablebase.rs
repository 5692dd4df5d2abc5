//! Tablebase generation (all classes up to 4 and 5 pieces, in memory, on
//! the global rayon pool), probing of random 5-piece positions, and
//! verification. The 6- to 8-piece figures come from `surakarta tb
//! generate` (docs/benchmarks.md).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use surakarta::random::SplitMix;
use surakarta_benches::random_sides;
use surakarta_index::{Material, Scheme};
use surakarta_tablebase::{ContextModel, NoProgress, Tablebase};

fn generate(c: &mut Criterion) {
    let mut group = c.benchmark_group("tablebase-generate");
    group.sample_size(10);
    for (pieces, scheme) in [
        (4, Scheme::Symmetric),
        (4, Scheme::Plain),
        (5, Scheme::Symmetric),
    ] {
        let (_, stats) = Tablebase::generate(pieces, scheme, &NoProgress).unwrap();
        group.throughput(Throughput::Elements(
            stats.iter().map(|s| s.positions).sum(),
        ));
        group.bench_function(format!("up-to-{pieces}/{scheme}"), |b| {
            b.iter(|| Tablebase::generate(black_box(pieces), scheme, &NoProgress).unwrap())
        });
    }
    group.finish();
}

fn probe_and_verify(c: &mut Criterion) {
    let (tb, _) = Tablebase::generate(5, Scheme::Symmetric, &NoProgress).unwrap();
    let material: Material = "3v2".parse().unwrap();
    let mut rng = SplitMix::new(0x9e37_79b9_7f4a_7c15);
    let positions = random_sides(material, &mut rng, 1024);
    let mut group = c.benchmark_group("tablebase-probe");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("3v2/probe", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|&s| tb.probe(s).unwrap().dtc().unwrap_or(0))
                .sum::<u32>()
        })
    });
    // Win/draw/loss of the same positions from compact (format 2) copies
    // of every table (`probe_wdl` reads the stored value: no capture
    // probes and no cache), and of a weak side (2v3, context model "safe
    // steps") in both formats, and that model's cost alone.
    let mut compact = Tablebase::new();
    for m in tb.materials() {
        compact.insert(tb.compacted(m).unwrap());
    }
    group.bench_function("3v2/probe-compact", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|&s| compact.probe_wdl(s).unwrap() as u32)
                .sum::<u32>()
        })
    });
    let weak_positions = random_sides("2v3".parse().unwrap(), &mut rng, 1024);
    for (name, base) in [("2v3/probe-wdl", &tb), ("2v3/probe-wdl-compact", &compact)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                weak_positions
                    .iter()
                    .map(|&s| base.probe_wdl(s).unwrap() as u32)
                    .sum::<u32>()
            })
        });
    }
    group.bench_function("2v3/context-safe-steps", |b| {
        b.iter(|| {
            weak_positions
                .iter()
                .map(|&s| ContextModel::SafeSteps.of(s))
                .sum::<usize>()
        })
    });
    group.finish();
    let mut group = c.benchmark_group("tablebase-verify");
    group.sample_size(10);
    let positions = tb.table(material).unwrap().stats().positions;
    group.throughput(Throughput::Elements(positions));
    group.bench_function("3v2/verify", |b| {
        b.iter(|| tb.verify(material, &NoProgress).unwrap())
    });
    group.finish();
}

criterion_group!(benches, generate, probe_and_verify);
criterion_main!(benches);
