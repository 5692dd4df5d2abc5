//! [`Excerpt`]: input quoted in an error message, cut so that a message
//! stays one readable line however long the input was.

use std::fmt;

/// The start of a piece of input and its length, for error messages.
///
/// Errors that name the text they rejected hold an `Excerpt` rather than the
/// text: at most [`Excerpt::MAX_CHARS`] characters of it and its length, so
/// that an error never holds or prints a huge input. It displays as the
/// quoted text (`"b2-b9"`, escaped like `{:?}`, at most
/// [`Excerpt::MAX_CHARS`] characters between the quotes, escapes counted)
/// or, when cut, as the quoted start with `…` and the whole length:
/// `"bbbb…" (1048576 bytes)`. The
/// alternate form (`{:#}`) leaves out the quotes and escapes, for paths and
/// names: `tables/4v3.sktb`, `/tmp/bbbb… (1048581 bytes)`. The command line
/// uses it for every piece of input it echoes.
///
/// # Examples
///
/// ```
/// use surakarta::Excerpt;
///
/// assert_eq!(Excerpt::new("b2-b9").to_string(), "\"b2-b9\"");
/// let long = "b".repeat(1 << 20);
/// let shown = Excerpt::new(&long).to_string();
/// assert_eq!(shown, format!("\"{}…\" (1048576 bytes)", "b".repeat(80)));
/// let plain = format!("{:#}", Excerpt::new(&long));
/// assert_eq!(plain, format!("{}… (1048576 bytes)", "b".repeat(80)));
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Excerpt {
    head: String,
    len: usize,
}

impl Excerpt {
    /// Most characters of the input kept and shown.
    pub const MAX_CHARS: usize = 80;

    /// The first [`Excerpt::MAX_CHARS`] characters of `text` and its length.
    #[must_use]
    pub fn new(text: &str) -> Excerpt {
        let head = match text.char_indices().nth(Excerpt::MAX_CHARS) {
            Some((end, _)) => &text[..end],
            None => text,
        };
        Excerpt {
            head: head.to_string(),
            len: text.len(),
        }
    }

    /// The text kept: all of it, or its first [`Excerpt::MAX_CHARS`]
    /// characters.
    #[must_use]
    pub fn head(&self) -> &str {
        &self.head
    }

    /// The length of the whole input, in bytes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the input was empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the input was longer than the text kept.
    #[must_use]
    pub fn is_cut(&self) -> bool {
        self.head.len() < self.len
    }
}

impl From<&str> for Excerpt {
    fn from(text: &str) -> Excerpt {
        Excerpt::new(text)
    }
}

impl From<&String> for Excerpt {
    fn from(text: &String) -> Excerpt {
        Excerpt::new(text)
    }
}

impl fmt::Display for Excerpt {
    /// `"text"`, or `"start…" (N bytes)` when cut; without the quotes and
    /// escapes in the alternate form (`{:#}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            f.write_str(&self.head)?;
            if self.is_cut() {
                write!(f, "… ({} bytes)", self.len)?;
            }
            return Ok(());
        }
        // Escapes count: at most MAX_CHARS characters between the quotes,
        // so a text of control characters (`\u{11}` each) stays short too.
        let mut quoted = String::from("\"");
        let mut shown = 0;
        let mut cut = self.is_cut();
        for c in self.head.chars() {
            let escaped = c.escape_debug();
            let width = escaped.len();
            if shown + width > Excerpt::MAX_CHARS {
                cut = true;
                break;
            }
            quoted.extend(escaped);
            shown += width;
        }
        if cut {
            write!(f, "{quoted}…\" ({} bytes)", self.len)
        } else {
            write!(f, "{quoted}\"")
        }
    }
}

impl fmt::Debug for Excerpt {
    /// As displayed (quoted).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole() {
        for text in ["", "b2-b9", "tab\there \"q\"", &"é".repeat(80)] {
            let e = Excerpt::new(text);
            assert!(!e.is_cut());
            assert_eq!(e.head(), text);
            assert_eq!(e.len(), text.len());
            assert_eq!(e.to_string(), format!("{text:?}"));
        }
    }

    #[test]
    fn long_text_is_cut_at_a_character_and_says_its_length() {
        let text = format!("{}xyz", "é".repeat(80));
        let e = Excerpt::new(&text);
        assert!(e.is_cut());
        assert_eq!(e.head(), "é".repeat(80));
        assert_eq!(e.len(), 163);
        assert_eq!(
            e.to_string(),
            format!("\"{}…\" (163 bytes)", "é".repeat(80))
        );
        let e = Excerpt::new(&"\n".repeat(1000));
        assert_eq!(
            e.to_string(),
            format!("\"{}…\" (1000 bytes)", "\\n".repeat(40))
        );
        // Escapes count towards the limit, even when the input itself is
        // within it.
        let e = Excerpt::new(&"\u{11}".repeat(20));
        assert!(!e.is_cut());
        assert_eq!(
            e.to_string(),
            format!("\"{}…\" (20 bytes)", "\\u{11}".repeat(13))
        );
        let e = Excerpt::new(&"\n".repeat(1000));
        assert_eq!(format!("{e:?}"), e.to_string());
        assert_eq!(
            format!("{e:#}"),
            format!("{}… (1000 bytes)", "\n".repeat(80))
        );
        assert_eq!(format!("{:#}", Excerpt::new("tables/4v3")), "tables/4v3");
    }
}
