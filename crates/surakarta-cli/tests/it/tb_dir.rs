//! What `tb generate`, `tb compress` and `tb verify` do to a directory of
//! tables they write into: a FIFO, a symbolic link or a directory placed at
//! any of their temporary files' names is refused by name (never opened,
//! followed or removed), a regular file left there is replaced; and one run
//! at a time holds the directory.
#![cfg(unix)]

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};
use surakarta_index::Material;
use surakarta_tablebase::{DirLock, Pair, LOCK_FILE_NAME};

/// Long enough for any of these small runs; a run that blocks on a FIFO
/// is killed at this deadline and fails the test.
const LIMIT: Duration = Duration::from_secs(60);

/// Taken by every test here: a process spawned while a test holds a
/// directory's lock would hold a copy of its descriptor (and so the lock)
/// from the fork until it starts the program, so no test spawns while
/// another holds one.
static SERIAL: Mutex<()> = Mutex::new(());

/// Runs one test at a time (see [`SERIAL`]).
fn serial() -> MutexGuard<'static, ()> {
    SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What is placed at a temporary file's name before a run.
#[derive(Clone, Copy, Debug)]
enum Leftover {
    Fifo,
    Symlink,
    Directory,
    StaleFile,
}

/// A run that writes through a temporary file.
struct Writer {
    /// The tables the directory starts with (copied from the format 1
    /// reference), or none.
    tables: bool,
    /// The run's arguments, the directory last.
    args: &'static [&'static str],
    /// The temporary file's name.
    tmp: &'static str,
    /// The name it is renamed to.
    destination: &'static str,
    /// The exit code of a run refused (verify reports a table it cannot
    /// verify and goes on: 1).
    refused: i32,
}

/// Makes the 3-piece tables in format 1 once per test, in `base/reference`.
fn reference(base: &Path) -> PathBuf {
    let dir = base.join("reference");
    let o = run_within(
        &["tb", "generate", "--pieces", "3", "--format", "1", "--dir"]
            .into_iter()
            .chain([dir.to_str().unwrap()])
            .collect::<Vec<_>>(),
        LIMIT,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    dir
}

/// Fills `to` with the table files of `from`.
fn copy_tables(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "sktb") {
            std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
        }
    }
}

/// Runs `writer` with each leftover at its temporary name and checks what
/// it did.
fn check(writer: &Writer, name: &str) {
    let _serial = serial();
    let base = scratch_dir(name);
    let reference = if writer.tables {
        Some(reference(&base))
    } else {
        None
    };
    for leftover in [
        Leftover::Fifo,
        Leftover::Symlink,
        Leftover::Directory,
        Leftover::StaleFile,
    ] {
        let dir = base.join(format!("{leftover:?}"));
        std::fs::create_dir_all(&dir).unwrap();
        if let Some(reference) = &reference {
            copy_tables(reference, &dir);
        }
        // Outside the directory: what a link at the temporary name points to.
        let outside = base.join(format!("outside-{leftover:?}"));
        std::fs::write(&outside, b"not yours").unwrap();
        let tmp = dir.join(writer.tmp);
        match leftover {
            Leftover::Fifo => {
                let made = Command::new("mkfifo").arg(&tmp).status();
                assert!(made.unwrap().success(), "mkfifo");
            }
            Leftover::Symlink => std::os::unix::fs::symlink(&outside, &tmp).unwrap(),
            Leftover::Directory => std::fs::create_dir(&tmp).unwrap(),
            Leftover::StaleFile => std::fs::write(&tmp, b"left by a killed run").unwrap(),
        }
        let args: Vec<&str> = writer
            .args
            .iter()
            .copied()
            .chain([dir.to_str().unwrap()])
            .collect();
        let o = run_within(&args, LIMIT);
        let context = format!("{args:?} with a {leftover:?} at {}", tmp.display());
        assert_eq!(
            std::fs::read(&outside).unwrap(),
            b"not yours",
            "{context}: the file outside was written"
        );
        let kind = match leftover {
            Leftover::Fifo => "a FIFO",
            Leftover::Symlink => "a symbolic link",
            Leftover::Directory => "a directory",
            Leftover::StaleFile => {
                assert!(o.status.success(), "{context}: {}", stderr(&o));
                assert!(
                    std::fs::symlink_metadata(&tmp).is_err(),
                    "{context}: the temporary file is left"
                );
                ""
            }
        };
        if !kind.is_empty() {
            let (out, err) = (stdout(&o), stderr(&o));
            assert_eq!(o.status.code(), Some(writer.refused), "{context}: {err}");
            let needle = format!("{} is {kind}: ", tmp.display());
            if writer.refused == 2 {
                // The run's last word, after what it reported on the way.
                let last = err.lines().last().unwrap_or_default();
                assert!(last.starts_with("error: "), "{context}: {err}");
                assert!(last.contains(&needle), "{context}: {needle:?} not in {err}");
            } else {
                let line = format!("2v1: cannot verify: {needle}");
                assert!(out.contains(&line), "{context}: {line:?} not in {out}");
            }
            // Left as it was: not removed, not replaced.
            let found = std::fs::symlink_metadata(&tmp).unwrap().file_type();
            let same = match leftover {
                Leftover::Symlink => found.is_symlink(),
                Leftover::Directory => found.is_dir(),
                _ => !found.is_file() && !found.is_symlink() && !found.is_dir(),
            };
            assert!(same, "{context}: the leftover was replaced");
        }
        // Nothing the run made is a link, and its destination, if there,
        // is a regular file.
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let file_type = std::fs::symlink_metadata(&path).unwrap().file_type();
            assert!(
                path == tmp || file_type.is_file(),
                "{context}: {} is not a regular file",
                path.display()
            );
        }
        if writer.tables {
            let destination = std::fs::symlink_metadata(dir.join(writer.destination));
            assert!(destination.unwrap().is_file(), "{context}");
        }
    }
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn generate_format_1_refuses_what_is_at_a_temporary_table_name() {
    let writer = Writer {
        tables: false,
        args: &["tb", "generate", "--pieces", "3", "--format", "1", "--dir"],
        tmp: "2v1.sktb.tmp",
        destination: "2v1.sktb",
        refused: 2,
    };
    check(&writer, "tmp-generate-1");
}

#[test]
fn generate_format_2_refuses_what_is_at_a_temporary_table_name() {
    let writer = Writer {
        tables: false,
        args: &["tb", "generate", "--pieces", "3", "--format", "2", "--dir"],
        tmp: "2v1.sktb.tmp",
        destination: "2v1.sktb",
        refused: 2,
    };
    check(&writer, "tmp-generate-2");
}

#[test]
fn generate_refuses_what_is_at_a_temporary_checkpoint_name() {
    let writer = Writer {
        tables: false,
        args: &[
            "tb",
            "generate",
            "--pieces",
            "3",
            "--checkpoint-every",
            "0",
            "--dir",
        ],
        tmp: "2v1.ckpt.tmp",
        destination: "2v1.ckpt",
        refused: 2,
    };
    check(&writer, "tmp-checkpoint");
}

#[test]
fn verify_refuses_what_is_at_a_temporary_checkpoint_name() {
    let writer = Writer {
        tables: true,
        args: &["tb", "verify", "--checkpoint-every", "0", "--dir"],
        tmp: "2v1-verify.ckpt.tmp",
        destination: "2v1.sktb",
        refused: 1,
    };
    check(&writer, "tmp-verify");
}

#[test]
fn compress_refuses_what_is_at_a_temporary_table_name() {
    let writer = Writer {
        tables: true,
        args: &["tb", "compress", "--dir"],
        tmp: "2v1.sktb.tmp",
        destination: "2v1.sktb",
        refused: 2,
    };
    check(&writer, "tmp-compress");
}

#[test]
fn a_second_run_on_a_locked_directory_fails_at_once_naming_the_holder() {
    let _serial = serial();
    let base = scratch_dir("locked");
    let dir = base.join("tables");
    std::fs::create_dir_all(&dir).unwrap();
    copy_tables(&reference(&base), &dir);
    let d = dir.to_str().unwrap();
    let pid = std::process::id();
    let whole = DirLock::acquire(&dir).unwrap();
    let in_use = format!("{d} is in use by process {pid} (it holds {d}/{LOCK_FILE_NAME})");
    let before = std::fs::read(dir.join("2v1.sktb")).unwrap();
    for args in [
        &["tb", "generate", "--pieces", "4", "--dir", d][..],
        &["tb", "generate", "--pair", "3v1", "--dir", d],
        &["tb", "compress", "--dir", d],
        &["tb", "verify", "--checkpoint-every", "0", "--dir", d],
        // Verifying while a run writes the whole directory would read
        // tables half written: in use too.
        &["tb", "verify", "--dir", d],
    ] {
        let o = run_within(args, LIMIT);
        assert_cli_error(&o, &in_use);
    }
    assert_eq!(std::fs::read(dir.join("2v1.sktb")).unwrap(), before);
    assert!(!dir.join("3v1.sktb").exists());
    drop(whole);
    // Beside jobs of single pairs, and in a directory it cannot write
    // into, verification reads without a lock of its own.
    let three = DirLock::acquire_pair(&dir, Pair::of("3v1".parse::<Material>().unwrap())).unwrap();
    let o = run_within(&["tb", "verify", "--dir", d], LIMIT);
    assert!(o.status.success(), "{}", stderr(&o));
    drop(three);

    // Jobs of single pairs run side by side, one per pair; a run that
    // writes the whole directory waits for them all.
    let pair = |s: &str| Pair::of(s.parse::<Material>().unwrap());
    let three = DirLock::acquire_pair(&dir, pair("3v1")).unwrap();
    let o = run_within(&["tb", "generate", "--pair", "2v2", "--dir", d], LIMIT);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run_within(&["tb", "generate", "--pair", "1v3", "--dir", d], LIMIT);
    assert_cli_error(
        &o,
        &format!("pair 3v1 in {d} is in use by process {pid} (it holds {d}/.surakarta-3v1.lock)"),
    );
    let o = run_within(&["tb", "generate", "--pieces", "4", "--dir", d], LIMIT);
    assert_cli_error(&o, &in_use);
    drop(three);
    let o = run_within(&["tb", "generate", "--pieces", "4", "--dir", d], LIMIT);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run_within(&["tb", "compress", "--dir", d], LIMIT);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn a_lock_left_by_a_killed_run_does_not_block_the_next() {
    let _serial = serial();
    let dir = scratch_dir("killed-holder");
    let d = dir.to_str().unwrap();
    // Long enough to be killed while it runs.
    let mut child = Command::new(BIN)
        .args(["tb", "generate", "--pieces", "6", "--format", "1"])
        .args(["--threads", "1", "--dir", d])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let holder = format!("{}\n", child.id());
    let deadline = Instant::now() + LIMIT;
    while std::fs::read_to_string(dir.join(LOCK_FILE_NAME)).ok() != Some(holder.clone()) {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the run never named itself in {LOCK_FILE_NAME}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    child.wait().unwrap();
    assert!(running, "the run ended before it was killed");
    let o = run_within(&["tb", "generate", "--pieces", "3", "--dir", d], LIMIT);
    assert!(o.status.success(), "{}", stderr(&o));
    let now = std::fs::read_to_string(dir.join(LOCK_FILE_NAME)).unwrap();
    assert_ne!(now, holder, "the new run names itself");
    std::fs::remove_dir_all(&dir).unwrap();
}
