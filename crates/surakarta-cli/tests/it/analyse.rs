//! `surakarta analyse` as a user runs it: JSON, the tables' exact marks, the
//! annotated record, the evaluation graph, and the errors.

use crate::common::*;
use surakarta::GameRecord;

#[test]
fn json_structure_at_depth_2() {
    let dir = scratch_dir("analyse-json");
    let file = dir.join("game.txt");
    std::fs::write(&file, "1. b2-b3 e5-e4 2. b3-b4 e4-e3 3. b1-b2 *\n").unwrap();
    let o = run(&["analyse", file.to_str().unwrap(), "--depth", "2", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let plies = v["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 5);
    assert_eq!(plies[0]["move"], "b2-b3");
    assert_eq!(plies[0]["side"], "black");
    assert_eq!(plies[1]["side"], "white");
    for p in plies {
        let loss = p["loss"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&loss), "{p}");
        assert!(p["mark"].is_null() || ["?!", "?", "??"].contains(&p["mark"].as_str().unwrap()));
        assert_eq!(p["exact"], false);
    }
    assert_eq!(v["black"]["moves"], 3);
    assert_eq!(v["white"]["moves"], 2);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn tables_mark_a_blunder_out_and_svg() {
    let dir = scratch_dir("analyse-tables");
    let tables = generated_tables("analyse-tables", 3);
    let file = dir.join("game.txt");
    // Black wins at once with b2xb5; b2-c1 only draws.
    std::fs::write(&file, "[Start \"6/1w4/6/6/1b4/6 b\"]\n\n1. b2-c1 *\n").unwrap();
    let out = dir.join("annotated.txt");
    let svg = dir.join("graph.svg");
    let (f, tb, o_path, s_path) = (
        file.to_str().unwrap(),
        tables.to_str().unwrap(),
        out.to_str().unwrap(),
        svg.to_str().unwrap(),
    );
    let o = run(&[
        "analyse", f, "--depth", "2", "--tb", tb, "--json", "--out", o_path, "--svg", s_path,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["plies"][0]["mark"], "??");
    assert_eq!(v["plies"][0]["exact"], true);
    assert_eq!(v["plies"][0]["best"], "b2xb5");
    assert_eq!(v["black"]["blunders"], 1);

    // The annotated record reads back, with the mark and the comment.
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(
        written.contains("1. b2-c1?? { tables: win in 1 → tables: draw; best b2xb5 }"),
        "{written}"
    );
    let shown = run(&["show", o_path]);
    assert!(shown.status.success(), "{}", stderr(&shown));

    // The graph: one dot per mark, red for the blunder.
    let graph = std::fs::read_to_string(&svg).unwrap();
    assert!(graph.starts_with("<svg") && graph.ends_with("</svg>\n"));
    assert_eq!(graph.matches("<circle").count(), 1);
    assert!(graph.contains("#d62020"));
    assert!(!graph.contains("href"));

    // Text output names the mark too.
    let o = run(&["analyse", f, "--depth", "2", "--tb", tb]);
    assert!(stdout(&o).contains("b2-c1 ??"), "{}", stdout(&o));
    let _ = std::fs::remove_dir_all(dir);
}

/// Near the no-capture limit the tables' win is not the game's: 48 plies
/// of the ICGA's 50 gone, Black's win in 3 is cut off (two plies later the
/// limit ends the game, White has more pieces), so the position is
/// searched and the tables' value shown with the reason.
#[test]
fn tables_cut_off_by_the_no_capture_limit_are_searched_and_say_why() {
    let dir = scratch_dir("analyse-limit");
    let tables = generated_tables("analyse-limit", 3);
    let file = dir.join("game.txt");
    std::fs::write(
        &file,
        "[Rules \"icga\"]\n[Start \"w5/6/6/6/6/b4w b 48 1\"]\n\n1. a1-b1 f1-e1 0-1\n",
    )
    .unwrap();
    let (f, tb) = (file.to_str().unwrap(), tables.to_str().unwrap());
    let o = run(&["analyse", f, "--depth", "4", "--tb", tb, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let plies = v["plies"].as_array().unwrap();
    for (p, tables_say) in plies.iter().zip(["tables: win in 3", "tables: loss in 2"]) {
        assert_eq!(p["exact"], false, "{p}");
        assert_eq!(p["tables"], tables_say, "{p}");
        assert!(
            p["cutoff"].as_str().unwrap().contains("no-capture limit"),
            "{p}"
        );
        assert!(!p["before"].as_str().unwrap().starts_with("tables"), "{p}");
    }
    // Black loses the game, White wins it: the search's scores say so.
    assert!(
        plies[0]["before"].as_str().unwrap().starts_with("loss"),
        "{}",
        plies[0]
    );
    assert!(
        plies[1]["before"].as_str().unwrap().starts_with("win"),
        "{}",
        plies[1]
    );
    let o = run(&["analyse", f, "--depth", "4", "--tb", tb]);
    assert!(
        stdout(&o).contains("(tables: win in 3, not the game's value: the no-capture limit"),
        "{}",
        stdout(&o)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn errors_exit_2_with_one_line() {
    let dir = scratch_dir("analyse-errors");
    let missing = dir.join("missing.txt");
    assert_cli_error(
        &run(&["analyse", missing.to_str().unwrap(), "--depth", "1"]),
        "cannot read",
    );
    let fifo = dir.join("fifo");
    make_fifo(&fifo);
    assert_cli_error(
        &run(&["analyse", fifo.to_str().unwrap(), "--depth", "1"]),
        "cannot read",
    );
    let file = dir.join("game.txt");
    std::fs::write(&file, "1. b2-b3 *\n").unwrap();
    assert_cli_error(
        &run(&[
            "analyse",
            file.to_str().unwrap(),
            "--game",
            "2",
            "--depth",
            "1",
        ]),
        "holds 1 game",
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Every output path is checked before the analysis: a FIFO is refused at
/// once (nothing written, not even `--out`), the record read is never
/// written over, a symbolic link is replaced rather than written through,
/// and the record's own comments stay in the annotated record.
#[cfg(unix)]
#[test]
fn outputs_are_checked_first_replace_links_and_keep_what_was_there() {
    let dir = scratch_dir("analyse-outputs");
    let file = dir.join("games.txt");
    let games =
        "[Event \"one\"]\n\n1. b2-b3 *\n\n[Event \"two\"]\n\n1. b2-b3 { my idea } e5-e4 *\n";
    std::fs::write(&file, games).unwrap();
    let f = file.to_str().unwrap();
    let out = dir.join("out.txt");
    let o_path = out.to_str().unwrap();
    let fifo = dir.join("fifo.svg");
    make_fifo(&fifo);
    let limit = std::time::Duration::from_secs(60);
    let o = run_within(
        &[
            "analyse",
            f,
            "--depth",
            "1",
            "--out",
            o_path,
            "--svg",
            fifo.to_str().unwrap(),
        ],
        limit,
    );
    assert_cli_error(&o, "it is a FIFO");
    assert!(!out.exists(), "--out was written before --svg was refused");
    for special in [dir.as_path(), std::path::Path::new("/dev/null")] {
        let o = run_within(
            &[
                "analyse",
                f,
                "--depth",
                "1",
                "--svg",
                special.to_str().unwrap(),
            ],
            limit,
        );
        assert_cli_error(&o, "not a regular file");
    }

    // The record read is not written over: it holds another game.
    for flag in ["--out", "--svg"] {
        assert_cli_error(
            &run(&["analyse", f, "--depth", "1", flag, f]),
            "is the file read",
        );
        assert_eq!(std::fs::read_to_string(&file).unwrap(), games);
    }

    // A link is replaced; the file it points to is kept.
    let (link, target) = link_to_kept_file(&dir, "graph.svg");
    let o = run(&[
        "analyse",
        f,
        "--depth",
        "1",
        "--out",
        o_path,
        "--svg",
        link.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_link_replaced(&link, &target);
    assert!(std::fs::read_to_string(&link).unwrap().starts_with("<svg"));

    // The last game's comment, then the analysis's.
    let annotated = GameRecord::parse_all(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let comment = annotated[0].annotation(0).comment.unwrap();
    assert!(
        comment.starts_with("my idea | ") && comment.contains(" → "),
        "{comment}"
    );
    assert!(annotated[0].annotation(1).comment.unwrap().contains(" → "));
    let _ = std::fs::remove_dir_all(dir);
}
