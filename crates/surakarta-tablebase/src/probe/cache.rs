//! A small shared cache of exact values for compact tables, so that a
//! search which meets the same position again (transpositions) does not
//! decode it again. Lock-free: each entry is two atomics, the first holding
//! the side to move's pieces and the value, the second the other side's
//! pieces xor-ed with the first, so a torn read (two writers) fails the key
//! check instead of giving another position's value.

use crate::value::Value;
use std::sync::atomic::{AtomicU64, Ordering};
use surakarta_index::Sides;

/// Entries: 2^20 (16 MiB, allocated on the first compact probe).
const BITS: u32 = 20;
/// Set in every written entry (an empty entry is all zeros).
const FILLED: u64 = 1 << 63;
/// Bits of a side's pieces.
const PIECES: u64 = (1 << 36) - 1;

/// Exact values by position, for compact tables.
pub(crate) struct ProbeCache {
    entries: Box<[[AtomicU64; 2]]>,
}

impl std::fmt::Debug for ProbeCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ProbeCache({} entries)", self.entries.len())
    }
}

impl ProbeCache {
    /// An empty cache.
    pub(crate) fn new() -> ProbeCache {
        ProbeCache {
            entries: (0..1usize << BITS)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
        }
    }

    #[inline]
    fn slot(&self, sides: Sides) -> &[AtomicU64; 2] {
        let h = (sides.us.bits().wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ sides.them.bits().wrapping_mul(0xc2b2_ae3d_27d4_eb4f))
            >> (64 - BITS);
        &self.entries[h as usize]
    }

    /// The value stored for `sides`, if it is there.
    #[inline]
    pub(crate) fn get(&self, sides: Sides) -> Option<Value> {
        let [a, b] = self.slot(sides);
        let first = a.load(Ordering::Relaxed);
        let second = b.load(Ordering::Relaxed);
        let hit = first & FILLED != 0
            && first & PIECES == sides.us.bits()
            && (second ^ first) == sides.them.bits();
        hit.then(|| Value::from_table_byte((first >> 40) as u8))
    }

    /// Remembers the exact value of `sides`.
    #[inline]
    pub(crate) fn put(&self, sides: Sides, value: Value) {
        let Some(byte) = value.to_byte() else {
            return;
        };
        let [a, b] = self.slot(sides);
        let first = FILLED | u64::from(byte) << 40 | (sides.us.bits() & PIECES);
        a.store(first, Ordering::Relaxed);
        b.store(sides.them.bits() ^ first, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use surakarta::Bitboard;

    #[test]
    fn remembers_and_tells_positions_apart() {
        let cache = ProbeCache::new();
        let a = Sides::new(
            Bitboard::from_bits_truncate(0b1011),
            Bitboard::from_bits_truncate(0b1_0000_0000),
        );
        let b = Sides::new(
            Bitboard::from_bits_truncate(0b1_0000_0000),
            Bitboard::from_bits_truncate(0b1011),
        );
        assert_eq!(cache.get(a), None);
        cache.put(a, Value::Win(5));
        assert_eq!(cache.get(a), Some(Value::Win(5)));
        assert_eq!(cache.get(b), None);
        cache.put(b, Value::Loss(0));
        assert_eq!(cache.get(b), Some(Value::Loss(0)));
        cache.put(a, Value::Draw);
        assert_eq!(cache.get(a), Some(Value::Draw));
    }
}
