//! The two capture circuits.
//!
//! Each circuit is a closed path of 24 points made of four straight segments of
//! six points joined by four corner arcs. Positions along the path are numbered
//! `0..24`; segment `s` holds positions `6s..6s+6` and an arc joins position
//! `6s + 5` to position `6s + 6` (mod 24). A point where the circuit crosses
//! itself appears at two positions.
//!
//! ```text
//!  small circuit (files b, e; ranks 2, 5; radius-1 arcs)
//!  segment 0: b1 b2 b3 b4 b5 b6  ─arc around a6→  segment 1: a5 b5 c5 d5 e5 f5
//!  ─arc around f6→ segment 2: e6 e5 e4 e3 e2 e1  ─arc around f1→
//!  segment 3: f2 e2 d2 c2 b2 a2  ─arc around a1→ back to b1
//!
//!  large circuit (files c, d; ranks 3, 4; radius-2 arcs)
//!  segment 0: c1 … c6 ─arc→ segment 1: a4 … f4 ─arc→ segment 2: d6 … d1 ─arc→
//!  segment 3: f3 … a3 ─arc→ back to c1
//! ```

use crate::bitboard::Bitboard;
use crate::square::Square;
use core::fmt;

/// Number of positions on a circuit's path.
pub const PATH_LEN: usize = 24;

/// One of the two capture circuits.
///
/// # Examples
///
/// ```
/// use surakarta::{Circuit, Square, PATH_LEN};
///
/// let small = Circuit::Small;
/// assert_eq!(small.path().len(), PATH_LEN);
/// assert!(small.squares().contains(Square::B2));
/// assert!(!Circuit::Large.squares().contains(Square::B2));
/// // b2 is one of the small circuit's self-crossings: it lies on the path twice.
/// assert_eq!(small.positions(Square::B2).count(), 2);
/// assert!(small.crossings().contains(Square::B2));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Circuit {
    /// The inner circuit: files b and e, ranks 2 and 5, radius-1 corner arcs.
    Small = 0,
    /// The outer circuit: files c and d, ranks 3 and 4, radius-2 corner arcs.
    Large = 1,
}

const fn sq(file: u8, rank: u8) -> Square {
    match Square::new(rank * 6 + file) {
        Some(s) => s,
        None => panic!("square out of range"),
    }
}

/// Builds the path of a circuit whose files are `k` and `5 - k` and whose ranks
/// are `k` and `5 - k` (0-based), `k = 1` for the small circuit, `2` for the large.
const fn build_path(k: u8) -> [Square; PATH_LEN] {
    let far = 5 - k;
    let mut path = [sq(0, 0); PATH_LEN];
    let mut i = 0;
    while i < 6 {
        let t = i as u8;
        path[i] = sq(k, t); // up file k
        path[6 + i] = sq(t, far); // along rank 6-k eastwards
        path[12 + i] = sq(far, 5 - t); // down file 6-k
        path[18 + i] = sq(5 - t, k); // along rank k westwards
        i += 1;
    }
    path
}

const PATHS: [[Square; PATH_LEN]; 2] = [build_path(1), build_path(2)];

const fn build_occurrences(path: &[Square; PATH_LEN]) -> [u32; 36] {
    let mut occ = [0u32; 36];
    let mut i = 0;
    while i < PATH_LEN {
        occ[path[i].index()] |= 1 << i;
        i += 1;
    }
    occ
}

/// For each circuit and square, the set of path positions (a 24-bit mask) where
/// the square lies on that circuit's path.
pub(crate) const OCCURRENCES: [[u32; 36]; 2] =
    [build_occurrences(&PATHS[0]), build_occurrences(&PATHS[1])];

/// `PATH_LOOKUP[r][bits]`: the contribution of rank `r`'s occupancy `bits`
/// (6 bits, file a = bit 0) to both circuits' cyclic occupancy words; the
/// small circuit's 24 bits in bits 0..24, the large circuit's in bits 32..56.
pub(crate) const PATH_LOOKUP: [[u64; 64]; 6] = {
    let mut table = [[0u64; 64]; 6];
    let mut rank = 0;
    while rank < 6 {
        let mut bits = 0;
        while bits < 64 {
            let mut word = 0u64;
            let mut file = 0;
            while file < 6 {
                if bits >> file & 1 == 1 {
                    let s = rank * 6 + file;
                    word |= OCCURRENCES[0][s] as u64 | (OCCURRENCES[1][s] as u64) << 32;
                }
                file += 1;
            }
            table[rank][bits] = word;
            bits += 1;
        }
        rank += 1;
    }
    table
};

/// Both circuits' cyclic occupancy words for the set `occupied`: bit `i` of the
/// low 32 bits is set if the small circuit's position `i` is occupied, bit
/// `32 + i` likewise for the large circuit.
#[inline]
pub(crate) fn path_words(occupied: Bitboard) -> u64 {
    let b = occupied.bits();
    PATH_LOOKUP[0][(b & 63) as usize]
        | PATH_LOOKUP[1][(b >> 6 & 63) as usize]
        | PATH_LOOKUP[2][(b >> 12 & 63) as usize]
        | PATH_LOOKUP[3][(b >> 18 & 63) as usize]
        | PATH_LOOKUP[4][(b >> 24 & 63) as usize]
        | PATH_LOOKUP[5][(b >> 30 & 63) as usize]
}

impl Circuit {
    /// Both circuits, small first.
    pub const ALL: [Circuit; 2] = [Circuit::Small, Circuit::Large];

    /// Index 0 (small) or 1 (large).
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The 24 positions of the closed path, in travel order; an arc follows
    /// positions 5, 11, 17 and 23.
    #[inline]
    #[must_use]
    pub const fn path(self) -> &'static [Square; PATH_LEN] {
        &PATHS[self as usize]
    }

    /// The point at position `i` (taken mod 24) of the path.
    #[inline]
    #[must_use]
    pub const fn at(self, i: usize) -> Square {
        PATHS[self as usize][i % PATH_LEN]
    }

    /// Whether an arc joins position `i` to position `i + 1` (mod 24).
    #[inline]
    #[must_use]
    pub const fn arc_after(i: usize) -> bool {
        i % 6 == 5
    }

    /// The points on this circuit (20 distinct points; 4 appear twice).
    #[must_use]
    pub fn squares(self) -> Bitboard {
        self.path().iter().copied().collect()
    }

    /// The points where this circuit crosses itself (they appear twice on the path).
    #[must_use]
    pub fn crossings(self) -> Bitboard {
        Square::ALL
            .into_iter()
            .filter(|s| OCCURRENCES[self as usize][s.index()].count_ones() == 2)
            .collect()
    }

    /// The cyclic occupancy word of this circuit for the points `occupied`:
    /// bit `i` (of 24) is set if position `i` of the path is occupied (a
    /// crossing point sets two bits). Six table lookups.
    #[inline]
    #[must_use]
    pub fn occupancy(self, occupied: Bitboard) -> u32 {
        Circuit::occupancies(occupied)[self as usize]
    }

    /// Both circuits' occupancy words ([`Circuit::occupancy`]), small
    /// first, from one gather of the board.
    #[inline]
    #[must_use]
    pub fn occupancies(occupied: Bitboard) -> [u32; 2] {
        let words = path_words(occupied);
        [
            words as u32 & 0x00ff_ffff,
            (words >> 32) as u32 & 0x00ff_ffff,
        ]
    }

    /// The path positions (`0..24`) at which `sq` lies: none, one or two.
    pub fn positions(self, sq: Square) -> impl Iterator<Item = usize> {
        let mask = OCCURRENCES[self as usize][sq.index()];
        (0..PATH_LEN).filter(move |i| mask >> i & 1 == 1)
    }

    /// The English name, `"small"` or `"large"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Circuit::Small => "small",
            Circuit::Large => "large",
        }
    }
}

impl fmt::Display for Circuit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(c: Circuit) -> String {
        c.path()
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn paths_as_documented() {
        assert_eq!(
            names(Circuit::Small),
            "b1 b2 b3 b4 b5 b6 a5 b5 c5 d5 e5 f5 e6 e5 e4 e3 e2 e1 f2 e2 d2 c2 b2 a2"
        );
        assert_eq!(
            names(Circuit::Large),
            "c1 c2 c3 c4 c5 c6 a4 b4 c4 d4 e4 f4 d6 d5 d4 d3 d2 d1 f3 e3 d3 c3 b3 a3"
        );
    }

    #[test]
    fn occupancy_words_mark_every_position_of_an_occupied_point() {
        let mut board = Bitboard::EMPTY;
        for (k, sq) in Square::ALL.into_iter().enumerate() {
            if k % 3 != 1 {
                board.insert(sq);
            }
        }
        for c in Circuit::ALL {
            let word = c.occupancy(board);
            for (i, &sq) in c.path().iter().enumerate() {
                assert_eq!(word >> i & 1 == 1, board.contains(sq), "{} {i}", c.name());
            }
            assert_eq!(word >> PATH_LEN, 0);
            assert_eq!(Circuit::occupancies(board)[c as usize], word);
            assert_eq!(c.occupancy(Bitboard::EMPTY), 0);
        }
    }

    #[test]
    fn crossings_and_coverage() {
        let small: Vec<String> = Circuit::Small
            .crossings()
            .iter()
            .map(|s| s.to_string())
            .collect();
        let large: Vec<String> = Circuit::Large
            .crossings()
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(small, ["b2", "e2", "b5", "e5"]);
        assert_eq!(large, ["c3", "d3", "c4", "d4"]);
        assert_eq!(Circuit::Small.squares().len(), 20);
        assert_eq!(Circuit::Large.squares().len(), 20);
        let on_some = Circuit::Small.squares() | Circuit::Large.squares();
        assert_eq!(
            on_some,
            !Bitboard::CORNERS,
            "corners lie on no circuit, all else on one"
        );
    }

    #[test]
    fn arcs_join_points_next_to_a_corner() {
        // An arc of radius r around a corner joins the two points at distance r
        // from that corner along the board's edges.
        for (c, r) in [(Circuit::Small, 1i8), (Circuit::Large, 2)] {
            for i in (5..PATH_LEN).step_by(6) {
                let (a, b) = (c.at(i), c.at(i + 1));
                let corner = |s: Square| {
                    let (x, y) = (s.file().index() as i8, s.rank().index() as i8);
                    let cx = if x < 3 { 0 } else { 5 };
                    let cy = if y < 3 { 0 } else { 5 };
                    ((cx, cy), (x - cx).abs() + (y - cy).abs())
                };
                let (ca, da) = corner(a);
                let (cb, db) = corner(b);
                assert_eq!(ca, cb, "{c} arc {a}-{b} around one corner");
                assert_eq!((da, db), (r, r), "{c} arc {a}-{b} radius");
                assert!(a.file() != b.file() && a.rank() != b.rank());
            }
        }
    }

    #[test]
    fn straight_steps_are_adjacent() {
        for c in Circuit::ALL {
            for i in 0..PATH_LEN {
                if Circuit::arc_after(i) {
                    continue;
                }
                let (a, b) = (c.at(i), c.at(i + 1));
                let dx = (a.file().index() as i8 - b.file().index() as i8).abs();
                let dy = (a.rank().index() as i8 - b.rank().index() as i8).abs();
                assert_eq!(dx + dy, 1, "{c}: {a} to {b}");
            }
        }
    }

    #[test]
    fn path_words_match_definition() {
        let occ = Bitboard::from_bits_truncate(0x9_5a3c_71e4);
        let words = path_words(occ);
        for c in Circuit::ALL {
            for i in 0..PATH_LEN {
                let bit = words >> (32 * c.index() + i) & 1 == 1;
                assert_eq!(bit, occ.contains(c.at(i)));
            }
        }
    }
}
