//! The board natively: tables loaded from file bytes answer as the
//! tablebase itself does, damaged bytes are refused, the answers are the
//! server's objects, a search returns a legal move and stops when asked.

use serde_json::Value as Json;
use std::path::PathBuf;
use std::sync::OnceLock;
use surakarta::Position;
use surakarta_index::Scheme;
use surakarta_tablebase::{generate_dir, table_files, NoProgress, Tablebase};
use surakarta_wasm::Board;

/// Compact tables up to 5 pieces, made once per test run.
fn tables_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        // In cargo's scratch directory for integration tests, replaced by
        // each run.
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("wasm-board-tables");
        let _ = std::fs::remove_dir_all(&dir);
        generate_dir(&dir, 5, Scheme::Symmetric, 2, &NoProgress).unwrap();
        dir
    })
}

/// A board with every table of [`tables_dir`] loaded from its bytes.
fn loaded() -> Board {
    let mut board = Board::new();
    for (_, path) in table_files(tables_dir()).unwrap() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let class = board
            .add_table(&name, std::fs::read(&path).unwrap())
            .unwrap();
        assert_eq!(format!("{class}.sktb"), name);
    }
    board
}

fn json(text: &str) -> Json {
    serde_json::from_str(text).unwrap()
}

const FIVE: &str = "6/6/2w3/6/1b4/b5 b";

#[test]
fn loaded_tables_answer_as_the_tablebase_does() {
    let board = loaded();
    assert_eq!(board.classes().len(), 10);
    assert_eq!(board.classes()[0], "1v1");
    let tb = Tablebase::open_dir(tables_dir()).unwrap();
    let position: Position = FIVE.parse().unwrap();
    let answer = json(&board.position(FIVE).unwrap());
    assert_eq!(
        answer,
        surakarta_board::position_answer(&position, Some(&tb))
    );
    assert_eq!(answer["value"]["wdl"], "win");
    let probe = json(&board.probe(FIVE).unwrap());
    assert_eq!(probe["best_move"], "a1-b1");
    let moves = answer["moves"].as_array().unwrap();
    let best = moves.iter().find(|m| m["move"] == "a1-b1").unwrap();
    assert_eq!(best["value"], moves[0]["value"]);
    assert_eq!(probe["dtc"], answer["value"]["dtc"]);
    assert!(board.missing_classes(FIVE).unwrap().is_empty());
    // Six pieces: no table here.
    let six = "6/6/2w3/6/1b3w/bb2w1 b";
    assert_eq!(board.missing_classes(six).unwrap(), ["3v3"]);
    assert!(json(&board.position(six).unwrap())["value"].is_null());
    assert!(board
        .probe(six)
        .unwrap_err()
        .starts_with("not in the tables"));
}

#[test]
fn damaged_or_foreign_bytes_are_refused_with_their_name() {
    let mut board = Board::new();
    let path = tables_dir().join("2v2.sktb");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    let e = board.add_table("2v2.sktb", bytes).unwrap_err();
    assert!(e.contains("2v2.sktb"), "{e}");
    let e = board
        .add_table("x.sktb", b"<html>not found</html>".to_vec())
        .unwrap_err();
    assert!(e.contains("x.sktb"), "{e}");
    // A file named for one class that holds another is refused, naming
    // both, as the command line does.
    let other = std::fs::read(tables_dir().join("1v3.sktb")).unwrap();
    let e = board.add_table("3v1.sktb", other.clone()).unwrap_err();
    assert!(
        e.contains("3v1.sktb") && e.contains("holds material 1v3, its name says 3v1"),
        "{e}"
    );
    assert!(board.classes().is_empty());
    // Under its own name, or a name that is no class, it is taken.
    assert_eq!(board.add_table("1v3.sktb", other.clone()).unwrap(), "1v3");
    assert_eq!(board.add_table("table.bin", other).unwrap(), "1v3");
}

#[test]
fn bad_positions_and_moves_are_errors_not_panics() {
    let board = Board::new();
    for fen in [
        "",
        "7/6/6/6/6/6 b",
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww x",
        "\u{0}",
    ] {
        assert!(board.position(fen).unwrap_err().starts_with("position"));
    }
    let start = Position::new().to_string();
    assert!(board.svg(&start, Some("a1-a2")).is_err());
    assert!(board.svg(&start, Some("zz")).is_err());
    let m = Position::new().legal_moves()[0].to_string();
    assert!(board.svg(&start, Some(&m)).unwrap().starts_with("<svg"));
}

#[test]
fn a_search_finds_the_tables_best_move_and_stops_when_asked() {
    let mut board = loaded();
    board.set_hash(4).unwrap();
    let mut infos = Vec::new();
    let best = json(
        &board
            .analyse(FIVE, 2000, Some(6), &mut |info| {
                infos.push(json(&info));
                false
            })
            .unwrap(),
    );
    let probe = json(&board.probe(FIVE).unwrap());
    let best_value = |m: &Json| {
        let answer = json(&board.position(FIVE).unwrap());
        answer["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["move"] == *m)
            .unwrap()["value"]
            .clone()
    };
    assert_eq!(best_value(&best["move"]), best_value(&probe["best_move"]));
    assert!(!infos.is_empty());
    // Asked to stop at the first report of a minute's search: it ends
    // within a few quick iterations (the engine looks at the flag every few
    // thousand nodes) and still answers a move.
    let start = Position::new().to_string();
    let mut reports = 0;
    let began = std::time::Instant::now();
    let best = json(
        &board
            .analyse(&start, 60_000, None, &mut |_| {
                reports += 1;
                true
            })
            .unwrap(),
    );
    assert!(
        began.elapsed().as_secs() < 10 && (1..=6).contains(&reports),
        "{reports}"
    );
    let m = best["move"].as_str().unwrap();
    assert!(Position::new().parse_move(m).is_ok());
    // A finished game: no move, its outcome.
    let over = json(
        &board
            .analyse("6/6/6/6/1b4/6 w", 100, None, &mut |_| false)
            .unwrap(),
    );
    assert!(over["move"].is_null());
    assert_eq!(over["outcome"]["winner"], "black");
    assert!(board.set_hash(0).is_err());
}

#[test]
fn benchmark_and_probe_timing_report_their_figures() {
    let mut board = loaded();
    let bench = json(&board.bench(3).unwrap());
    assert!(bench["nodes"].as_u64().unwrap() > 1000);
    let timing = json(&board.time_probes(1000).unwrap());
    assert_eq!(timing["probes"], 1000);
    assert_eq!(timing["classes"].as_array().unwrap().len(), 4); // 4v1 3v2 2v3 1v4
}

/// Requests as the page sends them: a game's history and rules decide its
/// end, a level chooses as the native engine does for the same seed,
/// several lines come best first, and every bad field is an error naming
/// it.
#[test]
fn requests_carry_games_levels_and_lines() {
    use std::sync::atomic::AtomicBool;
    use surakarta::{Game, Rules};
    use surakarta_search::{Engine, Limits, Options};

    let mut board = Board::new();
    let repeated = r#"{"rules": "icga", "moves": ["b2-b3","e5-e4","b3-b2","e4-e5","b2-b3","e5-e4","b3-b2","e4-e5"]}"#;
    let answer = json(&board.game_position(repeated).unwrap());
    assert_eq!(answer["outcome"]["termination"], "repetition");
    let request = format!(r#"{{"game": {repeated}, "depth": 2}}"#);
    let best = json(&board.analyse_request(&request, &mut |_| false).unwrap());
    assert!(best["move"].is_null() && best["outcome"]["termination"] == "repetition");

    for seed in [0u64, 3, 9] {
        let request = format!(r#"{{"depth": 20, "level": 2, "seed": {seed}}}"#);
        let best = json(&board.analyse_request(&request, &mut |_| false).unwrap());
        let mut engine = Engine::new(Options {
            hash_mb: surakarta_wasm::DEFAULT_HASH_MB,
            level: Some(2),
            level_seed: seed,
            ..Options::default()
        })
        .unwrap();
        let game = Game::new(Position::new(), Rules::default());
        let native = engine.search(
            &game,
            &Limits::depth(20),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert_eq!(
            best["move"],
            native.best_move.unwrap().to_string(),
            "seed {seed}"
        );
    }

    let mut infos = Vec::new();
    board
        .analyse_request(r#"{"depth": 2, "multipv": 3}"#, &mut |info| {
            infos.push(json(&info));
            false
        })
        .unwrap();
    let lines = infos.last().unwrap()["lines"].as_array().unwrap().clone();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["pv"], infos.last().unwrap()["pv"]);

    for (request, needle) in [
        ("[]", "analysis: expected an object"),
        ("{", "analysis: not JSON"),
        (r#"{"level": 12}"#, "level 12 is out of range: give 1 to 11"),
        (
            r#"{"multipv": 9}"#,
            "multipv 9 is out of range: give 1 to 8",
        ),
        (r#"{"movetime": 0}"#, "movetime 0 is out of range"),
        (
            r#"{"game": {"moves": ["b2-b3", "b3-b4"]}}"#,
            "game: moves: ply 2",
        ),
        (
            r#"{"game": {"moves": ["b2-b3,e5-e4"]}}"#,
            "game: moves[0]: expected a move text",
        ),
        (
            r#"{"game": {"rules": 3}}"#,
            "game: rules: expected a string",
        ),
        (r#"{"fen": 3}"#, "fen: expected position text"),
    ] {
        let e = board.analyse_request(request, &mut |_| false).unwrap_err();
        assert!(e.starts_with(needle), "{request}: {e}");
    }
}

/// A game judged in the board: the same plies as the library's analysis,
/// progress for every position, the annotated record, and errors named.
#[test]
fn a_game_is_judged_with_progress_and_its_record() {
    let mut board = loaded();
    let request = r#"{"game": {"start": "6/6/2w3/6/1b4/b5 b", "moves": ["a1-b1","c4-c3","b1-c2","c3-d2","b2xd2"]}, "nodes": 1000}"#;
    let mut seen = Vec::new();
    let done = json(
        &board
            .analyse_game(request, &mut |d, t| seen.push((d, t)))
            .unwrap(),
    );
    assert_eq!(seen.last(), Some(&(6, 6)));
    let plies = done["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 5);
    assert!(plies.iter().all(|p| p["exact"] == true), "{done}");
    assert!(done["record"].as_str().unwrap().contains("3. b2xd2"));
    for (request, needle) in [
        ("{}", "game analysis: no game"),
        (r#"{"game": {"moves": ["b2-b5"]}}"#, "game: moves: ply 1"),
        (
            r#"{"game": {}, "movetime": 0}"#,
            "movetime 0 is out of range",
        ),
    ] {
        let e = board.analyse_game(request, &mut |_, _| {}).unwrap_err();
        assert!(e.starts_with(needle), "{request}: {e}");
    }
}
