//! A network file is accepted only if no evaluation of any position can
//! overflow: the worst file of each kind is refused, extreme files that
//! fit are accepted, and for random accepted networks the fast evaluation
//! equals a plain one computed in `i128` whose every intermediate value is
//! checked against the type the fast one keeps it in.

use proptest::prelude::*;
use surakarta::random::{random_playout, random_position, SplitMix};
use surakarta::{Color, Position};
use surakarta_search::eval::{Features, SideFeatures};
use surakarta_search::network::file::{MAX_CLASSIC_WEIGHT, MAX_COUNTS, MAX_FEATURE_WEIGHT};
use surakarta_search::network::{
    bucket, feature_counts, input, threat_input, Accumulator, Network, NetworkError, Row, Weights,
    BUCKETS, FEATURES, HIDDEN, INPUTS, QA, QB, SHARE_PARTS, THREAT_INPUTS,
};
use surakarta_search::score::EVAL_LIMIT;

/// A network with every weight 0, the classic part off and scale 1.
fn zero() -> Network {
    Network {
        name: "bounds".into(),
        scale: 1,
        weights: Box::new(Weights {
            input: [Row([0; HIDDEN]); INPUTS],
            threat_input: [Row([0; HIDDEN]); THREAT_INPUTS],
            threats: false,
            input_bias: Row([0; HIDDEN]),
            output: [[Row([0; HIDDEN]); 2]; BUCKETS],
            output_bias: [0; BUCKETS],
            features: [[0; FEATURES]; BUCKETS],
            classic_share: 0,
            classic_weights: surakarta_search::Weights::DEFAULT,
        }),
    }
}

/// The network as a file would give it: written (checksum computed by the
/// writer) and read back with every check.
fn load(net: &Network) -> Result<Network, NetworkError> {
    Network::from_bytes(&net.to_bytes())
}

/// [`load`]'s verdict alone (a network's debug text is too long to read).
fn verdict(net: &Network) -> Result<(), NetworkError> {
    load(net).map(|_| ())
}

/// Positions that reach the extremes: full boards and one-sided boards
/// with either side to move, and random placements and games.
fn positions(seed: u64, n: usize) -> Vec<Position> {
    let mut rng = SplitMix::new(seed);
    let mut out = Vec::new();
    for (black, white) in [(12, 12), (12, 1), (1, 12), (1, 1), (6, 6), (12, 6)] {
        for turn in [Color::Black, Color::White] {
            for _ in 0..2 {
                out.push(random_position(&mut rng, black, white, turn).unwrap());
            }
        }
    }
    out.push(Position::new());
    for i in 0..n {
        if i % 2 == 0 {
            out.push(random_playout(&mut rng, Position::new(), i % 90));
        } else {
            let black = 1 + rng.below(12) as u32;
            let white = 1 + rng.below(12) as u32;
            let turn = if rng.below(2) == 0 {
                Color::Black
            } else {
                Color::White
            };
            out.push(random_position(&mut rng, black, white, turn).unwrap());
        }
    }
    out
}

/// Panics unless `v` is within `lo..=hi`, naming `what`.
fn within(v: i128, lo: i128, hi: i128, what: &str) -> i128 {
    assert!((lo..=hi).contains(&v), "{what} {v} is outside {lo}..={hi}");
    v
}

fn fits_i32(v: i128, what: &str) -> i128 {
    within(v, i32::MIN.into(), i32::MAX.into(), what)
}

/// The classic evaluation's weighted sum of one side, in `i128`, every
/// partial sum checked against `i32`.
fn classic_side(s: &SideFeatures, w: &surakarta_search::Weights) -> i128 {
    let terms = [
        i128::from(w.material) * i128::from(s.material),
        i128::from(w.mobility) * i128::from(s.mobility),
        i128::from(w.attack) * i128::from(s.attack),
        i128::from(w.points) * i128::from(s.points),
        i128::from(w.arcs) * (5 * i128::from(s.arcs_held) + 5 * i128::from(s.arcs_free)),
        i128::from(w.hanging) * i128::from(s.hanging),
    ];
    let mut sum = 0;
    for t in terms {
        fits_i32(t, "classic term");
        sum = fits_i32(sum + t, "classic partial sum");
    }
    sum
}

/// The evaluation computed plainly from its definition (module
/// documentation of `network`), in `i128`, checking that every value the
/// fast evaluation keeps in `i16` or `i32` fits there.
fn reference(net: &Network, position: &Position) -> i32 {
    let w = &net.weights;
    // The threat inputs' columns set, per perspective, from the rules'
    // own capture generation of each side.
    let mut threat_columns: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    if w.threats {
        for side in [Color::Black, Color::White] {
            // A side facing no pieces has no captures (and no such
            // position with it to move exists).
            let captures: Vec<_> =
                match Position::from_sides(position.pieces(side), position.pieces(!side), side) {
                    Ok(moving) => moving
                        .legal_moves()
                        .into_iter()
                        .filter(|m| m.is_capture())
                        .collect(),
                    Err(_) => Vec::new(),
                };
            let attacked = position.capture_targets(side);
            let attackers = surakarta::Bitboard::from_iter(captures.iter().map(|m| m.from()));
            for perspective in [Color::Black, Color::White] {
                let columns = &mut threat_columns[perspective.index()];
                columns.extend(
                    attacked
                        .iter()
                        .map(|sq| threat_input(perspective, !side, sq, 0)),
                );
                columns.extend(
                    attackers
                        .iter()
                        .map(|sq| threat_input(perspective, side, sq, 1)),
                );
            }
        }
    }
    let accumulator = |perspective: Color| {
        let mut row = [0i128; HIDDEN];
        for (k, v) in row.iter_mut().enumerate() {
            *v = i128::from(w.input_bias.0[k]);
            for piece in [Color::Black, Color::White] {
                for sq in position.pieces(piece).iter() {
                    *v += i128::from(w.input[input(perspective, piece, sq)].0[k]);
                }
            }
            for &i in &threat_columns[perspective.index()] {
                *v += i128::from(w.threat_input[i].0[k]);
            }
            within(*v, i16::MIN.into(), i16::MAX.into(), "accumulator");
        }
        row
    };
    let b = bucket(position.occupied().len());
    let us = position.turn();
    let mut sum = 0i128;
    for (half, perspective) in [(0, us), (1, !us)] {
        let row = accumulator(perspective);
        for (k, &a) in row.iter().enumerate() {
            let term = a.clamp(0, i128::from(QA)) * i128::from(w.output[b][half].0[k]);
            sum = fits_i32(sum + term, "output partial sum");
        }
    }
    sum = fits_i32(sum + i128::from(w.output_bias[b]), "output sum with bias");
    let mut classic = 0i128;
    if w.features[b] != [0; FEATURES] || w.classic_share != 0 {
        let counts = feature_counts(position, None);
        for (j, (&c, &weight)) in counts.iter().zip(&w.features[b]).enumerate() {
            assert!(i64::from(c).abs() <= MAX_COUNTS[j], "count {j} is {c}");
            sum = fits_i32(
                sum + i128::from(c) * i128::from(weight),
                "output sum with counts",
            );
        }
        let f = Features::of(position, &w.classic_weights);
        let us_side = classic_side(&f.us, &w.classic_weights);
        let them_side = classic_side(&f.them, &w.classic_weights);
        classic = fits_i32(us_side - them_side, "classic difference");
        classic = fits_i32(classic + i128::from(w.classic_weights.tempo), "classic sum");
    }
    let limit = i128::from(EVAL_LIMIT - 1);
    let network = (sum * i128::from(net.scale) / i128::from(QA * QB)).clamp(-limit, limit);
    let classic = classic.clamp(-limit, limit);
    let share = i128::from(w.classic_share);
    let parts = i128::from(SHARE_PARTS);
    let result = (network * (parts - share) + classic * share) / parts;
    within(result, -limit, limit, "evaluation") as i32
}

/// The fast evaluation, from scratch and along the incremental
/// accumulator, equals the reference on every position.
fn agrees(net: &Network, positions: &[Position]) {
    for p in positions {
        let expected = reference(net, p);
        assert_eq!(net.evaluate(p), expected, "{p}");
        let moves = p.legal_moves();
        if let Some(&m) = moves.first() {
            let child = p.after(m);
            let acc = Accumulator::new(net, p).after(net, p, m);
            assert_eq!(
                net.evaluate_with(&acc, &child),
                reference(net, &child),
                "{p} {m}"
            );
        }
    }
}

#[test]
fn an_output_bias_that_could_wrap_the_sum_is_refused_in_every_bucket() {
    // The case met in the wild: every output bias i32::MAX and output
    // weights 32767 wrapped to the other sign.
    let base = (*Network::embedded()).clone();
    for b in 0..BUCKETS {
        for (bias, weight) in [
            (i32::MAX, i16::MAX),
            (1_100_000_000, i16::MAX),
            (i32::MIN, i16::MIN),
        ] {
            let mut net = base.clone();
            net.weights.output_bias[b] = bias;
            net.weights.output[b] = [Row([weight; HIDDEN]); 2];
            assert_eq!(
                verdict(&net),
                Err(NetworkError::OutputOverflow(b)),
                "bucket {b} bias {bias}"
            );
        }
    }
}

#[test]
fn the_output_bound_is_exact_at_its_edge() {
    // Every unit's activation is 255 in every position (bias 255, columns
    // 0), so the dot products are exactly 2 · 128 · 255 · weight. The sum
    // must fit whatever the order of its additions, so the bias makes up
    // the rest of the range (weights of ±30,000 leave it some).
    let mut net = zero();
    net.weights.input_bias = Row([QA as i16; HIDDEN]);
    let counts: i64 = MAX_COUNTS.iter().sum::<i64>() * i64::from(MAX_FEATURE_WEIGHT);
    for (weight, sign) in [(30_000i16, 1i64), (-30_000, -1)] {
        let dots = 2 * HIDDEN as i64 * i64::from(QA) * i64::from(weight);
        let edge = if sign > 0 {
            i64::from(i32::MAX) - dots - counts
        } else {
            i64::from(i32::MIN) - dots + counts
        };
        for b in 0..BUCKETS {
            let mut fits = net.clone();
            fits.scale = i32::MAX;
            fits.weights.output[b] = [Row([weight; HIDDEN]); 2];
            fits.weights.features[b] = [MAX_FEATURE_WEIGHT * sign as i32; FEATURES];
            fits.weights.output_bias[b] = edge as i32;
            let read = load(&fits).expect("a sum that reaches i32's edge fits");
            agrees(&read, &positions(b as u64, 20));
            let mut over = fits.clone();
            over.weights.output_bias[b] = (edge + sign) as i32;
            assert_eq!(verdict(&over), Err(NetworkError::OutputOverflow(b)));
            let mut over = fits.clone();
            over.weights.input_bias.0[7] = QA as i16 - 1;
            assert!(
                load(&over).is_ok(),
                "a smaller activation only lowers the sum"
            );
        }
    }
}

#[test]
fn the_accumulator_bound_counts_twelve_pieces_a_side_and_one_a_point() {
    let unit = 9;
    // Twelve own and twelve opposing pieces on columns of 1365: at most
    // 24 · 1365 = 32,760; 1366 reaches 32,784.
    for (value, fits) in [
        (1365i16, true),
        (1366, false),
        (-1365, true),
        (-1366, false),
    ] {
        let mut net = zero();
        for column in &mut net.weights.input {
            column.0[unit] = value;
        }
        if fits {
            let read = load(&net).expect("24 columns that fit");
            agrees(&read, &positions(1, 20));
        } else {
            assert_eq!(verdict(&net), Err(NetworkError::Overflow(unit)));
        }
    }
    // Own and opposing columns large on the same twelve points only: one
    // piece a point sums at most twelve of them, whatever their colours.
    let mut net = zero();
    for point in 0..12 {
        net.weights.input[point].0[unit] = 2730;
        net.weights.input[36 + point].0[unit] = 2730;
    }
    let read = load(&net).expect("twelve points of 2730 fit");
    agrees(&read, &positions(2, 20));
    net.weights.input_bias.0[unit] = 8;
    assert_eq!(verdict(&net), Err(NetworkError::Overflow(unit)));
    // A bias at one end with columns pulling only towards the other.
    let mut net = zero();
    net.weights.input_bias.0[unit] = i16::MAX;
    for column in &mut net.weights.input {
        column.0[unit] = -1365;
    }
    let read = load(&net).expect("columns that only lower a full bias");
    agrees(&read, &positions(3, 20));
    net.weights.input[40].0[unit] = 1;
    assert_eq!(verdict(&net), Err(NetworkError::Overflow(unit)));
    // Each extreme column alone.
    for at in [0, 35, 36, 71] {
        for (bias, value) in [(i16::MAX, 1), (i16::MIN, -1), (0, i16::MIN)] {
            let mut net = zero();
            net.weights.input_bias.0[unit] = bias;
            net.weights.input[at].0[unit] = value;
            net.weights.input[(at + 1) % INPUTS].0[unit] = value;
            assert_eq!(
                verdict(&net),
                Err(NetworkError::Overflow(unit)),
                "{at} {bias} {value}"
            );
        }
    }
}

#[test]
fn the_accumulator_bound_counts_each_piece_s_threat_columns() {
    let unit = 5;
    // A piece's column and both its threat columns at 455: 24 pieces sum
    // at most 72 · 455 = 32,760; 456 reaches 32,832.
    for (value, fits) in [(455i16, true), (456, false), (-455, true), (-456, false)] {
        let mut net = zero();
        net.weights.threats = true;
        for column in net
            .weights
            .input
            .iter_mut()
            .chain(&mut net.weights.threat_input)
        {
            column.0[unit] = value;
        }
        if fits {
            let read = load(&net).expect("72 columns that fit");
            agrees(&read, &positions(4, 40));
        } else {
            assert_eq!(verdict(&net), Err(NetworkError::Overflow(unit)));
        }
    }
    // Threat columns count only beside their piece: large threat columns
    // of a perspective's own pieces and small ones of the opponent's.
    let mut net = zero();
    net.weights.threats = true;
    for i in 0..36 {
        net.weights.threat_input[i].0[unit] = 1000;
        net.weights.threat_input[72 + i].0[unit] = 1000;
    }
    let read = load(&net).expect("12 pieces with two threat columns of 1000");
    agrees(&read, &positions(5, 40));
    net.weights.input[0].0[unit] = 9000;
    assert_eq!(verdict(&net), Err(NetworkError::Overflow(unit)));
}

#[test]
fn classic_weights_that_could_overflow_are_refused() {
    // Twelve pieces on points worth 10,000 (classes B, C and E have 24
    // points) times 10,000 make 1.2 · 10⁹ for one side, twelve on points
    // worth −10,000 (A, D and F) −1.2 · 10⁹ for the other: the difference
    // leaves i32.
    let m = MAX_CLASSIC_WEIGHT;
    let mut net = zero();
    net.weights.classic_share = SHARE_PARTS as u16;
    net.weights.classic_weights.points = m;
    net.weights.classic_weights.point_values = [-m, m, m, -m, m, -m];
    assert_eq!(verdict(&net), Err(NetworkError::ClassicOverflow));
    net.weights.classic_weights.points = -m;
    assert_eq!(verdict(&net), Err(NetworkError::ClassicOverflow));
    // Point values of one sign cannot: the sides' sums cancel.
    net.weights.classic_weights.point_values = [m; 6];
    let read = load(&net).expect("point values of one sign");
    agrees(&read, &positions(9, 20));
    // Every other weight at its extreme fits, with point values of 8,000.
    for sign in [1, -1] {
        let m = sign * MAX_CLASSIC_WEIGHT;
        net.weights.classic_weights = surakarta_search::Weights {
            material: m,
            mobility: m,
            attack: m,
            points: m,
            point_values: [8_000 * sign, -8_000 * sign, 0, 8_000, -8_000, 1],
            arcs: m,
            hanging: m,
            tempo: m,
        };
        let read = load(&net).expect("extreme classic weights that fit");
        agrees(&read, &positions(4, 40));
    }
}

#[test]
fn the_shipped_network_and_extreme_scales_are_accepted_and_agree() {
    let net = (*Network::embedded()).clone();
    assert!(load(&net).is_ok_and(|read| read == net));
    agrees(&net, &positions(5, 200));
    let mut wide = net.clone();
    wide.scale = i32::MAX;
    agrees(&load(&wide).unwrap(), &positions(6, 50));
    // The shipped weights with threat columns of small pseudo-random
    // values: a realistic network with threat inputs agrees too.
    let mut threats = net.clone();
    threats.weights.threats = true;
    let mut rng = SplitMix::new(5);
    for column in &mut threats.weights.threat_input {
        for v in &mut column.0 {
            *v = rng.below(121) as i16 - 60;
        }
    }
    agrees(&load(&threats).unwrap(), &positions(7, 200));
}

/// A random network with each kind of weight drawn from a range picked at
/// random (some at the extremes of their types), then brought within the
/// bounds the way the loader asks: each part it names as able to overflow
/// is halved until the file is accepted, so the network ends near its
/// bounds.
fn near_the_bounds(seed: u64) -> Network {
    let mut rng = SplitMix::new(seed);
    let mut draw = |magnitude: i64| -> i64 {
        let span = 2 * magnitude as u64 + 1;
        (rng.next_u64() % span) as i64 - magnitude
    };
    let pick = |seed: u64, options: &[i64]| options[(seed % options.len() as u64) as usize];
    let mut net = zero();
    let m_input = pick(seed >> 3, &[32_767, 4_096, 1_400, 300]);
    let m_output = pick(seed >> 6, &[32_767, 2_000, 127]);
    let m_bias = pick(seed >> 9, &[i64::from(i32::MAX), 1 << 30, 1 << 20]);
    let w = &mut net.weights;
    // Every other network has threat inputs.
    w.threats = seed & 1 == 1;
    let threat_columns: &mut [Row] = if w.threats {
        &mut w.threat_input
    } else {
        &mut []
    };
    for column in w
        .input
        .iter_mut()
        .chain(threat_columns)
        .chain([&mut w.input_bias])
    {
        for v in &mut column.0 {
            *v = draw(m_input) as i16;
        }
    }
    for row in w.output.iter_mut().flatten() {
        for v in &mut row.0 {
            *v = draw(m_output) as i16;
        }
    }
    for b in &mut w.output_bias {
        *b = draw(m_bias) as i32;
    }
    for f in w.features.iter_mut().flatten() {
        *f = draw(i64::from(MAX_FEATURE_WEIGHT)) as i32;
    }
    w.classic_share = (draw(128) + 128) as u16;
    let c = i64::from(MAX_CLASSIC_WEIGHT);
    w.classic_weights = surakarta_search::Weights {
        material: draw(c) as i32,
        mobility: draw(c) as i32,
        attack: draw(c) as i32,
        points: draw(c) as i32,
        point_values: [0; 6].map(|_: i32| draw(c) as i32),
        arcs: draw(c) as i32,
        hanging: draw(c) as i32,
        tempo: draw(c) as i32,
    };
    net.scale = 1 + (draw(i64::from(i32::MAX) / 2).unsigned_abs() as i32);
    loop {
        let result = load(&net);
        let w = &mut net.weights;
        match result {
            Ok(read) => return read,
            Err(NetworkError::Overflow(unit)) => {
                w.input_bias.0[unit] /= 2;
                for column in w.input.iter_mut().chain(&mut w.threat_input) {
                    column.0[unit] /= 2;
                }
            }
            Err(NetworkError::OutputOverflow(b)) => {
                w.output_bias[b] /= 2;
                for row in &mut w.output[b] {
                    for v in &mut row.0 {
                        *v /= 2;
                    }
                }
                for f in &mut w.features[b] {
                    *f /= 2;
                }
            }
            Err(NetworkError::ClassicOverflow) => {
                let cw = &mut w.classic_weights;
                cw.points /= 2;
                for v in &mut cw.point_values {
                    *v /= 2;
                }
            }
            Err(e) => panic!("a network with fields in range refused: {e}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Accepted networks near their bounds evaluate every position as the
    /// plain `i128` evaluation does, with no intermediate value leaving
    /// its type (the debug build's overflow checks watch the fast one).
    #[test]
    fn accepted_networks_never_overflow(seed in any::<u64>(), at in any::<u64>()) {
        let net = near_the_bounds(seed);
        agrees(&net, &positions(at, 30));
    }
}

/// The counts' bounds the loader assumes hold on positions that push
/// them: many pieces, captures and arcs.
#[test]
fn the_counts_stay_within_their_bounds() {
    for p in positions(8, 3000) {
        let counts = feature_counts(&p, None);
        for (j, &c) in counts.iter().enumerate() {
            assert!(i64::from(c).abs() <= MAX_COUNTS[j], "{p}: count {j} is {c}");
        }
    }
}
