//! Strength levels: a handicapped engine for people to play against.
//!
//! A level (1 to [`MAX_LEVEL`]) limits the depth of each search and, below
//! the top, searches several lines (MultiPV) and picks a move among those
//! whose score is within a margin of the best one, at random but weighted
//! towards the better moves, as Stockfish's skill level does. The top level
//! is the full engine. The choice is deterministic: the randomness comes
//! from [`Options::level_seed`](crate::Options::level_seed) mixed with the
//! position's hash, so the same position and seed give the same move.
//!
//! | Level | Depth | Lines | Margin (cp) |
//! |------:|------:|------:|------------:|
//! | 1 | 1 | 5 | 200 |
//! | 2 | 2 | 5 | 150 |
//! | 3 | 2 | 5 | 110 |
//! | 4 | 2 | 4 | 110 |
//! | 5 | 2 | 4 | 80 |
//! | 6 | 3 | 4 | 60 |
//! | 7 | 4 | 3 | 60 |
//! | 8 | 4 | 3 | 35 |
//! | 9 | 5 | 3 | 25 |
//! | 10 | 6 | 2 | 15 |
//! | 11 | — | — | — (the full engine) |
//!
//! The levels below the top search with
//! [`SearchParameters::UNTUNED`](crate::SearchParameters::UNTUNED), the
//! reductions the ladder of levels was measured with, not the engine's
//! ([`Options::parameters`](crate::Options::parameters)).
//!
//! Sanity: the choice is only among the searched lines; a line whose score
//! is a loss is never chosen while the best line is not one, and a decisive
//! best line (a won game, in the search or the tablebases) is always
//! played.

use surakarta::Move;

use crate::options::MAX_LEVEL;
use crate::search::Line;

/// What a level below the top does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelParameters {
    /// The deepest iteration.
    pub depth: u32,
    /// The lines searched (MultiPV) to choose among.
    pub lines: usize,
    /// How far below the best line's score, in centipawns, a line may be
    /// and still be chosen.
    pub margin: i32,
}

/// The table of the levels below the top, level 1 first.
const TABLE: [LevelParameters; (MAX_LEVEL - 1) as usize] = [
    LevelParameters {
        depth: 1,
        lines: 5,
        margin: 200,
    },
    LevelParameters {
        depth: 2,
        lines: 5,
        margin: 150,
    },
    LevelParameters {
        depth: 2,
        lines: 5,
        margin: 110,
    },
    LevelParameters {
        depth: 2,
        lines: 4,
        margin: 110,
    },
    LevelParameters {
        depth: 2,
        lines: 4,
        margin: 80,
    },
    LevelParameters {
        depth: 3,
        lines: 4,
        margin: 60,
    },
    LevelParameters {
        depth: 4,
        lines: 3,
        margin: 60,
    },
    LevelParameters {
        depth: 4,
        lines: 3,
        margin: 35,
    },
    LevelParameters {
        depth: 5,
        lines: 3,
        margin: 25,
    },
    LevelParameters {
        depth: 6,
        lines: 2,
        margin: 15,
    },
];

/// The handicap of a level: `None` for the top level (and for a level out
/// of range, which [`check_level`](crate::check_level) rejects).
///
/// # Examples
///
/// ```
/// use surakarta_search::{level_parameters, MAX_LEVEL};
///
/// assert_eq!(level_parameters(1).unwrap().depth, 1);
/// assert_eq!(level_parameters(MAX_LEVEL), None);
/// ```
#[must_use]
pub fn level_parameters(level: u8) -> Option<LevelParameters> {
    TABLE.get(usize::from(level).checked_sub(1)?).copied()
}

/// SplitMix64: one step of a small, well-mixed generator.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Picks a move among `lines` (best first) for a level with `margin`:
/// the lines within `margin` of the best, each weighted by how close it is
/// (`margin - gap + 1`), drawn with `seed` mixed with `hash`. The best
/// line's move when the best score is decisive, when the margin is 0 or
/// when there is one line. `None` without lines.
#[must_use]
pub fn choose_line(lines: &[Line], margin: i32, seed: u64, hash: u64) -> Option<Move> {
    let best = lines.first()?;
    let first = *best.pv.first()?;
    if margin <= 0 || lines.len() == 1 || best.score.is_decisive() {
        return Some(first);
    }
    let top = best.score.0;
    let candidates: Vec<(Move, u64)> = lines
        .iter()
        .filter(|line| !line.score.is_decisive())
        .filter_map(|line| {
            let gap = top.saturating_sub(line.score.0);
            let mv = *line.pv.first()?;
            (gap <= margin).then(|| (mv, u64::try_from(margin - gap + 1).unwrap_or(1)))
        })
        .collect();
    let total: u64 = candidates.iter().map(|(_, w)| w).sum();
    if total == 0 {
        return Some(first);
    }
    let mut draw = mix(seed ^ mix(hash)) % total;
    for (mv, weight) in &candidates {
        if draw < *weight {
            return Some(*mv);
        }
        draw -= weight;
    }
    Some(first)
}
