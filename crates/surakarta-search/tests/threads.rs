//! An engine's threads live as long as the engine: searching again starts
//! no thread, in either parallel scheme (the protocol, matches, the server
//! and Python search many times with one engine).

#![cfg(target_os = "linux")]

use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;
use surakarta::{Game, Position, Rules};
use surakarta_search::{Engine, Limits, Options, Smp};

/// The ids of this process's threads now.
fn thread_ids() -> BTreeSet<u64> {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect()
}

#[test]
fn searching_again_starts_no_thread() {
    for smp in [Smp::Siblings, Smp::Lazy] {
        let mut engine = Engine::new(Options {
            threads: 2,
            hash_mb: 4,
            smp,
            ..Options::default()
        })
        .unwrap();
        let game = Game::new(Position::new(), Rules::default());
        // The threads seen while each search reports, over three searches.
        let mut seen: Vec<BTreeSet<u64>> = Vec::new();
        for _ in 0..3 {
            let mut during = BTreeSet::new();
            engine.search(
                &game,
                &Limits::depth(6),
                &AtomicBool::new(false),
                &mut |_| {
                    during.extend(thread_ids());
                },
            );
            seen.push(during);
        }
        assert!(seen[0].len() >= 2, "{smp:?}: {seen:?}");
        // No thread appears after the first search (one may go: a pool of
        // an engine dropped before ends its threads in its own time).
        assert!(
            seen.iter().all(|s| s.is_subset(&seen[0])),
            "{smp:?}: later searches start no thread: {seen:?}"
        );
    }
}
