//! Generation with the solver's state mapped from work files
//! (`Storage::Mapped`): the same files, byte for byte, as in memory, and
//! no work file left behind.

use crate::shared::contents;
use std::path::{Path, PathBuf};
use surakarta_index::Scheme;
use surakarta_tablebase::{
    generate_dir_with, generate_pair, plan, GenerateOptions, NoProgress, Pair, Storage,
    TablebaseError,
};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "surakarta-mapped-test-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn options(scheme: Scheme, format: u16, storage: Storage) -> GenerateOptions {
    GenerateOptions {
        scheme,
        format,
        storage,
        ..GenerateOptions::default()
    }
}

#[test]
fn mapped_generation_writes_the_files_of_generation_in_memory() {
    let cases = [
        (Scheme::Symmetric, 5, 1u16),
        (Scheme::Symmetric, 5, 2),
        (Scheme::Plain, 4, 1),
    ];
    for (scheme, pieces, format) in cases {
        let name = format!("{scheme}-{pieces}-{format}");
        let memory = scratch(&format!("memory-{name}"));
        let mapped = scratch(&format!("mapped-{name}"));
        let run = |dir: &Path, storage| {
            generate_dir_with(dir, pieces, &options(scheme, format, storage), &NoProgress).unwrap()
        };
        let in_memory = run(&memory, Storage::Memory);
        assert!(in_memory.iter().all(|o| o.storage == Some(Storage::Memory)));
        let outcomes = run(&mapped, Storage::Mapped);
        assert!(outcomes
            .iter()
            .all(|o| o.storage == Some(Storage::Mapped) && !o.skipped));
        let (a, b) = (contents(&memory), contents(&mapped));
        assert!(a.len() >= 6, "{name}: {}", a.len());
        // Same names (no work file left), same bytes.
        assert_eq!(
            a.iter().map(|f| &f.0).collect::<Vec<_>>(),
            b.iter().map(|f| &f.0).collect::<Vec<_>>(),
            "{name}"
        );
        assert!(a == b, "{name}: the files differ");
        std::fs::remove_dir_all(memory).unwrap();
        std::fs::remove_dir_all(mapped).unwrap();
    }
}

/// A 6-piece pair solved alone with its state mapped, its dependencies'
/// format 1 tables mapped too: the in-memory files.
#[test]
fn a_six_piece_pair_mapped_is_the_pair_in_memory() {
    let memory = scratch("six-memory");
    let mapped = scratch("six-mapped");
    let small = options(Scheme::Symmetric, 1, Storage::Memory);
    generate_dir_with(&memory, 5, &small, &NoProgress).unwrap();
    generate_dir_with(&mapped, 5, &small, &NoProgress).unwrap();
    let pair: Pair = "4v2".parse().unwrap();
    let one = generate_pair(&memory, pair, &small, &NoProgress).unwrap();
    let mapped_options = options(Scheme::Symmetric, 1, Storage::Mapped);
    let two = generate_pair(&mapped, pair, &mapped_options, &NoProgress).unwrap();
    assert_eq!(one.len(), 2);
    assert!(two.iter().all(|o| o.storage == Some(Storage::Mapped)));
    assert!(one.iter().zip(&two).all(|(a, b)| a.stats == b.stats));
    assert!(contents(&memory) == contents(&mapped), "the files differ");
    std::fs::remove_dir_all(memory).unwrap();
    std::fs::remove_dir_all(mapped).unwrap();
}

/// Mapped within a limit that leaves less room than a class: the solver
/// works through each partner class in windows, and writes the same files.
#[test]
fn a_six_piece_pair_in_windows_is_the_pair_in_memory() {
    let memory = scratch("six-windows-memory");
    let windowed = scratch("six-windows");
    let small = options(Scheme::Symmetric, 1, Storage::Memory);
    generate_dir_with(&memory, 5, &small, &NoProgress).unwrap();
    generate_dir_with(&windowed, 5, &small, &NoProgress).unwrap();
    let pair: Pair = "4v2".parse().unwrap();
    generate_pair(&memory, pair, &small, &NoProgress).unwrap();
    // Windows of the least size: four of each 3.7 M-slot class.
    let slots = plan::MIN_WINDOW_SLOTS;
    let windows = GenerateOptions {
        window_slots: Some(slots),
        ..options(Scheme::Symmetric, 1, Storage::Mapped)
    };
    let outcomes = generate_pair(&windowed, pair, &windows, &NoProgress).unwrap();
    assert!(outcomes
        .iter()
        .all(|o| o.storage == Some(Storage::Mapped) && o.window_slots == Some(slots)));
    // A limit the classes fit whole (with room to spare): no windows.
    let settings = plan::Settings {
        format: 1,
        ..plan::Settings::default()
    };
    assert_eq!(plan::window_slots(pair, settings, 1 << 30), None);
    // Past the refusal's model but with less room than a class: windows.
    let tight = plan::mapped_memory_bytes(pair, settings) - plan::PROCESS_BYTES
        + plan::WINDOW_PROCESS_BYTES
        + (2 << 20);
    let slots = plan::window_slots(pair, settings, tight).unwrap();
    assert!((3_665_160 / 4..3_665_160).contains(&slots), "{slots}");
    assert!(contents(&memory) == contents(&windowed), "the files differ");
    std::fs::remove_dir_all(memory).unwrap();
    std::fs::remove_dir_all(windowed).unwrap();
}

/// With a memory limit, `Storage::Auto` solves in memory what fits, and a
/// pair that fits neither way is refused naming what must stay resident.
#[test]
fn a_limit_below_even_the_mapped_need_is_refused() {
    let dir = scratch("limit");
    let tiny = GenerateOptions {
        memory_limit: Some(1 << 20),
        ..options(Scheme::Symmetric, 1, Storage::Auto)
    };
    let err = generate_dir_with(&dir, 3, &tiny, &NoProgress).unwrap_err();
    assert!(
        matches!(err, TablebaseError::NotEnoughMemory { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("mapped from work files"), "{err}");
    let roomy = GenerateOptions {
        memory_limit: Some(1 << 30),
        ..tiny
    };
    let outcomes = generate_dir_with(&dir, 3, &roomy, &NoProgress).unwrap();
    assert!(outcomes.iter().all(|o| o.storage == Some(Storage::Memory)));
    std::fs::remove_dir_all(dir).unwrap();
}
