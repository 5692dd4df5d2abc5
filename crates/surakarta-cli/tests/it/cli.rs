//! The `surakarta` binary as a user runs it: output, JSON, errors, exit codes.

use crate::common::*;
use std::time::Duration;

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

/// Standard output closed before anything is written (`| head` that has
/// read enough): the command ends quietly with exit code 0, no panic.
#[test]
fn closed_stdout_ends_quietly() {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let o = std::process::Command::new(BIN)
        .args(["perft", "3", "--divide"])
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?} {}", o.status, stderr(&o));
    assert_eq!(stderr(&o), "");
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

#[test]
fn tb_generate_resume_probe_verify_stats() {
    let dir = fresh_path("tb");
    let d = dir.to_str().unwrap();
    let o = run(&["tb", "generate", "--pieces", "4", "--dir", d, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).is_empty(),
        "no progress bars off a terminal: {}",
        stderr(&o)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let classes = v["classes"].as_array().unwrap();
    assert_eq!(classes.len(), 6);
    assert_eq!(classes[0]["class"], "1v1");
    assert_eq!(classes[0]["positions"], 165);
    assert!(classes.iter().all(|c| c["skipped"] == false));

    // A second run finds everything in place.
    let o = run(&["tb", "generate", "--pieces", "4", "--dir", d, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["skipped"], 6);

    // Probe: arguments, stdin, JSON; a position beyond the tables is an
    // error for its line only.
    let o = run_with_stdin(
        &["tb", "probe", "--dir", d, "--json"],
        "6/6/2w3/6/1b4/b5 b\nbbb3/6/6/6/6/4ww w\n\nbb4/6/6/6/6/4ww w\n",
    );
    assert_eq!(o.status.code(), Some(2), "one line failed");
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["wdl"], "win");
    assert_eq!(lines[0]["dtc"], 5);
    assert_eq!(lines[0]["best_move"], "a1-b1");
    assert_eq!(lines[0]["line"].as_array().unwrap().len(), 5);
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .contains("2v3.sktb not found"));
    assert_eq!(lines[2]["line"], serde_json::json!(["e1xb6"]));
    let o = run(&["tb", "probe", "--dir", d, "6/6/2w3/6/1b4/b5 w"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("6/6/2w3/6/1b4/b5 w 0 1: "),
        "{}",
        stdout(&o)
    );

    // Verify passes, stats describe.
    let o = run(&["tb", "verify", "--dir", d]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("verified 6 tables"), "{}", stdout(&o));
    // Pair by pair, each checked against --memory-limit before any starts:
    // 1 KiB is less than any pair (the process alone is modelled at 64 MiB).
    let o = run(&[
        "tb",
        "verify",
        "--dir",
        d,
        "2v2",
        "--memory-limit",
        "0.000001",
    ]);
    assert_cli_error(&o, "verifying pair 2v2 needs about ");
    assert!(
        stderr(&o).contains("more than the limit of"),
        "{}",
        stderr(&o)
    );
    let o = run(&["tb", "verify", "--dir", d, "--memory-limit", "0"]);
    assert_cli_error(&o, "--memory-limit 0 is out of range");
    let o = run(&["tb", "verify", "--dir", d, "--memory-limit", "1", "--json"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["tables"].as_array().unwrap().len(), 6, "{v}");
    assert_eq!(v["errors"], 0, "{v}");
    let o = run(&["tb", "stats", "--dir", d, "--json", "2v2"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["classes"][0]["positions"], 44481);
    assert_eq!(v["classes"][0]["longest"], 8);

    // One corrupted byte: verify fails with exit code 1 and names the class.
    let path = dir.join("2v2.sktb");
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - 1000;
    bytes[at] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    let o = run(&["tb", "verify", "--dir", d, "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["errors"].as_u64().unwrap() >= 1);
    // Verifying other classes only: the damaged one is not among them.
    let o = run(&["tb", "verify", "--dir", d, "3v1", "1v3"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("verified 2 tables"), "{}", stdout(&o));
    let o = run(&["tb", "verify", "--dir", d, "2v2", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let o = run(&["tb", "verify", "--dir", d, "5v1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("5v1.sktb not found"), "{}", stderr(&o));
    let o = run(&["tb", "probe", "--dir", d, "bb4/6/6/6/6/4ww b"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("2v2.sktb: payload checksum mismatch"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tb_errors_are_one_line_and_exit_2() {
    let o = run(&["tb", "generate", "--pieces", "11", "--dir", "/nonexistent"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("error: --pieces 11 is out of range"));
    let dir = fresh_path("empty");
    std::fs::create_dir_all(&dir).unwrap();
    let o = run(&[
        "tb",
        "probe",
        "--dir",
        dir.to_str().unwrap(),
        "bb4/6/6/6/6/4ww b",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no table files"), "{}", stderr(&o));
    let o = run(&["tb", "verify", "--dir", "/nonexistent/tables"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Per line of `tb probe --json` output, the parsed object.
fn json_lines(o: &std::process::Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The entry of `tb verify --json` output whose `key` is `value`.
fn verify_entry<'a>(v: &'a serde_json::Value, key: &str, value: &str) -> &'a serde_json::Value {
    v["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t[key].as_str().is_some_and(|s| s.ends_with(value)))
        .unwrap_or_else(|| panic!("no entry with {key} {value} in {v}"))
}

/// A FIFO or a directory named like a table: nothing hangs, the other
/// classes still answer, and wherever the class is needed the error names
/// the path as not a regular file.
#[cfg(unix)]
#[test]
fn tb_fifo_or_directory_named_like_a_table_is_an_error_not_a_hang() {
    let limit = std::time::Duration::from_secs(60);
    let dir = fresh_path("not-a-file");
    let d = dir.to_str().unwrap();
    let o = run(&["tb", "generate", "--pieces", "3", "--dir", d, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bad = dir.join("2v1.sktb");
    let needle = "2v1.sktb: not a regular file";
    for kind in ["fifo", "directory"] {
        std::fs::remove_file(&bad).unwrap();
        if kind == "fifo" {
            let made = std::process::Command::new("mkfifo").arg(&bad).status();
            assert!(made.unwrap().success(), "mkfifo");
        } else {
            std::fs::create_dir(&bad).unwrap();
        }

        // 1v1 answers; 2v1 is an error naming the path.
        let args = ["tb", "probe", "--dir", d, "--json"];
        let o = run_within(
            &[&args[..], &["6/6/6/6/1bw3/6 b", "6/6/2w3/6/1b4/b5 b"]].concat(),
            limit,
        );
        assert_eq!(o.status.code(), Some(2), "{kind}: {}", stderr(&o));
        let lines = json_lines(&o);
        assert_eq!(lines.len(), 2, "{kind}: {}", stdout(&o));
        assert_eq!(lines[0]["wdl"], "win", "{kind}: {}", lines[0]);
        let error = lines[1]["error"].as_str().unwrap();
        assert!(error.contains(needle), "{kind}: {error}");

        // Verify: an error for the path, and for the partner that needs it.
        let o = run_within(&["tb", "verify", "--dir", d, "--json"], limit);
        assert_eq!(o.status.code(), Some(1), "{kind}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let file = verify_entry(&v, "file", "2v1.sktb");
        assert!(file["error"].as_str().unwrap().contains(needle), "{v}");
        let partner = verify_entry(&v, "class", "1v2");
        assert!(partner["error"].as_str().unwrap().contains(needle), "{v}");
        assert_eq!(verify_entry(&v, "class", "1v1")["errors"], 0, "{v}");
        assert_eq!(v["errors"], 2, "{v}");

        // Stats of another class work; the engine refuses the directory.
        let o = run_within(&["tb", "stats", "--dir", d, "1v1"], limit);
        assert!(o.status.success(), "{kind}: {}", stderr(&o));
        let o = run_within(&["search", "--depth", "1", "--tb", d], limit);
        assert_cli_error(&o, needle);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One table of a pair damaged: verifying or probing its partner names the
/// damaged file and what is wrong with it, never "not found".
#[test]
fn tb_damaged_table_is_named_when_its_partner_needs_it() {
    let limit = std::time::Duration::from_secs(60);
    let dir = fresh_path("damaged-partner");
    let d = dir.to_str().unwrap();
    let o = run(&["tb", "generate", "--pieces", "3", "--dir", d, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let path = dir.join("2v1.sktb");
    let good = std::fs::read(&path).unwrap();
    let flipped = |at: usize| {
        let mut bytes = good.clone();
        bytes[at] ^= 0x40;
        bytes
    };
    for (bytes, needle) in [
        (flipped(20), "2v1.sktb: header checksum mismatch"),
        (
            flipped(good.len() - 7),
            "2v1.sktb: payload checksum mismatch",
        ),
    ] {
        std::fs::write(&path, bytes).unwrap();
        let o = run_within(&["tb", "verify", "--dir", d, "--json"], limit);
        assert_eq!(o.status.code(), Some(1), "{needle}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let partner = verify_entry(&v, "class", "1v2");
        assert!(partner["error"].as_str().unwrap().contains(needle), "{v}");
        let o = run_within(&["tb", "verify", "--dir", d], limit);
        let out = stdout(&o);
        assert!(out.contains("1v2: cannot verify: "), "{out}");
        assert!(out.contains(needle) && !out.contains("not found"), "{out}");

        // 1v1 answers; 1v2 needs 2v1 for its quiet moves.
        let o = run_within(
            &[
                "tb",
                "probe",
                "--dir",
                d,
                "6/6/6/6/1bw3/6 b",
                "6/6/2w3/6/1b4/b5 w",
            ],
            limit,
        );
        assert_eq!(o.status.code(), Some(2), "{needle}: {}", stderr(&o));
        assert!(
            stdout(&o).starts_with("6/6/6/6/1bw3/6 b 0 1: win"),
            "{}",
            stdout(&o)
        );
        let err = stderr(&o);
        assert!(err.contains(needle) && !err.contains("not found"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn search_json_and_text() {
    let o = run(&["search", "--depth", "4", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON object");
    assert_eq!(v["depth"], 4);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert_eq!(v["score"]["kind"], "cp");
    let pv = v["pv"].as_array().unwrap();
    assert!(!pv.is_empty());
    assert_eq!(pv[0], v["best_move"]);
    let best = v["best_move"].as_str().unwrap();
    assert!(
        surakarta::Position::new().parse_move(best).is_ok(),
        "{best}"
    );

    // Text: one info line per iteration, then the move; a capture that wins.
    let o = run(&["search", "-p", "6/w5/6/6/6/1b4 b", "--depth", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.lines().next().unwrap().starts_with("info depth 1 "),
        "{out}"
    );
    assert!(out.contains("score win 1"), "{out}");
    assert_eq!(out.lines().last(), Some("bestmove b1xa5"));
}

#[test]
fn search_multipv_json_and_text() {
    let o = run(&["search", "--depth", "4", "--multipv", "3", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON object");
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{v}");
    let mut firsts = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["multipv"], i + 1);
        assert_eq!(line["depth"], 4);
        assert_eq!(line["score"]["kind"], "cp");
        firsts.push(line["pv"][0].as_str().unwrap().to_string());
    }
    let scores: Vec<i64> = lines
        .iter()
        .map(|l| l["score"]["value"].as_i64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "each line its own root move: {v}");
    assert_eq!(lines[0]["pv"], v["pv"]);
    assert_eq!(lines[0]["pv"][0], v["best_move"]);

    // Text: three ranked lines per iteration; two legal moves give two.
    let o = run(&["search", "--depth", "2", "--multipv", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for rank in 1..=3 {
        assert!(
            out.lines().any(|l| l.starts_with("info depth 2 ")
                && l.contains(&format!(" multipv {rank} score "))),
            "{out}"
        );
    }
    let o = run(&[
        "search",
        "-p",
        "6/6/6/6/6/w4b b",
        "--depth",
        "2",
        "--multipv",
        "9",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let position: surakarta::Position = "6/6/6/6/6/w4b b".parse().unwrap();
    let legal = position.legal_moves().len();
    assert!(legal < 9);
    assert_eq!(v["lines"].as_array().unwrap().len(), legal, "{v}");

    // Out of range: refused before searching.
    for bad in ["0", "257"] {
        let o = run(&["search", "--depth", "2", "--multipv", bad]);
        assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
        assert!(stderr(&o).contains("--multipv"), "{}", stderr(&o));
    }
}

#[test]
fn engine_protocol_multipv() {
    let script = "uci\nsetoption name MultiPV value 3\nposition startpos\ngo depth 3\nisready\n\
                  setoption name MultiPV value 0\nsetoption name MultiPV value 1\ngo depth 2\nisready\nquit\n";
    let o = run_with_stdin_within(&["engine"], script, Duration::from_secs(60));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines.contains(&"option name MultiPV type spin default 1 min 1 max 256"),
        "{out}"
    );
    // Each search ends with its bestmove (`isready` is answered at once).
    let end = lines
        .iter()
        .position(|l| l.starts_with("bestmove "))
        .unwrap();
    let (first_search, second_search) = (&lines[..=end], &lines[end + 1..]);
    for depth in 1..=3 {
        for rank in 1..=3 {
            assert!(
                first_search
                    .iter()
                    .any(|l| l.starts_with(&format!("info depth {depth} "))
                        && l.contains(&format!(" multipv {rank} score "))),
                "{out}"
            );
        }
    }
    // bestmove plays line 1 of the last iteration.
    let line_one = first_search
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth 3 ") && l.contains(" multipv 1 "))
        .unwrap();
    let pv_move = line_one
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let best = first_search
        .iter()
        .find(|l| l.starts_with("bestmove "))
        .unwrap();
    assert_eq!(*best, format!("bestmove {pv_move}"));
    // 0 is refused; back to one line, the lines have no rank.
    assert_eq!(engine_errors(&out).len(), 1, "{out}");
    assert!(
        second_search.iter().any(|l| l.starts_with("info depth 2 ")),
        "{out}"
    );
    assert!(
        !second_search.iter().any(|l| l.contains(" multipv ")),
        "{out}"
    );
}

#[test]
fn search_input_errors_exit_2() {
    for (args, needle) in [
        (vec!["search"], "give a limit"),
        (
            vec!["search", "--depth", "2", "--moves", "a1-a2"],
            "move 1 (\"a1-a2\")",
        ),
        (
            vec!["search", "--depth", "2", "-p", "nonsense"],
            "invalid position",
        ),
        (
            vec!["search", "--depth", "2", "--threads", "0"],
            "'--threads <N>': out of range: give 1 to 1024",
        ),
        (
            vec!["search", "--depth", "2", "--eval", "magic"],
            "unknown --eval",
        ),
        (
            vec!["search", "--depth", "2", "--rules", "chess"],
            "invalid rule set",
        ),
        (
            vec!["search", "--depth", "2", "--tb", "/nonexistent/tables"],
            "nonexistent",
        ),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn search_depth_out_of_range_exits_2_at_once() {
    // Depth 0 used to search depth 1, and a huge depth to run for ever.
    for depth in ["0", "65", "100000"] {
        let o = run_within(&["search", "--depth", depth], Duration::from_secs(20));
        assert_cli_error(
            &o,
            &format!("--depth {depth} is out of range: give 1 to 64"),
        );
    }
    for args in [["bench", "--depth", "0"], ["play", "--depth", "65"]] {
        let o = run_within(&args, Duration::from_secs(20));
        assert_cli_error(&o, &format!("--depth {} is out of range", args[2]));
    }
}

#[test]
fn engine_go_depth_out_of_range_is_an_error() {
    // Each bad `go` is answered with an error and starts no search, so the
    // good one after them answers at once.
    let script =
        "go depth 0\ngo depth 100000\ngo depth 99999999999999999999\ngo depth 1\nisready\nquit\n";
    let o = run_with_stdin_within(&["engine"], script, Duration::from_secs(20));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let errors = engine_errors(&out);
    assert_eq!(
        errors,
        [
            "info string error: go: depth 0 is out of range: give 1 to 64",
            "info string error: go: depth 100000 is out of range: give 1 to 64",
            "info string error: go: depth \"99999999999999999999\" is not a number",
        ],
        "{out}"
    );
    let best: Vec<&&str> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 1, "{out}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 1 ")),
        "{out}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{out}"
    );
}

/// `"cccc…" (N bytes)`: how a long input is quoted in messages.
fn cut(c: char, len: usize) -> String {
    format!("\"{}…\" ({len} bytes)", c.to_string().repeat(80))
}

#[test]
fn long_input_is_cut_in_error_lines() {
    // Arguments are at most 128 KiB on Linux; stay below.
    let long = "b".repeat(100_000);
    for (args, message) in [
        (
            vec!["search", "--depth", "1", "-p", &long],
            format!(
                "invalid position {}: position text too long (100000 bytes; at most 256)",
                cut('b', 100_000)
            ),
        ),
        (
            vec!["search", "--depth", "1", "--eval", &long],
            format!(
                "unknown --eval {}: expected classic, paper, nnue, default",
                cut('b', 100_000)
            ),
        ),
        (
            vec!["show", &long],
            format!(
                "{} is neither a record file nor a valid position: position text too long (100000 bytes; at most 256)",
                cut('b', 100_000)
            ),
        ),
        (
            vec!["match", "--first", &long, "--second", "depth=1"],
            format!("--first: expected key=value, found {}", cut('b', 100_000)),
        ),
    ] {
        let o = run(&args);
        assert_cli_error(&o, &message);
        assert!(stderr(&o).len() < 400, "{}", stderr(&o));
    }
    let o = run(&[
        "search",
        "--depth",
        "1",
        "--tb",
        &format!("/nonexistent/{long}"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).len() < 400, "{}", stderr(&o));
    assert!(stderr(&o).contains("… (100013 bytes): "), "{}", stderr(&o));
}

#[test]
fn engine_cuts_long_input_in_error_lines() {
    // Long, but within the limit of an input line (64 KiB).
    let long = "x".repeat(60_000);
    let script = format!(
        "{long}\ngo {long} 1\ngo depth {long}\nsetoption name Hash value {long}\n\
         position startpos moves b2-b3 {long}\nsetoption name TablebasePath value /nonexistent/{long}\nquit\n"
    );
    let o = run_with_stdin_within(&["engine"], &script, Duration::from_secs(60));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let x = cut('x', 60_000);
    assert_eq!(lines.len(), 6, "{}", &out[..out.len().min(2000)]);
    assert_eq!(lines[0], format!("info string error: unknown command {x}"));
    assert_eq!(
        lines[1],
        format!("info string error: go: unknown limit {x}")
    );
    assert_eq!(
        lines[2],
        format!("info string error: go: depth {x} is not a number")
    );
    assert_eq!(
        lines[3],
        format!("info string error: Hash: {x} is not a number")
    );
    assert!(
        lines[4].starts_with(&format!("info string error: move 2 ({x}): ")),
        "{}",
        lines[4]
    );
    assert!(lines[5].contains("… (60013 bytes): "), "{}", lines[5]);
    assert!(lines.iter().all(|l| l.len() < 500), "{out}");
}

/// A line of stdin longer than 64 KiB is answered with one error naming its
/// length and skipped without being held: a 1.2 GB line under a 2 GiB
/// address space limit, then the engine goes on. (A reader that buffers the
/// whole line doubles its buffer past 1 GiB and aborts: "memory allocation
/// of 2147483648 bytes failed".)
#[cfg(target_os = "linux")]
#[test]
fn engine_skips_an_endless_line_without_holding_it() {
    let o = run_with_long_line(
        &["engine"],
        "isready\n",
        1_200_000_000,
        "\nisready\nquit\n",
        Duration::from_secs(120),
    );
    assert!(o.status.success(), "{:?} {}", o.status, stderr(&o));
    assert_eq!(
        stdout(&o),
        "readyok\ninfo string error: input line of 1200000000 bytes is longer than the limit of 65536 bytes: skipped\nreadyok\n"
    );
}

/// `tb probe` and `play` reading stdin skip a line over the limit the same
/// way, and go on with the next.
#[cfg(target_os = "linux")]
#[test]
fn probe_and_play_skip_lines_over_the_limit() {
    let dir = generated_tables("long-line-probe", 3);
    let o = run_with_long_line(
        &["tb", "probe", "--dir", dir.to_str().unwrap(), "--json"],
        "",
        100_000_000,
        "\n6/6/6/6/2b3/w4w b\n",
        Duration::from_secs(60),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    let skipped: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(
        skipped["error"],
        "input line of 100000000 bytes is longer than the limit of 65536 bytes: skipped"
    );
    let answered: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(answered["wdl"], "win", "{out}");
    let _ = std::fs::remove_dir_all(&dir);

    let o = run_with_long_line(
        &["play", "--depth", "1"],
        "",
        100_000_000,
        "\nquit\n",
        Duration::from_secs(60),
    );
    assert!(
        stderr(&o).contains(
            "error: input line of 100000000 bytes is longer than the limit of 65536 bytes: skipped"
        ),
        "{}",
        stderr(&o)
    );
    assert!(o.status.code().is_some(), "{:?}", o.status);
}

/// A hash size in range that the process may not use (here: over its
/// address space limit) is an error line naming the limit, not an abort
/// ("memory allocation of 68719476736 bytes failed", exit 134).
#[cfg(target_os = "linux")]
#[test]
fn a_hash_table_that_cannot_be_allocated_is_an_error() {
    let o = run_with_2gib_address_space(&["search", "--hash", "16", "--depth", "1"], "");
    assert!(
        o.status.success(),
        "the limit leaves room for a small table: {}",
        stderr(&o)
    );
    for command in ["search", "bench"] {
        let o = run_with_2gib_address_space(&[command, "--hash", "65536", "--depth", "1"], "");
        assert_cli_error(
            &o,
            "the engine (hash 65536 MiB, 1 thread): 65540 MiB needed, but this process may use only",
        );
    }
    // The engine says so and keeps its table.
    let script = "setoption name Hash value 65536\ngo depth 1\nisready\nquit\n";
    let o = run_with_2gib_address_space(&["engine"], script);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with(
            "info string error: the engine (hash 65536 MiB, 1 thread): 65540 MiB needed"
        ),
        "{out}"
    );
    // `isready` is answered while the search runs, so in either order.
    let rest = &lines[1..];
    assert_eq!(rest.len(), 3, "{out}");
    assert!(rest.iter().any(|l| l.starts_with("info depth 1 ")), "{out}");
    assert!(rest.iter().any(|l| l.starts_with("bestmove ")), "{out}");
    assert!(rest.contains(&"readyok"), "{out}");
}

/// An engine is counted whole before it is made: its table and, for each
/// thread, its stack and search state. A table that fits beside the
/// process is refused when its threads do not fit with it, and every
/// command that starts threads takes 1 to 1024.
#[cfg(target_os = "linux")]
#[test]
fn an_engine_is_counted_with_its_threads_and_threads_are_bounded() {
    // 1000 MiB fits under 2 GiB; with 1024 threads it does not.
    let o = run_with_2gib_address_space(&["search", "--hash", "1000", "--depth", "1"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    for command in ["search", "bench"] {
        let o = run_with_2gib_address_space(
            &[
                command,
                "--hash",
                "1000",
                "--threads",
                "1024",
                "--depth",
                "1",
            ],
            "",
        );
        assert_cli_error(
            &o,
            "the engine (hash 1000 MiB, 1024 threads): 3561 MiB needed, but this process may use only",
        );
    }
    // A match's engines are counted the same way.
    let o = run_with_2gib_address_space(
        &[
            "match",
            "--first",
            "depth=1,hash=600,threads=1024",
            "--second",
            "depth=1",
            "--games",
            "2",
        ],
        "",
    );
    assert_cli_error(&o, "the engines of both players (their hash and threads): ");

    let tables = generated_tables("threads-bounded", 4);
    let t = tables.to_str().unwrap();
    // bench's probe list is counted before it is allocated.
    let o = run_with_2gib_address_space(
        &["bench", "--depth", "1", "--tb", t, "--probes", "100000000"],
        "",
    );
    assert_cli_error(&o, "the 100000000 probes to time (--probes): ");
    // endgames: threads out of range, and engines that do not fit together.
    let endgames = |threads: &str, positions: &str| {
        run_with_2gib_address_space(
            &[
                "endgames",
                "--tb",
                t,
                "--pieces",
                "4",
                "--positions",
                positions,
                "--nodes",
                "200",
                "-t",
                threads,
            ],
            "",
        )
    };
    for threads in ["0", "1025", "4294967296"] {
        assert_cli_error(
            &endgames(threads, "5"),
            &format!("--threads {threads} is out of range: give 1 to 1024"),
        );
    }
    assert_cli_error(
        &endgames("1024", "40"),
        "40 engines (hash 64 MiB, 1 thread each) searching positions at once (--threads): ",
    );
    let o = endgames("1024", "5");
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::remove_dir_all(&tables).unwrap();
}

#[test]
fn search_with_tables_plays_the_tablebase_move() {
    let dir = fresh_path("search-tb");
    let o = run(&[
        "tb",
        "generate",
        "--pieces",
        "3",
        "--dir",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Two black pieces against one white: look the answer up, then search.
    let fen = "6/2w3/6/6/1b4/4b1 b";
    let probe = run(&["tb", "probe", "--dir", dir.to_str().unwrap(), "--json", fen]);
    let p: serde_json::Value = serde_json::from_str(&stdout(&probe)).unwrap();
    let o = run(&[
        "search",
        "-p",
        fen,
        "--depth",
        "6",
        "--tb",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(p["wdl"], "win");
    assert_eq!(v["score"]["kind"], "tbwin");
    assert_eq!(v["score"]["value"], p["dtc"]);
    assert_eq!(v["best_move"], p["best_move"]);
    assert_eq!(v["depth"], 0);
    assert!(v["tb_hits"].as_u64().unwrap() > 0);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bench_signature_is_stable() {
    let a = run(&["bench", "--depth", "4", "--json"]);
    let b = run(&["bench", "--depth", "4", "--json"]);
    assert!(a.status.success(), "{}", stderr(&a));
    let (a, b): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&stdout(&a)).unwrap(),
        serde_json::from_str(&stdout(&b)).unwrap(),
    );
    assert_eq!(a["nodes"], b["nodes"]);
    assert!(a["nodes"].as_u64().unwrap() > 1000);
    assert_eq!(a["positions"], 15);
    assert_eq!(a["tb_hits"], 0);
    assert!(a["probes"].is_null(), "no probe timing without --tb");
}

#[test]
fn bench_with_tables_times_probes() {
    let d = tables_up_to_5().to_str().unwrap();
    let o = run(&[
        "bench", "--depth", "4", "--tb", d, "--probes", "2000", "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(
        v["tb_hits"].as_u64().unwrap() > 0,
        "the 5-piece bench positions hit"
    );
    let p = &v["probes"];
    assert_eq!(p["probes"], 2000);
    assert_eq!(
        p["classes"],
        serde_json::json!(["4v1", "3v2", "2v3", "1v4"])
    );
    let (median, p90) = (
        p["median_ns"].as_u64().unwrap(),
        p["p90_ns"].as_u64().unwrap(),
    );
    assert!(0 < median && median <= p90, "{p}");

    // A damaged table is an error that names the file, not a timing.
    let dir = fresh_path("bench-tb");
    copy_dir(tables_up_to_5(), &dir);
    let file = dir.join("3v2.sktb");
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&file, bytes).unwrap();
    let damaged = dir.to_str().unwrap();
    let o = run(&["bench", "--depth", "1", "--tb", damaged, "--probes", "100"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("3v2"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn engine_protocol_session() {
    let script = "uci\nisready\nthis is garbage\nposition startpos moves b2-b3\ngo depth 3\n\
                  position fen 6/w5/6/6/6/1b4 b\ngo depth 2\nposition startpos moves z9-z9\n\
                  go sideways 3\nsetoption name Threads value 2\nsetoption name Colour value red\n\
                  position startpos\ngo infinite\nstop\nisready\nquit\n";
    let o = run_with_stdin(&["engine"], script);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"uciok"), "{out}");
    assert_eq!(
        lines.iter().filter(|l| **l == "readyok").count(),
        2,
        "{out}"
    );
    let best: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("bestmove "))
        .copied()
        .collect();
    assert_eq!(best.len(), 3, "{out}");
    assert_eq!(best[1], "bestmove b1xa5");
    let errors = engine_errors(&out).len();
    assert_eq!(errors, 4, "garbage, bad move, bad go, bad option: {out}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{out}"
    );
}

#[test]
fn engine_commands_with_trailing_words_are_errors_and_not_acted_on() {
    let script = "uci depth\nnewgame x\ngo infinite\nstop zz\nisready\nstop\nquit now\nd\nquit\n";
    let o = run_with_stdin_within(&["engine"], script, Duration::from_secs(60));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let errors = engine_errors(&out);
    assert_eq!(
        errors,
        [
            "info string error: uci takes no arguments, found \"depth\"",
            "info string error: newgame takes no arguments, found \"x\"",
            "info string error: stop takes no arguments, found \"zz\"",
            "info string error: quit takes no arguments, found \"now\"",
        ],
        "{out}"
    );
    assert!(!out.contains("uciok"), "{out}");
    // `stop zz` did not stop the search: `isready` is answered first.
    let at = |wanted: &str| lines.iter().position(|l| l.starts_with(wanted));
    let (ready, best) = (at("readyok"), at("bestmove "));
    assert!(ready.is_some() && best.is_some() && ready < best, "{out}");
    // `quit now` did not quit.
    assert!(
        lines.last().unwrap().starts_with("info string position "),
        "{out}"
    );
}

/// The byte ranges of a format 2 file's block offsets and bit stream,
/// read from its header (`docs/tablebase-format.md`; a draw map, if any,
/// follows the bit stream).
fn compact_regions(bytes: &[u8]) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
    assert_eq!(bytes[8], 2, "format 2");
    let slots = u64_at(16);
    let block_bits = bytes[64];
    let bits_len = u64_at(72);
    let boundaries = slots.div_ceil(1 << block_bits) + 1;
    // Byte 70: the offsets' form (0: u64, 1: u32, 2: u32 per 64 + u16 each).
    let offsets_len = match bytes[70] {
        0 => 8 * boundaries,
        1 => 4 * boundaries,
        _ => 4 * boundaries.div_ceil(64) + 2 * boundaries,
    };
    // Byte 71 = 2: a draw map of a bit per 2^u slots (u: byte 81) ends the file.
    let draw_map = match bytes[71] {
        2 => slots.div_ceil(1 << bytes[81]).div_ceil(8),
        _ => 0,
    };
    let bits = bytes.len() - draw_map - bits_len;
    // Before the offsets: terminals (a byte per terminal and context), the
    // pairs and the code lengths, packed (byte 80 = 1) or not.
    let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]) as usize;
    let (terminals, pairs) = (u16_at(66), u16_at(68));
    let contexts = [1, 8, 2][bytes[65] as usize];
    let symbol_bits = (usize::BITS - (terminals + pairs - 1).leading_zeros()).max(1) as usize;
    let dictionary = match bytes[80] {
        0 => 4 * pairs + terminals + pairs,
        _ => (2 * pairs * symbol_bits).div_ceil(8) + (5 * (terminals + pairs)).div_ceil(8),
    };
    assert_eq!(
        128 + contexts * terminals + dictionary + offsets_len,
        bits,
        "regions add up"
    );
    (bits - offsets_len..bits, bits..bits + bits_len)
}

/// A compact table with a flipped byte in its bit stream, its block
/// offsets or its draw map: verify fails with exit code 1 and probing
/// names the file.
#[test]
fn tb_damaged_compact_bit_stream_or_block_offset_is_named() {
    let limit = std::time::Duration::from_secs(60);
    let dir = fresh_path("damaged-compact");
    let d = dir.to_str().unwrap();
    let o = run(&["tb", "generate", "--pieces", "4", "--dir", d, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let path = dir.join("2v2.sktb");
    let good = std::fs::read(&path).unwrap();
    let (offsets, bits) = compact_regions(&good);
    assert_eq!(good[70], 2, "grouped offsets");
    assert!(good[71] == 2 && good.len() > bits.end, "a draw map");
    // Grouped: one u32 base per 64 boundaries, then a u16 per boundary.
    // Grouped offsets: the u16 deltas are the last 2 bytes per boundary.
    let slots = u64::from_le_bytes(good[16..24].try_into().unwrap()) as usize;
    let boundaries = slots.div_ceil(1 << good[64]) + 1;
    let deltas = offsets.end - 2 * boundaries;
    assert!(offsets.len() >= 4 + 3 * 2, "several blocks: {offsets:?}");
    let needle = format!("{}: payload checksum mismatch", path.display());
    for (what, at) in [
        ("bit stream", bits.start + bits.len() / 2),
        ("offset of block 1", deltas + 2),
        ("last block offset", offsets.end - 2),
        ("draw map", bits.end),
    ] {
        let mut bytes = good.clone();
        bytes[at] ^= 0x01;
        std::fs::write(&path, &bytes).unwrap();

        let o = run_within(&["tb", "verify", "--dir", d, "--json"], limit);
        assert_eq!(o.status.code(), Some(1), "{what}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let entry = verify_entry(&v, "class", "2v2");
        assert_eq!(entry["checksum_ok"], false, "{what}: {v}");
        assert!(entry["errors"].as_u64().unwrap() >= 1, "{what}: {v}");
        assert_eq!(verify_entry(&v, "class", "3v1")["errors"], 0, "{what}: {v}");
        let o = run_within(&["tb", "verify", "--dir", d], limit);
        assert_eq!(o.status.code(), Some(1), "{what}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("2v2: FAILED: payload checksum mismatch"),
            "{what}: {}",
            stdout(&o)
        );

        // 2v1 answers; 2v2 is an error naming the file.
        let o = run_within(
            &[
                "tb",
                "probe",
                "--dir",
                d,
                "6/6/2w3/6/1b4/b5 b",
                "bb4/6/6/6/6/4ww b",
            ],
            limit,
        );
        assert_eq!(o.status.code(), Some(2), "{what}: {}", stderr(&o));
        assert!(
            stdout(&o).starts_with("6/6/2w3/6/1b4/b5 b 0 1: win"),
            "{what}: {}",
            stdout(&o)
        );
        assert!(stderr(&o).contains(&needle), "{what}: {}", stderr(&o));
        let o = run_within(
            &["tb", "probe", "--dir", d, "--json", "bb4/6/6/6/6/4ww w"],
            limit,
        );
        assert_eq!(o.status.code(), Some(2), "{what}: {}", stderr(&o));
        let lines = json_lines(&o);
        let error = lines[0]["error"].as_str().unwrap_or_default();
        assert!(error.contains(&needle), "{what}: {}", stdout(&o));
    }
    std::fs::write(&path, &good).unwrap();
    let o = run_within(&["tb", "verify", "--dir", d], limit);
    assert!(o.status.success(), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `tb stats --json` of every class: (class, format, bytes), checking its
/// context model against the writer's choice.
fn stats_formats(d: &str) -> Vec<(String, u64, u64)> {
    let o = run(&["tb", "stats", "--dir", d, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    v["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let class = c["class"].as_str().unwrap();
            let (us, them) = class.split_once('v').unwrap();
            let (us, them): (u32, u32) = (us.parse().unwrap(), them.parse().unwrap());
            let model = match (c["format"].as_u64(), us.cmp(&them)) {
                (Some(1), _) => serde_json::Value::Null,
                (_, std::cmp::Ordering::Greater) => "has-capture".into(),
                _ => "safe-steps".into(),
            };
            assert_eq!(c["context_model"], model, "{class}");
            let flag_expected = c["format"].as_u64() == Some(2);
            assert_eq!(c["capture_draws"].is_boolean(), flag_expected, "{class}");
            // A draw map exactly where there are capture draws.
            if flag_expected {
                assert_eq!(c["draw_map"], c["capture_draws"], "{class}");
            }
            (
                c["class"].as_str().unwrap().to_string(),
                c["format"].as_u64().unwrap(),
                c["bytes"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Stats report each table's format and its size on disk; `--format 1`
/// writes version 1 files and the default is version 2, with capture
/// draws unless `--no-capture-draws`.
#[test]
fn tb_stats_report_format_and_bytes_and_generate_writes_the_format_asked() {
    for (format, args) in [
        (2, &[][..]),
        (2, &["--format", "2"][..]),
        (1, &["--format", "1"][..]),
        (2, &["--no-capture-draws"][..]),
    ] {
        let capture_draws = !args.contains(&"--no-capture-draws");
        let dir = fresh_path(&format!("stats-format-{format}-{}", args.len()));
        let d = dir.to_str().unwrap();
        let o = run(&[&["tb", "generate", "--pieces", "4", "--dir", d][..], args].concat());
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let stats = stats_formats(d);
        assert_eq!(stats.len(), 6, "{args:?}: {stats:?}");
        let mut draw_maps = 0;
        for (class, found, bytes) in stats {
            let path = dir.join(format!("{class}.sktb"));
            let file = std::fs::read(&path).unwrap();
            assert_eq!(found, format, "{args:?}: {class}");
            assert_eq!(bytes, file.len() as u64, "{args:?}: {class}");
            assert_eq!(bytes, std::fs::metadata(&path).unwrap().len());
            assert_eq!(&file[8..10], &[format as u8, 0], "{args:?}: {class}");
            assert_eq!(file[14], format as u8 - 1, "{args:?}: {class} encoding");
            if format == 2 {
                // Capture draws, with a draw map (2), only in the classes
                // that have a draw a capture proves.
                let allowed: &[u8] = if capture_draws { &[0, 2] } else { &[0] };
                assert!(allowed.contains(&file[71]), "{args:?}: {class}");
                draw_maps += usize::from(file[71] == 2);
            }
        }
        // 1v2, 1v3 and 2v2 have such draws.
        assert_eq!(draw_maps, if format == 2 && capture_draws { 3 } else { 0 });
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Runs the binary with `args` (no input, output discarded) and kills it
/// (SIGKILL) after `delay` milliseconds, or lets it end first.
fn run_killed_after(args: &[&str], delay: u64) -> std::process::ExitStatus {
    let mut child = std::process::Command::new(BIN)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(delay));
    child.kill().unwrap_or_default();
    child.wait().unwrap()
}

/// Copies the files of `from` into a fresh directory `to`.
fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

/// The names of a directory's files ending in `suffix`, with their bytes.
fn files_ending(
    dir: &std::path::Path,
    suffix: &str,
) -> std::collections::BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name().to_string_lossy().ends_with(suffix))
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).unwrap())
        })
        .collect()
}

/// `tb compress` killed (SIGKILL) at any moment leaves every table whole
/// in one format or the other: the directory probes (the same answers)
/// and verifies, and a rerun ends byte for byte where an uninterrupted
/// run does, a leftover temporary file ignored.
#[test]
fn tb_compress_killed_at_any_moment_leaves_a_usable_directory() {
    let limit = std::time::Duration::from_secs(60);
    let base = scratch_dir("compress-killed");
    let v1 = base.join("v1");
    let o = run(&[
        "tb",
        "generate",
        "--pieces",
        "5",
        "--format",
        "1",
        "--dir",
        v1.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let old = files_ending(&v1, ".sktb");
    assert_eq!(old.len(), 10);
    assert!(old.values().all(|b| b[8] == 1), "format 1 files");

    let reference = base.join("reference");
    copy_dir(&v1, &reference);
    let o = run_within(
        &["tb", "compress", "--dir", reference.to_str().unwrap()],
        limit,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let new = files_ending(&reference, ".sktb");
    assert_eq!(
        new.keys().collect::<Vec<_>>(),
        old.keys().collect::<Vec<_>>()
    );
    assert!(new.values().all(|b| b[8] == 2), "format 2 files");
    assert!(files_ending(&reference, ".tmp").is_empty());

    let positions = [
        "6/6/2w3/6/1b4/b5 b",
        "bb4/6/6/6/6/4ww b",
        "bbb3/6/6/6/6/4ww w",
        "b5/6/6/6/6/wwww2 w",
        "bbbb2/6/6/6/6/5w b",
        "b5/1b4/6/6/6/4ww w",
    ];
    let probe = |dir: &std::path::Path| {
        let args = ["tb", "probe", "--dir", dir.to_str().unwrap(), "--json"];
        let o = run_within(&[&args[..], &positions[..]].concat(), limit);
        assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
        stdout(&o)
    };
    let answers = probe(&reference);
    assert_eq!(json_lines_of(&answers).len(), positions.len());
    assert_eq!(probe(&v1), answers, "both formats answer alike");
    let verify = |dir: &std::path::Path, what: &str| {
        let o = run_within(&["tb", "verify", "--dir", dir.to_str().unwrap()], limit);
        assert!(o.status.success(), "{what}: {}{}", stdout(&o), stderr(&o));
        assert!(
            stdout(&o).contains("verified 10 tables"),
            "{what}: {}",
            stdout(&o)
        );
    };

    let mut converted_counts = Vec::new();
    for (round, delay) in [0u64, 40, 200].into_iter().enumerate() {
        let dir = base.join(format!("round-{round}"));
        copy_dir(&v1, &dir);
        if round == 0 {
            // A temporary file left by an earlier interrupted run.
            let partial = &new["3v2.sktb"][..1000];
            std::fs::write(dir.join("3v2.sktb.tmp"), partial).unwrap();
        }
        let status = run_killed_after(&["tb", "compress", "--dir", dir.to_str().unwrap()], delay);
        let what = format!("killed after {delay} ms ({status})");

        // Every table whole, in the old format or the new.
        let files = files_ending(&dir, ".sktb");
        assert_eq!(
            files.keys().collect::<Vec<_>>(),
            old.keys().collect::<Vec<_>>(),
            "{what}"
        );
        let mut converted = 0;
        for (name, bytes) in &files {
            if bytes == &new[name] {
                converted += 1;
            } else {
                assert!(bytes == &old[name], "{what}: {name} is neither old nor new");
            }
        }
        let leftovers: Vec<String> = files_ending(&dir, ".tmp").into_keys().collect();
        println!("{what}: {converted} of 10 converted, left over {leftovers:?}");
        converted_counts.push(converted);
        assert_eq!(probe(&dir), answers, "{what}");
        verify(&dir, &what);

        // A rerun finishes the work, byte for byte.
        let o = run_within(&["tb", "compress", "--dir", dir.to_str().unwrap()], limit);
        assert!(o.status.success(), "{what}: rerun: {}", stderr(&o));
        assert!(files_ending(&dir, ".sktb") == new, "{what}: rerun differs");
        let leftovers = files_ending(&dir, ".tmp");
        if !leftovers.is_empty() {
            // Tolerable only if nothing reads them as tables.
            assert!(
                leftovers.keys().all(|n| n.ends_with(".sktb.tmp")),
                "{what}: {leftovers:?}"
            );
            assert_eq!(probe(&dir), answers, "{what}: after the rerun");
            verify(&dir, &what);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
    println!("converted when killed: {converted_counts:?}");
    std::fs::remove_dir_all(&base).unwrap();
}

fn json_lines_of(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `tb verify --checkpoint-every 0` killed (SIGKILL) part-way (at two moments)
/// and run again reports exactly what an uninterrupted verification does and
/// leaves no checkpoint behind; a finished table's checkpoint is reported
/// as resumed, a damaged one is named in a warning and ignored.
#[test]
fn tb_verify_resumes_from_its_checkpoints() {
    let limit = std::time::Duration::from_secs(60);
    let base = scratch_dir("verify-resume");
    let tables = tables_up_to_5();
    let verify_json = |dir: &std::path::Path, checkpoints: bool| {
        let mut args = vec!["tb", "verify", "--dir", dir.to_str().unwrap(), "--json"];
        if checkpoints {
            args.extend(["--checkpoint-every", "0"]);
        }
        let o = run_within(&args, limit);
        assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
        let mut v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        v.as_object_mut().unwrap().remove("seconds");
        v["dir"] = serde_json::Value::Null;
        v
    };
    let reference = verify_json(tables, false);
    assert_eq!(reference["positions"], 1_415_760u64 + 103_641 + 5_430 + 165);
    assert_eq!(reference["errors"], 0);
    let mut left = Vec::new();
    for (round, delay) in [80u64, 300].into_iter().enumerate() {
        let dir = base.join(format!("round-{round}"));
        copy_dir(tables, &dir);
        let d = dir.to_str().unwrap();
        let args = [
            "tb",
            "verify",
            "--dir",
            d,
            "--checkpoint-every",
            "0",
            "--json",
        ];
        run_killed_after(&args, delay);
        let saved = files_ending(&dir, "-verify.ckpt");
        left.push(saved.len());
        // Resumed: the same report, and the checkpoints removed at the end.
        assert_eq!(
            verify_json(&dir, true),
            reference,
            "killed after {delay} ms"
        );
        assert!(files_ending(&dir, "-verify.ckpt").is_empty());
        if !saved.is_empty() {
            // The same checkpoints again, in text: said to be resumed.
            for (name, bytes) in &saved {
                std::fs::write(dir.join(name), bytes).unwrap();
            }
            let o = run_within(
                &[
                    "tb",
                    "verify",
                    "--dir",
                    dir.to_str().unwrap(),
                    "--checkpoint-every",
                    "0",
                ],
                limit,
            );
            assert!(o.status.success(), "{}", stderr(&o));
            assert_eq!(
                stderr(&o)
                    .matches("continuing from its checkpoint of a finished verification")
                    .count(),
                saved.len(),
                "{}",
                stderr(&o)
            );
            assert!(files_ending(&dir, "-verify.ckpt").is_empty());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
    println!("checkpoints left when killed: {left:?}");
    // A damaged checkpoint: a warning naming it, then a full verification.
    let damaged = base.join("damaged-checkpoint");
    copy_dir(tables, &damaged);
    std::fs::write(damaged.join("3v2-verify.ckpt"), b"SKVRFY\0\x01 not really").unwrap();
    let o = run_within(
        &[
            "tb",
            "verify",
            "--dir",
            damaged.to_str().unwrap(),
            "--checkpoint-every",
            "0",
        ],
        limit,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("3v2-verify.ckpt") && stderr(&o).contains("not used"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("verified 10 tables"), "{}", stdout(&o));
    assert!(files_ending(&damaged, "-verify.ckpt").is_empty());
    std::fs::remove_dir_all(&base).unwrap();
}

/// Values that mean nothing are refused like every other out-of-range value:
/// exit 2, the flag (or key) named; the engine protocol answers an error.
#[test]
fn values_that_mean_nothing_are_refused() {
    let cases: [(&[&str], &str); 6] = [
        (&["search", "--nodes", "0"], "'--nodes <N>'"),
        (&["search", "--movetime", "0"], "'--movetime <MS>'"),
        (
            &[
                "match",
                "--first",
                "depth=1",
                "--second",
                "depth=1",
                "--max-plies",
                "0",
            ],
            "'--max-plies <PLIES>'",
        ),
        (
            &["match", "--first", "depth=2,depth=3", "--second", "depth=1"],
            "--first: \"depth\" is given twice",
        ),
        (
            &[
                "match",
                "--first",
                "depth=2",
                "--second",
                "nodes=5,movetime=9,nodes=6",
            ],
            "--second: \"nodes\" is given twice",
        ),
        (&["bench", "--tb", ".", "--probes", "0"], "'--probes <N>'"),
    ];
    for (args, needle) in cases {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {needle:?} not in {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    let o = run_with_stdin(&["engine"], "go nodes 0\ngo movetime 0\nisready\nquit\n");
    assert_eq!(
        stdout(&o),
        "info string error: go: nodes 0 is out of range: give at least 1\n\
         info string error: go: movetime 0 is out of range: give at least 1\nreadyok\n"
    );
}

/// A damaged table met during a search is said, not hidden: the root's
/// value comes from its partner's table, the line from the damaged one, and
/// `search` warns (exit 0, the move stands) naming the file, `engine` sends
/// it as an `info string error`.
#[test]
fn table_errors_during_a_search_reach_the_user() {
    let limit = std::time::Duration::from_secs(60);
    let dir = generated_tables("damaged-search", 3);
    let d = dir.to_str().unwrap();
    let path = dir.join("1v2.sktb");
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - 7;
    bytes[at] ^= 0x40;
    std::fs::write(&path, bytes).unwrap();
    let needle = "1v2.sktb: payload checksum mismatch";

    let fen = "6/6/2w3/6/1b4/b5 w";
    let o = run_within(
        &["search", "-p", fen, "--tb", d, "--depth", "2", "--json"],
        limit,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.starts_with("warning: "), "{err}");
    assert!(err.contains("tablebase probe"), "{err}");
    assert!(err.contains(needle), "{err}");
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["best_move"].is_string(), "{v}");

    let script =
        format!("setoption name TablebasePath value {d}\nposition fen {fen}\ngo depth 2\nquit\n");
    let o = run_with_stdin_within(&["engine"], &script, limit);
    let out = stdout(&o);
    assert!(
        out.lines()
            .any(|l| l.starts_with("info string error: ") && l.contains(needle)),
        "{out}"
    );
    assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A searched score that counts plies through the tables is exact only
/// when every probe answered: with a damaged table the search still finds
/// the winning move, but says "winning" (the evaluation's bound), not a
/// table distance it cannot vouch for.
#[test]
fn a_search_whose_probes_failed_claims_no_table_distance() {
    let limit = std::time::Duration::from_secs(60);
    let dir = generated_tables("damaged-distance", 4);
    let d = dir.to_str().unwrap();
    let fen = "b5/6/2w3/6/1b4/w5 b";
    let search = || {
        let o = run_within(
            &["search", "-p", fen, "--tb", d, "--depth", "4", "--json"],
            limit,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        (v, stderr(&o))
    };
    // Intact: the root is decided by the tables, a win in 5.
    let (v, err) = search();
    assert_eq!(v["score"]["kind"], "tbwin", "{v}");
    assert_eq!(v["score"]["value"], 5, "{v}");
    assert!(err.is_empty(), "{err}");
    // 2v2 damaged: the root's quiet moves cannot be probed.
    let path = dir.join("2v2.sktb");
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - 7;
    bytes[at] ^= 0x40;
    std::fs::write(&path, bytes).unwrap();
    let (v, err) = search();
    assert!(err.contains("2v2.sktb: payload checksum mismatch"), "{err}");
    assert_eq!(v["score"]["kind"], "cp", "{v}");
    assert_eq!(v["score"]["value"], 20000, "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A finished game has a result, not a score: `search --json` gives the
/// outcome (and no score), the engine protocol says the game is over.
#[test]
fn a_finished_game_reports_its_outcome() {
    for (fen, result, termination, winner) in [
        ("6/6/6/6/6/w5 b", "0-1", "no-pieces", "white"),
        ("bb4/6/6/6/6/w5 b 50 30", "1-0", "no-capture-limit", "black"),
    ] {
        let o = run(&["search", "-p", fen, "--depth", "3", "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["score"], serde_json::Value::Null, "{v}");
        assert_eq!(v["best_move"], serde_json::Value::Null, "{v}");
        assert_eq!(v["outcome"]["result"], result, "{v}");
        assert_eq!(v["outcome"]["termination"], termination, "{v}");
        assert_eq!(v["outcome"]["winner"], winner, "{v}");
        let script = format!("position fen {fen}\ngo depth 3\nquit\n");
        let o = run_with_stdin(&["engine"], &script);
        let out = stdout(&o);
        assert!(
            out.contains(&format!("info string game over: {result} {winner} wins (")),
            "{out}"
        );
        assert!(out.ends_with("bestmove none\n"), "{out}");
    }
    // A game going on has a score and no outcome.
    let o = run(&["search", "--depth", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["outcome"], serde_json::Value::Null, "{v}");
    assert_eq!(v["score"]["kind"], "cp", "{v}");
}

#[test]
fn search_and_engine_at_a_level() {
    let o = run(&["search", "--depth", "6", "--level", "1", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON object");
    let best = v["best_move"].as_str().unwrap();
    assert!(legal_at_start(best), "{v}");
    assert!(
        v["depth"].as_u64().unwrap() <= 1,
        "level 1 searches depth 1: {v}"
    );

    for bad in ["0", "12", "300"] {
        let o = run(&["search", "--depth", "2", "--level", bad]);
        assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("--level"), "{err}");
    }

    let script = "uci\nsetoption name Level value 2\nposition startpos\ngo depth 5\nisready\n\
                  setoption name Level value 0\nquit\n";
    let o = run_with_stdin_within(&["engine"], script, Duration::from_secs(60));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.lines()
            .any(|l| l == "option name Level type spin default 11 min 1 max 11"),
        "{out}"
    );
    let bestmove = out.lines().find(|l| l.starts_with("bestmove ")).unwrap();
    assert!(legal_at_start(&bestmove["bestmove ".len()..]), "{out}");
    assert!(out.contains("invalid level 0"), "{out}");
}

/// Whether `text` names a legal move of the start position.
fn legal_at_start(text: &str) -> bool {
    surakarta::Position::new()
        .legal_moves()
        .iter()
        .any(|m| m.to_string() == text)
}
