//! Generates all classes up to N pieces in memory and prints per-class
//! figures: `cargo run --release -p surakarta-tablebase --example generate 5 [plain]`.

use std::time::Instant;
use surakarta_index::Scheme;
use surakarta_tablebase::{NoProgress, Tablebase};

fn main() {
    let mut args = std::env::args().skip(1);
    let pieces: u32 = args.next().map_or(4, |a| a.parse().expect("piece count"));
    let scheme: Scheme = args
        .next()
        .map_or(Scheme::Symmetric, |a| a.parse().expect("scheme"));
    let start = Instant::now();
    let (_, stats) = Tablebase::generate(pieces, scheme, &NoProgress).expect("generation");
    println!("| class | positions | wins | draws | losses | longest DTC |");
    println!("|---|---:|---:|---:|---:|---:|");
    for s in &stats {
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            s.material, s.positions, s.wins, s.draws, s.losses, s.longest
        );
    }
    println!("total {:.2} s", start.elapsed().as_secs_f64());
}
