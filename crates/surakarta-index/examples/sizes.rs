//! Prints the table sizes of both schemes for 2 to 10 pieces as Markdown
//! (the table in `docs/index.md`), building each occupancy directory to
//! measure the symmetric size rather than computing it.
//!
//! `cargo run --release -p surakarta-index --example sizes [MAX_PIECES]`

use std::time::Instant;
use surakarta_index::{
    occupancy_orbits, position_orbits, Indexer, Material, OccupancyDirectory, PlainIndexer,
    SymmetricIndexer,
};

fn choose(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

fn main() {
    let max: u32 = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("MAX_PIECES must be a number"))
        .unwrap_or(10);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let paper = [72u64, 2520, 57120, 942480, 12063744, 124658688];
    println!("| n | paper (all 2^n colourings) | plain | symmetric | exact orbits | waste | plain / symmetric | directory | build |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for n in 2..=max {
        let start = Instant::now();
        let directory = std::sync::Arc::new(OccupancyDirectory::build_with_threads(n, threads));
        let seconds = start.elapsed().as_secs_f64();
        assert_eq!(directory.canonical_count(), occupancy_orbits(n));
        let (mut plain, mut symmetric, mut exact) = (0u64, 0u64, 0u64);
        for material in Material::with_pieces(n) {
            plain += PlainIndexer::new(material).size();
            let indexer = SymmetricIndexer::with_directory(material, directory.clone())
                .expect("directory for n pieces");
            symmetric += indexer.size();
            exact += position_orbits(material);
        }
        let paper_count = paper.get(n as usize - 1).map_or_else(
            || format!("({})", choose(36, n as u64) << n),
            |c| c.to_string(),
        );
        println!(
            "| {n} | {paper_count} | {plain} | {symmetric} | {exact} | {} ({:.3}%) | {:.3} | {:.1} MiB | {seconds:.2} s |",
            symmetric - exact,
            100.0 * (symmetric - exact) as f64 / symmetric as f64,
            plain as f64 / symmetric as f64,
            directory.heap_bytes() as f64 / (1 << 20) as f64,
        );
    }

    // Per class for 8 pieces.
    let n = 8.min(max);
    let directory = std::sync::Arc::new(OccupancyDirectory::build_with_threads(n, threads));
    println!();
    println!("| class | plain | symmetric | exact orbits | waste |");
    println!("|---|---:|---:|---:|---:|");
    for material in Material::with_pieces(n) {
        let plain = PlainIndexer::new(material).size();
        let symmetric = SymmetricIndexer::with_directory(material, directory.clone())
            .expect("directory for n pieces")
            .size();
        let exact = position_orbits(material);
        println!(
            "| {material} | {plain} | {symmetric} | {exact} | {:.3}% |",
            100.0 * (symmetric - exact) as f64 / symmetric as f64
        );
    }
}
