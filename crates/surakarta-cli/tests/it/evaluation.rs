//! The learned evaluation end to end, as a user makes one: self-play data
//! (`datagen`), a network trained on it (`train`), and that network used by
//! `search`, `bench`, `match` and the engine protocol (`--eval-file`,
//! `eval-file=`, `EvalFile`); damaged network files are refused.

use crate::common::*;

use surakarta_search::network::Network;

#[test]
fn data_train_load_and_search() {
    let dir = scratch_dir("evaluation-smoke");
    let data = dir.join("data");
    let o = run(&[
        "datagen",
        "--out",
        data.to_str().unwrap(),
        "--games",
        "20",
        "--nodes",
        "300",
        "--threads",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let net = dir.join("tiny.sknn");
    let o = run(&[
        "train",
        "--data",
        data.to_str().unwrap(),
        "--out",
        net.to_str().unwrap(),
        "--epochs",
        "3",
        "--name",
        "smoke",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let network = Network::read(&net).expect("the trained file reads back");
    assert_eq!(network.name, "smoke");

    let o = run(&[
        "search",
        "--depth",
        "4",
        "--eval-file",
        net.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let answer: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let best = answer["best_move"].as_str().unwrap().to_string();
    let start = surakarta::Position::new();
    assert!(start.is_legal(start.parse_move(&best).unwrap()), "{best}");

    let o = run(&[
        "bench",
        "--depth",
        "3",
        "--eval-file",
        net.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bench: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(bench["eval"], "nnue:smoke");
    assert!(bench["eval_ns"].as_u64().unwrap() > 0);
    assert!(bench["classic_eval_ns"].as_u64().unwrap() > 0);

    let spec = format!("depth=2,eval-file={}", net.display());
    let o = run(&[
        "match",
        "--first",
        &spec,
        "--second",
        "depth=2,eval=classic",
        "--games",
        "2",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));

    let input = format!(
        "setoption name EvalFile value {}\nposition startpos\ngo depth 3\nquit\n",
        net.display()
    );
    let o = run_with_stdin(&["engine"], &input);
    let out = stdout(&o);
    assert!(out.contains("bestmove"), "{out}");
    assert!(!out.contains("error"), "{out}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn damaged_or_foreign_network_files_are_refused() {
    let dir = scratch_dir("evaluation-damaged");
    let good = Network::embedded().to_bytes();
    let mut flipped = good.clone();
    flipped[200] ^= 4;
    let cases: [(&str, Vec<u8>, &str); 4] = [
        ("flipped.sknn", flipped, "damaged"),
        (
            "short.sknn",
            good[..good.len() / 2].to_vec(),
            "bytes, expected",
        ),
        (
            "table.sknn",
            b"SKTB and more".to_vec(),
            "not a network file",
        ),
        ("empty.sknn", Vec::new(), "bytes, expected"),
    ];
    for (name, bytes, needle) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        for args in [
            vec![
                "search",
                "--depth",
                "2",
                "--eval-file",
                path.to_str().unwrap(),
            ],
            vec![
                "bench",
                "--depth",
                "1",
                "--eval-file",
                path.to_str().unwrap(),
            ],
        ] {
            let o = run(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            let err = stderr(&o);
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.contains("--eval-file") && err.contains(needle), "{err}");
        }
        let spec = format!("depth=1,eval-file={}", path.display());
        let o = run(&[
            "match", "--first", &spec, "--second", "depth=1", "--games", "2",
        ]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("eval-file"), "{}", stderr(&o));
        let input = format!(
            "setoption name EvalFile value {}\nisready\nquit\n",
            path.display()
        );
        let o = run_with_stdin(&["engine"], &input);
        assert!(
            stdout(&o).contains("info string error: EvalFile"),
            "{}",
            stdout(&o)
        );
    }
    let o = run(&[
        "search",
        "--depth",
        "2",
        "--eval",
        "classic",
        "--eval-file",
        "x.sknn",
    ]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(dir).unwrap();
}

/// A FIFO named like a network file, in a fresh directory of its own.
#[cfg(unix)]
fn network_fifo(name: &str) -> (std::path::PathBuf, String) {
    let dir = scratch_dir(name);
    let fifo = dir.join("f.sknn");
    make_fifo(&fifo);
    let path = fifo.to_str().unwrap().to_string();
    (dir, path)
}

/// Long enough for a debug build to start and refuse the file, far too
/// short for a test to wait on a hang.
#[cfg(unix)]
const FIFO_LIMIT: std::time::Duration = std::time::Duration::from_secs(20);

/// A network file that is a FIFO would block a plain open forever, waiting
/// for a writer: `search --eval-file` refuses it at once as not a regular
/// file (run under a time limit, so that a hang fails the test).
#[cfg(unix)]
#[test]
fn search_refuses_a_fifo_as_the_network_file() {
    let (dir, path) = network_fifo("evaluation-fifo-search");
    let o = run_within(
        &["search", "--depth", "3", "--eval-file", &path],
        FIFO_LIMIT,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("--eval-file") && err.contains(&path) && err.contains("not a regular file"),
        "{err}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// `match` with `eval-file=FIFO` ends at once with the error, not a hang.
#[cfg(unix)]
#[test]
fn match_refuses_a_fifo_as_the_network_file() {
    let (dir, path) = network_fifo("evaluation-fifo-match");
    let spec = format!("depth=1,eval-file={path}");
    let o = run_within(
        &[
            "match", "--first", &spec, "--second", "depth=1", "--games", "2",
        ],
        FIFO_LIMIT,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("eval-file") && err.contains(&path) && err.contains("not a regular file"),
        "{err}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// The engine's `setoption name EvalFile` with a FIFO answers one `info
/// string error` and goes on (`readyok`), not a hang.
#[cfg(unix)]
#[test]
fn the_engine_refuses_a_fifo_as_the_network_file() {
    let (dir, path) = network_fifo("evaluation-fifo-engine");
    let input = format!("setoption name EvalFile value {path}\nisready\nquit\n");
    let o = run_with_stdin_within(&["engine"], &input, FIFO_LIMIT);
    let out = stdout(&o);
    let errors = engine_errors(&out);
    assert!(
        errors.len() == 1
            && errors[0].starts_with("info string error: EvalFile")
            && errors[0].contains("not a regular file"),
        "{out}"
    );
    assert!(out.contains("readyok"), "{out}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A network whose output sum could leave `i32` (every output bias near
/// `i32::MAX`, every output weight 32767) is refused before any search,
/// instead of evaluating with the sum's sign wrapped.
#[test]
fn a_network_whose_sums_could_overflow_is_refused() {
    use surakarta_search::network::{Row, HIDDEN};
    let dir = scratch_dir("evaluation-overflow");
    for bias in [i32::MAX, 1_100_000_000] {
        let mut net = (*Network::embedded()).clone();
        net.weights.output_bias = [bias; 4];
        for bucket in &mut net.weights.output {
            *bucket = [Row([i16::MAX; HIDDEN]); 2];
        }
        let path = dir.join("overflow.sknn");
        std::fs::write(&path, net.to_bytes()).unwrap();
        let o = run(&[
            "search",
            "--depth",
            "1",
            "--eval-file",
            path.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
        let err = stderr(&o);
        assert!(
            err.contains("--eval-file")
                && err.contains("output bucket")
                && err.contains("overflow"),
            "{err}"
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}
