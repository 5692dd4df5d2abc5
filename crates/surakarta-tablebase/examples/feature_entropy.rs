//! Study: conditional entropy of exact values given position features.
use std::collections::HashMap;
use std::path::Path;
use surakarta::{capture_moves, capture_targets, count_steps, Bitboard};
use surakarta_index::{Indexer, Material, Sides};
use surakarta_tablebase::{Tablebase, Wdl};

fn steps(us: Bitboard, them: Bitboard) -> Vec<Bitboard> {
    let empty = !(us | them);
    let mut out = Vec::new();
    for from in us {
        for to in Bitboard::from_square(from).neighbours() & empty {
            out.push(us.without(from).with(to));
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tb = unsafe { Tablebase::map_dir(Path::new(&args[0])) }.expect("tables");
    for class in &args[1..] {
        let material: Material = class.parse().expect("class");
        let table = tb.table(material).expect("table");
        let values = tb.values(material).expect("values").into_owned();
        let indexer = table.indexer();
        let n = indexer.size();
        let names = [
            "none",
            "safe",
            "theirsafe",
            "mob",
            "safe+theirsafe",
            "safe+safethreat",
            "safe+thr",
            "safe+theirsafe+thr",
            "safe4x+thsafe4",
        ];
        let mut counts: Vec<HashMap<u32, [u64; 256]>> = vec![HashMap::new(); names.len()];
        let mut exact = 0u64;
        indexer.for_each_in(0, n, |i, s| {
            let v = values[i as usize];
            let caps = capture_moves(s.us, s.them);
            let free = v == 1
                && caps.into_iter().any(|m| {
                    let after =
                        Sides::new(s.them.without(m.to()), s.us.without(m.from()).with(m.to()));
                    after.us.is_empty() || tb.probe_wdl(after).unwrap() == Wdl::Loss
                });
            if free {
                return;
            }
            exact += 1;
            let our = steps(s.us, s.them);
            let safe = our
                .iter()
                .filter(|u| capture_targets(s.them, **u).is_empty())
                .count() as u32;
            let safe_threat = our
                .iter()
                .filter(|u| {
                    capture_targets(s.them, **u).is_empty() && capture_targets(**u, s.them).any()
                })
                .count() as u32;
            let their = steps(s.them, s.us);
            let theirsafe = their
                .iter()
                .filter(|t| capture_targets(s.us, **t).is_empty())
                .count() as u32;
            let mob = count_steps(s.us, s.them);
            let thr = capture_targets(s.them, s.us).count();
            let f = [
                0,
                safe.min(3),
                theirsafe.min(3),
                mob.min(7),
                safe.min(3) * 4 + theirsafe.min(3),
                safe.min(3) * 4 + safe_threat.min(3),
                safe.min(3) * 4 + thr.min(3),
                safe.min(3) * 16 + theirsafe.min(3) * 4 + thr.min(3),
                safe.min(4) * 8 + theirsafe.min(7),
            ];
            for (k, &c) in f.iter().enumerate() {
                counts[k].entry(c).or_insert([0; 256])[v as usize] += 1;
            }
        });
        println!("{material}: {n} slots, {exact} exact");
        for (k, name) in names.iter().enumerate() {
            let mut bits = 0.0;
            for c in counts[k].values() {
                let t: u64 = c.iter().sum();
                for &x in c.iter() {
                    if x > 0 {
                        bits -= x as f64 * (x as f64 / t as f64).log2();
                    }
                }
            }
            println!(
                "  {name:>20}: {:.3} bits per exact slot, {:.3} per slot, {} contexts",
                bits / exact as f64,
                bits / n as f64,
                counts[k].len()
            );
        }
    }
}
