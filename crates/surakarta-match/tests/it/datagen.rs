//! Self-play training data: deterministic chunks, resuming, refusing other
//! settings, the records' contents, games ended by the tables.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use surakarta::Rules;
use surakarta_index::Scheme;
use surakarta_match::datagen::{
    chunk_name, run, DatagenConfig, DatagenError, DatagenStats, DatagenTables, OpeningMix, Quiet,
};
use surakarta_search::network::data;
use surakarta_search::{Evaluation, Options};
use surakarta_tablebase::{NoProgress, Tablebase};

/// A fresh, missing directory for one test.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("surakarta-datagen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A small, quick run: 6 games in chunks of 2, 200 nodes a move.
fn small() -> DatagenConfig {
    DatagenConfig {
        games: 6,
        seed: 11,
        nodes: 200,
        max_plies: 80,
        games_per_chunk: 2,
        options: Options {
            hash_mb: 2,
            ..Options::default()
        },
        ..DatagenConfig::default()
    }
}

fn chunk_bytes(dir: &Path, chunks: u64) -> Vec<Vec<u8>> {
    (0..chunks)
        .map(|k| std::fs::read(dir.join(chunk_name(k))).expect("chunk written"))
        .collect()
}

#[test]
fn the_same_seed_makes_the_same_bytes_on_any_thread_count() {
    let (one, two) = (fresh_dir("one-thread"), fresh_dir("two-threads"));
    let config = small();
    let a = run(&config, &one, &Quiet).unwrap();
    let b = run(
        &DatagenConfig {
            threads: 2,
            ..config.clone()
        },
        &two,
        &Quiet,
    )
    .unwrap();
    assert_eq!((a.games, a.chunks_written), (6, 3));
    assert_eq!(a, b);
    assert_eq!(chunk_bytes(&one, 3), chunk_bytes(&two, 3));
    assert!(a.written > 0, "{a:?}");
    // Another seed, other games.
    let other = fresh_dir("other-seed");
    run(&DatagenConfig { seed: 12, ..config }, &other, &Quiet).unwrap();
    assert_ne!(chunk_bytes(&one, 3), chunk_bytes(&other, 3));
    for d in [one, two, other] {
        std::fs::remove_dir_all(d).ok();
    }
}

#[test]
fn resuming_remakes_removed_chunks_identically() {
    let dir = fresh_dir("resume");
    let config = small();
    run(&config, &dir, &Quiet).unwrap();
    let before = chunk_bytes(&dir, 3);
    // Nothing to do.
    let again = run(&config, &dir, &Quiet).unwrap();
    assert_eq!(
        (again.games, again.chunks_present, again.chunks_written),
        (0, 3, 0)
    );
    // A removed chunk is made again, the same.
    std::fs::remove_file(dir.join(chunk_name(1))).unwrap();
    let redo = run(&config, &dir, &Quiet).unwrap();
    assert_eq!(
        (redo.games, redo.chunks_present, redo.chunks_written),
        (2, 2, 1)
    );
    assert_eq!(chunk_bytes(&dir, 3), before);
    // No temporary file is left.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
    std::fs::remove_dir_all(dir).ok();
}

/// Runs `config` into `dir` on its own thread; a run that has not ended
/// within a minute fails the test (a hang is a failure, not a block).
fn run_within_a_minute(config: &DatagenConfig, dir: &Path) -> Result<DatagenStats, DatagenError> {
    let (config, dir) = (config.clone(), dir.to_path_buf());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(run(&config, &dir, &Quiet));
    });
    rx.recv_timeout(Duration::from_secs(60))
        .expect("the run ended within a minute")
}

#[test]
fn a_damaged_chunk_is_an_error_naming_it_until_removed() {
    let dir = fresh_dir("damaged");
    let config = small();
    run(&config, &dir, &Quiet).unwrap();
    let before = chunk_bytes(&dir, 3);
    // A flipped bit (the first record gains a piece, in version 1 still a
    // valid record), a cut, a flipped bit in a header and in a checksum:
    // each is an error naming the chunk, its file and the damaged block.
    let last = before[1].len() - 1;
    let damages: [(u64, usize, Option<u8>, &str); 4] = [
        (0, 16, Some(0x40), "block 0 (records 0 to "),
        (2, 0, None, "cut short"),
        (1, 9, Some(0x01), "the header does not match its checksum"),
        (1, last, Some(0x80), "block 0 (records 0 to "),
    ];
    for (chunk, at, flip, says) in damages {
        let path = dir.join(chunk_name(chunk));
        let mut bytes = before[chunk as usize].clone();
        match flip {
            Some(bit) => bytes[at] ^= bit,
            None => bytes.truncate(bytes.len() - 3),
        }
        std::fs::write(&path, &bytes).unwrap();
        let err = run(&config, &dir, &Quiet).unwrap_err();
        assert!(
            matches!(&err, DatagenError::Chunk { chunk: c, path: p, .. } if *c == chunk && *p == path),
            "{err}"
        );
        let text = err.to_string();
        assert!(text.contains(&chunk_name(chunk)), "{text}");
        assert!(text.contains(says), "{text}");
        // Left as it was, and nothing else made.
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        // Removed, it is made again, the same.
        std::fs::remove_file(&path).unwrap();
        let redo = run(&config, &dir, &Quiet).unwrap();
        assert_eq!((redo.chunks_present, redo.chunks_written), (2, 1));
        assert_eq!(chunk_bytes(&dir, 3), before);
    }
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn chunks_are_written_in_version_2_and_a_version_1_chunk_is_refused() {
    let dir = fresh_dir("version");
    let config = DatagenConfig {
        games: 2,
        ..small()
    };
    run(&config, &dir, &Quiet).unwrap();
    let path = dir.join(chunk_name(0));
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[..6], b"SKTD\x02\x00");
    let manifest = std::fs::read_to_string(dir.join("datagen.txt")).unwrap();
    assert!(manifest.contains("record_format = 2"), "{manifest}");
    // The same records as a version 1 file: they read, but are not what
    // this run writes.
    let records = data::read(&path).unwrap().records;
    let mut old = b"SKTD\x01\x00\x10\x00\0\0\0\0\0\0\0\0".to_vec();
    for r in &records {
        old.extend_from_slice(&r.to_bytes());
    }
    std::fs::write(&path, &old).unwrap();
    assert_eq!(data::read(&path).unwrap().version, 1);
    let err = run(&config, &dir, &Quiet).unwrap_err();
    assert!(
        matches!(
            &err,
            DatagenError::ChunkVersion {
                chunk: 0,
                version: 1,
                ..
            }
        ),
        "{err}"
    );
    std::fs::remove_dir_all(dir).ok();
}

/// A FIFO or a directory where a chunk or the manifest is: an error naming
/// it, never a wait for a writer.
#[cfg(unix)]
#[test]
fn a_fifo_or_directory_named_like_a_chunk_or_the_manifest_is_an_error_not_a_hang() {
    let dir = fresh_dir("fifo");
    let config = DatagenConfig {
        games: 2,
        ..small()
    };
    run(&config, &dir, &Quiet).unwrap();
    for name in [chunk_name(0), "datagen.txt".to_string()] {
        let path = dir.join(&name);
        let kept = std::fs::read(&path).unwrap();
        for kind in ["fifo", "directory"] {
            std::fs::remove_file(&path).unwrap();
            if kind == "fifo" {
                let made = std::process::Command::new("mkfifo").arg(&path).status();
                assert!(made.unwrap().success(), "mkfifo");
            } else {
                std::fs::create_dir(&path).unwrap();
            }
            let err = run_within_a_minute(&config, &dir).unwrap_err();
            assert!(
                matches!(&err, DatagenError::InTheWay(p) if *p == path),
                "{name} {kind}: {err}"
            );
            assert!(err.to_string().contains("not a regular file"), "{err}");
            if kind == "fifo" {
                std::fs::remove_file(&path).unwrap();
            } else {
                std::fs::remove_dir(&path).unwrap();
            }
            std::fs::write(&path, &kept).unwrap();
        }
    }
    assert_eq!(run(&config, &dir, &Quiet).unwrap().chunks_present, 1);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn other_settings_are_refused_naming_the_setting() {
    let dir = fresh_dir("mismatch");
    let config = DatagenConfig {
        games: 1,
        ..small()
    };
    run(&config, &dir, &Quiet).unwrap();
    let err = run(
        &DatagenConfig {
            nodes: 300,
            ..config.clone()
        },
        &dir,
        &Quiet,
    )
    .unwrap_err();
    assert!(
        matches!(&err, DatagenError::Mismatch { setting, found, asked, .. } if setting == "nodes" && found == "200" && asked == "300"),
        "{err}"
    );
    assert!(err.to_string().contains("nodes = 200"), "{err}");
    let err = run(
        &DatagenConfig {
            openings: OpeningMix::Start,
            ..config.clone()
        },
        &dir,
        &Quiet,
    )
    .unwrap_err();
    assert!(err.to_string().contains("openings"), "{err}");
    // Another evaluation: the data was made with the default, the
    // network, named by its checksum.
    let classic = DatagenConfig {
        options: Options {
            evaluation: Evaluation::Classic(surakarta_search::Weights::DEFAULT),
            ..config.options.clone()
        },
        ..config.clone()
    };
    let err = run(&classic, &dir, &Quiet).unwrap_err();
    assert!(
        matches!(&err, DatagenError::Mismatch { setting, found, asked, .. } if setting == "evaluation" && found.starts_with("nnue (checksum ") && asked == "classic"),
        "{err}"
    );
    // Chunks without a manifest: their settings are unknown.
    std::fs::remove_file(dir.join("datagen.txt")).unwrap();
    assert!(matches!(
        run(&config, &dir, &Quiet),
        Err(DatagenError::NoManifest(_))
    ));
    // A file where the directory should be.
    let file = fresh_dir("a-file");
    std::fs::write(&file, b"x").unwrap();
    let err = run(&config, &file, &Quiet).unwrap_err();
    assert!(err.to_string().contains("not a directory"), "{err}");
    // Out of range.
    assert!(matches!(
        run(
            &DatagenConfig {
                nodes: 0,
                ..config.clone()
            },
            &dir,
            &Quiet
        ),
        Err(DatagenError::Config(_))
    ));
    std::fs::remove_dir_all(dir).ok();
    std::fs::remove_file(file).ok();
}

#[test]
fn records_read_back_and_no_game_was_over() {
    let dir = fresh_dir("records");
    let config = DatagenConfig {
        games: 4,
        games_per_chunk: 4,
        rules: Rules::ICGA,
        ..small()
    };
    let stats = run(&config, &dir, &Quiet).unwrap();
    let records = data::read(&dir.join(chunk_name(0))).unwrap().records;
    assert_eq!(records.len() as u64, stats.written);
    assert_eq!(stats.exact, 0); // no tables
    for r in &records {
        assert!(r.position.outcome().is_none(), "{}", r.position);
        assert!(!r.exact);
        // Start openings are 8 to 12 plies deep; random boards start at 0.
        assert!(r.score.unsigned_abs() < 20_001, "{}", r.score);
        // The best move was no capture, and there was more than one move.
        assert!(r.position.legal_moves().len() > 1, "{}", r.position);
    }
    // Every position met is written or counted by one filter.
    assert_eq!(stats.plies, stats.written + stats.filtered(), "{stats:?}");
    assert!(stats.opening_plies >= 16, "{stats:?}"); // two start openings of 8 to 12 plies
    assert_eq!(
        stats.ended_by_rules
            + stats.ended_by_tables
            + stats.ended_by_score
            + stats.ended_by_ply_cap,
        4
    );
    assert_eq!(stats.black_wins + stats.white_wins + stats.draws, 4);
    std::fs::remove_dir_all(dir).ok();
}

/// Under the pure rules every position the tables cover is the game's
/// value: the game ends there.
#[test]
fn games_reaching_the_tables_end_with_their_exact_value() {
    let (tables, _) = Tablebase::generate(4, Scheme::Symmetric, &NoProgress).unwrap();
    let tables = Arc::new(tables);
    let dir = fresh_dir("tables");
    let config = DatagenConfig {
        games: 8,
        games_per_chunk: 8,
        openings: OpeningMix::Random,
        max_plies: 300,
        adjudicate_plies: 0,
        rules: Rules::PURE,
        tables: Some(DatagenTables {
            tables: tables.clone(),
            pieces: 4,
        }),
        ..small()
    };
    let stats = run(&config, &dir, &Quiet).unwrap();
    let records = data::read(&dir.join(chunk_name(0))).unwrap().records;
    let exact: Vec<_> = records.iter().filter(|r| r.exact).collect();
    assert_eq!(exact.len() as u64, stats.exact);
    assert_eq!(stats.exact, stats.ended_by_tables);
    assert!(stats.ended_by_tables > 0, "{stats:?}");
    for r in exact {
        assert!(r.position.occupied().len() <= 4);
        assert_eq!(
            r.label,
            tables.probe_position(&r.position).unwrap().wdl(),
            "{}",
            r.position
        );
    }
    // Positions the tables cover are never searched.
    assert!(records
        .iter()
        .filter(|r| !r.exact)
        .all(|r| r.position.occupied().len() > 4));
    // More pieces than the tables hold is refused.
    let err = run(
        &DatagenConfig {
            tables: Some(DatagenTables { tables, pieces: 5 }),
            ..config
        },
        &fresh_dir("tables-too-many"),
        &Quiet,
    )
    .unwrap_err();
    assert!(err.to_string().contains("up to 4 pieces"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

/// Under rules that adjudicate by piece count (ICGA), a game ends by the
/// tables only where their value is the game's: their draws (endless play
/// under the pure rules, won on count here) and the wins the no-capture
/// counter cuts off are played on by the search, and every exact label,
/// those met by the tables' play included, is the game's value.
#[test]
fn under_adjudicating_rules_only_the_games_values_are_exact_labels() {
    let (tables, _) = Tablebase::generate(4, Scheme::Symmetric, &NoProgress).unwrap();
    let tables = Arc::new(tables);
    let config = DatagenConfig {
        games: 40,
        games_per_chunk: 40,
        openings: OpeningMix::Random,
        max_plies: 300,
        adjudicate_plies: 0,
        rules: Rules::ICGA,
        table_plies: 6,
        tables: Some(DatagenTables {
            tables: tables.clone(),
            pieces: 4,
        }),
        ..small()
    };
    let dir = fresh_dir("tables-icga");
    let stats = run(&config, &dir, &Quiet).unwrap();
    let records = data::read(&dir.join(chunk_name(0))).unwrap().records;
    assert!(stats.ended_by_tables > 0, "{stats:?}");
    // Covered positions the tables do not decide were searched.
    let searched_in_tables = records
        .iter()
        .filter(|r| !r.exact && r.position.occupied().len() <= 4)
        .count();
    assert!(searched_in_tables > 0, "{stats:?}");
    for r in records.iter().filter(|r| r.exact) {
        let game = surakarta::Game::new(r.position, Rules::ICGA);
        let judged = tables.probe_game(&game).unwrap();
        assert_eq!(
            Some(r.label),
            judged.exact().map(|v| v.wdl()),
            "{}: {judged:?}",
            r.position
        );
    }
    std::fs::remove_dir_all(dir).ok();
}

/// With `table_plies`, a game that reaches the tables goes on by their
/// moves: every position met is written with its exact value, each side
/// keeps its value from one ply to the next, the bytes do not depend on
/// the thread count, and the setting is in the manifest (a run without it
/// into that directory is refused).
#[test]
fn the_tables_play_on_and_label_every_position_exactly() {
    let (tables, _) = Tablebase::generate(4, Scheme::Symmetric, &NoProgress).unwrap();
    let tables = Arc::new(tables);
    let config = DatagenConfig {
        games: 16,
        games_per_chunk: 16,
        openings: OpeningMix::Random,
        max_plies: 300,
        adjudicate_plies: 0,
        rules: Rules::PURE,
        table_plies: 12,
        tables: Some(DatagenTables {
            tables: tables.clone(),
            pieces: 4,
        }),
        ..small()
    };
    let dir = fresh_dir("table-plies");
    let stats = run(&config, &dir, &Quiet).unwrap();
    let records = data::read(&dir.join(chunk_name(0))).unwrap().records;
    let exact: Vec<_> = records.iter().filter(|r| r.exact).collect();
    assert_eq!(exact.len() as u64, stats.exact);
    assert!(stats.exact > stats.ended_by_tables + 5, "{stats:?}");
    let mut followed = 0;
    for (r, next) in exact.iter().zip(exact.iter().skip(1)) {
        assert_eq!(r.label, tables.probe_position(&r.position).unwrap().wdl());
        if next.ply == r.ply + 1 {
            // The next position is one of this one's moves away, and its
            // side to move has the value this one's opponent had.
            assert!(r
                .position
                .legal_moves()
                .iter()
                .any(|&m| r.position.after(m).occupied() == next.position.occupied()));
            assert_eq!(
                next.label,
                r.label.flipped(),
                "{} then {}",
                r.position,
                next.position
            );
            followed += 1;
        }
    }
    assert!(followed > 5, "{followed}");
    // Two threads: the same bytes.
    let two = fresh_dir("table-plies-two");
    run(
        &DatagenConfig {
            threads: 2,
            ..config.clone()
        },
        &two,
        &Quiet,
    )
    .unwrap();
    assert_eq!(chunk_bytes(&two, 1), chunk_bytes(&dir, 1));
    // The manifest names the setting; a run without it is refused there.
    let manifest = std::fs::read_to_string(dir.join("datagen.txt")).unwrap();
    assert!(manifest.contains("table_plies = 12"), "{manifest}");
    let err = run(
        &DatagenConfig {
            table_plies: 0,
            ..config.clone()
        },
        &dir,
        &Quiet,
    )
    .unwrap_err();
    assert!(
        matches!(err, DatagenError::Mismatch { ref setting, .. } if setting == "table_plies"),
        "{err}"
    );
    // Without tables, or too many plies: refused.
    for bad in [
        DatagenConfig {
            tables: None,
            ..config.clone()
        },
        DatagenConfig {
            table_plies: 1001,
            ..config
        },
    ] {
        let err = run(&bad, &fresh_dir("table-plies-bad"), &Quiet).unwrap_err();
        assert!(err.to_string().contains("table plies"), "{err}");
    }
    std::fs::remove_dir_all(dir).ok();
    std::fs::remove_dir_all(two).ok();
}
