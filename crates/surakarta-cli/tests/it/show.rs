//! `surakarta show` as a user runs it: the text board, the SVG picture, the
//! highlighted move and capture path, and the errors.

use crate::common::*;

#[test]
fn position_as_text() {
    let o = run(&["show", "ww3w/wb4/5w/6/6/b1w3 w 17"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        &lines[..8],
        [
            "6  w  w  .  .  .  w",
            "5  w  b  .  .  .  .",
            "4  .  .  .  .  .  w",
            "3  .  .  .  .  .  .",
            "2  .  .  .  .  .  .",
            "1  b  .  w  .  .  .",
            "   a  b  c  d  e  f",
            "white to move, no-capture plies 17, move 1",
        ]
    );
    assert!(
        out.contains("position: ww3w/wb4/5w/6/6/b1w3 w 17 1"),
        "{out}"
    );
    // Not a terminal: no colour escapes.
    assert!(!out.contains('\x1b'), "{out}");
    // The fields may also come as separate words.
    let words = run(&["show", "ww3w/wb4/5w/6/6/b1w3", "w", "17"]);
    assert_eq!(stdout(&words), out);
}

#[test]
fn start_position_svg() {
    let dir = scratch_dir("start");
    let file = dir.join("start.svg");
    let o = run(&[
        "show",
        "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1",
        "--svg",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("viewBox=\"0 0 "));
    assert_eq!(svg.matches("<circle class=\"piece black\"").count(), 12);
    assert_eq!(svg.matches("<circle class=\"piece white\"").count(), 12);
    assert_eq!(svg.matches("<path class=\"arc small\"").count(), 4);
    assert_eq!(svg.matches("<path class=\"arc large\"").count(), 4);
    // Three-quarter circles: radius 1 unit for the small loops, 2 for the large.
    assert_eq!(svg.matches(" A 50 50 0 1 ").count(), 4);
    assert_eq!(svg.matches(" A 100 100 0 1 ").count(), 4);
    // Every file and rank is labelled; nothing external is used.
    for label in ["a", "b", "c", "d", "e", "f", "1", "2", "3", "4", "5", "6"] {
        assert!(svg.contains(&format!(">{label}</text>")), "{label}");
    }
    assert!(!svg.contains("href"), "no external resources");
    assert!(!svg.contains("class=\"mark"));
    // Opening and closing tags balance.
    assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
    assert_eq!(svg.matches("<svg").count(), 1);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn capture_highlight_text_and_svg() {
    let dir = scratch_dir("capture");
    let file = dir.join("capture.svg");
    let o = run(&[
        "show",
        "ww3w/wb4/5w/6/6/b1w3 b",
        "--move",
        "b5b6",
        "--svg",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // The move is drawn in the shown position, not played.
    assert!(
        out.starts_with("6  w [w] .  .  .  w\n5  w (b) .  .  .  .\n"),
        "{out}"
    );
    assert!(out.contains("highlighted move: b5xb6"), "{out}");
    assert!(
        out.contains(
            "path: b5 c5 d5 e5 f5 ~ e6 e5 e4 e3 e2 e1 ~ f2 e2 d2 c2 b2 a2 ~ b1 b2 b3 b4 b5 b6 (3 arcs)"
        ),
        "{out}"
    );
    assert!(
        out.contains("position: ww3w/wb4/5w/6/6/b1w3 b 0 1"),
        "{out}"
    );
    let svg = std::fs::read_to_string(&file).unwrap();
    assert_eq!(svg.matches("class=\"piece ").count(), 8);
    assert_eq!(svg.matches("class=\"mark from\"").count(), 1);
    assert_eq!(svg.matches("class=\"mark to\"").count(), 1);
    // The path: from b5 (x 195, y 195), 3 loops of the small circuit, 19
    // straight steps, an arrow head.
    let path = svg
        .lines()
        .find(|l| l.contains("class=\"capture-path\""))
        .expect("a capture path");
    let d = path
        .split("d=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    assert!(d.starts_with("M 195 195 "), "{d}");
    assert_eq!(d.matches(" A 50 50 0 1 ").count(), 3, "{d}");
    assert_eq!(d.matches(" L ").count(), 19, "{d}");
    assert!(d.ends_with(" L 195 145"), "ends at b6: {d}");
    assert!(path.contains("marker-end=\"url(#arrow)\""));
    assert!(path.contains("stroke-opacity=\"0.55\""));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn step_highlight_has_no_path() {
    let o = run(&[
        "show",
        "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b",
        "--move",
        "b2-c3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("3  .  . [.] .  .  .\n2  b (b) b  b  b  b\n"),
        "{out}"
    );
    assert!(!out.contains("path:"), "{out}");
}

#[test]
fn errors_exit_2_with_one_line() {
    assert_cli_error(&run(&["show", "6/6/6 b"]), "expected 6 ranks");
    assert_cli_error(
        &run(&["show", "no-such-file.txt"]),
        "\"no-such-file.txt\" is neither a record file nor a valid position",
    );
    assert_cli_error(
        &run(&["show", "ww3w/wb4/5w/6/6/b1w3 b", "--move", "b5-b6"]),
        "--move: b5-b6: this move is b5xb6",
    );
    assert_cli_error(
        &run(&[
            "show",
            "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b",
            "--move",
            "b1-b3",
        ]),
        "illegal move",
    );
    assert_cli_error(
        &run(&["show", "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b", "--ply", "1"]),
        "--ply needs a game record",
    );
    let dir = scratch_dir("errors");
    let missing_dir = dir.join("no").join("such.svg");
    assert_cli_error(
        &run(&[
            "show",
            "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b",
            "--svg",
            missing_dir.to_str().unwrap(),
        ]),
        "cannot write",
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Two games: a short opening, then the worked capture example.
const RECORDS: &str = r#"[Event "opening"]
[Black "alice"]
[White "bob"]
[Result "*"]

1. b2-b3 e5-e4 2. b3-c4 f5-e5 *

[Event "capture"]
[Black "carol"]
[White "dave"]
[Rules "pure"]
[Start "ww3w/wb4/5w/6/6/b1w3 b"]
[Result "*"]

1. b5xb6 a5-b5 *
"#;

#[test]
fn record_last_game_final_position() {
    let dir = scratch_dir("record");
    let file = dir.join("games.txt");
    std::fs::write(&file, RECORDS).unwrap();
    let svg = dir.join("last.svg");
    let o = run(&[
        "show",
        file.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // Tags above the board, in file order.
    let head: Vec<&str> = out.lines().take(7).collect();
    assert_eq!(
        head,
        [
            "game 2 of 2",
            "Event: capture",
            "Black: carol",
            "White: dave",
            "Rules: pure",
            "Start: ww3w/wb4/5w/6/6/b1w3 b 0 1",
            "Result: *",
        ]
    );
    // The final position, the last move (a step) marked.
    assert!(
        out.contains("6  w  b  .  .  .  w\n5 (.)[w] .  .  .  .\n"),
        "{out}"
    );
    assert!(out.contains("last move (ply 2 of 2): a5-b5"), "{out}");
    assert!(
        out.contains("position: wb3w/1w4/5w/6/6/b1w3 b 1 2"),
        "{out}"
    );
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(picture.matches("class=\"piece ").count(), 7);
    assert!(picture.contains("class=\"move\""));
    assert!(!picture.contains("class=\"capture-path\""));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn record_game_and_ply() {
    let dir = scratch_dir("ply");
    let file = dir.join("games.txt");
    std::fs::write(&file, RECORDS).unwrap();
    let f = file.to_str().unwrap();

    let o = run(&["show", f, "--game", "1", "--ply", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("game 1 of 2\nEvent: opening\nBlack: alice\nWhite: bob\n"),
        "{out}"
    );
    assert!(
        out.contains("4  .  . [b] .  w  .\n3  . (.) .  .  .  .\n"),
        "{out}"
    );
    assert!(out.contains("last move (ply 3 of 4): b3-c4"), "{out}");

    // Ply 0: the start, nothing marked.
    let o = run(&["show", f, "--game", "1", "--ply", "0"]);
    let out = stdout(&o);
    assert!(
        out.contains("position: wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1"),
        "{out}"
    );
    assert!(!out.contains("last move"), "{out}");
    assert!(!out.contains('(') && !out.contains('['), "{out}");

    // The capture that led to ply 1 is drawn with its path, found in the
    // position before it.
    let o = run(&["show", f, "--ply", "1"]);
    let out = stdout(&o);
    assert!(
        out.contains("6  w [b] .  .  .  w\n5  w (.) .  .  .  .\n"),
        "{out}"
    );
    assert!(out.contains("path: b5 c5 d5 e5 f5 ~ e6"), "{out}");

    // --move highlights a move of the shown position instead.
    let o = run(&["show", f, "--ply", "1", "--move", "a5xb6"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("highlighted move: a5xb6"), "{out}");
    assert!(!out.contains("last move"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn record_errors_exit_2_with_one_line() {
    let dir = scratch_dir("record-errors");
    let file = dir.join("games.txt");
    std::fs::write(&file, RECORDS).unwrap();
    let f = file.to_str().unwrap();
    assert_cli_error(
        &run(&["show", f, "--ply", "3"]),
        "--ply 3 is beyond the end of the game (2 plies)",
    );
    assert_cli_error(
        &run(&["show", f, "--game", "1", "--ply", "5"]),
        "--ply 5 is beyond the end of the game (4 plies)",
    );
    assert_cli_error(&run(&["show", f, "--game", "3"]), "holds 2 games");
    assert_cli_error(
        &run(&["show", f, "--game", "0"]),
        "'--game <K>': out of range",
    );
    assert_cli_error(&run(&["show", f, "--move", "b2-b3"]), "no piece on b2");

    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "[Event \"x\"]\n\n1. b2-b3 e5-e4 2. b3-b5 *\n").unwrap();
    let o = run(&["show", bad.to_str().unwrap()]);
    assert_cli_error(&o, "line 3: ply 3: b3-b5: illegal move");
    assert!(stderr(&o).contains("bad.txt"), "{}", stderr(&o));

    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "\n").unwrap();
    assert_cli_error(
        &run(&["show", empty.to_str().unwrap()]),
        "no game in the file",
    );

    // Longer than a record may be: refused after reading one byte past
    // the limit (the file is sparse: no disk taken).
    let long = dir.join("long.txt");
    std::fs::File::create(&long)
        .unwrap()
        .set_len(16 * 1024 * 1024 + 1)
        .unwrap();
    assert_cli_error(
        &run(&["show", long.to_str().unwrap()]),
        "longer than the 16777216 bytes such a file may have",
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A record's tags reach the terminal with their control characters
/// escaped: a value cannot clear the screen or move the cursor.
#[test]
fn tag_values_are_printed_with_control_characters_escaped() {
    let dir = scratch_dir("control");
    let file = dir.join("control.txt");
    std::fs::write(
        &file,
        "[Event \"a\u{1b}[2J\u{7}b\rc\u{0}d\u{9b}e\"]\n\n1. b2-b3 *\n",
    )
    .unwrap();
    let o = run(&["show", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("Event: a\\u{1b}[2J\\u{7}b\\rc\\0d\\u{9b}e\n"),
        "{out}"
    );
    assert!(
        !out.contains(['\u{1b}', '\u{7}', '\r', '\0', '\u{9b}']),
        "{out}"
    );
}

/// A 16 MiB file of empty games (`*` lines, 8 million of them) is refused
/// at the games limit, naming it, without taking the memory of millions of
/// records.
#[cfg(target_os = "linux")]
#[test]
fn a_file_of_millions_of_empty_games_is_refused() {
    let dir = scratch_dir("empty-games");
    let file = dir.join("empty.txt");
    std::fs::write(&file, "*\n".repeat(8 << 20)).unwrap();
    let o = run_with_2gib_address_space(&["show", file.to_str().unwrap()], "");
    assert_cli_error(&o, "line 100001: more than 100000 games in one text");
}

/// `--svg` is checked before anything is drawn: a FIFO or a device is
/// refused at once, the record shown is never written over, and a
/// symbolic link is replaced, not written through.
#[cfg(unix)]
#[test]
fn the_svg_file_replaces_a_link_and_refuses_special_files_and_the_record() {
    let dir = scratch_dir("show-svg-kinds");
    let fifo = dir.join("fifo.svg");
    make_fifo(&fifo);
    let start = "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b";
    let limit = std::time::Duration::from_secs(60);
    for (path, needle) in [
        (fifo.as_path(), "it is a FIFO"),
        (
            std::path::Path::new("/dev/null"),
            "it is a character device",
        ),
        (dir.as_path(), "it is a directory"),
    ] {
        let o = run_within(&["show", start, "--svg", path.to_str().unwrap()], limit);
        assert_cli_error(&o, needle);
    }
    let record = dir.join("games.txt");
    std::fs::write(&record, RECORDS).unwrap();
    let r = record.to_str().unwrap();
    assert_cli_error(&run(&["show", r, "--svg", r]), "is the file read");
    assert_eq!(std::fs::read_to_string(&record).unwrap(), RECORDS);

    let (link, target) = link_to_kept_file(&dir, "board.svg");
    let o = run(&["show", start, "--svg", link.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_link_replaced(&link, &target);
    assert!(std::fs::read_to_string(&link).unwrap().starts_with("<svg"));
    let _ = std::fs::remove_dir_all(dir);
}
