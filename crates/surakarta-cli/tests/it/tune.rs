//! `surakarta tune` as a user runs it: the parameter list, a short run that
//! writes its state and resumes from it, refusals; and the search
//! parameters where the other commands take them (`bench`, `match`, the
//! engine protocol).

use crate::common::*;

/// The bench signature of `--parameters TEXT` (one thread, the default
/// positions at depth 4).
fn signature(parameters: &str) -> String {
    let o = run(&["bench", "--depth", "4", "--parameters", parameters]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    out.lines()
        .find_map(|l| l.strip_prefix("signature "))
        .unwrap_or_else(|| panic!("no signature in {out}"))
        .to_string()
}

#[test]
fn the_list_names_every_parameter_with_its_range() {
    let o = run(&["tune", "--list", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let list: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), surakarta_search::PARAMETER_COUNT);
    for entry in list {
        let (default, min, max) = (
            entry["default"].as_i64().unwrap(),
            entry["min"].as_i64().unwrap(),
            entry["max"].as_i64().unwrap(),
        );
        assert!(min <= default && default <= max, "{entry}");
    }
    let text = stdout(&run(&["tune", "--list"]));
    assert!(text.contains("lmr-min-depth"), "{text}");
}

#[test]
fn a_run_writes_its_state_resumes_and_refuses_other_settings() {
    let dir = scratch_dir("tune-run");
    let state = dir.join("tune.txt");
    let state_arg = state.to_str().unwrap();
    let base = [
        "tune",
        "--out",
        state_arg,
        "--depth",
        "2",
        "--tune",
        "lmr-min-depth,aspiration-base",
        "--r-end",
        "0.5",
        "--json",
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter().chain(extra).map(|s| (*s).to_string()).collect()
    };
    let args = with(&["--iterations", "4"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let done: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(done["done"], 4);
    assert_eq!(done["games"], 8);
    let text = std::fs::read_to_string(&state).unwrap();
    assert_eq!(text.lines().filter(|l| l.starts_with("step = ")).count(), 4);
    assert!(
        text.contains("tuned = lmr-min-depth aspiration-base"),
        "{text}"
    );
    // Each iteration's sides differ in every tuned parameter, in range.
    for line in text.lines().filter_map(|l| l.strip_prefix("step = ")) {
        let parts: Vec<&str> = line.split(" | ").collect();
        let plus: Vec<i32> = parts[1].split(' ').map(|v| v.parse().unwrap()).collect();
        let minus: Vec<i32> = parts[2].split(' ').map(|v| v.parse().unwrap()).collect();
        assert_ne!(plus[0], minus[0], "{line}");
        assert_ne!(plus[1], minus[1], "{line}");
        assert!(
            plus.iter().chain(&minus).all(|&v| (1..=500).contains(&v)),
            "{line}"
        );
    }
    // The same run again: nothing left to do, the same state.
    let again = run(&args);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(std::fs::read_to_string(&state).unwrap(), text);
    // The same settings are deterministic at a fixed depth: a second file
    // made from scratch holds the same iterations.
    let copy = dir.join("copy.txt");
    let copy_args: Vec<String> = args
        .iter()
        .map(|a| {
            if *a == state_arg {
                copy.to_str().unwrap().to_string()
            } else {
                (*a).to_string()
            }
        })
        .collect();
    let copy_args: Vec<&str> = copy_args.iter().map(String::as_str).collect();
    assert!(run(&copy_args).status.success());
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), text);
    // Other settings are refused, and the file is left alone.
    let other = with(&["--iterations", "4", "--seed", "9"]);
    let other: Vec<&str> = other.iter().map(String::as_str).collect();
    assert_cli_error(&run(&other), "was made with seed = 1, not 9");
    assert_eq!(std::fs::read_to_string(&state).unwrap(), text);
    // A file that is not a state file is refused, not overwritten.
    std::fs::write(&state, "hello\n").unwrap();
    assert_cli_error(&run(&args), "is not a tuning state file");
    assert_eq!(std::fs::read_to_string(&state).unwrap(), "hello\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_tune_arguments_are_one_line_errors() {
    let dir = scratch_dir("tune-errors");
    let out = dir.join("t.txt");
    let out = out.to_str().unwrap();
    assert_cli_error(
        &run(&["tune", "--out", out, "--depth", "2", "--tune", "nonsense"]),
        "unknown search parameter \"nonsense\"",
    );
    assert_cli_error(&run(&["tune", "--out", out]), "give a limit per move");
    assert_cli_error(
        &run(&["tune", "--out", out, "--depth", "2", "--iterations", "0"]),
        "invalid value '0' for '--iterations <N>': out of range: give 1 to 1000000",
    );
    assert_cli_error(
        &run(&[
            "tune",
            "--out",
            out,
            "--depth",
            "2",
            "--parameters",
            "lmr-reduction=9",
        ]),
        "lmr-reduction = 9 is out of range: expected 0 to 4",
    );
    // A directory where the state file should be.
    assert_cli_error(
        &run(&[
            "tune",
            "--out",
            dir.to_str().unwrap(),
            "--depth",
            "1",
            "--iterations",
            "1",
        ]),
        "it is a directory, not a regular file",
    );
    assert!(!std::path::Path::new(out).exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn parameters_change_the_search_and_the_default_is_the_shipped_engine() {
    let shipped = signature("");
    assert_eq!(signature("lmr-min-depth=2,aspiration-base=18"), shipped);
    assert_ne!(signature("lmr-min-depth=5,lmr-first-index=6"), shipped);
}

#[test]
fn match_specs_and_the_protocol_take_parameters() {
    let o = run(&[
        "match",
        "--first",
        "depth=2,lmr-min-depth=1,name=a",
        "--second",
        "depth=2,name=b",
        "-n",
        "2",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_cli_error(
        &run(&[
            "match",
            "--first",
            "depth=2,lmr-min-depth=0",
            "--second",
            "depth=2",
            "-n",
            "2",
        ]),
        "--first: lmr-min-depth = 0 is out of range: expected 1 to 20",
    );
    let o = run_with_stdin(
        &["engine"],
        "uci\nsetoption name lmr-min-depth value 5\nsetoption name lmr-min-depth value 99\nsetoption name aspiration-base value x\nisready\nquit\n",
    );
    let out = stdout(&o);
    assert!(
        out.contains("option name lmr-min-depth type spin default 2 min 1 max 20"),
        "{out}"
    );
    let errors = engine_errors(&out);
    assert_eq!(errors.len(), 2, "{out}");
    assert!(
        errors[0].contains("lmr-min-depth = 99 is out of range"),
        "{out}"
    );
    assert!(
        errors[1].contains("aspiration-base: \"x\" is not a number"),
        "{out}"
    );
}

#[test]
fn a_balanced_run_records_its_judge_and_refuses_a_run_without_it() {
    let dir = scratch_dir("tune-balance");
    let state = dir.join("tune.txt");
    let args = |balance: bool| -> Vec<String> {
        let mut a = vec![
            "tune",
            "--out",
            state.to_str().unwrap(),
            "--depth",
            "1",
            "--tune",
            "lmr-min-depth",
            "--iterations",
            "2",
            "--pairs",
            "2",
            "--json",
        ];
        if balance {
            a.extend(["--balance", "15", "--balance-nodes", "2000"]);
        }
        a.into_iter().map(String::from).collect()
    };
    let go = |a: Vec<String>| run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let o = go(args(true));
    assert!(o.status.success(), "{}", stderr(&o));
    let done: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (done["games"].as_u64(), done["balance"].as_u64()),
        (Some(8), Some(15))
    );
    let text = std::fs::read_to_string(&state).unwrap();
    assert!(text.contains("balance = 15 cp, 2000 nodes, "), "{text}");
    assert_cli_error(&go(args(false)), "was made with balance = 15 cp");
    assert_eq!(std::fs::read_to_string(&state).unwrap(), text);
    let _ = std::fs::remove_dir_all(&dir);
}
