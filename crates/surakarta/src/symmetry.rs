//! The eight symmetries of the board (the dihedral group of the square).
//!
//! Both circuits are mapped onto themselves by every symmetry (see the tests),
//! so symmetric positions have the same moves up to the symmetry and the same
//! game-theoretic value.

use crate::bitboard::Bitboard;
use crate::square::Square;
use core::fmt;

/// A symmetry of the 6×6 board. It acts on a point `(x, y)` (file and rank
/// indices `0..6`) by first swapping `x` and `y` if [`Symmetry::transposes`],
/// then mirroring `x` (`x → 5 - x`) if [`Symmetry::flips_files`], then
/// mirroring `y` if [`Symmetry::flips_ranks`].
///
/// # Examples
///
/// ```
/// use surakarta::{Square, Symmetry};
///
/// assert_eq!(Symmetry::ALL.len(), 8);
/// let mirror = Symmetry::ALL.into_iter().find(|s| s.flips_files() && !s.flips_ranks() && !s.transposes()).unwrap();
/// assert_eq!(mirror.square(Square::A1), Square::F1);
/// assert_eq!(mirror.then(mirror), Symmetry::IDENTITY);
/// for s in Symmetry::ALL {
///     assert_eq!(s.inverse().square(s.square(Square::B3)), Square::B3);
/// }
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Symmetry(u8);

const fn map_xy(sym: u8, x: u8, y: u8) -> (u8, u8) {
    let (mut x, mut y) = if sym & 4 != 0 { (y, x) } else { (x, y) };
    if sym & 1 != 0 {
        x = 5 - x;
    }
    if sym & 2 != 0 {
        y = 5 - y;
    }
    (x, y)
}

/// `SQUARE_MAP[sym][sq]`: the index of the image of `sq`.
const SQUARE_MAP: [[u8; 36]; 8] = {
    let mut table = [[0u8; 36]; 8];
    let mut sym = 0;
    while sym < 8 {
        let mut s = 0;
        while s < 36 {
            let (x, y) = map_xy(sym as u8, (s % 6) as u8, (s / 6) as u8);
            table[sym][s] = y * 6 + x;
            s += 1;
        }
        sym += 1;
    }
    table
};

/// `RANK_MAP[sym][rank][bits]`: the image of the points of `rank` given by the
/// six `bits`, so a whole bitboard maps with six lookups.
static RANK_MAP: [[[u64; 64]; 6]; 8] = {
    let mut table = [[[0u64; 64]; 6]; 8];
    let mut sym = 0;
    while sym < 8 {
        let mut rank = 0;
        while rank < 6 {
            let mut bits = 0;
            while bits < 64 {
                let mut image = 0u64;
                let mut file = 0;
                while file < 6 {
                    if bits >> file & 1 == 1 {
                        image |= 1 << SQUARE_MAP[sym][rank * 6 + file];
                    }
                    file += 1;
                }
                table[sym][rank][bits] = image;
                bits += 1;
            }
            rank += 1;
        }
        sym += 1;
    }
    table
};

/// `COMPOSE[a][b]`: the symmetry equal to `a` followed by `b`.
const COMPOSE: [[u8; 8]; 8] = {
    let mut table = [[0u8; 8]; 8];
    let mut a = 0;
    while a < 8 {
        let mut b = 0;
        while b < 8 {
            let mut c = 0;
            while c < 8 {
                let mut same = true;
                let mut s = 0;
                while s < 36 {
                    if SQUARE_MAP[b][SQUARE_MAP[a][s] as usize] != SQUARE_MAP[c][s] {
                        same = false;
                    }
                    s += 1;
                }
                if same {
                    table[a][b] = c as u8;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    table
};

/// `INVERSE[a]`: the symmetry `b` with `a` followed by `b` the identity.
const INVERSE: [u8; 8] = {
    let mut table = [0u8; 8];
    let mut a = 0;
    while a < 8 {
        let mut b = 0;
        while b < 8 {
            if COMPOSE[a][b] == 0 {
                table[a] = b as u8;
            }
            b += 1;
        }
        a += 1;
    }
    table
};

impl Symmetry {
    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry(0);
    /// All eight symmetries, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// The symmetry with index `0..8` (see the type's documentation for the bits).
    #[inline]
    #[must_use]
    pub const fn new(index: u8) -> Option<Symmetry> {
        if index < 8 {
            Some(Symmetry(index))
        } else {
            None
        }
    }

    /// Index `0..8`: bit 0 mirrors files, bit 1 mirrors ranks, bit 2 transposes first.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether files are mirrored (`a ↔ f`).
    #[inline]
    #[must_use]
    pub const fn flips_files(self) -> bool {
        self.0 & 1 != 0
    }

    /// Whether ranks are mirrored (`1 ↔ 6`).
    #[inline]
    #[must_use]
    pub const fn flips_ranks(self) -> bool {
        self.0 & 2 != 0
    }

    /// Whether files and ranks are swapped (before any mirroring).
    #[inline]
    #[must_use]
    pub const fn transposes(self) -> bool {
        self.0 & 4 != 0
    }

    /// The image of a point.
    #[inline]
    #[must_use]
    pub const fn square(self, sq: Square) -> Square {
        match Square::new(SQUARE_MAP[self.0 as usize][sq.index()]) {
            Some(s) => s,
            None => sq, // unreachable: the table only holds indices below 36
        }
    }

    /// The image of a set of points.
    #[inline]
    #[must_use]
    pub fn bitboard(self, bb: Bitboard) -> Bitboard {
        let t = &RANK_MAP[self.0 as usize];
        let b = bb.bits();
        Bitboard::from_bits_truncate(
            t[0][(b & 63) as usize]
                | t[1][(b >> 6 & 63) as usize]
                | t[2][(b >> 12 & 63) as usize]
                | t[3][(b >> 18 & 63) as usize]
                | t[4][(b >> 24 & 63) as usize]
                | t[5][(b >> 30 & 63) as usize],
        )
    }

    /// The symmetry that undoes this one.
    #[inline]
    #[must_use]
    pub const fn inverse(self) -> Symmetry {
        Symmetry(INVERSE[self.0 as usize])
    }

    /// The symmetry that applies `self` first and then `next`.
    #[inline]
    #[must_use]
    pub const fn then(self, next: Symmetry) -> Symmetry {
        Symmetry(COMPOSE[self.0 as usize][next.0 as usize])
    }

    /// A short name: `id`, `mirror-files`, `mirror-ranks`, `rot180`,
    /// `transpose`, `rot90`, `rot270`, `anti-transpose`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self.0 {
            0 => "id",
            1 => "mirror-files",
            2 => "mirror-ranks",
            3 => "rot180",
            4 => "transpose",
            5 => "rot90",
            6 => "rot270",
            _ => "anti-transpose",
        }
    }
}

impl fmt::Debug for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Symmetry({})", self.name())
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::{Circuit, PATH_LEN};

    /// The undirected edges of a circuit's closed path, marked arc or straight.
    fn edges(c: Circuit, sym: Symmetry) -> Vec<(Square, Square, bool)> {
        let mut e: Vec<_> = (0..PATH_LEN)
            .map(|i| {
                let a = sym.square(c.at(i));
                let b = sym.square(c.at(i + 1));
                (a.min(b), a.max(b), Circuit::arc_after(i))
            })
            .collect();
        e.sort();
        e
    }

    /// The board with its circuits has the full dihedral symmetry: every
    /// symmetry maps each circuit's path (straight edges and arcs) onto itself.
    #[test]
    fn circuits_are_invariant_under_all_symmetries() {
        for c in Circuit::ALL {
            let original = edges(c, Symmetry::IDENTITY);
            for sym in Symmetry::ALL {
                assert_eq!(edges(c, sym), original, "{c} circuit under {sym}");
            }
        }
    }

    #[test]
    fn symmetries_are_distinct_bijections() {
        let mut images: Vec<Vec<Square>> = Vec::new();
        for sym in Symmetry::ALL {
            let image: Vec<Square> = Square::ALL.iter().map(|&s| sym.square(s)).collect();
            let mut sorted = image.clone();
            sorted.sort();
            assert_eq!(sorted, Square::ALL.to_vec(), "{sym} is a bijection");
            assert!(!images.contains(&image), "{sym} is distinct");
            images.push(image);
        }
    }

    #[test]
    fn named_rotations() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let by_name = |n: &str| Symmetry::ALL.into_iter().find(|s| s.name() == n).unwrap();
        // rot90 turns the board a quarter counter-clockwise: a1 → f1.
        assert_eq!(by_name("rot90").square(sq("a1")), sq("f1"));
        assert_eq!(by_name("rot180").square(sq("a1")), sq("f6"));
        assert_eq!(by_name("rot270").square(sq("a1")), sq("a6"));
        assert_eq!(by_name("mirror-files").square(sq("b3")), sq("e3"));
        assert_eq!(by_name("transpose").square(sq("b3")), sq("c2"));
    }

    #[test]
    fn group_laws() {
        for a in Symmetry::ALL {
            assert_eq!(a.then(a.inverse()), Symmetry::IDENTITY);
            assert_eq!(a.inverse().then(a), Symmetry::IDENTITY);
            for b in Symmetry::ALL {
                let ab = a.then(b);
                for s in Square::ALL {
                    assert_eq!(ab.square(s), b.square(a.square(s)));
                }
            }
        }
    }

    #[test]
    fn bitboard_map_matches_square_map() {
        let bb = Bitboard::from_bits_truncate(0xa_5c3e_19d7);
        for sym in Symmetry::ALL {
            let expected: Bitboard = bb.iter().map(|s| sym.square(s)).collect();
            assert_eq!(sym.bitboard(bb), expected);
        }
    }
}
