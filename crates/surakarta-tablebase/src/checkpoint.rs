//! Checkpoints of a pair being generated: its values at a level boundary,
//! so that a killed run continues where it stopped instead of solving the
//! pair again.
//!
//! A checkpoint is written between two levels, when the candidate bitmaps
//! are empty: the values of both classes, the next level and the deepest
//! distance set so far are the whole state. It goes to a temporary file,
//! is synced, renamed into place and the directory synced, so a checkpoint
//! file is always complete or absent. Reading checks everything (magic,
//! classes, index scheme, sizes, length, CRC-32 over every byte); a
//! checkpoint that fails any check is reported and ignored, never trusted.
//!
//! Layout (little-endian), specified in `docs/tablebase-format.md`:
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `SKCKPT\0\x01` |
//! | 8 | 4 | classes `n` (1 or 2) |
//! | 12 | 4 | next level |
//! | 16 | 4 | deepest distance set |
//! | 20 | 4 | zero |
//! | 24 + 16·i | 16 | class `i`: us, them, scheme (0 plain, 1 symmetric), five zero bytes, slots (u64) |
//! | 24 + 16·n | Σ slots | the values, class by class, one byte per slot (as in format 1) |
//! | end − 4 | 4 | CRC-32 of every byte before it |

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};

use surakarta_index::{Indexer, Scheme};

use crate::open::open_table_file;
use crate::table::TableIndexer;

/// The file name extension of checkpoints.
pub(crate) const EXTENSION: &str = "ckpt";

const MAGIC: &[u8; 8] = b"SKCKPT\0\x01";
/// Bytes copied per write or read.
const BUFFER: usize = 1 << 20;

/// The checkpoint file of a pair: named after its first class, `4v3.ckpt`.
pub(crate) fn path(dir: &Path, first: &TableIndexer) -> PathBuf {
    dir.join(format!("{}.{EXTENSION}", first.material()))
}

/// Where a resumed pair continues.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Resume {
    /// The level to run next.
    pub(crate) next_level: u32,
    /// The deepest distance set before it.
    pub(crate) deepest: u32,
}

/// One class of a pair: its indexer and its values.
pub(crate) type ClassValues<'a> = (&'a TableIndexer, &'a [AtomicU8]);

fn header(classes: &[ClassValues<'_>], resume: Resume) -> Vec<u8> {
    let mut h = Vec::with_capacity(24 + 16 * classes.len());
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&(classes.len() as u32).to_le_bytes());
    h.extend_from_slice(&resume.next_level.to_le_bytes());
    h.extend_from_slice(&resume.deepest.to_le_bytes());
    h.extend_from_slice(&0u32.to_le_bytes());
    for (indexer, _) in classes {
        let m = indexer.material();
        h.push(m.us() as u8);
        h.push(m.them() as u8);
        h.push(match indexer.scheme() {
            Scheme::Plain => 0,
            Scheme::Symmetric => 1,
        });
        h.extend_from_slice(&[0; 5]);
        h.extend_from_slice(&indexer.size().to_le_bytes());
    }
    h
}

/// Writes the checkpoint of a pair at a level boundary (see the module
/// documentation) and returns its size in bytes.
pub(crate) fn write(
    path: &Path,
    classes: &[ClassValues<'_>],
    resume: Resume,
) -> std::io::Result<u64> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let result = (|| {
        let mut out = BufWriter::with_capacity(BUFFER, File::create(&tmp)?);
        let mut crc = crc32fast::Hasher::new();
        let h = header(classes, resume);
        crc.update(&h);
        out.write_all(&h)?;
        let mut buffer = vec![0u8; BUFFER];
        let mut bytes = h.len() as u64 + 4;
        for (_, values) in classes {
            for part in values.chunks(BUFFER) {
                let buffer = &mut buffer[..part.len()];
                for (b, v) in buffer.iter_mut().zip(part) {
                    *b = v.load(Ordering::Relaxed);
                }
                crc.update(buffer);
                out.write_all(buffer)?;
            }
            bytes += values.len() as u64;
        }
        out.write_all(&crc.finalize().to_le_bytes())?;
        out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, path)?;
        sync_dir(path);
        Ok(bytes)
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

/// Reads the checkpoint at `path` into the classes' values (which must be
/// all zero). `Ok(None)`: there is none. On `Err` the values may hold part
/// of the checkpoint: the caller starts the pair over with fresh values.
pub(crate) fn read(path: &Path, classes: &[ClassValues<'_>]) -> Result<Option<Resume>, Rejected> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(None);
    }
    let file = open_table_file(path)?;
    let slots: u64 = classes.iter().map(|(i, _)| i.size()).sum();
    let header_len = 24 + 16 * classes.len() as u64;
    if file.metadata()?.len() != header_len + slots + 4 {
        return Err(Rejected::Mismatch(
            "its length is not that of this pair's state",
        ));
    }
    let mut input = std::io::BufReader::with_capacity(BUFFER, file);
    let mut h = vec![0u8; header_len as usize];
    input.read_exact(&mut h)?;
    if &h[..8] != MAGIC {
        return Err(Rejected::Mismatch("not a checkpoint (bad magic)"));
    }
    let u32_at = |at: usize| u32::from_le_bytes([h[at], h[at + 1], h[at + 2], h[at + 3]]);
    let resume = Resume {
        next_level: u32_at(12),
        deepest: u32_at(16),
    };
    if h != header(classes, resume) {
        return Err(Rejected::Mismatch(
            "of other classes, index scheme or sizes",
        ));
    }
    if resume.next_level > resume.deepest.saturating_add(1) {
        return Err(Rejected::Mismatch(
            "its next level is past its deepest value",
        ));
    }
    let mut crc = crc32fast::Hasher::new();
    crc.update(&h);
    let mut buffer = vec![0u8; BUFFER];
    for (_, values) in classes {
        for part in values.chunks(BUFFER) {
            let buffer = &mut buffer[..part.len()];
            input.read_exact(buffer)?;
            crc.update(buffer);
            for (v, &b) in part.iter().zip(buffer.iter()) {
                v.store(b, Ordering::Relaxed);
            }
        }
    }
    let mut stored = [0u8; 4];
    input.read_exact(&mut stored)?;
    if u32::from_le_bytes(stored) != crc.finalize() {
        return Err(Rejected::Checksum);
    }
    Ok(Some(resume))
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

    fn values(indexer: &TableIndexer, seed: u8) -> Vec<AtomicU8> {
        (0..indexer.size())
            .map(|i| AtomicU8::new((i as u8).wrapping_mul(31).wrapping_add(seed)))
            .collect()
    }

    fn zeros(indexer: &TableIndexer) -> Vec<AtomicU8> {
        (0..indexer.size()).map(|_| AtomicU8::new(0)).collect()
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
        let (a, b) = (values(&ix[0], 1), values(&ix[1], 7));
        let path = path(&d, &ix[0]);
        assert!(path.ends_with("2v1.ckpt"));
        let resume = Resume {
            next_level: 3,
            deepest: 5,
        };
        let bytes = write(&path, &[(&ix[0], &a), (&ix[1], &b)], resume).unwrap();
        assert_eq!(bytes, std::fs::metadata(&path).unwrap().len());
        assert!(!d.join("2v1.ckpt.tmp").exists());
        let (ra, rb) = (zeros(&ix[0]), zeros(&ix[1]));
        let got = read(&path, &[(&ix[0], &ra), (&ix[1], &rb)]).unwrap();
        assert_eq!(got, Some(resume));
        let load =
            |v: &[AtomicU8]| -> Vec<u8> { v.iter().map(|x| x.load(Ordering::Relaxed)).collect() };
        assert_eq!(load(&ra), load(&a));
        assert_eq!(load(&rb), load(&b));

        // Every byte flipped (header, values, checksum) is rejected.
        let good = std::fs::read(&path).unwrap();
        for at in (0..good.len()).step_by(3) {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            std::fs::write(&path, &bad).unwrap();
            let (ra, rb) = (zeros(&ix[0]), zeros(&ix[1]));
            assert!(
                read(&path, &[(&ix[0], &ra), (&ix[1], &rb)]).is_err(),
                "flip at {at} accepted"
            );
        }
        // Truncated or extended.
        for len in [0, 7, 24, good.len() - 1, good.len() + 1] {
            let mut bad = good.clone();
            bad.resize(len, 0);
            std::fs::write(&path, &bad).unwrap();
            let (ra, rb) = (zeros(&ix[0]), zeros(&ix[1]));
            assert!(
                read(&path, &[(&ix[0], &ra), (&ix[1], &rb)]).is_err(),
                "{len}"
            );
        }
        // Another pair's state, or another scheme, is not this pair's.
        std::fs::write(&path, &good).unwrap();
        let (rb, ra) = (zeros(&ix[1]), zeros(&ix[0]));
        assert!(read(&path, &[(&ix[1], &rb), (&ix[0], &ra)]).is_err());
        let plain = indexers(2, 1, Scheme::Plain);
        let (pa, pb) = (zeros(&plain[0]), zeros(&plain[1]));
        assert!(read(&path, &[(&plain[0], &pa), (&plain[1], &pb)]).is_err());
        // A directory in its place is rejected, not a hang or a panic.
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        assert!(read(&path, &[(&ix[0], &ra), (&ix[1], &rb)]).is_err());
        std::fs::remove_dir(&path).unwrap();
        // None at all: nothing to resume.
        assert_eq!(read(&path, &[(&ix[0], &ra), (&ix[1], &rb)]).unwrap(), None);
        remove(&path).unwrap();
        std::fs::remove_dir_all(&d).ok();
    }
}
