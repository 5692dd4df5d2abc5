//! The learned evaluation: a small efficiently updatable network (NNUE).
//!
//! Architecture `(72 → 128) × 2 → 1` with four output buckets:
//!
//! - **Inputs**: 72 per perspective, one per (colour, point) seen from that
//!   perspective: `36·[piece is the opponent's] + point`, where White's
//!   perspective mirrors the ranks so that both colours see the board from
//!   their own side. The board has no other pieces, so a position sets as
//!   many inputs per perspective as it has pieces.
//! - **Threat inputs** (a network of architecture 3, [`Weights::threats`]):
//!   144 more per perspective, for each piece whether the other side can
//!   capture it and whether it can capture ([`threat_input`]). They depend
//!   on the circuits' occupancy, which a sum over single pieces cannot
//!   show; they change with most moves anywhere on a circuit, so each
//!   evaluation generates both sides' captures ([`Threats::of`]) and adds
//!   their columns to the accumulator's as it computes the output.
//! - **Accumulator**: one hidden vector of [`HIDDEN`] `i16` per perspective,
//!   the bias plus the first layer's column of every set input. A step
//!   changes two columns per perspective and a capture three, so the search
//!   updates it with [`Accumulator::after`] instead of computing it again.
//! - **Output**: clipped ReLU (`0..=QA`) of the side to move's accumulator
//!   and then the opponent's, dotted with the weights of the bucket chosen
//!   by the number of pieces on the board, plus that bucket's bias, plus
//!   the bucket's weights times the [`FEATURES`] counts the pieces' points
//!   cannot show (the side to move's minus the opponent's steps, captures
//!   and arcs, as the classic evaluation counts them); scaled to the
//!   classic evaluation's units (a piece ≈ 100).
//! - **Blend**: the result is mixed with the classic evaluation
//!   ([`crate::eval`], with the weights the file carries) in the share the
//!   file gives: `((256 − s) · network + s · classic) / 256`. The network
//!   alone judges positions better than the classic features do on the
//!   positions it was trained on, but its errors vary from position to
//!   position; the blend keeps the classic evaluation's steadier judgement
//!   of the positions a search visits (`docs/evaluation.md` has the
//!   matches that chose the share).
//!
//! Weights are quantized: the first layer by [`QA`] = 255, the output by
//! [`QB`] = 64. The loops run over fixed-size arrays of `i16` so that the
//! compiler vectorizes them without intrinsics; on x86-64 they are compiled
//! twice, for the build's baseline and for AVX2, and the CPU decides which
//! runs (the same integers either way).
//!
//! The file format is in [`mod@file`]; the training data in [`data`].
//!
//! # Examples
//!
//! ```
//! use surakarta::Position;
//! use surakarta_search::network::{Accumulator, Network};
//!
//! let net = &*Network::embedded();
//! let start = Position::new();
//! let score = net.evaluate(&start);
//! assert!(score.abs() < 200); // the start is about level
//!
//! // The accumulator follows the moves incrementally.
//! let m = start.legal_moves()[0];
//! let after = start.after(m);
//! let updated = Accumulator::new(net, &start).after(net, &start, m);
//! assert_eq!(updated, Accumulator::new(net, &after));
//! assert_eq!(net.evaluate_with(&updated, &after), net.evaluate(&after));
//! ```

pub mod data;
pub mod file;
pub mod train;
#[allow(unsafe_code)]
mod wide;

use std::sync::{Arc, OnceLock};

use surakarta::{capture_sets, Bitboard, Color, Move, Position, Square};

use crate::eval::Features;
use crate::score::EVAL_LIMIT;

pub use file::NetworkError;

/// Inputs per perspective: 2 colours × 36 points.
pub const INPUTS: usize = 72;
/// Threat inputs per perspective, in a network that has them
/// ([`Weights::threats`]): for each colour and point, whether the piece
/// there can be captured, and whether it can capture (2 kinds × 2 colours ×
/// 36 points; see [`threat_input`]).
pub const THREAT_INPUTS: usize = 144;
/// Hidden units per perspective (the accumulator's length).
pub const HIDDEN: usize = 128;
/// Output buckets, chosen by the number of pieces on the board.
pub const BUCKETS: usize = 4;
/// Counts added to the output with a learned weight each (see
/// [`feature_counts`]): steps, captures and arcs.
pub const FEATURES: usize = 3;
/// The classic evaluation's share of the result is given in this many
/// parts.
pub const SHARE_PARTS: i32 = 256;
/// The first layer's quantization: a float weight `w` is stored as
/// `round(w · QA)`, and the clipped ReLU clips at `QA` (1.0).
pub const QA: i32 = 255;
/// The output layer's quantization.
pub const QB: i32 = 64;

/// The output bucket of a position with `pieces` pieces (1 to 24): six
/// piece counts per bucket.
///
/// # Examples
///
/// ```
/// use surakarta_search::network::bucket;
///
/// assert_eq!(bucket(24), 3);
/// assert_eq!(bucket(7), 1);
/// assert_eq!(bucket(2), 0);
/// ```
#[must_use]
pub const fn bucket(pieces: u32) -> usize {
    let b = (pieces.saturating_sub(1) / 6) as usize;
    if b < BUCKETS {
        b
    } else {
        BUCKETS - 1
    }
}

/// The input index of a piece of `piece` colour on `sq`, from
/// `perspective`'s view.
///
/// # Examples
///
/// ```
/// use surakarta::{Color, Square};
/// use surakarta_search::network::input;
///
/// let a1: Square = "a1".parse()?;
/// assert_eq!(input(Color::Black, Color::Black, a1), 0);
/// // White sees its own piece on a6 where Black sees a1.
/// let a6: Square = "a6".parse()?;
/// assert_eq!(input(Color::White, Color::White, a6), 0);
/// assert_eq!(input(Color::White, Color::Black, a6), 36);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub const fn input(perspective: Color, piece: Color, sq: Square) -> usize {
    let point = match perspective {
        Color::Black => sq.index(),
        Color::White => (5 - sq.index() / 6) * 6 + sq.index() % 6,
    };
    let theirs = piece.index() != perspective.index();
    (theirs as usize) * 36 + point
}

/// The threat input index of a piece of `piece` colour on `sq`, from
/// `perspective`'s view: `kind` 0 when the piece can be captured, 1 when
/// it can capture. The points are seen as by [`input`].
///
/// # Examples
///
/// ```
/// use surakarta::{Color, Square};
/// use surakarta_search::network::threat_input;
///
/// let a1: Square = "a1".parse()?;
/// assert_eq!(threat_input(Color::Black, Color::Black, a1, 0), 0);
/// assert_eq!(threat_input(Color::Black, Color::White, a1, 1), 108);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub const fn threat_input(perspective: Color, piece: Color, sq: Square, kind: usize) -> usize {
    72 * kind + input(perspective, piece, sq)
}

/// Who can capture what: per colour (Black, White), the pieces the other
/// side can capture and the pieces that can capture, with each side's
/// number of capture moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threats {
    /// Per colour, its pieces the other side can capture.
    pub attacked: [Bitboard; 2],
    /// Per colour, its pieces that can capture.
    pub attackers: [Bitboard; 2],
    /// Per colour, its capture moves.
    pub captures: [usize; 2],
}

impl Threats {
    /// The threats of `position`, from one capture generation per side.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Color, Position, Square};
    /// use surakarta_search::network::Threats;
    ///
    /// // Nobody can capture at the start.
    /// assert_eq!(Threats::of(&Position::new()).captures, [0, 0]);
    /// ```
    #[must_use]
    pub fn of(position: &Position) -> Threats {
        Threats::of_sides(position.pieces(Color::Black), position.pieces(Color::White))
    }

    /// The threats of Black's pieces `black` and White's `white`.
    pub(crate) fn of_sides(black: Bitboard, white: Bitboard) -> Threats {
        let mut t = Threats::default();
        for (side, own, other) in [(0, black, white), (1, white, black)] {
            let sets = capture_sets(own, other);
            t.captures[side] = sets.moves;
            t.attackers[side] = sets.movers;
            t.attacked[1 - side] = sets.targets;
        }
        t
    }
}

/// The counts the output adds linearly, for the side to move minus the
/// opponent: step moves, capture moves, and arcs held plus arcs the other
/// side does not hold (the classic evaluation's mobility, attack and arc
/// features, [`crate::eval`]). They depend on how the pieces block each
/// other along the circuits, which a sum over single pieces cannot show.
/// `us_captures` is the side to move's capture count when the caller has
/// generated its captures already.
///
/// # Examples
///
/// ```
/// use surakarta::Position;
/// use surakarta_search::network::feature_counts;
///
/// // The start position is symmetric: every difference is 0.
/// assert_eq!(feature_counts(&Position::new(), None), [0, 0, 0]);
/// ```
#[must_use]
pub fn feature_counts(position: &Position, us_captures: Option<usize>) -> [i32; FEATURES] {
    const COUNT_ONLY: crate::Weights = crate::Weights {
        hanging: 0,
        ..crate::Weights::DEFAULT
    };
    counts_of(&Features::with_captures(position, &COUNT_ONLY, us_captures))
}

fn counts_of(f: &Features) -> [i32; FEATURES] {
    [
        f.us.mobility - f.them.mobility,
        f.us.attack - f.them.attack,
        f.us.arcs_held + f.us.arcs_free - f.them.arcs_held - f.them.arcs_free,
    ]
}

/// A row of the hidden layer, aligned for vector loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Row(pub [i16; HIDDEN]);

/// The quantized weights of a network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// The first layer: one column of [`HIDDEN`] per input.
    pub input: [Row; INPUTS],
    /// The first layer's columns of the [`THREAT_INPUTS`], all 0 in a
    /// network without them.
    pub threat_input: [Row; THREAT_INPUTS],
    /// Whether the network has threat inputs (then each evaluation
    /// generates both sides' captures and adds their columns).
    pub threats: bool,
    /// The first layer's bias.
    pub input_bias: Row,
    /// The output layer per bucket: the side to move's half, then the
    /// opponent's.
    pub output: [[Row; 2]; BUCKETS],
    /// The output bias per bucket, in units of `QA · QB`.
    pub output_bias: [i32; BUCKETS],
    /// The weights of the [`feature_counts`] per bucket, in units of
    /// `QA · QB`; all 0 in a network without them (then they are not
    /// counted).
    pub features: [[i32; FEATURES]; BUCKETS],
    /// The classic evaluation's share of the result, in [`SHARE_PARTS`]
    /// (0: the network alone).
    pub classic_share: u16,
    /// The classic evaluation's weights in the blend.
    pub classic_weights: crate::Weights,
}

/// A network: quantized weights and the scale that turns its output into
/// the classic evaluation's units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// What the file calls the network (for example its date and data).
    pub name: String,
    /// Evaluation units per unit of the network's output (a logit): the
    /// `K` of the training loss `sigmoid(score / K)`.
    pub scale: i32,
    /// The weights.
    pub weights: Box<Weights>,
}

/// The network embedded in the library (see `docs/evaluation.md`).
const EMBEDDED: &[u8] = include_bytes!("../../networks/default.sknn");

impl Network {
    /// The network embedded in the library, read once.
    ///
    /// # Panics
    ///
    /// Never with the shipped file: a test reads it, so a damaged embedded
    /// file fails the build's tests, not a user's search.
    #[must_use]
    pub fn embedded() -> Arc<Network> {
        static NETWORK: OnceLock<Arc<Network>> = OnceLock::new();
        NETWORK
            .get_or_init(|| {
                Arc::new(
                    Network::from_bytes(EMBEDDED)
                        .expect("the embedded network is checked by the tests"),
                )
            })
            .clone()
    }

    /// The evaluation of `position` for the side to move, computed from
    /// scratch, in the classic evaluation's units.
    #[must_use]
    pub fn evaluate(&self, position: &Position) -> i32 {
        self.evaluate_with(&Accumulator::new(self, position), position)
    }

    /// The evaluation of `position` given its accumulator.
    #[must_use]
    pub fn evaluate_with(&self, accumulator: &Accumulator, position: &Position) -> i32 {
        self.evaluate_with_captures(accumulator, position, None)
    }

    /// [`evaluate_with`](Self::evaluate_with), given the side to move's
    /// number of captures if the caller has generated them (as quiescence
    /// has): one capture generation saved.
    #[must_use]
    pub fn evaluate_with_captures(
        &self,
        accumulator: &Accumulator,
        position: &Position,
        us_captures: Option<usize>,
    ) -> i32 {
        wide::run(|| self.evaluate_inline(accumulator, position, us_captures))
    }

    /// [`evaluate_with_captures`](Self::evaluate_with_captures), inlined
    /// into both copies of [`wide::run`].
    #[inline(always)]
    fn evaluate_inline(
        &self,
        accumulator: &Accumulator,
        position: &Position,
        us_captures: Option<usize>,
    ) -> i32 {
        let w = &self.weights;
        let b = bucket(position.occupied().len());
        let us = position.turn();
        let mut captures = [us_captures, None];
        let mut sum = if w.threats {
            let threats = Threats::of(position);
            captures = [
                Some(threats.captures[us.index()]),
                Some(threats.captures[(!us).index()]),
            ];
            let mut sum = 0;
            for (half, perspective) in [us, !us].into_iter().enumerate() {
                let mut columns = [&w.input_bias; MAX_THREATS];
                let n = threat_columns(w, &threats, perspective, &mut columns);
                sum += dot_clipped_with(
                    &accumulator.rows[perspective.index()],
                    &columns[..n],
                    &w.output[b][half],
                );
            }
            sum
        } else {
            dot_clipped(&accumulator.rows[us.index()], &w.output[b][0])
                + dot_clipped(&accumulator.rows[(!us).index()], &w.output[b][1])
        } + w.output_bias[b];
        let mut classic = 0;
        if w.features[b] != [0; FEATURES] || w.classic_share != 0 {
            let f = Features::with_capture_counts(position, &w.classic_weights, captures);
            sum += counts_of(&f)
                .iter()
                .zip(&w.features[b])
                .map(|(c, w)| c * w)
                .sum::<i32>();
            classic = f.score(&w.classic_weights);
        }
        let limit = i64::from(EVAL_LIMIT - 1);
        let network =
            (i64::from(sum) * i64::from(self.scale) / i64::from(QA * QB)).clamp(-limit, limit);
        let share = i64::from(w.classic_share);
        let classic = i64::from(classic).clamp(-limit, limit);
        ((network * (i64::from(SHARE_PARTS) - share) + classic * share) / i64::from(SHARE_PARTS))
            as i32
    }
}

/// The most threat inputs a position sets per perspective: every piece
/// attacked and attacking.
const MAX_THREATS: usize = 48;

/// Puts the columns of the threat inputs `threats` sets for `perspective`
/// in `out`; returns how many.
#[inline(always)]
fn threat_columns<'w>(
    w: &'w Weights,
    threats: &Threats,
    perspective: Color,
    out: &mut [&'w Row; MAX_THREATS],
) -> usize {
    let mut n = 0;
    for piece in [Color::Black, Color::White] {
        for (kind, set) in [threats.attacked, threats.attackers].iter().enumerate() {
            for sq in set[piece.index()].iter() {
                if n < MAX_THREATS {
                    out[n] = &w.threat_input[threat_input(perspective, piece, sq, kind)];
                    n += 1;
                }
            }
        }
    }
    n
}

/// Lanes of the accumulator handled at a time by [`dot_clipped_with`].
const LANES: usize = 16;

/// `Σ clamp(a + Σ columns, 0, QA) · w` in `i32`, the sum of the columns
/// taken lane group by lane group so that it stays in registers.
#[inline(always)]
fn dot_clipped_with(a: &Row, columns: &[&Row], w: &Row) -> i32 {
    let mut sum = 0i32;
    for at in (0..HIDDEN).step_by(LANES) {
        let mut lanes = [0i16; LANES];
        lanes.copy_from_slice(&a.0[at..at + LANES]);
        for column in columns {
            for (l, c) in lanes.iter_mut().zip(&column.0[at..at + LANES]) {
                *l = l.wrapping_add(*c);
            }
        }
        sum += lanes
            .iter()
            .zip(&w.0[at..at + LANES])
            .map(|(&a, &w)| i32::from(a.clamp(0, QA as i16)) * i32::from(w))
            .sum::<i32>();
    }
    sum
}

/// `Σ clamp(a, 0, QA) · w` in `i32`: one plain reduction over contiguous
/// lanes, which the compiler turns into `pmaxsw`, `pminsw` and `pmaddwd`.
#[inline]
fn dot_clipped(a: &Row, w: &Row) -> i32 {
    a.0.iter()
        .zip(w.0.iter())
        .map(|(&a, &w)| i32::from(a.clamp(0, QA as i16)) * i32::from(w))
        .sum()
}

#[inline]
fn add(row: &mut Row, column: &Row) {
    for (r, c) in row.0.iter_mut().zip(column.0.iter()) {
        *r = r.wrapping_add(*c);
    }
}

#[inline]
fn sub(row: &mut Row, column: &Row) {
    for (r, c) in row.0.iter_mut().zip(column.0.iter()) {
        *r = r.wrapping_sub(*c);
    }
}

/// The hidden layer of both perspectives (Black's, White's) for one
/// position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    rows: [Row; 2],
}

impl Accumulator {
    /// The accumulator of `position`, from scratch.
    #[must_use]
    pub fn new(net: &Network, position: &Position) -> Accumulator {
        wide::run(|| Accumulator::new_inline(net, position))
    }

    #[inline(always)]
    fn new_inline(net: &Network, position: &Position) -> Accumulator {
        let w = &net.weights;
        let mut rows = [w.input_bias; 2];
        for perspective in [Color::Black, Color::White] {
            let row = &mut rows[perspective.index()];
            for piece in [Color::Black, Color::White] {
                for sq in position.pieces(piece).iter() {
                    add(row, &w.input[input(perspective, piece, sq)]);
                }
            }
        }
        Accumulator { rows }
    }

    /// The accumulator after the side to move of `position` plays `m`:
    /// two columns change per perspective for a step, three for a capture.
    #[must_use]
    pub fn after(&self, net: &Network, position: &Position, m: Move) -> Accumulator {
        wide::run(|| self.after_inline(net, position, m))
    }

    #[inline(always)]
    fn after_inline(&self, net: &Network, position: &Position, m: Move) -> Accumulator {
        let w = &net.weights;
        let mover = position.turn();
        let mut next = *self;
        for perspective in [Color::Black, Color::White] {
            let row = &mut next.rows[perspective.index()];
            sub(row, &w.input[input(perspective, mover, m.from())]);
            add(row, &w.input[input(perspective, mover, m.to())]);
            if m.is_capture() {
                sub(row, &w.input[input(perspective, !mover, m.to())]);
            }
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use surakarta::random::{random_playout, SplitMix};

    proptest! {
        /// The incremental accumulator equals the one computed from scratch
        /// along random games, and so do the evaluations.
        #[test]
        fn incremental_updates_equal_a_fresh_accumulator(seed in any::<u64>(), plies in 0usize..120) {
            let net = &*Network::embedded();
            let mut rng = SplitMix::new(seed);
            let mut position = Position::new();
            let mut acc = Accumulator::new(net, &position);
            for _ in 0..plies {
                let moves = position.legal_moves();
                if moves.is_empty() || position.outcome().is_some() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                acc = acc.after(net, &position, m);
                position = position.after(m);
                prop_assert_eq!(acc, Accumulator::new(net, &position));
                prop_assert_eq!(net.evaluate_with(&acc, &position), net.evaluate(&position));
            }
        }
    }

    /// The embedded network with threat columns of small pseudo-random
    /// values.
    fn with_random_threats(seed: u64) -> Network {
        let mut net = (*Network::embedded()).clone();
        net.weights.threats = true;
        let mut rng = SplitMix::new(seed);
        for column in &mut net.weights.threat_input {
            for v in &mut column.0 {
                *v = rng.below(121) as i16 - 60;
            }
        }
        net
    }

    /// What the row loops give for `position`: its accumulator, its
    /// evaluations without and with the captures known, and its children's
    /// accumulators. Always inlined, so that each caller has its own copy.
    #[inline(always)]
    fn row_loops_of(
        net: &Network,
        position: &Position,
    ) -> (Accumulator, [i32; 2], Vec<Accumulator>) {
        let acc = Accumulator::new_inline(net, position);
        let captures = Some(position.captures().len());
        let evaluations = [None, captures].map(|c| net.evaluate_inline(&acc, position, c));
        let children = position
            .legal_moves()
            .iter()
            .map(|&m| acc.after_inline(net, position, m))
            .collect();
        (acc, evaluations, children)
    }

    proptest! {
        /// The two copies of the row loops (`wide`) give the same
        /// accumulators and evaluations, with and without threat inputs.
        /// Without AVX2 on the CPU there is one copy, and nothing to compare.
        #[test]
        fn both_copies_of_the_row_loops_agree(seed in any::<u64>(), plies in 0usize..100) {
            let plain = (*Network::embedded()).clone();
            let threats = with_random_threats(seed);
            let mut rng = SplitMix::new(seed);
            let position = random_playout(&mut rng, Position::new(), plies);
            for net in [&plain, &threats] {
                let baseline = row_loops_of(net, &position);
                if let Some(wide) = wide::run_avx2_if_available(|| row_loops_of(net, &position)) {
                    prop_assert_eq!(wide, baseline);
                }
            }
        }
    }

    #[test]
    fn a_network_with_threat_inputs_reads_back_from_its_file() {
        let net = with_random_threats(5);
        let bytes = net.to_bytes();
        assert_eq!(
            bytes.len(),
            Network::embedded().to_bytes().len() + 2 * THREAT_INPUTS * HIDDEN
        );
        assert_eq!(
            u16::from_le_bytes([bytes[6], bytes[7]]),
            file::ARCHITECTURE_THREATS
        );
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    }

    #[test]
    fn inputs_are_distinct_per_perspective() {
        for perspective in [Color::Black, Color::White] {
            let mut seen = [false; INPUTS];
            for piece in [Color::Black, Color::White] {
                for sq in Square::ALL {
                    let i = input(perspective, piece, sq);
                    assert!(!seen[i]);
                    seen[i] = true;
                }
            }
        }
    }

    #[test]
    fn colours_swapped_and_ranks_mirrored_give_the_same_evaluation() {
        // The rules do not change when the colours swap and the board is
        // mirrored, and the inputs see each side from its own side: the
        // evaluation is the same.
        let mut rng = SplitMix::new(9);
        let net = Network::embedded();
        for _ in 0..100 {
            let p = random_playout(&mut rng, Position::new(), 40);
            let mirror = surakarta::Symmetry::new(2).unwrap();
            let swapped = Position::from_sides(
                mirror.bitboard(p.us()),
                mirror.bitboard(p.them()),
                !p.turn(),
            );
            if let Ok(q) = swapped {
                assert_eq!(net.evaluate(&p), net.evaluate(&q), "{p}");
            }
        }
    }

    #[test]
    fn the_result_blends_the_network_and_the_classic_evaluation() {
        let blended = Network::embedded();
        let mut alone = (*blended).clone();
        alone.weights.classic_share = 0;
        let mut classic_only = (*blended).clone();
        classic_only.weights.classic_share = SHARE_PARTS as u16;
        let s = i32::from(blended.weights.classic_share);
        assert!(s > 0);
        let mut rng = SplitMix::new(4);
        for i in 0..200 {
            let p = random_playout(&mut rng, Position::new(), i % 80);
            let classic = crate::evaluate(&p, &blended.weights.classic_weights);
            assert_eq!(classic_only.evaluate(&p), classic, "{p}");
            let expected = (alone.evaluate(&p) * (SHARE_PARTS - s) + classic * s) / SHARE_PARTS;
            assert!((blended.evaluate(&p) - expected).abs() <= 1, "{p}");
        }
    }

    #[test]
    fn the_counts_are_the_same_under_every_symmetry() {
        let mut rng = SplitMix::new(12);
        for i in 0..200 {
            let p = random_playout(&mut rng, Position::new(), 10 + i % 60);
            let counts = feature_counts(&p, None);
            for sym in surakarta::Symmetry::ALL {
                assert_eq!(
                    feature_counts(&p.transformed(sym), None),
                    counts,
                    "{p} {sym:?}"
                );
            }
            let captures = p.legal_moves().iter().filter(|m| m.is_capture()).count();
            assert_eq!(feature_counts(&p, Some(captures)), counts, "{p}");
        }
    }

    #[test]
    fn the_embedded_network_reads() {
        let net = Network::embedded();
        assert!(net.scale > 0);
        assert!(!net.name.is_empty());
    }
}
