//! One pair of classes at a time: the unit of work of a cluster run.
//!
//! A class `a v b` and its swap `b v a` are solved together (quiet moves
//! lead from one to the other); `a v a` is its own swap. A [`Pair`] names
//! them by the class whose side to move has more pieces (`4v3` for 4v3 and
//! 3v4). Captures from a pair lead to classes with one piece fewer
//! ([`Pair::capture_targets`]), which belong to the pairs it depends on
//! ([`Pair::dependencies`]); [`generate_pair`] solves one pair into a
//! directory that already holds those tables (`generate/runs.rs`), so separate processes (a
//! Makefile, Snakemake, Slurm jobs) can solve the pairs in dependency order.

use crate::format;
use core::cmp::Ordering;
use core::fmt;
use core::str::FromStr;
use surakarta_index::{IndexError, Material};

/// A class and its swap, solved together: `a v b` and `b v a` with
/// `a > b`, or `a v a` alone. Written as its first class, `a v b` with
/// `a >= b` (`4v3`, `3v3`). Ordered by piece count, then by the first
/// class's side to move descending: the order of [`Pair::all`], in which
/// every pair comes after the pairs it depends on.
///
/// # Examples
///
/// ```
/// use surakarta_index::Material;
/// use surakarta_tablebase::Pair;
///
/// let pair = Pair::of(Material::new(3, 4)?);
/// assert_eq!(pair.to_string(), "4v3");
/// assert_eq!(pair.classes(), [Material::new(4, 3)?, Material::new(3, 4)?]);
/// assert_eq!(pair.file_names(), ["4v3.sktb", "3v4.sktb"]);
/// // Captures from 4v3 lead to 2v4, from 3v4 to 3v3: those pairs come first.
/// let dependencies: Vec<String> = pair.dependencies().iter().map(|p| p.to_string()).collect();
/// assert_eq!(dependencies, ["4v2", "3v3"]);
/// assert_eq!(Pair::all(3).len(), 2); // 1v1, then 2v1 with 1v2
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pair {
    first: Material,
}

impl Pair {
    /// The pair that holds `material` (either of its classes).
    #[must_use]
    pub fn of(material: Material) -> Pair {
        let first = if material.us() >= material.them() {
            material
        } else {
            material.swapped()
        };
        Pair { first }
    }

    /// Every pair with 2 to `max_pieces` pieces (at most 24), in
    /// dependency order.
    #[must_use]
    pub fn all(max_pieces: u32) -> Vec<Pair> {
        (2..=max_pieces.min(24))
            .flat_map(Material::with_pieces)
            .filter(|m| m.us() >= m.them())
            .map(Pair::of)
            .collect()
    }

    /// The first class, `a v b` with `a >= b`.
    #[must_use]
    pub fn first(self) -> Material {
        self.first
    }

    /// Pieces on the board.
    #[must_use]
    pub fn pieces(self) -> u32 {
        self.first.pieces()
    }

    /// The classes solved together: `[a v b, b v a]`, or `[a v a]`.
    #[must_use]
    pub fn classes(self) -> Vec<Material> {
        if self.first.swapped() == self.first {
            vec![self.first]
        } else {
            vec![self.first, self.first.swapped()]
        }
    }

    /// The classes that captures from this pair's positions reach (a
    /// capture from `a v b` leads to `(b - 1) v a`; capturing the last
    /// piece needs no table), in the order of [`Pair::classes`].
    #[must_use]
    pub fn capture_targets(self) -> Vec<Material> {
        let mut out: Vec<Material> = Vec::new();
        for class in self.classes() {
            if let Some(target) = class.after_capture() {
                if !out.contains(&target) {
                    out.push(target);
                }
            }
        }
        out
    }

    /// The pairs of [`Pair::capture_targets`]: the ones that must be solved
    /// first. Their own dependencies come earlier still, so the pairs of
    /// [`Pair::all`] with these edges form a graph without cycles.
    #[must_use]
    pub fn dependencies(self) -> Vec<Pair> {
        let mut out: Vec<Pair> = Vec::new();
        for target in self.capture_targets() {
            let pair = Pair::of(target);
            if !out.contains(&pair) {
                out.push(pair);
            }
        }
        out
    }

    /// The file names of the pair's tables (`4v3.sktb`, `3v4.sktb`).
    #[must_use]
    pub fn file_names(self) -> Vec<String> {
        self.classes().into_iter().map(format::file_name).collect()
    }

    fn order_key(self) -> (u32, core::cmp::Reverse<u32>) {
        (self.pieces(), core::cmp::Reverse(self.first.us()))
    }
}

impl PartialOrd for Pair {
    fn partial_cmp(&self, other: &Pair) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Pair {
    fn cmp(&self, other: &Pair) -> Ordering {
        self.order_key().cmp(&other.order_key())
    }
}

impl fmt::Display for Pair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.first.fmt(f)
    }
}

impl fmt::Debug for Pair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pair({})", self.first)
    }
}

impl FromStr for Pair {
    type Err = IndexError;

    /// Parses either class of the pair, `4v3` or `3v4`.
    fn from_str(s: &str) -> Result<Pair, IndexError> {
        s.parse::<Material>().map(Pair::of)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(pairs: &[Pair]) -> Vec<String> {
        pairs.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn parse_print_and_classes() {
        let pair: Pair = "3v4".parse().unwrap();
        assert_eq!(pair.to_string(), "4v3");
        assert_eq!(pair, "4v3".parse().unwrap());
        assert_eq!(
            pair.classes(),
            ["4v3".parse().unwrap(), "3v4".parse().unwrap()]
        );
        assert_eq!(pair.file_names(), ["4v3.sktb", "3v4.sktb"]);
        let even: Pair = "3v3".parse().unwrap();
        assert_eq!(even.classes().len(), 1);
        for bad in ["", "4", "4v0", "13v1", "4x3"] {
            assert!(bad.parse::<Pair>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn dependencies_are_the_pairs_captures_reach() {
        let deps = |s: &str| names(&s.parse::<Pair>().unwrap().dependencies());
        // 4v3 captures into 2v4; 3v4 into 3v3.
        assert_eq!(deps("4v3"), ["4v2", "3v3"]);
        assert_eq!(deps("6v6"), ["6v5"]);
        assert_eq!(deps("2v1"), ["1v1"]);
        assert!(deps("1v1").is_empty());
        assert_eq!(deps("7v1"), ["6v1"]);
        let targets: Vec<String> = "4v3"
            .parse::<Pair>()
            .unwrap()
            .capture_targets()
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(targets, ["2v4", "3v3"]);
    }

    #[test]
    fn all_is_the_order_of_pairs_and_topological() {
        let all = Pair::all(12);
        let classes: Vec<Vec<Material>> = all.iter().map(|p| p.classes()).collect();
        // The same order, written out: by piece count, then by class.
        let mut expected = Vec::new();
        for pieces in 2..=12 {
            for m in Material::with_pieces(pieces).filter(|m| m.us() >= m.them()) {
                if m.swapped() == m {
                    expected.push(vec![m]);
                } else {
                    expected.push(vec![m, m.swapped()]);
                }
            }
        }
        assert_eq!(classes, expected);
        for (i, pair) in all.iter().enumerate() {
            for dep in pair.dependencies() {
                let j = all.iter().position(|p| *p == dep).unwrap();
                assert!(j < i, "{dep} must come before {pair}");
                assert!(dep < *pair);
            }
        }
        let mut sorted = all.clone();
        sorted.sort();
        assert_eq!(sorted, all);
        assert_eq!(Pair::all(5).len(), 6);
    }
}
