//! Study: how much a class's compact size falls if positions whose value
//! a capture decides are left free, beyond the wins in 1 (Syzygy's idea
//! carried to draws): a drawn position with a capture into a draw may
//! store any draw or loss, since a prober that reads a loss there finds
//! the drawing capture.
//!
//! `cargo run --release -p surakarta-tablebase --example capture_study -- DIR CLASS…`

use std::path::Path;
use surakarta::capture_moves;
use surakarta_index::{Indexer, Material, Sides};
use surakarta_tablebase::{ContextModel, Tablebase, Wdl};

/// What the captures of a position reach: the best of win (2), draw (1),
/// loss (0) for the side to move, or `None` without a capture.
fn best_capture(tb: &Tablebase, s: Sides) -> Option<u8> {
    let mut best = None;
    for m in capture_moves(s.us, s.them) {
        let after = Sides::new(s.them.without(m.to()), s.us.without(m.from()).with(m.to()));
        let v = if after.us.is_empty() {
            2
        } else {
            match tb.probe_wdl(after).unwrap() {
                Wdl::Loss => 2,
                Wdl::Draw => 1,
                Wdl::Win => 0,
            }
        };
        best = best.max(Some(v));
        if v == 2 {
            break;
        }
    }
    best
}

/// Ranks per context by frequency; `kind` per slot: 0 exact, 1 any win,
/// 2 any non-win, 3 unused. Free slots take their context's most frequent
/// allowed value.
fn ranked(values: &[u8], ctx: &[u8], kind: &[u8], contexts: usize) -> Vec<u8> {
    let mut counts = vec![[0u64; 256]; contexts];
    for i in 0..values.len() {
        if kind[i] == 0 {
            counts[ctx[i] as usize][values[i] as usize] += 1;
        }
    }
    let mut out = Vec::with_capacity(values.len());
    let mut rank_of = vec![[0u8; 256]; contexts];
    let mut first_win = vec![0u8; contexts];
    let mut first_other = vec![0u8; contexts];
    for c in 0..contexts {
        let mut order: Vec<usize> = (0..256).collect();
        order.sort_by_key(|&b| std::cmp::Reverse(counts[c][b]));
        for (r, &b) in order.iter().enumerate() {
            rank_of[c][b] = r as u8;
        }
        first_win[c] = order.iter().position(|&b| (1..=127).contains(&b)).unwrap() as u8;
        first_other[c] = order.iter().position(|&b| !(1..=127).contains(&b)).unwrap() as u8;
    }
    let mut prev = 0;
    for i in 0..values.len() {
        let c = ctx[i] as usize;
        let r = match kind[i] {
            0 => rank_of[c][values[i] as usize],
            1 => first_win[c],
            2 => first_other[c],
            _ => prev,
        };
        out.push(r);
        prev = r;
    }
    out
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
        let n = indexer.size() as usize;
        let model = ContextModel::for_material(material);
        let mut ctx = vec![0u8; n];
        let mut now = vec![3u8; n];
        let mut more = vec![3u8; n];
        let (mut free_wins, mut draws, mut free_draws, mut losses, mut cap_losses) =
            (0u64, 0u64, 0u64, 0u64, 0u64);
        indexer.for_each_in(0, n as u64, |i, s| {
            let i = i as usize;
            ctx[i] = model.of(s) as u8;
            let v = values[i];
            let best = best_capture(&tb, s);
            let (a, b) = match (v, best) {
                (1, Some(2)) => {
                    free_wins += 1;
                    (1, 1)
                }
                (0, Some(1)) => {
                    draws += 1;
                    free_draws += 1;
                    (0, 2)
                }
                (0, _) => {
                    draws += 1;
                    (0, 0)
                }
                (v, b) if v >= 128 => {
                    losses += 1;
                    cap_losses += u64::from(b.is_some());
                    (0, 0)
                }
                _ => (0, 0),
            };
            now[i] = a;
            more[i] = b;
        });
        let exact = vec![0u8; n];
        let contexts = model.contexts();
        let len_now =
            surakarta_tablebase::study_compact_len(&ranked(&values, &ctx, &now, contexts), &exact);
        let len_more =
            surakarta_tablebase::study_compact_len(&ranked(&values, &ctx, &more, contexts), &exact);
        println!(
            "{material}: {n} slots; free wins {free_wins}, draws {draws} (by a capture {free_draws}), losses {losses} (with a capture {cap_losses})"
        );
        println!(
            "  compact now {len_now} bytes, with free draws {len_more} bytes ({:.2}x)",
            len_now as f64 / len_more as f64
        );
    }
}
