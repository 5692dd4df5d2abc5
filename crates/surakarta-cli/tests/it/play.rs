//! `surakarta play` driven by a script on stdin, as a person would type it:
//! errors keep the game going, undo, the end of the game, resigning, the
//! clock, and the saved record.

use crate::common::*;
use std::path::PathBuf;
use std::process::Output;
use std::time::Duration;
use surakarta::{Color, GameRecord, GameResult, Termination};

/// Runs `surakarta play ARGS`, typing `script` (after waiting `delay`).
fn play_with_delay(args: &[&str], script: &str, delay: Duration) -> Output {
    let args: Vec<&str> = std::iter::once("play")
        .chain(args.iter().copied())
        .collect();
    run_with_stdin_after(&args, script, delay)
}

fn play(args: &[&str], script: &str) -> Output {
    play_with_delay(args, script, Duration::ZERO)
}

/// Reads the record saved in `file`, checking it is one game that replays.
fn saved(file: &PathBuf) -> GameRecord {
    let text = std::fs::read_to_string(file).unwrap();
    let record: GameRecord = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
    let game = record.to_game().expect("the record replays");
    assert_eq!(game.moves(), record.moves.as_slice());
    record
}

#[test]
fn illegal_moves_get_an_error_and_the_game_goes_on() {
    let o = play(&["--depth", "2"], "b1-b3\nb2-b9\nwhat\ne5-e4\nb2-b3\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // Each error is one line and the prompt comes back.
    assert!(
        out.contains(
            "black, move 1> b1-b3\nerror: b1-b3: illegal move (the piece cannot step or capture there)\nblack, move 1> "
        ),
        "{out}"
    );
    assert!(out.contains("error: invalid move text \"b2-b9\""), "{out}");
    assert!(out.contains("error: invalid move text \"what\""), "{out}");
    assert!(
        out.contains("error: e5-e4: the piece on e5 is white's, and it is black's move"),
        "{out}"
    );
    assert_eq!(out.matches("error: ").count(), 4, "{out}");
    // Then the legal move is played, the engine thinks and answers.
    assert!(out.contains("you play b2-b3\n"), "{out}");
    assert!(
        out.contains("3  . [b] .  .  .  .\n2  b (.) b  b  b  b\n"),
        "{out}"
    );
    assert!(out.contains("  depth 1 score "), "{out}");
    assert!(out.contains("  depth 2 score "), "{out}");
    assert!(out.contains("surakarta depth=2 plays "), "{out}");
    assert!(
        out.contains("black, move 2> \ngame left unfinished after 2 plies"),
        "{out}"
    );
}

#[test]
fn undo_takes_back_a_move_pair() {
    let o = play(
        &["--depth", "2"],
        "undo\nb2-b3\nundo\nboard\nmoves\nc2-c3\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("error: nothing to undo: you have not moved yet"),
        "{out}"
    );
    let took = out
        .lines()
        .find(|l| l.starts_with("took back "))
        .expect("a take-back");
    let taken: Vec<&str> = took["took back ".len()..].split(' ').collect();
    assert_eq!(taken.len(), 2, "{took}");
    assert_eq!(taken[0], "b2-b3");
    // The board after the undo is the start again, and it is black's move.
    let after = &out[out.find(took).unwrap()..];
    assert!(
        after.contains(
            "4  .  .  .  .  .  .\n3  .  .  .  .  .  .\n2  b  b  b  b  b  b\n1  b  b  b  b  b  b\n   a  b  c  d  e  f\nblack to move, no-capture plies 0, move 1\nblack, move 1> board"
        ),
        "{after}"
    );
    assert!(
        after.contains("16 legal moves\n  captures: none\n  steps: a2-a3 a2-b3 "),
        "{after}"
    );
    assert!(after.contains("you play c2-c3"), "{after}");
}

#[test]
fn capturing_the_last_piece_wins_and_is_saved() {
    let dir = scratch_dir("win");
    let file = dir.join("game.txt");
    let o = play(
        &[
            "--depth",
            "2",
            "--rules",
            "pku",
            "--position",
            "6/6/1wb3/6/6/6 b",
            "--save",
            file.to_str().unwrap(),
        ],
        "c4xb4\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("you play c4xb4\npath: c4 c5 c6 ~ a4 b4\n"),
        "{out}"
    );
    assert!(
        out.contains("game over: black wins (no pieces left)\n"),
        "{out}"
    );
    assert!(
        out.contains(&format!("saved the game to {}", file.display())),
        "{out}"
    );
    assert!(!out.contains("thinking"), "{out}");

    let record = saved(&file);
    assert_eq!(record.tag("Event"), Some("surakarta play"));
    assert_eq!(record.tag("Black"), Some("human"));
    assert_eq!(record.tag("White"), Some("surakarta depth=2"));
    assert_eq!(record.tag("Termination"), Some("no pieces left"));
    assert_eq!(record.result, GameResult::BlackWins);
    assert_eq!(record.rules.to_string(), "pku");
    assert_eq!(record.start.to_string(), "6/6/1wb3/6/6/6 b 0 1");
    let outcome = record.to_game().unwrap().outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::Black));
    assert_eq!(outcome.termination, Termination::NoPieces);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn engine_moves_first_for_a_white_human_and_quit_saves() {
    let dir = scratch_dir("white");
    let file = dir.join("game.txt");
    let o = play(
        &[
            "--depth",
            "2",
            "--color",
            "white",
            "--save",
            file.to_str().unwrap(),
        ],
        "e5-e4\nsave\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let engine_move = out.find("surakarta depth=2 plays ").expect("engine moved");
    let human_move = out.find("you play e5-e4").expect("human moved");
    assert!(engine_move < human_move, "{out}");
    assert!(out.contains("error: usage: save FILE"), "{out}");
    assert!(out.contains("white, move 2> quit\n"), "{out}");

    let record = saved(&file);
    assert_eq!(record.tag("Black"), Some("surakarta depth=2"));
    assert_eq!(record.tag("White"), Some("human"));
    assert_eq!(record.result, GameResult::Unfinished);
    assert_eq!(record.tag("Termination"), None);
    assert_eq!(record.moves.len(), 3);
    assert_eq!(record.moves[1].to_string(), "e5-e4");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn resigning_loses() {
    let dir = scratch_dir("resign");
    let file = dir.join("game.txt");
    let o = play(
        &["--depth", "1", "--save", file.to_str().unwrap()],
        "b2-b3\nresign\nb3-b4\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("game over: white wins (black resigned)"),
        "{out}"
    );
    assert!(
        !out.contains("b3-b4\n"),
        "nothing is read after the end: {out}"
    );
    let record = saved(&file);
    assert_eq!(record.result, GameResult::WhiteWins);
    assert_eq!(record.tag("Result"), Some("0-1"));
    assert_eq!(record.tag("Termination"), Some("resignation"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_clock_runs_and_a_flag_fall_loses() {
    // 0.001 minutes is 60 ms; the move arrives after 500 ms.
    let dir = scratch_dir("clock");
    let file = dir.join("game.txt");
    let o = play_with_delay(
        &[
            "--depth",
            "1",
            "--clock",
            "0.001",
            "--increment",
            "1",
            "--save",
            file.to_str().unwrap(),
        ],
        "b2-b3\n",
        Duration::from_millis(500),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("clock: black 0:00.0, white 0:00.0\n"), "{out}");
    assert!(
        out.contains("game over: white wins (black ran out of time)"),
        "{out}"
    );
    assert!(!out.contains("you play"), "{out}");
    let record = saved(&file);
    assert_eq!(record.result, GameResult::WhiteWins);
    assert_eq!(record.tag("Termination"), Some("time forfeit"));
    assert_eq!(record.tag("TimeControl"), Some("0.06+1"));
    assert!(record.moves.is_empty());

    // With time to spare both clocks are shown after each move.
    let o = play(
        &["--depth", "1", "--clock", "5", "--increment", "2"],
        "b2-b3\n",
    );
    let out = stdout(&o);
    assert!(
        out.starts_with("You play black against surakarta depth=1 clock=300+2 (white)"),
        "{out}"
    );
    assert!(out.contains("clock: black 5:00.0, white 5:00.0\n"), "{out}");
    // Black's move took well under 2 seconds: the increment puts it ahead.
    let line = out
        .lines()
        .skip_while(|l| !l.starts_with("you play"))
        .find(|l| l.starts_with("clock: "))
        .unwrap();
    assert!(line.starts_with("clock: black 5:01."), "{line}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (&["--position", "6/6/6 b"], "invalid position"),
        (&["--rules", "fide"], "invalid rule set"),
        (&["--increment", "2"], "--increment needs --clock"),
        (&["--clock", "0"], "--clock 0 is out of range"),
        (&["--depth", "0"], "--depth 0 is out of range"),
        (&["--eval", "nope"], "unknown --eval"),
    ];
    for (args, needle) in cases {
        let o = play(args, "");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(needle),
            "{args:?}: {err}"
        );
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

/// The moves listed by `history`: the lines after its header, up to the
/// next prompt.
fn history(out: &str) -> Vec<String> {
    let at = out.find("> history\n").expect("history") + "> history\n".len();
    out[at..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn a_saved_game_resumes_with_its_moves_and_rules() {
    let dir = scratch_dir("resume");
    let first = dir.join("first.txt");
    let second = dir.join("second.txt");
    let save = format!("save {}\nquit\n", first.display());
    let o = play(
        &["--depth", "1", "--rules", "pku"],
        &format!("b2-b3\n{save}"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let earlier = saved(&first).moves;
    assert_eq!(earlier.len(), 2);

    // Resumed: the earlier moves are the game's, under the record's rules.
    let o = play(
        &[
            "--depth",
            "1",
            "--record",
            first.to_str().unwrap(),
            "--save",
            second.to_str().unwrap(),
        ],
        "history\nc2-c3\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("; rules pku.\n"), "{out}");
    assert!(
        out.contains(&format!(
            "Resuming the game of {} after 2 plies (history lists them).\n",
            first.display()
        )),
        "{out}"
    );
    assert!(
        out.contains("black, move 2> history\n2 plies from the start\n"),
        "{out}"
    );
    assert_eq!(
        history(&out),
        [format!("1. {} {}", earlier[0], earlier[1])],
        "{out}"
    );
    assert!(out.contains("you play c2-c3\n"), "{out}");
    let record = saved(&second);
    assert_eq!(record.rules.to_string(), "pku");
    assert_eq!(record.moves.len(), 4);
    assert_eq!(record.moves[..2], earlier[..]);
    assert_eq!(record.moves[2].to_string(), "c2-c3");

    // Undo goes back into the moves of the record.
    let o = play(
        &["--depth", "1", "--record", second.to_str().unwrap()],
        "undo\nundo\nundo\nhistory\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(&format!("took back c2-c3 {}\n", record.moves[3])),
        "{out}"
    );
    assert!(
        out.contains(&format!("took back b2-b3 {}\n", earlier[1])),
        "{out}"
    );
    assert!(
        out.contains("error: nothing to undo: you have not moved yet"),
        "{out}"
    );
    assert!(out.contains("> history\n0 plies from the start\n"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_resumed_game_counts_the_records_repetitions() {
    // The start position comes back a third time with White's e4-e5: a
    // draw under icga only if the record's positions are counted.
    let dir = scratch_dir("resume-repetition");
    let file = dir.join("game.txt");
    std::fs::write(
        &file,
        "1. b2-b3 e5-e4 2. b3-b2 e4-e5 3. b2-b3 e5-e4 4. b3-b2 *\n",
    )
    .unwrap();
    let o = play(
        &[
            "--depth",
            "1",
            "--color",
            "white",
            "--record",
            file.to_str().unwrap(),
        ],
        "e4-e5\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("after 7 plies"), "{out}");
    assert!(
        out.contains("white, move 4> e4-e5\nyou play e4-e5\n"),
        "{out}"
    );
    assert!(out.contains("game over: draw (repetition)"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[cfg(target_os = "linux")]
#[test]
fn a_record_that_cannot_be_resumed_exits_2_with_one_line() {
    let dir = scratch_dir("resume-errors");
    let fifo = dir.join("fifo.txt");
    make_fifo(&fifo);
    let illegal = dir.join("illegal.txt");
    std::fs::write(&illegal, "1. b2-b3 e5-e4 2. b3-b6 *\n").unwrap();
    let resigned = dir.join("resigned.txt");
    std::fs::write(
        &resigned,
        "[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. b2-b3 0-1\n",
    )
    .unwrap();
    let missing = dir.join("missing.txt");
    let path = |p: &PathBuf| p.display().to_string();
    let cases = [
        (path(&missing), "No such file".to_string()),
        // Refused without being opened for reading: a FIFO would block.
        (
            path(&fifo),
            format!("cannot read {}: not a regular file", fifo.display()),
        ),
        (path(&dir), "not a regular file".to_string()),
        (
            path(&illegal),
            format!("{}: line 1: ply 3: b3-b6", illegal.display()),
        ),
        (
            path(&resigned),
            format!(
                "{}: the game is over: 0-1 (resignation)",
                resigned.display()
            ),
        ),
    ];
    for (file, needle) in cases {
        let o = run_with_stdin_within(&["play", "--record", &file], "", Duration::from_secs(60));
        assert_cli_error(&o, &needle);
    }
    // A record names its rules and start: --rules and --position are refused.
    for other in [["--rules", "pku"], ["--position", "6/6/1wb3/6/6/6 b"]] {
        let o = play(&["--record", &path(&illegal), other[0], other[1]], "");
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn hint_suggests_a_legal_move_then_lists_them() {
    let o = play(&["--depth", "2"], "hint\nhelp\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let hint = out
        .lines()
        .find(|l| l.starts_with("hint: "))
        .expect("the hint");
    assert!(
        out.contains(&format!("black, move 1> hint\n{hint}\n")),
        "{out}"
    );
    let rest = hint.strip_prefix("hint: ").expect(hint);
    let (mv, score) = rest.split_once(' ').expect(hint);
    assert!(
        score.starts_with("(score ") && score.ends_with(", depth 2)"),
        "{hint}"
    );
    let m = surakarta::Position::new()
        .parse_move(mv)
        .unwrap_or_else(|e| panic!("{hint}: {e}"));
    assert_eq!(m.to_string(), mv);
    assert!(out.contains(&format!("{hint}\n16 legal moves\n")), "{out}");
    // The engine did not move: it is still black's first move.
    assert!(!out.contains("plays "), "{out}");
    assert!(out.contains("black, move 1> help\n"), "{out}");
    assert!(out.contains("  hint "), "{out}");
}

/// `--save FIFO` is refused before the game and `save FIFO` refused with a
/// message (the game goes on), never blocking; a saved game replaces a
/// symbolic link rather than writing through it.
#[cfg(unix)]
#[test]
fn saving_refuses_special_files_and_replaces_links() {
    let dir = scratch_dir("play-save-kinds");
    let fifo = dir.join("fifo.txt");
    make_fifo(&fifo);
    let f = fifo.to_str().unwrap();
    let limit = Duration::from_secs(60);
    let o = run_with_stdin_within(&["play", "--depth", "1", "--save", f], "quit\n", limit);
    assert_cli_error(&o, "it is a FIFO");
    let o = run_with_stdin_within(
        &["play", "--depth", "1"],
        &format!("save {f}\nquit\n"),
        limit,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("it is a FIFO, not a regular file"),
        "{}",
        stdout(&o)
    );

    let (link, target) = link_to_kept_file(&dir, "game.txt");
    let o = play(
        &["--depth", "1", "--save", link.to_str().unwrap()],
        "b2-b3\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_link_replaced(&link, &target);
    assert_eq!(saved(&link).moves.len(), 2);
    let _ = std::fs::remove_dir_all(dir);
}
