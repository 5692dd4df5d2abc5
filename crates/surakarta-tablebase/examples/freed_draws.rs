//! Study: how the freed capture draws (exact draw, stored as a loss) spread
//! over the blocks of each compact class: `freed_draws C8P V8`.
use std::path::Path;
use surakarta_index::Material;
use surakarta_tablebase::Tablebase;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // SAFETY: files not modified while this runs.
    let c = unsafe { Tablebase::map_dir(Path::new(&args[0])) }.unwrap();
    let v = unsafe { Tablebase::map_dir(Path::new(&args[1])) }.unwrap();
    let pieces: u32 = args.get(2).map_or(8, |s| s.parse().unwrap());
    for class in Material::with_pieces(pieces) {
        let ct = c.table(class).unwrap();
        if !ct.capture_draws() {
            continue;
        }
        let shape = ct.header().compact.unwrap();
        let stored = ct.stored_bytes().unwrap();
        let exact = v.table(class).unwrap().payload().unwrap();
        let mut used = vec![false; exact.len()];
        ct.indexer()
            .for_each_in(0, exact.len() as u64, |i, _| used[i as usize] = true);
        let freed: Vec<u64> = (0..exact.len())
            .filter(|&i| used[i] && exact[i] == 0 && stored[i] != 0)
            .map(|i| i as u64)
            .collect();
        let draws = exact.iter().filter(|&&b| b == 0).count();
        let losses_stored = stored.iter().filter(|&&b| b >= 128).count();
        print!(
            "{class}: slots {} block 2^{} draws {draws} freed {} stored losses {losses_stored} |",
            exact.len(),
            shape.block_bits,
            freed.len()
        );
        for bits in [4u32, 6, 8, 10, 12, shape.block_bits] {
            let units = (exact.len() as u64).div_ceil(1 << bits);
            let mut hit = 0u64;
            let mut last = u64::MAX;
            for &f in &freed {
                if f >> bits != last {
                    last = f >> bits;
                    hit += 1;
                }
            }
            // share of stored losses that sit in units with a freed draw
            let mut in_hit = 0u64;
            let mut fi = 0;
            for u in 0..units {
                let s = (u << bits) as usize;
                let e = (((u + 1) << bits) as usize).min(exact.len());
                while fi < freed.len() && (freed[fi] as usize) < s {
                    fi += 1;
                }
                if fi < freed.len() && (freed[fi] as usize) < e {
                    in_hit += stored[s..e].iter().filter(|&&b| b >= 128).count() as u64;
                }
            }
            print!(
                " 2^{bits}: {:.1}% units, {:.1}% losses",
                100.0 * hit as f64 / units as f64,
                100.0 * in_hit as f64 / losses_stored.max(1) as f64
            );
        }
        println!();
    }
}
