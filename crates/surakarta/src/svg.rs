//! The board as a self-contained SVG 1.1 picture (what `surakarta show
//! --svg` writes and the Python package's `_repr_svg_` shows): string
//! building only, no I/O.
//!
//! The 6×6 grid; the small circuit (files b, e, ranks 2, 5, corner loops of
//! radius 1) and the large circuit (files c, d, ranks 3, 4, radius 2) each in
//! its own colour, loops and lines alike; the pieces; coordinates; and a
//! highlighted move: its origin (dashed ring) and target (ring), with an
//! arrow for a step and, for a capture, the way it travels as a thick
//! translucent line through the points and round the arcs, ending in an
//! arrow head. No external fonts or resources.
//!
//! On top of everything, each of the 36 points carries a transparent hit
//! target, `<circle class="point" data-square="c3" …/>`, so that a page
//! showing the picture can find the points (and take clicks on them)
//! without knowing the geometry; it draws nothing.

use crate::capture_path::CapturePath;
use crate::{Circuit, Color, Move, Position, Square};
use std::fmt::Write;

/// One grid unit (the distance between neighbouring points), in SVG units.
const UNIT: f64 = 50.0;
/// Space between the board's edge and the picture's edge: the large loops
/// (2 units), then the coordinates. (All lengths are exact in binary, so the
/// numbers print short.)
const MARGIN: f64 = 145.0;
/// Height of the caption under the board.
const CAPTION: f64 = 35.0;
/// Radius of a piece.
const PIECE: f64 = 16.0;
/// Radius of the rings marking a move's origin and target.
const RING: f64 = 21.5;
/// Radius of a point's transparent hit target (neighbours do not overlap).
const HIT: f64 = 24.0;
const SIZE: f64 = 2.0 * MARGIN + 5.0 * UNIT;

const BACKGROUND: &str = "#f4e4c1";
const GRID: &str = "#6b5a3e";
const SMALL: &str = "#2b6cc4";
const LARGE: &str = "#c8432b";
const HIGHLIGHT: &str = "#14a03c";

/// The SVG coordinates of a point.
fn xy(sq: Square) -> (f64, f64) {
    let (file, rank) = (sq.file().index() as f64, sq.rank().index() as f64);
    (MARGIN + file * UNIT, MARGIN + (5.0 - rank) * UNIT)
}

/// The colour and loop radius (in units) of a circuit.
fn style(circuit: Circuit) -> (&'static str, f64) {
    match circuit {
        Circuit::Small => (SMALL, 1.0),
        Circuit::Large => (LARGE, 2.0),
    }
}

/// The SVG arc command that goes from `from` to `to` the long way round the
/// board corner nearest to both (a three-quarter circle outside the board).
fn loop_command(from: Square, to: Square, radius: f64) -> String {
    let corner = |sq: Square| {
        let x = if sq.file().index() < 3 { 0 } else { 5 };
        let y = if sq.rank().index() < 3 { 0 } else { 5 };
        Square::from_xy(x, y).unwrap_or(Square::ALL[0])
    };
    let (cx, cy) = xy(corner(from));
    let ((ax, ay), (bx, by)) = (xy(from), xy(to));
    // Positive cross product: the quarter from `from` to `to` turns
    // clockwise on screen (y down), so the three quarters go the other way.
    let cross = (ax - cx) * (by - cy) - (ay - cy) * (bx - cx);
    let sweep = if cross > 0.0 { 0 } else { 1 };
    let r = radius * UNIT;
    format!("A {r} {r} 0 1 {sweep} {bx} {by}")
}

/// The picture of `position` with `highlight` marked; `path`, if given, is
/// the way the highlighted capture travels. `title` becomes the picture's
/// `<title>` (escaped here).
///
/// # Examples
///
/// ```
/// use surakarta::{capture_path::capture_paths, svg, Position, Square};
///
/// let pos: Position = "6/1w4/6/6/1b4/6 b".parse()?;
/// let capture = pos.parse_move("b2xb5")?;
/// let paths = capture_paths(&pos, capture.from(), capture.to());
/// let picture = svg::board(&pos, Some(capture), paths.first(), "b2 takes b5");
/// assert!(picture.starts_with("<svg"));
/// assert!(picture.contains("<title>b2 takes b5</title>"));
/// assert!(picture.contains(r#"data-square="c3""#)); // a hit target per point
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn board(
    position: &Position,
    highlight: Option<Move>,
    path: Option<&CapturePath>,
    title: &str,
) -> String {
    let mut s = String::new();
    let height = SIZE + CAPTION;
    // Writing to a String cannot fail.
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 {SIZE} {height}" width="{SIZE}" height="{height}">"#
    );
    let _ = writeln!(s, "<title>{}</title>", escape(title));
    let _ = writeln!(
        s,
        r#"<defs><marker id="arrow" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="2.6" markerHeight="2.6" orient="auto" markerUnits="strokeWidth"><path d="M 0 0 L 10 5 L 0 10 z" fill="{HIGHLIGHT}"/></marker></defs>"#
    );
    let _ = writeln!(
        s,
        r#"<rect x="0" y="0" width="{SIZE}" height="{height}" fill="{BACKGROUND}"/>"#
    );

    // Grid lines: the edges in the grid colour, the rest in their circuit's.
    let (low, high) = (MARGIN, MARGIN + 5.0 * UNIT);
    for i in 0..6 {
        let (color, class) = match i {
            1 | 4 => (SMALL, "line small"),
            2 | 3 => (LARGE, "line large"),
            _ => (GRID, "line edge"),
        };
        let at = MARGIN + i as f64 * UNIT;
        let width = if i == 0 || i == 5 { 2 } else { 3 };
        let _ = writeln!(
            s,
            r#"<path class="{class}" d="M {at} {low} V {high} M {low} {at} H {high}" stroke="{color}" stroke-width="{width}" fill="none"/>"#
        );
    }
    // The corner loops: an arc follows path positions 5, 11, 17 and 23.
    for circuit in Circuit::ALL {
        let (color, radius) = style(circuit);
        for i in (5..24).step_by(6) {
            let (from, to) = (circuit.at(i), circuit.at(i + 1));
            let (x, y) = xy(from);
            let _ = writeln!(
                s,
                r#"<path class="arc {circuit}" d="M {x} {y} {}" stroke="{color}" stroke-width="3" fill="none"/>"#,
                loop_command(from, to, radius)
            );
        }
    }

    // Coordinates, outside the loops.
    let font = r##"font-family="sans-serif" font-size="20" fill="#3b3021" text-anchor="middle""##;
    for i in 0..6u8 {
        let at = MARGIN + f64::from(i) * UNIT;
        let file = char::from(b'a' + i);
        let rank = char::from(b'6' - i);
        let (below, left) = (high + 130.0, low - 125.0);
        let _ = writeln!(
            s,
            r#"<text class="coord" x="{at}" y="{below}" {font}>{file}</text><text class="coord" x="{left}" y="{}" {font}>{rank}</text>"#,
            at + 7.0
        );
    }

    // Pieces.
    for sq in Square::ALL {
        let Some(color) = position.piece_at(sq) else {
            continue;
        };
        let (x, y) = xy(sq);
        let (fill, stroke) = match color {
            Color::Black => ("#1e1e1e", "#000000"),
            Color::White => ("#fbfbf6", "#2a2a2a"),
        };
        let _ = writeln!(
            s,
            r#"<circle class="piece {color}" cx="{x}" cy="{y}" r="{}" fill="{fill}" stroke="{stroke}" stroke-width="2"/>"#,
            PIECE
        );
    }

    // The highlighted move.
    if let Some(m) = highlight {
        let (fx, fy) = xy(m.from());
        let (tx, ty) = xy(m.to());
        let _ = writeln!(
            s,
            r#"<circle class="mark from" cx="{fx}" cy="{fy}" r="{RING}" fill="none" stroke="{HIGHLIGHT}" stroke-width="3" stroke-dasharray="6 4"/>"#
        );
        let _ = writeln!(
            s,
            r#"<circle class="mark to" cx="{tx}" cy="{ty}" r="{RING}" fill="none" stroke="{HIGHLIGHT}" stroke-width="3"/>"#
        );
        let d = match path {
            Some(path) => {
                let (_, radius) = style(path.circuit);
                let mut d = format!("M {fx} {fy}");
                for hop in path.hops() {
                    if hop.arc {
                        d.push(' ');
                        d.push_str(&loop_command(hop.from, hop.to, radius));
                    } else {
                        let (x, y) = xy(hop.to);
                        let _ = write!(d, " L {x} {y}");
                    }
                }
                d
            }
            None => format!("M {fx} {fy} L {tx} {ty}"),
        };
        let class = if path.is_some() {
            "capture-path"
        } else {
            "move"
        };
        let _ = writeln!(
            s,
            r#"<path class="{class}" d="{d}" fill="none" stroke="{HIGHLIGHT}" stroke-opacity="0.55" stroke-width="9" stroke-linecap="round" stroke-linejoin="round" marker-end="url(#arrow)"/>"#
        );
    }

    // Hit targets, last so that they are on top: transparent, one a point.
    for sq in Square::ALL {
        let (x, y) = xy(sq);
        let _ = writeln!(
            s,
            r##"<circle class="point" data-square="{sq}" cx="{x}" cy="{y}" r="{HIT}" fill="#000000" fill-opacity="0"/>"##
        );
    }

    // Caption: side to move and the move shown.
    let mut caption = format!("{} to move", position.turn());
    if let Some(m) = highlight {
        let _ = write!(caption, " \u{b7} {m}");
    }
    let _ = writeln!(
        s,
        r#"<text class="caption" x="{}" y="{}" {font}>{}</text>"#,
        SIZE / 2.0,
        SIZE + 15.0,
        escape(&caption)
    );
    s.push_str("</svg>\n");
    s
}

/// `text` with the XML special characters escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loops_go_round_the_outside() {
        // Around a6 (top left), from c6 to a4: the start is right of the
        // corner, the end below it; the long way passes above and left.
        let (c6, a4): (Square, Square) = ("c6".parse().unwrap(), "a4".parse().unwrap());
        assert!(loop_command(c6, a4, 2.0).starts_with("A 100 100 0 1 0 "));
        // The same loop travelled the other way sweeps the other way.
        assert!(loop_command(a4, c6, 2.0).starts_with("A 100 100 0 1 1 "));
    }

    #[test]
    fn counts_and_escaping() {
        let svg = board(&Position::new(), None, None, "a<b & \"c\"");
        assert_eq!(svg.matches(r#"class="piece black""#).count(), 12);
        assert_eq!(svg.matches(r#"class="piece white""#).count(), 12);
        assert_eq!(svg.matches(r#"class="arc "#).count(), 8);
        assert!(svg.contains("<title>a&lt;b &amp; &quot;c&quot;</title>"));
        assert!(!svg.contains("class=\"mark"));
        assert_eq!(
            svg.matches(r#"<circle class="point" data-square=""#)
                .count(),
            36
        );
        assert!(svg.contains(r#"<circle class="point" data-square="c3" cx="245" cy="295" r="24" "#));
        // On top: after the pieces and any highlight.
        let first_point = svg.find(r#"class="point""#).unwrap();
        assert!(svg.rfind(r#"class="piece"#).unwrap() < first_point);
    }
}
