//! Study: how much cheap position features (computed at probe time) tell
//! about a class's values. Prints H(V), H(V | context) and the compact size
//! of the values against the values ranked per context.
//!
//! `cargo run --release -p surakarta-tablebase --example context_study -- DIR CLASS…`

use std::collections::HashMap;
use std::path::Path;
use surakarta::{capture_moves, capture_targets, count_safe_steps};
use surakarta_index::{Indexer, Material, Sides};
use surakarta_tablebase::{ContextModel, Tablebase};

/// A candidate context: a function of a position.
type Feature = Box<dyn Fn(Sides) -> u64>;

/// Steps of the side to move after which the opponent cannot capture,
/// counted up to `limit`.
fn safe(s: Sides, limit: u32) -> u64 {
    u64::from(count_safe_steps(s.us, s.them, limit))
}

fn entropy(counts: &HashMap<u64, [u64; 256]>) -> f64 {
    let mut bits = 0.0;
    let mut total = 0u64;
    for c in counts.values() {
        let n: u64 = c.iter().sum();
        total += n;
        for &k in c.iter() {
            if k > 0 {
                bits -= k as f64 * (k as f64 / n as f64).log2();
            }
        }
    }
    bits / total as f64
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = Path::new(&args[0]);
    // SAFETY: not modified while this runs.
    let tb = unsafe { Tablebase::map_dir(dir) }.expect("tables");
    for class in &args[1..] {
        let material: Material = class.parse().expect("class");
        let table = tb.table(material).expect("table");
        let values = tb.values(material).expect("values").into_owned();
        let indexer = table.indexer();
        let n = indexer.size();
        let contexts: Vec<(&str, Feature)> = vec![
            ("none", Box::new(|_s: Sides| 0)),
            (
                "hascap",
                Box::new(|s: Sides| !capture_moves(s.us, s.them).is_empty() as u64),
            ),
            (
                "ourcaps",
                Box::new(|s: Sides| capture_moves(s.us, s.them).len().min(3) as u64),
            ),
            (
                "threats",
                Box::new(|s: Sides| capture_targets(s.them, s.us).len().min(3) as u64),
            ),
            (
                "caps+thr",
                Box::new(|s: Sides| {
                    capture_moves(s.us, s.them).len().min(3) as u64 * 4
                        + capture_targets(s.them, s.us).len().min(3) as u64
                }),
            ),
            ("safe", Box::new(|s: Sides| safe(s, 3))),
            (
                "safe+hascap",
                // The format's model 1.
                Box::new(|s: Sides| ContextModel::SafeSteps.of(s) as u64),
            ),
            ("safe7", Box::new(|s: Sides| safe(s, 7))),
            (
                "safe+caps+thr",
                Box::new(|s: Sides| {
                    safe(s, 3) * 16
                        + capture_moves(s.us, s.them).len().min(3) as u64 * 4
                        + capture_targets(s.them, s.us).len().min(3) as u64
                }),
            ),
        ];
        let mut ctx_of = vec![vec![u16::MAX; n as usize]; contexts.len()];
        indexer.for_each_in(0, n, |i, s| {
            for (k, (_, f)) in contexts.iter().enumerate() {
                ctx_of[k][i as usize] = f(s) as u16;
            }
        });
        let exact = vec![0u8; n as usize];
        // freedom: 2 unused, 1 win in 1 by capture
        let mut freedom = vec![2u8; n as usize];
        indexer.for_each_in(0, n, |i, s| {
            let free = values[i as usize] == 1
                && capture_moves(s.us, s.them).into_iter().any(|m| {
                    let after =
                        Sides::new(s.them.without(m.to()), s.us.without(m.from()).with(m.to()));
                    after.us.is_empty()
                        || tb.probe_wdl(after).unwrap() == surakarta_tablebase::Wdl::Loss
                });
            freedom[i as usize] = free as u8;
        });
        let base = surakarta_tablebase::study_compact_len(&values, &freedom);
        let base_exact = surakarta_tablebase::study_compact_len(&values, &exact);
        println!("  (exact, no don't-care: {base_exact} bytes)");
        println!(
            "{material}: {n} slots, compact {base} bytes ({:.3} bits/slot)",
            base as f64 * 8.0 / n as f64
        );
        for (k, (name, _)) in contexts.iter().enumerate() {
            let mut counts: HashMap<u64, [u64; 256]> = HashMap::new();
            for (i, &v) in values.iter().enumerate() {
                let c = ctx_of[k][i];
                if c == u16::MAX {
                    continue;
                }
                if freedom[i] == 0 {
                    counts.entry(c as u64).or_insert([0; 256])[v as usize] += 1;
                } else if freedom[i] == 1 {
                    counts.entry(c as u64).or_insert([0; 256])[1] += 1;
                }
            }
            let h = entropy(&counts);
            // rank per context
            let mut rank_of: HashMap<u64, [u8; 256]> = HashMap::new();
            for (c, cnt) in &counts {
                let mut order: Vec<usize> = (0..256).collect();
                order.sort_by_key(|&b| std::cmp::Reverse(cnt[b]));
                let mut r = [0u8; 256];
                for (rank, &b) in order.iter().enumerate() {
                    r[b] = rank as u8;
                }
                rank_of.insert(*c, r);
            }
            let mut ranked: Vec<u8> = Vec::with_capacity(values.len());
            let mut prev = 0u8;
            for (i, &v) in values.iter().enumerate() {
                let c = ctx_of[k][i];
                let r = if c == u16::MAX {
                    prev
                } else {
                    let ranks = &rank_of[&(c as u64)];
                    if freedom[i] == 1 {
                        // any win: the previous rank if it is a win here, else the best-ranked win
                        (1..=127usize).map(|w| ranks[w]).min().unwrap()
                    } else {
                        ranks[v as usize]
                    }
                };
                ranked.push(r);
                prev = r;
            }
            if let Ok(dump) = std::env::var("DUMP") {
                std::fs::write(format!("{dump}/{material}-{name}.bin"), &ranked).unwrap();
            }
            let len = surakarta_tablebase::study_compact_len(&ranked, &exact);
            let ctxs = counts.len();
            println!(
                "  {name:>14}: H = {h:.3} bits, ranked compact {len} bytes ({:.3} bits/slot, {:.2}x better), {ctxs} contexts",
                len as f64 * 8.0 / n as f64,
                base as f64 / len as f64
            );
        }
    }
}
