//! The network file format (`.sknn`), version 1, little-endian:
//!
//! | offset | size | field |
//! |---:|---:|---|
//! | 0 | 4 | magic `SKNN` |
//! | 4 | 2 | format version, 1 |
//! | 6 | 2 | architecture id, 2: `(72 → 128) × 2 → 1`, 4 buckets, clipped ReLU, plus 3 counts per bucket; 3: the same with the 144 threat inputs, `(216 → 128) × 2 → 1` |
//! | 8 | 10 | inputs (72 or 216), hidden, buckets, `QA`, `QB` (`u16` each; must match the id) |
//! | 18 | 4 | scale (`i32`, > 0): evaluation units per output logit |
//! | 22 | 2 | name length `n` (at most 255) |
//! | 24 | `n` | name, UTF-8 |
//! | 24 + `n` | 18,432 | first layer, `i16`, input-major (72 columns of 128) |
//! | … | 36,864 | architecture 3 only: the threat inputs' columns, `i16`, input-major (144 columns of 128) |
//! | … | 256 | first layer bias, `i16` × 128 |
//! | … | 2,048 | output layer, `i16`, bucket-major (4 × 2 × 128) |
//! | … | 16 | output bias, `i32` × 4 |
//! | … | 48 | weights of the counts of [`feature_counts`](super::feature_counts), `i32`, bucket-major (4 × 3), each within ±2²⁰ |
//! | … | 2 | the classic evaluation's share of the result, `u16`, 0 to 256 (256ths) |
//! | … | 52 | the classic evaluation's weights, `i32` × 13, each within ±10,000: material, mobility, attack, points, the six point values, arcs, hanging, tempo |
//! | end − 4 | 4 | CRC-32 (IEEE) of every byte before it |
//!
//! Reading checks every field, the exact size and the checksum, and then
//! proves that no evaluation of any position can leave an integer type
//! (see [`Network::from_bytes`]); any failure is a [`NetworkError`]
//! naming what is wrong.

use std::path::Path;

use super::{
    Network, Row, Weights, BUCKETS, FEATURES, HIDDEN, INPUTS, QA, QB, SHARE_PARTS, THREAT_INPUTS,
};

/// The file's first four bytes.
pub const MAGIC: [u8; 4] = *b"SKNN";
/// The format version this library reads and writes.
pub const VERSION: u16 = 1;
/// The architecture of a network without threat inputs.
pub const ARCHITECTURE: u16 = 2;
/// The architecture of a network with the threat inputs.
pub const ARCHITECTURE_THREATS: u16 = 3;
/// The largest magnitude of a count's weight (in units of `QA · QB`); the
/// output's sum with the weights of a file is checked apart (see
/// [`Network::from_bytes`]).
pub const MAX_FEATURE_WEIGHT: i32 = 1 << 20;
/// The largest magnitude of a classic evaluation weight in a file.
pub const MAX_CLASSIC_WEIGHT: i32 = 10_000;
/// The longest name a file may carry, in bytes.
pub const MAX_NAME: usize = 255;
/// The most pieces a side has: a perspective's accumulator sums at most
/// this many of its own columns and this many of the opponent's.
const MAX_SIDE_PIECES: usize = 12;
/// The points of the board: a perspective's inputs are one own and one
/// opponent input per point, and a point holds at most one piece.
const POINTS: usize = 36;
/// The largest magnitude of each of the [`feature_counts`](super::feature_counts)
/// (side to move minus opponent): at most 12 pieces × 8 step directions,
/// at most 16 captures a side, and twice the difference of the arcs held
/// (8 arcs).
pub const MAX_COUNTS: [i64; FEATURES] = [96, 16, 16];

const HEADER: usize = 24;
const WEIGHT_BYTES: usize = 2 * INPUTS * HIDDEN
    + 2 * HIDDEN
    + 2 * BUCKETS * 2 * HIDDEN
    + 4 * BUCKETS
    + 4 * BUCKETS * FEATURES
    + 2
    + 4 * CLASSIC_WEIGHTS;
/// The bytes of the threat inputs' columns (architecture 3).
const THREAT_BYTES: usize = 2 * THREAT_INPUTS * HIDDEN;
/// The classic weights a file carries.
const CLASSIC_WEIGHTS: usize = 13;

/// Why a network file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// The file could not be opened or read.
    #[error("cannot read network file {path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        message: String,
    },
    /// The file does not start with `SKNN`.
    #[error("not a network file (no SKNN magic)")]
    Magic,
    /// A format version this library does not read.
    #[error("network file version {0} is not supported (this library reads version {VERSION})")]
    Version(u16),
    /// The architecture id or a dimension differs from what this library
    /// evaluates.
    #[error("network architecture {found} is not this library's ({expected})")]
    Architecture {
        /// What the file says, as `id/inputs/hidden/buckets/QA/QB`.
        found: String,
        /// What this library evaluates, in the same form.
        expected: String,
    },
    /// The scale is not positive.
    #[error("network scale {0} is not positive")]
    Scale(i32),
    /// The name is longer than 255 bytes or not UTF-8.
    #[error("network name is {0}")]
    Name(&'static str),
    /// The file is shorter or longer than its header says.
    #[error("network file is {found} bytes, expected {expected}")]
    Size {
        /// Bytes expected from the header.
        expected: usize,
        /// Bytes in the file.
        found: usize,
    },
    /// The checksum does not match: the file is damaged.
    #[error("network file is damaged: checksum {stored:08x} stored, {computed:08x} computed")]
    Checksum {
        /// The checksum in the file.
        stored: u32,
        /// The checksum of the bytes read.
        computed: u32,
    },
    /// Some position would take a hidden unit's accumulator out of `i16`.
    #[error("network weights of hidden unit {0} can overflow the i16 accumulator")]
    Overflow(usize),
    /// Some position would take the output's `i32` sum of a bucket (the
    /// two dot products, the bias and the counts' terms) out of range.
    #[error("network output bucket {0} can overflow the output's i32 sum")]
    OutputOverflow(usize),
    /// Some position would take the classic evaluation's `i32` sum (with
    /// the file's classic weights) out of range.
    #[error("network's classic weights can overflow the classic evaluation's i32 sum")]
    ClassicOverflow,
    /// A count's weight is beyond ±2²⁰.
    #[error("network weight {weight} of count {count} in bucket {bucket} is out of range")]
    FeatureWeight {
        /// The bucket.
        bucket: usize,
        /// The count (0 steps, 1 captures, 2 arcs).
        count: usize,
        /// The weight read.
        weight: i32,
    },
    /// The classic evaluation's share is above 256.
    #[error("network's classic share {0} is above 256")]
    ClassicShare(u16),
    /// A classic evaluation weight is beyond ±10,000.
    #[error("network's classic weight {index} is {weight}, beyond ±10000")]
    ClassicWeight {
        /// Which weight (0 material … 12 tempo, in the file's order).
        index: usize,
        /// The weight read.
        weight: i32,
    },
}

fn architecture_text(fields: [u16; 6]) -> String {
    fields.map(|f| f.to_string()).join("/")
}

/// The header's architecture fields of a network without and with threat
/// inputs.
const fn expected(threats: bool) -> [u16; 6] {
    let (id, inputs) = if threats {
        (ARCHITECTURE_THREATS, INPUTS + THREAT_INPUTS)
    } else {
        (ARCHITECTURE, INPUTS)
    };
    [
        id,
        inputs as u16,
        HIDDEN as u16,
        BUCKETS as u16,
        QA as u16,
        QB as u16,
    ]
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let out = self.bytes[self.at..self.at + N]
            .try_into()
            .unwrap_or([0; N]);
        self.at += N;
        out
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.take())
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
    fn row(&mut self) -> Row {
        let mut row = Row([0; HIDDEN]);
        for v in &mut row.0 {
            *v = self.i16();
        }
        row
    }
}

impl Network {
    /// Reads a network from the bytes of a `.sknn` file, checking it.
    ///
    /// Besides every field, the size and the checksum, the weights are
    /// checked against every position the evaluation can meet (at most 12
    /// pieces a side, one piece a point), so that no integer of the
    /// evaluation can overflow:
    ///
    /// - each hidden unit's accumulator, its bias plus the largest (and
    ///   the smallest) sum of the columns of a placement, stays in `i16`
    ///   ([`NetworkError::Overflow`]);
    /// - from the range of each unit's clipped activation, each bucket's
    ///   output sum (both dot products, the bias and the counts' weights
    ///   times counts of at most [`MAX_COUNTS`]) stays in `i32` whatever
    ///   the order of the additions ([`NetworkError::OutputOverflow`]);
    /// - the classic evaluation with the file's weights stays in `i32`
    ///   ([`NetworkError::ClassicOverflow`]).
    ///
    /// What follows is computed in `i64` and cannot overflow: the scaling
    /// to evaluation units (an `i32` sum times an `i32` scale), the clamp
    /// of each part to the evaluation's range of ±19,999 and the blend.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_search::network::{Network, NetworkError};
    ///
    /// let bytes = Network::embedded().to_bytes();
    /// assert_eq!(Network::from_bytes(&bytes)?, *Network::embedded());
    ///
    /// let mut damaged = bytes.clone();
    /// damaged[100] ^= 1;
    /// assert!(matches!(Network::from_bytes(&damaged), Err(NetworkError::Checksum { .. })));
    /// assert!(matches!(Network::from_bytes(b"SKTB"), Err(NetworkError::Magic)));
    /// assert!(matches!(Network::from_bytes(b"SKNN"), Err(NetworkError::Size { .. })));
    /// # Ok::<(), NetworkError>(())
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let short = |expected| NetworkError::Size {
            expected,
            found: bytes.len(),
        };
        if bytes.len() >= MAGIC.len() && bytes[..MAGIC.len()] != MAGIC {
            return Err(NetworkError::Magic);
        }
        if bytes.len() < HEADER {
            return Err(short(HEADER + WEIGHT_BYTES + 4));
        }
        let mut r = Reader {
            bytes,
            at: MAGIC.len(),
        };
        let version = r.u16();
        if version != VERSION {
            return Err(NetworkError::Version(version));
        }
        let fields = [r.u16(), r.u16(), r.u16(), r.u16(), r.u16(), r.u16()];
        let threats = fields == expected(true);
        if fields != expected(false) && !threats {
            return Err(NetworkError::Architecture {
                found: architecture_text(fields),
                expected: format!(
                    "{} or {}",
                    architecture_text(expected(false)),
                    architecture_text(expected(true))
                ),
            });
        }
        let weight_bytes = WEIGHT_BYTES + if threats { THREAT_BYTES } else { 0 };
        let scale = r.i32();
        let name_len = usize::from(r.u16());
        if name_len > MAX_NAME {
            return Err(NetworkError::Name("longer than 255 bytes"));
        }
        let expected = HEADER + name_len + weight_bytes + 4;
        if bytes.len() != expected {
            return Err(short(expected));
        }
        let body = &bytes[..expected - 4];
        let stored = u32::from_le_bytes(bytes[expected - 4..].try_into().unwrap_or([0; 4]));
        let computed = crc32fast::hash(body);
        if stored != computed {
            return Err(NetworkError::Checksum { stored, computed });
        }
        if scale <= 0 {
            return Err(NetworkError::Scale(scale));
        }
        let name = std::str::from_utf8(&bytes[HEADER..HEADER + name_len])
            .map_err(|_| NetworkError::Name("not UTF-8"))?
            .to_owned();
        r.at = HEADER + name_len;
        let mut weights = Box::new(Weights {
            input: [Row([0; HIDDEN]); INPUTS],
            threat_input: [Row([0; HIDDEN]); THREAT_INPUTS],
            threats,
            input_bias: Row([0; HIDDEN]),
            output: [[Row([0; HIDDEN]); 2]; BUCKETS],
            output_bias: [0; BUCKETS],
            features: [[0; FEATURES]; BUCKETS],
            classic_share: 0,
            classic_weights: crate::Weights::DEFAULT,
        });
        for column in &mut weights.input {
            *column = r.row();
        }
        if threats {
            for column in &mut weights.threat_input {
                *column = r.row();
            }
        }
        weights.input_bias = r.row();
        for bucket in &mut weights.output {
            for half in bucket {
                *half = r.row();
            }
        }
        for b in &mut weights.output_bias {
            *b = r.i32();
        }
        for (bucket, counts) in weights.features.iter_mut().enumerate() {
            for (count, weight) in counts.iter_mut().enumerate() {
                *weight = r.i32();
                if weight.unsigned_abs() > MAX_FEATURE_WEIGHT.unsigned_abs() {
                    return Err(NetworkError::FeatureWeight {
                        bucket,
                        count,
                        weight: *weight,
                    });
                }
            }
        }
        weights.classic_share = r.u16();
        if i32::from(weights.classic_share) > SHARE_PARTS {
            return Err(NetworkError::ClassicShare(weights.classic_share));
        }
        let mut classic = [0i32; CLASSIC_WEIGHTS];
        for (index, weight) in classic.iter_mut().enumerate() {
            *weight = r.i32();
            if weight.unsigned_abs() > MAX_CLASSIC_WEIGHT.unsigned_abs() {
                return Err(NetworkError::ClassicWeight {
                    index,
                    weight: *weight,
                });
            }
        }
        weights.classic_weights = classic_from(classic);
        check_bounds(&weights)?;
        Ok(Network {
            name,
            scale,
            weights,
        })
    }

    /// The `.sknn` bytes of this network.
    ///
    /// # Panics
    ///
    /// If the name is longer than 255 bytes (a network built in code; one
    /// read from a file never is).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        assert!(self.name.len() <= MAX_NAME, "network name too long");
        let w = &self.weights;
        let mut out =
            Vec::with_capacity(HEADER + self.name.len() + WEIGHT_BYTES + THREAT_BYTES + 4);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        for f in expected(w.threats) {
            out.extend_from_slice(&f.to_le_bytes());
        }
        out.extend_from_slice(&self.scale.to_le_bytes());
        out.extend_from_slice(&(self.name.len() as u16).to_le_bytes());
        out.extend_from_slice(self.name.as_bytes());
        let threat_columns: &[Row] = if w.threats { &w.threat_input } else { &[] };
        let rows = w
            .input
            .iter()
            .chain(threat_columns)
            .chain(core::iter::once(&w.input_bias))
            .chain(w.output.iter().flatten());
        for row in rows {
            for v in row.0 {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        for b in w.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        for weight in w.features.iter().flatten() {
            out.extend_from_slice(&weight.to_le_bytes());
        }
        out.extend_from_slice(&w.classic_share.to_le_bytes());
        for weight in classic_to(&w.classic_weights) {
            out.extend_from_slice(&weight.to_le_bytes());
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Reads and checks a `.sknn` file.
    ///
    /// Only a regular file is read, and opening never blocks: a FIFO, a
    /// directory or a device is a [`NetworkError::Io`] naming the path and
    /// saying "not a regular file", and a file longer than the largest
    /// network file is refused after reading one byte past that size.
    pub fn read(path: &Path) -> Result<Network, NetworkError> {
        // A network file is a few tens of kilobytes: a huge or endless file
        // is refused by its length instead of filling the memory.
        let limit = (HEADER + MAX_NAME + WEIGHT_BYTES + THREAT_BYTES + 4) as u64;
        let bytes =
            surakarta_tablebase::read_regular_file(path, limit).map_err(|e| NetworkError::Io {
                path: path.display().to_string(),
                message: e.to_string(),
            })?;
        Network::from_bytes(&bytes)
    }

    /// The CRC-32 of the network's file bytes (the last four bytes of its
    /// file), which names it in logs and the network history.
    #[must_use]
    pub fn checksum(&self) -> u32 {
        let bytes = self.to_bytes();
        u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().unwrap_or([0; 4]))
    }
}

/// The classic weights in the file's order.
fn classic_to(w: &crate::Weights) -> [i32; CLASSIC_WEIGHTS] {
    let v = w.point_values;
    [
        w.material, w.mobility, w.attack, w.points, v[0], v[1], v[2], v[3], v[4], v[5], w.arcs,
        w.hanging, w.tempo,
    ]
}

fn classic_from(a: [i32; CLASSIC_WEIGHTS]) -> crate::Weights {
    crate::Weights {
        material: a[0],
        mobility: a[1],
        attack: a[2],
        points: a[3],
        point_values: [a[4], a[5], a[6], a[7], a[8], a[9]],
        arcs: a[10],
        hanging: a[11],
        tempo: a[12],
    }
}

/// The inclusive range `[lo, hi]` of a value.
type Range = (i64, i64);

/// Checks that no evaluation of any position can overflow (see
/// [`Network::from_bytes`]).
fn check_bounds(w: &Weights) -> Result<(), NetworkError> {
    let mut activation = [(0i64, 0i64); HIDDEN];
    for (unit, range) in activation.iter_mut().enumerate() {
        let (lo, hi) = accumulator_range(w, unit);
        if lo < i64::from(i16::MIN) || hi > i64::from(i16::MAX) {
            return Err(NetworkError::Overflow(unit));
        }
        let clip = |v: i64| v.clamp(0, i64::from(QA));
        *range = (clip(lo), clip(hi));
    }
    for bucket in 0..BUCKETS {
        let mut terms = Vec::with_capacity(2 * HIDDEN + 1 + FEATURES);
        for half in &w.output[bucket] {
            for (&weight, &(lo, hi)) in half.0.iter().zip(&activation) {
                terms.push(product(i64::from(weight), (lo, hi)));
            }
        }
        let bias = i64::from(w.output_bias[bucket]);
        terms.push((bias, bias));
        for (&weight, &count) in w.features[bucket].iter().zip(&MAX_COUNTS) {
            terms.push(product(i64::from(weight), (-count, count)));
        }
        if !fits_i32(&terms) {
            return Err(NetworkError::OutputOverflow(bucket));
        }
    }
    if !fits_i32(&classic_terms(&w.classic_weights)) {
        return Err(NetworkError::ClassicOverflow);
    }
    Ok(())
}

/// The smallest and the largest accumulator of hidden unit `unit` over
/// every placement of at most 12 pieces of each colour, one a point: the
/// bias plus the best choice, point by point, of nothing, the own column
/// or the opponent's, counting the columns of each kind taken. The
/// placements are the same from both perspectives (White's mirrors the
/// ranks), so one range holds for both.
fn accumulator_range(w: &Weights, unit: usize) -> Range {
    // A piece's column, plus, in a network with threat inputs, either or
    // both of its threat columns (whichever are set is not bounded here:
    // the largest choice is taken).
    let column = |i: usize, sign: i64| {
        let mut sum = sign * i64::from(w.input[i].0[unit]);
        if w.threats {
            for kind in 0..2 {
                sum += (sign * i64::from(w.threat_input[72 * kind + i].0[unit])).max(0);
            }
        }
        sum
    };
    let largest = |sign: i64| {
        // best[own][theirs]: the largest sum with that many columns taken.
        let mut best = [[None::<i64>; MAX_SIDE_PIECES + 1]; MAX_SIDE_PIECES + 1];
        best[0][0] = Some(0);
        for point in 0..POINTS {
            let (own, theirs) = (column(point, sign), column(POINTS + point, sign));
            let mut next = best;
            for a in 0..=MAX_SIDE_PIECES {
                for b in 0..=MAX_SIDE_PIECES {
                    let Some(sum) = best[a][b] else { continue };
                    if a < MAX_SIDE_PIECES {
                        let to = &mut next[a + 1][b];
                        *to = Some(to.map_or(sum + own, |t| t.max(sum + own)));
                    }
                    if b < MAX_SIDE_PIECES {
                        let to = &mut next[a][b + 1];
                        *to = Some(to.map_or(sum + theirs, |t| t.max(sum + theirs)));
                    }
                }
            }
            best = next;
        }
        best.iter().flatten().flatten().copied().max().unwrap_or(0)
    };
    let bias = i64::from(w.input_bias.0[unit]);
    (bias - largest(-1), bias + largest(1))
}

/// The range of `weight · x` for `x` in `range`.
fn product(weight: i64, (lo, hi): Range) -> Range {
    let (a, b) = (weight * lo, weight * hi);
    (a.min(b), a.max(b))
}

/// Whether every sum of some of the `terms`, each anywhere in its range,
/// fits in `i32`: so a sum of them in `i32` cannot overflow, whatever the
/// order of its additions (a vectorized loop adds in its own order).
fn fits_i32(terms: &[Range]) -> bool {
    let low: i64 = terms.iter().map(|&(lo, _)| lo.min(0)).sum();
    let high: i64 = terms.iter().map(|&(_, hi)| hi.max(0)).sum();
    low >= i64::from(i32::MIN) && high <= i64::from(i32::MAX)
}

/// The ranges of the terms the classic evaluation adds in `i32`
/// ([`crate::eval::Features::score`]): each weight times its count, for
/// the side to move and negated for the opponent, and the tempo. A side
/// has at most 12 pieces, 96 steps, 16 captures, 12 hanging pieces and an
/// arc value `5·held + 5·free` of at most 80; its point values sum 12 of
/// the six classes' values at most.
fn classic_terms(w: &crate::Weights) -> Vec<Range> {
    let values = &w.point_values;
    let points = (
        12 * i64::from(values.iter().copied().min().unwrap_or(0).min(0)),
        12 * i64::from(values.iter().copied().max().unwrap_or(0).max(0)),
    );
    let side = [
        product(i64::from(w.material), (0, 12)),
        product(i64::from(w.mobility), (0, 96)),
        product(i64::from(w.attack), (0, 16)),
        product(i64::from(w.points), points),
        product(i64::from(w.arcs), (0, 80)),
        product(i64::from(w.hanging), (0, 12)),
    ];
    let tempo = i64::from(w.tempo);
    side.iter()
        .copied()
        .chain(side.iter().map(|&(lo, hi)| (-hi, -lo)))
        .chain([(tempo, tempo)])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_embedded_file_reads_back_to_the_same_bytes() {
        let net = Network::embedded();
        assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), *net);
    }

    #[test]
    fn each_header_field_is_checked() {
        let good = Network::embedded().to_bytes();
        let with = |at: usize, value: &[u8]| {
            let mut b = good.clone();
            b[at..at + value.len()].copy_from_slice(value);
            // Recompute the checksum so that the field check is reached.
            let n = b.len();
            let crc = crc32fast::hash(&b[..n - 4]);
            b[n - 4..].copy_from_slice(&crc.to_le_bytes());
            Network::from_bytes(&b)
        };
        assert_eq!(with(0, b"SKTB"), Err(NetworkError::Magic));
        assert_eq!(with(4, &2u16.to_le_bytes()), Err(NetworkError::Version(2)));
        assert!(matches!(
            with(6, &7u16.to_le_bytes()),
            Err(NetworkError::Architecture { .. })
        ));
        assert!(matches!(
            with(10, &256u16.to_le_bytes()),
            Err(NetworkError::Architecture { .. })
        ));
        assert_eq!(with(18, &0i32.to_le_bytes()), Err(NetworkError::Scale(0)));
        assert!(matches!(
            with(22, &3u16.to_le_bytes()),
            Err(NetworkError::Size { .. })
        ));
        let mut long = good.clone();
        long.push(0);
        assert!(matches!(
            Network::from_bytes(&long),
            Err(NetworkError::Size { .. })
        ));
    }

    #[test]
    fn weights_that_could_overflow_are_refused() {
        let mut net = (*Network::embedded()).clone();
        net.weights.input_bias.0[5] = i16::MAX;
        net.weights.input[0].0[5] = 1000;
        assert_eq!(
            Network::from_bytes(&net.to_bytes()),
            Err(NetworkError::Overflow(5))
        );
    }

    #[test]
    fn count_weights_out_of_range_are_refused() {
        let mut net = (*Network::embedded()).clone();
        net.weights.features[3][1] = MAX_FEATURE_WEIGHT;
        assert!(Network::from_bytes(&net.to_bytes()).is_ok());
        net.weights.features[3][1] = -MAX_FEATURE_WEIGHT - 1;
        assert_eq!(
            Network::from_bytes(&net.to_bytes()),
            Err(NetworkError::FeatureWeight {
                bucket: 3,
                count: 1,
                weight: -MAX_FEATURE_WEIGHT - 1
            })
        );
    }

    #[test]
    fn the_classic_part_is_checked() {
        let mut net = (*Network::embedded()).clone();
        net.weights.classic_share = 257;
        assert_eq!(
            Network::from_bytes(&net.to_bytes()),
            Err(NetworkError::ClassicShare(257))
        );
        net.weights.classic_share = 256;
        net.weights.classic_weights.tempo = -MAX_CLASSIC_WEIGHT - 1;
        assert_eq!(
            Network::from_bytes(&net.to_bytes()),
            Err(NetworkError::ClassicWeight {
                index: 12,
                weight: -MAX_CLASSIC_WEIGHT - 1
            })
        );
        net.weights.classic_weights = crate::Weights::PAPER;
        assert_eq!(Network::from_bytes(&net.to_bytes()), Ok(net));
    }

    #[test]
    fn a_missing_file_names_its_path() {
        let err = Network::read(Path::new("/nonexistent/x.sknn")).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/x.sknn"), "{err}");
    }

    #[test]
    fn only_regular_files_are_read_and_a_fifo_never_blocks() {
        let dir =
            std::env::temp_dir().join(format!("surakarta-network-open-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut kinds = vec![dir.clone()];
        #[cfg(unix)]
        {
            let fifo = dir.join("f.sknn");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            assert!(made.unwrap().success(), "mkfifo");
            kinds.push(fifo);
        }
        for path in kinds {
            // A FIFO opened for reading would wait for a writer forever.
            let err = Network::read(&path).unwrap_err();
            let text = err.to_string();
            assert!(
                text.contains(&path.display().to_string()) && text.contains("not a regular file"),
                "{text}"
            );
        }
        let long = dir.join("long.sknn");
        std::fs::write(&long, vec![0u8; 64 << 10]).unwrap();
        assert!(matches!(Network::read(&long), Err(NetworkError::Io { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    proptest! {
        /// Any bytes are refused or read, never a panic; and a single
        /// flipped bit of a good file is always refused.
        #[test]
        fn hostile_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let _ = Network::from_bytes(&bytes);
        }

        #[test]
        fn a_flipped_bit_is_refused(at in 0usize..20_000, bit in 0u8..8) {
            let mut bytes = Network::embedded().to_bytes();
            let at = at % bytes.len();
            bytes[at] ^= 1 << bit;
            prop_assert!(Network::from_bytes(&bytes).is_err());
        }
    }
}
