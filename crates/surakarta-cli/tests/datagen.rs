//! `surakarta datagen` as a user runs it: chunk files, the manifest, the
//! summary, resuming, errors.

mod common;
use common::*;
use surakarta_search::network::data;

#[test]
fn datagen_writes_chunks_a_manifest_and_a_summary() {
    let out = fresh_path("datagen-out");
    let dir = out.to_str().unwrap();
    let o = run(&["datagen", "--out", dir, "--games", "4", "--nodes", "200"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("4 games played, "), "{text}");
    assert!(text.contains("positions met"), "{text}");
    assert!(text.contains("plies on average"), "{text}");
    let records = data::read(&out.join("chunk-000000.skdata")).expect("the chunk reads back");
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
        "--games 0",
    );
    assert!(!out.exists(), "nothing is made for bad arguments");
}
