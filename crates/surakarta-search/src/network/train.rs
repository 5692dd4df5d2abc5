//! Training the network on CPU threads: a float model with the quantized
//! network's structure, mini-batch Adam, and the conversion into a
//! [`Network`].
//!
//! # The model
//!
//! For each perspective `p` the hidden vector is `h_p = b1 + Σ W1[input]`
//! over the pieces, clipped to `0..=1`; the output logit is
//! `a_stm · W2[b][0] + a_other · W2[b][1] + b2[b] + c · V[b]` with `b` the
//! bucket of the piece count and `c` the position's
//! [`feature_counts`]. The network's evaluation is `logit · scale`; the predicted
//! expected score of the side to move is `sigmoid(logit)`.
//!
//! # The loss
//!
//! The mean squared error between `sigmoid(logit)` and the target
//! `λ · sigmoid(score / K) + (1 − λ) · result` (just the result for records
//! whose label is the tables' exact value, and for records whose score is
//! decisive, `|score| ≥` [`TrainOptions::max_score`]). `K` is the network's
//! scale, fitted on the data by [`TrainingSet::fit_scale`] unless given.
//!
//! # Determinism
//!
//! Every batch is split into [`CHUNKS`] fixed parts whatever the number of
//! threads; each part's gradient is summed on its own and the parts are
//! added in order. The result depends on the data, the options and the seed
//! only: the same run on 1 or 16 threads gives the same bytes.
//!
//! # Examples
//!
//! ```
//! use surakarta::random::{random_playout, SplitMix};
//! use surakarta::{Color, Position};
//! use surakarta_search::network::data::TrainingPosition;
//! use surakarta_search::network::train::{train, TrainOptions, TrainingSet};
//! use surakarta_tablebase::Wdl;
//!
//! // Label random positions by material: more pieces wins.
//! let mut rng = SplitMix::new(1);
//! let records: Vec<TrainingPosition> = (0..2000)
//!     .map(|i| {
//!         let position = random_playout(&mut rng, Position::new(), 20 + i % 60);
//!         let us = position.pieces(position.turn()).len() as i32;
//!         let them = position.pieces(!position.turn()).len() as i32;
//!         let label = match us.cmp(&them) {
//!             std::cmp::Ordering::Greater => Wdl::Win,
//!             std::cmp::Ordering::Equal => Wdl::Draw,
//!             std::cmp::Ordering::Less => Wdl::Loss,
//!         };
//!         let score = (100 * (us - them)) as i16;
//!         TrainingPosition { position, score, label, exact: false, ply: 0 }
//!     })
//!     .collect();
//! let mut set = TrainingSet::new(0.1)?;
//! set.add(&records);
//! let options = TrainOptions { epochs: 2, batch: 256, threads: 1, ..TrainOptions::default() };
//! let trained = train(&set, &options, None, &mut |_| {})?;
//! let net = trained.quantize("material example")?;
//! assert_eq!(net.scale, trained.scale);
//! # Ok::<(), surakarta_search::network::train::TrainError>(())
//! ```

use std::time::{Duration, Instant};

use rayon::prelude::*;
use surakarta::random::SplitMix;
use surakarta::{Bitboard, Color, Position, Square, Symmetry};

use super::data::{label_byte, TrainingPosition};
use super::file::{MAX_FEATURE_WEIGHT, MAX_NAME};
use super::{
    bucket, feature_counts, input, Network, NetworkError, Row, Threats, Weights, BUCKETS, FEATURES,
    HIDDEN, INPUTS, QA, QB, SHARE_PARTS, THREAT_INPUTS,
};

/// The bound of the first layer's weights and biases and of the output
/// weights, kept after every step: `round(1.98 · 255) = 505`, and a hidden
/// unit's bias plus 24 columns stays below 25 · 505 = 12,625, far inside
/// `i16`; an output weight is at most `round(1.98 · 64) = 127`.
pub const WEIGHT_LIMIT: f32 = 1.98;
/// The bound of an output bias, in logits (quantized: `· QA · QB`).
pub const OUTPUT_BIAS_LIMIT: f32 = 64.0;
/// The bound of a count's weight, in logits per count (quantized:
/// `· QA · QB`, far inside the file's bound).
pub const COUNT_WEIGHT_LIMIT: f32 = 8.0;
/// The fixed parts a batch is split into for the threads (see the module's
/// determinism note).
pub const CHUNKS: usize = 16;
/// Most passes over the training positions ([`TrainOptions::epochs`]):
/// a run keeps a report per epoch.
pub const MAX_EPOCHS: usize = 100_000;
/// Most positions per gradient step ([`TrainOptions::batch`]).
pub const MAX_BATCH: usize = 1 << 24;
/// Most training positions a set holds (each with each symmetry must be
/// numbered in 32 bits).
pub const MAX_POSITIONS: usize = (u32::MAX / 8) as usize;

const W1: usize = 0;
const B1: usize = INPUTS * HIDDEN;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + BUCKETS * 2 * HIDDEN;
const V: usize = B2 + BUCKETS;
const T1: usize = V + BUCKETS * FEATURES;
/// The float model's parameter count.
pub const PARAMETERS: usize = T1 + THREAT_INPUTS * HIDDEN;

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// Why training could not run or its network could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TrainError {
    /// An option is out of range.
    #[error("{0}")]
    Options(String),
    /// No position is left for training after the validation share.
    #[error("no training positions (the data is empty or all of it went to validation)")]
    NoPositions,
    /// More positions than a set holds.
    #[error("more than {MAX_POSITIONS} training positions")]
    TooManyPositions,
    /// The scale cannot be fitted: no record has a non-zero, non-decisive
    /// score.
    #[error("cannot fit the scale: no record has a non-zero, non-decisive score (give the scale)")]
    NoScores,
    /// The thread pool could not be started.
    #[error("cannot start {threads} threads: {message}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// What rayon said.
        message: String,
    },
    /// The network name is longer than a file holds.
    #[error("network name is {0} bytes, at most {MAX_NAME}")]
    Name(usize),
    /// The quantized network failed the file's checks.
    #[error("quantized network is invalid: {0}")]
    Network(#[from] NetworkError),
}

/// Which of the board's eight symmetries each position is trained with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Augment {
    /// The position as recorded.
    None,
    /// The position or its mirror image across the files (left and right
    /// swapped), drawn per position and epoch from the seed: the one
    /// symmetry that keeps each side's home ranks, so that positions from
    /// games of the start position stay such positions.
    Mirror,
    /// One of the eight symmetries per position and epoch, drawn from the
    /// seed.
    Random,
    /// All eight: an epoch passes every position eight times.
    All,
}

/// The training run's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainOptions {
    /// Passes over the training positions (1 to [`MAX_EPOCHS`]).
    pub epochs: usize,
    /// Positions per gradient step (1 to [`MAX_BATCH`]).
    pub batch: usize,
    /// Adam's learning rate.
    pub lr: f32,
    /// The epoch after which the learning rate is multiplied by
    /// [`lr_drop_factor`](Self::lr_drop_factor); `None`: after three
    /// quarters of the epochs.
    pub lr_drop_epoch: Option<usize>,
    /// The factor of the learning rate drop.
    pub lr_drop_factor: f32,
    /// The weight of the search score in the target (0 to 1).
    pub lambda: f32,
    /// The scale `K` (evaluation units per logit); `None`: fitted on the
    /// training positions.
    pub scale: Option<i32>,
    /// Scores of at least this magnitude are decisive: such records are
    /// trained on their result alone and left out of the scale fit.
    pub max_score: i32,
    /// Worker threads (at least 1); the result does not depend on it.
    pub threads: usize,
    /// The seed of the initial weights, the order and the symmetries.
    pub seed: u64,
    /// Which symmetries positions are trained with.
    pub augment: Augment,
    /// Whether the weights of the [`feature_counts`] are trained; `false`
    /// keeps them 0 (a network of the pieces' points alone).
    pub counts: bool,
    /// The classic evaluation's share of the quantized network's result
    /// (0 to 1, stored in 256ths; see [`Weights::classic_share`]). Training
    /// fits the network alone; the share applies to its evaluations.
    pub classic_share: f32,
    /// Whether the network has the threat inputs ([`Weights::threats`]);
    /// `false` keeps their columns out of training and of the file, unless
    /// training starts from a network that has them.
    pub threats: bool,
}

impl Default for TrainOptions {
    fn default() -> TrainOptions {
        TrainOptions {
            epochs: 20,
            batch: 16_384,
            lr: 0.001,
            lr_drop_epoch: None,
            lr_drop_factor: 0.1,
            lambda: 0.5,
            scale: None,
            max_score: 10_000,
            threads: 1,
            seed: 1,
            augment: Augment::Mirror,
            counts: true,
            classic_share: 0.35,
            threats: false,
        }
    }
}

impl TrainOptions {
    /// Checks the ranges.
    pub fn check(&self) -> Result<(), TrainError> {
        let bad = |s: String| Err(TrainError::Options(s));
        if !(1..=MAX_EPOCHS).contains(&self.epochs) {
            return bad(format!("epochs {} must be 1 to {MAX_EPOCHS}", self.epochs));
        }
        if !(1..=MAX_BATCH).contains(&self.batch) {
            return bad(format!("batch {} must be 1 to {MAX_BATCH}", self.batch));
        }
        if !(self.lr.is_finite() && self.lr > 0.0) {
            return bad(format!("learning rate {} must be positive", self.lr));
        }
        if !(self.lr_drop_factor.is_finite() && self.lr_drop_factor > 0.0) {
            return bad(format!(
                "learning rate drop factor {} must be positive",
                self.lr_drop_factor
            ));
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return bad(format!("lambda {} must be 0 to 1", self.lambda));
        }
        if let Some(k) = self.scale {
            if !(1..=100_000).contains(&k) {
                return bad(format!("scale {k} must be 1 to 100000"));
            }
        }
        if self.max_score <= 0 {
            return bad(format!("max score {} must be positive", self.max_score));
        }
        if self.threads == 0 {
            return bad("threads must be at least 1".into());
        }
        if !(0.0..=1.0).contains(&self.classic_share) {
            return bad(format!(
                "classic share {} must be 0 to 1",
                self.classic_share
            ));
        }
        Ok(())
    }
}

/// One position in training form: the two sides' points, the side to
/// move, the score, the label and the counts (24 bytes; the inputs are
/// derived per symmetry from the points as the position is used, and the
/// counts are the same under every symmetry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sample {
    black: u64,
    white: u64,
    score: i16,
    /// 0 loss, 1 draw, 2 win.
    label: u8,
    /// Bit 0 White to move, bit 1 exact label.
    flags: u8,
    /// The position's [`feature_counts`], within `i8`.
    counts: [i8; FEATURES],
}

impl Sample {
    fn white_to_move(self) -> bool {
        self.flags & 1 != 0
    }
    fn exact(self) -> bool {
        self.flags & 2 != 0
    }
    fn result(self) -> f32 {
        f32::from(self.label) * 0.5
    }
    fn counts(self) -> [f32; FEATURES] {
        self.counts.map(f32::from)
    }
}

/// Training positions, split into a training and a validation part.
///
/// The split is by a hash of the position up to symmetry, so that a
/// position (and every image of it) lands in the same part in every run and
/// in every file it appears in.
#[derive(Clone, Debug, Default)]
pub struct TrainingSet {
    train: Vec<Sample>,
    validation: Vec<Sample>,
    /// Out of 2⁶⁴: hashes below it are validation.
    threshold: u64,
    /// Out of 2⁶⁴: exactly labelled positions whose keep hash is at or
    /// above it are left out (`u64::MAX`: none).
    exact_keep: u64,
    /// The exactly labelled positions left out.
    exact_left_out: u64,
}

impl TrainingSet {
    /// An empty set that keeps `validation_share` (0 to below 1) of the
    /// positions for validation.
    pub fn new(validation_share: f64) -> Result<TrainingSet, TrainError> {
        if !(0.0..1.0).contains(&validation_share) {
            return Err(TrainError::Options(format!(
                "validation share {validation_share} must be at least 0 and below 1"
            )));
        }
        Ok(TrainingSet {
            train: Vec::new(),
            validation: Vec::new(),
            threshold: (validation_share * 2f64.powi(64)) as u64,
            exact_keep: u64::MAX,
            exact_left_out: 0,
        })
    }

    /// The set that keeps only `share` (0 to 1) of the positions labelled
    /// exactly by the tables among those added from now on, chosen by a
    /// hash of the position (its symmetric images alike), so the same
    /// positions in every run and file; the others are kept whole. For
    /// data whose games all end in the tables, where endgames would
    /// otherwise weigh as much as the rest.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::Position;
    /// use surakarta_search::network::data::TrainingPosition;
    /// use surakarta_search::network::train::TrainingSet;
    /// use surakarta_tablebase::Wdl;
    ///
    /// let exact = TrainingPosition { position: Position::new(), score: 0, label: Wdl::Draw, exact: true, ply: 0 };
    /// let mut set = TrainingSet::new(0.0)?.keeping_exact(0.0)?;
    /// set.add(&[exact, TrainingPosition { exact: false, ..exact }]);
    /// assert_eq!((set.training_len(), set.exact_left_out()), (1, 1));
    /// # Ok::<(), surakarta_search::network::train::TrainError>(())
    /// ```
    pub fn keeping_exact(self, share: f64) -> Result<TrainingSet, TrainError> {
        if !(0.0..=1.0).contains(&share) {
            return Err(TrainError::Options(format!(
                "exact share {share} must be from 0 to 1"
            )));
        }
        let exact_keep = if share >= 1.0 {
            u64::MAX
        } else {
            (share * 2f64.powi(64)) as u64
        };
        Ok(TrainingSet { exact_keep, ..self })
    }

    /// The exactly labelled positions [`keeping_exact`](Self::keeping_exact)
    /// left out.
    #[must_use]
    pub fn exact_left_out(&self) -> u64 {
        self.exact_left_out
    }

    /// Adds records, converted into the compact training form.
    pub fn add(&mut self, records: &[TrainingPosition]) {
        for r in records {
            let p = &r.position;
            let hash = split_hash(p);
            if r.exact
                && self.exact_keep != u64::MAX
                && SplitMix::new(hash ^ EXACT_KEEP_SALT).next_u64() >= self.exact_keep
            {
                self.exact_left_out += 1;
                continue;
            }
            let sample = Sample {
                black: p.pieces(Color::Black).bits(),
                white: p.pieces(Color::White).bits(),
                score: r.score,
                label: label_byte(r.label),
                flags: u8::from(p.turn() == Color::White) | (u8::from(r.exact) << 1),
                counts: sample_counts(p),
            };
            if hash < self.threshold {
                self.validation.push(sample);
            } else {
                self.train.push(sample);
            }
        }
    }

    /// Positions in the training part.
    #[must_use]
    pub fn training_len(&self) -> usize {
        self.train.len()
    }

    /// Positions in the validation part.
    #[must_use]
    pub fn validation_len(&self) -> usize {
        self.validation.len()
    }

    /// The scale `K` that best predicts the results from the scores: the
    /// `K` minimising the mean squared error of `sigmoid(score / K)`
    /// against the result over the training positions whose score is not 0
    /// and below `max_score` in magnitude (as Texel tuning fits it). A
    /// search over `K` from 10 to 10,000, rounded to a whole unit.
    pub fn fit_scale(&self, max_score: i32) -> Result<i32, TrainError> {
        // Count (score, result) pairs: the error is then a sum over the
        // distinct pairs, however many positions there are.
        let mut counts = std::collections::BTreeMap::<(i16, u8), u64>::new();
        for s in &self.train {
            if s.score != 0 && i32::from(s.score).abs() < max_score {
                *counts.entry((s.score, s.label)).or_default() += 1;
            }
        }
        if counts.is_empty() {
            return Err(TrainError::NoScores);
        }
        let error = |k: f64| -> f64 {
            counts
                .iter()
                .map(|(&(score, label), &n)| {
                    let d = sigmoid64(f64::from(score) / k) - f64::from(label) * 0.5;
                    n as f64 * d * d
                })
                .sum()
        };
        // A coarse scan on a log scale, then golden-section search between
        // the neighbours of the best point.
        let (lo, hi, steps) = (10f64.ln(), 10_000f64.ln(), 120);
        let at = |i: usize| (lo + (hi - lo) * i as f64 / steps as f64).exp();
        let best = (0..=steps)
            .map(|i| (i, error(at(i))))
            .fold((0, f64::INFINITY), |b, x| if x.1 < b.1 { x } else { b })
            .0;
        let (mut a, mut b) = (at(best.saturating_sub(1)), at((best + 1).min(steps)));
        let ratio = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..60 {
            let c = b - ratio * (b - a);
            let d = a + ratio * (b - a);
            if error(c) < error(d) {
                b = d;
            } else {
                a = c;
            }
        }
        Ok((((a + b) / 2.0).round() as i32).clamp(1, 100_000))
    }
}

/// The position's [`feature_counts`] as a training sample holds them,
/// within `i8`.
fn sample_counts(position: &Position) -> [i8; FEATURES] {
    feature_counts(position, None).map(|c| c.clamp(-127, 127) as i8)
}

/// The points of the [`Threats`] of Black's pieces `black` and White's
/// `white`, as [`Inputs::fill`] takes them: Black's and White's attacked
/// pieces, then Black's and White's attackers. Computed as a position is
/// used, so a set trained without threat inputs holds nothing of them.
fn threat_points(black: u64, white: u64) -> [u64; 4] {
    let t = Threats::of_sides(
        Bitboard::from_bits_truncate(black),
        Bitboard::from_bits_truncate(white),
    );
    [
        t.attacked[0].bits(),
        t.attacked[1].bits(),
        t.attackers[0].bits(),
        t.attackers[1].bits(),
    ]
}

/// Mixed into a position's split hash for the choice of the exactly
/// labelled positions kept, so that it does not follow the validation split.
const EXACT_KEEP_SALT: u64 = 0x6A09_E667_F3BC_C909;

/// A hash of the position up to the board's symmetries (the smallest
/// image's points and the side to move).
fn split_hash(p: &Position) -> u64 {
    let (black, white) = (p.pieces(Color::Black), p.pieces(Color::White));
    let canonical = Symmetry::ALL
        .iter()
        .map(|&s| (s.bitboard(black).bits(), s.bitboard(white).bits()))
        .min()
        .unwrap_or((black.bits(), white.bits()));
    let mut rng = SplitMix::new(canonical.0 ^ canonical.1.rotate_left(29));
    let mut h = rng.next_u64() ^ u64::from(p.turn() == Color::White);
    h = SplitMix::new(h).next_u64();
    h
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn sigmoid64(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The input index of every (symmetry, perspective, colour, point).
type InputTable = [[[[u8; 36]; 2]; 2]; 8];

fn input_table() -> &'static InputTable {
    static TABLE: std::sync::OnceLock<Box<InputTable>> = std::sync::OnceLock::new();
    TABLE.get_or_init(build_input_table)
}

fn build_input_table() -> Box<InputTable> {
    let mut t = Box::new([[[[0u8; 36]; 2]; 2]; 8]);
    for sym in Symmetry::ALL {
        for perspective in [Color::Black, Color::White] {
            for piece in [Color::Black, Color::White] {
                for sq in Square::ALL {
                    t[sym.index()][perspective.index()][piece.index()][sq.index()] =
                        input(perspective, piece, sym.square(sq)) as u8;
                }
            }
        }
    }
    t
}

/// The float model: the quantized network's structure with `f32`
/// parameters.
///
/// The parameters are one vector ([`parameters`](Self::parameters)): the
/// first layer input-major (72 columns of 128), its bias (128), the output
/// layer bucket-major (4 × 2 × 128: the side to move's half, then the
/// opponent's), the output biases (4) and the counts' weights
/// bucket-major (4 × 3), all in float units (a hidden unit clips at 1.0;
/// an output is a logit).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    params: Vec<f32>,
    /// Whether the threat inputs' columns are part of the model.
    threats: bool,
}

impl FloatNetwork {
    /// Random initial weights from `seed`: the first layer uniform in
    /// ±0.15 with biases 0.25 (the hidden units start inside their linear
    /// range), the output uniform in ±1/16, output biases and the counts'
    /// weights 0.
    #[must_use]
    pub fn random(seed: u64) -> FloatNetwork {
        let mut rng = SplitMix::new(seed);
        let mut uniform =
            |a: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a;
        let mut params = vec![0.0f32; PARAMETERS];
        for w in &mut params[W1..B1] {
            *w = uniform(0.15);
        }
        for b in &mut params[B1..W2] {
            *b = 0.25;
        }
        for w in &mut params[W2..B2] {
            *w = uniform(1.0 / 16.0);
        }
        FloatNetwork {
            params,
            threats: false,
        }
    }

    /// The float model of a quantized network (to train it further).
    #[must_use]
    pub fn from_network(net: &Network) -> FloatNetwork {
        let w = &net.weights;
        let mut params = Vec::with_capacity(PARAMETERS);
        let qa = QA as f32;
        let qb = QB as f32;
        for column in &w.input {
            params.extend(column.0.iter().map(|&v| f32::from(v) / qa));
        }
        params.extend(w.input_bias.0.iter().map(|&v| f32::from(v) / qa));
        for half in w.output.iter().flatten() {
            params.extend(half.0.iter().map(|&v| f32::from(v) / qb));
        }
        params.extend(w.output_bias.iter().map(|&v| v as f32 / (qa * qb)));
        params.extend(w.features.iter().flatten().map(|&v| v as f32 / (qa * qb)));
        for column in &w.threat_input {
            params.extend(column.0.iter().map(|&v| f32::from(v) / qa));
        }
        FloatNetwork {
            params,
            threats: w.threats,
        }
    }

    /// The parameters, laid out as the type's documentation says.
    #[must_use]
    pub fn parameters(&self) -> &[f32] {
        &self.params
    }

    /// The output logit for the side to move of `position`.
    #[must_use]
    pub fn logit(&self, position: &Position) -> f32 {
        let black = position.pieces(Color::Black).bits();
        let white = position.pieces(Color::White).bits();
        let mut inputs = Inputs::default();
        let table = input_table();
        let threats = self.threats.then(|| threat_points(black, white));
        inputs.fill(&table[0], black, white, threats.as_ref());
        inputs.counts = sample_counts(position).map(f32::from);
        let turn = usize::from(position.turn() == Color::White);
        let mut hidden = [[0f32; HIDDEN]; 2];
        forward(&self.params, &inputs, turn, &mut hidden)
    }

    /// The evaluation of `position` for the side to move in evaluation
    /// units: the logit times `scale`.
    #[must_use]
    pub fn evaluate(&self, position: &Position, scale: i32) -> f32 {
        self.logit(position) * scale as f32
    }

    /// The quantized network: the first layer by `QA`, the output weights
    /// by `QB`, the output biases and the counts' weights by `QA · QB`,
    /// each rounded, blended with the default classic evaluation in
    /// `classic_share` (0 to 1, rounded to 256ths); checked as a file is
    /// (the accumulator bound).
    pub fn quantize(
        &self,
        name: &str,
        scale: i32,
        classic_share: f32,
    ) -> Result<Network, TrainError> {
        if name.len() > MAX_NAME {
            return Err(TrainError::Name(name.len()));
        }
        let q16 = |v: f32, by: i32| (v * by as f32).round().clamp(-32767.0, 32767.0) as i16;
        let row = |from: usize, by: i32| {
            let mut r = Row([0; HIDDEN]);
            for (q, &v) in r.0.iter_mut().zip(&self.params[from..from + HIDDEN]) {
                *q = q16(v, by);
            }
            r
        };
        let mut weights = Box::new(Weights {
            input: [Row([0; HIDDEN]); INPUTS],
            threat_input: [Row([0; HIDDEN]); THREAT_INPUTS],
            threats: self.threats,
            input_bias: row(B1, QA),
            output: [[Row([0; HIDDEN]); 2]; BUCKETS],
            output_bias: [0; BUCKETS],
            features: [[0; FEATURES]; BUCKETS],
            classic_share: (classic_share.clamp(0.0, 1.0) * SHARE_PARTS as f32).round() as u16,
            classic_weights: crate::Weights::DEFAULT,
        });
        for (i, column) in weights.input.iter_mut().enumerate() {
            *column = row(W1 + i * HIDDEN, QA);
        }
        if self.threats {
            for (i, column) in weights.threat_input.iter_mut().enumerate() {
                *column = row(T1 + i * HIDDEN, QA);
            }
        }
        for (b, halves) in weights.output.iter_mut().enumerate() {
            for (h, half) in halves.iter_mut().enumerate() {
                *half = row(W2 + (b * 2 + h) * HIDDEN, QB);
            }
        }
        for (b, bias) in weights.output_bias.iter_mut().enumerate() {
            *bias = (self.params[B2 + b] * (QA * QB) as f32).round() as i32;
        }
        for (b, weights) in weights.features.iter_mut().enumerate() {
            for (j, weight) in weights.iter_mut().enumerate() {
                let limit = MAX_FEATURE_WEIGHT as f32;
                *weight = (self.params[V + b * FEATURES + j] * (QA * QB) as f32)
                    .round()
                    .clamp(-limit, limit) as i32;
            }
        }
        let net = Network {
            name: name.to_owned(),
            scale,
            weights,
        };
        // Reading the bytes back runs every check a file gets.
        Ok(Network::from_bytes(&net.to_bytes())?)
    }

    /// Keeps every parameter within its bound; the counts' weights at 0
    /// unless `counts`.
    fn clip(&mut self, counts: bool) {
        for w in &mut self.params[W1..B2] {
            *w = w.clamp(-WEIGHT_LIMIT, WEIGHT_LIMIT);
        }
        let limit = if self.threats { WEIGHT_LIMIT } else { 0.0 };
        for w in &mut self.params[T1..] {
            *w = w.clamp(-limit, limit);
        }
        for b in &mut self.params[B2..V] {
            *b = b.clamp(-OUTPUT_BIAS_LIMIT, OUTPUT_BIAS_LIMIT);
        }
        let limit = if counts { COUNT_WEIGHT_LIMIT } else { 0.0 };
        for v in &mut self.params[V..T1] {
            *v = v.clamp(-limit, limit);
        }
    }
}

/// The most inputs a position sets per perspective: 24 pieces, and as
/// many attacked pieces and attackers.
const MAX_SET: usize = 72;

/// The set inputs of a position for both perspectives, and its counts.
/// An index below [`INPUTS`] is a piece's; one above, `INPUTS` plus a
/// threat input's.
#[derive(Clone, Copy)]
struct Inputs {
    index: [[u8; MAX_SET]; 2],
    len: usize,
    bucket: usize,
    counts: [f32; FEATURES],
}

impl Default for Inputs {
    fn default() -> Inputs {
        Inputs {
            index: [[0; MAX_SET]; 2],
            len: 0,
            bucket: 0,
            counts: [0.0; FEATURES],
        }
    }
}

impl Inputs {
    /// The inputs of the points `black` and `white` and, if given, of the
    /// threats (as [`threat_points`] gives them), through `table`.
    fn fill(
        &mut self,
        table: &[[[u8; 36]; 2]; 2],
        black: u64,
        white: u64,
        threats: Option<&[u64; 4]>,
    ) {
        self.len = 0;
        for (colour, bits) in [(0, black), (1, white)] {
            self.push(table, colour, bits, 0);
        }
        self.bucket = bucket(self.len as u32);
        if let Some(t) = threats {
            for (kind, sets) in [[t[0], t[1]], [t[2], t[3]]].into_iter().enumerate() {
                for (colour, bits) in sets.into_iter().enumerate() {
                    self.push(table, colour, bits, INPUTS + 72 * kind);
                }
            }
        }
    }

    fn push(&mut self, table: &[[[u8; 36]; 2]; 2], colour: usize, mut bits: u64, offset: usize) {
        while bits != 0 && self.len < MAX_SET {
            let sq = (bits.trailing_zeros() as usize).min(35);
            bits &= bits - 1;
            for (index, table) in self.index.iter_mut().zip(table) {
                index[self.len] = (usize::from(table[colour][sq]) + offset) as u8;
            }
            self.len += 1;
        }
    }
}

/// Where the column of input `i` (as [`Inputs`] numbers them) starts.
#[inline]
fn column_at(i: u8) -> usize {
    let i = usize::from(i);
    if i < INPUTS {
        W1 + i * HIDDEN
    } else {
        T1 + (i - INPUTS) * HIDDEN
    }
}

#[inline(always)]
fn column(params: &[f32], at: usize) -> &[f32; HIDDEN] {
    params[at..at + HIDDEN].try_into().unwrap_or(&[0.0; HIDDEN])
}

#[inline(always)]
fn column_mut(params: &mut [f32], at: usize) -> &mut [f32; HIDDEN] {
    let slice = &mut params[at..at + HIDDEN];
    <&mut [f32; HIDDEN]>::try_from(slice).unwrap_or_else(|_| unreachable!())
}

#[inline(always)]
fn add_to(to: &mut [f32; HIDDEN], from: &[f32; HIDDEN]) {
    for (t, f) in to.iter_mut().zip(from) {
        *t += f;
    }
}

/// The logit; `hidden` receives both perspectives' pre-activations (Black,
/// White).
#[inline(always)]
fn forward(params: &[f32], inputs: &Inputs, turn: usize, hidden: &mut [[f32; HIDDEN]; 2]) -> f32 {
    let bias = column(params, B1);
    for (p, h) in hidden.iter_mut().enumerate() {
        *h = *bias;
        for &i in &inputs.index[p][..inputs.len] {
            add_to(h, column(params, column_at(i)));
        }
    }
    let b = inputs.bucket;
    let mut out = params[B2 + b];
    for (c, v) in inputs.counts.iter().zip(&params[V + b * FEATURES..]) {
        out += c * v;
    }
    for (half, p) in [turn, 1 - turn].into_iter().enumerate() {
        let w = column(params, W2 + (b * 2 + half) * HIDDEN);
        // Eight running sums, so that the loop vectorizes.
        let mut sum = [0f32; 8];
        for (h, w) in hidden[p].chunks_exact(8).zip(w.chunks_exact(8)) {
            for k in 0..8 {
                sum[k] += h[k].clamp(0.0, 1.0) * w[k];
            }
        }
        out += sum.iter().sum::<f32>();
    }
    out
}

/// Adds one position's gradient of the squared error to `grad`; returns
/// the squared error.
#[inline(always)]
fn backward(params: &[f32], inputs: &Inputs, turn: usize, target: f32, grad: &mut [f32]) -> f32 {
    let mut hidden = [[0f32; HIDDEN]; 2];
    let logit = forward(params, inputs, turn, &mut hidden);
    let predicted = sigmoid(logit);
    let error = predicted - target;
    let g = 2.0 * error * predicted * (1.0 - predicted);
    let b = inputs.bucket;
    grad[B2 + b] += g;
    for (c, v) in inputs.counts.iter().zip(&mut grad[V + b * FEATURES..]) {
        *v += g * c;
    }
    for (half, p) in [turn, 1 - turn].into_iter().enumerate() {
        let at = W2 + (b * 2 + half) * HIDDEN;
        let w = *column(params, at);
        let h = &hidden[p];
        let mut dh = [0f32; HIDDEN];
        let gw = column_mut(grad, at);
        for j in 0..HIDDEN {
            gw[j] += g * h[j].clamp(0.0, 1.0);
            dh[j] = if h[j] > 0.0 && h[j] < 1.0 {
                g * w[j]
            } else {
                0.0
            };
        }
        add_to(column_mut(grad, B1), &dh);
        // The first layer's gradient: only the set inputs' columns.
        for &i in &inputs.index[p][..inputs.len] {
            add_to(column_mut(grad, column_at(i)), &dh);
        }
    }
    error * error
}

/// What an epoch ended with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// The epoch, from 1.
    pub epoch: usize,
    /// Of how many.
    pub epochs: usize,
    /// The mean loss over the epoch's training positions (as the weights
    /// were while each batch was computed).
    pub train_loss: f64,
    /// The mean loss over the validation positions after the epoch; `None`
    /// without validation positions.
    pub validation_loss: Option<f64>,
    /// The learning rate of the epoch.
    pub lr: f32,
    /// Training positions passed in the epoch (eight times the training
    /// positions with [`Augment::All`]).
    pub samples: usize,
    /// Training positions (with their symmetries) per second of the
    /// epoch's training, without the validation.
    pub samples_per_second: f64,
    /// The epoch's time, validation included.
    pub elapsed: Duration,
}

/// A finished training run.
#[derive(Clone, Debug, PartialEq)]
pub struct Trained {
    /// The float model.
    pub network: FloatNetwork,
    /// The scale `K`, given or fitted.
    pub scale: i32,
    /// Whether `scale` was fitted on the data.
    pub scale_fitted: bool,
    /// Every epoch's report.
    pub epochs: Vec<EpochReport>,
    /// Training positions.
    pub training_positions: usize,
    /// Validation positions.
    pub validation_positions: usize,
    /// The whole run's time.
    pub elapsed: Duration,
    /// The classic evaluation's share of the quantized network's result.
    pub classic_share: f32,
}

impl Trained {
    /// The quantized network, named `name` (at most 255 bytes), with the
    /// run's classic share.
    pub fn quantize(&self, name: &str) -> Result<Network, TrainError> {
        self.network.quantize(name, self.scale, self.classic_share)
    }
}

fn targets(samples: &[Sample], options: &TrainOptions, scale: i32) -> Vec<f32> {
    samples
        .iter()
        .map(|s| {
            let result = s.result();
            if s.exact() || i32::from(s.score).abs() >= options.max_score {
                result
            } else {
                options.lambda * sigmoid(f32::from(s.score) / scale as f32)
                    + (1.0 - options.lambda) * result
            }
        })
        .collect()
}

/// Trains a network on `set`'s training positions (from `start`, or from
/// random weights of the seed), reporting each epoch to `progress`.
pub fn train(
    set: &TrainingSet,
    options: &TrainOptions,
    start: Option<&FloatNetwork>,
    progress: &mut dyn FnMut(&EpochReport),
) -> Result<Trained, TrainError> {
    let began = Instant::now();
    options.check()?;
    if set.train.is_empty() {
        return Err(TrainError::NoPositions);
    }
    if set.train.len() > MAX_POSITIONS {
        return Err(TrainError::TooManyPositions);
    }
    let (scale, scale_fitted) = match options.scale {
        Some(k) => (k, false),
        None => (set.fit_scale(options.max_score)?, true),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| TrainError::Threads {
            threads: options.threads,
            message: e.to_string(),
        })?;
    let train_targets = targets(&set.train, options, scale);
    let validation_targets = targets(&set.validation, options, scale);
    let table = input_table();
    let mut net = start
        .cloned()
        .unwrap_or_else(|| FloatNetwork::random(options.seed));
    // A network started from one with threat inputs keeps them.
    net.threats |= options.threats;
    net.clip(options.counts);
    let mut m = vec![0f32; PARAMETERS];
    let mut v = vec![0f32; PARAMETERS];
    let mut step = 0i32;
    let mut buffers = vec![vec![0f32; PARAMETERS]; CHUNKS];
    let mut total = vec![0f32; PARAMETERS];
    let drop_after = options
        .lr_drop_epoch
        .unwrap_or((options.epochs * 3).div_ceil(4));
    let copies = if options.augment == Augment::All {
        8
    } else {
        1
    };
    let mut reports = Vec::with_capacity(options.epochs);
    for epoch in 1..=options.epochs {
        let epoch_began = Instant::now();
        let lr = if epoch > drop_after {
            options.lr * options.lr_drop_factor
        } else {
            options.lr
        };
        let order = epoch_order(set.train.len(), copies, options, epoch);
        let mut loss_sum = 0f64;
        for batch in order.chunks(options.batch) {
            let part = batch.len().div_ceil(CHUNKS);
            let losses: Vec<f64> = pool.install(|| {
                buffers
                    .par_iter_mut()
                    .enumerate()
                    .map(|(c, grad)| {
                        super::wide::run(|| {
                            grad.fill(0.0);
                            let from = (c * part).min(batch.len());
                            let to = ((c + 1) * part).min(batch.len());
                            let mut loss = 0f64;
                            let mut inputs = Inputs::default();
                            for &entry in &batch[from..to] {
                                let (i, sym) = ((entry >> 3) as usize, (entry & 7) as usize);
                                let s = set.train[i];
                                let threats =
                                    options.threats.then(|| threat_points(s.black, s.white));
                                inputs.fill(&table[sym], s.black, s.white, threats.as_ref());
                                inputs.counts = s.counts();
                                loss += f64::from(backward(
                                    &net.params,
                                    &inputs,
                                    usize::from(s.white_to_move()),
                                    train_targets[i],
                                    grad,
                                ));
                            }
                            loss
                        })
                    })
                    .collect()
            });
            loss_sum += losses.iter().sum::<f64>();
            total.fill(0.0);
            for grad in &buffers {
                for (t, g) in total.iter_mut().zip(grad) {
                    *t += g;
                }
            }
            // Saturates: past 2³¹ steps the bias correction is 1 anyway.
            step = step.saturating_add(1);
            let scale = 1.0 / batch.len() as f32;
            let correction = (1.0 - BETA2.powi(step)).sqrt() / (1.0 - BETA1.powi(step));
            let rate = lr * correction;
            for (((p, g), m), v) in net.params.iter_mut().zip(&total).zip(&mut m).zip(&mut v) {
                let g = g * scale;
                *m = BETA1 * *m + (1.0 - BETA1) * g;
                *v = BETA2 * *v + (1.0 - BETA2) * g * g;
                *p -= rate * *m / (v.sqrt() + EPSILON);
            }
            net.clip(options.counts);
        }
        let trained_in = epoch_began.elapsed();
        let validation_loss = if set.validation.is_empty() {
            None
        } else {
            Some(validation(
                &pool,
                &net,
                &set.validation,
                &validation_targets,
                &table[0],
                options.threats,
            ))
        };
        let report = EpochReport {
            epoch,
            epochs: options.epochs,
            train_loss: loss_sum / order.len() as f64,
            validation_loss,
            lr,
            samples: order.len(),
            samples_per_second: order.len() as f64 / trained_in.as_secs_f64().max(1e-9),
            elapsed: epoch_began.elapsed(),
        };
        progress(&report);
        reports.push(report);
    }
    Ok(Trained {
        network: net,
        scale,
        scale_fitted,
        epochs: reports,
        training_positions: set.train.len(),
        validation_positions: set.validation.len(),
        elapsed: began.elapsed(),
        classic_share: options.classic_share,
    })
}

/// The epoch's shuffled entries `index · 8 + symmetry`.
fn epoch_order(n: usize, copies: usize, options: &TrainOptions, epoch: usize) -> Vec<u32> {
    let mut rng = SplitMix::new(options.seed ^ (epoch as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut order: Vec<u32> = Vec::with_capacity(n * copies);
    for i in 0..n {
        match options.augment {
            Augment::None => order.push((i as u32) << 3),
            Augment::Mirror => order.push(((i as u32) << 3) | (rng.next_u64() >> 63) as u32),
            Augment::Random => order.push(((i as u32) << 3) | (rng.next_u64() >> 61) as u32),
            Augment::All => order.extend((0..8).map(|s| ((i as u32) << 3) | s)),
        }
    }
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    order
}

/// The mean loss over the validation positions, as recorded (no symmetry).
fn validation(
    pool: &rayon::ThreadPool,
    net: &FloatNetwork,
    samples: &[Sample],
    targets: &[f32],
    table: &[[[u8; 36]; 2]; 2],
    threats: bool,
) -> f64 {
    let part = samples.len().div_ceil(CHUNKS * 4);
    let sums: Vec<f64> = pool.install(|| {
        samples
            .par_chunks(part)
            .zip(targets.par_chunks(part))
            .map(|(samples, targets)| {
                let mut inputs = Inputs::default();
                let mut hidden = [[0f32; HIDDEN]; 2];
                let mut sum = 0f64;
                for (s, &t) in samples.iter().zip(targets) {
                    let points = threats.then(|| threat_points(s.black, s.white));
                    inputs.fill(table, s.black, s.white, points.as_ref());
                    inputs.counts = s.counts();
                    let logit = forward(
                        &net.params,
                        &inputs,
                        usize::from(s.white_to_move()),
                        &mut hidden,
                    );
                    let d = sigmoid(logit) - t;
                    sum += f64::from(d * d);
                }
                sum
            })
            .collect()
    });
    sums.iter().sum::<f64>() / samples.len() as f64
}

#[cfg(test)]
mod tests {
    use super::super::threat_input;
    use super::*;
    use surakarta::random::random_playout;
    use surakarta_tablebase::Wdl;

    /// Random positions labelled by material: more pieces wins.
    pub(super) fn material_records(seed: u64, n: usize) -> Vec<TrainingPosition> {
        let mut rng = SplitMix::new(seed);
        (0..n)
            .map(|i| {
                let position = random_playout(&mut rng, Position::new(), 10 + i % 90);
                let us = position.pieces(position.turn()).len() as i32;
                let them = position.pieces(!position.turn()).len() as i32;
                let label = match us.cmp(&them) {
                    std::cmp::Ordering::Greater => Wdl::Win,
                    std::cmp::Ordering::Equal => Wdl::Draw,
                    std::cmp::Ordering::Less => Wdl::Loss,
                };
                TrainingPosition {
                    position,
                    score: (120 * (us - them)) as i16,
                    label,
                    exact: false,
                    ply: 0,
                }
            })
            .collect()
    }

    fn material_set(seed: u64, n: usize) -> TrainingSet {
        let mut set = TrainingSet::new(0.2).unwrap();
        set.add(&material_records(seed, n));
        set
    }

    fn quick(threads: usize) -> TrainOptions {
        TrainOptions {
            epochs: 6,
            batch: 256,
            lr: 0.005,
            threads,
            seed: 7,
            classic_share: 0.0,
            ..TrainOptions::default()
        }
    }

    #[test]
    fn the_input_table_matches_the_transformed_position() {
        let table = input_table();
        let mut rng = SplitMix::new(3);
        for _ in 0..50 {
            let p = random_playout(&mut rng, Position::new(), 30);
            for sym in Symmetry::ALL {
                let mut ours = Inputs::default();
                ours.fill(
                    &table[sym.index()],
                    p.pieces(Color::Black).bits(),
                    p.pieces(Color::White).bits(),
                    Some(&threat_points(
                        p.pieces(Color::Black).bits(),
                        p.pieces(Color::White).bits(),
                    )),
                );
                // The threats of the image, found on the image itself: the
                // captures are the same under every symmetry.
                let image = p.transformed(sym);
                let threats = Threats::of(&image);
                for perspective in [Color::Black, Color::White] {
                    let mut expected: Vec<u8> = [Color::Black, Color::White]
                        .into_iter()
                        .flat_map(|c| {
                            let pieces = image
                                .pieces(c)
                                .into_iter()
                                .map(move |sq| input(perspective, c, sq));
                            let attacked = threats.attacked[c.index()]
                                .into_iter()
                                .map(move |sq| INPUTS + threat_input(perspective, c, sq, 0));
                            let attackers = threats.attackers[c.index()]
                                .into_iter()
                                .map(move |sq| INPUTS + threat_input(perspective, c, sq, 1));
                            pieces.chain(attacked).chain(attackers).map(|i| i as u8)
                        })
                        .collect();
                    let mut got = ours.index[perspective.index()][..ours.len].to_vec();
                    expected.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(got, expected);
                }
            }
        }
    }

    #[test]
    fn training_lowers_the_validation_loss_and_learns_material() {
        let set = material_set(11, 6000);
        let mut reports = Vec::new();
        let trained = train(&set, &quick(2), None, &mut |r| reports.push(*r)).unwrap();
        let first = reports[0].validation_loss.unwrap();
        let last = reports.last().unwrap().validation_loss.unwrap();
        assert!(last < first * 0.8, "{first} → {last}");
        assert!(trained.scale_fitted);
        // Material alone at 120 a piece with exact-looking results: the fit
        // lands on a steep sigmoid.
        assert!((10..=400).contains(&trained.scale), "{}", trained.scale);
        let net = trained.quantize("material").unwrap();
        // Held-out positions: the side with more pieces is evaluated higher.
        let held_out = material_records(999, 400);
        let mut right = 0;
        let mut decided = 0;
        for r in &held_out {
            let diff = r.score;
            if diff == 0 {
                continue;
            }
            decided += 1;
            let eval = net.evaluate(&r.position);
            if (eval > 0) == (diff > 0) {
                right += 1;
            }
        }
        assert!(right * 100 >= decided * 90, "{right} of {decided}");
    }

    #[test]
    fn the_same_seed_gives_the_same_network_on_any_thread_count() {
        let set = material_set(5, 1500);
        let options = TrainOptions {
            epochs: 2,
            ..quick(1)
        };
        let one = train(&set, &options, None, &mut |_| {}).unwrap();
        let again = train(&set, &options, None, &mut |_| {}).unwrap();
        let two = train(
            &set,
            &TrainOptions {
                threads: 2,
                ..options.clone()
            },
            None,
            &mut |_| {},
        )
        .unwrap();
        let bytes = |t: &Trained| t.quantize("x").unwrap().to_bytes();
        assert_eq!(bytes(&one), bytes(&again));
        assert_eq!(bytes(&one), bytes(&two));
        let other = train(
            &set,
            &TrainOptions {
                seed: 8,
                ..options.clone()
            },
            None,
            &mut |_| {},
        )
        .unwrap();
        assert_ne!(bytes(&one), bytes(&other));
    }

    /// Training in the baseline copy of the row loops while it lives,
    /// even if the test panics.
    struct BaselineOnly;

    impl BaselineOnly {
        fn new() -> BaselineOnly {
            super::super::wide::set_baseline_only(true);
            BaselineOnly
        }
    }

    impl Drop for BaselineOnly {
        fn drop(&mut self) {
            super::super::wide::set_baseline_only(false);
        }
    }

    #[test]
    fn both_copies_of_the_row_loops_train_the_same_network() {
        // On a CPU with AVX2 training runs the AVX2 copy unless told not to;
        // without it there is one copy, and nothing to compare.
        let set = material_set(6, 1500);
        for threats in [false, true] {
            let options = TrainOptions {
                epochs: 2,
                threats,
                ..quick(2)
            };
            let bits = || {
                let trained = train(&set, &options, None, &mut |_| {}).unwrap();
                trained
                    .network
                    .params
                    .iter()
                    .map(|p| p.to_bits())
                    .collect::<Vec<u32>>()
            };
            let wide = bits();
            let baseline = {
                let _switch = BaselineOnly::new();
                bits()
            };
            assert_eq!(wide, baseline, "threats: {threats}");
        }
    }

    #[test]
    fn the_quantized_network_evaluates_as_the_float_model() {
        let set = material_set(21, 3000);
        for threats in [false, true] {
            let options = TrainOptions {
                threats,
                ..quick(2)
            };
            let trained = train(&set, &options, None, &mut |_| {}).unwrap();
            let net = trained.quantize("agreement").unwrap();
            assert_eq!(net.weights.threats, threats);
            let learned = net.weights.threat_input.iter().any(|c| c.0 != [0; HIDDEN]);
            assert_eq!(learned, threats);
            let mut rng = SplitMix::new(77);
            for i in 0..400 {
                let p = random_playout(&mut rng, Position::new(), i % 100);
                let float = trained.network.evaluate(&p, trained.scale);
                let quantized = net.evaluate(&p) as f32;
                assert!(
                    (float - quantized).abs() <= 0.03 * float.abs() + 5.0,
                    "{p}: float {float}, quantized {quantized}"
                );
            }
            // Back to floats and quantized again: the same network.
            let again = FloatNetwork::from_network(&net)
                .quantize("agreement", net.scale, 0.0)
                .unwrap();
            assert_eq!(again, net);
        }
    }

    #[test]
    fn every_network_training_can_make_is_accepted() {
        // Training keeps each parameter within its bound after every step
        // (`clip`); a network at those bounds, in any mix of signs, with
        // the largest scale and any classic share, passes the file's
        // checks, so `train` never makes a file it would refuse.
        let mut rng = SplitMix::new(5);
        for pattern in 0..8u64 {
            let mut net = FloatNetwork::random(pattern);
            for (i, p) in net.params.iter_mut().enumerate() {
                let positive = match pattern {
                    0 => true,
                    1 => false,
                    2 => i % 2 == 0,
                    _ => rng.next_u64() & 1 == 0,
                };
                *p = if positive { 1e6 } else { -1e6 };
            }
            net.clip(true);
            for share in [0.0, 0.35, 1.0] {
                if let Err(e) = net.quantize("bounds", 100_000, share) {
                    panic!("pattern {pattern}, share {share}: {e}");
                }
            }
        }
    }

    #[test]
    fn the_counts_are_learned_or_kept_at_zero() {
        // Scores by the difference in steps: the steps' weight must come
        // out positive in the buckets the positions fill, and stay 0 when
        // the counts are off.
        let mut rng = SplitMix::new(31);
        let records: Vec<TrainingPosition> = (0..3000)
            .map(|i| {
                let position = random_playout(&mut rng, Position::new(), 10 + i % 30);
                let steps = feature_counts(&position, None)[0];
                TrainingPosition {
                    position,
                    score: (8 * steps) as i16,
                    label: Wdl::Draw,
                    exact: false,
                    ply: 0,
                }
            })
            .collect();
        let mut set = TrainingSet::new(0.1).unwrap();
        set.add(&records);
        let options = TrainOptions {
            lambda: 1.0,
            scale: Some(40),
            lr: 0.01,
            ..quick(2)
        };
        let on = train(&set, &options, None, &mut |_| {}).unwrap();
        let net = on.quantize("steps").unwrap();
        assert!(net.weights.features[3][0] > 0, "{:?}", net.weights.features);
        let off = TrainOptions {
            counts: false,
            ..options
        };
        let net = train(&set, &off, None, &mut |_| {})
            .unwrap()
            .quantize("no counts")
            .unwrap();
        assert_eq!(net.weights.features, [[0; FEATURES]; BUCKETS]);
    }

    #[test]
    fn all_symmetries_and_none_train_too() {
        let set = material_set(4, 800);
        assert_eq!(Symmetry::ALL[1].name(), "mirror-files");
        for augment in [Augment::None, Augment::Mirror, Augment::All] {
            let options = TrainOptions {
                epochs: 1,
                augment,
                ..quick(1)
            };
            let t = train(&set, &options, None, &mut |_| {}).unwrap();
            let per_epoch = if augment == Augment::All { 8 } else { 1 };
            assert!(t.epochs[0].train_loss.is_finite());
            assert_eq!(t.epochs[0].samples, per_epoch * set.training_len());
        }
    }

    #[test]
    fn bad_options_and_empty_sets_are_errors() {
        let set = material_set(4, 100);
        let bad = |o: TrainOptions| train(&set, &o, None, &mut |_| {}).unwrap_err();
        assert!(matches!(
            bad(TrainOptions {
                epochs: 0,
                ..quick(1)
            }),
            TrainError::Options(_)
        ));
        assert!(matches!(
            bad(TrainOptions {
                lambda: 2.0,
                ..quick(1)
            }),
            TrainError::Options(_)
        ));
        assert!(TrainingSet::new(1.0).is_err());
        let empty = TrainingSet::new(0.1).unwrap();
        assert_eq!(
            train(&empty, &quick(1), None, &mut |_| {}).unwrap_err(),
            TrainError::NoPositions
        );
        // Scores all 0: the scale cannot be fitted but can be given.
        let mut zero = TrainingSet::new(0.0).unwrap();
        let mut records = material_records(1, 50);
        for r in &mut records {
            r.score = 0;
        }
        zero.add(&records);
        assert_eq!(
            train(&zero, &quick(1), None, &mut |_| {}).unwrap_err(),
            TrainError::NoScores
        );
        let given = TrainOptions {
            scale: Some(300),
            ..quick(1)
        };
        assert_eq!(train(&zero, &given, None, &mut |_| {}).unwrap().scale, 300);
        let long = "x".repeat(256);
        let t = train(&zero, &given, None, &mut |_| {}).unwrap();
        assert_eq!(t.quantize(&long).unwrap_err(), TrainError::Name(256));
    }

    #[test]
    fn the_validation_split_keeps_symmetric_images_together() {
        let mut rng = SplitMix::new(8);
        for _ in 0..100 {
            let p = random_playout(&mut rng, Position::new(), 25);
            for sym in Symmetry::ALL {
                assert_eq!(split_hash(&p.transformed(sym)), split_hash(&p));
            }
        }
    }
}
