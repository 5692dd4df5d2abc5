//! The board as terminal text, for `show` and `play`.
//!
//! ```text
//! 6  w  w  w  w  w  w
//! 5  w  w  w  w  w  w
//! 4  .  .  .  .  .  .
//! 3  . [b] .  .  .  .
//! 2  b (.) b  b  b  b
//! 1  b  b  b  b  b  b
//!    a  b  c  d  e  f
//! white to move, no-capture plies 1, move 1
//! ```
//!
//! A marked move has its origin in `( )` and its target in `[ ]`; with colour
//! the pieces and the marks are coloured too (ANSI escapes), without it the
//! text is plain ASCII.

use surakarta::{Color, Move, Position, Square};

const RESET: &str = "\x1b[0m";
const BLACK_PIECE: &str = "\x1b[1;36m";
const WHITE_PIECE: &str = "\x1b[1;33m";
const MARK: &str = "\x1b[1;32m";

/// Whether to colour the terminal output: only when stdout is a terminal,
/// `--no-color` was not given and the `NO_COLOR` variable is not set.
pub(crate) fn use_color(no_color: bool) -> bool {
    use std::io::IsTerminal;
    !no_color && std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal()
}

/// The board of `position` (rank 6 at the top, files a–f below), with the
/// origin and target of `highlight` marked, and a status line: side to move,
/// no-capture count and move number. Ends with a newline.
pub(crate) fn board(position: &Position, highlight: Option<Move>, color: bool) -> String {
    let paint = |text: String, code: &str| {
        if color {
            format!("{code}{text}{RESET}")
        } else {
            text
        }
    };
    let mut out = String::new();
    for rank in (0..6).rev() {
        let mut line = format!("{} ", rank + 1);
        for file in 0..6 {
            let sq = Square::from_xy(file, rank).unwrap_or(Square::ALL[0]);
            let piece = match position.piece_at(sq) {
                Some(Color::Black) => paint("b".into(), BLACK_PIECE),
                Some(Color::White) => paint("w".into(), WHITE_PIECE),
                None => ".".into(),
            };
            let (open, close) = match highlight {
                Some(m) if m.from() == sq => ("(", ")"),
                Some(m) if m.to() == sq => ("[", "]"),
                _ => (" ", " "),
            };
            if open == " " {
                line.push_str(&format!(" {piece} "));
            } else {
                line.push_str(&paint(open.into(), MARK));
                line.push_str(&piece);
                line.push_str(&paint(close.into(), MARK));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str("   a  b  c  d  e  f\n");
    out.push_str(&format!(
        "{} to move, no-capture plies {}, move {}\n",
        position.turn(),
        position.halfmoves(),
        position.fullmoves()
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_after_a_step() {
        let start = Position::new();
        let m = start.parse_move("b2-b3").unwrap();
        let text = board(&start.after(m), Some(m), false);
        assert_eq!(
            text,
            "6  w  w  w  w  w  w\n\
             5  w  w  w  w  w  w\n\
             4  .  .  .  .  .  .\n\
             3  . [b] .  .  .  .\n\
             2  b (.) b  b  b  b\n\
             1  b  b  b  b  b  b\n\
             \x20  a  b  c  d  e  f\n\
             white to move, no-capture plies 1, move 1\n"
        );
    }

    #[test]
    fn colour_only_when_asked() {
        let p: Position = "ww3w/wb4/5w/6/6/b1w3 b".parse().unwrap();
        assert!(!board(&p, None, false).contains('\x1b'));
        let coloured = board(&p, None, true);
        assert!(coloured.contains(BLACK_PIECE) && coloured.contains(WHITE_PIECE));
        // Without the escapes it is the plain drawing.
        let plain = coloured
            .replace(BLACK_PIECE, "")
            .replace(WHITE_PIECE, "")
            .replace(RESET, "");
        assert_eq!(plain, board(&p, None, false));
    }
}
