//! `surakarta datagen` as a user runs it: chunk files, the manifest, the
//! summary, resuming, errors.

use crate::common::*;
use surakarta_search::network::data;

#[test]
fn datagen_writes_chunks_a_manifest_and_a_summary() {
    let out = fresh_path("datagen-out");
    let dir = out.to_str().unwrap();
    let o = run(&["datagen", "--out", dir, "--games", "4", "--nodes", "200"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("4 games played, "), "{text}");
    // Not on a terminal: a log line for the first chunk instead of a bar.
    let log = stderr(&o);
    assert_eq!(log.lines().count(), 1, "{log}");
    assert!(log.contains(" s: chunk 0 written ("), "{log}");
    assert!(log.contains("1 of 1 chunks made"), "{log}");
    assert!(text.contains("positions met"), "{text}");
    assert!(text.contains("plies on average"), "{text}");
    let chunk = data::read(&out.join("chunk-000000.skdata")).expect("the chunk reads back");
    assert_eq!(chunk.version, data::VERSION);
    let records = chunk.records;
    assert!(!records.is_empty());
    assert!(records
        .iter()
        .all(|r| r.position.outcome().is_none() && !r.exact));
    let manifest = std::fs::read_to_string(out.join("datagen.txt")).unwrap();
    assert!(manifest.contains("nodes = 200"), "{manifest}");
    assert!(manifest.contains("openings = varied"), "{manifest}");

    // Again, as JSON: nothing left to do.
    let o = run(&[
        "datagen", "--out", dir, "--games", "4", "--nodes", "200", "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert_eq!(v["chunks_present"], 1, "{v}");
    assert_eq!(v["games_played"], 0, "{v}");
    assert_eq!(v["nodes"], 200, "{v}");

    // Other settings into the same directory: refused, naming the setting.
    let o = run(&["datagen", "--out", dir, "--games", "4", "--nodes", "300"]);
    assert_cli_error(&o, "nodes = 200, not 300");
    std::fs::remove_dir_all(out).ok();
}

#[test]
fn datagen_json_counts_every_position() {
    let out = fresh_path("datagen-json");
    let o = run(&[
        "datagen",
        "--out",
        out.to_str().unwrap(),
        "--games",
        "3",
        "--nodes",
        "200",
        "--games-per-chunk",
        "2",
        "--threads",
        "2",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    assert_eq!(
        (v["chunks_written"].as_u64(), v["games_played"].as_u64()),
        (Some(2), Some(3)),
        "{v}"
    );
    let f = &v["filtered"];
    let sum = v["written"].as_u64().unwrap()
        + f["single_move"].as_u64().unwrap()
        + f["decisive"].as_u64().unwrap()
        + f["capture_best"].as_u64().unwrap();
    assert_eq!(sum, v["plies"].as_u64().unwrap(), "{v}");
    let written: usize = (0..2)
        .map(|k| {
            data::read(&out.join(format!("chunk-{k:06}.skdata")))
                .unwrap()
                .records
                .len()
        })
        .sum();
    assert_eq!(written as u64, v["written"].as_u64().unwrap());
    std::fs::remove_dir_all(out).ok();
}

#[test]
fn datagen_refuses_a_file_as_out_and_bad_values() {
    let file = fresh_path("datagen-file");
    std::fs::write(&file, b"not a directory").unwrap();
    let o = run(&[
        "datagen",
        "--out",
        file.to_str().unwrap(),
        "--games",
        "4",
        "--nodes",
        "200",
    ]);
    assert_cli_error(&o, "not a directory");
    std::fs::remove_file(file).ok();
    let out = fresh_path("datagen-bad");
    let dir = out.to_str().unwrap();
    assert_cli_error(
        &run(&["datagen", "--out", dir, "--eval", "best"]),
        "unknown --eval",
    );
    assert_cli_error(
        &run(&["datagen", "--out", dir, "--threads", "0"]),
        "--threads 0",
    );
    assert_cli_error(
        &run(&["datagen", "--out", dir, "--games", "0"]),
        "'--games <N>': out of range",
    );
    assert!(!out.exists(), "nothing is made for bad arguments");
}

/// The first record of chunk 0 gains a piece (byte 16 XOR 0x40): `train`
/// and a `datagen` rerun both refuse the chunk, naming it.
#[test]
fn a_flipped_bit_in_a_chunk_stops_train_and_the_resume() {
    let limit = std::time::Duration::from_secs(120);
    let out = fresh_path("datagen-flipped");
    let dir = out.to_str().unwrap();
    let datagen = ["datagen", "--out", dir, "--games", "2", "--nodes", "200"];
    let o = run_within(&datagen, limit);
    assert!(o.status.success(), "{}", stderr(&o));
    let chunk = out.join("chunk-000000.skdata");
    let mut bytes = std::fs::read(&chunk).unwrap();
    bytes[16] ^= 0x40;
    std::fs::write(&chunk, &bytes).unwrap();

    let net = fresh_path("datagen-flipped.sknn");
    let net = net.to_str().unwrap();
    let train = [
        "train",
        "--data",
        dir,
        "--out",
        net,
        "--epochs",
        "1",
        "--threads",
        "1",
    ];
    let o = run_within(&train, limit);
    assert_cli_error(&o, "chunk-000000.skdata: block 0 (records 0 to ");
    assert!(
        stderr(&o).contains("does not match its checksum"),
        "{}",
        stderr(&o)
    );

    let o = run_within(&datagen, limit);
    assert_cli_error(&o, "chunk 0 (");
    assert!(
        stderr(&o).contains("chunk-000000.skdata): block 0"),
        "{}",
        stderr(&o)
    );
    // The chunk is left as it is; removed, it is made again and trains.
    assert_eq!(std::fs::read(&chunk).unwrap(), bytes);
    std::fs::remove_file(&chunk).unwrap();
    let o = run_within(&datagen, limit);
    assert!(o.status.success(), "{}", stderr(&o));
    bytes[16] ^= 0x40;
    assert_eq!(std::fs::read(&chunk).unwrap(), bytes);
    let o = run_within(&train, limit);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::remove_dir_all(out).ok();
    std::fs::remove_file(net).ok();
}

/// A FIFO named like a chunk or the manifest: `datagen` ends at once with
/// an error naming it, and so does `train` for the chunk.
#[cfg(unix)]
#[test]
fn a_fifo_named_like_a_chunk_or_the_manifest_is_an_error_not_a_hang() {
    let limit = std::time::Duration::from_secs(120);
    let out = fresh_path("datagen-fifo");
    let dir = out.to_str().unwrap();
    let datagen = ["datagen", "--out", dir, "--games", "2", "--nodes", "200"];
    assert!(run_within(&datagen, limit).status.success());
    for name in ["chunk-000000.skdata", "datagen.txt"] {
        let path = out.join(name);
        let kept = std::fs::read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.unwrap().success(), "mkfifo");
        assert_cli_error(
            &run_within(&datagen, limit),
            &format!("{name} is in the way"),
        );
        if name.ends_with(".skdata") {
            let net = out.join("net.sknn");
            let train = ["train", "--data", dir, "--out", net.to_str().unwrap()];
            assert_cli_error(
                &run_within(&train, limit),
                &format!("{name}: not a regular file"),
            );
        }
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, kept).unwrap();
    }
    std::fs::remove_dir_all(out).ok();
}

/// Jobs started together into one directory, each making a disjoint range
/// of chunks (`--chunks`), make the files one run makes; a range beyond
/// the run or not a range is one error line.
#[test]
fn jobs_making_chunk_ranges_together_make_the_files_of_one_run() {
    let settings = [
        "--games",
        "5",
        "--games-per-chunk",
        "1",
        "--nodes",
        "100",
        "--max-plies",
        "16",
    ];
    let whole = fresh_path("datagen-whole");
    let o = run(&[
        &["datagen", "--out", whole.to_str().unwrap()][..],
        &settings[..],
    ]
    .concat());
    assert!(o.status.success(), "{}", stderr(&o));

    let parts = fresh_path("datagen-parts");
    let out = parts.to_str().unwrap();
    let jobs: Vec<_> = ["0..2", "2..=3", "4"]
        .iter()
        .map(|range| {
            let args = [
                &["datagen", "--out", out, "--chunks", range, "--json"][..],
                &settings[..],
            ]
            .concat();
            std::process::Command::new(BIN)
                .args(args)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut written = 0;
    for job in jobs {
        let o = job.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["chunks"], 5, "{v}");
        written += v["chunks_written"].as_u64().unwrap();
    }
    assert_eq!(written, 5);
    let names = |dir: &std::path::Path| {
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    };
    assert_eq!(names(&parts), names(&whole), "no temporary file is left");
    for name in names(&whole) {
        assert_eq!(
            std::fs::read(parts.join(&name)).unwrap(),
            std::fs::read(whole.join(&name)).unwrap(),
            "{name}"
        );
    }

    // Made already: a range again finds its chunks present.
    let o = run(&[
        &["datagen", "--out", out, "--chunks", "1..3", "--json"][..],
        &settings[..],
    ]
    .concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (v["chunks_present"].as_u64(), v["games_played"].as_u64()),
        (Some(2), Some(0))
    );
    assert_eq!(v["chunk_range"], serde_json::json!([1, 3]));

    for (range, needle) in [
        ("4..6", "give a range within 0..5"),
        ("5", "give a range within 0..5"),
        ("3..1", "--chunks 3..1: an empty range"),
        ("a..2", "not a chunk number"),
    ] {
        let o = run(&[
            &["datagen", "--out", out, "--chunks", range][..],
            &settings[..],
        ]
        .concat());
        assert_cli_error(&o, needle);
    }
    std::fs::remove_dir_all(whole).ok();
    std::fs::remove_dir_all(parts).ok();
}
