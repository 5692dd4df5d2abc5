//! Checkpoints of a table being verified, so that a killed verification
//! continues where it stopped instead of re-deriving the whole table (a
//! 10-piece pair takes hours).
//!
//! A table is verified segment by segment ([`SEGMENT_SLOTS`] slots each,
//! in order); between two segments, at most every
//! [`VerifyCheckpoints::every`], the counts so far are saved to
//! `DIR/CLASS-verify.ckpt`, and once more when the table is finished, so a
//! rerun reports a finished table without re-deriving it (and without
//! expanding its pair). The caller removes the checkpoints when its whole
//! run is over ([`VerifyCheckpoints::remove`]).
//!
//! A checkpoint belongs to the files it was computed from: it holds a
//! CRC-32 of the headers (which hold the payload checksums) of the pair's
//! two table files and of the tables its captures reach. A checkpoint
//! whose digest, class, segment size or own checksum does not match is
//! reported and ignored, never trusted. Written to a temporary file,
//! synced, renamed into place and the directory synced.
//!
//! Layout (little-endian, 64 bytes, then the examples, then a CRC-32):
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `SKVRFY\0\x01` |
//! | 8 | 1, 1 | the class: pieces of the side to move, of the other |
//! | 10 | 1 | 1 when the table is finished, else 0 |
//! | 11 | 1 | zero |
//! | 12 | 4 | digest of the input files' headers |
//! | 16 | 8 | slots per segment |
//! | 24 | 8 | segments done |
//! | 32 | 8 | positions re-derived |
//! | 40 | 8 | mismatches |
//! | 48 | 1, 1 | checksum ok, header counts ok (0 or 1) |
//! | 50 | 2 | examples `e` (at most 10) |
//! | 52 | 12 | zero |
//! | 64 | 16·e | each example: slot (u64), stored byte, derived byte (table bytes, as in format 1), six zero bytes |
//! | 64 + 16·e | 4 | CRC-32 of every byte before it |

use crate::error::TablebaseError;
use crate::files::atomic::write_atomically;
use crate::files::lock::DirLock;
use crate::files::open::open_table_file;
use crate::format::HEADER_LEN;
use crate::generate::checkpoint::{remove, Rejected};
use crate::pair::Pair;
use crate::probe::table::TableIndexer;
use crate::value::Value;
use crate::verify::report::{Mismatch, VerifyReport, EXAMPLES};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use surakarta_index::{Indexer, Material};

/// Slots verified between two chances to checkpoint.
pub(crate) const SEGMENT_SLOTS: u64 = 1 << 26;

const MAGIC: &[u8; 8] = b"SKVRFY\0\x01";
const FIXED: usize = 64;
const EXAMPLE_BYTES: usize = 16;

/// Where a verification saves its progress ([`crate::probe::tablebase::Tablebase::verify_with`]),
/// and how often; holds the directory's lock, shared ([`DirLock`]), while
/// it (or a clone of it) lives, and `verify_with` the lock of the pair it
/// verifies.
#[derive(Clone, Debug)]
pub struct VerifyCheckpoints {
    dir: PathBuf,
    every: Duration,
    /// The directory's lock.
    _lock: Arc<DirLock>,
    /// Slots per segment ([`SEGMENT_SLOTS`]; smaller in tests).
    pub(crate) segment: u64,
}

/// A verification's saved state: how far it got and what it found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Saved {
    /// Segments done.
    pub segments: u64,
    /// Whether the table is finished (`report` is its final report).
    pub finished: bool,
    /// The counts so far.
    pub report: VerifyReport,
}

impl VerifyCheckpoints {
    /// Checkpoints in the tables' directory `dir` (named `6v4-verify.ckpt`;
    /// they identify the table files they were computed from by those
    /// files' headers there), at most every `every` within a table (a
    /// finished table is always saved). Shares the lock of `dir` with other
    /// runs of single pairs: a run holding the whole directory is
    /// [`TablebaseError::DirectoryInUse`].
    pub fn new(
        dir: impl Into<PathBuf>,
        every: Duration,
    ) -> Result<VerifyCheckpoints, TablebaseError> {
        let dir = dir.into();
        let lock = DirLock::acquire_shared(&dir)?;
        Ok(VerifyCheckpoints {
            dir,
            every,
            _lock: Arc::new(lock),
            segment: SEGMENT_SLOTS,
        })
    }

    /// The lock of `pair`'s files, held while one of its classes is
    /// verified.
    pub(crate) fn lock_pair(&self, pair: Pair) -> Result<DirLock, TablebaseError> {
        DirLock::acquire_pair(&self.dir, pair)
    }

    /// Least time between two checkpoints of a table.
    #[must_use]
    pub fn every(&self) -> Duration {
        self.every
    }

    /// The checkpoint file of a class: `DIR/6v4-verify.ckpt`.
    #[must_use]
    pub fn path(&self, material: Material) -> PathBuf {
        self.dir.join(format!(
            "{material}-verify.{}",
            crate::generate::checkpoint::EXTENSION
        ))
    }

    /// Whether `tablebase`'s table of `material` has a finished
    /// verification saved here (of the same table files): verifying it
    /// again with these checkpoints reports at once, so its pair need not
    /// be expanded.
    #[must_use]
    pub fn is_finished(
        &self,
        tablebase: &crate::probe::tablebase::Tablebase,
        material: Material,
    ) -> bool {
        tablebase.table(material).is_some_and(|table| {
            matches!(
                self.read(material, table.indexer(), self.digest(material)),
                Ok(Some(Saved { finished: true, .. }))
            )
        })
    }

    /// Removes the checkpoint of a class (a missing one is fine): when
    /// the run that verified it is over.
    pub fn remove(&self, material: Material) -> std::io::Result<()> {
        remove(&self.path(material))
    }

    /// The CRC-32 of the headers of the table files a verification of
    /// `material` reads: its pair's two classes and the tables their
    /// captures reach (an absent or unreadable file counts as absent).
    pub(crate) fn digest(&self, material: Material) -> u32 {
        let pair = Pair::of(material);
        let mut crc = crc32fast::Hasher::new();
        for m in pair.classes().into_iter().chain(pair.capture_targets()) {
            crc.update(m.to_string().as_bytes());
            let path = self.dir.join(crate::format::file_name(m));
            let mut header = [0u8; HEADER_LEN];
            let read = open_table_file(&path)
                .ok()
                .and_then(|mut f| f.read_exact(&mut header).ok());
            match read {
                // The header's own CRC (its last four bytes) apart: a CRC
                // over bytes directly followed by their CRC is the same for
                // every content.
                Some(()) => {
                    crc.update(&header[..HEADER_LEN - 4]);
                    crc.update(b"/");
                    crc.update(&header[HEADER_LEN - 4..]);
                }
                None => crc.update(b"absent"),
            }
        }
        crc.finalize()
    }

    /// Saves `saved` for `material` (computed from files with `digest`).
    pub(crate) fn write(
        &self,
        material: Material,
        digest: u32,
        saved: &Saved,
    ) -> Result<u64, TablebaseError> {
        let bytes = encode(material, digest, self.segment, saved);
        write_atomically(&self.path(material), |out| out.write_all(&bytes))?;
        Ok(bytes.len() as u64)
    }

    /// The saved state of `material`'s verification, `None` without a
    /// checkpoint; a checkpoint of other files (`digest`), another class,
    /// segment size or damaged is rejected.
    pub(crate) fn read(
        &self,
        material: Material,
        indexer: &TableIndexer,
        digest: u32,
    ) -> Result<Option<Saved>, Rejected> {
        let path = self.path(material);
        if std::fs::symlink_metadata(&path).is_err() {
            return Ok(None);
        }
        let mut bytes = Vec::new();
        open_table_file(&path)?
            .take((FIXED + EXAMPLES * EXAMPLE_BYTES + 4) as u64 + 1)
            .read_to_end(&mut bytes)?;
        decode(&bytes, material, indexer, digest, self.segment).map(Some)
    }
}

fn encode(material: Material, digest: u32, segment: u64, saved: &Saved) -> Vec<u8> {
    let r = &saved.report;
    let mut b = Vec::with_capacity(FIXED + EXAMPLE_BYTES * r.examples.len() + 4);
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&[
        material.us() as u8,
        material.them() as u8,
        u8::from(saved.finished),
        0,
    ]);
    b.extend_from_slice(&digest.to_le_bytes());
    b.extend_from_slice(&segment.to_le_bytes());
    b.extend_from_slice(&saved.segments.to_le_bytes());
    b.extend_from_slice(&r.positions.to_le_bytes());
    b.extend_from_slice(&r.mismatches.to_le_bytes());
    let examples = r.examples.len().min(EXAMPLES);
    b.extend_from_slice(&[u8::from(r.checksum_ok), u8::from(r.stats_ok)]);
    b.extend_from_slice(&(examples as u16).to_le_bytes());
    b.resize(FIXED, 0);
    for m in &r.examples[..examples] {
        b.extend_from_slice(&m.index.to_le_bytes());
        b.extend_from_slice(&[
            m.stored.to_byte().unwrap_or(0),
            m.derived.to_byte().unwrap_or(0),
            0,
            0,
            0,
            0,
            0,
            0,
        ]);
    }
    let crc = crate::format::checksum(&b);
    b.extend_from_slice(&crc.to_le_bytes());
    b
}

fn decode(
    b: &[u8],
    material: Material,
    indexer: &TableIndexer,
    digest: u32,
    segment: u64,
) -> Result<Saved, Rejected> {
    if b.len() < FIXED + 4 || &b[..8] != MAGIC {
        return Err(Rejected::Mismatch("not a verification checkpoint"));
    }
    let (body, crc) = b.split_at(b.len() - 4);
    if crate::format::checksum(body).to_le_bytes() != crc {
        return Err(Rejected::Checksum);
    }
    let u64_at = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or([0; 8]));
    if u32::from(b[8]) != material.us() || u32::from(b[9]) != material.them() {
        return Err(Rejected::Mismatch("of another class"));
    }
    if b[10] > 1 || b[48] > 1 || b[49] > 1 || b[11] != 0 || b[52..FIXED].iter().any(|&z| z != 0) {
        return Err(Rejected::Mismatch("bad field"));
    }
    if u32::from_le_bytes([b[12], b[13], b[14], b[15]]) != digest {
        return Err(Rejected::Mismatch(
            "made from other table files (their headers differ)",
        ));
    }
    if u64_at(16) != segment {
        return Err(Rejected::Mismatch("of another segment size"));
    }
    let size = indexer.size();
    let segments = u64_at(24);
    let finished = b[10] == 1;
    let all = size.div_ceil(segment);
    if segments > all || finished && segments != all {
        return Err(Rejected::Mismatch("more segments than the table has"));
    }
    let (positions, mismatches) = (u64_at(32), u64_at(40));
    let done_slots = segments.saturating_mul(segment).min(size);
    if positions > done_slots || mismatches > positions {
        return Err(Rejected::Mismatch("more positions than slots done"));
    }
    let examples = usize::from(u16::from_le_bytes([b[50], b[51]]));
    if examples > EXAMPLES
        || examples as u64 > mismatches
        || body.len() != FIXED + examples * EXAMPLE_BYTES
    {
        return Err(Rejected::Mismatch("bad length"));
    }
    let mut list = Vec::with_capacity(examples);
    for e in body[FIXED..].chunks_exact(EXAMPLE_BYTES) {
        let index = u64::from_le_bytes(e[..8].try_into().unwrap_or([0; 8]));
        if index >= done_slots || e[10..].iter().any(|&z| z != 0) {
            return Err(Rejected::Mismatch("bad example"));
        }
        let sides = indexer
            .unrank(index)
            .map_err(|_| Rejected::Mismatch("bad example"))?;
        list.push(Mismatch {
            index,
            sides,
            stored: Value::from_table_byte(e[8]),
            derived: Value::from_table_byte(e[9]),
        });
    }
    Ok(Saved {
        segments,
        finished,
        report: VerifyReport {
            material,
            positions,
            checksum_ok: b[48] == 1,
            stats_ok: b[49] == 1,
            mismatches,
            examples: list,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::runs::generate_dir;
    use crate::probe::table::Table;
    use crate::probe::tablebase::Tablebase;
    use crate::progress::NoProgress;
    use crate::progress::Progress;
    use crate::progress::Stage;
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use std::path::Path;
    use std::sync::Mutex;
    use surakarta_index::Scheme;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "surakarta-verify-ckpt-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_digest_tells_table_files_apart() {
        // Two headers that differ, each ending with its own CRC as table
        // headers do: the digests must differ.
        let digest_of = |name: &str, fill: u8| {
            let dir = scratch(name);
            let mut header = [fill; HEADER_LEN];
            let crc = crc32fast::hash(&header[..HEADER_LEN - 4]);
            header[HEADER_LEN - 4..].copy_from_slice(&crc.to_le_bytes());
            std::fs::write(dir.join("2v1.sktb"), header).unwrap();
            let material: Material = "2v1".parse().unwrap();
            let digest = VerifyCheckpoints::new(&dir, Duration::ZERO)
                .unwrap()
                .digest(material);
            std::fs::remove_dir_all(&dir).unwrap();
            digest
        };
        assert_ne!(digest_of("digest-a", 1), digest_of("digest-b", 2));
    }

    /// Records checkpoint events; panics (stopping the verification as a
    /// kill would) at the `stop_at`-th checkpoint written.
    #[derive(Default)]
    struct Recorder {
        stop_at: Option<usize>,
        written: Mutex<Vec<Stage>>,
        resumed: Mutex<Vec<Stage>>,
        rejected: Mutex<Vec<String>>,
    }

    impl Progress for Recorder {
        fn checkpoint_written(&self, stage: Stage, _bytes: u64) {
            let mut written = self.written.lock().unwrap();
            written.push(stage);
            if Some(written.len()) == self.stop_at {
                drop(written);
                panic!("stopped");
            }
        }
        fn checkpoint_resumed(&self, stage: Stage) {
            self.resumed.lock().unwrap().push(stage);
        }
        fn checkpoint_rejected(&self, _path: &Path, why: &str) {
            self.rejected.lock().unwrap().push(why.to_string());
        }
    }

    /// 5-piece tables in `dir`, 2v3 with seven of its entries made wrong
    /// (a fresh checksum, so only re-deriving finds them).
    fn tables_with_errors(dir: &Path) -> Material {
        generate_dir(dir, 5, Scheme::Symmetric, 1, &NoProgress).unwrap();
        let material: Material = "2v3".parse().unwrap();
        let tb = Tablebase::open_dir(dir).unwrap();
        let table = tb.lookup(material).unwrap();
        let mut values = table.payload().unwrap().to_vec();
        let mut spoiled = 0;
        table.indexer().for_each_in(0, u64::MAX, |index, _| {
            if spoiled < 7 && index % 997 == 5 {
                values[index as usize] ^= 2;
                spoiled += 1;
            }
        });
        let indexer = crate::probe::table::TableIndexer::new(
            material,
            Scheme::Symmetric,
            &mut Default::default(),
        );
        let spoilt = Table::with_stats(indexer, values, table.stats()).unwrap();
        drop(tb);
        spoilt
            .write(&dir.join(crate::format::file_name(material)))
            .unwrap();
        material
    }

    fn checkpoints(dir: &Path) -> VerifyCheckpoints {
        VerifyCheckpoints {
            segment: 1 << 12,
            ..VerifyCheckpoints::new(dir, Duration::ZERO).unwrap()
        }
    }

    /// A verification stopped after any checkpoint and run again reports
    /// exactly what an uninterrupted one does (mismatches and examples
    /// included); a finished one is reported from its checkpoint without
    /// re-deriving; a damaged checkpoint, or one of other table files, is
    /// rejected and the table verified from the start.
    #[test]
    fn a_stopped_verification_resumes_to_the_same_report() {
        let dir = scratch("resume");
        let material = tables_with_errors(&dir);
        let tb = Tablebase::open_dir(&dir).unwrap();
        let whole = tb.verify(material, &NoProgress).unwrap();
        assert_eq!(whole.mismatches, 7);
        assert_eq!(whole.examples.len(), 7);
        let c = checkpoints(&dir);
        let segments = tb
            .lookup(material)
            .unwrap()
            .indexer()
            .size()
            .div_ceil(c.segment);
        assert!(segments >= 4, "{segments} segments");
        for stop in [1, 2, segments as usize - 1] {
            let _ = c.remove(material);
            let stopped = Recorder {
                stop_at: Some(stop),
                ..Recorder::default()
            };
            let run = catch_unwind(AssertUnwindSafe(|| {
                tb.verify_with(material, &stopped, Some(&c))
            }));
            assert!(run.is_err(), "stopped at checkpoint {stop}");
            let again = Recorder::default();
            let report = tb.verify_with(material, &again, Some(&c)).unwrap();
            assert_eq!(report, whole, "stopped at checkpoint {stop}");
            let resumed = again.resumed.lock().unwrap().clone();
            assert_eq!(
                resumed,
                [Stage::Verify {
                    done: stop as u64 * c.segment,
                    total: tb.lookup(material).unwrap().indexer().size()
                }]
            );
            // Finished: the saved report, at once.
            assert!(c.is_finished(&tb, material));
            assert!(!c.is_finished(&tb, material.swapped()));
            let finished = Recorder::default();
            assert_eq!(
                tb.verify_with(material, &finished, Some(&c)).unwrap(),
                whole
            );
            assert!(finished.written.lock().unwrap().is_empty());
            assert!(matches!(
                finished.resumed.lock().unwrap()[..],
                [Stage::Verify { done, total }] if done == total
            ));
        }
        // A finished checkpoint does not hide a payload damaged since (the
        // digest covers the headers only).
        let file = dir.join(crate::format::file_name(material));
        let intact = std::fs::read(&file).unwrap();
        let mut damaged = intact.clone();
        *damaged.last_mut().unwrap() ^= 1;
        std::fs::write(&file, &damaged).unwrap();
        let reopened = Tablebase::open_dir(&dir).unwrap();
        assert!(c.is_finished(&reopened, material));
        let report = reopened
            .verify_with(material, &NoProgress, Some(&c))
            .unwrap();
        assert!(!report.checksum_ok && report.errors() > 0);
        std::fs::write(&file, &intact).unwrap();
        // Damaged: every byte of a checkpoint flipped in turn is rejected.
        let path = c.path(material);
        let _ = c.remove(material);
        let stopped = Recorder {
            stop_at: Some(2),
            ..Recorder::default()
        };
        let _ = catch_unwind(AssertUnwindSafe(|| {
            tb.verify_with(material, &stopped, Some(&c))
        }));
        let good = std::fs::read(&path).unwrap();
        let digest = c.digest(material);
        let indexer = tb.lookup(material).unwrap().indexer();
        for i in 0..good.len() {
            let mut bad = good.clone();
            bad[i] ^= 0x10;
            std::fs::write(&path, &bad).unwrap();
            assert!(c.read(material, indexer, digest).is_err(), "byte {i}");
        }
        std::fs::write(&path, &good[..good.len() - 1]).unwrap();
        assert!(c.read(material, indexer, digest).is_err());
        let rejecting = Recorder::default();
        assert_eq!(
            tb.verify_with(material, &rejecting, Some(&c)).unwrap(),
            whole
        );
        assert_eq!(rejecting.rejected.lock().unwrap().len(), 1);
        assert!(rejecting.resumed.lock().unwrap().is_empty());
        // Another class's checkpoint under this name, or a table file of
        // the pair changed since: rejected.
        std::fs::write(&path, &good).unwrap();
        let other: Material = "3v2".parse().unwrap();
        std::fs::write(c.path(other), &good).unwrap();
        let other_indexer = tb.lookup(other).unwrap().indexer();
        assert!(c.read(other, other_indexer, c.digest(other)).is_err());
        c.remove(other).unwrap();
        assert!(c.read(material, indexer, digest ^ 1).is_err());
        let partner = dir.join(crate::format::file_name(material.swapped()));
        let before = c.digest(material);
        let mut bytes = std::fs::read(&partner).unwrap();
        bytes[HEADER_LEN - 1] ^= 1;
        std::fs::write(&partner, &bytes).unwrap();
        assert_ne!(c.digest(material), before);
        c.remove(material).unwrap();
        assert!(!path.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
