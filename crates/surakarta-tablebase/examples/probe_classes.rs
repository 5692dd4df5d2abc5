//! Study: per 8-piece class, median time of the stored value and of the
//! whole probe on random positions: `probe_classes DIR [N]`.
use std::path::Path;
use std::time::Instant;
use surakarta::random::SplitMix;
use surakarta_index::{Indexer, Material, Sides};
use surakarta_tablebase::Tablebase;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // SAFETY: files not modified while this runs.
    let tb = unsafe { Tablebase::map_dir(Path::new(&args[0])) }.unwrap();
    let n: usize = args.get(1).map_or(50_000, |s| s.parse().unwrap());
    let pieces: u32 = args.get(2).map_or(8, |s| s.parse().unwrap());
    for class in Material::with_pieces(pieces) {
        let table = tb.table(class).unwrap();
        let indexer = table.indexer();
        let mut rng = SplitMix::new(777);
        let mut positions: Vec<Sides> = Vec::new();
        while positions.len() < n {
            let from = rng.next_u64() % indexer.size();
            positions.extend(indexer.first_in(from, from + 4096));
        }
        let _ = tb.probe(positions[0]);
        let median = |f: &dyn Fn(Sides) -> u64| {
            let mut t: Vec<u64> = positions
                .iter()
                .map(|&s| {
                    let t = Instant::now();
                    std::hint::black_box(f(s));
                    t.elapsed().as_nanos() as u64
                })
                .collect();
            t.sort_unstable();
            (t[n / 2], t[n * 9 / 10])
        };
        let rank = median(&|s| indexer.rank(s).unwrap().index);
        let stored = median(&|s| table.stored_value(s).unwrap().to_byte().unwrap() as u64);
        let wdl = median(&|s| tb.probe_wdl(s).unwrap() as u64);
        let probe = median(&|s| tb.probe(s).unwrap().to_byte().unwrap() as u64);
        println!(
            "{class}: median/p90 ns: rank {rank:?} stored {stored:?} wdl {wdl:?} probe {probe:?}"
        );
    }
}
