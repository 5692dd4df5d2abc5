//! Static evaluation: the features of the Zhang–Jiang Surakarta program
//! (seed `001`, section 5) with tunable weights, plus threats.
//!
//! Every feature is counted for both sides and the evaluation is the
//! difference, from the point of view of the side to move:
//!
//! | feature | per side |
//! |---|---|
//! | material | pieces on the board |
//! | mobility | step moves (the paper's "moving range") |
//! | attack | capture moves (the paper's "attack power": captures available) |
//! | points | sum of the point values of the occupied points (figure 2: B > A = D > E = C > F, corners 0) |
//! | arcs | `5·O + 5·E`: arcs the side holds plus arcs the opponent does not hold |
//! | hanging | own pieces the opponent can capture and the side could not recapture |
//!
//! A side *holds* an arc when, walking along the circuit away from one of
//! the arc's ends, the first piece met is its own: that piece can run
//! through the arc.

use surakarta::{capture_sets, count_steps, defended, Bitboard, Circuit, Position, Square};

use crate::score::EVAL_LIMIT;

/// The point classes of the paper's figure 2, by the point's place in its
/// quarter of the board (upper right quarter shown, the others mirror it):
///
/// ```text
///   6 | C E F        A: d4, the large circuit crossing itself
///   5 | B D E        B: d5 and e4, where the circuits cross each other
///   4 | A B C        C: d6 and f4, large circuit only
///     +------        D: e5, the small circuit crossing itself
///       d e f        E: e6 and f5, small circuit only
///                    F: f6, the corner, on no circuit
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointClass {
    /// A large-circuit self-crossing.
    A,
    /// A crossing of the two circuits.
    B,
    /// A large-circuit point next to an arc.
    C,
    /// A small-circuit self-crossing.
    D,
    /// A small-circuit point next to an arc.
    E,
    /// A corner: on no circuit, cannot attack or be attacked.
    F,
}

impl PointClass {
    /// The class of a point.
    #[must_use]
    pub const fn of(sq: Square) -> PointClass {
        const fn fold(v: u8) -> u8 {
            if v < 3 {
                5 - v
            } else {
                v
            }
        }
        let (x, y) = (fold(sq.file().index()), fold(sq.rank().index()));
        let (near, far) = if x < y { (x, y) } else { (y, x) };
        match (near, far) {
            (3, 3) => PointClass::A,
            (3, 4) => PointClass::B,
            (3, 5) => PointClass::C,
            (4, 4) => PointClass::D,
            (4, 5) => PointClass::E,
            _ => PointClass::F,
        }
    }

    const fn index(self) -> usize {
        self as usize
    }

    /// The points of each class, in the order of [`PointClass::index`].
    const MASKS: [Bitboard; 6] = {
        let mut masks = [Bitboard::EMPTY; 6];
        let mut i = 0;
        while i < Square::ALL.len() {
            let sq = Square::ALL[i];
            let class = PointClass::of(sq).index();
            masks[class] = masks[class].with(sq);
            i += 1;
        }
        masks
    };
}

/// The summed point values of the pieces `own`: a count per class.
fn point_values(own: Bitboard, values: &[i32; 6]) -> i32 {
    PointClass::MASKS
        .iter()
        .zip(values)
        .map(|(&mask, &value)| value * (own & mask).len() as i32)
        .sum()
}

/// Evaluation weights. The evaluation is `material·Δpieces +
/// mobility·Δsteps + attack·Δcaptures + points·Δpoint_values +
/// arcs·Δarc_value + hanging·Δhanging + tempo`, each `Δ` being the side to
/// move's count minus the opponent's.
///
/// # Examples
///
/// ```
/// use surakarta_search::Weights;
///
/// assert_eq!(Weights::preset("paper"), Some(Weights::PAPER));
/// assert_eq!(Weights::default(), Weights::DEFAULT);
/// assert_eq!(Weights::preset("aggressive"), None);
/// let greedy = Weights { attack: 20, ..Weights::DEFAULT };
/// assert!(greedy.attack > Weights::DEFAULT.attack);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per piece.
    pub material: i32,
    /// Per step move.
    pub mobility: i32,
    /// Per capture move.
    pub attack: i32,
    /// Multiplies the point values.
    pub points: i32,
    /// The value of each point class A..F.
    pub point_values: [i32; 6],
    /// Multiplies the arc value `5·O + 5·E`.
    pub arcs: i32,
    /// Per hanging piece (usually negative).
    pub hanging: i32,
    /// A bonus for the side to move.
    pub tempo: i32,
}

impl Weights {
    /// The paper's weights (seed `001`, section 5.3): `6·pieces + 1·moving
    /// range + 2·attack power + 1·point value + 1·arc value`. The point
    /// values of its figure 2 were lost; these keep its order B > A = D > E = C > F.
    pub const PAPER: Weights = Weights {
        material: 6,
        mobility: 1,
        attack: 2,
        points: 1,
        point_values: [2, 3, 1, 2, 1, 0],
        arcs: 1,
        hanging: 0,
        tempo: 0,
    };

    /// Our default: material dominates and captures count more; kept
    /// because it beats [`Weights::PAPER`] in self-play (73.8% over 200
    /// games). Hanging pieces are off: a weight of −30 lost (43.2%; figures
    /// in `benches/results/2026-11-22-epyc-2core/selfplay.csv`).
    pub const DEFAULT: Weights = Weights {
        material: 100,
        mobility: 2,
        attack: 6,
        points: 2,
        point_values: [2, 3, 1, 2, 1, 0],
        arcs: 1,
        hanging: 0,
        tempo: 5,
    };

    /// A preset by name: `paper` or `default`.
    #[must_use]
    pub fn preset(name: &str) -> Option<Weights> {
        match name {
            "paper" => Some(Weights::PAPER),
            "default" => Some(Weights::DEFAULT),
            _ => None,
        }
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

/// The raw feature counts of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideFeatures {
    /// Pieces.
    pub material: i32,
    /// Step moves.
    pub mobility: i32,
    /// Capture moves.
    pub attack: i32,
    /// Sum of the (unweighted) point values.
    pub points: i32,
    /// Arcs held (`O` of the paper).
    pub arcs_held: i32,
    /// Arcs the opponent does not hold (`E` of the paper).
    pub arcs_free: i32,
    /// Pieces the opponent can capture that could not be recaptured.
    pub hanging: i32,
}

/// The features of both sides, the side to move first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// The side to move.
    pub us: SideFeatures,
    /// The opponent.
    pub them: SideFeatures,
}

impl Features {
    /// Computes the features of a position (hanging pieces only when
    /// `weights.hanging` is not 0: then both sides' captures are walked
    /// for their targets, and the defended pieces of each side that has
    /// a piece attacked).
    #[must_use]
    pub fn of(position: &Position, weights: &Weights) -> Features {
        Features::with_captures(position, weights, None)
    }

    /// As [`Features::of`], given the number of captures the side to move
    /// has if the caller generated them already (one capture generation
    /// saved, unless hanging pieces are counted: their walk gives the count
    /// too); `None` to count them here.
    #[must_use]
    pub fn with_captures(
        position: &Position,
        weights: &Weights,
        us_captures: Option<usize>,
    ) -> Features {
        Features::with_capture_counts(position, weights, [us_captures, None])
    }

    /// As [`Features::with_captures`], given either side's number of
    /// captures (the side to move's first) where the caller has them.
    pub(crate) fn with_capture_counts(
        position: &Position,
        weights: &Weights,
        [us_captures, them_captures]: [Option<usize>; 2],
    ) -> Features {
        let (us, them) = (position.us(), position.them());
        let arcs = held_arcs(us, them);
        let values = &weights.point_values;
        // Per side: its capture moves and its pieces the other side can
        // capture (only needed for hanging pieces: then each side's
        // captures give its attack and the other side's attacked pieces).
        let (captures, attacked) = if weights.hanging != 0 {
            let us_sets = capture_sets(us, them);
            let them_sets = capture_sets(them, us);
            (
                [us_sets.moves, them_sets.moves],
                [them_sets.targets, us_sets.targets],
            )
        } else {
            let count = |own, other, known: Option<usize>| {
                known.unwrap_or_else(|| capture_sets(own, other).moves)
            };
            (
                [count(us, them, us_captures), count(them, us, them_captures)],
                [Bitboard::EMPTY; 2],
            )
        };
        let mut f = Features {
            us: side_features(us, them, values, captures[0], attacked[0]),
            them: side_features(them, us, values, captures[1], attacked[1]),
        };
        f.us.arcs_held = arcs[0] as i32;
        f.them.arcs_held = arcs[1] as i32;
        f.us.arcs_free = 8 - f.them.arcs_held;
        f.them.arcs_free = 8 - f.us.arcs_held;
        f
    }

    /// The weighted evaluation for the side to move.
    #[must_use]
    pub fn score(&self, w: &Weights) -> i32 {
        let side = |s: &SideFeatures| {
            w.material * s.material
                + w.mobility * s.mobility
                + w.attack * s.attack
                + w.points * s.points
                + w.arcs * (5 * s.arcs_held + 5 * s.arcs_free)
                + w.hanging * s.hanging
        };
        side(&self.us) - side(&self.them) + w.tempo
    }
}

/// Evaluates a position for the side to move with the given weights,
/// clamped to `±EVAL_LIMIT`.
///
/// # Examples
///
/// ```
/// use surakarta::Position;
/// use surakarta_search::{evaluate, Weights};
///
/// // Two pieces against one: good for the side with two, whoever moves.
/// let black_to_move: Position = "6/2w3/6/6/bb4/6 b".parse()?;
/// let white_to_move: Position = "6/2w3/6/6/bb4/6 w".parse()?;
/// assert!(evaluate(&black_to_move, &Weights::DEFAULT) > 0);
/// assert!(evaluate(&white_to_move, &Weights::DEFAULT) < 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn evaluate(position: &Position, weights: &Weights) -> i32 {
    evaluate_with_captures(position, weights, None)
}

/// [`evaluate`], given the side to move's number of captures if the caller
/// has generated them (as quiescence has).
#[must_use]
pub fn evaluate_with_captures(
    position: &Position,
    weights: &Weights,
    us_captures: Option<usize>,
) -> i32 {
    Features::with_captures(position, weights, us_captures)
        .score(weights)
        .clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1)
}

/// The counts of the side owning `own`, given its number of captures and
/// its pieces the other side can capture (`attacked`; hanging are those
/// no recapture answers).
fn side_features(
    own: Bitboard,
    other: Bitboard,
    values: &[i32; 6],
    captures: usize,
    attacked: Bitboard,
) -> SideFeatures {
    let points = point_values(own, values);
    let hanging = if attacked.is_empty() {
        0
    } else {
        (attacked - defended(own, other)).len() as i32
    };
    SideFeatures {
        material: own.len() as i32,
        mobility: count_steps(own, other) as i32,
        attack: captures as i32,
        points,
        arcs_held: 0,
        arcs_free: 0,
        hanging,
    }
}

/// `x` (24 bits) rotated left by `k` (`0..24`) within 24 bits.
#[inline]
const fn rotate_left_24(x: u32, k: u32) -> u32 {
    if k == 0 {
        x
    } else {
        ((x << k) | (x >> (24 - k))) & 0x00ff_ffff
    }
}

/// How many of the eight arcs each side holds: `[us, them]`. A side holds an
/// arc when the first piece met walking along the circuit away from one of
/// the arc's ends (path position `6s + 5` backwards, `6s + 6` forwards) is
/// its own. Each walk is one rotation and one bit scan of the circuit's
/// occupancy word.
fn held_arcs(us: Bitboard, them: Bitboard) -> [u32; 2] {
    let occupied = us | them;
    let mut held = [0u32; 2];
    let words = Circuit::occupancies(occupied);
    for (circuit, word) in Circuit::ALL.into_iter().zip(words) {
        if word == 0 {
            continue;
        }
        let path = circuit.path();
        for s in 0..4u32 {
            let end = 6 * s + 5;
            // Backwards from `end`: rotate `end` to bit 23, take the highest bit.
            let back = rotate_left_24(word, 23 - end);
            let back_at = (end + 24 - (23 - (31 - back.leading_zeros()))) % 24;
            // Forwards from `end + 1`: rotate it to bit 0, take the lowest bit.
            let start = (end + 1) % 24;
            let ahead = rotate_left_24(word, (24 - start) % 24);
            let ahead_at = (start + ahead.trailing_zeros()) % 24;
            let mut by = [false; 2];
            for at in [back_at, ahead_at] {
                by[usize::from(!us.contains(path[at as usize]))] = true;
            }
            held[0] += u32::from(by[0]);
            held[1] += u32::from(by[1]);
        }
    }
    held
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use surakarta::PATH_LEN;

    /// The plain walk: point by point away from each arc end.
    fn held_arcs_by_walking(us: Bitboard, them: Bitboard) -> [u32; 2] {
        let occupied = us | them;
        let mut held = [0u32; 2];
        for circuit in Circuit::ALL {
            let path = circuit.path();
            for s in 0..4 {
                let mut by = [false; 2];
                let backwards = (0..PATH_LEN).map(|i| path[(6 * s + 5 + PATH_LEN - i) % PATH_LEN]);
                let forwards = (0..PATH_LEN).map(|i| path[(6 * s + 6 + i) % PATH_LEN]);
                for first in [
                    backwards.clone().find(|&sq| occupied.contains(sq)),
                    forwards.clone().find(|&sq| occupied.contains(sq)),
                ]
                .into_iter()
                .flatten()
                {
                    by[usize::from(!us.contains(first))] = true;
                }
                held[0] += u32::from(by[0]);
                held[1] += u32::from(by[1]);
            }
        }
        held
    }

    proptest! {
        #[test]
        fn held_arcs_equal_the_plain_walk(a in 0u64..(1 << 36), b in 0u64..(1 << 36)) {
            let us = Bitboard::new(a & !b).unwrap();
            let them = Bitboard::new(b & !a).unwrap();
            prop_assert_eq!(held_arcs(us, them), held_arcs_by_walking(us, them));
        }
    }

    proptest! {
        #[test]
        fn point_values_equal_the_sum_over_pieces(a in 0u64..(1 << 36), values in any::<[i16; 6]>()) {
            let own = Bitboard::new(a).unwrap();
            let values = values.map(i32::from);
            let by_piece: i32 = own.iter().map(|sq| values[PointClass::of(sq).index()]).sum();
            prop_assert_eq!(point_values(own, &values), by_piece);
        }
    }

    #[test]
    fn a_known_capture_count_gives_the_same_evaluation() {
        let mut rng = surakarta::random::SplitMix::new(5);
        for _ in 0..200 {
            let p = surakarta::random::random_playout(&mut rng, Position::new(), 60);
            for w in [Weights::DEFAULT, Weights::PAPER] {
                let known = Some(p.captures().len());
                assert_eq!(
                    evaluate_with_captures(&p, &w, known),
                    evaluate(&p, &w),
                    "{p}"
                );
            }
        }
    }

    #[test]
    fn hanging_pieces_are_the_attacked_ones_no_recapture_answers() {
        // The definition, piece by piece, from the rules' capture targets.
        fn hanging_by_piece(own: Bitboard, other: Bitboard) -> i32 {
            surakarta::capture_targets(other, own)
                .iter()
                .filter(|&sq| {
                    !surakarta::capture_targets(own.without(sq), other.with(sq)).contains(sq)
                })
                .count() as i32
        }
        let with_hanging = Weights {
            hanging: -30,
            ..Weights::DEFAULT
        };
        let mut rng = surakarta::random::SplitMix::new(6);
        let mut with_some = 0;
        for i in 0..2_000 {
            let p = surakarta::random::random_playout(&mut rng, Position::new(), 10 + i % 70);
            let f = Features::of(&p, &with_hanging);
            assert_eq!(f.us.hanging, hanging_by_piece(p.us(), p.them()), "{p}");
            assert_eq!(f.them.hanging, hanging_by_piece(p.them(), p.us()), "{p}");
            with_some += usize::from(f.us.hanging + f.them.hanging > 0);
        }
        assert!(with_some > 200, "{with_some} positions with hanging pieces");
    }

    #[test]
    fn rotations_within_24_bits() {
        assert_eq!(rotate_left_24(1, 0), 1);
        assert_eq!(rotate_left_24(1 << 23, 1), 1);
        assert_eq!(rotate_left_24(0b101, 22), (1 << 22) | 1);
        assert_eq!(rotate_left_24(0x00ff_ffff, 7), 0x00ff_ffff);
    }

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn point_classes_follow_figure_2() {
        use PointClass::*;
        for (name, class) in [
            ("d4", A),
            ("d5", B),
            ("e4", B),
            ("d6", C),
            ("f4", C),
            ("e5", D),
            ("e6", E),
            ("f5", E),
            ("f6", F),
            ("a1", F),
            ("c3", A),
            ("b2", D),
            ("b3", B),
            ("c2", B),
            ("a3", C),
            ("b1", E),
            ("a6", F),
            ("c4", A),
            ("b5", D),
        ] {
            assert_eq!(PointClass::of(sq(name)), class, "{name}");
        }
        let count = |c| {
            Square::ALL
                .iter()
                .filter(|&&s| PointClass::of(s) == c)
                .count()
        };
        assert_eq!(
            [count(A), count(B), count(C), count(D), count(E), count(F)],
            [4, 8, 8, 4, 8, 4]
        );
    }

    #[test]
    fn start_position_is_balanced() {
        let p = Position::new();
        let f = Features::of(&p, &Weights::DEFAULT);
        assert_eq!(f.us, f.them);
        assert_eq!(f.us.material, 12);
        assert_eq!(f.us.attack, 0);
        assert_eq!(evaluate(&p, &Weights::DEFAULT), Weights::DEFAULT.tempo);
    }

    #[test]
    fn evaluation_is_symmetric_under_board_symmetries() {
        let p: Position = "bb4/1b2w1/6/2b3/1ww3/5w w".parse().unwrap();
        let e = evaluate(&p, &Weights::DEFAULT);
        for sym in surakarta::Symmetry::ALL {
            assert_eq!(
                evaluate(&p.transformed(sym), &Weights::DEFAULT),
                e,
                "{sym:?}"
            );
        }
    }

    #[test]
    fn arcs_are_held_by_the_nearest_piece() {
        // One black piece on b1 (small circuit, position 0): walking back from
        // the arc ending at position 23 (a2 side) ... the first piece met on
        // every small-circuit walk is b1, so Black holds all four small arcs.
        let us = Bitboard::from_square(sq("b1"));
        let them = Bitboard::from_square(sq("a1"));
        assert_eq!(held_arcs(us, them), [4, 0]);
        // A white piece on c1 holds the large circuit's four arcs likewise.
        let them = Bitboard::from_square(sq("c1"));
        assert_eq!(held_arcs(us, them), [4, 4]);
    }

    #[test]
    fn mutually_attacking_lone_pieces_both_hang() {
        // White a5 and Black b1 attack each other through the arc at a6;
        // neither side has a second piece to take back.
        let p: Position = "6/w5/6/6/6/1b4 w".parse().unwrap();
        let with_hanging = Weights {
            hanging: -30,
            ..Weights::DEFAULT
        };
        let f = Features::of(&p, &with_hanging);
        assert_eq!((f.us.attack, f.them.attack), (1, 1));
        assert_eq!((f.us.hanging, f.them.hanging), (1, 1));
        let start = Features::of(&Position::new(), &with_hanging);
        assert_eq!((start.us.hanging, start.them.hanging), (0, 0));
    }
}
