//! `tb generate --pair` and `tb plan` end to end: the plan's JSON, and the
//! Makefile, Snakefile and Slurm script it writes, each run for real (Slurm
//! through a stand-in `sbatch`) and giving the tables of `tb generate
//! --pieces`, byte for byte.

use crate::common::{assert_cli_error, run, scratch_dir, stderr, stdout, BIN};
use std::path::{Path, PathBuf};
use std::process::Command;
use surakarta_index::{Indexer, Material, SymmetricIndexer};

/// The table files of a directory and their bytes, by name.
fn tables(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sktb"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

fn names(files: &[(String, Vec<u8>)]) -> Vec<&str> {
    files.iter().map(|f| f.0.as_str()).collect()
}

/// The tables `tb generate --pieces N` writes, for comparison.
/// The files `tb generate --pieces PIECES --format FORMAT` writes, made
/// once per test binary for each piece count and format.
fn reference(name: &str, pieces: u32, format: u32) -> Vec<(String, Vec<u8>)> {
    type Made = std::collections::HashMap<(u32, u32), Vec<(String, Vec<u8>)>>;
    static MADE: std::sync::Mutex<Option<Made>> = std::sync::Mutex::new(None);
    let mut made = MADE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let made = made.get_or_insert_with(Made::new);
    if let Some(files) = made.get(&(pieces, format)) {
        return files.clone();
    }
    let dir = scratch_dir(name);
    let o = run(&[
        "tb",
        "generate",
        "--pieces",
        &pieces.to_string(),
        "--format",
        &format.to_string(),
        "--dir",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = tables(&dir);
    std::fs::remove_dir_all(dir).unwrap();
    made.insert((pieces, format), out.clone());
    out
}

fn plan(args: &[&str]) -> String {
    let mut all = vec!["tb", "plan"];
    all.extend_from_slice(args);
    let o = run(&all);
    assert!(o.status.success(), "tb plan {args:?}: {}", stderr(&o));
    stdout(&o)
}

#[test]
fn json_plan_for_12_pieces_is_ordered_and_sized() {
    let text = plan(&[
        "--pieces",
        "12",
        "--dir",
        "/shared/tables",
        "--threads",
        "2",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["pieces"], 12);
    let pairs = v["pairs"].as_array().unwrap();
    // 1+1+2+2+3+3+4+4+5+5+6 pairs for 2 to 12 pieces.
    assert_eq!(pairs.len(), 36);
    let mut seen: Vec<&str> = Vec::new();
    let mut classes_seen = Vec::new();
    for p in pairs {
        let name = p["name"].as_str().unwrap();
        let deps = p["depends_on"].as_array().unwrap();
        for d in deps {
            let d = d.as_str().unwrap();
            assert!(
                seen.contains(&d),
                "{name} depends on {d}, not listed before it"
            );
        }
        // Every class its captures reach is in a listed dependency.
        let pieces = p["pieces"].as_u64().unwrap();
        for class in p["classes"].as_array().unwrap() {
            let m: Material = class.as_str().unwrap().parse().unwrap();
            assert_eq!(u64::from(m.pieces()), pieces);
            if m.them() > 1 {
                let target = m.after_capture().unwrap();
                let pair_name = if target.us() >= target.them() {
                    target
                } else {
                    target.swapped()
                };
                assert!(deps.iter().any(|d| d == &pair_name.to_string()), "{m}");
            }
            classes_seen.push(m);
        }
        let class_positions = p["class_positions"].as_array().unwrap();
        let sum: u64 = class_positions.iter().map(|x| x.as_u64().unwrap()).sum();
        assert_eq!(p["positions"].as_u64().unwrap(), sum);
        let outputs: Vec<&str> = p["outputs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o.as_str().unwrap())
            .collect();
        let expected: Vec<String> = p["classes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| format!("/shared/tables/{}.sktb", c.as_str().unwrap()))
            .collect();
        assert_eq!(outputs, expected);
        for key in ["memory_bytes", "disk_bytes", "memory_request_mib"] {
            assert!(p[key].as_u64().unwrap() > 0, "{name} {key}");
        }
        assert!(p["seconds_estimate"].as_f64().unwrap() > 0.0);
        seen.push(name);
    }
    // Every class of 2 to 12 pieces once.
    let expected: usize = (2..=12).map(|n| Material::with_pieces(n).count()).sum();
    assert_eq!(classes_seen.len(), expected);
    // Positions are the index sizes: built indexers for small classes, and
    // the totals docs/index.md measured by building the 9- and 10-piece
    // directories.
    let positions_of = |class: &str| -> u64 {
        let p = pairs
            .iter()
            .find(|p| p["classes"].as_array().unwrap().iter().any(|c| c == class))
            .unwrap();
        let i = p["classes"]
            .as_array()
            .unwrap()
            .iter()
            .position(|c| c == class)
            .unwrap();
        p["class_positions"][i].as_u64().unwrap()
    };
    for class in ["2v1", "2v2", "4v3", "3v4", "4v4", "7v1"] {
        let m: Material = class.parse().unwrap();
        assert_eq!(
            positions_of(class),
            SymmetricIndexer::new(m).size(),
            "{class}"
        );
    }
    let by_pieces = v["by_pieces"].as_array().unwrap();
    let total = |n: u64| {
        by_pieces.iter().find(|t| t["pieces"] == n).unwrap()["positions"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(total(9), 6_003_918_900);
    assert_eq!(total(10), 32_483_423_784);
    let six_six = pairs.iter().find(|p| p["name"] == "6v6").unwrap();
    assert_eq!(six_six["depends_on"], serde_json::json!(["6v5"]));
    assert!(six_six["positions"].as_u64().unwrap() > 140_000_000_000);
    let sum: u64 = by_pieces
        .iter()
        .map(|t| t["positions"].as_u64().unwrap())
        .sum();
    assert_eq!(v["totals"]["positions"].as_u64().unwrap(), sum);

    // Format 1 disk figures are exact: a byte per slot and a 128-byte header.
    let v1: serde_json::Value =
        serde_json::from_str(&plan(&["--pieces", "6", "--table-format", "1"])).unwrap();
    for p in v1["pairs"].as_array().unwrap() {
        let classes = p["classes"].as_array().unwrap().len() as u64;
        assert_eq!(
            p["disk_bytes"].as_u64().unwrap(),
            p["positions"].as_u64().unwrap() + 128 * classes
        );
    }
}

#[test]
fn plan_input_errors_exit_2() {
    for (args, needle) in [
        (
            vec!["tb", "plan", "--pieces", "1"],
            "invalid value '1' for '--pieces <N>': out of range: give 2 to 24",
        ),
        (vec!["tb", "plan", "--pieces", "25"], "out of range"),
        (
            vec!["tb", "plan", "--pieces", "5", "--threads", "0"],
            "--threads 0",
        ),
        (
            vec![
                "tb",
                "plan",
                "--pieces",
                "5",
                "--format",
                "make",
                "--dir",
                "my tables",
            ],
            "cannot go in a Makefile",
        ),
    ] {
        assert_cli_error(&run(&args), needle);
    }
    let o = run(&["tb", "plan", "--pieces", "5", "--format", "xml"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Caps and cluster settings: requests capped, a pair above the memory
/// cap refused up front, a pair above the time cap split into jobs (JSON)
/// or retried (Snakefile), values that are not one plain word refused.
#[test]
fn requests_are_capped_and_checked() {
    let v: serde_json::Value = serde_json::from_str(&plan(&[
        "--pieces",
        "10",
        "--threads",
        "2",
        "--max-mem",
        "20000",
        "--max-time",
        "120",
        "--partition",
        "big",
        "--qos",
        "normal",
        "--sbatch-option=--constraint=ib",
    ]))
    .unwrap();
    assert_eq!(v["requests"]["max_mem_mib"], 20000);
    assert_eq!(v["requests"]["sbatch_options"][0], "--constraint=ib");
    let pair = |name: &str| {
        v["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap()
            .clone()
    };
    // 6v4: its model (18,517 MiB) fits, its request with the margin
    // (23,146 MiB) is capped; 5v5's (16,318 MiB) is not.
    let six = pair("6v4");
    assert_eq!(six["memory_request_mib"], 20000, "{six}");
    assert_eq!(six["memory_model_mib"], 18517, "{six}");
    assert_eq!(pair("5v5")["memory_request_mib"], 16318);
    // 6v4 asks for 400 minutes: four jobs of 120.
    assert_eq!(
        (six["time_limit_minutes"].as_u64(), six["jobs"].as_u64()),
        (Some(120), Some(4)),
        "{six}"
    );
    assert_eq!(pair("1v1")["jobs"], 1);

    // Under a cap below its model, 6v4 is planned with its state mapped
    // from work files: given the cap, its command the limit.
    let capped: serde_json::Value = serde_json::from_str(&plan(&[
        "--pieces",
        "10",
        "--threads",
        "2",
        "--max-mem",
        "16000",
    ]))
    .unwrap();
    let six = capped["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "6v4")
        .unwrap();
    assert_eq!(six["mapped"], true, "{six}");
    assert_eq!(six["memory_model_mib"], 16000, "{six}");
    assert!(six["work_bytes"].as_u64().unwrap() > 15 << 30, "{six}");
    let five = capped["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "5v5")
        .unwrap();
    assert_eq!(
        (&five["mapped"], &five["work_bytes"]),
        (&false.into(), &0.into())
    );
    let snakefile = plan(&[
        "--pieces",
        "10",
        "--threads",
        "2",
        "--max-mem",
        "16000",
        "--format",
        "snakemake",
    ]);
    let six_command = snakefile
        .lines()
        .find(|l| l.contains("--pair 6v4"))
        .unwrap();
    assert!(
        six_command.contains("--memory-limit 15.625"),
        "{six_command}"
    );
    assert!(snakefile
        .lines()
        .filter(|l| l.contains("--pair 5v5"))
        .all(|l| !l.contains("--memory-limit")));

    // The memory cap is checked against the model, mapped too, for every
    // format.
    for format in ["json", "slurm", "snakemake", "make"] {
        assert_cli_error(
            &run(&[
                "tb",
                "plan",
                "--pieces",
                "10",
                "--threads",
                "2",
                "--max-mem",
                "4000",
                "--format",
                format,
            ]),
            "pair 6v4 needs about 18.1 GiB by the plan's model (18,517 MiB), and 5.7 GiB with \
             its state mapped from work files, above --max-mem 4000",
        );
    }
    for (flag, value) in [
        ("--partition", "a b"),
        ("--account", "x;reboot"),
        ("--qos", ""),
        ("--sbatch-option", "--wrap='rm -rf /'"),
    ] {
        let o = run(&[
            "tb", "plan", "--pieces", "5", "--format", "slurm", flag, value,
        ]);
        assert_cli_error(&o, &format!("{flag} "));
    }

    let snake = plan(&[
        "--pieces",
        "6",
        "--threads",
        "1",
        "--format",
        "snakemake",
        "--max-time",
        "4",
        "--partition",
        "big",
        "--account",
        "lab",
        "--qos",
        "long",
        "--sbatch-option=--hold",
    ]);
    assert!(snake.contains("        runtime=4,\n        slurm_partition=\"big\",\n        slurm_account=\"lab\",\n        qos=\"long\",\n        slurm_extra=\"--hold\",\n    retries: 2\n"), "{snake}");
    assert!(snake.contains("--checkpoint-every=60\""), "{snake}");
}

#[test]
fn pair_by_pair_equals_pieces_and_missing_dependencies_are_named() {
    let want = reference("pair-ref", 4, 1);
    let dir = scratch_dir("pair-by-pair");
    let d = dir.to_str().unwrap();
    // Out of order: 3v1 needs 2v1 (where captures from 1v3 lead).
    let o = run(&[
        "tb", "generate", "--pair", "1v3", "--dir", d, "--format", "1",
    ]);
    assert_cli_error(
        &o,
        &format!(
            "missing table 2v1 needed by pair 3v1: {}",
            dir.join("2v1.sktb").display()
        ),
    );
    for pair in ["1v1", "2v1", "3v1", "2v2"] {
        let o = run(&[
            "tb", "generate", "--pair", pair, "--dir", d, "--format", "1", "--json",
        ]);
        assert!(o.status.success(), "{pair}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["pair"], pair);
        assert_eq!(v["skipped"], 0);
    }
    let got = tables(&dir);
    assert_eq!(names(&got), names(&want));
    assert!(got == want, "--pair tables differ from --pieces tables");
    // Again: present, so skipped.
    let o = run(&["tb", "generate", "--pair", "2v1", "--dir", d, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["skipped"], 2);
    // A damaged dependency is named.
    let path = dir.join("2v1.sktb");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    std::fs::remove_file(dir.join("3v1.sktb")).unwrap();
    let o = run(&["tb", "generate", "--pair", "3v1", "--dir", d]);
    assert_cli_error(&o, "table 2v1 needed by pair 3v1 is unusable");
    // --pair and --pieces exclude each other; one is needed.
    let o = run(&[
        "tb", "generate", "--pair", "3v1", "--pieces", "4", "--dir", d,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
    let o = run(&["tb", "generate", "--dir", d]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--pair"), "{}", stderr(&o));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn makefile_runs_with_make_j2_and_gives_the_same_tables() {
    let want = reference("make-ref", 5, 2);
    let work = scratch_dir("make");
    let dir = work.join("tables");
    let makefile = work.join("Makefile");
    let text = plan(&[
        "--pieces",
        "5",
        "--format",
        "make",
        "--dir",
        dir.to_str().unwrap(),
        "--binary",
        BIN,
    ]);
    std::fs::write(&makefile, &text).unwrap();
    let make = |args: &[&str]| {
        Command::new("make")
            .args(args)
            .arg("-f")
            .arg(&makefile)
            .current_dir(&work)
            .output()
            .expect("run make (GNU make 4.3 or newer must be installed)")
    };
    let o = make(&["-j2"]);
    assert!(o.status.success(), "make: {}\n{}", stdout(&o), stderr(&o));
    // Each pair ran once.
    let runs = stdout(&o).matches("tb generate --pair").count();
    assert_eq!(runs, 6, "{}", stdout(&o));
    let got = tables(&dir);
    assert_eq!(names(&got), names(&want));
    assert!(got == want, "the Makefile's tables differ from --pieces 5");
    // Up to date: make -q says so, and nothing runs again.
    assert!(make(&["-q"]).status.success());
    // A deleted table is made again, alone.
    std::fs::remove_file(dir.join("3v2.sktb")).unwrap();
    let o = make(&["-j2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).matches("tb generate --pair").count(),
        1,
        "{}",
        stdout(&o)
    );
    assert!(tables(&dir) == want);
    std::fs::remove_dir_all(work).unwrap();
}

/// A stand-in for Slurm's `sbatch`: runs each job at once (after checking
/// that every job it depends on ran, and for `afterok` succeeded), logs its
/// arguments, and prints `ID;cluster` as `--parsable` does on a
/// multi-cluster setup. A job whose name starts with `$FAKE_SBATCH_REFUSE`
/// is refused as Slurm refuses a request no node can satisfy.
const FAKE_SBATCH: &str = r#"#!/usr/bin/env bash
set -eu
state=$FAKE_SBATCH_STATE
wrap= after= any= mem= name=
for a in "$@"; do
    case $a in
        --wrap=*) wrap=${a#--wrap=} ;;
        --dependency=*)
            IFS=, read -ra kinds <<< "${a#--dependency=}"
            for kind in "${kinds[@]}"; do
                case $kind in
                    afterok:*) after=${kind#afterok:} ;;
                    afterany:*) any=${kind#afterany:} ;;
                esac
            done
            ;;
        --mem=*) mem=${a#--mem=} ;;
        --job-name=*) name=${a#--job-name=} ;;
    esac
done
[ -n "$wrap" ] && [ -n "$mem" ] && [ -n "$name" ] || { echo "fake sbatch: no --wrap, --mem or --job-name" >&2; exit 1; }
if [ -n "${FAKE_SBATCH_REFUSE:-}" ] && [ "${name#"$FAKE_SBATCH_REFUSE"}" != "$name" ]; then
    echo "sbatch: error: Memory specification can not be satisfied" >&2
    echo "sbatch: error: Batch job submission failed: Requested node configuration is not available" >&2
    exit 1
fi
if [ -n "$after" ]; then
    IFS=: read -ra ids <<< "$after"
    for id in "${ids[@]}"; do
        grep -qx "ok $id" "$state/done" || { echo "fake sbatch: job $id did not succeed" >&2; exit 1; }
    done
fi
if [ -n "$any" ]; then
    grep -q " $any\$" "$state/done" || { echo "fake sbatch: job $any did not run" >&2; exit 1; }
fi
id=$(( $(wc -l < "$state/calls") + 100 ))
printf '%s\n' "$*" >> "$state/calls"
if sh -c "$wrap" > "$state/job-$id.out" 2>&1; then echo "ok $id" >> "$state/done"; else echo "failed $id" >> "$state/done"; fi
echo "$id;cluster"
"#;

/// A stand-in for `squeue --noheader --format='%i %j'`: the lines of the
/// state's `queue` file (the jobs a test says are queued).
const FAKE_SQUEUE: &str = "#!/bin/sh\ncat \"$FAKE_SBATCH_STATE/queue\"\n";

/// Installs the stand-ins for `sbatch`, `squeue` and `scancel` under
/// `work`: the `PATH` that finds them first, and their state directory
/// (`calls`, `done`, `queue`).
fn fake_sbatch(work: &Path) -> (String, PathBuf) {
    let bin = work.join("bin");
    let state = work.join("state");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&state).unwrap();
    for file in ["calls", "done", "queue"] {
        std::fs::write(state.join(file), "").unwrap();
    }
    use std::os::unix::fs::PermissionsExt;
    for (name, text) in [
        ("sbatch", FAKE_SBATCH),
        ("squeue", FAKE_SQUEUE),
        ("scancel", "#!/bin/sh\n"),
    ] {
        let tool = bin.join(name);
        std::fs::write(&tool, text).unwrap();
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (path, state)
}

#[test]
fn slurm_script_chains_jobs_by_dependencies() {
    let want = reference("slurm-ref", 5, 2);
    let work = scratch_dir("slurm");
    let (path, state) = fake_sbatch(&work);
    let dir = work.join("shared tables");
    let script = work.join("submit.sh");
    let text = plan(&[
        "--pieces",
        "5",
        "--format",
        "slurm",
        "--dir",
        dir.to_str().unwrap(),
        "--binary",
        BIN,
    ]);
    std::fs::write(&script, &text).unwrap();
    let submit = |env: &[(&str, &str)]| {
        Command::new("bash")
            .arg(&script)
            .env("PATH", &path)
            .env("FAKE_SBATCH_STATE", &state)
            .envs(env.iter().copied())
            .current_dir(&work)
            .output()
            .expect("run bash")
    };
    let calls = || std::fs::read_to_string(state.join("calls")).unwrap();
    let o = submit(&[]);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    let first = calls();
    let lines: Vec<&str> = first.lines().collect();
    assert_eq!(lines.len(), 6, "{first}");
    // 3v2 waits for 3v1 (job 102) and 2v2 (job 103).
    let three_two = lines.iter().find(|l| l.contains("tb-3v2-")).unwrap();
    assert!(
        three_two.contains("--dependency=afterok:102:103"),
        "{three_two}"
    );
    assert!(lines[0].contains("--mem=256M") && !lines[0].contains("--dependency"));
    let done = std::fs::read_to_string(state.join("done")).unwrap();
    assert_eq!(
        done.matches("ok ").count(),
        6,
        "every job succeeded: {done}"
    );
    let got = tables(&dir);
    assert!(got == want, "{:?} vs {:?}", names(&got), names(&want));
    // Submitting again submits nothing: every pair's tables are there.
    let o = submit(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o)
            .contains("submitted 0 jobs; 0 pairs queued or running already; 6 pairs there already"),
        "{}",
        stdout(&o)
    );
    assert_eq!(calls(), first);

    // A refused pair stops only the pairs that need it: 4v1 is refused,
    // 2v2 (which does not need it) is submitted, and the script ends by
    // saying what was refused and why (exit code 1).
    for table in ["4v1", "2v2", "3v2", "2v3"] {
        std::fs::remove_file(dir.join(format!("{table}.sktb"))).unwrap();
    }
    let o = submit(&[("FAKE_SBATCH_REFUSE", "tb-4v1-")]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("4v1: sbatch refused it: Memory specification can not be satisfied; Batch job submission failed"),
        "{}",
        stderr(&o)
    );
    let added = calls()[first.len()..].to_string();
    assert_eq!(added.lines().count(), 2, "{added}");
    assert!(
        added.contains("tb-2v2-") && added.contains("tb-3v2-"),
        "{added}"
    );
    assert!(!dir.join("4v1.sktb").exists() && dir.join("3v2.sktb").exists());

    // A pair whose job is queued is not submitted again, and its job is
    // what the pairs needing it wait for.
    let tag = first
        .split("--job-name=tb-1v1-")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap()
        .to_string();
    std::fs::write(state.join("queue"), format!("555 tb-4v1-{tag}\n")).unwrap();
    let before = calls();
    let o = submit(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("4v1: queued or running already (job 555)"),
        "{}",
        stdout(&o)
    );
    assert_eq!(calls(), before);
    std::fs::write(state.join("queue"), "").unwrap();

    // A damaged table is moved aside and its pair made again; a pair that
    // needs longer than MAX_TIME runs as a chain of jobs.
    let mut damaged = std::fs::read(dir.join("2v1.sktb")).unwrap();
    damaged.push(0);
    std::fs::write(dir.join("2v1.sktb"), &damaged).unwrap();
    let o = submit(&[("MAX_TIME", "4")]);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("2v1.sktb is damaged"), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("2v1: submitted as 3 jobs of 4 minutes"),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        std::fs::read(dir.join("2v1.sktb.damaged")).unwrap(),
        damaged
    );
    let added = calls()[before.len()..].to_string();
    assert!(added.contains("--dependency=afterany:"), "{added}");
    assert!(added.contains("--checkpoint-every=60"), "{added}");
    let got = tables(&dir);
    assert!(got == want, "{:?} vs {:?}", names(&got), names(&want));

    // A memory cap below a pair's model refuses it before sbatch; a bad
    // setting is refused before anything.
    std::fs::remove_file(dir.join("3v2.sktb")).unwrap();
    let o = submit(&[("MAX_MEM", "1")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("3v2: not submitted: the model needs "),
        "{}",
        stderr(&o)
    );
    let o = submit(&[("MAX_TIME", "ten")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("MAX_TIME=ten: give a whole number above 0"),
        "{}",
        stderr(&o)
    );
    // A number bash's arithmetic would wrap is refused by its length.
    for name in ["MAX_TIME", "MAX_MEM", "THREADS"] {
        let o = submit(&[(name, "12345678901234567890123")]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!(
                "{name}=12345678901234567890123: give a whole number above 0 of at most 18 digits"
            )),
            "{}",
            stderr(&o)
        );
    }
    std::fs::remove_dir_all(work).unwrap();
}

/// A virtual environment with Snakemake, made once under the target
/// directory and checked once per test run (the tests that use it wait for
/// the first); `Err` says why it could not be.
fn snakemake() -> Result<PathBuf, String> {
    static FOUND: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    FOUND.get_or_init(find_or_install_snakemake).clone()
}

fn find_or_install_snakemake() -> Result<PathBuf, String> {
    let venv = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("snakemake-venv");
    let exe = venv.join("bin").join("snakemake");
    let works = |exe: &Path| {
        Command::new(exe)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if works(&exe) {
        return Ok(exe);
    }
    let _ = std::fs::remove_dir_all(&venv);
    let o = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .output()
        .map_err(|e| format!("python3: {e}"))?;
    if !o.status.success() {
        return Err(format!("python3 -m venv failed: {}", stderr(&o)));
    }
    let o = Command::new(venv.join("bin").join("pip"))
        .args([
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "snakemake",
        ])
        .output()
        .map_err(|e| format!("pip: {e}"))?;
    if !o.status.success() || !works(&exe) {
        let _ = std::fs::remove_dir_all(&venv);
        let err = stderr(&o);
        return Err(format!(
            "pip install snakemake failed: {}",
            err.lines().last().unwrap_or("")
        ));
    }
    Ok(exe)
}

#[test]
fn snakefile_runs_with_snakemake_and_gives_the_same_tables() {
    let snakemake = match snakemake() {
        Ok(exe) => exe,
        Err(why) => {
            eprintln!("skipped: Snakemake is not available here ({why})");
            return;
        }
    };
    let want = reference("snakemake-ref", 4, 2);
    let work = scratch_dir("snakemake");
    let dir = work.join("tables");
    let snakefile = work.join("Snakefile");
    let text = plan(&[
        "--pieces",
        "4",
        "--format",
        "snakemake",
        "--dir",
        dir.to_str().unwrap(),
        "--binary",
        BIN,
    ]);
    std::fs::write(&snakefile, &text).unwrap();
    let run_snakemake = || {
        Command::new(&snakemake)
            .arg("-j2")
            .arg("--snakefile")
            .arg(&snakefile)
            .arg("--directory")
            .arg(&work)
            .env("HOME", &work)
            .output()
            .expect("run snakemake")
    };
    let o = run_snakemake();
    let log = format!("{}\n{}", stdout(&o), stderr(&o));
    assert!(o.status.success(), "snakemake: {log}");
    let got = tables(&dir);
    assert_eq!(names(&got), names(&want), "{log}");
    assert!(got == want, "Snakemake's tables differ from --pieces 4");
    // Snakemake's own resume: nothing to do the second time.
    let o = run_snakemake();
    let log = format!("{}\n{}", stdout(&o), stderr(&o));
    assert!(o.status.success(), "{log}");
    assert!(log.contains("Nothing to be done"), "{log}");
    std::fs::remove_dir_all(work).unwrap();
}

/// A directory name for the Snakefile, the Slurm script and the JSON plan
/// (the workflows get it relative: a leading `-` that would read as an
/// option), then a line break and Python code (as if a comment ended),
/// quotes, `$`, backticks and `$(…)` that would run `touch MARKER` if a
/// shell or Python interpreted them, `;`, `&`, `|`, a backslash, a closing
/// brace and a non-ASCII letter.
const HOSTILE_DIR: &str = "-t\nimport os; os.system('touch MARKER')\n# $HOME `touch MARKER` \
                           $(touch MARKER) \"dq\" 'sq' ; & | \\ } é";

/// A directory name make can hold (no blank, `;`, `:`, `|`, parenthesis):
/// a leading `-`, `$`, backticks that would run `touch MARKER`, quotes, `#`, braces, `=`
/// and others that make or the shell would read if they were not escaped.
const HOSTILE_MAKE_DIR: &str = "-t$HOME${IFS}`touch${IFS}MARKER`'sq'\"dq\"#{x}{threads}!&=,@+^é";

/// A directory for the program under a name with shell, Python and make
/// metacharacters (`line_break` adds one, which make cannot hold), holding
/// a link to the binary under test; returns the link.
fn hostile_binary(work: &Path, line_break: bool) -> PathBuf {
    let name = format!(
        "bin $HOME `touch MARKER` $(touch MARKER) 'sq' \"dq\" {{x}} {{threads}} ; # é{}",
        if line_break { "\nimport os" } else { "" }
    );
    let dir = work.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("surakarta");
    std::os::unix::fs::symlink(BIN, &link).unwrap();
    link
}

/// No file named `MARKER` anywhere under `work` or in this process's
/// directory: nothing ran the `touch` that the hostile names carry.
fn assert_no_marker(work: &Path) {
    fn walk(dir: &Path) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            assert!(
                path.file_name().is_none_or(|n| n != "MARKER"),
                "an injected command ran: {}",
                path.display()
            );
            if path.is_dir() && !path.is_symlink() {
                walk(&path);
            }
        }
    }
    walk(work);
    let here = std::env::current_dir().unwrap().join("MARKER");
    assert!(
        !here.exists(),
        "an injected command ran: {}",
        here.display()
    );
}

#[test]
fn json_plan_names_hostile_paths_exactly() {
    let dir = format!("{HOSTILE_DIR} {{x}}");
    let binary = "/opt/x y/$(touch MARKER)\n\"sur\"akarta";
    let v: serde_json::Value = serde_json::from_str(&plan(&[
        "--pieces",
        "3",
        &format!("--dir={dir}"),
        "--binary",
        binary,
    ]))
    .unwrap();
    assert_eq!(v["dir"], dir.as_str());
    assert_eq!(v["binary"], binary);
    assert_eq!(v["pairs"][1]["outputs"][0], format!("{dir}/2v1.sktb"));
}

#[test]
fn makefile_with_hostile_paths_writes_exactly_there() {
    let want = reference("make-hostile-ref", 3, 2);
    let work = scratch_dir("make-hostile");
    let dir = work.join(HOSTILE_MAKE_DIR);
    let relative = HOSTILE_MAKE_DIR;
    let binary = hostile_binary(&work, false);
    let makefile = work.join("Makefile");
    let text = plan(&[
        "--pieces",
        "3",
        "--format",
        "make",
        &format!("--dir={relative}"),
        "--binary",
        binary.to_str().unwrap(),
    ]);
    std::fs::write(&makefile, &text).unwrap();
    let make = |args: &[&str]| {
        Command::new("make")
            .args(args)
            .arg("-f")
            .arg(&makefile)
            .current_dir(&work)
            .output()
            .expect("run make (GNU make 4.3 or newer must be installed)")
    };
    let o = make(&["-n"]);
    assert!(
        o.status.success(),
        "make -n: {}\n{}",
        stdout(&o),
        stderr(&o)
    );
    assert_eq!(stdout(&o).matches("tb generate --pair").count(), 2);
    assert_no_marker(&work);
    let o = make(&["-j2"]);
    assert!(o.status.success(), "make: {}\n{}", stdout(&o), stderr(&o));
    assert_no_marker(&work);
    let got = tables(&dir);
    assert_eq!(names(&got), names(&want), "{}", stdout(&o));
    assert!(got == want, "the tables differ from --pieces 3");
    assert!(make(&["-q"]).status.success(), "up to date");
    std::fs::remove_dir_all(work).unwrap();
}

#[test]
fn slurm_script_with_hostile_paths_writes_exactly_there() {
    let want = reference("slurm-hostile-ref", 3, 2);
    let work = scratch_dir("slurm-hostile");
    let (path, state) = fake_sbatch(&work);
    let relative = format!("{HOSTILE_DIR} {{x}} {{threads}}");
    let dir = work.join(&relative);
    let binary = hostile_binary(&work, true);
    let script = work.join("submit.sh");
    let text = plan(&[
        "--pieces",
        "3",
        "--format",
        "slurm",
        &format!("--dir={relative}"),
        "--binary",
        binary.to_str().unwrap(),
    ]);
    std::fs::write(&script, &text).unwrap();
    let o = Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .unwrap();
    assert!(o.status.success(), "bash -n: {}", stderr(&o));
    // The stand-in sbatch runs each job's --wrap with sh, as Slurm does.
    let o = Command::new("bash")
        .arg(&script)
        .env("PATH", &path)
        .env("FAKE_SBATCH_STATE", &state)
        .current_dir(&work)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    assert_no_marker(&work);
    let done = std::fs::read_to_string(state.join("done")).unwrap();
    assert_eq!(done.lines().count(), 2, "every job succeeded: {done}");
    let got = tables(&dir);
    assert_eq!(names(&got), names(&want));
    assert!(got == want, "the tables differ from --pieces 3");
    std::fs::remove_dir_all(work).unwrap();
}

#[test]
fn snakefile_with_hostile_paths_writes_exactly_there() {
    let snakemake = match snakemake() {
        Ok(exe) => exe,
        Err(why) => {
            eprintln!("skipped: Snakemake is not available here ({why})");
            return;
        }
    };
    let want = reference("snakemake-hostile-ref", 3, 2);
    let work = scratch_dir("snakemake-hostile");
    let relative = HOSTILE_DIR;
    let dir = work.join(relative);
    let binary = hostile_binary(&work, true);
    let snakefile = work.join("Snakefile");
    let text = plan(&[
        "--pieces",
        "3",
        "--format",
        "snakemake",
        &format!("--dir={relative}"),
        "--binary",
        binary.to_str().unwrap(),
    ]);
    std::fs::write(&snakefile, &text).unwrap();
    let run_snakemake = |args: &[&str]| {
        Command::new(&snakemake)
            .args(args)
            .arg("--snakefile")
            .arg(&snakefile)
            .arg("--directory")
            .arg(&work)
            .env("HOME", &work)
            .current_dir(&work)
            .output()
            .expect("run snakemake")
    };
    let o = run_snakemake(&["-n"]);
    let log = format!("{}\n{}", stdout(&o), stderr(&o));
    assert!(o.status.success(), "snakemake -n: {log}");
    assert_no_marker(&work);
    let o = run_snakemake(&["-j1"]);
    let log = format!("{}\n{}", stdout(&o), stderr(&o));
    assert!(o.status.success(), "snakemake: {log}");
    assert_no_marker(&work);
    let got = tables(&dir);
    assert_eq!(names(&got), names(&want), "{log}");
    assert!(got == want, "the tables differ from --pieces 3");
    std::fs::remove_dir_all(work).unwrap();
}

#[test]
fn workflow_values_that_cannot_be_made_safe_exit_2() {
    let refused = |format: &str, dir: &str, binary: &str, needle: &str| {
        let o = run(&[
            "tb", "plan", "--pieces", "3", "--format", format, "--dir", dir, "--binary", binary,
        ]);
        assert_cli_error(&o, needle);
    };
    // Snakemake reads `{name}` in a file name as a wildcard.
    refused(
        "snakemake",
        "tabs{x}",
        "surakarta",
        "--dir \"tabs{x}\" cannot go in a Snakefile",
    );
    // Make splits file names at blanks, and gives `:`, `;`, `|`, `%` and
    // wildcards meanings in rules; no make line holds a line break.
    for dir in [
        "my tables",
        "t\tx",
        "t\nx",
        "a:b",
        "a;b",
        "a|b",
        "a%b",
        "a*b",
        "a?b",
        "a[b]",
        "a(b)",
        "~x",
        "a\\b",
        "",
    ] {
        let shown = format!("{dir:?}");
        refused(
            "make",
            dir,
            "surakarta",
            &format!("--dir {shown} cannot go in a Makefile"),
        );
    }
    refused(
        "make",
        "tables",
        "sura\nkarta",
        "--binary \"sura\\nkarta\" cannot go in a Makefile",
    );
    // An empty path names nothing, in any workflow.
    for format in ["snakemake", "slurm"] {
        refused(format, "", "surakarta", "--dir \"\" cannot go in a");
        refused(format, "tables", "", "--binary \"\" cannot go in a");
    }
    // bash reads a command starting with `%` as a job, even quoted: a
    // bare program name so named cannot be run by any of the workflows.
    for (format, workflow) in [
        ("snakemake", "a Snakefile"),
        ("slurm", "a Slurm script"),
        ("make", "a Makefile"),
    ] {
        refused(
            format,
            "tables",
            "%d%s %n",
            &format!("--binary \"%d%s %n\" cannot go in {workflow}: bash reads a command starting with '%' as a job"),
        );
    }
}

/// A relative program path starting with `%` (which bash would read as a
/// job, "fg: no job control") runs as `./%…`, the same file, even when
/// bash runs the recipes.
#[test]
fn a_program_path_starting_with_a_percent_sign_runs_under_bash() {
    let want = reference("percent-binary-ref", 3, 2);
    let work = scratch_dir("percent-binary");
    let bin_dir = work.join("%d%s %n");
    std::fs::create_dir_all(&bin_dir).unwrap();
    std::os::unix::fs::symlink(BIN, bin_dir.join("surakarta")).unwrap();
    let makefile = work.join("Makefile");
    let text = plan(&[
        "--pieces",
        "3",
        "--format",
        "make",
        "--dir=tables",
        "--binary",
        "%d%s %n/surakarta",
    ]);
    std::fs::write(&makefile, &text).unwrap();
    let o = Command::new("make")
        .args(["SHELL=/bin/bash", "-f"])
        .arg(&makefile)
        .current_dir(&work)
        .output()
        .expect("run make (GNU make 4.3 or newer must be installed)");
    assert!(o.status.success(), "make: {}\n{}", stdout(&o), stderr(&o));
    let got = tables(&work.join("tables"));
    assert_eq!(names(&got), names(&want), "{}", stdout(&o));
    assert!(got == want, "the tables differ from --pieces 3");
    // The other workflows write the same `./` path.
    for format in ["snakemake", "slurm"] {
        let text = plan(&[
            "--pieces",
            "3",
            "--format",
            format,
            "--dir=tables",
            "--binary",
            "%d%s %n/surakarta",
        ]);
        assert!(text.contains("./%d%s %n/surakarta"), "{format}: {text}");
    }
    std::fs::remove_dir_all(work).unwrap();
}
