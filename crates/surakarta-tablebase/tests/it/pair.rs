//! One pair at a time (`generate_pair`): the same files as `generate_dir`,
//! and a missing or damaged dependency is an error naming it.

use crate::shared::contents;
use std::path::PathBuf;
use surakarta_index::Scheme;
use surakarta_tablebase::{
    generate_dir, generate_pair, GenerateOptions, NoProgress, Pair, TablebaseError,
};

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("surakarta-pair-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn pair(s: &str) -> Pair {
    s.parse().unwrap()
}

#[test]
fn pair_by_pair_gives_the_files_of_generate_dir_in_both_formats() {
    for format in [1u16, 2] {
        let whole = scratch(&format!("whole-{format}"));
        let pairs = scratch(&format!("pairs-{format}"));
        generate_dir(&whole, 5, Scheme::Symmetric, format, &NoProgress).unwrap();
        for p in Pair::all(5) {
            let outcomes = generate_pair(&pairs, p, &options(format), &NoProgress).unwrap();
            assert_eq!(outcomes.len(), p.classes().len());
            assert!(outcomes.iter().all(|o| !o.skipped && o.stats.positions > 0));
        }
        let (a, b) = (contents(&whole), contents(&pairs));
        assert_eq!(
            a.len(),
            10,
            "{:?}",
            a.iter().map(|f| &f.0).collect::<Vec<_>>()
        );
        assert!(a == b, "format {format}: the files differ");
        // Present and intact: nothing to do.
        let again = generate_pair(&pairs, pair("3v2"), &options(format), &NoProgress).unwrap();
        assert_eq!(again.len(), 2);
        assert!(again.iter().all(|o| o.skipped && o.seconds == 0.0));
        assert!(contents(&pairs) == a);
        for dir in [whole, pairs] {
            std::fs::remove_dir_all(dir).unwrap();
        }
    }
}

#[test]
fn a_missing_dependency_is_named() {
    let dir = scratch("missing");
    let e = generate_pair(&dir, pair("3v2"), &options(2), &NoProgress).unwrap_err();
    // Captures from 3v2 lead to 1v3, from 2v3 to 2v2.
    let expected = format!(
        "missing table 1v3 needed by pair 3v2: {}",
        dir.join("1v3.sktb").display()
    );
    assert_eq!(e.to_string(), expected);
    assert!(matches!(e, TablebaseError::MissingDependency { .. }));
    assert_eq!(e.path(), Some(dir.join("1v3.sktb").as_path()));
    assert!(contents(&dir).is_empty(), "nothing written");

    // With 1v3 there, 2v2 is next; a compact 2v2 also needs 1v2 (its
    // captures' class) to be expanded.
    for p in ["1v1", "2v1", "3v1"] {
        generate_pair(&dir, pair(p), &options(2), &NoProgress).unwrap();
    }
    let e = generate_pair(&dir, pair("3v2"), &options(2), &NoProgress).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("missing table 2v2 needed by pair 3v2"),
        "{e}"
    );
    generate_pair(&dir, pair("2v2"), &options(2), &NoProgress).unwrap();
    std::fs::remove_file(dir.join("1v2.sktb")).unwrap();
    let e = generate_pair(&dir, pair("3v2"), &options(2), &NoProgress).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("missing table 1v2 needed by pair 3v2"),
        "{e}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_damaged_dependency_is_named() {
    let dir = scratch("damaged");
    for p in Pair::all(4) {
        generate_pair(&dir, p, &options(1), &NoProgress).unwrap();
    }
    let path = dir.join("2v2.sktb");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let e = generate_pair(&dir, pair("3v2"), &options(1), &NoProgress).unwrap_err();
    let text = e.to_string();
    assert!(
        text.starts_with("table 2v2 needed by pair 3v2 is unusable: ")
            && text.contains(&path.display().to_string())
            && text.contains("checksum"),
        "{text}"
    );
    assert_eq!(e.path(), Some(path.as_path()));
    // A file with another class's table under the name is unusable too.
    std::fs::copy(dir.join("1v3.sktb"), &path).unwrap();
    let e = generate_pair(&dir, pair("3v2"), &options(1), &NoProgress).unwrap_err();
    assert!(
        e.to_string().contains("2v2 needed by pair 3v2 is unusable"),
        "{e}"
    );
    assert!(!dir.join("3v2.sktb").exists() && !dir.join("2v3.sktb").exists());
    // A bad format is refused before anything is read.
    assert!(matches!(
        generate_pair(&dir, pair("3v2"), &options(3), &NoProgress),
        Err(TablebaseError::Format(3))
    ));
    std::fs::remove_dir_all(dir).unwrap();
}

/// Generation options in the symmetric scheme and `format`.
fn options(format: u16) -> GenerateOptions {
    GenerateOptions {
        format,
        ..GenerateOptions::default()
    }
}
