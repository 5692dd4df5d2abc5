//! The table file formats (specified byte by byte in
//! `docs/tablebase-format.md`): a 128-byte header, then the payload.
//! Version 1 stores one value byte per index slot; version 2 a compact
//! body (see the `compact` module).
//!
//! ```text
//! offset size field
//!      0    8 magic 89 53 4B 54 42 0D 0A 1A ("\x89SKTB\r\n\x1a")
//!      8    2 format version (1 or 2)
//!     10    1 rule set (0 = pure rules)
//!     11    1 index scheme (0 = plain, 1 = symmetric)
//!     12    1 pieces of the side to move
//!     13    1 pieces of the other side
//!     14    1 payload encoding (0 = one byte per slot, 1 = compact)
//!     15    1 reserved, 0
//!     16    8 slots
//!     24    8 positions (used slots)
//!     32    8 wins
//!     40    8 draws
//!     48    8 losses
//!     56    4 longest distance to conversion
//!     60    4 CRC-32 of the payload (everything after the header)
//!     64    1 version 2: block bits            (version 1: 0)
//!     65    1 reserved, 0
//!     66    2 version 2: terminal symbols      (version 1: 0)
//!     68    2 version 2: rule symbols          (version 1: 0)
//!     70    2 reserved, 0
//!     72    8 version 2: bytes of the bit stream (version 1: 0)
//!     80   44 reserved, 0
//!    124    4 CRC-32 of bytes 0..124
//! ```
//!
//! Integers are little-endian.

use std::fmt;
use surakarta_index::{Indexer, Material, PlainIndexer, Scheme};

/// The first eight bytes of every table file.
pub const MAGIC: [u8; 8] = *b"\x89SKTB\r\n\x1a";
/// The newest format version, the one written by default.
pub const FORMAT_VERSION: u16 = 2;
/// The oldest format version this crate reads and writes.
pub const OLDEST_VERSION: u16 = 1;
/// Bytes before the payload.
pub const HEADER_LEN: usize = 128;
/// The file name extension of table files.
pub const EXTENSION: &str = "sktb";

/// The rule set byte of the pure rules (the only one tables are made for).
const RULES_PURE: u8 = 0;
/// The encoding byte of an uncompressed payload (version 1).
const ENCODING_BYTES: u8 = 0;
/// The encoding byte of a compact payload (version 2).
const ENCODING_COMPACT: u8 = 1;

/// The file name of a class's table, like `4v3.sktb`.
#[must_use]
pub fn file_name(material: Material) -> String {
    format!("{material}.{EXTENSION}")
}

/// What is wrong with a table file (the error names the file; see
/// [`TablebaseError::File`](crate::TablebaseError::File)).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FileProblem {
    /// Reading or writing failed: the system's error, also the
    /// [`source`](std::error::Error::source) (its message is the
    /// problem's message, so that a one-line report has the reason).
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The file is shorter than its header says.
    #[error("truncated: {found} bytes, expected {expected}")]
    Truncated {
        /// Bytes the header implies.
        expected: u64,
        /// Bytes present.
        found: u64,
    },
    /// The file is longer than its header says.
    #[error("{found} bytes, expected {expected}: trailing data")]
    TooLong {
        /// Bytes the header implies.
        expected: u64,
        /// Bytes present.
        found: u64,
    },
    /// Not a Surakarta table file.
    #[error("not a Surakarta table (wrong magic bytes)")]
    Magic,
    /// A format version this crate does not read.
    #[error(
        "format version {0}, this program reads versions {OLDEST_VERSION} to {FORMAT_VERSION}"
    )]
    Version(u16),
    /// The header's own checksum does not match.
    #[error("header checksum mismatch (header damaged)")]
    HeaderChecksum,
    /// A field holds a value the format does not allow.
    #[error("bad header field {field}: {value}")]
    Field {
        /// The field's name.
        field: &'static str,
        /// The value found.
        value: u64,
    },
    /// The header's material differs from the file name's.
    #[error("holds material {found}, its name says {expected}")]
    WrongMaterial {
        /// The class the name implies.
        expected: Material,
        /// The class in the header.
        found: Material,
    },
    /// The slot count differs from the size of the class's index.
    #[error("{found} slots, the {scheme} index of {material} has {expected}")]
    SlotCount {
        /// The class.
        material: Material,
        /// Its scheme.
        scheme: Scheme,
        /// Slots of the index.
        expected: u64,
        /// Slots in the header.
        found: u64,
    },
    /// The position counts do not add up.
    #[error("positions {positions} != wins {wins} + draws {draws} + losses {losses}")]
    Counts {
        /// Positions.
        positions: u64,
        /// Wins.
        wins: u64,
        /// Draws.
        draws: u64,
        /// Losses.
        losses: u64,
    },
    /// The compressed payload is inconsistent (only possible in a damaged
    /// or forged file whose checksums match).
    #[error("corrupt compressed payload: {0}")]
    Corrupt(&'static str),
    /// The payload's checksum does not match the header's.
    #[error("payload checksum mismatch (header {expected:08x}, payload {found:08x})")]
    PayloadChecksum {
        /// The checksum in the header.
        expected: u32,
        /// The checksum of the payload.
        found: u32,
    },
    /// The path is a directory, a FIFO, a device or a socket, not a file.
    #[error("not a regular file")]
    NotAFile,
}

/// Figures of one class's table: what a header says about it besides
/// the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassStats {
    /// The class.
    pub material: Material,
    /// Slots of its index.
    pub slots: u64,
    /// Positions stored (used slots).
    pub positions: u64,
    /// Wins for the side to move.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses for the side to move.
    pub losses: u64,
    /// The longest distance to conversion of a win or loss.
    pub longest: u32,
}

/// The section sizes of a version 2 (compact) payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompactShape {
    /// Each block holds `2^block_bits` slots (the last one fewer).
    pub block_bits: u32,
    /// Terminal symbols, 1 to 256: each stands for one value byte per
    /// context of the model.
    pub terminals: u32,
    /// How terminal symbols map to values (header byte 65).
    pub model: crate::format::compact::context::ContextModel,
    /// How the block boundaries are stored (header byte 70).
    pub offsets: BlockOffsets,
    /// Whether the rules and code lengths are bit-packed (header byte 80:
    /// 1) rather than u16 rules and a byte per code length (0).
    pub packed_dictionary: bool,
    /// Whether a drawn position with a capture into a drawn position may
    /// store any draw or loss (header byte 71 not 0); a reader resolves
    /// a stored loss by the captures.
    pub capture_draws: bool,
    /// With capture draws, the draw map's unit (header byte 71 = 2, byte
    /// 81 = `u`): the body ends with a bit per `2^u` slots, set where a
    /// stored loss may stand for a draw, so a reader resolves only the
    /// stored losses of set units. `None` (byte 71 = 0 or 1): no map.
    pub draw_map_bits: Option<u32>,
    /// Rule symbols of the grammar (each expands to two older symbols).
    pub rules: u32,
    /// Bytes of the Huffman-coded bit stream.
    pub bits_len: u64,
}

/// How a version 2 file stores the byte offset of each block boundary in
/// its bit stream (header byte 70).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockOffsets {
    /// A u64 per boundary (byte 70 = 0).
    U64,
    /// A u32 per boundary (1): the bit stream is shorter than 4 GiB.
    U32,
    /// Grouped (2): a u32 base per group of [`OFFSET_GROUP`] boundaries,
    /// then a u16 per boundary counted from its group's base.
    Grouped,
}

/// Boundaries per group of [`BlockOffsets::Grouped`] offsets.
pub const OFFSET_GROUP: u64 = 64;

/// Bits of a packed code length: lengths are 0 to 24.
pub(crate) const PACKED_LENGTH_BITS: u32 = 5;

impl BlockOffsets {
    /// Header byte 70.
    pub(crate) fn code(self) -> u8 {
        match self {
            BlockOffsets::U64 => 0,
            BlockOffsets::U32 => 1,
            BlockOffsets::Grouped => 2,
        }
    }

    /// The offsets of header byte 70, if it names any.
    pub(crate) fn from_code(code: u8) -> Option<BlockOffsets> {
        [BlockOffsets::U64, BlockOffsets::U32, BlockOffsets::Grouped]
            .into_iter()
            .find(|o| o.code() == code)
    }

    /// Bytes of the offsets section for `boundaries` block boundaries
    /// (blocks + 1), or `None` on overflow.
    pub(crate) fn section_len(self, boundaries: u64) -> Option<u64> {
        match self {
            BlockOffsets::U64 => boundaries.checked_mul(8),
            BlockOffsets::U32 => boundaries.checked_mul(4),
            BlockOffsets::Grouped => boundaries
                .div_ceil(OFFSET_GROUP)
                .checked_mul(4)?
                .checked_add(boundaries.checked_mul(2)?),
        }
    }
}

/// The block sizes (`k` in blocks of `2^k` slots) a version 2 file may use.
pub(crate) const BLOCK_BITS: std::ops::RangeInclusive<u32> = 10..=24;

/// The draw map units (`u` in units of `2^u` slots) a version 2 file may
/// use.
pub(crate) const DRAW_MAP_BITS: std::ops::RangeInclusive<u32> = 10..=24;

impl CompactShape {
    /// Blocks of a table with `slots` slots.
    pub(crate) fn blocks(self, slots: u64) -> u64 {
        slots.div_ceil(1 << self.block_bits)
    }

    /// Bits of a symbol number in a packed dictionary: enough for the
    /// largest symbol, at least 1.
    pub(crate) fn symbol_bits(self) -> u32 {
        let symbols = self.terminals + self.rules;
        (u32::BITS - symbols.saturating_sub(1).leading_zeros()).max(1)
    }

    /// Bytes of the terminals section: a value byte per terminal and
    /// context.
    #[must_use]
    pub fn terminals_len(self) -> u64 {
        u64::from(self.terminals) * self.model.contexts() as u64
    }

    /// Bytes of the rules section.
    #[must_use]
    pub fn rules_len(self) -> u64 {
        let rules = u64::from(self.rules);
        if self.packed_dictionary {
            (2 * rules * u64::from(self.symbol_bits())).div_ceil(8)
        } else {
            4 * rules
        }
    }

    /// Bytes of the code lengths section.
    #[must_use]
    pub fn lengths_len(self) -> u64 {
        let symbols = u64::from(self.terminals) + u64::from(self.rules);
        if self.packed_dictionary {
            (symbols * u64::from(PACKED_LENGTH_BITS)).div_ceil(8)
        } else {
            symbols
        }
    }

    /// Bytes of the block offsets section of a table with `slots` slots.
    #[must_use]
    pub fn offsets_len(self, slots: u64) -> Option<u64> {
        self.offsets.section_len(self.blocks(slots).checked_add(1)?)
    }

    /// Bytes of the draw map section of a table with `slots` slots: a bit
    /// per unit, 0 without a map.
    #[must_use]
    pub fn draw_map_len(self, slots: u64) -> u64 {
        self.draw_map_bits
            .map_or(0, |u| slots.div_ceil(1 << u.min(63)).div_ceil(8))
    }

    /// Bytes of the body (everything after the header) of a table with
    /// `slots` slots, or `None` if the sizes overflow.
    pub(crate) fn body_len(self, slots: u64) -> Option<u64> {
        self.terminals_len()
            .checked_add(self.rules_len())?
            .checked_add(self.lengths_len())?
            .checked_add(self.offsets_len(slots)?)?
            .checked_add(self.bits_len)?
            .checked_add(self.draw_map_len(slots))
    }
}

/// A parsed, self-consistent header. Whether its slot count matches the
/// index is checked by the table that opens it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The index scheme of the payload.
    pub scheme: Scheme,
    /// `None` for format 1 (a byte per slot), the compact payload's shape
    /// for format 2.
    pub compact: Option<CompactShape>,
    /// The class's figures (material, slots, counts, longest distance).
    pub stats: ClassStats,
    /// CRC-32 of the payload.
    pub checksum: u32,
}

impl fmt::Display for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({} index, {} slots, checksum {:08x})",
            self.stats.material, self.scheme, self.stats.slots, self.checksum
        )
    }
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

impl Header {
    /// The format version: 1 or 2.
    #[must_use]
    pub fn version(&self) -> u16 {
        if self.compact.is_some() {
            2
        } else {
            1
        }
    }

    /// The length of the whole file this header describes.
    #[must_use]
    pub fn file_len(&self) -> Option<u64> {
        let payload = match self.compact {
            None => Some(self.stats.slots),
            Some(shape) => shape.body_len(self.stats.slots),
        }?;
        payload.checked_add(HEADER_LEN as u64)
    }

    /// The header bytes.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let s = &self.stats;
        let mut b = [0u8; HEADER_LEN];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..10].copy_from_slice(&self.version().to_le_bytes());
        b[10] = RULES_PURE;
        b[11] = match self.scheme {
            Scheme::Plain => 0,
            Scheme::Symmetric => 1,
        };
        b[12] = s.material.us() as u8;
        b[13] = s.material.them() as u8;
        b[14] = match self.compact {
            None => ENCODING_BYTES,
            Some(_) => ENCODING_COMPACT,
        };
        if let Some(c) = self.compact {
            b[64] = c.block_bits as u8;
            b[65] = c.model.code();
            b[70] = c.offsets.code();
            b[71] = match (c.capture_draws, c.draw_map_bits) {
                (false, _) => 0,
                (true, None) => 1,
                (true, Some(u)) => {
                    b[81] = u as u8;
                    2
                }
            };
            b[80] = u8::from(c.packed_dictionary);
            b[66..68].copy_from_slice(&(c.terminals as u16).to_le_bytes());
            b[68..70].copy_from_slice(&(c.rules as u16).to_le_bytes());
            b[72..80].copy_from_slice(&c.bits_len.to_le_bytes());
        }
        for (at, v) in [
            (16, s.slots),
            (24, s.positions),
            (32, s.wins),
            (40, s.draws),
            (48, s.losses),
        ] {
            b[at..at + 8].copy_from_slice(&v.to_le_bytes());
        }
        b[56..60].copy_from_slice(&s.longest.to_le_bytes());
        b[60..64].copy_from_slice(&self.checksum.to_le_bytes());
        let crc = crc32fast::hash(&b[..124]);
        b[124..128].copy_from_slice(&crc.to_le_bytes());
        b
    }

    /// Parses and checks a header from the start of a file of `file_len`
    /// bytes: magic, version, header checksum, every field's range, counts,
    /// and the file length. Cheap; the payload checksum is checked
    /// separately.
    pub fn parse(bytes: &[u8], file_len: u64) -> Result<Header, FileProblem> {
        if bytes.len() < HEADER_LEN {
            if bytes.len() < 8 || bytes[..8] == MAGIC {
                return Err(FileProblem::Truncated {
                    expected: HEADER_LEN as u64,
                    found: file_len,
                });
            }
            return Err(FileProblem::Magic);
        }
        if bytes[..8] != MAGIC {
            return Err(FileProblem::Magic);
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if !(OLDEST_VERSION..=FORMAT_VERSION).contains(&version) {
            return Err(FileProblem::Version(version));
        }
        if crc32fast::hash(&bytes[..124]) != u32_at(bytes, 124) {
            return Err(FileProblem::HeaderChecksum);
        }
        let field = |field: &'static str, value: u64| Err(FileProblem::Field { field, value });
        if bytes[10] != RULES_PURE {
            return field("rule set", bytes[10].into());
        }
        let scheme = match bytes[11] {
            0 => Scheme::Plain,
            1 => Scheme::Symmetric,
            other => return field("index scheme", other.into()),
        };
        let Ok(material) = Material::new(bytes[12].into(), bytes[13].into()) else {
            return field("material", u64::from(bytes[12]) << 8 | u64::from(bytes[13]));
        };
        let encoding = if version == 1 {
            ENCODING_BYTES
        } else {
            ENCODING_COMPACT
        };
        if bytes[14] != encoding {
            return field("encoding", bytes[14].into());
        }
        let reserved: &[std::ops::Range<usize>] = if version == 1 {
            &[15..16, 64..124]
        } else {
            &[15..16, 82..124]
        };
        if let Some(at) = reserved.iter().cloned().flatten().find(|&i| bytes[i] != 0) {
            return field("reserved", at as u64);
        }
        let compact = if version == 1 {
            None
        } else {
            let Some(model) = crate::format::compact::context::ContextModel::from_code(bytes[65])
            else {
                return field("context model", bytes[65].into());
            };
            let Some(offsets) = BlockOffsets::from_code(bytes[70]) else {
                return field("offset width", bytes[70].into());
            };
            let packed_dictionary = match bytes[80] {
                0 => false,
                1 => true,
                other => return field("dictionary packing", other.into()),
            };
            let (capture_draws, draw_map_bits) = match (bytes[71], bytes[81]) {
                (0, 0) => (false, None),
                (1, 0) => (true, None),
                (2, u) if DRAW_MAP_BITS.contains(&u.into()) => (true, Some(u.into())),
                (0..=1, _) => return field("reserved", 81),
                (2, u) => return field("draw map bits", u.into()),
                (other, _) => return field("capture draws", other.into()),
            };
            let shape = CompactShape {
                block_bits: bytes[64].into(),
                model,
                offsets,
                packed_dictionary,
                capture_draws,
                draw_map_bits,
                terminals: u16::from_le_bytes([bytes[66], bytes[67]]).into(),
                rules: u16::from_le_bytes([bytes[68], bytes[69]]).into(),
                bits_len: u64_at(bytes, 72),
            };
            if !BLOCK_BITS.contains(&shape.block_bits) {
                return field("block bits", shape.block_bits.into());
            }
            let symbols = shape.terminals + shape.rules;
            if shape.terminals == 0 || shape.terminals > 256 || symbols > u16::MAX.into() {
                return field("symbols", symbols.into());
            }
            Some(shape)
        };
        let stats = ClassStats {
            material,
            slots: u64_at(bytes, 16),
            positions: u64_at(bytes, 24),
            wins: u64_at(bytes, 32),
            draws: u64_at(bytes, 40),
            losses: u64_at(bytes, 48),
            longest: u32_at(bytes, 56),
        };
        let sum = [stats.wins, stats.draws, stats.losses]
            .iter()
            .try_fold(0u64, |a, &b| a.checked_add(b));
        if sum != Some(stats.positions) || stats.positions > stats.slots {
            return Err(FileProblem::Counts {
                positions: stats.positions,
                wins: stats.wins,
                draws: stats.draws,
                losses: stats.losses,
            });
        }
        if stats.longest > crate::value::MAX_DTC {
            return field("longest", stats.longest.into());
        }
        // The plain index bounds every scheme's size (the symmetric one
        // stores at least one slot per orbit of at most 8 positions), so a
        // hostile slot count is rejected before any index is built.
        let plain = PlainIndexer::new(material).size();
        let fits = match scheme {
            Scheme::Plain => stats.slots == plain,
            Scheme::Symmetric => stats.slots <= plain && stats.slots >= plain / 8,
        };
        if !fits {
            return field("slots", stats.slots);
        }
        let header = Header {
            scheme,
            compact,
            stats,
            checksum: u32_at(bytes, 60),
        };
        let Some(expected) = header.file_len() else {
            return field("bit stream bytes", compact.map_or(0, |c| c.bits_len));
        };
        if file_len < expected {
            return Err(FileProblem::Truncated {
                expected,
                found: file_len,
            });
        }
        if file_len > expected {
            return Err(FileProblem::TooLong {
                expected,
                found: file_len,
            });
        }
        Ok(header)
    }
}

/// The CRC-32 (IEEE) of a payload, computed on all cores for big ones.
#[must_use]
pub fn checksum(payload: &[u8]) -> u32 {
    use rayon::prelude::*;
    const PART: usize = 1 << 24;
    if payload.len() <= PART {
        return crc32fast::hash(payload);
    }
    payload
        .par_chunks(PART)
        .map(|part| {
            let mut h = crc32fast::Hasher::new();
            h.update(part);
            (h, part.len() as u64)
        })
        .collect::<Vec<_>>()
        .into_iter()
        .fold(crc32fast::Hasher::new(), |mut all, (h, _)| {
            all.combine(&h);
            all
        })
        .finalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        let material = Material::new(2, 1).unwrap();
        Header {
            scheme: Scheme::Plain,
            compact: None,
            stats: ClassStats {
                material,
                slots: PlainIndexer::new(material).size(),
                positions: 10,
                wins: 5,
                draws: 3,
                losses: 2,
                longest: 7,
            },
            checksum: 0xdead_beef,
        }
    }

    #[test]
    fn header_round_trips() {
        let h = header();
        let file_len = HEADER_LEN as u64 + h.stats.slots;
        assert_eq!(Header::parse(&h.to_bytes(), file_len).unwrap(), h);
    }

    #[test]
    fn compact_headers_round_trip_and_flags_are_checked() {
        for (capture_draws, draw_map_bits, byte71) in [
            (false, None, 0u8),
            (true, None, 1),
            (true, Some(10), 2),
            (true, Some(24), 2),
        ] {
            let shape = CompactShape {
                block_bits: 12,
                terminals: 5,
                model: crate::format::compact::context::ContextModel::SafeSteps,
                offsets: BlockOffsets::Grouped,
                packed_dictionary: true,
                capture_draws,
                draw_map_bits,
                rules: 100,
                bits_len: 1000,
            };
            let h = Header {
                compact: Some(shape),
                ..header()
            };
            let body = shape.body_len(h.stats.slots).unwrap();
            let file_len = HEADER_LEN as u64 + body;
            let bytes = h.to_bytes();
            assert_eq!(bytes[71], byte71);
            assert_eq!(u32::from(bytes[81]), draw_map_bits.unwrap_or(0));
            assert_eq!(Header::parse(&bytes, file_len).unwrap(), h);
            assert_eq!((bytes[70], bytes[80]), (2, 1));
            // The map's bytes are part of the file's length.
            let slots = h.stats.slots;
            let map = draw_map_bits.map_or(0, |u| slots.div_ceil(1 << u).div_ceil(8));
            assert_eq!(shape.draw_map_len(slots), map);
            if map > 0 {
                assert!(Header::parse(&bytes, file_len - 1).is_err());
            }
            let mut cases = vec![
                (71, 3u8, "capture draws"),
                (70, 3, "offset width"),
                (80, 2, "dictionary packing"),
            ];
            if draw_map_bits.is_some() {
                cases.extend([(81, 9, "draw map bits"), (81, 25, "draw map bits")]);
            } else {
                cases.push((81, 10, "reserved"));
            }
            for (at, value, field) in cases {
                let mut bad = bytes;
                bad[at] = value;
                let crc = crc32fast::hash(&bad[..124]);
                bad[124..128].copy_from_slice(&crc.to_le_bytes());
                let problem = Header::parse(&bad, file_len).unwrap_err();
                let expected = if field == "reserved" {
                    81
                } else {
                    u64::from(value)
                };
                assert!(
                    matches!(problem, FileProblem::Field { field: f, value: v }
                        if f == field && v == expected),
                    "{problem}"
                );
            }
        }
    }

    #[test]
    fn every_flipped_header_byte_is_an_error() {
        let h = header();
        let file_len = HEADER_LEN as u64 + h.stats.slots;
        let good = h.to_bytes();
        for i in 0..HEADER_LEN {
            for bit in 0..8 {
                let mut bad = good;
                bad[i] ^= 1 << bit;
                assert!(Header::parse(&bad, file_len).is_err(), "byte {i} bit {bit}");
            }
        }
    }

    #[test]
    fn short_and_long_files_are_errors() {
        let h = header();
        let len = HEADER_LEN as u64 + h.stats.slots;
        let bytes = h.to_bytes();
        assert!(matches!(
            Header::parse(&bytes, len - 1),
            Err(FileProblem::Truncated { .. })
        ));
        assert!(matches!(
            Header::parse(&bytes, len + 1),
            Err(FileProblem::TooLong { .. })
        ));
        assert!(matches!(
            Header::parse(&bytes[..50], 50),
            Err(FileProblem::Truncated { .. })
        ));
        assert!(matches!(
            Header::parse(b"hello", 5),
            Err(FileProblem::Truncated {
                expected: 128,
                found: 5
            })
        ));
        assert!(matches!(
            Header::parse(&[7u8; 200], 200),
            Err(FileProblem::Magic)
        ));
    }

    #[test]
    fn parallel_checksum_is_the_crc() {
        let data: Vec<u8> = (0..(1u32 << 25) + 12345)
            .map(|i| (i * 7 + i / 256) as u8)
            .collect();
        assert_eq!(checksum(&data), crc32fast::hash(&data));
    }
}
