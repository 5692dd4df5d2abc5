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

const SEGMENT: u32 = 0x3f;

/// Calls `found(from, to)` for every capture path's end point that holds an
/// enemy piece. The same `(from, to)` pair may be reported more than once.
#[inline(always)]
fn for_each_capture_path(us: Bitboard, them: Bitboard, mut found: impl FnMut(Square, Square)) {
    let words = circuit::path_words(us | them);
    for c in Circuit::ALL {
        let w = (words >> (32 * c.index())) as u32;
        if w == 0 {
            continue;
        }
        let path = c.path();
        let occurrences = &OCCURRENCES[c.index()];
        for seg in 0..4 {
            let seg_bits = w & SEGMENT << (6 * seg);
            if seg_bits == 0 {
                continue;
            }
            // Forwards from the segment's last occupied position: the next
            // occupied position lies beyond an arc.
            let p = (31 - seg_bits.leading_zeros()) as usize;
            let from = path[p];
            if us.contains(from) {
                let rest = (w & !occurrences[from.index()]) as u64;
                if rest != 0 {
                    let doubled = rest | rest << PATH_LEN;
                    let mut q = p + 1 + (doubled >> (p + 1)).trailing_zeros() as usize;
                    if q >= PATH_LEN {
                        q -= PATH_LEN;
                    }
                    let to = path[q];
                    if them.contains(to) {
                        found(from, to);
                    }
                }
            }
            // Backwards from the segment's first occupied position.
            let p = seg_bits.trailing_zeros() as usize;
            let from = path[p];
            if us.contains(from) {
                let rest = (w & !occurrences[from.index()]) as u64;
                if rest != 0 {
                    let doubled = (rest | rest << PATH_LEN) & ((1 << (p + PATH_LEN)) - 1);
                    let mut q = 63 - doubled.leading_zeros() as usize;
                    if q >= PATH_LEN {
                        q -= PATH_LEN;
                    }
                    let to = path[q];
                    if them.contains(to) {
                        found(from, to);
                    }
                }
            }
        }
    }
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
