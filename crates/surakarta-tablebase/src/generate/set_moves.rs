//! What the moves of every position on one occupied set share, worked out
//! once for the set.
//!
//! The solver visits positions in index order, where all colourings of an
//! occupied set follow each other. Which piece a capture path meets first
//! depends on the occupied points alone, not on their colours; so does the
//! occupied set after a move, and with it the expensive part of ranking the
//! position reached (its least image under the board's symmetries and the
//! directory lookup, [`OccupancyRank`]). Each colouring then only filters
//! the shared captures by colour and ranks its own pattern.

use crate::error::TablebaseError;
use crate::probe::table::TableIndexer;
use crate::probe::tablebase::{CaptureTarget, Tablebase};
use crate::value::{Value, Wdl};
use surakarta::{capture_targets, Bitboard, Square};
use surakarta_index::{OccupancyImages, OccupancyRank, Sides};

/// The direction of a step `from → to` (0 to 7), by `to - from + 7`; steps
/// differ by -7, -6, -5, -1, 1, 5, 6 or 7 points.
const DIRECTION: [u8; 15] = [0, 1, 2, 8, 8, 8, 3, 8, 4, 8, 8, 8, 5, 6, 7];

/// The shared move data of the positions on one occupied set of one class,
/// filled in as the positions ask for it.
pub(crate) struct SetMoves {
    /// The class and the occupied set the data is for.
    key: (usize, Bitboard),
    /// Entries stamped with this are for the current set.
    stamp: u32,
    /// The images of the current set under the board's symmetries, once
    /// asked for.
    images: Option<OccupancyImages>,
    /// The points whose capture targets are known for the current set.
    attacks_known: Bitboard,
    /// By point: the points a piece there can capture if every other piece
    /// is an enemy (the first piece met on each capture path).
    attacks: [Bitboard; 36],
    /// By point a capture starts from: the ranks of the set it leaves, and
    /// the stamp of the set they are for.
    captures: [OccupancyRank; 36],
    capture_stamps: [u32; 36],
    /// By point and direction of a step: the ranks of the set it leaves,
    /// and the stamp of the set they are for.
    steps: [OccupancyRank; 36 * 8],
    step_stamps: [u32; 36 * 8],
    /// The ranks of a move that is not a step.
    other: OccupancyRank,
}

impl SetMoves {
    /// Empty shared data, on the heap (about 12 KiB).
    pub(crate) fn new() -> Box<SetMoves> {
        let none = OccupancyRank::unshared(Bitboard::EMPTY);
        Box::new(SetMoves {
            key: (usize::MAX, Bitboard::EMPTY),
            stamp: 0,
            images: None,
            attacks_known: Bitboard::EMPTY,
            attacks: [Bitboard::EMPTY; 36],
            captures: [none; 36],
            capture_stamps: [0; 36],
            steps: [none; 36 * 8],
            step_stamps: [0; 36 * 8],
            other: none,
        })
    }

    /// Makes the data that of the positions on `occupied` in `class`.
    #[inline]
    pub(crate) fn on(&mut self, class: usize, occupied: Bitboard) {
        if self.key != (class, occupied) {
            self.key = (class, occupied);
            self.stamp += 1;
            self.images = None;
            self.attacks_known = Bitboard::EMPTY;
        }
    }

    /// The points a piece on `from` can capture if every other piece of the
    /// set is an enemy; a position's captures from `from` are those of its
    /// enemy pieces.
    #[inline]
    pub(crate) fn attacks(&mut self, from: Square) -> Bitboard {
        if !self.attacks_known.contains(from) {
            self.attacks_known.insert(from);
            let occupied = self.key.1;
            self.attacks[from.index()] =
                capture_targets(Bitboard::from_square(from), occupied.without(from));
        }
        self.attacks[from.index()]
    }

    /// The captures of the position on the current set whose side to move
    /// holds `us` and the other side `them`, from the shared attacks.
    #[inline]
    pub(crate) fn captures(&mut self, us: Bitboard, them: Bitboard) -> Captures {
        let mut captures = Captures {
            moves: [(Square::ALL[0], Square::ALL[0]); 16],
            len: 0,
        };
        for from in us {
            for to in self.attacks(from) & them {
                if let Some(slot) = captures.moves.get_mut(captures.len) {
                    *slot = (from, to);
                    captures.len += 1;
                }
            }
        }
        captures
    }

    /// The value of `after`, reached by a capture from `from` on the
    /// current set (its side to move has a piece): read from `target`, the
    /// table captures reach when it is format 1 (see
    /// [`crate::probe::tablebase::capture_target`]), through the set's
    /// shared ranks; else [`Tablebase::probe_wdl`] of `smaller`.
    #[inline]
    pub(crate) fn capture_wdl(
        &mut self,
        smaller: &Tablebase,
        target: CaptureTarget<'_>,
        from: Square,
        after: Sides,
    ) -> Result<Wdl, TablebaseError> {
        if let Some((indexer, bytes)) = target {
            let shared = self.after_capture(indexer, from);
            let index = indexer.rank_in(shared, after.us)?;
            if let Some(&byte) = bytes.get(index as usize) {
                return Ok(Value::from_table_byte(byte).wdl());
            }
        }
        smaller.probe_wdl(after)
    }

    /// The images of the current set.
    #[inline]
    fn images(&mut self) -> OccupancyImages {
        *self
            .images
            .get_or_insert_with(|| OccupancyImages::new(self.key.1))
    }

    /// The ranks, in `target`, of the set after a capture from `from` (the
    /// set without `from`).
    #[inline]
    pub(crate) fn after_capture(&mut self, target: &TableIndexer, from: Square) -> &OccupancyRank {
        let i = from.index();
        if self.capture_stamps[i] != self.stamp {
            let images = self.images().toggled(from);
            self.captures[i] = target.occupancy_rank(&images);
            self.capture_stamps[i] = self.stamp;
        }
        &self.captures[i]
    }

    /// The ranks, in `partner`, of the set after a step `from → to`.
    #[inline(always)]
    pub(crate) fn after_step(
        &mut self,
        partner: &TableIndexer,
        from: Square,
        to: Square,
    ) -> &OccupancyRank {
        let delta = to.index() as isize - from.index() as isize + 7;
        let direction = DIRECTION.get(delta as usize).copied().unwrap_or(8);
        if direction >= 8 {
            return self.step_missed(partner, from, to, usize::MAX);
        }
        let i = from.index() * 8 + usize::from(direction);
        if self.step_stamps[i] != self.stamp {
            return self.step_missed(partner, from, to, i);
        }
        &self.steps[i]
    }

    /// [`SetMoves::after_step`] when the entry `i` is not for the current
    /// set (`usize::MAX`: the move is not a step and has no entry).
    #[cold]
    #[inline(never)]
    fn step_missed(
        &mut self,
        partner: &TableIndexer,
        from: Square,
        to: Square,
        i: usize,
    ) -> &OccupancyRank {
        let ranks = partner.occupancy_rank(&self.images().toggled(from).toggled(to));
        match (self.steps.get_mut(i), self.step_stamps.get_mut(i)) {
            (Some(entry), Some(stamp)) => {
                *entry = ranks;
                *stamp = self.stamp;
                entry
            }
            // Not a step (the solver asks for steps only): nothing shared.
            _ => {
                self.other = ranks;
                &self.other
            }
        }
    }
}

/// The captures of a position (at most 16, each `(from, to)`).
pub(crate) struct Captures {
    moves: [(Square, Square); 16],
    len: usize,
}

impl Captures {
    /// The captures.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[(Square, Square)] {
        &self.moves[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use surakarta::{capture_moves, step_targets};

    /// Every step's difference has a direction of its own.
    #[test]
    fn steps_have_distinct_directions() {
        for from in Square::ALL {
            let mut seen = 0u8;
            for to in step_targets(from) {
                let d = DIRECTION[(to.index() as isize - from.index() as isize + 7) as usize];
                assert!(d < 8, "{from:?} → {to:?}");
                assert_eq!(seen & 1 << d, 0, "{from:?} → {to:?}");
                seen |= 1 << d;
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// The captures of any colouring of a set are its pieces' shared
        /// attacks on enemy pieces: what the move generator gives.
        #[test]
        fn shared_attacks_give_the_captures(occupied in any::<u64>(), colours in any::<u64>()) {
            let occupied = Bitboard::from_bits_truncate(occupied & colours.rotate_left(17));
            let us = Bitboard::from_bits_truncate(occupied.bits() & colours);
            let them = occupied - us;
            let mut moves = SetMoves::new();
            moves.on(0, occupied);
            let mut shared = moves.captures(us, them).as_slice().to_vec();
            let mut generated: Vec<_> =
                capture_moves(us, them).iter().map(|m| (m.from(), m.to())).collect();
            shared.sort();
            generated.sort();
            prop_assert_eq!(shared, generated);
        }
    }
}
