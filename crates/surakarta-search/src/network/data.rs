//! Training positions and their file format (`.skdata`), version 1.
//!
//! A file is a 16-byte header followed by 16-byte records, little-endian:
//!
//! | header offset | size | field |
//! |---:|---:|---|
//! | 0 | 4 | magic `SKTD` |
//! | 4 | 2 | format version, 1 |
//! | 6 | 2 | record size, 16 |
//! | 8 | 8 | zero |
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
//! Readers check every record (points in range, no point taken twice, at
//! most 12 pieces a side, the side that just moved has a piece, no unknown
//! flag), so a damaged file is an error, not a wrong label.

use std::io::{Read, Write};
use std::path::Path;

use surakarta::{Bitboard, Color, Position, Setup};
use surakarta_tablebase::Wdl;

/// The file's first four bytes.
pub const MAGIC: [u8; 4] = *b"SKTD";
/// The format version.
pub const VERSION: u16 = 1;
/// Bytes per record (and of the header).
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
    /// The header is not a version 1 `SKTD` header.
    #[error("not a training data file (version {VERSION} SKTD header expected)")]
    Header,
    /// The records do not fill the file.
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
        out[12] = match self.label {
            Wdl::Loss => 0,
            Wdl::Draw => 1,
            Wdl::Win => 2,
        };
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

/// The 16-byte file header.
#[must_use]
pub fn header() -> [u8; RECORD] {
    let mut h = [0u8; RECORD];
    h[..4].copy_from_slice(&MAGIC);
    h[4..6].copy_from_slice(&VERSION.to_le_bytes());
    h[6..8].copy_from_slice(&(RECORD as u16).to_le_bytes());
    h
}

/// Reads the records of a data file's bytes, checking the header and each
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
/// let mut bytes = data::header().to_vec();
/// bytes.extend_from_slice(&record.to_bytes());
/// assert_eq!(data::from_bytes(&bytes)?, vec![record]);
/// assert!(data::from_bytes(&bytes[..20]).is_err());
/// # Ok::<(), data::DataError>(())
/// ```
pub fn from_bytes(bytes: &[u8]) -> Result<Vec<TrainingPosition>, DataError> {
    if bytes.len() < RECORD || bytes[..RECORD] != header() {
        return Err(DataError::Header);
    }
    let body = &bytes[RECORD..];
    if !body.len().is_multiple_of(RECORD) {
        return Err(DataError::Truncated(body.len()));
    }
    body.chunks_exact(RECORD)
        .enumerate()
        .map(|(i, chunk)| {
            let record: &[u8; RECORD] = chunk.try_into().unwrap_or(&[0xff; RECORD]);
            TrainingPosition::from_bytes(record).map_err(|e| match e {
                DataError::Record { reason, .. } => DataError::Record {
                    index: i as u64,
                    reason,
                },
                other => other,
            })
        })
        .collect()
}

/// Reads a data file.
pub fn read(path: &Path) -> Result<Vec<TrainingPosition>, DataError> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| io_error(path, &e))?;
    from_bytes(&bytes)
}

/// Writes a header and `records` to `out`.
pub fn write(out: &mut impl Write, records: &[TrainingPosition]) -> std::io::Result<()> {
    out.write_all(&header())?;
    for r in records {
        out.write_all(&r.to_bytes())?;
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
        let mut bytes = header().to_vec();
        bytes.extend_from_slice(&good);
        bytes.extend_from_slice(&label);
        assert!(matches!(
            from_bytes(&bytes),
            Err(DataError::Record { index: 1, .. })
        ));
    }
}
