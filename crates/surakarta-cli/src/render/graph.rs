//! The evaluation graph of an analysed game as a self-contained SVG: White's
//! win chance (0 at the bottom, 1 at the top) by ply, the marks as dots on
//! the curve (inaccuracy yellow, mistake orange, blunder red).

use std::fmt::Write;
use surakarta::{Color, Mark};

/// A point of the graph: White's win chance after a ply (ply 0: the start)
/// and the mark of the move that led there.
pub(crate) struct Point {
    pub(crate) white_chance: f64,
    pub(crate) mark: Option<Mark>,
}

/// The colour of a mark's dot, or `None` for marks not drawn.
fn dot_colour(mark: Option<Mark>) -> Option<&'static str> {
    match mark? {
        Mark::Dubious => Some("#e6c700"),
        Mark::Mistake => Some("#f08c00"),
        Mark::Blunder => Some("#d62020"),
        _ => None,
    }
}

/// The SVG of `points` (at least the start).
pub(crate) fn evaluation_graph(points: &[Point]) -> String {
    const W: f64 = 600.0;
    const H: f64 = 200.0;
    const PAD: f64 = 20.0;
    let n = points.len().max(2) - 1;
    let x = |i: usize| PAD + (W - 2.0 * PAD) * i as f64 / n as f64;
    let y = |c: f64| PAD + (H - 2.0 * PAD) * (1.0 - c.clamp(0.0, 1.0));
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\">\n\
         <title>White's win chance by ply</title>\n\
         <rect width=\"{W}\" height=\"{H}\" fill=\"#ffffff\"/>\n\
         <rect x=\"{PAD}\" y=\"{PAD}\" width=\"{}\" height=\"{}\" fill=\"#f4f4f4\" stroke=\"#999999\"/>\n\
         <line x1=\"{PAD}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#bbbbbb\" stroke-dasharray=\"4 4\"/>\n\
         <text x=\"2\" y=\"{}\" font-size=\"10\" font-family=\"sans-serif\">1</text>\n\
         <text x=\"2\" y=\"{}\" font-size=\"10\" font-family=\"sans-serif\">0</text>\n",
        W - 2.0 * PAD,
        H - 2.0 * PAD,
        y(0.5),
        W - PAD,
        y(0.5),
        y(1.0) + 4.0,
        y(0.0) + 4.0,
    );
    let path: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.white_chance)))
        .collect();
    let _ = writeln!(
        svg,
        "<polyline class=\"curve\" fill=\"none\" stroke=\"#333333\" stroke-width=\"1.5\" points=\"{}\"/>",
        path.join(" ")
    );
    for (i, p) in points.iter().enumerate() {
        if let Some(colour) = dot_colour(p.mark) {
            let _ = writeln!(
                svg,
                "<circle class=\"mark\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{colour}\"><title>ply {i}: {}</title></circle>",
                x(i),
                y(p.white_chance),
                p.mark.map_or("", Mark::as_str)
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
}

/// White's win chance from a win chance `chance` of `side`.
pub(crate) fn white_chance(side: Color, chance: f64) -> f64 {
    match side {
        Color::White => chance,
        Color::Black => 1.0 - chance,
    }
}
