//! `surakarta match` as a user runs it: in-process and external players,
//! openings, records, SPRT, errors.

use crate::common::*;
use std::process::Output;
use surakarta::{GameRecord, GameResult};

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

#[test]
fn in_process_match_writes_records_that_read_back() {
    let record = fresh_path("games.rec");
    let o = run(&[
        "match",
        "--first",
        "depth=4",
        "--second",
        "depth=1,name=weak",
        "-n",
        "6",
        "-c",
        "2",
        "--record",
        record.to_str().unwrap(),
        "--json",
    ]);
    let v = json(&o);
    assert_eq!(v["games"], 6);
    assert_eq!(v["second"], "weak");
    let (w, d, l) = (
        v["wins"].as_u64().unwrap(),
        v["draws"].as_u64().unwrap(),
        v["losses"].as_u64().unwrap(),
    );
    assert_eq!(w + d + l, 6);
    let pentanomial: Vec<u64> = v["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(pentanomial.iter().sum::<u64>(), 3, "{v}");
    assert!(v["elo_pairs"]["low"].as_f64().is_some(), "{v}");
    assert!(v["score"].as_f64().unwrap() > 0.5, "{v}");

    let text = std::fs::read_to_string(&record).unwrap();
    let games = GameRecord::parse_all(&text).unwrap();
    assert_eq!(games.len(), 6);
    let mut first_points = 0.0;
    for g in &games {
        let game = g.to_game().unwrap();
        // Every game was played to its end under the rules.
        assert_eq!(GameResult::from_outcome(game.outcome()), g.result, "{g}");
        let first_is_black = g.tag("Black") == Some("surakarta depth=4");
        assert_ne!(first_is_black, g.tag("White") == Some("surakarta depth=4"));
        first_points += match (g.result, first_is_black) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::BlackWins, true) | (GameResult::WhiteWins, false) => 1.0,
            _ => 0.0,
        };
    }
    assert_eq!(first_points, w as f64 + d as f64 / 2.0);
    let _ = std::fs::remove_file(record);
}

#[test]
fn external_engine_plays_through_the_protocol() {
    let cmd = format!("depth=2,name=ext,cmd={BIN} engine");
    let record = fresh_path("ext.rec");
    let o = run(&[
        "match",
        "--first",
        "depth=2",
        "--second",
        &cmd,
        "-n",
        "4",
        "--record",
        record.to_str().unwrap(),
        "--json",
    ]);
    let v = json(&o);
    assert_eq!(v["games"], 4);
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(!text.contains("forfeit"), "{text}");
    // The same deterministic engine on both sides, in process or through
    // the protocol: swapping colours replays the same game.
    let games = GameRecord::parse_all(&text).unwrap();
    assert_eq!(games.len(), 4);
    assert!(!games[0].moves.is_empty());
    assert_eq!(games[0].moves, games[1].moves);
    assert_eq!(games[2].moves, games[3].moves);
    let _ = std::fs::remove_file(record);
}

#[test]
fn a_broken_external_engine_is_an_error() {
    for cmd in [
        "depth=1,cmd=/nonexistent/engine",
        &format!("depth=1,cmd={BIN} perft 1"),
    ] {
        let o = run(&["match", "--first", "depth=1", "--second", cmd, "-n", "2"]);
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: cannot start a player"), "{err}");
    }
}

#[cfg(unix)]
#[test]
fn an_external_engine_gets_its_timeout_for_the_handshake() {
    // `sleep` never answers `uci`: with timeout=1 the match gives up after
    // a second, not after a fixed ten.
    let o = run_within(
        &[
            "match",
            "--first",
            "depth=1",
            "--second",
            "depth=1,timeout=1,name=mute,cmd=sleep 30",
            "-n",
            "2",
        ],
        std::time::Duration::from_secs(8),
    );
    assert_cli_error(&o, "cannot start a player: mute: no answer within 1.0 s");
}

/// `yes info` never answers `uci` and never stops printing: the match
/// fails with one line naming the cap it broke, promptly and in bounded
/// memory, instead of reading the flood until memory runs out.
#[cfg(unix)]
#[test]
fn an_external_engine_printing_forever_is_stopped() {
    let o = run_within(
        &[
            "match",
            "--first",
            "depth=2",
            "--second",
            "depth=2,timeout=2,cmd=yes info",
            "-n",
            "2",
        ],
        std::time::Duration::from_secs(20),
    );
    assert_cli_error(
        &o,
        "cannot start a player: yes depth=2: printed more than 65536 lines while waiting for uciok",
    );
}

#[test]
fn openings_from_a_file_random_boards_and_thinned_starts() {
    // A match of two depth-1 players with these openings settings.
    let quick = |openings: &[&str]| {
        let mut args = vec!["match", "--first", "depth=1", "--second", "depth=1"];
        args.extend_from_slice(openings);
        run(&args)
    };
    let file = fresh_path("openings.txt");
    std::fs::write(
        &file,
        "# two openings\nww3w/wb4/5w/6/6/b1w3 b\n2w3/6/6/6/1b4/b5 w\n",
    )
    .unwrap();
    let v = json(&run(&[
        "match",
        "--first",
        "depth=2",
        "--second",
        "depth=2",
        "--openings",
        file.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(v["games"], 4);
    std::fs::write(&file, "ww3w/wb4/5w/6/6/b1w3 b\n6/6/6 b\n").unwrap();
    let o = quick(&["--openings", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 2: board field"), "{err}");
    let _ = std::fs::remove_file(file);

    let v = json(&quick(&[
        "--openings",
        "random",
        "--pieces",
        "6",
        "--max-diff",
        "2",
        "-n",
        "4",
        "--rules",
        "pure",
        "--max-plies",
        "60",
        "--json",
    ]));
    assert_eq!(
        (v["games"].as_u64(), v["rules"].as_str()),
        (Some(4), Some("pure"))
    );

    let v = json(&quick(&[
        "--openings",
        "thinned",
        "--pieces",
        "16",
        "--max-diff",
        "0",
        "-n",
        "4",
        "--max-plies",
        "40",
        "--json",
    ]));
    assert_eq!(v["games"].as_u64(), Some(4), "{v}");
    // 25 pieces: a side has at most 12, so the range of --pieces ends at 24.
    let o = quick(&["--openings", "thinned", "--pieces", "25", "-n", "2"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("'--pieces <N>': out of range: give 2 to 24"),
        "{err}"
    );
}

#[test]
fn sprt_stops_early_and_text_output_summarises() {
    let v = json(&run(&[
        "match", "--first", "depth=3", "--second", "nodes=1", "--sprt", "0,200", "-n", "400", "-c",
        "2", "--json",
    ]));
    assert_eq!(v["sprt"]["decision"], "H1", "{v}");
    assert!(v["games"].as_u64().unwrap() < 400);
    let o = run(&[
        "match", "--first", "depth=2", "--second", "depth=1", "-n", "2",
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success());
    assert!(
        text.contains("game    1") && text.contains("(W-D-L)") && text.contains("pairs: 1 "),
        "{text}"
    );
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    let cases: &[&[&str]] = &[
        &["match", "--first", "depth=2", "--second", "speed=3"],
        &["match", "--first", "", "--second", "depth=1"],
        &[
            "match",
            "--first",
            "depth=1,eval=fancy",
            "--second",
            "depth=1",
        ],
        &[
            "match",
            "--first",
            "depth=1,threads=5000",
            "--second",
            "depth=1",
        ],
        &[
            "match", "--first", "depth=1", "--second", "depth=1", "--sprt", "10,0",
        ],
        &[
            "match", "--first", "depth=1", "--second", "depth=1", "--rules", "chess",
        ],
        &[
            "match", "--first", "depth=1", "--second", "depth=1", "-c", "0",
        ],
        &[
            "match", "--first", "depth=1", "--second", "depth=1", "-n", "0",
        ],
        &[
            "match",
            "--first",
            "depth=1",
            "--second",
            "depth=1",
            "--openings",
            "random",
            "--pieces",
            "40",
        ],
        &[
            "match",
            "--first",
            "depth=1,tb=/nonexistent",
            "--second",
            "depth=1",
        ],
        &[
            "match",
            "--first",
            "depth=1",
            "--second",
            "depth=1",
            "--openings",
            "/nonexistent",
        ],
    ];
    for args in cases {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{err}");
    }
}

#[test]
fn balanced_openings_are_drawn_from_the_seed_or_filtered_from_a_file() {
    use surakarta::Position;
    use surakarta_match::openings::{from_start, BALANCE_BATCH};
    let record = fresh_path("balanced.rec");
    let v = json(&run(&[
        "match",
        "--first",
        "depth=1",
        "--second",
        "depth=1",
        "--balance",
        "10",
        "--balance-nodes",
        "1000",
        "--seed",
        "3",
        "-n",
        "8",
        "--max-plies",
        "20",
        "--record",
        record.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(v["games"], 8);
    let text = std::fs::read_to_string(&record).unwrap();
    let starts: Vec<Position> = GameRecord::parse_all(&text)
        .unwrap()
        .iter()
        .map(|r| r.start)
        .collect();
    // Four openings, each twice, picked in order from the seed's first
    // candidates, and not simply the first four of them.
    let candidates = from_start(BALANCE_BATCH, 8, 3);
    let picked: Vec<usize> = starts
        .iter()
        .step_by(2)
        .map(|s| candidates.iter().position(|c| c == s).expect("a candidate"))
        .collect();
    assert!(picked.windows(2).all(|w| w[0] < w[1]), "{picked:?}");
    assert_ne!(picked, [0, 1, 2, 3]);
    let _ = std::fs::remove_file(record);

    // A file is filtered: the start position stays, a side a piece up goes.
    let file = fresh_path("balance.txt");
    let uneven = "wwwwww/wwwww1/6/6/bbbbbb/bbbbbb b";
    std::fs::write(&file, format!("{}\n{uneven}\n", Position::new())).unwrap();
    let quick = |extra: &[&str]| {
        let mut args = vec![
            "match",
            "--first",
            "depth=1",
            "--second",
            "depth=1",
            "--max-plies",
            "10",
            "--balance",
            "40",
            "--balance-nodes",
            "2000",
            "--openings",
        ];
        args.push(file.to_str().unwrap());
        args.extend_from_slice(extra);
        run(&args)
    };
    assert_eq!(json(&quick(&["--json"]))["games"], 2);
    let o = quick(&["-n", "4"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("has 1 balanced positions: at most 2 games"),
        "{err}"
    );
    std::fs::write(&file, format!("{uneven}\n")).unwrap();
    let o = quick(&[]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no position is balanced within 40 centipawns"),
        "{err}"
    );
    let _ = std::fs::remove_file(file);
}

/// An openings "file" that never ends or blocks (`/dev/zero`, a FIFO) is
/// refused as not a regular file, without being read; a regular file over
/// the openings limit is refused at the limit, never held whole.
#[cfg(target_os = "linux")]
#[test]
fn openings_that_are_not_a_regular_file_or_too_long_are_refused() {
    let dir = fresh_path("openings-kinds");
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo.txt");
    make_fifo(&fifo);
    let long = dir.join("long.txt");
    // Sparse: 64 MiB and one byte of zeros, no disk taken.
    std::fs::File::create(&long)
        .unwrap()
        .set_len(67_108_865)
        .unwrap();
    let cases = [
        ("/dev/zero".to_string(), "not a regular file"),
        (fifo.display().to_string(), "not a regular file"),
        (dir.display().to_string(), "not a regular file"),
        (
            long.display().to_string(),
            "openings file too long (more than 67108864 bytes)",
        ),
    ];
    for (path, needle) in cases {
        let o = run_within(
            &[
                "match",
                "--first",
                "depth=1",
                "--second",
                "depth=1",
                "--openings",
                &path,
            ],
            std::time::Duration::from_secs(60),
        );
        assert_eq!(o.status.code(), Some(2), "{path}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(&path) && err.contains(needle), "{path}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--tc`: both players on a clock, the in-process engine and one
/// through the protocol (`go btime … wtime …`), no limit per move needed;
/// a malformed control and a player without limits off the clock are
/// errors naming them.
#[test]
fn players_on_a_clock_share_out_their_time() {
    let cmd = format!("name=ext,cmd={BIN} engine");
    let v = json(&run(&[
        "match",
        "--first",
        "name=clock",
        "--second",
        &cmd,
        "--tc",
        "0.5+0.01",
        "-n",
        "2",
        "--max-plies",
        "40",
        "--json",
    ]));
    assert_eq!(
        (v["games"].as_u64(), v["tc"].as_str()),
        (Some(2), Some("0.5+0.01")),
        "{v}"
    );
    for (args, needle) in [
        (&["--tc", "2+"][..], "is not a time control"),
        (
            &["--tc", "0+1"][..],
            "the time must be at least 0.1 seconds",
        ),
        (&[][..], "(or a clock: --tc)"),
    ] {
        let mut all = vec!["match", "--first", "name=a", "--second", "depth=1"];
        all.extend_from_slice(args);
        let o = run(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(needle),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// The arguments of a resumed match of `games` games, `first` against
/// `depth=1`, recorded in `record`.
fn resume_args(record: &std::path::Path, first: &str, games: &str) -> Vec<String> {
    [
        "match",
        "--first",
        first,
        "--second",
        "depth=1",
        "--seed",
        "5",
        "-n",
        games,
        "--record",
        record.to_str().unwrap(),
        "--resume",
        "--json",
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn a_stopped_match_resumes_from_its_record_file() {
    let whole = fresh_path("whole.rec");
    let cut = fresh_path("cut.rec");
    let args = |record: &std::path::Path, games: &str| resume_args(record, "depth=2", games);
    let play = |a: Vec<String>| run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    // Without the file, --resume starts the match.
    let all = json(&play(args(&whole, "8")));
    let text = std::fs::read_to_string(&whole).unwrap();
    // Stopped while writing the sixth game.
    let sixth = text.match_indices("[Event").nth(5).unwrap().0;
    std::fs::write(&cut, &text[..sixth + 30]).unwrap();
    let resumed = json(&play(args(&cut, "8")));
    assert_eq!(
        (all["resumed"].as_u64(), resumed["resumed"].as_u64()),
        (Some(0), Some(5))
    );
    for key in ["games", "wins", "draws", "losses", "pentanomial"] {
        assert_eq!(resumed[key], all[key], "{key}");
    }
    let after = std::fs::read_to_string(&cut).unwrap();
    assert_eq!(GameRecord::parse_all(&after).unwrap().len(), 8);
    assert_eq!(after.matches("[Opening").count(), 8);
    // A longer match goes on from the same file.
    assert_eq!(json(&play(args(&cut, "10")))["games"], 10);

    // Another match's file is refused and left as it was.
    let mut other = args(&cut, "10");
    other[6] = "6".into();
    let o = play(other);
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("not of this match"), "{stderr}");
    assert_eq!(
        GameRecord::parse_all(&std::fs::read_to_string(&cut).unwrap())
            .unwrap()
            .len(),
        10
    );
    // --resume needs --record.
    let o = run(&[
        "match", "--first", "depth=1", "--second", "depth=1", "--resume",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

/// The bytes and modification time of `file`.
fn snapshot(file: &std::path::Path) -> (Vec<u8>, std::time::SystemTime) {
    let bytes = std::fs::read(file).unwrap();
    let modified = std::fs::metadata(file).unwrap().modified().unwrap();
    (bytes, modified)
}

/// `--resume` takes a file of whole games and at most one game cut off at
/// its end; a note, another match's records or a game twice are refused
/// with one error line, and the file keeps its bytes and its time.
#[test]
fn resume_refuses_anything_but_whole_games_and_one_cut_off_leaving_the_file() {
    let dir = scratch_dir("resume-refusals");
    let args = |record: &std::path::Path, first: &str| resume_args(record, first, "4");
    let play = |a: Vec<String>| run(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let whole = dir.join("whole.rec");
    assert_eq!(json(&play(args(&whole, "depth=2")))["games"], 4);
    let text = std::fs::read_to_string(&whole).unwrap();
    let other = dir.join("other.rec");
    assert_eq!(json(&play(args(&other, "depth=2,name=x")))["games"], 4);
    let other_text = std::fs::read_to_string(&other).unwrap();
    let first_record = &text[..text.match_indices("[Event").nth(1).unwrap().0];
    let cases = [
        ("note", format!("{text}a note\n"), "line"),
        ("glued note", format!("{}\nnote\n", text.trim_end()), "text after the end of game 4"),
        ("other match", format!("{text}{other_text}"), "game 5 of the record file is not of this match"),
        ("twice", format!("{text}{first_record}"), "game 5 of the record file is opening 1"),
        (
            "note after a cut record",
            format!("{text}[Event \"surakarta match: surakarta depth=2 vs surakarta depth=1\"]\n[Round \"5\"]\nnote\n"),
            "game 5 of the record file cannot be read",
        ),
    ];
    for (name, content, needle) in cases {
        let file = dir.join(format!("{}.rec", name.replace(' ', "-")));
        std::fs::write(&file, &content).unwrap();
        let before = snapshot(&file);
        std::thread::sleep(std::time::Duration::from_millis(20));
        let o = play(args(&file, "depth=2"));
        assert_cli_error(&o, needle);
        assert!(
            stderr(&o).contains("the file is left as it was"),
            "{name}: {}",
            stderr(&o)
        );
        assert!(before == snapshot(&file), "{name}: the file changed");
    }
    // A note alone after the games is named by its line.
    let file = dir.join("note.rec");
    let line = text.lines().count() + 1;
    let o = play(args(&file, "depth=2"));
    assert_cli_error(
        &o,
        &format!("line {line} of the record file: text after the end of game 4"),
    );

    // A game cut off at the end is dropped and played again: the rest of
    // the file is kept byte for byte.
    let third = text.match_indices("[Event").nth(3).unwrap().0;
    let cut = dir.join("cut.rec");
    std::fs::write(&cut, &text[..third + 40]).unwrap();
    let resumed = json(&play(args(&cut, "depth=2")));
    assert_eq!(
        (resumed["resumed"].as_u64(), resumed["games"].as_u64()),
        (Some(3), Some(4))
    );
    let after = std::fs::read_to_string(&cut).unwrap();
    assert!(after.starts_with(&text[..third]), "{after}");
    assert_eq!(GameRecord::parse_all(&after).unwrap().len(), 4);
    let _ = std::fs::remove_dir_all(dir);
}

/// `--record` replaces a symbolic link (the file it points to is kept) and
/// refuses a FIFO or a directory before any game, and the openings file.
#[cfg(unix)]
#[test]
fn the_record_file_replaces_a_link_and_refuses_special_files() {
    let dir = scratch_dir("record-kinds");
    let (link, target) = link_to_kept_file(&dir, "link.rec");
    let base = [
        "match", "--first", "depth=1", "--second", "depth=1", "-n", "2", "--record",
    ];
    let mut args = base.to_vec();
    args.push(link.to_str().unwrap());
    let o = run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_link_replaced(&link, &target);
    assert_eq!(
        GameRecord::parse_all(&std::fs::read_to_string(&link).unwrap())
            .unwrap()
            .len(),
        2
    );
    let fifo = dir.join("fifo.rec");
    make_fifo(&fifo);
    for (path, needle) in [(&fifo, "it is a FIFO"), (&dir, "it is a directory")] {
        let mut args = base.to_vec();
        args.push(path.to_str().unwrap());
        assert_cli_error(
            &run_within(&args, std::time::Duration::from_secs(60)),
            needle,
        );
    }
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b\n").unwrap();
    let mut args = base.to_vec();
    args.extend([
        openings.to_str().unwrap(),
        "--openings",
        openings.to_str().unwrap(),
    ]);
    assert_cli_error(&run(&args), "is the file read");
    assert_eq!(
        std::fs::read_to_string(&openings).unwrap(),
        "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b\n"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// An opening where the game is already over under the match's rules (here
/// the no-capture counter at ICGA's 50) is refused, naming its line.
#[test]
fn openings_already_over_under_the_rules_are_refused() {
    let dir = scratch_dir("openings-over");
    let file = dir.join("openings.txt");
    std::fs::write(
        &file,
        "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b\nwwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 50 30\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let base = [
        "match",
        "--first",
        "depth=1",
        "--second",
        "depth=1",
        "--openings",
        path,
    ];
    assert_cli_error(&run(&base), "line 2: the game is already over");
    // Under rules without that limit the same file is two openings.
    let mut args = base.to_vec();
    args.extend(["--rules", "repetitions=3", "--max-plies", "4", "--json"]);
    let o = run(&args);
    assert_eq!(json(&o)["games"], 4, "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(dir);
}
