//! Tight-loop timing of `rank` at 8 pieces (4v4), best of 7 runs: a check on
//! the criterion figures, whose harness adds a few nanoseconds per call here.
//!
//! `cargo run --release -p surakarta-index --example rank_speed`

use std::hint::black_box;
use std::time::Instant;
use surakarta::random::SplitMix;
use surakarta_index::{canonical_form, Indexer, Material, PlainIndexer, Sides, SymmetricIndexer};
fn main() {
    let material: Material = "4v4".parse().unwrap();
    let plain = PlainIndexer::new(material);
    let sym = SymmetricIndexer::new(material);
    let mut rng = SplitMix::new(0x9e37_79b9_7f4a_7c15);
    let pos: Vec<Sides> = (0..1 << 20)
        .map(|_| plain.unrank(rng.next_u64() % plain.size()).unwrap())
        .collect();
    let small: Vec<Sides> = pos[..1024].to_vec();
    for (name, set) in [("1M", &pos), ("1024", &small)] {
        let reps = (1 << 22) / set.len();
        let mut best = [f64::MAX; 3];
        for _ in 0..7 {
            let t = Instant::now();
            let mut acc = 0u64;
            for _ in 0..reps {
                for &s in set.iter() {
                    acc = acc.wrapping_add(plain.rank(black_box(s)).unwrap().index);
                }
            }
            black_box(acc);
            best[0] = best[0].min(t.elapsed().as_secs_f64() * 1e9 / (reps * set.len()) as f64);
            let t = Instant::now();
            for _ in 0..reps {
                for &s in set.iter() {
                    acc = acc.wrapping_add(sym.rank(black_box(s)).unwrap().index);
                }
            }
            black_box(acc);
            best[1] = best[1].min(t.elapsed().as_secs_f64() * 1e9 / (reps * set.len()) as f64);
            let t = Instant::now();
            for _ in 0..reps {
                for &s in set.iter() {
                    acc = acc.wrapping_add(canonical_form(black_box(s)).0.us.bits());
                }
            }
            black_box(acc);
            best[2] = best[2].min(t.elapsed().as_secs_f64() * 1e9 / (reps * set.len()) as f64);
        }
        println!(
            "{name}: plain {:.2} ns, symmetric {:.2} ns, canonical_form {:.2} ns",
            best[0], best[1], best[2]
        );
    }
}
