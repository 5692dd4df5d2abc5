//! Zobrist hashing keys.
//!
//! A position's hash is the XOR of one key per (colour, point) piece and, when
//! White is to move, [`TURN_KEY`]. The keys come from a fixed SplitMix64
//! sequence, so hashes are the same on every platform and in every release of
//! the same major version.

use crate::color::Color;
use crate::splitmix::splitmix64;
use crate::square::Square;

const KEYS: ([[u64; 36]; 2], u64) = {
    let mut keys = [[0u64; 36]; 2];
    let mut state = 0x5375_7261_6b61_7274; // "Surakart"
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 36 {
            let (next, key) = splitmix64(state);
            state = next;
            keys[c][s] = key;
            s += 1;
        }
        c += 1;
    }
    let (_, turn) = splitmix64(state);
    (keys, turn)
};

/// Key XORed into the hash when White is to move.
pub const TURN_KEY: u64 = KEYS.1;

/// The key of a piece of `color` on `sq`.
#[inline]
#[must_use]
pub const fn piece_key(color: Color, sq: Square) -> u64 {
    KEYS.0[color.index()][sq.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = Color::ALL
            .iter()
            .flat_map(|&c| Square::ALL.iter().map(move |&s| piece_key(c, s)))
            .collect();
        all.push(TURN_KEY);
        assert!(all.iter().all(|&k| k != 0));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
