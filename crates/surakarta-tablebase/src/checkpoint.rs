//! Checkpoints of a pair being generated, so that a killed run continues
//! where it stopped instead of solving the pair again.
//!
//! A checkpoint is written at a boundary where the values and the
//! capture-draw bitmaps are the whole state: between two segments of the
//! initial pass (which visits the pair's slots in order, class 0 first), or
//! between two levels (when the candidate bitmaps are empty). It goes to a
//! temporary file, is synced, renamed into place and the directory synced,
//! so a checkpoint file is always complete or absent. Reading checks
//! everything (magic, classes, index scheme, sizes, stage, length, CRC-32
//! over every byte); a checkpoint that fails any check is reported and
//! ignored, never trusted.
//!
//! Layout of version 2 (little-endian), specified in
//! `docs/tablebase-format.md`:
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `SKCKPT\0\x02` |
//! | 8 | 4 | classes `n` (1 or 2) |
//! | 12 | 4 | next level |
//! | 16 | 4 | deepest distance set |
//! | 20 | 4 | zero |
//! | 24 | 8 | slots of the pair the initial pass has done (all: it is over) |
//! | 32 + 16·i | 16 | class `i`: us, them, scheme (0 plain, 1 symmetric), five zero bytes, slots (u64) |
//! | 32 + 16·n | Σ slots | the values, class by class, one byte per slot (as in format 1) |
//! | … | Σ 8·⌈slots / 64⌉ | the capture-draw bitmaps, class by class, as u64 words |
//! | end − 4 | 4 | CRC-32 of every byte before it |
//!
//! Version 1 (magic `SKCKPT\0\x01`, written before the initial pass could
//! be checkpointed) has no field at 24 and no bitmaps; it is still read
//! (a level boundary; the bitmaps are rebuilt by the caller).

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use surakarta_index::{Indexer, Scheme};

use crate::open::open_table_file;
use crate::table::TableIndexer;

/// The file name extension of checkpoints.
pub(crate) const EXTENSION: &str = "ckpt";

const MAGIC_V1: &[u8; 8] = b"SKCKPT\0\x01";
const MAGIC: &[u8; 8] = b"SKCKPT\0\x02";
/// Bytes copied per write or read.
const BUFFER: usize = 1 << 20;

/// The checkpoint file of a pair: named after its first class, `4v3.ckpt`.
pub(crate) fn path(dir: &Path, first: &TableIndexer) -> PathBuf {
    dir.join(format!("{}.{EXTENSION}", first.material()))
}

/// Where a resumed pair continues.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Resume {
    /// Slots of the pair (class 0's first) the initial pass has done: all
    /// of them once it is over.
    pub(crate) initial_done: u64,
    /// The level to run next (0 while the initial pass is not over).
    pub(crate) next_level: u32,
    /// The deepest distance set before it.
    pub(crate) deepest: u32,
}

/// One class of a pair: its indexer, its values and its capture-draw
/// bitmap (a bit per slot).
pub(crate) struct ClassState<'a> {
    pub(crate) indexer: &'a TableIndexer,
    pub(crate) values: &'a [AtomicU8],
    pub(crate) capture_draws: &'a [AtomicU64],
}

/// What [`read`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    /// Where to continue.
    pub(crate) resume: Resume,
    /// Whether the capture-draw bitmaps were restored (version 1 has none).
    pub(crate) capture_draws: bool,
}

fn class_lines(h: &mut Vec<u8>, classes: &[ClassState<'_>]) {
    for class in classes {
        let m = class.indexer.material();
        h.push(m.us() as u8);
        h.push(m.them() as u8);
        h.push(match class.indexer.scheme() {
            Scheme::Plain => 0,
            Scheme::Symmetric => 1,
        });
        h.extend_from_slice(&[0; 5]);
        h.extend_from_slice(&class.indexer.size().to_le_bytes());
    }
}

/// The header of a checkpoint of `version` (1 or 2).
fn header(classes: &[ClassState<'_>], resume: Resume, version: u8) -> Vec<u8> {
    let mut h = Vec::with_capacity(32 + 16 * classes.len());
    h.extend_from_slice(if version == 1 { MAGIC_V1 } else { MAGIC });
    h.extend_from_slice(&(classes.len() as u32).to_le_bytes());
    h.extend_from_slice(&resume.next_level.to_le_bytes());
    h.extend_from_slice(&resume.deepest.to_le_bytes());
    h.extend_from_slice(&0u32.to_le_bytes());
    if version != 1 {
        h.extend_from_slice(&resume.initial_done.to_le_bytes());
    }
    class_lines(&mut h, classes);
    h
}

/// The pair's slots.
fn slots(classes: &[ClassState<'_>]) -> u64 {
    classes.iter().map(|c| c.indexer.size()).sum()
}

/// The bytes of the bitmaps of a version 2 checkpoint.
fn bitmap_bytes(classes: &[ClassState<'_>]) -> u64 {
    classes
        .iter()
        .map(|c| 8 * c.indexer.size().div_ceil(64))
        .sum()
}

/// Writes the checkpoint of a pair (see the module documentation) and
/// returns its size in bytes.
pub(crate) fn write(
    path: &Path,
    classes: &[ClassState<'_>],
    resume: Resume,
) -> std::io::Result<u64> {
    debug_assert!(classes
        .iter()
        .all(|c| c.capture_draws.len() as u64 == c.indexer.size().div_ceil(64)));
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let result = (|| {
        let mut out = BufWriter::with_capacity(BUFFER, File::create(&tmp)?);
        let mut crc = crc32fast::Hasher::new();
        let h = header(classes, resume, 2);
        crc.update(&h);
        out.write_all(&h)?;
        let mut buffer = vec![0u8; BUFFER];
        for class in classes {
            for part in class.values.chunks(BUFFER) {
                let buffer = &mut buffer[..part.len()];
                for (b, v) in buffer.iter_mut().zip(part) {
                    *b = v.load(Ordering::Relaxed);
                }
                crc.update(buffer);
                out.write_all(buffer)?;
            }
        }
        for class in classes {
            for part in class.capture_draws.chunks(BUFFER / 8) {
                let buffer = &mut buffer[..8 * part.len()];
                for (b, w) in buffer.chunks_exact_mut(8).zip(part) {
                    b.copy_from_slice(&w.load(Ordering::Relaxed).to_le_bytes());
                }
                crc.update(buffer);
                out.write_all(buffer)?;
            }
        }
        out.write_all(&crc.finalize().to_le_bytes())?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, path)?;
        sync_dir(path);
        Ok(h.len() as u64 + slots(classes) + bitmap_bytes(classes) + 4)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Syncs the directory holding `path`, so a rename in it is durable (best
/// effort: not every platform can open a directory).
fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent() {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
}

/// Why a checkpoint was not used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Rejected {
    /// It could not be read.
    #[error("unreadable: {0}")]
    Io(#[from] std::io::Error),
    /// Not a regular file, or not openable as one.
    #[error("{0}")]
    File(#[from] crate::file::FileProblem),
    /// Its header is not a checkpoint's, or of other classes or sizes.
    #[error("{0}")]
    Mismatch(&'static str),
    /// Its bytes do not match their checksum.
    #[error("checksum mismatch (damaged or incomplete)")]
    Checksum,
}

/// Reads the checkpoint at `path` into the classes' values and bitmaps
/// (which must be all zero). `Ok(None)`: there is none. On `Err` they may
/// hold part of the checkpoint: the caller starts the pair over with fresh
/// ones.
pub(crate) fn read(path: &Path, classes: &[ClassState<'_>]) -> Result<Option<Found>, Rejected> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(None);
    }
    let file = open_table_file(path)?;
    let length = file.metadata()?.len();
    let mut input = std::io::BufReader::with_capacity(BUFFER, file);
    let mut magic = [0u8; 8];
    if length < 8 {
        return Err(Rejected::Mismatch("not a checkpoint (too short)"));
    }
    input.read_exact(&mut magic)?;
    let version = match &magic {
        MAGIC => 2,
        MAGIC_V1 => 1,
        _ => return Err(Rejected::Mismatch("not a checkpoint (bad magic)")),
    };
    let slots = slots(classes);
    let bitmaps = if version == 1 {
        0
    } else {
        bitmap_bytes(classes)
    };
    let header_len = header(classes, Resume::default_for(slots), version).len() as u64;
    if length != header_len + slots + bitmaps + 4 {
        return Err(Rejected::Mismatch(
            "its length is not that of this pair's state",
        ));
    }
    let mut h = vec![0u8; header_len as usize];
    h[..8].copy_from_slice(&magic);
    input.read_exact(&mut h[8..])?;
    let u32_at = |at: usize| u32::from_le_bytes(h[at..at + 4].try_into().expect("4 bytes"));
    let resume = Resume {
        initial_done: if version == 1 {
            slots
        } else {
            u64::from_le_bytes(h[24..32].try_into().expect("8 bytes"))
        },
        next_level: u32_at(12),
        deepest: u32_at(16),
    };
    if h != header(classes, resume, version) {
        return Err(Rejected::Mismatch(
            "of other classes, index scheme or sizes",
        ));
    }
    if resume.next_level > resume.deepest.saturating_add(1) {
        return Err(Rejected::Mismatch(
            "its next level is past its deepest value",
        ));
    }
    if resume.initial_done > slots
        || resume.initial_done < slots && (resume.next_level != 0 || resume.deepest > 1)
    {
        return Err(Rejected::Mismatch(
            "its initial pass's progress does not fit its level",
        ));
    }
    let mut crc = crc32fast::Hasher::new();
    crc.update(&h);
    let mut buffer = vec![0u8; BUFFER];
    for class in classes {
        for part in class.values.chunks(BUFFER) {
            let buffer = &mut buffer[..part.len()];
            input.read_exact(buffer)?;
            crc.update(buffer);
            for (v, &b) in part.iter().zip(buffer.iter()) {
                v.store(b, Ordering::Relaxed);
            }
        }
    }
    if version != 1 {
        for class in classes {
            for part in class.capture_draws.chunks(BUFFER / 8) {
                let buffer = &mut buffer[..8 * part.len()];
                input.read_exact(buffer)?;
                crc.update(buffer);
                for (w, b) in part.iter().zip(buffer.chunks_exact(8)) {
                    w.store(
                        u64::from_le_bytes(b.try_into().expect("8 bytes")),
                        Ordering::Relaxed,
                    );
                }
            }
        }
    }
    let mut stored = [0u8; 4];
    input.read_exact(&mut stored)?;
    if u32::from_le_bytes(stored) != crc.finalize() {
        return Err(Rejected::Checksum);
    }
    Ok(Some(Found {
        resume,
        capture_draws: version != 1,
    }))
}

impl Resume {
    /// A placeholder of the header's shape (its fields are read after).
    fn default_for(slots: u64) -> Resume {
        Resume {
            initial_done: slots,
            next_level: 0,
            deepest: 0,
        }
    }
}

/// Removes a pair's checkpoint once its tables are written (a missing one
/// is fine).
pub(crate) fn remove(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => {
            sync_dir(path);
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Directories;
    use surakarta_index::Material;

    fn indexers(us: u32, them: u32, scheme: Scheme) -> Vec<TableIndexer> {
        let mut directories = Directories::default();
        let a = Material::new(us, them).unwrap();
        let mut out = vec![TableIndexer::new(a, scheme, &mut directories)];
        if a.swapped() != a {
            out.push(TableIndexer::new(a.swapped(), scheme, &mut directories));
        }
        out
    }

    /// Values and bitmaps of a class, patterned by `seed` (0: all zero).
    struct Owned {
        values: Vec<AtomicU8>,
        bits: Vec<AtomicU64>,
    }

    impl Owned {
        fn new(indexer: &TableIndexer, seed: u8) -> Owned {
            let size = indexer.size();
            let pattern = |i: u64| {
                if seed == 0 {
                    0
                } else {
                    i.wrapping_mul(31) + u64::from(seed)
                }
            };
            Owned {
                values: (0..size).map(|i| AtomicU8::new(pattern(i) as u8)).collect(),
                bits: (0..size.div_ceil(64))
                    .map(|w| AtomicU64::new(pattern(w).wrapping_mul(0x9e37_79b9_7f4a_7c15)))
                    .collect(),
            }
        }

        fn load(&self) -> (Vec<u8>, Vec<u64>) {
            (
                self.values
                    .iter()
                    .map(|v| v.load(Ordering::Relaxed))
                    .collect(),
                self.bits
                    .iter()
                    .map(|v| v.load(Ordering::Relaxed))
                    .collect(),
            )
        }
    }

    fn states<'a>(ix: &'a [TableIndexer], owned: &'a [Owned]) -> Vec<ClassState<'a>> {
        ix.iter()
            .zip(owned)
            .map(|(indexer, o)| ClassState {
                indexer,
                values: &o.values,
                capture_draws: &o.bits,
            })
            .collect()
    }

    fn fresh(ix: &[TableIndexer]) -> Vec<Owned> {
        ix.iter().map(|i| Owned::new(i, 0)).collect()
    }

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("sk-ckpt-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn round_trip_and_every_damage_is_rejected() {
        let d = dir("round");
        let ix = indexers(2, 1, Scheme::Symmetric);
        let owned = [Owned::new(&ix[0], 1), Owned::new(&ix[1], 7)];
        let path = path(&d, &ix[0]);
        assert!(path.ends_with("2v1.ckpt"));
        let slots = ix[0].size() + ix[1].size();
        for resume in [
            Resume {
                initial_done: slots,
                next_level: 3,
                deepest: 5,
            },
            Resume {
                initial_done: slots / 3,
                next_level: 0,
                deepest: 1,
            },
        ] {
            let bytes = write(&path, &states(&ix, &owned), resume).unwrap();
            assert_eq!(bytes, std::fs::metadata(&path).unwrap().len());
            assert!(!d.join("2v1.ckpt.tmp").exists());
            let got = fresh(&ix);
            let found = read(&path, &states(&ix, &got)).unwrap();
            assert_eq!(
                found,
                Some(Found {
                    resume,
                    capture_draws: true
                })
            );
            assert_eq!(got[0].load(), owned[0].load());
            assert_eq!(got[1].load(), owned[1].load());
        }

        // Every byte flipped (header, values, bitmaps, checksum) is rejected.
        let good = std::fs::read(&path).unwrap();
        let values_end = 32 + 32 + slots as usize;
        let mut at = 0;
        while at < good.len() {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            std::fs::write(&path, &bad).unwrap();
            assert!(
                read(&path, &states(&ix, &fresh(&ix))).is_err(),
                "flip at {at} accepted"
            );
            // Every byte of the header and the bitmaps, every third value.
            at += if (64..values_end).contains(&at) { 3 } else { 1 };
        }
        // Truncated or extended.
        for len in [0, 7, 8, 24, 40, good.len() - 1, good.len() + 1] {
            let mut bad = good.clone();
            bad.resize(len, 0);
            std::fs::write(&path, &bad).unwrap();
            assert!(read(&path, &states(&ix, &fresh(&ix))).is_err(), "{len}");
        }
        // A stage that cannot be: the initial pass unfinished past level 0,
        // or done past the pair's slots (with a matching checksum).
        for (done, level) in [(slots / 2, 1), (slots + 1, 0)] {
            let mut bad = good.clone();
            bad[12..16].copy_from_slice(&(level as u32).to_le_bytes());
            bad[24..32].copy_from_slice(&done.to_le_bytes());
            let n = bad.len() - 4;
            let crc = crc32fast::hash(&bad[..n]);
            bad[n..].copy_from_slice(&crc.to_le_bytes());
            std::fs::write(&path, &bad).unwrap();
            let why = read(&path, &states(&ix, &fresh(&ix))).unwrap_err();
            assert!(why.to_string().contains("initial pass"), "{why}");
        }
        // Another pair's state, or another scheme, is not this pair's.
        std::fs::write(&path, &good).unwrap();
        let swapped = [ix[1].clone(), ix[0].clone()];
        assert!(read(&path, &states(&swapped, &fresh(&swapped))).is_err());
        let plain = indexers(2, 1, Scheme::Plain);
        assert!(read(&path, &states(&plain, &fresh(&plain))).is_err());
        // A directory in its place is rejected, not a hang or a panic.
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        assert!(read(&path, &states(&ix, &fresh(&ix))).is_err());
        std::fs::remove_dir(&path).unwrap();
        // None at all: nothing to resume.
        assert_eq!(read(&path, &states(&ix, &fresh(&ix))).unwrap(), None);
        remove(&path).unwrap();
        std::fs::remove_dir_all(&d).ok();
    }

    /// A version 1 checkpoint (values only, at a level boundary), as the
    /// builds before version 2 wrote it, is still read.
    #[test]
    fn version_1_is_read_without_bitmaps() {
        let d = dir("v1");
        let ix = indexers(3, 1, Scheme::Symmetric);
        let owned = [Owned::new(&ix[0], 3), Owned::new(&ix[1], 9)];
        let resume = Resume {
            initial_done: ix[0].size() + ix[1].size(),
            next_level: 2,
            deepest: 4,
        };
        let mut bytes = header(&states(&ix, &owned), resume, 1);
        assert_eq!(bytes.len(), 24 + 32);
        for o in &owned {
            bytes.extend(o.load().0);
        }
        bytes.extend(crc32fast::hash(&bytes).to_le_bytes());
        let path = path(&d, &ix[0]);
        std::fs::write(&path, &bytes).unwrap();
        let got = fresh(&ix);
        let found = read(&path, &states(&ix, &got)).unwrap().unwrap();
        assert_eq!(found.resume, resume);
        assert!(!found.capture_draws);
        assert_eq!(got[0].load().0, owned[0].load().0);
        assert_eq!(got[1].load().0, owned[1].load().0);
        assert!(got[0].load().1.iter().all(|&w| w == 0));
        std::fs::remove_dir_all(&d).ok();
    }
}
