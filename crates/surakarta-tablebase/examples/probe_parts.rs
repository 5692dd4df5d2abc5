//! Where a probe's time goes, per 8-piece class: rank, context model,
//! stored value, win/draw/loss, and the whole probe (stored wins resolved),
//! on the same random positions.
//!
//! `cargo run --release -p surakarta-tablebase --example probe_parts -- DIR [PROBES]`
use std::path::Path;
use std::time::Instant;
use surakarta::random::SplitMix;
use surakarta_index::{Indexer, Material, Sides};
use surakarta_tablebase::{ContextModel, Tablebase};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // SAFETY: the files are not modified while this runs.
    let tb = unsafe { Tablebase::map_dir(Path::new(&args[0])) }.unwrap();
    let n: usize = args.get(1).map_or(100_000, |s| s.parse().unwrap());
    for class in Material::with_pieces(8) {
        let table = tb.table(class).unwrap();
        let indexer = table.indexer();
        let mut rng = SplitMix::new(12345);
        let mut positions: Vec<Sides> = Vec::new();
        while positions.len() < n {
            let from = rng.next_u64() % indexer.size();
            positions.extend(indexer.first_in(from, from + 4096));
        }
        let _ = tb.probe(positions[0]);
        let time = |f: &dyn Fn(Sides) -> u64| {
            let t = Instant::now();
            let mut sum = 0u64;
            for &s in &positions {
                sum = sum.wrapping_add(f(s));
            }
            std::hint::black_box(sum);
            t.elapsed().as_nanos() as f64 / n as f64
        };
        let rank = time(&|s| indexer.rank(s).unwrap().index);
        let context = time(&|s| ContextModel::for_material(class).of(s) as u64);
        let stored = time(&|s| table.stored_value(s).unwrap().to_byte().unwrap() as u64);
        let wdl = time(&|s| tb.probe_wdl(s).unwrap() as u64);
        let probe = time(&|s| tb.probe(s).unwrap().to_byte().unwrap() as u64);
        println!("{class}: rank {rank:.0} ns, context {context:.0}, stored value {stored:.0}, wdl {wdl:.0}, probe {probe:.0}");
    }
}
