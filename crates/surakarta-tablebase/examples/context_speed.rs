//! Times the context model over every position of a class.
use std::path::Path;
use std::time::Instant;
use surakarta_index::{Indexer, Material};
use surakarta_tablebase::{ContextModel, Directories, TableIndexer};

fn main() {
    let class: Material = std::env::args().nth(1).unwrap().parse().unwrap();
    let _ = Path::new(".");
    let mut dirs = Directories::default();
    let indexer = TableIndexer::new(class, surakarta_index::Scheme::Symmetric, &mut dirs);
    let mut all = Vec::new();
    indexer.for_each_in(0, indexer.size().min(2_000_000), |_, s| all.push(s));
    let t = Instant::now();
    let mut sum = 0usize;
    for &s in &all {
        sum += ContextModel::SafeSteps.of(s);
    }
    let e = t.elapsed().as_secs_f64();
    println!(
        "{class}: {} positions, {:.1} ns each (sum {sum})",
        all.len(),
        e * 1e9 / all.len() as f64
    );
    let t = Instant::now();
    let mut sum = 0u32;
    for &s in &all {
        sum += surakarta::capture_targets(s.them, s.us).count();
    }
    let e = t.elapsed().as_secs_f64();
    println!(
        "capture_targets: {:.1} ns each (sum {sum})",
        e * 1e9 / all.len() as f64
    );
}
