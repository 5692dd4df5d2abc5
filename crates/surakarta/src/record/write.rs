//! Writing records: the canonical text that reading gives back as an equal
//! record.

use super::parse::normalize_comment;
use super::{
    is_tag_name, GameRecord, MoveAnnotation, RecordErrorKind, RecordWriteError, MAX_COMMENT_LEN,
    MAX_RECORD_GAMES, MAX_RECORD_MOVES, MAX_RECORD_TAGS, MAX_RECORD_TEXT, MAX_VARIATION_DEPTH,
    RECORD_LINE_WIDTH,
};
use crate::color::Color;
use crate::excerpt::Excerpt;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use core::fmt;
use std::collections::HashSet;

impl GameRecord {
    /// The canonical text of the record (its `Display`), or the error the
    /// reader would give for it: the one writer every program writes
    /// records with, so that what is written reads back. Refuses more than
    /// [`MAX_RECORD_TAGS`] tags (counting a `Rules` or `Start` tag the
    /// writer adds), a tag name that is not one or is given twice, more than
    /// [`MAX_RECORD_MOVES`] moves (variations included), a comment over
    /// [`MAX_COMMENT_LEN`] bytes, an empty variation or variations nested
    /// deeper than [`MAX_VARIATION_DEPTH`], and a text over
    /// [`MAX_RECORD_TEXT`] bytes. It does not replay the moves
    /// ([`GameRecord::to_game`] does).
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Game, GameRecord, RecordErrorKind};
    /// use surakarta::record::MAX_RECORD_TAGS;
    ///
    /// let mut record = GameRecord::from_game(&Game::default());
    /// assert_eq!(record.to_text()?, record.to_string());
    /// for i in 0..MAX_RECORD_TAGS {
    ///     record.set_tag(&format!("T{i}"), "x");
    /// }
    /// assert_eq!(record.to_text().unwrap_err().kind, RecordErrorKind::TooManyTags);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_text(&self) -> Result<String, RecordWriteError> {
        let error = |kind| RecordWriteError { game: 1, kind };
        self.check_writable().map_err(error)?;
        let text = self.to_string();
        if text.len() > MAX_RECORD_TEXT {
            return Err(error(RecordErrorKind::TooLong(text.len())));
        }
        Ok(text)
    }

    /// Writes records as one file that [`GameRecord::parse_all`] reads back:
    /// each record's text ([`GameRecord::to_text`]), separated by blank
    /// lines. Refuses what the reader would: a record it would refuse, more
    /// than [`MAX_RECORD_GAMES`] records, or a text over
    /// [`MAX_RECORD_TEXT`] bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{Game, GameRecord};
    ///
    /// let mut game = Game::default();
    /// game.play_text("b2-b3")?;
    /// let records = vec![GameRecord::from_game(&game), GameRecord::from_game(&Game::default())];
    /// let text = GameRecord::format_all(&records)?;
    /// assert_eq!(GameRecord::parse_all(&text)?, records); // reads back as equal records
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn format_all(records: &[GameRecord]) -> Result<String, RecordWriteError> {
        if records.len() > MAX_RECORD_GAMES {
            return Err(RecordWriteError {
                game: MAX_RECORD_GAMES + 1,
                kind: RecordErrorKind::TooManyGames(MAX_RECORD_GAMES),
            });
        }
        let mut out = String::new();
        for (i, record) in records.iter().enumerate() {
            let error = |kind| RecordWriteError { game: i + 1, kind };
            record.check_writable().map_err(error)?;
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&record.to_string());
            if out.len() > MAX_RECORD_TEXT {
                return Err(error(RecordErrorKind::TooLong(out.len())));
            }
        }
        Ok(out)
    }

    /// What the reader would refuse in the record, but for the length of
    /// its text: its tags, its moves and variations, its comments.
    fn check_writable(&self) -> Result<(), RecordErrorKind> {
        let added = usize::from(self.tag("Rules").is_none() && self.rules != Rules::default())
            + usize::from(self.tag("Start").is_none() && self.start != Position::new());
        if self.tags.len() + added > MAX_RECORD_TAGS {
            return Err(RecordErrorKind::TooManyTags);
        }
        let mut names = HashSet::with_capacity(self.tags.len());
        for (name, _) in &self.tags {
            if !is_tag_name(name) {
                return Err(RecordErrorKind::TagName(Excerpt::new(name)));
            }
            if !names.insert(name.as_str()) {
                return Err(RecordErrorKind::DuplicateTag(Excerpt::new(name)));
            }
        }
        let comment = |text: &Option<String>| match text {
            Some(text) if normalize_comment(text).len() > MAX_COMMENT_LEN => {
                Err(RecordErrorKind::CommentTooLong)
            }
            _ => Ok(()),
        };
        comment(&self.intro)?;
        // The lines to check and their depth (a stack, never recursion).
        let mut lines = vec![(self.moves.len(), self.annotations.as_slice(), 0)];
        let mut moves = 0usize;
        while let Some((count, annotations, depth)) = lines.pop() {
            moves = moves.saturating_add(count);
            if moves > MAX_RECORD_MOVES {
                return Err(RecordErrorKind::TooManyMoves);
            }
            for annotation in annotations.iter().take(count) {
                comment(&annotation.comment)?;
                for v in &annotation.variations {
                    if depth + 1 > MAX_VARIATION_DEPTH {
                        return Err(RecordErrorKind::VariationTooDeep);
                    }
                    if v.moves.is_empty() {
                        return Err(RecordErrorKind::EmptyVariation);
                    }
                    comment(&v.intro)?;
                    lines.push((v.moves.len(), v.annotations.as_slice(), depth + 1));
                }
            }
        }
        Ok(())
    }
}

impl fmt::Display for GameRecord {
    /// The canonical text, unchecked: [`GameRecord::to_text`] refuses what
    /// the reader would refuse. The tags in order, one a line (the `Rules`,
    /// `Start` and `Result` tags with the values of the fields; a `Rules` or
    /// `Start` tag is added at the end when absent and the field is not the
    /// default), a blank line, then the introduction comment, the numbered
    /// moves with their marks, comments and variations (`12. b2-b3? { text }
    /// ( 12. b2-c3 e5-e4 )`; a White move after a comment or a variation is
    /// numbered `12...`) and the result token,
    /// wrapped at [`RECORD_LINE_WIDTH`] columns (between words inside
    /// comments too). Every line ends with a line
    /// break. A line break inside a tag value is written as a space.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rules = self.rules.to_string();
        let start = self.start.to_string();
        for (name, value) in &self.tags {
            let value = match name.as_str() {
                "Rules" => &rules,
                "Start" => &start,
                "Result" => self.result.as_str(),
                _ => value.as_str(),
            };
            write_tag(f, name, value)?;
        }
        if self.tag("Rules").is_none() && self.rules != Rules::default() {
            write_tag(f, "Rules", &rules)?;
        }
        if self.tag("Start").is_none() && self.start != Position::new() {
            write_tag(f, "Start", &start)?;
        }
        if !self.tags.is_empty() || self.rules != Rules::default() || self.start != Position::new()
        {
            f.write_str("\n")?;
        }

        let mut out = Wrapper {
            f,
            line: String::new(),
            open: false,
        };
        if let Some(intro) = &self.intro {
            out.comment(intro)?;
        }
        // The lines being written, innermost last: the main line, then the
        // variations open in it (a stack, never recursion).
        let mut stack = vec![LineWriter {
            moves: &self.moves,
            annotations: &self.annotations,
            next: 0,
            pending: 0,
            number: self.start.fullmoves(),
            turn: self.start.turn(),
            before: (self.start.fullmoves(), self.start.turn()),
            renumber: false,
            variation: false,
        }];
        let mut unit = String::new();
        while let Some(line) = stack.last_mut() {
            // The variations of the move written last come right after it.
            let last = line
                .next
                .checked_sub(1)
                .and_then(|i| line.annotations.get(i));
            if let Some(v) = last.and_then(|a| a.variations.get(line.pending)) {
                line.pending += 1;
                // The move after a variation is numbered again, as in PGN.
                line.renumber = true;
                let (number, turn) = line.before;
                out.open();
                if let Some(intro) = &v.intro {
                    out.comment(intro)?;
                }
                stack.push(LineWriter {
                    moves: &v.moves,
                    annotations: &v.annotations,
                    next: 0,
                    pending: 0,
                    number,
                    turn,
                    before: (number, turn),
                    renumber: false,
                    variation: true,
                });
                continue;
            }
            let Some(&m) = line.moves.get(line.next) else {
                if line.variation {
                    out.unit(")")?;
                }
                stack.pop();
                continue;
            };
            use fmt::Write;
            unit.clear();
            // A White move is numbered (`3...`) first in a line and after a
            // comment or a variation, as in PGN.
            match line.turn {
                Color::Black => write!(unit, "{}. {m}", line.number)?,
                Color::White if line.next == 0 || line.renumber => {
                    write!(unit, "{}... {m}", line.number)?;
                }
                Color::White => write!(unit, "{m}")?,
            }
            line.before = (line.number, line.turn);
            if line.turn == Color::White {
                line.number = line.number.saturating_add(1);
            }
            line.turn = !line.turn;
            let annotation = line.annotations.get(line.next);
            line.next += 1;
            line.pending = 0;
            if let Some(mark) = annotation.and_then(|a| a.mark) {
                unit.push_str(mark.as_str());
            }
            out.unit(&unit)?;
            line.renumber = match annotation.and_then(|a| a.comment.as_deref()) {
                Some(comment) => out.comment(comment)?,
                None => false,
            };
        }
        out.unit(self.result.as_str())?;
        out.f.write_str(&out.line)?;
        out.f.write_str("\n")
    }
}

/// A line of moves being written: the main line or a variation.
struct LineWriter<'r> {
    moves: &'r [Move],
    annotations: &'r [MoveAnnotation],
    /// The next move to write.
    next: usize,
    /// The next variation to write of the move written last.
    pending: usize,
    /// The move number and side of the next move.
    number: u32,
    turn: Color,
    /// The move number and side of the move written last (where its
    /// variations start).
    before: (u32, Color),
    /// Whether the next White move is numbered again (`3...`).
    renumber: bool,
    /// Whether the line is a variation (closed with `)`).
    variation: bool,
}

/// Movetext wrapped at [`RECORD_LINE_WIDTH`] columns: units separated by
/// spaces, a line break instead of the space where the next unit would not
/// fit.
struct Wrapper<'a, 'b> {
    f: &'a mut fmt::Formatter<'b>,
    line: String,
    /// Whether a `(` waits for the next unit (a line never ends with it).
    open: bool,
}

impl Wrapper<'_, '_> {
    /// Opens a variation: `( ` before the next unit.
    fn open(&mut self) {
        self.open = true;
    }

    /// Adds one unit.
    fn unit(&mut self, unit: &str) -> fmt::Result {
        let opened;
        let unit = if core::mem::take(&mut self.open) {
            opened = format!("( {unit}");
            opened.as_str()
        } else {
            unit
        };
        if !self.line.is_empty() && self.line.len() + 1 + unit.len() > RECORD_LINE_WIDTH {
            self.f.write_str(&self.line)?;
            self.f.write_str("\n")?;
            self.line.clear();
        }
        if !self.line.is_empty() {
            self.line.push(' ');
        }
        self.line.push_str(unit);
        Ok(())
    }

    /// Adds a comment `{ … }`, word by word so that it wraps; whitespace
    /// runs are written as single spaces and `}` as `)`. An empty comment is
    /// not written.
    /// Whether anything was written.
    fn comment(&mut self, text: &str) -> Result<bool, fmt::Error> {
        let words: Vec<&str> = text
            .split(|c: char| c.is_ascii_whitespace())
            .filter(|w| !w.is_empty())
            .collect();
        let n = words.len();
        for (i, word) in words.into_iter().enumerate() {
            let mut unit = String::new();
            if i == 0 {
                unit.push_str("{ ");
            }
            unit.push_str(&word.replace('}', ")"));
            if i + 1 == n {
                unit.push_str(" }");
            }
            self.unit(&unit)?;
        }
        Ok(n > 0)
    }
}

/// Writes `[name "value"]` and a line break, escaping `"` and `\`.
fn write_tag(f: &mut fmt::Formatter<'_>, name: &str, value: &str) -> fmt::Result {
    f.write_str("[")?;
    f.write_str(name)?;
    f.write_str(" \"")?;
    for ch in value.chars() {
        match ch {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str(" ")?,
            c => fmt::Write::write_char(f, c)?,
        }
    }
    f.write_str("\"]\n")
}
