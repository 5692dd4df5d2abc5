//! Probe timing: how long one probe of a random position takes, for
//! `surakarta bench --tb` and the `probe_speed` example. A position is
//! drawn by a fixed generator (the same set on every run), so two tables
//! directories, or two builds, are compared on the same probes.

use std::time::Duration;
use web_time::Instant;

use surakarta_index::{Indexer, Material, Sides};

use crate::probe::tablebase::Tablebase;

use crate::error::TablebaseError;

/// What timing the probes of a set of classes measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeTiming {
    /// The classes probed: every loaded class with the most pieces, the
    /// side to move's count descending.
    pub classes: Vec<Material>,
    /// Probes timed.
    pub probes: usize,
    /// The first probe of each class, which also checks the table's
    /// checksum (reads the whole file): the cost of a cold table, summed
    /// over the classes.
    pub first_probes: Duration,
    /// Median time of one probe (tables checked, files in the page cache).
    pub median: Duration,
    /// 90th percentile.
    pub p90: Duration,
    /// 99th percentile.
    pub p99: Duration,
    /// Mean over every timed probe.
    pub mean: Duration,
}

/// Times `probes` probes of random positions spread over the loaded classes
/// with the most pieces, after a first probe of each class (timed apart:
/// [`ProbeTiming::first_probes`]). Fails with the first probe that fails
/// (a damaged table); with no table loaded, nothing is timed.
pub fn time_probes(tb: &Tablebase, probes: usize) -> Result<ProbeTiming, TablebaseError> {
    let most = tb.materials().map(|m| m.pieces()).max().unwrap_or(0);
    let classes: Vec<Material> = Material::with_pieces(most)
        .filter(|&m| tb.table(m).is_some())
        .collect();
    if classes.is_empty() || probes == 0 {
        return Ok(ProbeTiming {
            classes,
            probes: 0,
            first_probes: Duration::ZERO,
            median: Duration::ZERO,
            p90: Duration::ZERO,
            p99: Duration::ZERO,
            mean: Duration::ZERO,
        });
    }
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut positions: Vec<Sides> = Vec::with_capacity(probes);
    let mut firsts: Vec<Option<Sides>> = vec![None; classes.len()];
    while positions.len() < probes {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let class = (state >> 59) as usize % classes.len();
        let indexer = tb.lookup(classes[class])?.indexer();
        let from = (state >> 11) % indexer.size();
        // The first used slot from a random index on.
        if let Some(s) = indexer.first_in(from, from + 4096) {
            firsts[class].get_or_insert(s);
            positions.push(s);
        }
    }
    let start = Instant::now();
    for sides in firsts.into_iter().flatten() {
        tb.probe(sides)?;
    }
    let first_probes = start.elapsed();
    let mut times: Vec<Duration> = Vec::with_capacity(probes);
    let start = Instant::now();
    for &sides in &positions {
        let t = Instant::now();
        std::hint::black_box(tb.probe(sides)?);
        times.push(t.elapsed());
    }
    let mean = start.elapsed() / probes as u32;
    times.sort_unstable();
    let at = |q: usize| times[(probes * q / 100).min(probes - 1)];
    Ok(ProbeTiming {
        classes,
        probes,
        first_probes,
        median: at(50),
        p90: at(90),
        p99: at(99),
        mean,
    })
}
