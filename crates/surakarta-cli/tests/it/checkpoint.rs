//! `tb generate` killed (SIGKILL) at many moments and rerun continues each
//! unfinished pair from its checkpoint, and ends with tables byte-identical
//! to an uninterrupted run; a damaged checkpoint is reported and ignored.

use crate::common::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// The files of `dir` ending in `suffix`, by name.
fn files_ending(dir: &Path, suffix: &str) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_str().unwrap().ends_with(suffix))
        .map(|p| {
            let name = p.file_name().unwrap().to_str().unwrap().to_string();
            (name, std::fs::read(&p).unwrap())
        })
        .collect()
}

fn generate(dir: &Path, extra: &[&str]) -> std::process::Output {
    let args = [
        &[
            "tb",
            "generate",
            "--pieces",
            "5",
            "--format",
            "1",
            "--threads",
            "2",
            "--dir",
            dir.to_str().unwrap(),
        ][..],
        extra,
    ]
    .concat();
    run_within(&args, Duration::from_secs(300))
}

#[test]
fn generation_killed_at_random_moments_resumes_to_identical_tables() {
    let base = scratch_dir("checkpoint-kill");
    let reference = base.join("reference");
    let o = generate(&reference, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let want = files_ending(&reference, ".sktb");
    assert_eq!(want.len(), 10, "every class up to 5 pieces");
    assert!(files_ending(&reference, ".ckpt").is_empty());

    let dir = base.join("killed");
    let mut resumed = 0;
    let mut resumed_in_first_pass = 0;
    let mut checkpoints_seen = 0;
    // Kill times spread over the run (pseudo-random, fixed so a failure can
    // be replayed).
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for round in 0.. {
        assert!(round < 150, "did not finish after 150 interrupted runs");
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        // Growing with the rounds, so a pair whose first pass takes longer
        // than the shortest delays is still passed.
        // A whole run takes about half a second here.
        let delay = 10 + state % 100 + 6 * round;
        let (finished, o) = generate_killed_after(&dir, &[], delay);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert!(!err.contains("warning"), "a checkpoint was rejected: {err}");
        resumed += err.matches("continuing from its checkpoint").count();
        resumed_in_first_pass += err
            .matches("continuing from its checkpoint in the first pass")
            .count();
        checkpoints_seen += files_ending(&dir, ".ckpt").len();
        // No temporary table is ever taken for a table.
        for name in files_ending(&dir, ".sktb").keys() {
            assert!(want.contains_key(name), "{name}");
        }
        if finished {
            assert!(o.status.success(), "{err}");
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            assert_eq!(v["classes"].as_array().unwrap().len(), 10);
            break;
        }
    }
    assert!(
        files_ending(&dir, ".ckpt").is_empty(),
        "checkpoints removed"
    );
    assert!(files_ending(&dir, ".sktb") == want, "tables differ");
    assert!(checkpoints_seen > 0, "no kill left a checkpoint");
    assert!(resumed > 0, "no run continued from a checkpoint");
    println!("{resumed} runs continued from a checkpoint, {resumed_in_first_pass} in a first pass");

    // A damaged checkpoint is reported and ignored: the pair starts over
    // and still ends with the same tables.
    let pair = ["3v2.sktb", "2v3.sktb"];
    let broken = base.join("broken");
    copy_tables_except(&reference, &broken, &pair);
    let o = generate(&broken, &["--checkpoint-every", "0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(files_ending(&broken, ".sktb") == want);
    // Make a checkpoint of 3v2: kill a run as soon as one appears (the
    // file is renamed into place whole).
    copy_tables_except(&reference, &broken, &pair);
    let mut child = Command::new(BIN)
        .args(["tb", "generate", "--pieces", "5", "--format", "1"])
        .args(["--checkpoint-every", "0", "--json", "--dir"])
        .arg(&broken)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let ckpt = broken.join("3v2.ckpt");
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while !ckpt.exists() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
    let mut bytes = std::fs::read(&ckpt).expect("a checkpoint of 3v2");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x01;
    std::fs::write(broken.join("3v2.ckpt"), &bytes).unwrap();
    let o = generate(&broken, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("3v2.ckpt: checksum mismatch"),
        "{}",
        stderr(&o)
    );
    assert!(files_ending(&broken, ".sktb") == want, "tables differ");
    assert!(files_ending(&broken, ".ckpt").is_empty());
    std::fs::remove_dir_all(&base).ok();
}

/// Makes `to` hold the tables of `from` except `except` (and nothing else).
fn copy_tables_except(from: &Path, to: &Path, except: &[&str]) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for (name, bytes) in files_ending(from, ".sktb") {
        if !except.contains(&name.as_str()) {
            std::fs::write(to.join(name), bytes).unwrap();
        }
    }
}

#[test]
fn a_pair_over_the_memory_limit_is_refused_before_it_starts() {
    let dir = scratch_dir("memory-limit");
    let d = dir.to_str().unwrap();
    let o = run(&["tb", "generate", "--pieces", "4", "--dir", d, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let estimate = v["classes"][5]["memory_estimate_bytes"].as_u64().unwrap();
    assert!(estimate > 0, "{v}");
    assert!(v["memory_limit_bytes"]
        .as_u64()
        .is_some_and(|l| l > estimate));

    // 5 pieces with a limit below the 4v1 pair's model: refused, named,
    // nothing written, the smaller tables untouched.
    let o = run(&[
        "tb",
        "generate",
        "--pieces",
        "5",
        "--dir",
        d,
        "--memory-limit",
        "0.001",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("pair 4v1 needs about"), "{err}");
    assert!(err.contains("more than the limit of 1.0 MiB"), "{err}");
    assert!(!dir.join("4v1.sktb").exists());
    for bad in ["0", "-1", "nan"] {
        let o = run(&[
            "tb",
            "generate",
            "--pieces",
            "5",
            "--dir",
            d,
            "--memory-limit",
            bad,
        ]);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The same with the pairs' state mapped from work files (`--storage
/// mapped`): runs killed at many moments leave work files behind, which
/// the next run replaces; it continues from the checkpoints and ends with
/// the tables of a run in memory, and no work file is left.
#[test]
fn mapped_generation_killed_at_random_moments_resumes_to_identical_tables() {
    let base = scratch_dir("checkpoint-kill-mapped");
    let reference = base.join("reference");
    let o = generate(&reference, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let want = files_ending(&reference, ".sktb");
    let dir = base.join("killed");
    let present = |suffix: &str| {
        if dir.exists() {
            files_ending(&dir, suffix).len()
        } else {
            0
        }
    };
    let (mut resumed, mut work_left) = (0, 0);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for round in 0.. {
        assert!(round < 150, "did not finish after 150 interrupted runs");
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let delay = 10 + state % 100 + 6 * round;
        let (finished, o) = generate_killed_after(&dir, &["--storage", "mapped"], delay);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert!(!err.contains("warning"), "a checkpoint was rejected: {err}");
        resumed += err.matches("continuing from its checkpoint").count();
        work_left += present(".work");
        if finished {
            assert!(o.status.success(), "{err}");
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            let classes = v["classes"].as_array().unwrap();
            assert!(classes
                .iter()
                .all(|c| c["skipped"] == true || c["storage"] == "mapped"));
            break;
        }
    }
    assert!(files_ending(&dir, ".sktb") == want, "tables differ");
    assert_eq!((present(".ckpt"), present(".work")), (0, 0));
    assert!(resumed > 0, "no run continued from a checkpoint");
    assert!(work_left > 0, "no kill left a work file");
    std::fs::remove_dir_all(&base).ok();
}

/// Runs `tb generate --pieces 5 --format 1 --threads 2 --checkpoint-every 0
/// --json` with `extra` into `dir` and kills it (SIGKILL) after `delay`
/// milliseconds unless it finished: whether it finished, and its output.
fn generate_killed_after(dir: &Path, extra: &[&str], delay: u64) -> (bool, Output) {
    let mut child = Command::new(BIN)
        .args(["tb", "generate", "--pieces", "5", "--format", "1"])
        .args(["--threads", "2", "--checkpoint-every", "0", "--json"])
        .args(extra)
        .arg("--dir")
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(delay));
    let finished = child.try_wait().unwrap().is_some();
    if !finished {
        child.kill().unwrap();
    }
    (finished, child.wait_with_output().unwrap())
}
