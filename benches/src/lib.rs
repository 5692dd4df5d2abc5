//! Shared fixtures for the criterion benchmarks in `benches/benches/`.

use surakarta::random::SplitMix;
use surakarta::Position;
use surakarta_index::{Indexer, Material, PlainIndexer, Sides};

/// Positions used by the move generation benchmarks: the start, the two
/// capture-rich perft reference positions, a middlegame and an endgame.
pub const POSITIONS: [(&str, &str); 5] = [
    ("start", "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b"),
    ("reference-2", "ww3w/wb4/5w/6/6/b1w3 b"),
    ("reference-3", "ww1w2/5w/3bww/6/1w2b1/b3bb b"),
    ("middlegame", "w1ww1w/1w2w1/2wb2/1bw1b1/b3bb/1bb2b b"),
    ("endgame", "6/1w4/4w1/2b3/6/3b2 w"),
];

/// The benchmark positions, parsed.
pub fn positions() -> Vec<(&'static str, Position)> {
    POSITIONS
        .iter()
        .map(|&(name, fen)| (name, fen.parse().expect("benchmark position")))
        .collect()
}

/// `count` uniformly random positions of `material`: random plain indices
/// from `rng`, unranked.
pub fn random_sides(material: Material, rng: &mut SplitMix, count: usize) -> Vec<Sides> {
    let plain = PlainIndexer::new(material);
    (0..count)
        .map(|_| {
            plain
                .unrank(rng.next_u64() % plain.size())
                .expect("a plain index below the size")
        })
        .collect()
}
