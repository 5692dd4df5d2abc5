//! `surakarta train` as a user runs it: a tiny data file trained into a
//! network that reads back, the JSON summary, and the errors.

use crate::common::*;

use std::path::Path;
use surakarta::random::{random_playout, SplitMix};
use surakarta::{Position, Setup};
use surakarta_search::network::data::{self, TrainingPosition};
use surakarta_search::network::Network;
use surakarta_tablebase::Wdl;

/// Random positions labelled by material, written as a data file.
fn write_data(path: &Path, n: usize, seed: u64) {
    let mut file = std::fs::File::create(path).unwrap();
    data::write(&mut file, &records(n, seed)).unwrap();
}

/// The records of [`write_data`] as a version 1 file (no checksums), as
/// programs before version 2 wrote it: a 16-byte header, then the records.
fn write_version_1_data(path: &Path, n: usize, seed: u64) {
    let mut bytes = b"SKTD\x01\x00\x10\x00\0\0\0\0\0\0\0\0".to_vec();
    for r in records(n, seed) {
        bytes.extend_from_slice(&r.to_bytes());
    }
    std::fs::write(path, bytes).unwrap();
}

/// Random positions labelled by material.
fn records(n: usize, seed: u64) -> Vec<TrainingPosition> {
    let mut rng = SplitMix::new(seed);
    (0..n)
        .map(|i| {
            let p = random_playout(&mut rng, Position::new(), 10 + i % 80);
            let position = Position::from_setup(Setup {
                halfmoves: 0,
                fullmoves: 1,
                ..p.to_setup()
            })
            .unwrap();
            let us = position.pieces(position.turn()).len() as i32;
            let them = position.pieces(!position.turn()).len() as i32;
            let label = match us.cmp(&them) {
                std::cmp::Ordering::Greater => Wdl::Win,
                std::cmp::Ordering::Equal => Wdl::Draw,
                std::cmp::Ordering::Less => Wdl::Loss,
            };
            TrainingPosition {
                position,
                score: (100 * (us - them)) as i16,
                label,
                exact: false,
                ply: 0,
            }
        })
        .collect()
}

#[test]
fn trains_a_tiny_file_into_a_network_that_reads_back() {
    let dir = scratch_dir("train-tiny");
    let data = dir.join("a.skdata");
    write_data(&data, 1500, 1);
    let out = dir.join("net.sknn");
    let o = run(&[
        "train",
        "--data",
        data.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--epochs",
        "3",
        "--batch",
        "128",
        "--threads",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("epoch")).count(),
        3,
        "{text}"
    );
    assert!(text.contains("scale K"), "{text}");
    let net = Network::read(&out).unwrap();
    assert!(net.scale > 0);
    assert!(net.name.contains("3 epochs"), "{}", net.name);
    // No temporary file is left beside it.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");

    // A directory of data, a fixed scale, a name and JSON; the same run
    // again writes the same bytes.
    let json_run = |out: &Path| {
        run(&[
            "train",
            "--data",
            dir.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--epochs",
            "2",
            "--batch",
            "256",
            "--scale",
            "250",
            "--name",
            "tiny",
            "--seed",
            "3",
            "--json",
        ])
    };
    let first = dir.join("first.sknn");
    let o = json_run(&first);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["scale"], 250);
    assert_eq!(v["scale_fitted"], false);
    assert_eq!(v["epochs"].as_array().unwrap().len(), 2);
    assert!(v["validation_loss"].as_f64().is_some());
    let net = Network::read(&first).unwrap();
    assert_eq!((net.name.as_str(), net.scale), ("tiny", 250));
    let second = dir.join("second.sknn");
    assert!(json_run(&second).status.success());
    assert_eq!(
        std::fs::read(&first).unwrap(),
        std::fs::read(&second).unwrap()
    );

    // Fine-tuning from the written network.
    let tuned = dir.join("tuned.sknn");
    let o = run(&[
        "train",
        "--data",
        data.to_str().unwrap(),
        "--out",
        tuned.to_str().unwrap(),
        "--epochs",
        "1",
        "--batch",
        "256",
        "--from",
        first.to_str().unwrap(),
        "--scale",
        "250",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(Network::read(&tuned).is_ok());

    // Threat inputs: a file of architecture 3 that searches, and keeps
    // them when fine-tuned without the flag.
    let threats = dir.join("threats.sknn");
    let o = train_on(&data, &threats, &["--threats", "--seed", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let architecture = |path: &Path| {
        let bytes = std::fs::read(path).unwrap();
        u16::from_le_bytes([bytes[6], bytes[7]])
    };
    assert_eq!(architecture(&first), 2);
    assert_eq!(architecture(&threats), 3);
    assert!(Network::read(&threats).unwrap().weights.threats);
    let o = run(&[
        "search",
        "--depth",
        "3",
        "--eval-file",
        threats.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("bestmove"), "{}", stdout(&o));
    let tuned_threats = dir.join("tuned-threats.sknn");
    let o = train_on(
        &data,
        &tuned_threats,
        &["--from", threats.to_str().unwrap()],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(architecture(&tuned_threats), 3);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let dir = scratch_dir("train-errors");
    let data = dir.join("a.skdata");
    write_data(&data, 50, 2);
    let out = dir.join("net.sknn");
    let train = |data: &Path, out: &Path, extra: &[&str]| {
        let mut args = vec![
            "train",
            "--data",
            data.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        run(&args)
    };
    let not_data = dir.join("notes.txt");
    std::fs::write(&not_data, "not training data").unwrap();
    assert_cli_error(&train(&not_data, &out, &[]), "not a training data file");
    let empty = dir.join("empty.skdata");
    let mut no_records = Vec::new();
    data::write(&mut no_records, &[]).unwrap();
    std::fs::write(&empty, no_records).unwrap();
    assert_cli_error(&train(&empty, &out, &[]), "no training positions");
    assert_cli_error(
        &train(&data, &dir.join("no").join("net.sknn"), &[]),
        "does not exist",
    );
    assert_cli_error(
        &train(&dir.join("missing.skdata"), &out, &[]),
        "missing.skdata",
    );
    let no_data_dir = scratch_dir("train-errors-empty-dir");
    assert_cli_error(&train(&no_data_dir, &out, &[]), "no .skdata files");
    assert_cli_error(&train(&data, &out, &["--lambda", "1.5"]), "lambda");
    assert_cli_error(&train(&data, &out, &["--epochs", "0"]), "epochs");
    assert_cli_error(
        &train(&data, &out, &["--validation-share", "1"]),
        "'--validation-share <X>': out of range",
    );
    let long = "x".repeat(300);
    assert_cli_error(&train(&data, &out, &["--name", &long]), "--name");
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(no_data_dir);
}

/// `train` on one file with a few epochs; `extra` adds options.
fn train_on(data: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "train",
        "--data",
        data.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--epochs",
        "1",
        "--batch",
        "64",
        "--threads",
        "1",
    ];
    args.extend_from_slice(extra);
    run_within(&args, std::time::Duration::from_secs(120))
}

#[test]
fn a_flipped_bit_anywhere_is_an_error_naming_the_file_and_the_block() {
    let dir = scratch_dir("train-flipped");
    let data = dir.join("a.skdata");
    // Two blocks: 1024 records and 476.
    write_data(&data, 1500, 4);
    let good = std::fs::read(&data).unwrap();
    let out = dir.join("net.sknn");
    let second_block = 16 + 1024 * 16 + 4;
    let places = [
        (4, "version"),                                     // the version
        (9, "the header does not match its checksum"),      // the record count
        (14, "the header does not match its checksum"),     // the header's checksum
        (16, "block 0 (records 0 to 1023)"),                // the first record
        (16 + 500 * 16 + 3, "block 0 (records 0 to 1023)"), // a record in the middle
        (second_block - 2, "block 0 (records 0 to 1023)"),  // the first block's checksum
        (second_block + 7, "block 1 (records 1024 to 1499)"),
        (good.len() - 1, "block 1 (records 1024 to 1499)"), // the last checksum
    ];
    for (at, says) in places {
        let mut bytes = good.clone();
        bytes[at] ^= 0x40;
        std::fs::write(&data, &bytes).unwrap();
        let o = train_on(&data, &out, &[]);
        assert_cli_error(&o, says);
        assert!(stderr(&o).contains("a.skdata"), "byte {at}: {}", stderr(&o));
    }
    // A byte more or less.
    for bytes in [&good[..good.len() - 1], &[&good[..], &[0]].concat()[..]] {
        std::fs::write(&data, bytes).unwrap();
        assert_cli_error(&train_on(&data, &out, &[]), "a.skdata: the file is");
    }
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn version_1_data_is_still_read_with_one_warning_line() {
    let dir = scratch_dir("train-version-1");
    let old = dir.join("old.skdata");
    write_version_1_data(&old, 300, 5);
    let out = dir.join("net.sknn");
    let o = train_on(&old, &out, &["--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("warning: "), "{err}");
    assert!(err.contains("old.skdata"), "{err}");
    assert!(err.contains("version 1"), "{err}");
    assert!(Network::read(&out).is_ok());
    // Two old files and a new one in a directory: still one line.
    write_version_1_data(&dir.join("old2.skdata"), 300, 6);
    write_data(&dir.join("new.skdata"), 300, 7);
    let o = train_on(&dir, &out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("2 files"), "{err}");
    // Version 2 data alone: no warning.
    let o = train_on(&dir.join("new.skdata"), &out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    let _ = std::fs::remove_dir_all(dir);
}

/// A FIFO named like a data file, given or in a data directory, or a
/// directory named so in a data directory: an error naming it, never a
/// wait for a writer nor a file skipped.
#[cfg(unix)]
#[test]
fn a_fifo_or_directory_named_like_data_is_an_error_not_a_hang() {
    let dir = scratch_dir("train-fifo");
    write_data(&dir.join("a.skdata"), 300, 8);
    let bad = dir.join("b.skdata");
    let out = dir.join("net.sknn");
    for kind in ["fifo", "directory"] {
        if kind == "fifo" {
            let made = std::process::Command::new("mkfifo").arg(&bad).status();
            assert!(made.unwrap().success(), "mkfifo");
        } else {
            std::fs::create_dir(&bad).unwrap();
        }
        // Given itself, a directory is one of data files (none here).
        if kind == "fifo" {
            assert_cli_error(&train_on(&bad, &out, &[]), "b.skdata: not a regular file");
        }
        assert_cli_error(&train_on(&dir, &out, &[]), "b.skdata: not a regular file");
        if kind == "fifo" {
            std::fs::remove_file(&bad).unwrap();
        } else {
            std::fs::remove_dir(&bad).unwrap();
        }
    }
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(dir);
}

/// `surakarta data` counts what the files hold, exactly as they were
/// written, and names a damaged file with exit code 1.
#[test]
fn data_counts_what_the_files_hold_and_names_a_damaged_one() {
    let dir = fresh_path("data-stats");
    std::fs::create_dir_all(&dir).unwrap();
    let mut written = records(300, 3);
    // Some exact labels, at known plies.
    for (i, r) in written.iter_mut().enumerate().take(40) {
        r.exact = true;
        r.score = 0;
        r.ply = 10 + i as u16;
    }
    let mut file = std::fs::File::create(dir.join("a.skdata")).unwrap();
    data::write(&mut file, &written[..200]).unwrap();
    let mut file = std::fs::File::create(dir.join("b.skdata")).unwrap();
    data::write(&mut file, &written[200..]).unwrap();
    let o = run(&["data", dir.to_str().unwrap(), "--distinct", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert_eq!(v["files"], 2, "{v}");
    assert_eq!(v["positions"], 300, "{v}");
    assert_eq!(v["exact"], 40, "{v}");
    let count = |exact: bool, label: Wdl| {
        written
            .iter()
            .filter(|r| r.exact == exact && r.label == label)
            .count()
    };
    for (name, label) in [("loss", Wdl::Loss), ("draw", Wdl::Draw), ("win", Wdl::Win)] {
        assert_eq!(v["game_labels"][name], count(false, label), "{name} {v}");
        assert_eq!(v["exact_labels"][name], count(true, label), "{name} {v}");
    }
    assert_eq!(v["max_ply"], 49, "{v}");
    let pieces: u64 = v["by_pieces"]
        .as_object()
        .unwrap()
        .values()
        .map(|c| c.as_u64().unwrap())
        .sum();
    assert_eq!(pieces, 300, "{v}");
    let distinct: std::collections::HashSet<String> =
        written.iter().map(|r| r.position.to_string()).collect();
    assert_eq!(v["distinct"], distinct.len(), "{v}");

    // The text names the shares.
    let o = run(&["data", dir.join("a.skdata").to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("200 positions in 1 file: 0 damaged"),
        "{text}"
    );
    assert!(
        text.contains("labelled exactly by the tables: 40 (20.0%)"),
        "{text}"
    );

    // A flipped bit in b: the rest is still counted, b is named, exit 1.
    let b = dir.join("b.skdata");
    let mut bytes = std::fs::read(&b).unwrap();
    bytes[40] ^= 1;
    std::fs::write(&b, &bytes).unwrap();
    let o = run(&["data", dir.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("b.skdata: block 0"), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert_eq!(
        (
            v["positions"].as_u64(),
            v["damaged_files"].as_array().map(Vec::len)
        ),
        (Some(200), Some(1)),
        "{v}"
    );

    // A path that is not there, or a directory without data: exit 2.
    assert_cli_error(
        &run(&["data", dir.join("missing.skdata").to_str().unwrap()]),
        "missing.skdata",
    );
    let empty = fresh_path("data-stats-empty");
    std::fs::create_dir_all(&empty).unwrap();
    assert_cli_error(&run(&["data", empty.to_str().unwrap()]), "no .skdata files");
    std::fs::remove_dir_all(dir).ok();
    std::fs::remove_dir_all(empty).ok();
}

/// `surakarta data` counts an entry named `*.skdata` that is not a regular
/// file (a directory, a FIFO, never opened) as damaged, like a damaged
/// file, and goes on with the others.
#[cfg(unix)]
#[test]
fn data_counts_a_special_file_as_damaged_and_goes_on() {
    let dir = scratch_dir("data-special");
    let mut file = std::fs::File::create(dir.join("a.skdata")).unwrap();
    data::write(&mut file, &records(50, 4)).unwrap();
    std::fs::create_dir(dir.join("b.skdata")).unwrap();
    let fifo = dir.join("c.skdata");
    make_fifo(&fifo);
    let o = run_within(
        &["data", dir.to_str().unwrap(), "--json"],
        std::time::Duration::from_secs(60),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("b.skdata: not a regular file (a directory)"),
        "{err}"
    );
    assert!(
        err.contains("c.skdata: not a regular file (a FIFO)"),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert_eq!(
        (
            v["files"].as_u64(),
            v["positions"].as_u64(),
            v["damaged_files"].as_array().map(Vec::len)
        ),
        (Some(3), Some(50), Some(2)),
        "{v}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// `--exact-share` trains on that share of the exactly labelled positions
/// and on every other one; outside 0 to 1 it is refused.
#[test]
fn exact_share_leaves_out_exactly_labelled_positions_only() {
    let dir = fresh_path("train-exact-share");
    std::fs::create_dir_all(&dir).unwrap();
    let mut written = records(400, 8);
    for r in written.iter_mut().take(300) {
        r.exact = true;
        r.score = 0;
    }
    let data_path = dir.join("d.skdata");
    let mut file = std::fs::File::create(&data_path).unwrap();
    data::write(&mut file, &written).unwrap();
    let out = dir.join("n.sknn");
    let kept = |share: &str| {
        let o = train_on(&data_path, &out, &["--exact-share", share, "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
        let positions =
            v["training_positions"].as_u64().unwrap() + v["validation_positions"].as_u64().unwrap();
        (
            positions,
            v["exact_left_out"].as_u64().unwrap(),
            v["name"].as_str().unwrap().to_string(),
        )
    };
    let (all, none_out, name) = kept("1");
    assert_eq!((all, none_out), (400, 0), "{name}");
    assert!(!name.contains("exact share"), "{name}");
    let (positions, left_out, name) = kept("0");
    assert_eq!((positions, left_out), (100, 300), "{name}");
    assert!(name.ends_with("exact share 0"), "{name}");
    let (positions, left_out, _) = kept("0.5");
    assert_eq!(positions + left_out, 400);
    assert!((100..200).contains(&left_out), "{left_out} of 300 left out");
    assert_eq!(kept("0.5").1, left_out, "the same positions every run");
    assert_cli_error(
        &train_on(&data_path, &out, &["--exact-share", "1.5"]),
        "'--exact-share <X>': out of range",
    );
    std::fs::remove_dir_all(dir).ok();
}
