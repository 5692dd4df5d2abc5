//! The generator against an independent, naive solver: every position with up
//! to 4 pieces, enumerated by placement, solved by plain forward iteration
//! level by level (no un-move generation, no index), piece counts ascending.

use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use surakarta::{Bitboard, Color, Position};
use surakarta_index::{Scheme, Sides};
use surakarta_tablebase::{NoProgress, Tablebase, Value};

/// A multiply-shift hasher for the `(us, them)` keys.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys")
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(29) ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type Map = HashMap<(u64, u64), Value, BuildHasherDefault<KeyHasher>>;

/// Every `(us, them)` with `n` pieces, both sides 1..=12.
fn positions_with(n: u32) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    let mut chosen = Vec::new();
    fn occupied_sets(start: u32, left: u32, chosen: &mut Vec<u32>, f: &mut dyn FnMut(&[u32])) {
        if left == 0 {
            f(chosen);
            return;
        }
        for sq in start..=(36 - left) {
            chosen.push(sq);
            occupied_sets(sq + 1, left - 1, chosen, f);
            chosen.pop();
        }
    }
    occupied_sets(0, n, &mut chosen, &mut |squares| {
        for colouring in 1..(1u32 << n) - 1 {
            let (mut us, mut them) = (0u64, 0u64);
            for (i, &sq) in squares.iter().enumerate() {
                if colouring >> i & 1 == 1 {
                    us |= 1 << sq;
                } else {
                    them |= 1 << sq;
                }
            }
            if us.count_ones() <= 12 && them.count_ones() <= 12 {
                out.push((us, them));
            }
        }
    });
    out
}

/// The value for the mover of a move leading to `next` (opponent to move),
/// if known: a capture converts (its sub-position's result alone counts).
fn mover_value(next: (u64, u64), capture: bool, known: &Map) -> Option<Value> {
    if next.0 == 0 {
        return Some(Value::Win(1));
    }
    let v = *known.get(&next)?;
    Some(if capture {
        match v {
            Value::Win(_) => Value::Loss(1),
            Value::Draw => Value::Draw,
            Value::Loss(_) => Value::Win(1),
        }
    } else {
        match v {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Draw => Value::Draw,
            Value::Loss(d) => Value::Win(d + 1),
        }
    })
}

/// The value at level `k` from the values of lower levels, if it is `k`.
fn at_level(p: (u64, u64), k: u32, known: &Map) -> Option<Value> {
    let pos = Position::from_sides(
        Bitboard::from_bits_truncate(p.0),
        Bitboard::from_bits_truncate(p.1),
        Color::White,
    )
    .unwrap();
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return (k == 0).then_some(Value::Loss(0));
    }
    let mut all_lose = true;
    let mut longest = 0;
    for &m in moves.iter() {
        let next = pos.after(m);
        let next = (next.us().bits(), next.them().bits());
        match mover_value(next, m.is_capture(), known) {
            Some(Value::Win(d)) if d == k => return Some(Value::Win(k)),
            Some(Value::Loss(d)) => longest = longest.max(d),
            _ => all_lose = false,
        }
    }
    (all_lose && longest == k).then_some(Value::Loss(k))
}

fn naive_solve(max_pieces: u32) -> Map {
    let mut known = Map::default();
    for n in 2..=max_pieces {
        let mut open = positions_with(n);
        let mut k = 0;
        loop {
            let found: Vec<((u64, u64), Value)> = open
                .par_iter()
                .filter_map(|&p| at_level(p, k, &known).map(|v| (p, v)))
                .collect();
            if found.is_empty() && k >= 1 {
                break;
            }
            for &(p, v) in &found {
                known.insert(p, v);
            }
            open.retain(|p| !known.contains_key(p));
            k += 1;
        }
        for p in open {
            known.insert(p, Value::Draw);
        }
    }
    known
}

#[test]
fn generator_agrees_with_naive_solver_up_to_four_pieces() {
    let naive = naive_solve(4);
    assert_eq!(naive.len(), 1260 + 42840 + 824670);
    for scheme in [Scheme::Symmetric, Scheme::Plain] {
        let (tablebase, stats) = Tablebase::generate(4, scheme, &NoProgress).unwrap();
        assert_eq!(stats.len(), 1 + 2 + 3);
        let mismatches: Vec<_> = naive
            .par_iter()
            .filter_map(|(&(us, them), &expected)| {
                let got = tablebase
                    .probe(Sides::new(
                        Bitboard::from_bits_truncate(us),
                        Bitboard::from_bits_truncate(them),
                    ))
                    .unwrap();
                (got != expected).then_some((us, them, expected, got))
            })
            .collect();
        assert!(
            mismatches.is_empty(),
            "{scheme}: {} mismatches, e.g. {:x?}",
            mismatches.len(),
            &mismatches[..mismatches.len().min(5)]
        );
        // Every class's counts add up.
        for s in &stats {
            assert_eq!(s.wins + s.draws + s.losses, s.positions);
        }
    }
    // Sanity: the naive solution has wins, losses and draws.
    let wins = naive
        .values()
        .filter(|v| matches!(v, Value::Win(_)))
        .count();
    let losses = naive
        .values()
        .filter(|v| matches!(v, Value::Loss(_)))
        .count();
    assert!(wins > 0 && losses > 0 && wins + losses < naive.len());
}
