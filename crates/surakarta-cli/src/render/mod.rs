//! Drawing the board for people, shared by `show` and `play`: as terminal
//! text ([`draw`]); and the evaluation graph of `analyse` as SVG
//! ([`graph`]). The SVG picture and the way a capture travels live in
//! the rules crate (`surakarta::svg`, `surakarta::capture_path`), where the
//! Python package reuses them. Drawing only: the rules crate decides what is
//! legal. Imports nothing of the subcommands. Text from a file (a
//! record's tags) reaches the terminal through [`printable`].

pub(crate) mod draw;
pub(crate) mod graph;

use std::borrow::Cow;

/// `text` safe to print to a terminal: its control characters (ESC, BEL,
/// CR, NUL, DEL, C1 controls, line breaks, tabs) escaped as Rust escapes
/// them (`\u{1b}`, `\r`, `\0`, `\n`), the rest as it is
/// (`a\u{1b}[2Jb` prints as `a\\u{1b}[2Jb`).
pub(crate) fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(printable("Ann"), "Ann");
        assert_eq!(printable("Café ♟"), "Café ♟");
        assert_eq!(
            printable("a\u{1b}[2J\u{7}\r\0\u{7f}\u{9b}\tb"),
            "a\\u{1b}[2J\\u{7}\\r\\0\\u{7f}\\u{9b}\\tb"
        );
    }
}
