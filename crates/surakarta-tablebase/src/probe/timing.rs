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

impl ProbeTiming {
    /// The memory [`time_probes`] takes for `probes` probes, in bytes: the
    /// positions drawn and one time per probe. A caller under a memory
    /// limit checks this first.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_tablebase::ProbeTiming;
    ///
    /// assert!(ProbeTiming::bytes_for(1_000_000) < 64 << 20);
    /// assert!(ProbeTiming::bytes_for(1 << 32) > 64 << 30);
    /// ```
    #[must_use]
    pub fn bytes_for(probes: usize) -> u64 {
        let each = std::mem::size_of::<Sides>() + std::mem::size_of::<Duration>();
        (probes as u64).saturating_mul(each as u64)
    }
}

/// Times `probes` probes of random positions spread over the loaded classes
/// with the most pieces, after a first probe of each class (timed apart:
/// [`ProbeTiming::first_probes`]). Fails with the first probe that fails
/// (a damaged table) or with [`TablebaseError::Allocation`] where the
/// system will not give the memory ([`ProbeTiming::bytes_for`]); with no
/// table loaded, nothing is timed.
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
    let cannot = |what| TablebaseError::Allocation {
        what,
        bytes: ProbeTiming::bytes_for(probes),
    };
    let mut positions: Vec<Sides> = Vec::new();
    positions
        .try_reserve_exact(probes)
        .map_err(|_| cannot("the positions of the probes to time"))?;
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
    let mut times: Vec<Duration> = Vec::new();
    times
        .try_reserve_exact(probes)
        .map_err(|_| cannot("the times of the probes"))?;
    let start = Instant::now();
    for &sides in &positions {
        let t = Instant::now();
        std::hint::black_box(tb.probe(sides)?);
        times.push(t.elapsed());
    }
    let mean = Duration::from_nanos(
        u64::try_from(start.elapsed().as_nanos() / probes as u128).unwrap_or(u64::MAX),
    );
    times.sort_unstable();
    let at = |q: u128| times[((probes as u128 * q / 100) as usize).min(probes - 1)];
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
