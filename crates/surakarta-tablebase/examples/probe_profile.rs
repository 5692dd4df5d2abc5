//! A probe loop for profilers: random positions of the classes with the
//! most pieces (as `probe_speed` picks them), probed `ROUNDS` times, each
//! round through a freshly mapped tablebase (so the probe cache is empty).
//! Prints the mean probe time of each round.
//!
//! `cargo run --release -p surakarta-tablebase --example probe_profile -- DIR [PROBES] [ROUNDS] [CLASS]`

use std::path::Path;
use std::time::Instant;
use surakarta::random::SplitMix;
use surakarta_index::{Indexer, Material, Sides};
use surakarta_tablebase::Tablebase;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = Path::new(&args[0]);
    let n: usize = args.get(1).map_or(100_000, |s| s.parse().unwrap());
    let rounds: usize = args.get(2).map_or(5, |s| s.parse().unwrap());
    let only: Option<Material> = args.get(3).map(|s| s.parse().unwrap());
    // SAFETY: the files are not modified while this runs.
    let tb = unsafe { Tablebase::map_dir(dir) }.unwrap();
    let most = tb.materials().map(|m| m.pieces()).max().unwrap();
    let classes: Vec<Material> = match only {
        Some(m) => vec![m],
        None => Material::with_pieces(most).collect(),
    };
    let mut rng = SplitMix::new(99);
    let mut positions: Vec<Sides> = Vec::with_capacity(n);
    while positions.len() < n {
        let class = classes[(rng.next_u64() % classes.len() as u64) as usize];
        let indexer = tb.table(class).unwrap().indexer();
        let from = rng.next_u64() % indexer.size();
        positions.extend(indexer.first_in(from, from + 4096));
    }
    drop(tb);
    for _ in 0..rounds {
        // SAFETY: as above.
        let tb = unsafe { Tablebase::map_dir(dir) }.unwrap();
        for m in tb.materials().collect::<Vec<_>>() {
            tb.table(m).unwrap().check().unwrap();
        }
        let t = Instant::now();
        let mut sum = 0u64;
        for &s in &positions {
            sum = sum.wrapping_add(u64::from(tb.probe(s).unwrap().to_byte().unwrap()));
        }
        std::hint::black_box(sum);
        println!("mean {:.0} ns", t.elapsed().as_nanos() as f64 / n as f64);
    }
}
