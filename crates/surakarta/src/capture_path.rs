//! The way a capture travels: the points and arcs from the capturing piece
//! to its target, found by walking the circuits (`Circuit::path`,
//! `Circuit::arc_after`) the way docs/rules.md describes a capture. The rules
//! crate decides which captures are legal; this only draws them.

use crate::{Circuit, Position, Square, PATH_LEN};

/// One way a capture can travel: along `circuit`, from path position
/// `start`, `forward` (increasing positions) or backwards, for `steps` steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CapturePath {
    /// The circuit travelled.
    pub circuit: Circuit,
    /// The path position (`0..24`) the piece sets out from.
    pub start: usize,
    /// Whether it travels towards increasing path positions.
    pub forward: bool,
    /// Steps from the start to the target (a step may be an arc).
    pub steps: usize,
}

/// One step of a capture path: from `from` to `to`, along a straight line or
/// round a corner arc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hop {
    /// Where the step starts.
    pub from: Square,
    /// Where it ends.
    pub to: Square,
    /// Whether it goes round one of the circuit's corner arcs.
    pub arc: bool,
}

impl CapturePath {
    /// The path position after `k` steps.
    fn index(&self, k: usize) -> usize {
        if self.forward {
            (self.start + k) % PATH_LEN
        } else {
            (self.start + PATH_LEN * 2 - k % PATH_LEN) % PATH_LEN
        }
    }

    /// Whether the step from `k` to `k + 1` steps goes round an arc.
    fn arc_at(&self, k: usize) -> bool {
        let i = self.index(k);
        if self.forward {
            Circuit::arc_after(i)
        } else {
            Circuit::arc_after((i + PATH_LEN - 1) % PATH_LEN)
        }
    }

    /// The points travelled, the origin first and the target last.
    #[must_use]
    pub fn points(&self) -> Vec<Square> {
        (0..=self.steps)
            .map(|k| self.circuit.at(self.index(k)))
            .collect()
    }

    /// The steps travelled, in order.
    #[must_use]
    pub fn hops(&self) -> Vec<Hop> {
        (0..self.steps)
            .map(|k| Hop {
                from: self.circuit.at(self.index(k)),
                to: self.circuit.at(self.index(k + 1)),
                arc: self.arc_at(k),
            })
            .collect()
    }

    /// The arcs passed.
    #[must_use]
    pub fn arcs(&self) -> usize {
        (0..self.steps).filter(|&k| self.arc_at(k)).count()
    }

    /// The path as text, `~` marking an arc: `b5 c5 d5 e5 f5 ~ e6 …`.
    #[must_use]
    pub fn text(&self) -> String {
        let mut out = self.circuit.at(self.start).to_string();
        for hop in self.hops() {
            out.push_str(if hop.arc { " ~ " } else { " " });
            out.push_str(&hop.to.to_string());
        }
        out
    }
}

/// Every way the piece on `from` can capture the enemy piece on `to` in
/// `position`, shortest first: along each circuit through `from`, from each
/// of its places on the path, in both directions, over empty points (the
/// origin counts as empty), past at least one arc, stopping at the first
/// occupied point, which must be `to`. Empty if there is no such capture,
/// which includes `from` being empty and `to` not holding an enemy piece.
///
/// # Examples
///
/// ```
/// use surakarta::capture_path::capture_paths;
/// use surakarta::{Circuit, Position, Square};
///
/// let pos: Position = "6/1w4/6/6/1b4/6 b".parse()?;
/// let paths = capture_paths(&pos, Square::B2, Square::B5);
/// assert_eq!(paths[0].circuit, Circuit::Small);
/// assert_eq!(paths[0].text(), "b2 a2 ~ b1 b2 b3 b4 b5"); // round the a1 arc
/// assert_eq!(paths[0].arcs(), 1);
/// assert!(capture_paths(&pos, Square::B2, Square::C3).is_empty()); // nothing there
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn capture_paths(position: &Position, from: Square, to: Square) -> Vec<CapturePath> {
    let (Some(mover), Some(victim)) = (position.piece_at(from), position.piece_at(to)) else {
        return Vec::new();
    };
    if mover == victim {
        return Vec::new();
    }
    let mut found = Vec::new();
    for circuit in Circuit::ALL {
        for start in circuit.positions(from) {
            for forward in [true, false] {
                let mut path = CapturePath {
                    circuit,
                    start,
                    forward,
                    steps: 0,
                };
                let mut arcs = 0;
                // Any other piece on the circuit is met within one lap.
                for k in 1..=PATH_LEN {
                    if path.arc_at(k - 1) {
                        arcs += 1;
                    }
                    let point = circuit.at(path.index(k));
                    if point == from || position.piece_at(point).is_none() {
                        continue;
                    }
                    if point == to && arcs > 0 {
                        path.steps = k;
                        found.push(path);
                    }
                    break;
                }
            }
        }
    }
    found.sort_by_key(|p| p.steps);
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Color, Move};

    fn pos(text: &str) -> Position {
        text.parse().unwrap()
    }

    fn sq(text: &str) -> Square {
        text.parse().unwrap()
    }

    #[test]
    fn worked_example_paths() {
        // docs/rules.md, "Worked example".
        let p = pos("ww3w/wb4/5w/6/6/b1w3 b");
        let paths = capture_paths(&p, sq("b5"), sq("b6"));
        assert_eq!(paths.len(), 1);
        assert_eq!(
            paths[0].text(),
            "b5 c5 d5 e5 f5 ~ e6 e5 e4 e3 e2 e1 ~ f2 e2 d2 c2 b2 a2 ~ b1 b2 b3 b4 b5 b6"
        );
        assert_eq!(paths[0].arcs(), 3);
        let back = capture_paths(&p, sq("b5"), sq("a5"));
        assert_eq!(
            back[0].text(),
            "b5 b4 b3 b2 b1 ~ a2 b2 c2 d2 e2 f2 ~ e1 e2 e3 e4 e5 e6 ~ f5 e5 d5 c5 b5 a5"
        );
        // Adjacent on the circuit but no arc passed.
        assert!(capture_paths(&p, sq("b5"), sq("f4")).is_empty());
    }

    #[test]
    fn several_paths_one_move() {
        // docs/rules.md, "Several paths, one move": three ways, one arc shortest.
        let p = pos("6/6/1wb3/6/6/6 b");
        let paths = capture_paths(&p, sq("c4"), sq("b4"));
        assert_eq!(paths.len(), 3);
        assert_eq!(paths[0].text(), "c4 c5 c6 ~ a4 b4");
        assert_eq!(
            paths.iter().map(CapturePath::arcs).collect::<Vec<_>>(),
            [1, 3, 4]
        );
    }

    #[test]
    fn own_start_counts_as_empty() {
        let p = pos("6/6/2bw2/2w3/6/6 b");
        assert_eq!(
            capture_paths(&p, sq("c4"), sq("d4"))[0].text(),
            "c4 c5 c6 ~ a4 b4 c4 d4"
        );
        assert_eq!(
            capture_paths(&p, sq("c4"), sq("c3"))[0].text(),
            "c4 b4 a4 ~ c6 c5 c4 c3"
        );
    }

    /// A small deterministic generator for the random games below.
    struct XorShift(u64);

    impl XorShift {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// Exactly the captures the rules crate generates have a path, in many
    /// positions of random games (captures preferred, so that the boards thin
    /// out and long paths occur): every origin of the side to move, every
    /// target.
    #[test]
    fn paths_exist_exactly_for_legal_captures() {
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        let (mut positions, mut captures) = (0, 0);
        for _game in 0..60 {
            let mut p = Position::new();
            for _ply in 0..120 {
                let legal = p.legal_moves();
                if legal.is_empty() || p.them().is_empty() {
                    break;
                }
                positions += 1;
                for from in p.us() {
                    for to in Square::ALL {
                        let is_capture = legal.contains(&Move::capture(from, to));
                        let paths = capture_paths(&p, from, to);
                        assert_eq!(
                            !paths.is_empty(),
                            is_capture,
                            "{p}: {from}x{to} {:?}",
                            paths.first().map(CapturePath::text)
                        );
                        for path in &paths {
                            assert!(path.arcs() >= 1);
                            let points = path.points();
                            assert_eq!((points[0], points[path.steps]), (from, to));
                            assert!(points[1..path.steps]
                                .iter()
                                .all(|&s| s == from || p.piece_at(s).is_none()));
                        }
                        captures += usize::from(is_capture);
                    }
                }
                let captures_here: Vec<Move> =
                    legal.iter().copied().filter(|m| m.is_capture()).collect();
                let m = if !captures_here.is_empty() && rng.below(3) > 0 {
                    captures_here[rng.below(captures_here.len())]
                } else {
                    legal[rng.below(legal.len())]
                };
                p = p.after(m);
            }
        }
        assert!(positions > 3000, "{positions} positions");
        assert!(captures > 2000, "{captures} captures");
        // No path to a friendly piece, none from an empty point.
        let p = pos("w5/6/1bb3/6/6/6 b");
        assert_eq!(p.piece_at(sq("b4")), Some(Color::Black));
        assert!(capture_paths(&p, sq("c4"), sq("b4")).is_empty());
        assert!(capture_paths(&p, sq("a1"), sq("b4")).is_empty());
    }
}
