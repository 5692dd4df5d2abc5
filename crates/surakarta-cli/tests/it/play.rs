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
