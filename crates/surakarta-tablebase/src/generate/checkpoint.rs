//! Checkpoints of a pair being generated, so that a killed run continues
//! where it stopped instead of solving the pair again.
//!
//! A checkpoint is written between two segments of a pass over the pair's
//! slots (class 0's first, in order): of the first pass, or of one of the
//! three phases of a level; or between two levels. The values, the
//! capture-draw bitmaps, where the run is (phase, level, slots done), the
//! level's plan and, inside a level, the candidate bitmaps are then the
//! whole state. It goes to a temporary file, is synced, renamed into place
//! and the directory synced, so a checkpoint file is always complete or
//! absent. Reading checks everything (magic, classes, index scheme, sizes,
//! stage, length, CRC-32 over every byte); a checkpoint that fails any
//! check is reported and ignored, never trusted.
//!
//! Layout of version 2 (little-endian), specified in
//! `docs/tablebase-format.md`:
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `SKCKPT\0\x02` |
//! | 8 | 4 | classes `n` (1 or 2) |
//! | 12 | 4 | level (running, or next; 0 in the first pass) |
//! | 16 | 4 | deepest distance set |
//! | 20 | 1 | phase: 0 first pass, 1 before the level, 2 un-moving, 3 finding wins, 4 checking losses |
//! | 21 | 1 | the level's plan (phases 2–4): bit `c` class `c` checks all, bit `2 + c` finds its wins |
//! | 22 | 2 | zero |
//! | 24 | 8 | slots of the pair the phase has done (0 before a level) |
//! | 32 + 16·i | 16 | class `i`: us, them, scheme (0 plain, 1 symmetric), five zero bytes, slots (u64) |
//! | 32 + 16·n | Σ slots | the values, class by class, one byte per slot (as in format 1) |
//! | … | Σ 8·⌈slots / 64⌉ | the capture-draw bitmaps, class by class, as u64 words |
//! | … | Σ 8·⌈slots / 64⌉ | phases 2–4 only: the candidate bitmaps, likewise |
//! | end − 4 | 4 | CRC-32 of every byte before it |
//!
//! Version 1 (magic `SKCKPT\0\x01`, written before the passes could be
//! checkpointed inside) has the level at 12, the deepest distance at 16,
//! four zero bytes, the class lines, the values and the CRC; it is still
//! read (a level boundary; the caller rebuilds the capture-draw bitmaps).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use surakarta_index::{Indexer, Scheme};

use crate::error::TablebaseError;
use crate::files::atomic::{sync_dir, write_atomically};
use crate::files::open::open_table_file;
use crate::probe::table::TableIndexer;

/// The file name extension of checkpoints.
pub(crate) const EXTENSION: &str = "ckpt";

const MAGIC_V1: &[u8; 8] = b"SKCKPT\0\x01";
const MAGIC: &[u8; 8] = b"SKCKPT\0\x02";
/// Bytes copied per write or read.
const BUFFER: usize = 1 << 20;

/// The checkpoint file of a pair: named after its first class, `4v3.ckpt`.
pub(crate) fn path(dir: &Path, first: &TableIndexer) -> PathBuf {
    path_of(dir, first.material())
}

/// The checkpoint file of the pair whose first class is `first`.
pub(crate) fn path_of(dir: &Path, first: surakarta_index::Material) -> PathBuf {
    dir.join(format!("{first}.{EXTENSION}"))
}

/// Removes the checkpoint a run killed after writing its pair's tables and
/// before removing it left behind, once the tables are found whole (a
/// present pair is skipped, so nothing else would remove it).
pub(crate) fn remove_stale(dir: &Path, first: surakarta_index::Material) -> std::io::Result<()> {
    match std::fs::remove_file(path_of(dir, first)) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

/// A pass over the pair's slots, or the point before a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Phase {
    /// The first pass (captures, positions without moves).
    FirstPass = 0,
    /// Before a level: nothing of it done.
    BeforeLevel = 1,
    /// A level's first phase: un-moving the positions at its distance.
    Unmove = 2,
    /// A level's second phase: finding wins from unresolved positions.
    FindWins = 3,
    /// A level's last phase: checking candidates for losses.
    CheckLosses = 4,
}

impl Phase {
    fn from_byte(b: u8) -> Option<Phase> {
        Some(match b {
            0 => Phase::FirstPass,
            1 => Phase::BeforeLevel,
            2 => Phase::Unmove,
            3 => Phase::FindWins,
            4 => Phase::CheckLosses,
            _ => return None,
        })
    }

    /// Whether the phase is inside a level (a plan and candidates exist).
    pub(crate) fn in_level(self) -> bool {
        self >= Phase::Unmove
    }
}

/// How a level handles each class (by class index), decided from the
/// values at its start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LevelPlan {
    /// Check every unresolved position for a loss, not only candidates.
    pub(crate) check_all: [bool; 2],
    /// Find the wins from every unresolved position instead of un-moving
    /// the partner's losses.
    pub(crate) find_wins: [bool; 2],
    /// At level 1, with `check_all`: the positions with a quiet move into
    /// a position of the partner that is not a win in 1 are marked (in the
    /// candidate bits) by un-moving those, and every other unresolved
    /// position without a capture into a draw is a loss in 2, with no move
    /// read.
    pub(crate) mark_open: [bool; 2],
}

impl LevelPlan {
    fn to_byte(self) -> u8 {
        let bit = |b: bool, at: u8| u8::from(b) << at;
        bit(self.check_all[0], 0)
            | bit(self.check_all[1], 1)
            | bit(self.find_wins[0], 2)
            | bit(self.find_wins[1], 3)
            | bit(self.mark_open[0], 4)
            | bit(self.mark_open[1], 5)
    }

    fn from_byte(b: u8) -> LevelPlan {
        let bit = |at: u8| b & 1 << at != 0;
        LevelPlan {
            check_all: [bit(0), bit(1)],
            find_wins: [bit(2), bit(3)],
            mark_open: [bit(4), bit(5)],
        }
    }
}

/// Where a pair's generation stands: what a run resuming continues with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Resume {
    /// The pass it is in.
    pub(crate) phase: Phase,
    /// The level running or next (0 in the first pass).
    pub(crate) level: u32,
    /// Slots of the pair (class 0's first) the phase has done.
    pub(crate) done: u64,
    /// The level's plan (inside a level; the default otherwise).
    pub(crate) plan: LevelPlan,
    /// The deepest distance set so far.
    pub(crate) deepest: u32,
}

impl Resume {
    /// A pair not started.
    pub(crate) const START: Resume = Resume {
        phase: Phase::FirstPass,
        level: 0,
        done: 0,
        plan: LevelPlan {
            check_all: [false; 2],
            find_wins: [false; 2],
            mark_open: [false; 2],
        },
        deepest: 0,
    };

    /// Before level `level`.
    pub(crate) fn before_level(level: u32, deepest: u32) -> Resume {
        Resume {
            phase: Phase::BeforeLevel,
            level,
            deepest,
            ..Resume::START
        }
    }
}

/// One class of a pair: its indexer, its values and its capture-draw and
/// candidate bitmaps (a bit per slot).
pub(crate) struct ClassState<'a> {
    pub(crate) indexer: &'a TableIndexer,
    pub(crate) values: &'a [AtomicU8],
    pub(crate) capture_draws: &'a [AtomicU64],
    pub(crate) candidates: &'a [AtomicU64],
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
    h.extend_from_slice(&resume.level.to_le_bytes());
    h.extend_from_slice(&resume.deepest.to_le_bytes());
    if version == 1 {
        h.extend_from_slice(&[0; 4]);
    } else {
        h.extend_from_slice(&[resume.phase as u8, resume.plan.to_byte(), 0, 0]);
        h.extend_from_slice(&resume.done.to_le_bytes());
    }
    class_lines(&mut h, classes);
    h
}

/// The pair's slots.
fn slots(classes: &[ClassState<'_>]) -> u64 {
    classes.iter().map(|c| c.indexer.size()).sum()
}

/// The bitmaps a version 2 checkpoint in `phase` holds, class by class:
/// the capture draws, then inside a level the candidates.
fn bitmaps<'a>(
    classes: &'a [ClassState<'a>],
    phase: Phase,
) -> impl Iterator<Item = &'a [AtomicU64]> + 'a {
    let candidates = phase.in_level();
    classes.iter().map(|c| c.capture_draws).chain(
        classes
            .iter()
            .filter(move |_| candidates)
            .map(|c| c.candidates),
    )
}

/// Writes the checkpoint of a pair (see the module documentation) and
/// returns its size in bytes.
pub(crate) fn write(
    path: &Path,
    classes: &[ClassState<'_>],
    resume: Resume,
) -> Result<u64, TablebaseError> {
    debug_assert!(classes.iter().all(|c| {
        let words = c.indexer.size().div_ceil(64);
        c.capture_draws.len() as u64 == words && c.candidates.len() as u64 == words
    }));
    write_atomically(path, |out| {
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
        let mut written = h.len() as u64 + slots(classes) + 4;
        for bitmap in bitmaps(classes, resume.phase) {
            for part in bitmap.chunks(BUFFER / 8) {
                let buffer = &mut buffer[..8 * part.len()];
                for (b, w) in buffer.chunks_exact_mut(8).zip(part) {
                    b.copy_from_slice(&w.load(Ordering::Relaxed).to_le_bytes());
                }
                crc.update(buffer);
                out.write_all(buffer)?;
            }
            written += 8 * bitmap.len() as u64;
        }
        out.write_all(&crc.finalize().to_le_bytes())?;
        Ok(written)
    })
}

/// Why a checkpoint was not used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Rejected {
    /// It could not be read.
    #[error("unreadable: {0}")]
    Io(#[from] std::io::Error),
    /// Not a regular file, or not openable as one.
    #[error("{0}")]
    File(#[from] crate::format::FileProblem),
    /// Its header is not a checkpoint's, or of other classes or sizes.
    #[error("{0}")]
    Mismatch(&'static str),
    /// Its bytes do not match their checksum.
    #[error("checksum mismatch (damaged or incomplete)")]
    Checksum,
}

/// Whether `resume` is a stage a run can be at, for a pair of `classes`
/// classes and `slots` slots.
fn check_stage(resume: Resume, slots: u64, classes: usize) -> Result<(), Rejected> {
    let Resume {
        phase,
        level,
        done,
        plan,
        deepest,
    } = resume;
    let ok = done <= slots
        && match phase {
            Phase::FirstPass => level == 0 && deepest <= 1,
            Phase::BeforeLevel => done == 0 && level <= deepest.saturating_add(1),
            // A level runs only while it is at most the deepest distance.
            _ => level <= deepest,
        }
        && (phase.in_level() || plan == LevelPlan::default())
        && (classes == 2 || !plan.check_all[1] && !plan.find_wins[1] && !plan.mark_open[1])
        // Marks only at level 1, for a class checked whole.
        && (0..2).all(|c| !plan.mark_open[c] || level == 1 && plan.check_all[c]);
    if ok {
        Ok(())
    } else {
        Err(Rejected::Mismatch(
            "its phase, level, progress and plan do not fit together",
        ))
    }
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
    if length < 8 {
        return Err(Rejected::Mismatch("not a checkpoint (too short)"));
    }
    let mut magic = [0u8; 8];
    input.read_exact(&mut magic)?;
    let version = match &magic {
        MAGIC => 2,
        MAGIC_V1 => 1,
        _ => return Err(Rejected::Mismatch("not a checkpoint (bad magic)")),
    };
    let slots = slots(classes);
    let header_len = header(classes, Resume::START, version).len() as u64;
    if length < header_len {
        return Err(Rejected::Mismatch("not a checkpoint (too short)"));
    }
    let mut h = vec![0u8; header_len as usize];
    h[..8].copy_from_slice(&magic);
    input.read_exact(&mut h[8..])?;
    let u32_at = |at: usize| u32::from_le_bytes(h[at..at + 4].try_into().expect("4 bytes"));
    let resume = if version == 1 {
        Resume::before_level(u32_at(12), u32_at(16))
    } else {
        Resume {
            phase: Phase::from_byte(h[20]).ok_or(Rejected::Mismatch("of an unknown phase"))?,
            level: u32_at(12),
            done: u64::from_le_bytes(h[24..32].try_into().expect("8 bytes")),
            plan: LevelPlan::from_byte(h[21]),
            deepest: u32_at(16),
        }
    };
    if h != header(classes, resume, version) {
        return Err(Rejected::Mismatch(
            "of other classes, index scheme, sizes or plan",
        ));
    }
    check_stage(resume, slots, classes.len())?;
    let bitmap_bytes: u64 = if version == 1 {
        0
    } else {
        bitmaps(classes, resume.phase)
            .map(|b| 8 * b.len() as u64)
            .sum()
    };
    if length != header_len + slots + bitmap_bytes + 4 {
        return Err(Rejected::Mismatch(
            "its length is not that of this pair's state",
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
        for bitmap in bitmaps(classes, resume.phase) {
            for part in bitmap.chunks(BUFFER / 8) {
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

/// Removes a checkpoint once its work is done (a missing one is fine).
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
    use crate::probe::table::Directories;
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
        capture_draws: Vec<AtomicU64>,
        candidates: Vec<AtomicU64>,
    }

    type Loaded = (Vec<u8>, Vec<u64>, Vec<u64>);

    impl Owned {
        fn new(indexer: &TableIndexer, seed: u8) -> Owned {
            let size = indexer.size();
            let pattern = |i: u64, salt: u64| {
                if seed == 0 {
                    0
                } else {
                    (i.wrapping_mul(31) + u64::from(seed)).wrapping_mul(salt)
                }
            };
            let words = |salt| {
                (0..size.div_ceil(64))
                    .map(|w| AtomicU64::new(pattern(w, salt)))
                    .collect()
            };
            Owned {
                values: (0..size)
                    .map(|i| AtomicU8::new(pattern(i, 1) as u8))
                    .collect(),
                capture_draws: words(0x9e37_79b9_7f4a_7c15),
                candidates: words(0x2545_f491_4f6c_dd1d),
            }
        }

        fn load(&self) -> Loaded {
            let words = |v: &[AtomicU64]| v.iter().map(|w| w.load(Ordering::Relaxed)).collect();
            (
                self.values
                    .iter()
                    .map(|v| v.load(Ordering::Relaxed))
                    .collect(),
                words(&self.capture_draws),
                words(&self.candidates),
            )
        }
    }

    fn states<'a>(ix: &'a [TableIndexer], owned: &'a [Owned]) -> Vec<ClassState<'a>> {
        ix.iter()
            .zip(owned)
            .map(|(indexer, o)| ClassState {
                indexer,
                values: &o.values,
                capture_draws: &o.capture_draws,
                candidates: &o.candidates,
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
    fn plans_round_trip() {
        for b in 0..64u8 {
            assert_eq!(LevelPlan::from_byte(b).to_byte(), b);
        }
    }

    #[test]
    fn round_trip_and_every_damage_is_rejected() {
        let d = dir("round");
        let ix = indexers(2, 1, Scheme::Symmetric);
        let owned = [Owned::new(&ix[0], 1), Owned::new(&ix[1], 7)];
        let path = path(&d, &ix[0]);
        assert!(path.ends_with("2v1.ckpt"));
        let slots = ix[0].size() + ix[1].size();
        let words = 8 * (ix[0].size().div_ceil(64) + ix[1].size().div_ceil(64));
        let plan = LevelPlan {
            check_all: [true, false],
            find_wins: [false, true],
            mark_open: [false, false],
        };
        let marking = LevelPlan {
            mark_open: [true, false],
            ..plan
        };
        for (resume, bitmaps) in [
            (Resume::before_level(3, 5), 1),
            (
                Resume {
                    phase: Phase::Unmove,
                    level: 1,
                    done: slots / 4,
                    plan: marking,
                    deepest: 1,
                },
                2,
            ),
            (
                Resume {
                    done: slots / 3,
                    deepest: 1,
                    ..Resume::START
                },
                1,
            ),
            (
                Resume {
                    phase: Phase::CheckLosses,
                    level: 4,
                    done: slots / 2,
                    plan,
                    deepest: 6,
                },
                2,
            ),
        ] {
            let bytes = write(&path, &states(&ix, &owned), resume).unwrap();
            assert_eq!(bytes, std::fs::metadata(&path).unwrap().len());
            assert_eq!(bytes, 32 + 32 + slots + bitmaps * words + 4);
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
            for (g, o) in got.iter().zip(&owned) {
                let (g, o) = (g.load(), o.load());
                assert_eq!((&g.0, &g.1), (&o.0, &o.1));
                if bitmaps == 2 {
                    assert_eq!(g.2, o.2, "candidates inside a level");
                } else {
                    assert!(g.2.iter().all(|&w| w == 0), "no candidates outside");
                }
            }
        }

        // Every byte flipped (header, values, bitmaps, checksum) is rejected.
        let good = std::fs::read(&path).unwrap();
        let mut at = 0;
        while at < good.len() {
            let mut bad = good.clone();
            bad[at] ^= 0x10;
            std::fs::write(&path, &bad).unwrap();
            assert!(
                read(&path, &states(&ix, &fresh(&ix))).is_err(),
                "flip at {at} accepted"
            );
            // Every byte of the header, every third of the rest.
            at += if at < 64 { 1 } else { 3 };
        }
        // Truncated or extended.
        for len in [0, 7, 8, 24, 40, good.len() - 1, good.len() + 1] {
            let mut bad = good.clone();
            bad.resize(len, 0);
            std::fs::write(&path, &bad).unwrap();
            assert!(read(&path, &states(&ix, &fresh(&ix))).is_err(), "{len}");
        }
        // Stages that cannot be (with a matching checksum): the first pass
        // at level 1, progress past the pair's slots, a level past the
        // deepest distance, an unknown phase, a plan outside a level.
        let forge = |edit: &dyn Fn(&mut Vec<u8>)| {
            let mut bad = good.clone();
            edit(&mut bad);
            let n = bad.len() - 4;
            let crc = crc32fast::hash(&bad[..n]);
            bad[n..].copy_from_slice(&crc.to_le_bytes());
            std::fs::write(&path, &bad).unwrap();
            read(&path, &states(&ix, &fresh(&ix)))
                .unwrap_err()
                .to_string()
        };
        let first_pass_at_level_1 = forge(&|b| {
            b[20] = 0;
            b[21] = 0;
            b[12..16].copy_from_slice(&1u32.to_le_bytes());
        });
        assert!(
            first_pass_at_level_1.contains("do not fit"),
            "{first_pass_at_level_1}"
        );
        let past = forge(&|b| b[24..32].copy_from_slice(&(slots + 1).to_le_bytes()));
        assert!(past.contains("do not fit"), "{past}");
        let deep = forge(&|b| b[12..16].copy_from_slice(&7u32.to_le_bytes()));
        assert!(deep.contains("do not fit"), "{deep}");
        assert!(forge(&|b| b[20] = 5).contains("unknown phase"));
        let plan_outside = forge(&|b| b[20] = 1);
        assert!(!plan_outside.is_empty());
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
        let resume = Resume::before_level(2, 4);
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
        for (g, o) in got.iter().zip(&owned) {
            assert_eq!(g.load().0, o.load().0);
            assert!(g.load().1.iter().all(|&w| w == 0));
        }
        std::fs::remove_dir_all(&d).ok();
    }
}
