//! Exact orbit counts by Burnside's lemma: the number of orbits is the
//! average, over the eight symmetries, of the number of configurations each
//! one fixes. A configuration is fixed by a symmetry exactly when it is
//! constant on each cycle of the symmetry's permutation of the points.

use crate::material::Material;
use surakarta::{Square, Symmetry};

/// The cycle lengths of a symmetry acting on the 36 points.
fn cycle_lengths(sym: Symmetry) -> Vec<usize> {
    let mut seen = [false; 36];
    let mut lengths = Vec::new();
    for start in Square::ALL {
        if seen[start.index()] {
            continue;
        }
        let mut len = 0;
        let mut sq = start;
        while !seen[sq.index()] {
            seen[sq.index()] = true;
            sq = sym.square(sq);
            len += 1;
        }
        lengths.push(len);
    }
    lengths
}

/// Configurations fixed by `sym` with `us` points of one kind and `them` of
/// another: the coefficient of `x^us y^them` in the product over cycles of
/// `1 + x^len + y^len`.
fn fixed_positions(sym: Symmetry, us: usize, them: usize) -> u64 {
    // poly[i][j]: coefficient of x^i y^j.
    let mut poly = vec![vec![0u64; them + 1]; us + 1];
    poly[0][0] = 1;
    for len in cycle_lengths(sym) {
        let mut next = poly.clone();
        for i in 0..=us {
            for j in 0..=them {
                if i >= len {
                    next[i][j] += poly[i - len][j];
                }
                if j >= len {
                    next[i][j] += poly[i][j - len];
                }
            }
        }
        poly = next;
    }
    poly[us][them]
}

/// The number of orbits of positions of a material class under the eight
/// symmetries: the least possible size of a symmetry-reduced table.
///
/// # Examples
///
/// ```
/// use surakarta_index::{position_orbits, Material};
///
/// // 1v1: 36 · 35 placements; only those symmetric under some symmetry are
/// // fixed by it, so the orbit count is a little over 36 · 35 / 8.
/// let orbits = position_orbits(Material::new(1, 1)?);
/// assert!(orbits * 8 >= 36 * 35 && orbits * 8 < 36 * 35 + 8 * 36);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn position_orbits(material: Material) -> u64 {
    let (us, them) = (material.us() as usize, material.them() as usize);
    Symmetry::ALL
        .into_iter()
        .map(|sym| fixed_positions(sym, us, them))
        .sum::<u64>()
        / 8
}

/// The number of orbits of sets of `pieces` points under the symmetries
/// (`pieces <= 36`): the number of canonical occupied sets.
///
/// # Examples
///
/// ```
/// use surakarta_index::occupancy_orbits;
///
/// assert_eq!(occupancy_orbits(0), 1);
/// assert_eq!(occupancy_orbits(1), 6); // a1, b1, c1, b2, c2, c3 up to symmetry
/// ```
#[must_use]
pub fn occupancy_orbits(pieces: u32) -> u64 {
    Symmetry::ALL
        .into_iter()
        .map(|sym| fixed_positions(sym, pieces as usize, 0))
        .sum::<u64>()
        / 8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_counts_by_hand() {
        // One point: orbits are {corners}, {edge points next to corners} (8),
        // {middle edge points} (8), {inner points}: a1, b1, c1, b2, c2, c3.
        assert_eq!(occupancy_orbits(1), 6);
        assert_eq!(occupancy_orbits(0), 1);
        assert_eq!(occupancy_orbits(36), 1);
        // Two kinds of one piece each: 36·35 ordered placements; orbits of size
        // 8 except those fixed by a reflection or rotation.
        let one_one = position_orbits(Material::new(1, 1).unwrap());
        assert!(one_one * 8 >= 36 * 35 && one_one * 4 <= 36 * 35);
    }
}
