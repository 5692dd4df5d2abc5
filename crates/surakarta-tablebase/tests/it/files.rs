//! Table files end to end: generate into a directory, open (read and map),
//! verify, probe; damaged files are errors that name the file.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use surakarta::Position;
use surakarta_index::{Material, Scheme};
use surakarta_tablebase::{
    generate_dir, FileProblem, NoProgress, Progress, Table, Tablebase, TablebaseError, Value,
};

/// A fresh directory under the target directory's temp space.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("surakarta-tb-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn file(dir: &Path, material: &str) -> PathBuf {
    dir.join(format!("{material}.sktb"))
}

fn material(s: &str) -> Material {
    s.parse().unwrap()
}

fn verify_all(tb: &Tablebase) -> u64 {
    let mut errors = 0;
    for m in tb.materials().collect::<Vec<_>>() {
        let report = tb.verify(m, &NoProgress).unwrap();
        assert!(report.positions > 0);
        errors += report.errors();
    }
    errors
}

#[test]
fn generated_files_open_probe_and_verify() {
    let dir = scratch("roundtrip");
    let outcomes = generate_dir(&dir, 4, Scheme::Symmetric, 2, &NoProgress).unwrap();
    assert_eq!(outcomes.len(), 6); // 1v1, 2v1, 1v2, 3v1, 1v3, 2v2
    let (memory, stats) = Tablebase::generate(4, Scheme::Symmetric, &NoProgress).unwrap();
    assert_eq!(
        outcomes.iter().map(|o| o.stats).collect::<Vec<_>>(),
        stats,
        "files hold what memory generation computes"
    );
    let read = Tablebase::open_dir(&dir).unwrap();
    // SAFETY: nothing changes the files while the test maps them.
    let mapped = unsafe { Tablebase::map_dir(&dir) }.unwrap();
    assert_eq!(read.complete_pieces(), 4);
    for m in memory.materials() {
        let a = memory.values(m).unwrap();
        assert_eq!(read.table(m).unwrap().format(), 2);
        assert_eq!(read.values(m).unwrap(), a);
        assert_eq!(mapped.values(m).unwrap(), a);
    }
    assert_eq!(verify_all(&read), 0);
    assert_eq!(verify_all(&mapped), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn best_moves_follow_the_values() {
    let (tb, _) = Tablebase::generate(4, Scheme::Symmetric, &NoProgress).unwrap();
    // 2 v 1 with the lone piece about to be captured or not: walk every line.
    let mut checked = 0;
    for text in [
        "6/6/2w3/6/1b4/b5 b",
        "6/6/2w3/6/1b4/b5 w",
        "b5/6/6/3w2/6/4bw b",
        "bb4/6/6/6/6/4ww w",
    ] {
        let p: Position = text.parse().unwrap();
        let value = tb.probe_position(&p).unwrap();
        let line = tb.line(&p).unwrap();
        match value {
            Value::Draw => assert!(line.is_empty()),
            Value::Win(d) | Value::Loss(d) => {
                assert_eq!(line.len() as u32, d, "{text}: {value}, line {line:?}");
                let mut q = p;
                for (i, &m) in line.iter().enumerate() {
                    assert_eq!(m.is_capture(), i + 1 == line.len());
                    q = q.play(m).unwrap();
                }
            }
        }
        assert_eq!(tb.derive(&p).unwrap(), value);
        checked += 1;
    }
    assert_eq!(checked, 4);
}

#[test]
fn resume_skips_complete_tables_and_replaces_partial_ones() {
    let dir = scratch("resume");
    generate_dir(&dir, 3, Scheme::Plain, 2, &NoProgress).unwrap();
    // A leftover temporary file and a lost half of the 2v1/1v2 pair.
    std::fs::write(dir.join("3v1.sktb.tmp"), b"partial").unwrap();
    std::fs::remove_file(file(&dir, "1v2")).unwrap();
    struct Count(AtomicUsize, AtomicUsize);
    impl Progress for Count {
        fn class_skipped(&self, _: &surakarta_tablebase::ClassStats) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
        fn class_done(&self, _: &surakarta_tablebase::ClassStats, _: std::time::Duration) {
            self.1.fetch_add(1, Ordering::Relaxed);
        }
    }
    let count = Count(AtomicUsize::new(0), AtomicUsize::new(0));
    let outcomes = generate_dir(&dir, 4, Scheme::Plain, 2, &count).unwrap();
    // 1v1 skipped; 2v1 + 1v2 regenerated; 4-piece classes new.
    assert_eq!(count.0.load(Ordering::Relaxed), 1);
    assert_eq!(count.1.load(Ordering::Relaxed), outcomes.len() - 1);
    let tb = Tablebase::open_dir(&dir).unwrap();
    assert_eq!(verify_all(&tb), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn problem_of(e: TablebaseError, expected_path: &Path) -> FileProblem {
    match e {
        TablebaseError::File { path, problem } => {
            assert_eq!(path, expected_path);
            problem
        }
        other => panic!("expected a file error, got {other}"),
    }
}

#[test]
fn damaged_files_are_errors_naming_the_file() {
    let dir = scratch("damage");
    generate_dir(&dir, 3, Scheme::Symmetric, 2, &NoProgress).unwrap();
    let path = file(&dir, "2v1");
    let good = std::fs::read(&path).unwrap();
    let mut directories = Default::default();

    // One flipped payload byte: every way of using the table notices.
    let mut bad = good.clone();
    let at = 128 + (bad.len() - 128) / 2;
    bad[at] ^= 0x40;
    std::fs::write(&path, &bad).unwrap();
    let table = Table::read(&path, &mut directories).unwrap();
    let e = table.check().unwrap_err();
    assert!(e.to_string().contains("2v1.sktb"), "{e}");
    assert!(matches!(
        problem_of(e, &path),
        FileProblem::PayloadChecksum { .. }
    ));
    let tb = Tablebase::open_dir(&dir).unwrap();
    let p: Position = "6/6/2w3/6/1b4/b5 b".parse().unwrap();
    assert!(
        tb.probe_position(&p).is_err(),
        "no answer from a damaged table"
    );
    let report = tb.verify(material("2v1"), &NoProgress).unwrap();
    assert!(!report.checksum_ok && report.errors() >= 1);
    assert!(Table::from_file_bytes(&path, bad, &mut directories).is_err());

    // Truncated, wrong magic, future version, header damage, trailing data.
    type IsExpected = fn(&FileProblem) -> bool;
    let cases: Vec<(Vec<u8>, IsExpected)> = vec![
        (good[..good.len() - 1].to_vec(), |p| {
            matches!(p, FileProblem::Truncated { .. })
        }),
        (good[..100].to_vec(), |p| {
            matches!(p, FileProblem::Truncated { .. })
        }),
        (
            {
                let mut b = good.clone();
                b[1] = b'X';
                b
            },
            |p| matches!(p, FileProblem::Magic),
        ),
        (
            {
                let mut b = good.clone();
                b[8] = 3;
                b
            },
            |p| matches!(p, FileProblem::Version(3)),
        ),
        (
            {
                let mut b = good.clone();
                b[20] ^= 1;
                b
            },
            |p| matches!(p, FileProblem::HeaderChecksum),
        ),
        (
            {
                let mut b = good.clone();
                b.push(0);
                b
            },
            |p| matches!(p, FileProblem::TooLong { .. }),
        ),
    ];
    for (bytes, expected) in cases {
        std::fs::write(&path, &bytes).unwrap();
        let e = Table::read(&path, &mut directories).unwrap_err();
        assert!(
            e.to_string().starts_with(&path.display().to_string()),
            "{e}"
        );
        let problem = problem_of(e, &path);
        assert!(expected(&problem), "{problem}");
        // SAFETY: nothing changes the file while it is mapped here.
        let e = unsafe { Table::map(&path, &mut directories) }.unwrap_err();
        assert!(expected(&problem_of(e, &path)));
        assert!(Tablebase::open_dir(&dir).is_err());
    }

    // A table under the wrong name.
    std::fs::write(&path, std::fs::read(file(&dir, "1v2")).unwrap()).unwrap();
    let e = Tablebase::open_dir(&dir).unwrap_err();
    assert!(matches!(
        problem_of(e, &path),
        FileProblem::WrongMaterial { .. }
    ));

    // A missing class names the file it looked for.
    std::fs::remove_file(&path).unwrap();
    let tb = Tablebase::open_dir(&dir).unwrap();
    let e = tb.probe_position(&p).unwrap_err();
    assert!(e.to_string().contains("2v1.sktb not found"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_single_byte_corruption_of_a_small_table_is_detected() {
    let dir = scratch("every-byte");
    generate_dir(&dir, 2, Scheme::Plain, 2, &NoProgress).unwrap();
    let path = file(&dir, "1v1");
    let good = std::fs::read(&path).unwrap();
    let mut directories = Default::default();
    for at in 0..good.len() {
        let mut bad = good.clone();
        bad[at] = bad[at].wrapping_add(1 + (at % 255) as u8);
        assert!(
            Table::from_file_bytes(&path, bad, &mut directories).is_err(),
            "byte {at}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `f` on its own thread and fails the test if it has not returned
/// within a minute (opening a FIFO used to block for ever).
fn within_a_minute<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(f());
    });
    receive
        .recv_timeout(std::time::Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("{what} did not return within a minute"))
}

#[test]
fn directories_and_fifos_named_like_tables_are_not_regular_files() {
    let dir = scratch("not-a-file");
    generate_dir(&dir, 3, Scheme::Symmetric, 2, &NoProgress).unwrap();
    let path = file(&dir, "2v1");
    std::fs::remove_file(&path).unwrap();
    let mut kinds = vec!["directory"];
    if cfg!(unix) {
        kinds.push("fifo");
    }
    for kind in kinds {
        if kind == "directory" {
            std::fs::create_dir(&path).unwrap();
        } else {
            std::fs::remove_dir(&path).unwrap();
            let made = std::process::Command::new("mkfifo").arg(&path).status();
            assert!(made.unwrap().success(), "mkfifo");
        }
        let (dir, path) = (dir.clone(), path.clone());
        within_a_minute(kind, move || {
            let mut directories = Default::default();
            let e = Table::read(&path, &mut directories).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("{}: not a regular file", path.display())
            );
            assert!(matches!(problem_of(e, &path), FileProblem::NotAFile));
            // SAFETY: nothing changes the file while it is mapped here.
            let e = unsafe { Table::map(&path, &mut directories) }.unwrap_err();
            assert!(matches!(problem_of(e, &path), FileProblem::NotAFile));
            let e = Tablebase::open_dir(&dir).unwrap_err();
            assert!(matches!(problem_of(e, &path), FileProblem::NotAFile));
            // Opened leniently, the other classes answer and 2v1 names it.
            // SAFETY: as above.
            let tb = unsafe { Tablebase::map_dir_partial(&dir) }.unwrap();
            let errors: Vec<_> = tb.load_errors().map(|(m, e)| (m, e.to_string())).collect();
            let message = format!("{}: not a regular file", path.display());
            assert_eq!(errors, [(material("2v1"), message)]);
            let one: Position = "6/6/6/6/1bw3/6 b".parse().unwrap();
            assert_eq!(tb.probe_position(&one).unwrap(), Value::Win(1));
            let two: Position = "6/6/2w3/6/1b4/b5 b".parse().unwrap();
            let e = tb.probe_position(&two).unwrap_err();
            assert!(matches!(problem_of(e, &path), FileProblem::NotAFile));
            let e = tb.verify(material("1v2"), &NoProgress).unwrap_err();
            assert!(matches!(problem_of(e, &path), FileProblem::NotAFile));
        });
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_table_is_named_by_every_use_of_its_class() {
    let dir = scratch("damaged-partner");
    generate_dir(&dir, 3, Scheme::Symmetric, 2, &NoProgress).unwrap();
    let path = file(&dir, "2v1");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[20] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    // SAFETY: nothing changes the files while the test maps them.
    let tb = unsafe { Tablebase::map_dir_partial(&dir) }.unwrap();
    assert_eq!(
        tb.materials().map(|m| m.to_string()).collect::<Vec<_>>(),
        ["1v1", "1v2"]
    );
    assert_eq!(tb.load_errors().count(), 1);
    // The partner needs 2v1 for its quiet moves: the error is the file's.
    let e = tb.verify(material("1v2"), &NoProgress).unwrap_err();
    assert!(matches!(problem_of(e, &path), FileProblem::HeaderChecksum));
    let e = tb.lookup(material("2v1")).unwrap_err();
    assert!(matches!(problem_of(e, &path), FileProblem::HeaderChecksum));
    let p: Position = "6/6/2w3/6/1b4/b5 w".parse().unwrap();
    assert_eq!(tb.probe_position(&p).unwrap(), Value::Loss(6));
    let e = tb.best_move(&p).unwrap_err();
    assert!(
        e.to_string().contains("2v1.sktb: header checksum mismatch"),
        "{e}"
    );
    assert_eq!(tb.verify(material("1v1"), &NoProgress).unwrap().errors(), 0);
    // A class with no file at all is still "not found".
    let e = tb.lookup(material("3v1")).unwrap_err();
    assert!(e.to_string().contains("3v1.sktb not found"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A format 2 table damaged anywhere (a flipped byte in every region of
/// the file: header, terminals, pairs, code lengths, block offsets, bit
/// stream, draw map; or cut short) never answers wrongly and never panics: opening
/// it, probing every position of its class and verifying it either give
/// the undamaged answer or an error naming the file, and at least one of
/// them is an error.
#[test]
fn every_region_of_a_compact_table_is_covered_by_a_checksum() {
    let dir = scratch("compact-regions");
    generate_dir(&dir, 4, Scheme::Symmetric, 2, &NoProgress).unwrap();
    let good_tb = Tablebase::open_dir(&dir).unwrap();
    // The table with the most blocks (ties: the most pairs).
    let (m, shape, slots) = good_tb
        .materials()
        .map(|m| {
            let t = good_tb.table(m).unwrap();
            (m, t.header().compact.unwrap(), t.stats().slots)
        })
        .max_by_key(|&(_, s, slots)| (slots.div_ceil(1 << s.block_bits), s.rules))
        .unwrap();
    let blocks = slots.div_ceil(1 << shape.block_bits) as usize;
    assert_eq!(shape.offsets, surakarta_tablebase::BlockOffsets::Grouped);
    assert!(shape.packed_dictionary);
    assert!(shape.draw_map_bits.is_some(), "{m}: {shape:?}");
    let path = file(&dir, &m.to_string());
    let good = std::fs::read(&path).unwrap();
    let mut regions = Vec::new();
    let mut at = 0;
    for (name, len) in [
        ("header", 128),
        ("terminals", shape.terminals_len() as usize),
        ("rules", shape.rules_len() as usize),
        ("lengths", shape.lengths_len() as usize),
        ("offsets", shape.offsets_len(slots).unwrap() as usize),
        ("bits", shape.bits_len as usize),
        ("draw map", shape.draw_map_len(slots) as usize),
    ] {
        regions.push((name, at..at + len));
        at += len;
    }
    assert_eq!(at, good.len(), "{m}: {shape:?}, {blocks} blocks");
    println!("{m}: {shape:?}, {blocks} blocks, regions {regions:?}");
    assert!(blocks > 1, "{m} has {blocks} block");

    // Every position of the class with its undamaged value.
    let table = good_tb.table(m).unwrap();
    let mut positions = Vec::new();
    table.indexer().for_each_in(0, u64::MAX, |_, sides| {
        positions.push((sides, good_tb.probe(sides).unwrap()));
    });
    assert_eq!(positions.len() as u64, table.stats().positions);
    drop(good_tb);

    let mut variants: Vec<(String, Vec<u8>)> = Vec::new();
    for (name, range) in &regions {
        if range.is_empty() {
            continue;
        }
        let last = range.end - 1;
        let mut spots = vec![range.start, range.start + range.len() / 2, last];
        spots.dedup();
        for at in spots {
            for flip in [0x01, 0x80] {
                let mut bad = good.clone();
                bad[at] ^= flip;
                variants.push((format!("{name} byte {at} ^ {flip:#x}"), bad));
            }
        }
    }
    for len in [0, 64, 127, 128, 129, good.len() / 2, good.len() - 1] {
        variants.push((format!("cut to {len} bytes"), good[..len].to_vec()));
    }

    let names_the_file = |e: &TablebaseError, what: &str| {
        assert!(
            matches!(e, TablebaseError::File { path: p, .. } if p == &path),
            "{what}: {e}"
        );
        assert!(
            e.to_string().starts_with(&path.display().to_string()),
            "{what}: {e}"
        );
    };
    for (what, bytes) in &variants {
        std::fs::write(&path, bytes).unwrap();
        let tb = match Tablebase::open_dir(&dir) {
            Ok(tb) => tb,
            Err(e) => {
                names_the_file(&e, what);
                continue;
            }
        };
        let mut errors = 0;
        for &(sides, value) in &positions {
            match tb.probe(sides) {
                Ok(v) => assert_eq!(v, value, "{what}: a wrong value"),
                Err(e) => {
                    names_the_file(&e, what);
                    errors += 1;
                }
            }
        }
        assert!(errors > 0, "{what}: every probe answered");
        match tb.verify(m, &NoProgress) {
            Ok(report) => assert!(
                !report.checksum_ok && report.errors() >= 1,
                "{what}: {report:?}"
            ),
            Err(e) => names_the_file(&e, what),
        }
    }
    std::fs::write(&path, &good).unwrap();
    let tb = Tablebase::open_dir(&dir).unwrap();
    assert_eq!(verify_all(&tb), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_file_keeps_the_system_error_as_the_source() {
    use std::error::Error;
    use std::io::ErrorKind;
    let dir = scratch("missing");
    let path = file(&dir, "2v1");
    let mut directories = Default::default();
    let e = Table::read(&path, &mut directories).unwrap_err();
    // The problem is the source, and the system's error is its source.
    let problem = e.source().expect("a file error has a source");
    assert!(matches!(
        problem.downcast_ref::<FileProblem>(),
        Some(FileProblem::Io(_))
    ));
    let io = problem
        .source()
        .and_then(|s| s.downcast_ref::<std::io::Error>())
        .expect("the problem's source is the io::Error");
    assert_eq!(io.kind(), ErrorKind::NotFound);
    // The one-line message names the file and gives the system's reason.
    assert_eq!(e.to_string(), format!("{}: {io}", path.display()));
    let e = match e {
        TablebaseError::File { problem, .. } => problem,
        other => panic!("expected a file error, got {other}"),
    };
    let io = e.source().and_then(|s| s.downcast_ref::<std::io::Error>());
    assert_eq!(io.map(std::io::Error::kind), Some(ErrorKind::NotFound));
    // SAFETY: there is no file to change.
    let e = unsafe { Table::map(&path, &mut directories) }.unwrap_err();
    let mut chain: Option<&dyn Error> = e.source();
    let mut kind = None;
    while let Some(s) = chain {
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            kind = Some(io.kind());
        }
        chain = s.source();
    }
    assert_eq!(kind, Some(ErrorKind::NotFound));

    // A missing directory: the source is the system's error itself.
    let gone = dir.join("gone");
    let e = Tablebase::open_dir(&gone).unwrap_err();
    let io = e
        .source()
        .and_then(|s| s.downcast_ref::<std::io::Error>())
        .expect("a directory error's source is the io::Error");
    assert_eq!(io.kind(), ErrorKind::NotFound);
    assert!(
        e.to_string().starts_with(&gone.display().to_string()),
        "{e}"
    );
    assert!(e.to_string().ends_with(&io.to_string()), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
