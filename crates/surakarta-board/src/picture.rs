//! The SVG picture of a position with a move highlighted: what `show --svg`
//! writes and the server's `/api/svg` answers (one function, so the two
//! never differ).

use surakarta::capture_path::{capture_paths, CapturePath};
use surakarta::{svg, Move, Position};

/// The way `highlight` travels when played in `before`, if it is a capture
/// (the shortest of its ways).
pub fn capture_path(highlight: Option<Move>, before: Option<&Position>) -> Option<CapturePath> {
    match (highlight, before) {
        (Some(m), Some(before)) if m.is_capture() => {
            capture_paths(before, m.from(), m.to()).into_iter().next()
        }
        _ => None,
    }
}

/// The picture of `position` with `highlight` (the move and how to name it:
/// "highlighted move", "last move (ply 3 of 9)") marked and `path` drawn;
/// its title names the position and the move.
pub fn svg_picture(
    position: &Position,
    highlight: Option<(Move, &str)>,
    path: Option<&CapturePath>,
) -> String {
    let title = match highlight {
        Some((m, label)) => format!("{position}, {label} {m}"),
        None => position.to_string(),
    };
    svg::board(position, highlight.map(|(m, _)| m), path, &title)
}

/// The picture `/api/svg` answers: `position` with `highlight` (a legal
/// move of it, if any) marked as the "highlighted move" and, for a capture,
/// the way it travels drawn.
///
/// ```
/// use surakarta::Position;
///
/// let start = Position::new();
/// let m = start.legal_moves()[0];
/// let picture = surakarta_board::highlighted_picture(&start, Some(m));
/// assert!(picture.starts_with("<svg") && picture.contains(&format!("highlighted move {m}")));
/// ```
pub fn highlighted_picture(position: &Position, highlight: Option<Move>) -> String {
    let path = capture_path(highlight, Some(position));
    svg_picture(
        position,
        highlight.map(|m| (m, "highlighted move")),
        path.as_ref(),
    )
}
