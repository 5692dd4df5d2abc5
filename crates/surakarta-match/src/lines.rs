//! Lines from a pipe with a length limit: what an engine program writes to
//! its standard output, and what `surakarta engine`, `play` and `tb probe`
//! read from their standard input.
//!
//! A line longer than the limit is not held in memory: its bytes are
//! counted and dropped up to its newline, and the reader reports
//! [`Line::TooLong`] with the length, so the caller can answer with one
//! error and go on with the next line. Without a limit, a producer that
//! never writes a newline (`engine < /dev/zero`) makes the reader grow its
//! buffer until the allocation fails.
//!
//! ```
//! use surakarta_match::lines::{Line, LineReader};
//!
//! let input = format!("uci\n{}\nisready\n", "x".repeat(100));
//! let mut reader = LineReader::with_limit(input.as_bytes(), 64);
//! assert_eq!(reader.next_line().unwrap(), Some(Line::Text("uci".into())));
//! assert_eq!(reader.next_line().unwrap(), Some(Line::TooLong { bytes: 100 }));
//! assert_eq!(reader.next_line().unwrap(), Some(Line::Text("isready".into())));
//! assert_eq!(reader.next_line().unwrap(), None);
//! ```

use std::fmt;
use std::io::{self, BufRead};

/// The longest line kept, in bytes (without its line break): 64 KiB, far
/// more than any position, move list or protocol command needs.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// One line read by a [`LineReader`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// The line's text, without its line break (`\n` or `\r\n`).
    Text(String),
    /// A line longer than the limit, dropped: its length in bytes, without
    /// the line break.
    TooLong {
        /// The line's length in bytes.
        bytes: u64,
    },
    /// A line within the limit that is not UTF-8, dropped.
    NotUtf8 {
        /// The line's length in bytes.
        bytes: usize,
    },
}

impl Line {
    /// The text of a line that was kept; `Err` says why a line was dropped
    /// (see [`DroppedLine`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_match::lines::Line;
    ///
    /// assert_eq!(Line::Text("go".into()).text().unwrap(), "go");
    /// let error = Line::TooLong { bytes: 100_000 }.text().unwrap_err();
    /// assert_eq!(error.to_string(), "input line of 100000 bytes is longer than the limit of 65536 bytes: skipped");
    /// ```
    pub fn text(self) -> Result<String, DroppedLine> {
        match self {
            Line::Text(text) => Ok(text),
            Line::TooLong { bytes } => Err(DroppedLine::TooLong { bytes }),
            Line::NotUtf8 { bytes } => Err(DroppedLine::NotUtf8 { bytes }),
        }
    }
}

/// Why a line was dropped, as one message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DroppedLine {
    /// Longer than [`MAX_LINE_BYTES`] (or the reader's limit).
    #[error(
        "input line of {bytes} bytes is longer than the limit of {MAX_LINE_BYTES} bytes: skipped"
    )]
    TooLong {
        /// The line's length in bytes.
        bytes: u64,
    },
    /// Not UTF-8.
    #[error("input line of {bytes} bytes is not UTF-8: skipped")]
    NotUtf8 {
        /// The line's length in bytes.
        bytes: usize,
    },
}

/// Reads lines of at most a limit of bytes from a buffered reader, holding
/// at most the limit plus one buffer in memory whatever the input.
///
/// # Examples
///
/// ```
/// use surakarta_match::lines::{Line, LineReader};
///
/// let input = format!("uci\n{}\nisready", "x".repeat(100));
/// let mut reader = LineReader::with_limit(input.as_bytes(), 64);
/// assert_eq!(reader.next_line()?, Some(Line::Text("uci".into())));
/// assert_eq!(reader.next_line()?, Some(Line::TooLong { bytes: 100 })); // dropped, not kept
/// assert_eq!(reader.next_line()?, Some(Line::Text("isready".into())));
/// assert_eq!(reader.next_line()?, None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct LineReader<R> {
    inner: R,
    limit: usize,
}

impl<R> fmt::Debug for LineReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LineReader")
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

impl<R: BufRead> LineReader<R> {
    /// A reader with the limit [`MAX_LINE_BYTES`].
    #[must_use]
    pub fn new(inner: R) -> LineReader<R> {
        LineReader::with_limit(inner, MAX_LINE_BYTES)
    }

    /// A reader that keeps lines of at most `limit` bytes.
    #[must_use]
    pub fn with_limit(inner: R, limit: usize) -> LineReader<R> {
        LineReader { inner, limit }
    }

    /// The next line; `None` at the end of the input. A last line without
    /// a line break counts as a line. Read errors are returned as they are
    /// (an interrupted read is retried).
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        let mut kept: Vec<u8> = Vec::new();
        let mut length: u64 = 0;
        let mut seen_any = false;
        let mut last = None;
        loop {
            let buffer = match self.inner.fill_buf() {
                Ok(buffer) => buffer,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buffer.is_empty() {
                if !seen_any {
                    return Ok(None);
                }
                break;
            }
            seen_any = true;
            let (part, used, ended) = match buffer.iter().position(|&b| b == b'\n') {
                Some(i) => (&buffer[..i], i + 1, true),
                None => (buffer, buffer.len(), false),
            };
            length += part.len() as u64;
            if let Some(&byte) = part.last() {
                last = Some(byte);
            }
            // Keep one byte over the limit, to tell a `\r\n` line of exactly
            // the limit from a longer one.
            if kept.len() <= self.limit {
                let room = self.limit + 1 - kept.len();
                kept.extend_from_slice(&part[..part.len().min(room)]);
            }
            self.inner.consume(used);
            if ended {
                break;
            }
        }
        if last == Some(b'\r') {
            length -= 1;
            if kept.len() as u64 > length {
                kept.pop();
            }
        }
        if length > self.limit as u64 {
            return Ok(Some(Line::TooLong { bytes: length }));
        }
        let bytes = kept.len();
        Ok(Some(match String::from_utf8(kept) {
            Ok(text) => Line::Text(text),
            Err(_) => Line::NotUtf8 { bytes },
        }))
    }
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = io::Result<Line>;

    fn next(&mut self) -> Option<io::Result<Line>> {
        self.next_line().transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Read};

    fn all(input: &[u8], limit: usize, buffer: usize) -> Vec<Line> {
        LineReader::with_limit(BufReader::with_capacity(buffer, input), limit)
            .map(Result::unwrap)
            .collect()
    }

    #[test]
    fn lines_at_and_around_the_limit() {
        let text = |s: &str| Line::Text(s.into());
        for buffer in [1, 3, 8, 1024] {
            assert_eq!(
                all(b"abcd\nabcde\r\nab", 4, buffer),
                [text("abcd"), Line::TooLong { bytes: 5 }, text("ab")]
            );
            assert_eq!(
                all(b"abcd\r\n\n\r\n", 4, buffer),
                [text("abcd"), text(""), text("")]
            );
            assert_eq!(all(b"", 4, buffer), []);
            assert_eq!(
                all(b"\xff\xfe\nok", 4, buffer),
                [Line::NotUtf8 { bytes: 2 }, text("ok")]
            );
        }
    }

    /// An endless line without a newline is counted, not held: the reader
    /// gets through 100 MB of zeros with a 64 KiB limit.
    #[test]
    fn an_endless_line_is_not_held() {
        let zeros = std::io::repeat(0).take(100 << 20);
        let tail = &b"\nquit\n"[..];
        let mut reader = LineReader::new(BufReader::new(zeros.chain(tail)));
        assert_eq!(
            reader.next_line().unwrap(),
            Some(Line::TooLong { bytes: 100 << 20 })
        );
        assert_eq!(reader.next_line().unwrap(), Some(Line::Text("quit".into())));
        assert_eq!(reader.next_line().unwrap(), None);
    }
}
