//! Perft counts against `perft.txt`, counts agreed by several independent
//! generators, and the plain reference generator at shallow depths.

use surakarta::{perft, reference, Position, Setup, Symmetry};

/// One line of `perft.txt`: a position and its `(depth, count)` pairs.
fn reference_counts() -> Vec<(String, Vec<(u32, u64)>)> {
    include_str!("../perft.txt")
        .lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let mut fields = line.split(';').map(str::trim);
            let fen = fields.next().unwrap().to_string();
            let counts = fields
                .map(|f| {
                    let (d, n) = f.split_once(' ').unwrap();
                    (d.parse().unwrap(), n.parse().unwrap())
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

#[test]
fn reference_file_has_the_agreed_positions() {
    let all = reference_counts();
    assert_eq!(all.len(), 3);
    assert_eq!(all[0].1.last(), Some(&(7, 1_442_032_302)));
}

/// Every count up to depth 6 (depth 7 is for the CLI and the bench).
#[test]
fn perft_matches_reference_counts() {
    for (fen, counts) in reference_counts() {
        let pos: Position = fen.parse().unwrap();
        for (depth, expected) in counts.into_iter().filter(|&(d, _)| d <= 6) {
            assert_eq!(perft(&pos, depth), expected, "{fen} depth {depth}");
        }
    }
}

/// The plain array generator agrees at depth 3 (it is too slow for more here).
#[test]
fn reference_generator_matches_reference_counts() {
    for (fen, counts) in reference_counts() {
        let setup: Setup = fen.parse().unwrap();
        for (depth, expected) in counts.into_iter().filter(|&(d, _)| d <= 3) {
            assert_eq!(
                reference::perft(&setup, depth),
                expected,
                "{fen} depth {depth}"
            );
        }
    }
}

/// Captures among the leaves: the second kind of agreed count in `perft.txt`.
fn capture_leaves(pos: &Position, depth: u32) -> u64 {
    if depth == 1 {
        return pos.captures().len() as u64;
    }
    pos.legal_moves()
        .iter()
        .map(|&m| capture_leaves(&pos.after(m), depth - 1))
        .sum()
}

#[test]
fn capture_leaves_of_start_position() {
    let pos = Position::new();
    for (depth, expected) in [(4, 582), (5, 22_480), (6, 777_210)] {
        assert_eq!(capture_leaves(&pos, depth), expected, "depth {depth}");
    }
}

#[test]
fn perft_is_invariant_under_symmetries() {
    for (fen, _) in reference_counts() {
        let pos: Position = fen.parse().unwrap();
        let expected = perft(&pos, 4);
        for sym in Symmetry::ALL {
            assert_eq!(
                perft(&pos.transformed(sym), 4),
                expected,
                "{fen} under {sym}"
            );
        }
    }
}

#[test]
fn divide_sums_to_perft() {
    let pos: Position = "ww1w2/5w/3bww/6/1w2b1/b3bb b".parse().unwrap();
    let split = surakarta::divide(&pos, 3);
    assert_eq!(split.len(), 21);
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 12_978);
    assert!(surakarta::divide(&pos, 0).is_empty());
    assert_eq!(perft(&pos, 0), 1);
}
