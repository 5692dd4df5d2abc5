//! Probe time of random positions of the 8-piece classes: median and mean
//! of single probes, files in the page cache (run twice).
//!
//! `cargo run --release -p surakarta-tablebase --example probe_speed -- DIR [PROBES]`

use std::path::Path;
use std::time::Instant;
use surakarta_index::{Indexer, Material, Sides};
use surakarta_tablebase::Tablebase;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let probes: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(200_000);
    // SAFETY: the files are not modified while this runs.
    let tb = unsafe { Tablebase::map_dir(Path::new(&args[0])) }.expect("tables");
    let materials: Vec<Material> = Material::with_pieces(8).collect();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut positions: Vec<Sides> = Vec::with_capacity(probes);
    while positions.len() < probes {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let material = materials[(state >> 59) as usize % materials.len()];
        let indexer = tb.table(material).expect("8-piece table").indexer();
        let size = indexer.size();
        let mut found = None;
        let from = (state >> 11) % size;
        indexer.for_each_in(from, from + 4096, |_, s| {
            if found.is_none() {
                found = Some(s);
            }
        });
        positions.extend(found);
    }
    // Warm the checksums (first use checks each table once).
    for m in &materials {
        tb.table(*m).unwrap().payload().expect("intact");
    }
    let mut times: Vec<u64> = Vec::with_capacity(probes);
    let mut sum = 0u64;
    let start = Instant::now();
    for &sides in &positions {
        let t = Instant::now();
        let v = tb.probe(sides).expect("probe");
        times.push(t.elapsed().as_nanos() as u64);
        sum += u64::from(v.dtc().unwrap_or(0));
    }
    let total = start.elapsed();
    times.sort_unstable();
    println!(
        "{} probes: median {} ns, p90 {} ns, p99 {} ns, mean {:.0} ns (checksum {sum})",
        probes,
        times[probes / 2],
        times[probes * 9 / 10],
        times[probes * 99 / 100],
        total.as_nanos() as f64 / probes as f64
    );
}
