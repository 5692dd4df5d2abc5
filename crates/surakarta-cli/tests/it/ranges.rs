//! Every numeric argument of every command against hostile values: `0`,
//! `-1`, one past `u32`'s maximum, `u64`'s maximum, `NaN` and `1e308`. Each
//! is refused before any work (exit code 2, one `error:` line naming the
//! flag) or, where the value is valid, runs to a quick success; never a
//! panic, an abort, a hang or a huge allocation.

use crate::common::*;
use std::path::Path;
use std::time::Duration;

/// The hostile values every numeric argument is given.
const PROBES: [&str; 6] = [
    "0",
    "-1",
    "4294967296",
    "18446744073709551615",
    "NaN",
    "1e308",
];

/// The longest a valid value's run may take.
const LIMIT: Duration = Duration::from_secs(120);

/// One numeric argument: the command line it is added to (small inputs, so
/// that a valid value runs quickly), the flag (`--epochs`, or `<DEPTH>` for
/// a positional argument), the word its error must contain, and the probes
/// that are valid values.
struct Case {
    base: Vec<String>,
    flag: &'static str,
    names: &'static str,
    valid: &'static [&'static str],
}

fn case(base: &[&str], flag: &'static str, valid: &'static [&'static str]) -> Case {
    Case {
        base: base.iter().map(|s| (*s).to_string()).collect(),
        flag,
        names: flag,
        valid,
    }
}

/// `base` without `flag` and its value, with a fresh output path where
/// `{out}` stands: a valid run writes there, so that no two runs share a
/// file.
fn with_out(base: &[String], flag: &str, out: &Path) -> Vec<String> {
    let mut args = Vec::new();
    let mut words = base.iter();
    while let Some(word) = words.next() {
        if !flag.is_empty() && word == flag {
            words.next();
            continue;
        }
        args.push(word.replace("{out}", out.to_str().unwrap()));
    }
    args
}

const BIG: &[&str] = &["0", "4294967296", "18446744073709551615"];

/// The cases of every command; `dir` holds their inputs.
fn cases(dir: &Path, tables: &Path, small: &Path, data: &Path, record: &Path) -> Vec<Case> {
    let d = |p: &Path| p.to_str().unwrap().to_string();
    let (tables, small, data, record) = (d(tables), d(small), d(data), d(record));
    let fresh = d(&dir.join("fresh-tables"));
    let search = ["search", "--depth", "1"];
    let players = ["match", "--first", "depth=1", "--second", "depth=1"];
    let match_base = [&players[..], &["-n", "2", "--max-plies", "20"]].concat();
    let datagen = [
        "datagen",
        "--out",
        "{out}",
        "--games",
        "1",
        "--nodes",
        "50",
        "--max-plies",
        "10",
    ];
    let train = [
        "train",
        "--data",
        &data,
        "--out",
        "{out}",
        "--epochs",
        "1",
        "--batch",
        "64",
        "--threads",
        "1",
    ];
    let tune = [
        "tune",
        "--out",
        "{out}",
        "--depth",
        "1",
        "--iterations",
        "1",
        "--max-plies",
        "10",
        "--tune",
        "lmr-min-depth",
    ];
    let endgames = [
        "endgames",
        "--tb",
        &tables,
        "--pieces",
        "4",
        "--positions",
        "2",
        "--nodes",
        "100",
        "--eval",
        "classic",
    ];
    let serve = ["serve", "--bind", "127.0.0.1:0"];
    let mut cases = vec![
        Case {
            names: "depth",
            ..case(&["perft", "--"], "", &[])
        },
        case(&["perft", "1"], "--threads", &[]),
        case(&["tb", "generate", "--dir", &fresh], "--pieces", &[]),
        case(
            &["tb", "generate", "--pieces", "2", "--dir", "{out}"],
            "--threads",
            &[],
        ),
        case(
            &["tb", "generate", "--pieces", "2", "--dir", "{out}"],
            "--format",
            &[],
        ),
        case(
            &["tb", "generate", "--pieces", "2", "--dir", "{out}"],
            "--checkpoint-every",
            &["0"],
        ),
        case(
            &["tb", "generate", "--pieces", "2", "--dir", "{out}"],
            "--memory-limit",
            &["4294967296", "18446744073709551615", "1e308"],
        ),
        case(&["tb", "verify", "--dir", &small], "--threads", &[]),
        case(
            &["tb", "verify", "--dir", &small],
            "--memory-limit",
            &["4294967296", "18446744073709551615", "1e308"],
        ),
        case(
            &["tb", "verify", "--dir", &small],
            "--checkpoint-every",
            &["0"],
        ),
        case(&["tb", "plan", "--pieces", "4"], "--threads", &[]),
        case(&["tb", "plan"], "--pieces", &[]),
        case(&["tb", "plan", "--pieces", "4"], "--table-format", &[]),
        case(
            &["tb", "plan", "--pieces", "4"],
            "--max-mem",
            &["4294967296"],
        ),
        case(
            &["tb", "plan", "--pieces", "4"],
            "--max-time",
            &["4294967296"],
        ),
        case(&["tb", "compress", "--dir", &small], "--threads", &[]),
        case(&["search"], "--depth", &[]),
        case(&["search"], "--nodes", &[]),
        case(&["search"], "--movetime", &[]),
        case(&search, "--multipv", &[]),
        case(&search, "--threads", &[]),
        case(&search, "--hash", &[]),
        case(&search, "--level", &[]),
        case(
            &["search", "--depth", "1", "--level", "5"],
            "--level-seed",
            BIG,
        ),
        case(&["bench"], "--depth", &[]),
        case(&["bench", "--depth", "1", "--tb", &small], "--probes", &[]),
        case(&["bench", "--depth", "1"], "--threads", &[]),
        case(&["bench", "--depth", "1"], "--hash", &[]),
        case(&["play"], "--depth", &[]),
        case(&["play"], "--movetime", &[]),
        case(&["play", "--depth", "1"], "--clock", &[]),
        case(
            &["play", "--depth", "1", "--clock", "1"],
            "--increment",
            &["0"],
        ),
        case(
            &["play", "--depth", "1", "--record", &record],
            "--game",
            &[],
        ),
        case(&["analyse", &record], "--depth", &[]),
        case(&["analyse", &record], "--nodes", &[]),
        case(&["analyse", &record], "--movetime", &[]),
        case(&["analyse", &record, "--depth", "1"], "--game", &[]),
        case(&["show", &record], "--ply", &["0"]),
        case(&["show", &record], "--game", &[]),
        case(
            &[&players[..], &["--max-plies", "20"]].concat(),
            "--games",
            &[],
        ),
        case(&match_base, "--plies", &["0"]),
        case(
            &[&match_base[..], &["--openings", "random"]].concat(),
            "--pieces",
            &[],
        ),
        case(
            &[&match_base[..], &["--openings", "random"]].concat(),
            "--max-diff",
            &["0"],
        ),
        case(&match_base, "--seed", BIG),
        case(&match_base, "--balance", &[]),
        case(
            &[&match_base[..], &["--balance", "50"]].concat(),
            "--balance-nodes",
            &[],
        ),
        case(&[&players[..], &["-n", "2"]].concat(), "--max-plies", &[]),
        case(&match_base, "--concurrency", &[]),
        case(
            &[
                "match", "--first", "name=a", "--second", "name=b", "-n", "2",
            ],
            "--tc",
            &[],
        ),
        case(&datagen, "--games", &[]),
        case(&datagen, "--seed", BIG),
        case(&datagen, "--nodes", &[]),
        case(&datagen, "--threads", &[]),
        case(&datagen, "--hash", &[]),
        case(&datagen, "--max-plies", &[]),
        case(&datagen, "--games-per-chunk", &["4294967296"]),
        case(&datagen, "--adjudicate", &["0"]),
        case(&datagen, "--table-plies", &["0"]),
        case(&train, "--epochs", &[]),
        case(&train, "--batch", &[]),
        case(&train, "--lr", &[]),
        case(&train, "--lr-drop", &["0"]),
        case(&train, "--lambda", &["0"]),
        case(&train, "--scale", &[]),
        case(&train, "--max-score", &[]),
        case(&train, "--threads", &[]),
        case(&train, "--seed", BIG),
        case(&train, "--validation-share", &["0"]),
        case(&train, "--exact-share", &["0"]),
        case(&train, "--classic-share", &["0"]),
        case(&tune, "--iterations", &[]),
        case(&tune, "--pairs", &[]),
        case(&tune[..3], "--depth", &[]),
        case(&tune[..3], "--nodes", &[]),
        case(&tune[..3], "--movetime", &[]),
        case(&tune, "--r-end", &[]),
        case(&tune, "--plies", &["0"]),
        case(&tune, "--seed", BIG),
        case(&tune, "--balance", &[]),
        case(
            &[&tune[..], &["--balance", "50"]].concat(),
            "--balance-nodes",
            &[],
        ),
        case(&tune[..7], "--max-plies", &[]),
        case(&tune, "--concurrency", &[]),
        case(&tune, "--threads", &[]),
        case(&tune, "--hash", &[]),
        case(&endgames, "--pieces", &[]),
        case(&endgames[..5], "--positions", &[]),
        case(&endgames[..7], "--nodes", &[]),
        case(&endgames, "--seed", BIG),
        case(&endgames, "--threads", &[]),
    ];
    for flag in [
        "--threads",
        "--hash",
        "--max-movetime",
        "--max-analyses",
        "--analysis-memory",
        "--max-connections",
        "--idle-timeout",
        "--header-timeout",
    ] {
        cases.push(case(&serve, flag, &[]));
    }
    cases
}

/// A record file of one short game, for `play`, `analyse` and `show`.
fn record_file(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("game.rec");
    let o = run(&[
        "match",
        "--first",
        "depth=1",
        "--second",
        "depth=1",
        "-n",
        "2",
        "--max-plies",
        "6",
        "--record",
        path.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    path
}

/// Training data of one short self-play game, for `train`.
fn training_data(dir: &Path) -> std::path::PathBuf {
    let out = dir.join("data");
    let o = run(&[
        "datagen",
        "--out",
        out.to_str().unwrap(),
        "-n",
        "2",
        "--nodes",
        "50",
        "--max-plies",
        "40",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

#[test]
fn every_numeric_argument_is_refused_or_runs_quickly() {
    let dir = scratch_dir("ranges");
    let small = generated_tables("ranges-tables", 2);
    let record = record_file(&dir);
    let data = training_data(&dir);
    let mut failures = Vec::new();
    let mut run_number = 0;
    for case in cases(&dir, tables_up_to_5(), &small, &data, &record) {
        for probe in PROBES {
            run_number += 1;
            let out = dir.join(format!("out-{run_number}"));
            let mut args = with_out(&case.base, case.flag, &out);
            match case.flag {
                "" => args.push(probe.to_string()),
                flag => args.push(format!("{flag}={probe}")),
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = run_within(&args, LIMIT);
            let err = stderr(&o);
            let refused = o.status.code() == Some(2)
                && err.lines().count() == 1
                && err.starts_with("error: ")
                && err.to_lowercase().contains(&case.names.to_lowercase());
            let ok = if case.valid.contains(&probe) {
                o.status.success()
            } else {
                refused
            };
            if !ok || err.contains("panicked") {
                failures.push(format!("{args:?}: {:?} {err}", o.status.code()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(small);
}

/// `--tc` nonsense that used to be read as something else.
#[test]
fn time_controls_are_plain_and_long_enough() {
    for (tc, needle) in [
        ("1++1", "is not a time control"),
        ("1e-9", "is not a time control"),
        ("0.01", "the time must be at least 0.1 seconds"),
        ("+1", "is not a time control"),
        ("1+-1", "is not a time control"),
    ] {
        let o = run(&[
            "match", "--first", "name=a", "--second", "name=b", "--tc", tc,
        ]);
        assert_cli_error(&o, needle);
        assert!(
            stderr(&o).contains("'--tc <SECONDS+INC>'"),
            "{}",
            stderr(&o)
        );
    }
}

/// `--level-seed` without `--level` would be ignored: it is refused.
#[test]
fn a_level_seed_needs_a_level() {
    let o = run(&["search", "--depth", "1", "--level-seed", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--level <L>"), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
}

/// The games `match` writes can be read back: `--max-plies` stops at the
/// record reader's move limit.
#[test]
fn match_plies_stop_at_what_records_hold() {
    let limit = surakarta::record::MAX_RECORD_MOVES;
    let o = run(&[
        "match",
        "--first",
        "depth=1",
        "--second",
        "depth=1",
        "--rules",
        "pure",
        "--max-plies",
        &(limit + 1).to_string(),
    ]);
    assert_cli_error(&o, &format!("give 1 to {limit}"));
}
