//! `surakarta train` as a user runs it: a tiny data file trained into a
//! network that reads back, the JSON summary, and the errors.

mod common;
use common::*;

use std::path::Path;
use surakarta::random::{random_playout, SplitMix};
use surakarta::{Position, Setup};
use surakarta_search::network::data::{self, TrainingPosition};
use surakarta_search::network::Network;
use surakarta_tablebase::Wdl;

/// Random positions labelled by material, written as a data file.
fn write_data(path: &Path, n: usize, seed: u64) {
    let mut rng = SplitMix::new(seed);
    let records: Vec<TrainingPosition> = (0..n)
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
        .collect();
    let mut file = std::fs::File::create(path).unwrap();
    data::write(&mut file, &records).unwrap();
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
    std::fs::write(&empty, data::header()).unwrap();
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
        "validation share",
    );
    let long = "x".repeat(300);
    assert_cli_error(&train(&data, &out, &["--name", &long]), "--name");
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(no_data_dir);
}
