//! The `surakarta` binary as a user runs it: output, JSON, errors, exit codes.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_surakarta"))
        .args(args)
        .output()
        .expect("run surakarta")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn perft_text() {
    let o = run(&["perft", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("perft 4: 111122 nodes"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn perft_json_single_and_multi_threaded() {
    for threads in ["1", "2"] {
        let o = run(&["perft", "5", "--threads", threads, "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON object");
        assert_eq!(v["depth"], 5);
        assert_eq!(v["nodes"], 2_572_484u64);
        assert!(v["seconds"].as_f64().unwrap() >= 0.0);
        assert_eq!(v["threads"].as_u64().unwrap().to_string(), threads);
    }
}

#[test]
fn perft_divide_from_position() {
    let o = run(&[
        "perft",
        "3",
        "--divide",
        "--position",
        "ww1w2/5w/3bww/6/1w2b1/b3bb b",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["nodes"], 12_978);
    let divide = v["divide"].as_array().unwrap();
    assert_eq!(divide.len(), 21);
    let sum: u64 = divide.iter().map(|d| d["nodes"].as_u64().unwrap()).sum();
    assert_eq!(sum, 12_978);
    assert!(divide.iter().any(|d| d["move"] == "d4xd6"));

    let text = run(&["perft", "2", "--divide", "-p", "ww3w/wb4/5w/6/6/b1w3 b"]);
    let out = stdout(&text);
    assert!(out.contains("b5xb6: "), "{out}");
    assert!(out.contains("perft 2: 187 nodes"), "{out}");
}

/// Bad input: one line on stderr naming the problem, exit code 2, no panic.
#[test]
fn bad_input_exits_2_with_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (&["perft", "0"], "depth 0 is out of range"),
        (&["perft", "99"], "depth 99 is out of range"),
        (&["perft", "3", "--position", "6/6/6 b"], "board field"),
        (
            &["perft", "3", "--position", "6/6/6/6/6/6 x"],
            "side-to-move field",
        ),
        (
            &["perft", "3", "--position", "6/6/6/6/6/bbbbbb b"],
            "white, who is not to move, has no pieces",
        ),
        (
            &["perft", "3", "--threads", "0"],
            "--threads 0 is out of range",
        ),
        (
            &["perft", "3", "--threads", "100000"],
            "--threads 100000 is out of range",
        ),
    ];
    for (args, needle) in cases {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(needle),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"));
    }
    // Argument syntax errors come from clap, also with exit code 2.
    for args in [&["perft"][..], &["perft", "x"], &["nonsense"]] {
        assert_eq!(run(args).status.code(), Some(2), "{args:?}");
    }
}
