//! The transposition table: lock-free entries shared by every search thread.
//!
//! Each entry is two `AtomicU64`s, the key stored xor-ed with the data
//! (Hyatt and Mann's lockless hashing): a torn write between threads makes
//! the key check fail, so a reader sees either a whole entry or none.
//! Entries sit in 64-byte clusters of four; a new entry replaces the same
//! key, else the entry that is shallowest once age is counted against it.
//! Scores are stored relative to the node ([`Score::to_table`]).

use core::sync::atomic::{AtomicU64, Ordering};
use rayon::prelude::*;
use surakarta::Move;

use crate::error::SearchError;
use crate::parameters::{TT_AGE_PENALTY, TT_KEEP_DEEPER};
use crate::score::Score;

/// What a stored score is: exact, or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (every move failed low).
    Upper = 1,
    /// The true score is at least this (a move failed high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// One table entry, unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best (or refuting) move found, if any.
    pub best: Option<Move>,
    /// The score, relative to the node (see [`Score::to_table`]).
    pub score: i32,
    /// The remaining depth it was searched to.
    pub depth: u8,
    /// Exact or bound.
    pub bound: Bound,
}

impl Entry {
    /// The score as seen from a node at `ply`.
    #[must_use]
    pub fn score_at(&self, ply: usize) -> Score {
        Score::from_table(self.score, ply)
    }

    fn pack(&self, generation: u8) -> u64 {
        let best = self.best.map_or(0xffff, |m| m.to_bits() as u64);
        best | ((self.score as i16 as u16 as u64) << 16)
            | (self.depth as u64) << 32
            | (self.bound as u64) << 40
            | (generation as u64) << 48
    }

    fn unpack(data: u64) -> Option<(Entry, u8)> {
        let bound = match (data >> 40) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        let bits = (data & 0xffff) as u16;
        let entry = Entry {
            best: if bits == 0xffff {
                None
            } else {
                Move::from_bits(bits)
            },
            score: (data >> 16) as u16 as i16 as i32,
            depth: (data >> 32) as u8,
            bound,
        };
        Some((entry, (data >> 48) as u8))
    }
}

#[derive(Default)]
struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

#[repr(align(64))]
#[derive(Default)]
struct Cluster([Slot; 4]);

/// Clusters cleared by one task of [`TranspositionTable::clear_in_pool`]
/// (1 MiB).
const CLEAR_CHUNK: usize = 1 << 14;

/// A fixed-size, thread-safe transposition table.
pub struct TranspositionTable {
    clusters: Vec<Cluster>,
    generation: AtomicU64,
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one cluster), or
    /// [`SearchError::HashAllocation`] if the memory cannot be had: the
    /// allocation is fallible, so a size the machine cannot give is an
    /// error, not an abort.
    pub fn new(megabytes: usize) -> Result<TranspositionTable, SearchError> {
        let fail = || SearchError::HashAllocation(megabytes);
        let bytes = megabytes.checked_mul(1 << 20).ok_or_else(fail)?;
        let count = (bytes / 64).max(1);
        let mut clusters = Vec::new();
        clusters.try_reserve_exact(count).map_err(|_| fail())?;
        clusters.resize_with(count, Cluster::default);
        Ok(TranspositionTable {
            clusters,
            generation: AtomicU64::new(0),
        })
    }

    /// The size in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.clusters.len() * 64
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.clusters.fill_with(Cluster::default);
        *self.generation.get_mut() = 0;
    }

    /// [`TranspositionTable::clear`] split over the threads of the rayon
    /// pool it is called in (the engine's; called outside one, rayon's
    /// global pool would start).
    pub(crate) fn clear_in_pool(&mut self) {
        self.clusters
            .par_chunks_mut(CLEAR_CHUNK)
            .for_each(|chunk| chunk.fill_with(Cluster::default));
        *self.generation.get_mut() = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed) as u8
    }

    fn cluster(&self, key: u64) -> &Cluster {
        let i = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[i]
    }

    /// The entry stored for `key`, if any.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for slot in &self.cluster(key).0 {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.key.load(Ordering::Relaxed) ^ data == key {
                return Entry::unpack(data).map(|(e, _)| e);
            }
        }
        None
    }

    /// Stores an entry for `key`. A shallower result for the same key keeps
    /// the old move when it has none of its own.
    pub fn store(&self, key: u64, mut entry: Entry) {
        let generation = self.generation();
        let cluster = self.cluster(key);
        let mut victim = &cluster.0[0];
        let mut victim_worth = i32::MAX;
        for slot in &cluster.0 {
            let data = slot.data.load(Ordering::Relaxed);
            let stored_key = slot.key.load(Ordering::Relaxed) ^ data;
            let unpacked = Entry::unpack(data);
            if stored_key == key {
                if let Some((old, _)) = unpacked {
                    if entry.best.is_none() {
                        entry.best = old.best;
                    }
                    if entry.bound != Bound::Exact && entry.depth + TT_KEEP_DEEPER < old.depth {
                        return;
                    }
                }
                victim = slot;
                break;
            }
            let worth = match unpacked {
                None => i32::MIN,
                Some((old, g)) => {
                    old.depth as i32 - TT_AGE_PENALTY * generation.wrapping_sub(g) as i32
                }
            };
            if worth < victim_worth {
                victim_worth = worth;
                victim = slot;
            }
        }
        let data = entry.pack(generation);
        victim.key.store(key ^ data, Ordering::Relaxed);
        victim.data.store(data, Ordering::Relaxed);
    }

    /// Permille of sampled slots written by the current search.
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let sample = self.clusters.len().min(250);
        let used = self.clusters[..sample]
            .iter()
            .flat_map(|c| c.0.iter())
            .filter(|s| {
                Entry::unpack(s.data.load(Ordering::Relaxed)).is_some_and(|(_, g)| g == generation)
            })
            .count();
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(depth: u8, score: i32, bound: Bound) -> Entry {
        let best = "b2-c3"
            .parse::<surakarta::MoveText>()
            .ok()
            .map(|t| Move::step(t.from, t.to));
        Entry {
            best,
            score,
            depth,
            bound,
        }
    }

    #[test]
    fn stores_and_probes_round_trip() {
        let tt = TranspositionTable::new(1).unwrap();
        for (i, bound) in [Bound::Upper, Bound::Lower, Bound::Exact]
            .into_iter()
            .enumerate()
        {
            let key = 0x1234_5678_9abc_def0 ^ i as u64;
            let e = entry(7 + i as u8, -29_876 + i as i32, bound);
            tt.store(key, e);
            assert_eq!(tt.probe(key), Some(e));
        }
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn clearing_on_a_pool_forgets_every_entry() {
        let mut tt = TranspositionTable::new(4).unwrap();
        let keys: Vec<u64> = (1..=5_000u64)
            .map(|k| k.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        for &k in &keys {
            tt.store(k, entry(3, 1, Bound::Exact));
        }
        assert!(tt.hashfull() > 0);
        tt.new_search();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        pool.install(|| tt.clear_in_pool());
        assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
        assert_eq!((tt.hashfull(), *tt.generation.get_mut()), (0, 0));
    }

    #[test]
    fn a_torn_entry_fails_the_key_check() {
        let tt = TranspositionTable::new(1).unwrap();
        let key = 0xdead_beef_u64;
        tt.store(key, entry(5, 10, Bound::Exact));
        // Simulate another thread's data landing without its key.
        let slot = tt
            .cluster(key)
            .0
            .iter()
            .find(|s| s.data.load(Ordering::Relaxed) != 0)
            .unwrap();
        slot.data
            .store(entry(9, 99, Bound::Lower).pack(0), Ordering::Relaxed);
        assert_eq!(tt.probe(key), None);
    }

    #[test]
    fn full_clusters_evict_the_shallowest() {
        let tt = TranspositionTable::new(0).unwrap(); // one cluster: every key collides
        for k in 1..=4u64 {
            tt.store(k, entry(k as u8 * 2, 0, Bound::Exact));
        }
        tt.store(99, entry(5, 0, Bound::Exact));
        assert_eq!(tt.probe(1), None, "depth 2 is the victim");
        assert!(tt.probe(2).is_some() && tt.probe(99).is_some());
        // After a new search, old deep entries become victims too.
        for _ in 0..3 {
            tt.new_search();
        }
        tt.store(100, entry(1, 0, Bound::Exact));
        assert!(tt.probe(100).is_some());
        assert!(tt.hashfull() > 0);
    }

    #[test]
    fn a_table_too_large_to_allocate_is_an_error() {
        assert_eq!(TranspositionTable::new(1).unwrap().bytes(), 1 << 20);
        // More bytes than a `usize` holds.
        assert_eq!(
            TranspositionTable::new(usize::MAX).err(),
            Some(SearchError::HashAllocation(usize::MAX))
        );
        // A size a `Vec` may have but no allocator gives (2^62 bytes): the
        // allocator's refusal, which used to abort the process.
        #[cfg(target_pointer_width = "64")]
        {
            let megabytes = 1 << 42;
            assert_eq!(
                TranspositionTable::new(megabytes).err(),
                Some(SearchError::HashAllocation(megabytes))
            );
        }
    }
}
