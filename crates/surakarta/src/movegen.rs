//! Fast move generation on bitboards.
//!
//! Steps come from precomputed neighbour masks (or, when only counting, from
//! eight whole-board shifts). Captures never walk point by point: both
//! circuits' occupancy is gathered into one word (24 bits per circuit, six
//! table lookups, [`circuit::path_words`]). A capture must pass an arc, so
//! only the last occupied position of a segment can capture forwards and only
//! the first backwards (at most 16 candidates). Prefix and suffix ORs inside
//! segments find those ends for all eight segments at once; for a candidate
//! that is not a crossing point and faces an occupied segment, the target is
//! that segment's nearest occupied position, decided for all such candidates
//! with segment flags. Only the remaining candidates (crossing points, whose
//! twin position counts as empty, and candidates facing an empty segment)
//! take one bit scan each on the doubled circuit word.

use crate::bitboard::Bitboard;
use crate::circuit::{self, Circuit, OCCURRENCES, PATH_LEN};
use crate::moves::{Move, MoveList};
use crate::square::Square;

/// `STEPS[sq]`: the points one step from `sq`.
const STEPS: [Bitboard; 36] = {
    let mut table = [Bitboard::EMPTY; 36];
    let mut s = 0;
    while s < 36 {
        table[s] = Bitboard::from_bits_truncate(1 << s).neighbours();
        s += 1;
    }
    table
};

/// The points one step from `sq` in any of the eight directions.
#[inline]
#[must_use]
pub const fn step_targets(sq: Square) -> Bitboard {
    STEPS[sq.index()]
}

/// Offsets of the eight segments in the combined word of both circuits
/// (small circuit in bits 0..24, large in bits 32..56).
const SEGMENT_OFFSETS: [u32; 8] = [0, 6, 12, 18, 32, 38, 44, 50];

/// The bits of the combined word at positions `lo..=hi` within every segment.
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

/// The top position of every segment, where segment-wide flags are kept.
const TOPS: u64 = segment_mask(5, 5);
/// The tops of segment 0 and of segment 3 of each circuit.
const FIRST_TOPS: u64 = 1 << 5 | 1 << 37;
const LAST_TOPS: u64 = 1 << 23 | 1 << 55;

/// Each position ORed with every earlier position of its segment.
#[inline(always)]
const fn smear_up(mut x: u64) -> u64 {
    x |= (x << 1) & AFTER_1;
    x |= (x << 2) & AFTER_2;
    x |= (x << 4) & AFTER_4;
    x
}

/// Each position ORed with every later position of its segment.
#[inline(always)]
const fn smear_down(mut x: u64) -> u64 {
    x |= (x >> 1) & BEFORE_1;
    x |= (x >> 2) & BEFORE_2;
    x |= (x >> 4) & BEFORE_4;
    x
}

/// Segment flags (at [`TOPS`]) moved so that segment `s` holds segment `s + 1`'s.
#[inline(always)]
const fn flags_of_next(flags: u64) -> u64 {
    ((flags >> 6) & (TOPS & !LAST_TOPS)) | ((flags << 18) & LAST_TOPS)
}

/// Segment flags (at [`TOPS`]) moved so that segment `s` holds segment `s - 1`'s.
#[inline(always)]
const fn flags_of_previous(flags: u64) -> u64 {
    ((flags << 6) & (TOPS & !FIRST_TOPS)) | ((flags >> 18) & FIRST_TOPS)
}

/// `SQUARE_AT[32 c + i]`: the point at position `i` of circuit `c`, so a bit
/// index of the combined word names its point directly.
const SQUARE_AT: [Square; 64] = {
    let mut table = [Square::ALL[0]; 64]; // positions 24..32 are never read
    let mut i = 0;
    while i < PATH_LEN {
        table[i] = Circuit::Small.at(i);
        table[32 + i] = Circuit::Large.at(i);
        i += 1;
    }
    table
};

/// The only bit of `word` within the segment whose top is `top`.
#[inline(always)]
fn bit_in_segment(word: u64, top: u32) -> usize {
    ((word >> (top - 5)) & 0x3f).trailing_zeros() as usize + (top - 5) as usize
}

/// `ALL_OCCURRENCES[c][i]`: every path position of the point at position `i`
/// of circuit `c` (itself, and its twin if the point is a crossing).
const ALL_OCCURRENCES: [[u32; PATH_LEN]; 2] = {
    let mut table = [[0u32; PATH_LEN]; 2];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < PATH_LEN {
            table[c][i] = OCCURRENCES[c][SQUARE_AT[32 * c + i].index()];
            i += 1;
        }
        c += 1;
    }
    table
};

/// The positions of crossing points (those on their circuit twice), in the
/// combined word.
const CROSSINGS: u64 = {
    let mut mask = 0u64;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < PATH_LEN {
            if ALL_OCCURRENCES[c][i].count_ones() == 2 {
                mask |= 1 << (32 * c + i);
            }
            i += 1;
        }
        c += 1;
    }
    mask
};

/// The first occupied position strictly after `p` along circuit `c`, the
/// mover's own point or points (at `p`) counting as empty; `None` if there is
/// none.
#[inline(always)]
fn scan_forwards(occupied: u64, c: usize, p: usize) -> Option<usize> {
    let rest = ((occupied >> (32 * c)) as u32 & !ALL_OCCURRENCES[c][p]) as u64;
    if rest == 0 {
        return None;
    }
    let doubled = rest | rest << PATH_LEN;
    let q = p + 1 + (doubled >> (p + 1)).trailing_zeros() as usize;
    Some(if q >= PATH_LEN { q - PATH_LEN } else { q })
}

/// The first occupied position strictly before `p` along circuit `c`, as
/// [`scan_forwards`] in the other direction.
#[inline(always)]
fn scan_backwards(occupied: u64, c: usize, p: usize) -> Option<usize> {
    let rest = ((occupied >> (32 * c)) as u32 & !ALL_OCCURRENCES[c][p]) as u64;
    if rest == 0 {
        return None;
    }
    let doubled = (rest | rest << PATH_LEN) & ((1 << (p + PATH_LEN)) - 1);
    let q = 63 - doubled.leading_zeros() as usize;
    Some(if q >= PATH_LEN { q - PATH_LEN } else { q })
}

/// Calls `found(from, to)` for the end point of every capture path. The same
/// `(from, to)` pair may be reported more than once (at most 16 calls).
///
/// A capture passes an arc, so the first occupied position it meets lies in
/// another segment (or in its own, after the whole loop): only the last
/// occupied position of a segment can capture forwards, only the first
/// backwards. For a mover that is not a crossing point and whose next
/// segment along the direction is occupied, the target is that segment's
/// first (or last) occupied position: all such movers are decided at once
/// with segment flags. The rest (crossing points, whose twin counts as
/// empty, and movers facing an empty segment) are scanned one by one.
#[inline(always)]
fn for_each_capture_path(us: Bitboard, them: Bitboard, mut found: impl FnMut(Square, Square)) {
    debug_assert!((us & them).is_empty());
    for_each_capture_in_words(
        circuit::path_words(us | them),
        circuit::path_words(us),
        |from, to, _| found(SQUARE_AT[from], SQUARE_AT[to]),
    );
}

/// [`for_each_capture_path`] on path words: calls `found(from, to,
/// forwards)` with the bit indexes (in the combined word) of the mover and
/// of its target, and the direction travelled.
#[inline(always)]
fn for_each_capture_in_words(occupied: u64, ours: u64, found: impl FnMut(usize, usize, bool)) {
    for_each_capture_of_walk(&Walk::new(occupied, ours), found);
}

/// [`for_each_capture_in_words`] from the walk's flags: its movers and its
/// targets.
#[inline(always)]
fn for_each_capture_of_walk(w: &Walk, mut found: impl FnMut(usize, usize, bool)) {
    // Forwards.
    let mut hits = w.simple_forwards & flags_of_next(smear_up(w.first & w.targets));
    while hits != 0 {
        let top = hits.trailing_zeros();
        hits &= hits - 1;
        let next_top = if LAST_TOPS >> top & 1 != 0 {
            top - 18
        } else {
            top + 6
        };
        found(
            bit_in_segment(w.last, top),
            bit_in_segment(w.first, next_top),
            true,
        );
    }
    w.scan_rest(true, |from, to| {
        found(from, to, true);
        false
    });

    // Backwards.
    let mut hits = w.simple_backwards & flags_of_previous(smear_up(w.last & w.targets));
    while hits != 0 {
        let top = hits.trailing_zeros();
        hits &= hits - 1;
        let previous_top = if FIRST_TOPS >> top & 1 != 0 {
            top + 18
        } else {
            top - 6
        };
        found(
            bit_in_segment(w.first, top),
            bit_in_segment(w.last, previous_top),
            false,
        );
    }
    w.scan_rest(false, |from, to| {
        found(from, to, false);
        false
    });
}

/// The segment flags a capture walk starts from, for the movers `ours`
/// among the occupied positions `occupied` (both as path words), and the
/// pieces a capture may end at.
struct Walk {
    occupied: u64,
    first: u64,
    last: u64,
    /// The pieces a capture path may end at.
    targets: u64,
    /// Movers (last of their segment) forwards, and first backwards.
    movers_forwards: u64,
    movers_backwards: u64,
    /// Segment flags of the movers decided at once, each direction.
    simple_forwards: u64,
    simple_backwards: u64,
}

impl Walk {
    #[inline(always)]
    fn new(occupied: u64, ours: u64) -> Walk {
        Walk::with_targets(occupied, ours, occupied & !ours)
    }

    /// The walk of the movers `ours` that counts a capture path as ending
    /// at a target only when the first piece it meets is one of `targets`
    /// (path words, within `occupied`; they may be the movers' own).
    #[inline(always)]
    fn with_targets(occupied: u64, ours: u64, targets: u64) -> Walk {
        let below = smear_up(occupied);
        let above = smear_down(occupied);
        let first = occupied & !((below << 1) & AFTER_1);
        let last = occupied & !((above >> 1) & BEFORE_1);
        let nonempty = below & TOPS;
        let movers_forwards = last & ours;
        let movers_backwards = first & ours;
        Walk {
            occupied,
            first,
            last,
            targets,
            movers_forwards,
            movers_backwards,
            simple_forwards: flags_of_next(nonempty)
                & smear_up(movers_forwards & !CROSSINGS)
                & TOPS,
            simple_backwards: flags_of_previous(nonempty)
                & smear_up(movers_backwards & !CROSSINGS)
                & TOPS,
        }
    }

    /// Scans the movers the flags do not decide, one by one, in one
    /// direction, calling `found(from, to)` (bit indexes of the combined
    /// word) for each capture until it returns `true`; returns whether it
    /// did.
    #[inline(always)]
    fn scan_rest(&self, forwards: bool, mut found: impl FnMut(usize, usize) -> bool) -> bool {
        let (movers, simple) = if forwards {
            (self.movers_forwards, self.simple_forwards)
        } else {
            (self.movers_backwards, self.simple_backwards)
        };
        let mut rest = movers & !smear_down(simple);
        while rest != 0 {
            let bit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let (c, p) = (bit >> 5, bit & 31);
            let target = if forwards {
                scan_forwards(self.occupied, c, p)
            } else {
                scan_backwards(self.occupied, c, p)
            };
            if let Some(q) = target {
                if self.targets >> (32 * c + q) & 1 != 0 && found(bit, 32 * c + q) {
                    return true;
                }
            }
        }
        false
    }
}

/// Whether the side owning `us` has a capture against `them` (as if it
/// were to move), from raw bitboards like [`capture_moves`]: the same
/// segment flags as the generator, stopping at the first capture found.
#[inline]
#[must_use]
pub fn has_capture(us: Bitboard, them: Bitboard) -> bool {
    capture_in_words(circuit::path_words(us | them), circuit::path_words(us))
}

/// How many steps of the side owning `us` leave `them` without a capture,
/// counting up to `limit` (the count stops there).
///
/// The captures of `them` before any step are listed first (at most 16,
/// one walk of the circuits). A capture survives a step that neither moves
/// its target nor steps onto a point its path passes (all empty but the
/// capturing piece's own), so only the steps that move the target of every
/// capture or block every path need a test: [`has_capture`]'s test on
/// occupancy words updated in place. Most steps of a side under attack
/// are decided without one.
#[inline]
#[must_use]
pub fn count_safe_steps(us: Bitboard, them: Bitboard, limit: u32) -> u32 {
    if limit == 0 {
        return 0;
    }
    let occupied = circuit::path_words(us | them);
    let theirs = circuit::path_words(them);
    let empty = (!(us | them)).bits();
    if us.len() == 1 {
        // Every capture has the one piece as its target: listing them
        // would decide no step.
        return count_safe_steps_of(us, occupied, theirs, empty, limit);
    }
    // The captures of `them`: each target's point and the points passed.
    let mut targets = [0u64; 16];
    let mut passed = [0u64; 16];
    let mut n = 0;
    for_each_capture_in_words(occupied, theirs, |mover, target, forwards| {
        if n < targets.len() {
            targets[n] = 1 << SQUARE_AT[target].index();
            passed[n] = passed_points(mover, target, forwards);
            n += 1;
        }
    });
    let mut safe = 0;
    for from in us {
        // The steps that no capture survives: a capture of another target
        // survives unless the step lands on its path.
        let mut open = STEPS[from.index()].bits() & empty;
        for i in 0..n {
            if targets[i] != 1 << from.index() {
                open &= passed[i];
            }
        }
        let without = occupied & !SQUARE_WORDS[from.index()];
        for to in Bitboard::from_bits_truncate(open) {
            if !capture_in_words(without | SQUARE_WORDS[to.index()], theirs) {
                safe += 1;
                if safe == limit {
                    return safe;
                }
            }
        }
    }
    safe
}

/// [`count_safe_steps`] with a test after every step (`occupied` and
/// `theirs` as path words, `empty` the empty points).
#[inline(always)]
fn count_safe_steps_of(us: Bitboard, occupied: u64, theirs: u64, empty: u64, limit: u32) -> u32 {
    let mut safe = 0;
    for from in us {
        let without = occupied & !SQUARE_WORDS[from.index()];
        for to in Bitboard::from_bits_truncate(STEPS[from.index()].bits() & empty) {
            if !capture_in_words(without | SQUARE_WORDS[to.index()], theirs) {
                safe += 1;
                if safe == limit {
                    return safe;
                }
            }
        }
    }
    safe
}

/// `BETWEEN[c][lo][hi]`: the points at the positions of circuit `c`
/// strictly after `lo` and before `hi`, going forwards (round the end if
/// `hi <= lo`).
const BETWEEN: [[[u64; PATH_LEN]; PATH_LEN]; 2] = {
    let mut table = [[[0u64; PATH_LEN]; PATH_LEN]; 2];
    let mut c = 0;
    while c < 2 {
        let mut lo = 0;
        while lo < PATH_LEN {
            let mut points = 0u64;
            let mut k = (lo + 1) % PATH_LEN;
            while k != lo {
                table[c][lo][k] = points;
                points |= 1 << SQUARE_AT[32 * c + k].index();
                k = (k + 1) % PATH_LEN;
            }
            table[c][lo][lo] = points;
            lo += 1;
        }
        c += 1;
    }
    table
};

/// The points that a capture from bit `mover` to bit `target` (of the
/// combined word, same circuit) passes, travelling forwards or backwards.
#[inline(always)]
fn passed_points(mover: usize, target: usize, forwards: bool) -> u64 {
    let (c, p, q) = (mover >> 5, mover & 31, target & 31);
    if forwards {
        BETWEEN[c][p][q]
    } else {
        BETWEEN[c][q][p]
    }
}

/// [`count_safe_steps`] as plainly as possible: a full capture test after
/// every step. The reference that tests compare the fast count with.
#[doc(hidden)]
#[must_use]
pub fn count_safe_steps_reference(us: Bitboard, them: Bitboard, limit: u32) -> u32 {
    let mut safe = 0;
    for from in us {
        for to in STEPS[from.index()] & !(us | them) {
            if safe < limit && !has_capture(them, us.without(from).with(to)) {
                safe += 1;
            }
        }
    }
    safe
}

/// Each point's bits in the combined occupancy words of both circuits.
const SQUARE_WORDS: [u64; 36] = {
    let mut table = [0u64; 36];
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < PATH_LEN {
            table[SQUARE_AT[32 * c + i].index()] |= 1 << (32 * c + i);
            i += 1;
        }
        c += 1;
    }
    table
};

/// Whether the movers (`ours`, path words) have a capture among the
/// occupied positions (`occupied`, path words).
#[inline(always)]
fn capture_in_words(occupied: u64, ours: u64) -> bool {
    let w = Walk::new(occupied, ours);
    w.simple_forwards & flags_of_next(smear_up(w.first & w.targets)) != 0
        || w.simple_backwards & flags_of_previous(smear_up(w.last & w.targets)) != 0
        || w.scan_rest(true, |_, _| true)
        || w.scan_rest(false, |_, _| true)
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

/// The captures of the side owning `us` against the pieces `them`, from the
/// two bitboards alone (no [`Position`](crate::Position) built): what
/// [`Position::captures`](crate::Position::captures) returns when `us` is the
/// side to move. Meant for code that stores positions as bitboard pairs, such
/// as tablebase generators. Overlapping or off-board bits give meaningless
/// moves, never a panic.
///
/// # Examples
///
/// ```
/// use surakarta::{capture_moves, Bitboard, Move, Square};
///
/// let us = Bitboard::from_square(Square::B2);
/// let them = Bitboard::from_square(Square::B5);
/// assert_eq!(capture_moves(us, them)[..], [Move::capture(Square::B2, Square::B5)]);
/// ```
#[inline]
#[must_use]
pub fn capture_moves(us: Bitboard, them: Bitboard) -> MoveList {
    let mut list = MoveList::new();
    generate_captures(us, them, &mut list);
    list
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

/// The number of step moves of the side owning `us` against `them`, by eight
/// whole-board shifts (for evaluation: mobility).
#[inline]
#[must_use]
pub fn count_steps(us: Bitboard, them: Bitboard) -> u32 {
    let empty = (!(us | them)).bits();
    let b = us.bits();
    let not_f = b & !Bitboard::FILE_F.bits(); // may step east
    let not_a = b & !Bitboard::FILE_A.bits(); // may step west
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

/// What the captures of the side owning `us` against `them` come to: how
/// many distinct capture moves there are, which pieces can capture and
/// which enemy pieces can be captured (as if `us` were to move), from raw
/// bitboards like [`capture_moves`] but without building a move list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CaptureSets {
    /// Distinct capture moves: `capture_moves(us, them).len()`.
    pub moves: usize,
    /// The pieces of `us` that can capture.
    pub movers: Bitboard,
    /// The pieces of `them` that can be captured.
    pub targets: Bitboard,
}

/// The [`CaptureSets`] of the side owning `us` against `them`.
///
/// # Examples
///
/// ```
/// use surakarta::{capture_sets, Bitboard, Square};
///
/// let us = Bitboard::from_square(Square::B2);
/// let them = Bitboard::from_square(Square::B5) | Bitboard::from_square(Square::C3);
/// let sets = capture_sets(us, them);
/// assert_eq!(sets.moves, 1);
/// assert_eq!(sets.movers, us);
/// assert_eq!(sets.targets, Bitboard::from_square(Square::B5));
/// ```
#[inline]
#[must_use]
pub fn capture_sets(us: Bitboard, them: Bitboard) -> CaptureSets {
    let mut buf = [Move::step(Square::ALL[0], Square::ALL[0]); 16];
    let n = distinct_captures(us, them, &mut buf);
    let mut sets = CaptureSets {
        moves: n,
        ..CaptureSets::default()
    };
    for m in &buf[..n] {
        sets.movers.insert(m.from());
        sets.targets.insert(m.to());
    }
    sets
}

/// The enemy points that the side owning `us` can capture (as if it were to
/// move), from raw bitboards like [`capture_moves`].
///
/// # Examples
///
/// ```
/// use surakarta::{capture_targets, has_capture, Bitboard, Square};
///
/// let us = Bitboard::from_square(Square::B2);
/// let them = Bitboard::from_square(Square::B5) | Bitboard::from_square(Square::C3);
/// assert_eq!(capture_targets(us, them), Bitboard::from_square(Square::B5));
/// assert!(has_capture(us, them));
/// ```
#[inline]
#[must_use]
pub fn capture_targets(us: Bitboard, them: Bitboard) -> Bitboard {
    let mut targets = Bitboard::EMPTY;
    for_each_capture_path(us, them, |_, to| targets.insert(to));
    targets
}

/// The pieces of `us` that another piece of `us` could capture if an
/// enemy piece stood on their point, as after the opponent captures there:
/// the pieces whose capture can be answered by a recapture. The point the
/// capturing piece came from counts as occupied still. One walk of the
/// circuits answers for every piece.
///
/// # Examples
///
/// ```
/// use surakarta::{defended, Bitboard, Square};
///
/// // B2 could capture on B5 and B5 on B2, by the same path both ways.
/// let b2 = Bitboard::from_square(Square::B2);
/// let us = b2 | Bitboard::from_square(Square::B5);
/// let them = Bitboard::from_square(Square::C3);
/// assert_eq!(defended(us, them), us);
/// // A lone piece has nothing to recapture with.
/// assert_eq!(defended(b2, them), Bitboard::EMPTY);
/// ```
#[inline]
#[must_use]
pub fn defended(us: Bitboard, them: Bitboard) -> Bitboard {
    let ours = circuit::path_words(us);
    let walk = Walk::with_targets(circuit::path_words(us | them), ours, ours);
    let mut points = Bitboard::EMPTY;
    for_each_capture_of_walk(&walk, |_, to, _| points.insert(SQUARE_AT[to]));
    points
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossing_mask_names_the_crossings() {
        let names: Vec<String> = (0..64)
            .filter(|b| CROSSINGS >> b & 1 == 1)
            .map(|b| SQUARE_AT[b].to_string())
            .collect();
        let small = ["b2", "b5", "b5", "e5", "e5", "e2", "e2", "b2"];
        let large = ["c3", "c4", "c4", "d4", "d4", "d3", "d3", "c3"];
        assert_eq!(names, [&small[..], &large[..]].concat());
    }

    #[test]
    fn between_names_the_points_passed() {
        let points = |c: usize, lo: usize, hi: usize| -> Vec<String> {
            Bitboard::from_bits_truncate(BETWEEN[c][lo][hi])
                .into_iter()
                .map(|sq| sq.to_string())
                .collect()
        };
        // Small circuit, b1 (0) up to b4 (3): b2 and b3.
        assert_eq!(points(0, 0, 3), ["b2", "b3"]);
        // Round the end: a2 (23) to b2 (1) passes b1 only.
        assert_eq!(points(0, 23, 1), ["b1"]);
        assert_eq!(BETWEEN[1][4][5], 0);
    }

    /// Calls `check` with up to `n` random positions of 1 to `most` pieces
    /// a side, the side to move alternating, and their two sides' points.
    fn for_random_positions(
        seed: u64,
        n: usize,
        most: usize,
        mut check: impl FnMut(&crate::Position, Bitboard, Bitboard),
    ) {
        use crate::random::{random_position, SplitMix};
        use crate::Color;
        let mut rng = SplitMix::new(seed);
        for i in 0..n {
            let (a, b) = (1 + rng.below(most) as u32, 1 + rng.below(most) as u32);
            let turn = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            if let Ok(pos) = random_position(&mut rng, a, b, turn) {
                check(&pos, pos.pieces(turn), pos.pieces(!turn));
            }
        }
    }

    #[test]
    fn capture_sets_sum_up_the_capture_moves() {
        for_random_positions(17, 20_000, 12, |pos, us, them| {
            let moves = capture_moves(us, them);
            let sets = capture_sets(us, them);
            assert_eq!(sets.moves, moves.len(), "{pos}");
            assert_eq!(
                sets.movers,
                moves.iter().map(|m| m.from()).collect(),
                "{pos}"
            );
            assert_eq!(sets.targets, capture_targets(us, them), "{pos}");
        });
    }

    #[test]
    fn defended_pieces_are_those_a_recapture_reaches() {
        // The definition, point by point: an enemy piece on the point, could
        // the others take it?
        for_random_positions(19, 20_000, 12, |pos, us, them| {
            for (own, other) in [(us, them), (them, us)] {
                let expected: Bitboard = own
                    .iter()
                    .filter(|&sq| capture_targets(own.without(sq), other.with(sq)).contains(sq))
                    .collect();
                assert_eq!(defended(own, other), expected, "{pos}");
            }
        });
    }

    #[test]
    fn safe_steps_match_the_reference_on_random_positions() {
        for_random_positions(13, 40_000, 6, |pos, us, them| {
            for limit in [1, 3, 40] {
                assert_eq!(
                    count_safe_steps(us, them, limit),
                    count_safe_steps_reference(us, them, limit),
                    "{pos} limit {limit}"
                );
            }
        });
    }

    #[test]
    fn segment_flags_rotate_within_each_circuit() {
        for (c, base) in [(0u32, 0u32), (1, 32)] {
            for s in 0..4u32 {
                let top = 1u64 << (base + 6 * s + 5);
                let next = 1u64 << (base + 6 * ((s + 3) % 4) + 5);
                let previous = 1u64 << (base + 6 * ((s + 1) % 4) + 5);
                assert_eq!(flags_of_next(top), next, "circuit {c} segment {s}");
                assert_eq!(flags_of_previous(top), previous, "circuit {c} segment {s}");
            }
        }
    }

    #[test]
    fn capture_moves_match_the_position_captures() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut with_captures = 0;
        for _ in 0..20_000 {
            let (a, b) = (random(), random());
            let us = Bitboard::from_bits_truncate(a & b & Bitboard::FULL.bits());
            let them = Bitboard::from_bits_truncate(!a & b & random() & Bitboard::FULL.bits());
            let Ok(p) = crate::Position::from_sides(us, them, crate::Color::White) else {
                continue;
            };
            let fast = capture_moves(us, them);
            assert_eq!(&fast[..], &p.captures()[..], "{p}");
            with_captures += usize::from(!fast.is_empty());
        }
        assert!(with_captures > 1000, "{with_captures}");
    }
}
