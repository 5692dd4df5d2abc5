//! Training positions and their file format (`.skdata`), version 2.
//!
//! A file is a 16-byte header followed by the records in blocks of
//! [`BLOCK_RECORDS`] records (the last block may be shorter, and a file of
//! no records has none), each block followed by its CRC-32; little-endian
//! throughout:
//!
//! | header offset | size | field |
//! |---:|---:|---|
//! | 0 | 4 | magic `SKTD` |
//! | 4 | 2 | format version, 2 |
//! | 6 | 2 | record size, 16 |
//! | 8 | 4 | the number of records (`u32`) |
//! | 12 | 4 | CRC-32 of bytes 0 to 11 |
//!
//! Block `b` is its records (16 bytes each) and then the CRC-32 of the
//! block's number `b` as a `u64` followed by the block's record bytes, so a
//! block moved to another place does not pass either. The file's length
//! follows from the record count; any other length is an error. So every
//! byte is covered: a flipped bit in the header, in a record or in a
//! checksum is an error naming the header or the block.
//!
//! | record offset | size | field |
//! |---:|---:|---|
//! | 0 | 5 | Black's pieces, bit `i` for point `i` (36 bits used) |
//! | 5 | 5 | White's pieces |
//! | 10 | 2 | the search's score for the side to move (`i16`, evaluation units; 0 if none) |
//! | 12 | 1 | the label for the side to move: 0 loss, 1 draw, 2 win |
//! | 13 | 1 | flags: bit 0 White to move; bit 1 the label is the tables' exact value of this position (else the game's result); other bits 0 |
//! | 14 | 2 | the ply of the game the position was met at (`u16`) |
//!
//! Version 1, still read, has no checksums and no count: a header of
//! `SKTD`, version 1, record size 16 and eight zero bytes, then the records
//! one after another. [`TrainingData::version`] says which version a file
//! was, so that a program can warn that damage in a version 1 file cannot
//! be found; only version 2 is written.
//!
//! Readers also check every record (points in range, no point taken twice,
//! at most 12 pieces a side, the side that just moved has a piece, no
//! unknown flag), so a damaged file is an error, not a wrong label.

use std::io::Write;
use std::path::Path;

use surakarta::{Bitboard, Color, Position, Setup};
use surakarta_tablebase::Wdl;

/// The file's first four bytes.
pub const MAGIC: [u8; 4] = *b"SKTD";
/// The format version written (version 1 is still read).
pub const VERSION: u16 = 2;
/// Bytes per record.
pub const RECORD: usize = 16;

/// The training target of a label: 0 for a loss, ½ for a draw, 1 for a
/// win.
///
/// # Examples
///
/// ```
/// use surakarta_search::network::data::target;
/// use surakarta_tablebase::Wdl;
///
/// assert_eq!(target(Wdl::Draw), 0.5);
/// ```
#[must_use]
pub fn target(label: Wdl) -> f32 {
    match label {
        Wdl::Loss => 0.0,
        Wdl::Draw => 0.5,
        Wdl::Win => 1.0,
    }
}

/// A label as the record stores it: 0 for a loss, 1 for a draw, 2 for a
/// win.
///
/// # Examples
///
/// ```
/// use surakarta_search::network::data::label_byte;
/// use surakarta_tablebase::Wdl;
///
/// assert_eq!(label_byte(Wdl::Win), 2);
/// ```
#[must_use]
pub const fn label_byte(label: Wdl) -> u8 {
    match label {
        Wdl::Loss => 0,
        Wdl::Draw => 1,
        Wdl::Win => 2,
    }
}

/// One labelled position.
///
/// # Examples
///
/// ```
/// use surakarta::Position;
/// use surakarta_search::network::data::TrainingPosition;
/// use surakarta_tablebase::Wdl;
///
/// let record = TrainingPosition {
///     position: Position::new(),
///     score: 12,
///     label: Wdl::Draw,
///     exact: false,
///     ply: 0,
/// };
/// let bytes = record.to_bytes();
/// assert_eq!(TrainingPosition::from_bytes(&bytes)?, record);
/// # Ok::<(), surakarta_search::network::data::DataError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrainingPosition {
    /// The position (move counters are not stored: read back as 0 and 1).
    pub position: Position,
    /// The search's score for the side to move.
    pub score: i16,
    /// The label for the side to move.
    pub label: Wdl,
    /// Whether the label is the tables' exact value of the position.
    pub exact: bool,
    /// The ply of the game.
    pub ply: u16,
}

/// Why training data could not be read or written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    /// The file could not be opened, read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        message: String,
    },
    /// An error in the file at `path` (every error of [`read`] but
    /// [`DataError::Io`]).
    #[error("{path}: {error}")]
    File {
        /// The file.
        path: String,
        /// What is wrong in it.
        error: Box<DataError>,
    },
    /// The header is not an `SKTD` header of records of 16 bytes.
    #[error("not a training data file (an SKTD header of version 1 or {VERSION} expected)")]
    Header,
    /// The header names a version this program does not read.
    #[error("training data of version {0}: this program reads versions 1 and {VERSION}")]
    Version(u16),
    /// The version 2 header does not match its checksum.
    #[error("the header does not match its checksum: the file is damaged")]
    HeaderChecksum,
    /// The version 2 file is not as long as its record count makes it.
    #[error("the file is {found} bytes, but {records} records (its header's count) make {expected}: the file is damaged or cut short")]
    Length {
        /// The header's record count.
        records: u64,
        /// The length those records make.
        expected: u64,
        /// The file's length.
        found: u64,
    },
    /// A block of a version 2 file does not match its checksum.
    #[error("block {block} (records {first} to {last}) does not match its checksum: the file is damaged")]
    Block {
        /// The block's number, from 0.
        block: u64,
        /// Its first record's index in the file.
        first: u64,
        /// Its last record's index in the file.
        last: u64,
    },
    /// The records of a version 1 file do not fill it.
    #[error("training data ends inside a record ({0} bytes after the header)")]
    Truncated(usize),
    /// A record is not a valid position or label.
    #[error("training record {index} is invalid: {reason}")]
    Record {
        /// The record's index in the file (0 in [`TrainingPosition::from_bytes`]).
        index: u64,
        /// What is wrong.
        reason: String,
    },
}

fn read40(b: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word[..5].copy_from_slice(&b[..5]);
    u64::from_le_bytes(word)
}

impl TrainingPosition {
    /// The 16-byte record.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; RECORD] {
        let mut out = [0u8; RECORD];
        let black = self.position.pieces(Color::Black).bits().to_le_bytes();
        let white = self.position.pieces(Color::White).bits().to_le_bytes();
        out[..5].copy_from_slice(&black[..5]);
        out[5..10].copy_from_slice(&white[..5]);
        out[10..12].copy_from_slice(&self.score.to_le_bytes());
        out[12] = label_byte(self.label);
        out[13] = u8::from(self.position.turn() == Color::White) | (u8::from(self.exact) << 1);
        out[14..16].copy_from_slice(&self.ply.to_le_bytes());
        out
    }

    /// Reads a record, checking it.
    pub fn from_bytes(b: &[u8; RECORD]) -> Result<TrainingPosition, DataError> {
        let bad = |reason: &str| DataError::Record {
            index: 0,
            reason: reason.to_owned(),
        };
        let black =
            Bitboard::new(read40(&b[..5])).ok_or_else(|| bad("Black's points out of range"))?;
        let white =
            Bitboard::new(read40(&b[5..10])).ok_or_else(|| bad("White's points out of range"))?;
        let label = match b[12] {
            0 => Wdl::Loss,
            1 => Wdl::Draw,
            2 => Wdl::Win,
            _ => return Err(bad("label is not 0, 1 or 2")),
        };
        if b[13] & !3 != 0 {
            return Err(bad("unknown flag bits"));
        }
        let turn = if b[13] & 1 != 0 {
            Color::White
        } else {
            Color::Black
        };
        let position = Position::from_setup(Setup {
            black,
            white,
            turn,
            halfmoves: 0,
            fullmoves: 1,
        })
        .map_err(|e| bad(&e.to_string()))?;
        Ok(TrainingPosition {
            position,
            score: i16::from_le_bytes([b[10], b[11]]),
            label,
            exact: b[13] & 2 != 0,
            ply: u16::from_le_bytes([b[14], b[15]]),
        })
    }
}

/// Bytes of the file header.
pub const HEADER: usize = 16;
/// Records per checksummed block of a version 2 file (the last block may
/// hold fewer).
pub const BLOCK_RECORDS: usize = 1024;
/// Bytes of a block's checksum.
const CRC: usize = 4;
/// The most records a file holds (its count is a `u32`).
pub const MAX_RECORDS: u64 = u32::MAX as u64;
/// The longest valid file of either version (a version 2 file of
/// [`MAX_RECORDS`] records); readers read no further.
pub const MAX_FILE_LEN: u64 = version_2_len(MAX_RECORDS);

/// The length of a version 2 file of `records` records.
const fn version_2_len(records: u64) -> u64 {
    let blocks = records.div_ceil(BLOCK_RECORDS as u64);
    HEADER as u64 + records * RECORD as u64 + blocks * CRC as u64
}

/// The records of a training data file, and the version it was written in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainingData {
    /// The file's format version: [`VERSION`], or 1 for a file without
    /// checksums (damage in it is found only where it makes a record
    /// invalid; a program should say so).
    pub version: u16,
    /// The records, in file order.
    pub records: Vec<TrainingPosition>,
}

impl TrainingData {
    /// Whether the file was written in an older version than [`VERSION`]
    /// (version 1: no checksums).
    #[must_use]
    pub fn is_outdated(&self) -> bool {
        self.version < VERSION
    }
}

/// The version 2 header of a file of `records` records.
fn header(records: u32) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..4].copy_from_slice(&MAGIC);
    h[4..6].copy_from_slice(&VERSION.to_le_bytes());
    h[6..8].copy_from_slice(&(RECORD as u16).to_le_bytes());
    h[8..12].copy_from_slice(&records.to_le_bytes());
    let crc = crc32fast::hash(&h[..12]);
    h[12..16].copy_from_slice(&crc.to_le_bytes());
    h
}

/// The checksum of block `block` whose records are `bytes`.
fn block_crc(block: u64, bytes: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&block.to_le_bytes());
    hasher.update(bytes);
    hasher.finalize()
}

/// Reads the records of a data file's bytes (version 2, or version 1),
/// checking the header, the length, every block's checksum and every
/// record.
///
/// # Examples
///
/// ```
/// use surakarta::Position;
/// use surakarta_search::network::data::{self, TrainingPosition};
/// use surakarta_tablebase::Wdl;
///
/// let record = TrainingPosition { position: Position::new(), score: 0, label: Wdl::Win, exact: false, ply: 3 };
/// let mut bytes = Vec::new();
/// data::write(&mut bytes, &[record])?;
/// let read = data::from_bytes(&bytes)?;
/// assert_eq!((read.version, read.records), (data::VERSION, vec![record]));
/// bytes[20] ^= 1; // a flipped bit in the first block
/// assert!(data::from_bytes(&bytes).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn from_bytes(bytes: &[u8]) -> Result<TrainingData, DataError> {
    if bytes.len() < HEADER || bytes[..4] != MAGIC || bytes[6..8] != (RECORD as u16).to_le_bytes() {
        return Err(DataError::Header);
    }
    let version = u16::from_le_bytes([bytes[4], bytes[5]]);
    let records = match version {
        1 => version_1(bytes)?,
        VERSION => version_2(bytes)?,
        other => return Err(DataError::Version(other)),
    };
    Ok(TrainingData { version, records })
}

/// The records of a version 1 file, its header's magic, version and record
/// size checked.
fn version_1(bytes: &[u8]) -> Result<Vec<TrainingPosition>, DataError> {
    if bytes[8..HEADER].iter().any(|&b| b != 0) {
        return Err(DataError::Header);
    }
    let body = &bytes[HEADER..];
    if !body.len().is_multiple_of(RECORD) {
        return Err(DataError::Truncated(body.len()));
    }
    records(body, 0)
}

/// The records of a version 2 file, its header's magic, version and record
/// size checked.
fn version_2(bytes: &[u8]) -> Result<Vec<TrainingPosition>, DataError> {
    let stored = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]);
    if crc32fast::hash(&bytes[..12]) != stored {
        return Err(DataError::HeaderChecksum);
    }
    let count = u64::from(u32::from_le_bytes([
        bytes[8], bytes[9], bytes[10], bytes[11],
    ]));
    let expected = version_2_len(count);
    if bytes.len() as u64 != expected {
        return Err(DataError::Length {
            records: count,
            expected,
            found: bytes.len() as u64,
        });
    }
    let mut out = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
    let blocks = bytes[HEADER..].chunks(BLOCK_RECORDS * RECORD + CRC);
    for (block, framed) in blocks.enumerate() {
        let block = block as u64;
        let first = block * BLOCK_RECORDS as u64;
        // The length check makes every block at least one record and its
        // checksum long.
        let (body, crc) = framed.split_at(framed.len().saturating_sub(CRC));
        let mut stored = [0u8; CRC];
        stored.copy_from_slice(crc);
        if block_crc(block, body) != u32::from_le_bytes(stored) {
            return Err(DataError::Block {
                block,
                first,
                last: first + (body.len() / RECORD) as u64 - 1,
            });
        }
        out.extend(records(body, first)?);
    }
    Ok(out)
}

/// The records of `body` (a multiple of [`RECORD`] bytes), the first one
/// numbered `first` in errors.
fn records(body: &[u8], first: u64) -> Result<Vec<TrainingPosition>, DataError> {
    body.chunks_exact(RECORD)
        .enumerate()
        .map(|(i, chunk)| {
            let record: &[u8; RECORD] = chunk.try_into().unwrap_or(&[0xff; RECORD]);
            TrainingPosition::from_bytes(record).map_err(|e| match e {
                DataError::Record { reason, .. } => DataError::Record {
                    index: first + i as u64,
                    reason,
                },
                other => other,
            })
        })
        .collect()
}

/// Reads a data file, opened the one safe way
/// ([`surakarta_tablebase::read_regular_file`]: a regular file only, never
/// waiting on a FIFO, at most [`MAX_FILE_LEN`] bytes). Every error but one
/// of opening ([`DataError::Io`], which names the file) is a
/// [`DataError::File`] naming it.
pub fn read(path: &Path) -> Result<TrainingData, DataError> {
    let bytes = surakarta_tablebase::read_regular_file(path, MAX_FILE_LEN)
        .map_err(|e| io_error(path, &e))?;
    from_bytes(&bytes).map_err(|e| DataError::File {
        path: path.display().to_string(),
        error: Box::new(e),
    })
}

/// Writes `records` to `out` as a version 2 file; more than
/// [`MAX_RECORDS`] records are an error of kind
/// [`std::io::ErrorKind::InvalidInput`], with nothing written.
pub fn write(out: &mut impl Write, records: &[TrainingPosition]) -> std::io::Result<()> {
    let count = u32::try_from(records.len()).map_err(|_| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("more than {MAX_RECORDS} training records for one file"),
        )
    })?;
    out.write_all(&header(count))?;
    let mut block = Vec::with_capacity(BLOCK_RECORDS * RECORD);
    for (b, group) in records.chunks(BLOCK_RECORDS).enumerate() {
        block.clear();
        for r in group {
            block.extend_from_slice(&r.to_bytes());
        }
        out.write_all(&block)?;
        out.write_all(&block_crc(b as u64, &block).to_le_bytes())?;
    }
    Ok(())
}

/// A [`DataError::Io`] for `path`.
#[must_use]
pub fn io_error(path: &Path, e: &std::io::Error) -> DataError {
    DataError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// What a set of training positions holds: labels by kind, pieces on the
/// board, side to move, plies and scores (`surakarta data` prints them).
///
/// # Examples
///
/// ```
/// use surakarta::Position;
/// use surakarta_search::network::data::{DataStats, TrainingPosition};
/// use surakarta_tablebase::Wdl;
///
/// let start = TrainingPosition { position: Position::new(), score: -20, label: Wdl::Win, exact: false, ply: 4 };
/// let exact = TrainingPosition { label: Wdl::Draw, exact: true, ply: 8, ..start };
/// let mut stats = DataStats::default();
/// stats.add(&[start, exact]);
/// assert_eq!(stats.positions, 2);
/// assert_eq!(stats.game_labels, [0, 0, 1]);
/// assert_eq!(stats.exact_labels, [0, 1, 0]);
/// assert_eq!(stats.by_pieces[24], 2);
/// assert_eq!(stats.mean_ply(), 6.0);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DataStats {
    /// Positions counted.
    pub positions: u64,
    /// The positions labelled by their game's result: losses, draws and
    /// wins for the side to move.
    pub game_labels: [u64; 3],
    /// The positions labelled by the tables' exact value, likewise.
    pub exact_labels: [u64; 3],
    /// Positions by the number of pieces on the board (0 to 24).
    pub by_pieces: [u64; 25],
    /// Positions with White to move.
    pub white_to_move: u64,
    /// The sum of the positions' plies.
    pub ply_sum: u64,
    /// The largest ply.
    pub max_ply: u16,
    /// The sum of the search scores' magnitudes of the positions labelled
    /// by their game (exact positions have no score).
    pub game_abs_score_sum: u64,
}

impl DataStats {
    /// Counts `records`.
    pub fn add(&mut self, records: &[TrainingPosition]) {
        for r in records {
            self.positions += 1;
            let label = usize::from(label_byte(r.label));
            if r.exact {
                self.exact_labels[label] += 1;
            } else {
                self.game_labels[label] += 1;
                self.game_abs_score_sum += u64::from(r.score.unsigned_abs());
            }
            self.by_pieces[r.position.occupied().len() as usize] += 1;
            self.white_to_move += u64::from(r.position.turn() == Color::White);
            self.ply_sum += u64::from(r.ply);
            self.max_ply = self.max_ply.max(r.ply);
        }
    }

    /// The positions labelled by the tables.
    #[must_use]
    pub fn exact(&self) -> u64 {
        self.exact_labels.iter().sum()
    }

    /// The mean ply (0 with no positions).
    #[must_use]
    pub fn mean_ply(&self) -> f64 {
        self.ply_sum as f64 / self.positions.max(1) as f64
    }

    /// The mean magnitude of the search scores of the positions labelled
    /// by their game (0 with none).
    #[must_use]
    pub fn mean_game_abs_score(&self) -> f64 {
        let game: u64 = self.game_labels.iter().sum();
        self.game_abs_score_sum as f64 / game.max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use surakarta::random::{random_playout, SplitMix};

    proptest! {
        #[test]
        fn records_read_back(seed in any::<u64>(), plies in 0usize..80, score in any::<i16>(), label in 0u8..3, exact in any::<bool>(), ply in any::<u16>()) {
            let position = random_playout(&mut SplitMix::new(seed), Position::new(), plies);
            let setup = position.to_setup();
            let position = Position::from_setup(Setup { halfmoves: 0, fullmoves: 1, ..setup }).unwrap();
            let label = [Wdl::Loss, Wdl::Draw, Wdl::Win][label as usize];
            let r = TrainingPosition { position, score, label, exact, ply };
            prop_assert_eq!(TrainingPosition::from_bytes(&r.to_bytes()).unwrap(), r);
        }

        #[test]
        fn hostile_records_never_panic(bytes in any::<[u8; 16]>()) {
            let _ = TrainingPosition::from_bytes(&bytes);
        }
    }

    #[test]
    fn overlapping_sides_and_bad_labels_are_refused() {
        let good = TrainingPosition {
            position: Position::new(),
            score: 0,
            label: Wdl::Draw,
            exact: false,
            ply: 0,
        }
        .to_bytes();
        let mut overlap = good;
        overlap[5] |= 1; // a1 is Black's already
        assert!(TrainingPosition::from_bytes(&overlap).is_err());
        let mut label = good;
        label[12] = 3;
        assert!(TrainingPosition::from_bytes(&label).is_err());
        let mut flag = good;
        flag[13] = 4;
        assert!(TrainingPosition::from_bytes(&flag).is_err());
        let bytes = version_1_file(&[good, label]);
        assert!(matches!(
            from_bytes(&bytes),
            Err(DataError::Record { index: 1, .. })
        ));
        // In version 2, behind a valid checksum, a bad record is found too,
        // numbered in the file.
        let mut records = vec![good; BLOCK_RECORDS + 3];
        records[BLOCK_RECORDS + 1] = label;
        assert_eq!(
            from_bytes(&version_2_file(&records)),
            Err(DataError::Record {
                index: BLOCK_RECORDS as u64 + 1,
                reason: "label is not 0, 1 or 2".into()
            })
        );
    }

    /// `n` different valid records.
    fn some_records(n: usize) -> Vec<TrainingPosition> {
        let mut rng = SplitMix::new(7);
        (0..n)
            .map(|i| {
                let p = random_playout(&mut rng, Position::new(), i % 40);
                TrainingPosition {
                    position: Position::from_setup(Setup {
                        halfmoves: 0,
                        fullmoves: 1,
                        ..p.to_setup()
                    })
                    .unwrap(),
                    score: i as i16 - 50,
                    label: [Wdl::Loss, Wdl::Draw, Wdl::Win][i % 3],
                    exact: i % 5 == 0,
                    ply: i as u16,
                }
            })
            .collect()
    }

    /// A version 1 file of `records` (raw record bytes), as version 1
    /// programs wrote it.
    fn version_1_file(records: &[[u8; RECORD]]) -> Vec<u8> {
        let mut bytes = b"SKTD\x01\x00\x10\x00\0\0\0\0\0\0\0\0".to_vec();
        for r in records {
            bytes.extend_from_slice(r);
        }
        bytes
    }

    /// A version 2 file of `records` (raw record bytes), framed by hand
    /// from the layout in the module documentation.
    fn version_2_file(records: &[[u8; RECORD]]) -> Vec<u8> {
        let mut bytes = b"SKTD\x02\x00\x10\x00".to_vec();
        bytes.extend_from_slice(&(records.len() as u32).to_le_bytes());
        let crc = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
        for (b, block) in records.chunks(BLOCK_RECORDS).enumerate() {
            let mut hasher = crc32fast::Hasher::new();
            hasher.update(&(b as u64).to_le_bytes());
            for r in block {
                hasher.update(r);
                bytes.extend_from_slice(r);
            }
            bytes.extend_from_slice(&hasher.finalize().to_le_bytes());
        }
        bytes
    }

    #[test]
    fn version_2_is_written_as_documented_and_reads_back() {
        for n in [
            0,
            1,
            BLOCK_RECORDS - 1,
            BLOCK_RECORDS,
            BLOCK_RECORDS + 1,
            2500,
        ] {
            let records = some_records(n);
            let mut written = Vec::new();
            write(&mut written, &records).unwrap();
            let raw: Vec<[u8; RECORD]> = records.iter().map(TrainingPosition::to_bytes).collect();
            assert_eq!(written, version_2_file(&raw), "{n} records");
            assert_eq!(written.len() as u64, version_2_len(n as u64));
            let read = from_bytes(&written).unwrap();
            assert_eq!((read.version, read.records), (VERSION, records));
            assert!(!from_bytes(&written).unwrap().is_outdated());
        }
    }

    #[test]
    fn version_1_is_still_read_and_said_to_be_outdated() {
        let records = some_records(40);
        let raw: Vec<[u8; RECORD]> = records.iter().map(TrainingPosition::to_bytes).collect();
        let read = from_bytes(&version_1_file(&raw)).unwrap();
        assert_eq!(read.version, 1);
        assert!(read.is_outdated());
        assert_eq!(read.records, records);
        let mut cut = version_1_file(&raw);
        cut.pop();
        assert_eq!(from_bytes(&cut), Err(DataError::Truncated(40 * RECORD - 1)));
    }

    #[test]
    fn every_flipped_bit_of_a_version_2_file_is_an_error() {
        // Two blocks, the second short: the header, records and checksums
        // of both.
        let mut bytes = Vec::new();
        write(&mut bytes, &some_records(BLOCK_RECORDS + 5)).unwrap();
        for at in 0..bytes.len() {
            for bit in 0..8 {
                let mut damaged = bytes.clone();
                damaged[at] ^= 1 << bit;
                let error = from_bytes(&damaged).unwrap_err();
                let first_block_end = HEADER + BLOCK_RECORDS * RECORD + CRC;
                let expected = match at {
                    0..4 | 6..8 => DataError::Header,
                    4..6 => DataError::Version(VERSION ^ (1 << (8 * (at - 4) + bit))),
                    8..HEADER => DataError::HeaderChecksum,
                    _ if at < first_block_end => DataError::Block {
                        block: 0,
                        first: 0,
                        last: BLOCK_RECORDS as u64 - 1,
                    },
                    _ => DataError::Block {
                        block: 1,
                        first: BLOCK_RECORDS as u64,
                        last: BLOCK_RECORDS as u64 + 4,
                    },
                };
                assert_eq!(error, expected, "byte {at}, bit {bit}");
            }
        }
    }

    #[test]
    fn cut_grown_or_reordered_version_2_files_are_errors() {
        let mut bytes = Vec::new();
        write(&mut bytes, &some_records(2 * BLOCK_RECORDS)).unwrap();
        let len = bytes.len() as u64;
        let length = |found| DataError::Length {
            records: 2 * BLOCK_RECORDS as u64,
            expected: len,
            found,
        };
        assert_eq!(from_bytes(&bytes[..bytes.len() - 1]), Err(length(len - 1)));
        let block = BLOCK_RECORDS * RECORD + CRC;
        assert_eq!(
            from_bytes(&bytes[..HEADER + block]),
            Err(length((HEADER + block) as u64))
        );
        let mut longer = bytes.clone();
        longer.extend_from_slice(&[0; RECORD]);
        assert_eq!(from_bytes(&longer), Err(length(len + RECORD as u64)));
        // The two blocks swapped, each with its own checksum.
        let mut swapped = bytes[..HEADER].to_vec();
        swapped.extend_from_slice(&bytes[HEADER + block..]);
        swapped.extend_from_slice(&bytes[HEADER..HEADER + block]);
        assert!(matches!(
            from_bytes(&swapped),
            Err(DataError::Block { block: 0, .. })
        ));
        // A header claiming far more records than there are.
        let mut huge = bytes[..8].to_vec();
        huge.extend_from_slice(&u32::MAX.to_le_bytes());
        let crc = crc32fast::hash(&huge);
        huge.extend_from_slice(&crc.to_le_bytes());
        assert!(matches!(
            from_bytes(&huge),
            Err(DataError::Length { found: 16, .. })
        ));
        assert_eq!(from_bytes(b"SKTD"), Err(DataError::Header));
        assert_eq!(from_bytes(&[]), Err(DataError::Header));
    }
}
