//! Fast move generation on bitboards.
//!
//! Steps come from precomputed neighbour masks (or, when only counting, from
//! eight whole-board shifts). Captures never walk point by point: each
//! circuit's occupancy is gathered into a 24-bit cyclic word with six table
//! lookups ([`circuit::path_words`]); then, because a capture must pass an arc,
//! only the last occupied position of each segment can capture forwards and
//! only the first can capture backwards. For each such candidate that belongs
//! to the side to move, one bit scan on the doubled word (its own point or
//! points cleared, since the mover's start counts as empty) finds the first
//! occupied point along the path; if it holds an enemy piece, that is a
//! capture. At most 16 candidates exist, whatever the number of pieces.

use crate::bitboard::Bitboard;
use crate::circuit::{self, Circuit, OCCURRENCES, PATH_LEN};
use crate::moves::{Move, MoveList};
use crate::square::Square;

/// `STEPS[sq]`: the points one step from `sq`.
const STEPS: [Bitboard; 36] = {
    let mut table = [Bitboard::EMPTY; 36];
    let mut s = 0;
    while s < 36 {
        table[s] = Bitboard(1 << s).neighbours();
        s += 1;
    }
    table
};

/// The points one step from `sq` in any of the eight directions.
#[inline]
pub const fn step_targets(sq: Square) -> Bitboard {
    STEPS[sq.index()]
}

/// Offsets of the eight segments in the combined word of both circuits
/// (small circuit in bits 0..24, large in bits 32..56).
const SEGMENT_OFFSETS: [u32; 8] = [0, 6, 12, 18, 32, 38, 44, 50];

/// The bits of the combined word whose position within its segment `r`
/// satisfies `keep(r)`.
const fn segment_mask(lo: u32, hi: u32) -> u64 {
    let mut mask = 0u64;
    let mut i = 0;
    while i < 8 {
        let mut r = lo;
        while r <= hi {
            mask |= 1 << (SEGMENT_OFFSETS[i] + r);
            r += 1;
        }
        i += 1;
    }
    mask
}

/// Positions with at least 1, 2, 4 earlier positions in their segment.
const AFTER_1: u64 = segment_mask(1, 5);
const AFTER_2: u64 = segment_mask(2, 5);
const AFTER_4: u64 = segment_mask(4, 5);
/// Positions with at least 1, 2, 4 later positions in their segment.
const BEFORE_1: u64 = segment_mask(0, 4);
const BEFORE_2: u64 = segment_mask(0, 3);
const BEFORE_4: u64 = segment_mask(0, 1);

/// The first (lowest) and last (highest) occupied position of every segment
/// of both circuits, by prefix and suffix ORs that stay inside segments.
#[inline(always)]
fn segment_ends(words: u64) -> (u64, u64) {
    let mut below = words;
    below |= (below << 1) & AFTER_1;
    below |= (below << 2) & AFTER_2;
    below |= (below << 4) & AFTER_4;
    let mut above = words;
    above |= (above >> 1) & BEFORE_1;
    above |= (above >> 2) & BEFORE_2;
    above |= (above >> 4) & BEFORE_4;
    let first = words & !((below << 1) & AFTER_1);
    let last = words & !((above >> 1) & BEFORE_1);
    (first, last)
}

/// `ALL_OCCURRENCES[c][i]`: every path position of the point at position `i`
/// of circuit `c` (itself, and its twin if the point is a crossing).
const ALL_OCCURRENCES: [[u32; PATH_LEN]; 2] = {
    let mut table = [[0u32; PATH_LEN]; 2];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < PATH_LEN {
            let sq = match c {
                0 => Circuit::Small.at(i),
                _ => Circuit::Large.at(i),
            };
            table[c][i] = OCCURRENCES[c][sq.index()];
            i += 1;
        }
        c += 1;
    }
    table
};

/// Calls `found(from, to)` for the end point of every capture path. The same
/// `(from, to)` pair may be reported more than once (at most 16 calls).
#[inline(always)]
fn for_each_capture_path(us: Bitboard, them: Bitboard, mut found: impl FnMut(Square, Square)) {
    let occupied = circuit::path_words(us | them);
    let ours = circuit::path_words(us);
    let (first, last) = segment_ends(occupied);
    // A capture passes an arc, so the next occupied position is in another
    // segment (or the same one, round the whole loop): only the last
    // occupied position of a segment can capture forwards, only the first
    // backwards.
    let mut forwards = last & ours;
    while forwards != 0 {
        let bit = forwards.trailing_zeros();
        forwards &= forwards - 1;
        let (c, p) = ((bit >> 5) as usize, (bit & 31) as usize);
        let w = (occupied >> (32 * c)) as u32;
        // The mover's own point or points count as empty.
        let rest = (w & !ALL_OCCURRENCES[c][p]) as u64;
        if rest == 0 {
            continue;
        }
        let doubled = rest | rest << PATH_LEN;
        let mut q = p + 1 + (doubled >> (p + 1)).trailing_zeros() as usize;
        if q >= PATH_LEN {
            q -= PATH_LEN;
        }
        if ours >> (32 * c + q) & 1 == 0 {
            found(Circuit::ALL[c].at(p), Circuit::ALL[c].at(q));
        }
    }
    let mut backwards = first & ours;
    while backwards != 0 {
        let bit = backwards.trailing_zeros();
        backwards &= backwards - 1;
        let (c, p) = ((bit >> 5) as usize, (bit & 31) as usize);
        let w = (occupied >> (32 * c)) as u32;
        let rest = (w & !ALL_OCCURRENCES[c][p]) as u64;
        if rest == 0 {
            continue;
        }
        let doubled = (rest | rest << PATH_LEN) & ((1 << (p + PATH_LEN)) - 1);
        let mut q = 63 - doubled.leading_zeros() as usize;
        if q >= PATH_LEN {
            q -= PATH_LEN;
        }
        if ours >> (32 * c + q) & 1 == 0 {
            found(Circuit::ALL[c].at(p), Circuit::ALL[c].at(q));
        }
    }
    let _ = them;
}

/// The distinct captures, at most 16, as packed moves; returns how many.
#[inline(always)]
fn distinct_captures(us: Bitboard, them: Bitboard, out: &mut [Move; 16]) -> usize {
    let mut n = 0;
    for_each_capture_path(us, them, |from, to| {
        let m = Move::capture(from, to);
        if !out[..n].contains(&m) && n < out.len() {
            out[n] = m;
            n += 1;
        }
    });
    n
}

/// Appends the captures of the side owning `us` against `them` to `list`.
#[inline]
pub(crate) fn generate_captures(us: Bitboard, them: Bitboard, list: &mut MoveList) {
    let mut buf = [Move::step(Square::ALL[0], Square::ALL[0]); 16];
    let n = distinct_captures(us, them, &mut buf);
    for &m in &buf[..n] {
        list.push(m);
    }
}

/// Appends all legal moves (captures first, then steps) to `list`.
#[inline]
pub(crate) fn generate(us: Bitboard, them: Bitboard, list: &mut MoveList) {
    generate_captures(us, them, list);
    let empty = !(us | them);
    for from in us {
        for to in STEPS[from.index()] & empty {
            list.push(Move::step(from, to));
        }
    }
}

/// The number of step moves, by eight whole-board shifts.
#[inline]
pub(crate) fn count_steps(us: Bitboard, them: Bitboard) -> u32 {
    let empty = (!(us | them)).0;
    let b = us.0;
    let not_f = b & !Bitboard::FILE_F.0; // may step east
    let not_a = b & !Bitboard::FILE_A.0; // may step west
    ((b << 6) & empty).count_ones()
        + ((b >> 6) & empty).count_ones()
        + ((not_f << 1) & empty).count_ones()
        + ((not_a >> 1) & empty).count_ones()
        + ((not_f << 7) & empty).count_ones()
        + ((not_f >> 5) & empty).count_ones()
        + ((not_a << 5) & empty).count_ones()
        + ((not_a >> 7) & empty).count_ones()
}

/// The number of legal moves, without building a list.
#[inline]
pub(crate) fn count(us: Bitboard, them: Bitboard) -> u32 {
    let mut buf = [Move::step(Square::ALL[0], Square::ALL[0]); 16];
    count_steps(us, them) + distinct_captures(us, them, &mut buf) as u32
}

/// The enemy points that the side owning `us` can capture.
#[inline]
pub(crate) fn capture_targets(us: Bitboard, them: Bitboard) -> Bitboard {
    let mut targets = Bitboard::EMPTY;
    for_each_capture_path(us, them, |_, to| targets.insert(to));
    targets
}

/// Whether the side owning `us` has at least one legal move.
#[inline]
pub(crate) fn has_moves(us: Bitboard, them: Bitboard) -> bool {
    if (us.neighbours() - us - them).any() {
        return true;
    }
    let mut any = false;
    for_each_capture_path(us, them, |_, _| any = true);
    any
}
