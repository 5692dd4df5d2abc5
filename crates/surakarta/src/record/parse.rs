//! Reading records: the text split into lines, tag lines into tags, and
//! movetext into tokens (comments, move numbers, moves, the result); each
//! move goes to the [`Replay`] to be checked.

use super::replay::Replay;
use super::{
    is_tag_name, GameRecord, GameResult, Mark, MoveAnnotation, RecordError, RecordErrorKind,
    Variation, MAX_COMMENT_LEN, MAX_RECORD_GAMES, MAX_RECORD_MOVES, MAX_RECORD_TAGS,
    MAX_RECORD_TEXT, MAX_VARIATION_DEPTH,
};
use crate::excerpt::Excerpt;
use crate::moves::Move;
use crate::notation::MoveText;
use crate::position::{MoveError, Position};
use crate::rules::Rules;
use core::str::FromStr;
use std::collections::HashSet;

impl GameRecord {
    /// Reads a file of any number of records (none for an empty text),
    /// separated by blank lines. Stops at the first error.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{GameRecord, GameResult};
    ///
    /// let text = "[Event \"Club\"]\n[Rules \"icga\"]\n\n1. b2-b3 e5-e4 2. b3-b4 *\n";
    /// let records = GameRecord::parse_all(text)?;
    /// assert_eq!(records.len(), 1);
    /// assert_eq!(records[0].tag("Event"), Some("Club"));
    /// assert_eq!(records[0].moves.len(), 3);
    /// assert_eq!(records[0].result, GameResult::Unfinished);
    /// // Line numbers in errors.
    /// let error = GameRecord::parse_all("[Event \"x\"]\n\n1. b2-b5 *\n").unwrap_err();
    /// assert!(error.to_string().contains("line 3"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_all(text: &str) -> Result<Vec<GameRecord>, RecordError> {
        GameRecord::records(text).collect()
    }

    /// The records of a file, one at a time, as [`GameRecord::parse_all`]
    /// reads them: after an error (the last item), nothing more. A caller
    /// can stop early, check for an interruption between games, or allow
    /// fewer games ([`Records::max_games`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::{GameRecord, RecordErrorKind};
    ///
    /// let mut games = GameRecord::records("1. b2-b3 *\n\n*\n\n1. b2-b5 *\n");
    /// assert_eq!(games.next().unwrap()?.moves.len(), 1);
    /// assert_eq!(games.next().unwrap()?.moves.len(), 0);
    /// assert_eq!(games.next().unwrap().unwrap_err().line, 5);
    /// assert!(games.next().is_none());
    /// // At most two games here: the third is an error naming the limit.
    /// let mut two = GameRecord::records("*\n*\n*\n").max_games(2);
    /// let error = two.nth(2).unwrap().unwrap_err();
    /// assert_eq!((error.line, error.kind), (3, RecordErrorKind::TooManyGames(2)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn records(text: &str) -> Records<'_> {
        let (parser, error) = match Parser::new(text) {
            Ok(parser) => (Some(parser), None),
            Err(error) => (None, Some(error)),
        };
        Records {
            parser,
            error,
            games: 0,
            max_games: MAX_RECORD_GAMES,
        }
    }
}

/// The records of a text, one at a time: what [`GameRecord::records`]
/// gives. Each item is a game or the error that ends the text; at most
/// [`MAX_RECORD_GAMES`] games are read (fewer with
/// [`Records::max_games`]), the next one is an error
/// ([`RecordErrorKind::TooManyGames`]).
pub struct Records<'a> {
    /// The text's lines still to read; `None` once done.
    parser: Option<Parser<'a>>,
    /// An error found before the first game (the text is too long).
    error: Option<RecordError>,
    /// The games read so far.
    games: usize,
    /// The most games to read.
    max_games: usize,
}

impl Records<'_> {
    /// Reads at most `max` games (and never more than
    /// [`MAX_RECORD_GAMES`]): the one after them is an error.
    #[must_use]
    pub fn max_games(mut self, max: usize) -> Self {
        self.max_games = max.min(MAX_RECORD_GAMES);
        self
    }
}

impl Iterator for Records<'_> {
    type Item = Result<GameRecord, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(error) = self.error.take() {
            return Some(Err(error));
        }
        let parser = self.parser.as_mut()?;
        let line = parser.skip_blank()?;
        let item = if self.games >= self.max_games {
            Err(RecordError {
                line,
                kind: RecordErrorKind::TooManyGames(self.max_games),
            })
        } else {
            parser.next_game().and_then(|game| {
                game.ok_or(RecordError {
                    line,
                    kind: RecordErrorKind::NoGame,
                })
            })
        };
        match item {
            Ok(_) => self.games += 1,
            Err(_) => self.parser = None,
        }
        Some(item)
    }
}

impl core::iter::FusedIterator for Records<'_> {}

impl FromStr for GameRecord {
    type Err = RecordError;

    /// Reads exactly one record: no game at all, or any text after the first
    /// game's result (except blank lines), is an error.
    fn from_str(text: &str) -> Result<GameRecord, RecordError> {
        let mut parser = Parser::new(text)?;
        let record = parser.next_game()?.ok_or(RecordError {
            line: 1,
            kind: RecordErrorKind::NoGame,
        })?;
        if let Some(line) = parser.skip_blank() {
            return Err(RecordError {
                line,
                kind: RecordErrorKind::ExtraGame,
            });
        }
        Ok(record)
    }
}

/// A comment's text with its whitespace runs collapsed to single spaces and
/// none at either end.
pub(super) fn normalize_comment(raw: &str) -> String {
    let mut out = String::new();
    for word in raw.split(is_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Whether `c` separates tokens: ASCII whitespace only.
fn is_space(c: char) -> bool {
    c.is_ascii_whitespace()
}

/// `s` without the [`is_space`] characters at either end.
fn trim(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// The text's lines, numbered from 1, read one game at a time.
struct Parser<'a> {
    lines: core::iter::Peekable<core::iter::Enumerate<core::str::Split<'a, char>>>,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Result<Parser<'a>, RecordError> {
        if text.len() > MAX_RECORD_TEXT {
            return Err(RecordError {
                line: 1,
                kind: RecordErrorKind::TooLong(text.len()),
            });
        }
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Ok(Parser {
            lines: text.split('\n').enumerate().peekable(),
        })
    }

    /// The next line and its number, without consuming it.
    fn peek(&mut self) -> Option<(usize, &'a str)> {
        self.lines.peek().map(|&(i, line)| (i + 1, line))
    }

    /// Skips blank lines; the number of the next non-blank line, if any.
    fn skip_blank(&mut self) -> Option<usize> {
        while let Some((n, line)) = self.peek() {
            if !trim(line).is_empty() {
                return Some(n);
            }
            self.lines.next();
        }
        None
    }

    /// Reads the next game, or `None` if only blank lines are left.
    fn next_game(&mut self) -> Result<Option<GameRecord>, RecordError> {
        if self.skip_blank().is_none() {
            return Ok(None);
        }
        let mut header = Header::default();
        let mut last = 0;
        while let Some((n, line)) = self.peek() {
            let line = trim(line);
            if !line.is_empty() {
                if !line.starts_with('[') {
                    break;
                }
                last = n;
                header
                    .add(line)
                    .map_err(|kind| RecordError { line: n, kind })?;
            }
            self.lines.next();
        }

        let mut movetext = Movetext::new(header.rules, header.start);
        let (result, result_line) = loop {
            let Some((n, line)) = self.peek() else {
                let (line, kind) = match movetext.comment {
                    Some(open) => (open, RecordErrorKind::UnterminatedComment),
                    None if movetext.lines.len() > 1 => {
                        (last.max(1), RecordErrorKind::UnterminatedVariation)
                    }
                    None => (last.max(1), RecordErrorKind::MissingResult),
                };
                return Err(RecordError { line, kind });
            };
            if movetext.comment.is_none() && trim(line).starts_with('[') {
                return Err(RecordError {
                    line: last.max(1),
                    kind: RecordErrorKind::MissingResult,
                });
            }
            self.lines.next();
            if !trim(line).is_empty() {
                last = n;
            }
            movetext
                .line(line, n)
                .map_err(|kind| RecordError { line: n, kind })?;
            if let Some(result) = movetext.result {
                if movetext.comment.is_some() {
                    return Err(RecordError {
                        line: n,
                        kind: RecordErrorKind::UnterminatedComment,
                    });
                }
                break (result, n);
            }
        };

        movetext
            .replay
            .check_result(header.result, result)
            .map_err(|kind| RecordError {
                line: result_line,
                kind,
            })?;
        let mut main = movetext.lines.swap_remove(0);
        let annotations = main.trimmed_annotations();
        Ok(Some(GameRecord {
            tags: header.tags,
            rules: header.rules,
            start: header.start,
            moves: main.moves,
            result,
            intro: main.intro,
            annotations,
        }))
    }
}

/// The tags of a game as they are read.
#[derive(Default)]
struct Header {
    tags: Vec<(String, String)>,
    names: HashSet<String>,
    rules: Rules,
    start: Position,
    result: Option<GameResult>,
}

impl Header {
    /// Reads one tag line (trimmed, starting with `[`).
    fn add(&mut self, line: &str) -> Result<(), RecordErrorKind> {
        let syntax = |problem| RecordErrorKind::TagSyntax {
            text: Excerpt::new(line),
            problem,
        };
        let rest = line
            .strip_prefix('[')
            .unwrap_or(line)
            .trim_start_matches(is_space);
        let name_end = rest
            .find(|c: char| is_space(c) || c == '"' || c == ']')
            .unwrap_or(rest.len());
        let (name, rest) = rest.split_at(name_end);
        if !is_tag_name(name) {
            return Err(RecordErrorKind::TagName(Excerpt::new(name)));
        }
        let rest = rest
            .trim_start_matches(is_space)
            .strip_prefix('"')
            .ok_or_else(|| syntax("expected a value in double quotes after the tag name"))?;
        let mut value = String::new();
        let mut chars = rest.char_indices();
        let after = loop {
            match chars.next() {
                None => return Err(RecordErrorKind::UnterminatedQuote(Excerpt::new(name))),
                Some((i, '"')) => break &rest[i + 1..],
                Some((_, '\\')) => match chars.next() {
                    Some((_, c @ ('"' | '\\'))) => value.push(c),
                    Some((_, found)) => {
                        return Err(RecordErrorKind::BadEscape {
                            tag: Excerpt::new(name),
                            found,
                        })
                    }
                    None => return Err(RecordErrorKind::UnterminatedQuote(Excerpt::new(name))),
                },
                Some((_, c)) => value.push(c),
            }
        };
        let after = after
            .trim_start_matches(is_space)
            .strip_prefix(']')
            .ok_or_else(|| syntax("expected ']' after the value"))?;
        if !after.is_empty() {
            return Err(syntax("unexpected text after ']'"));
        }
        if self.names.contains(name) {
            return Err(RecordErrorKind::DuplicateTag(Excerpt::new(name)));
        }
        if self.tags.len() >= MAX_RECORD_TAGS {
            return Err(RecordErrorKind::TooManyTags);
        }
        match name {
            "Rules" => {
                self.rules = value.parse().map_err(RecordErrorKind::Rules)?;
                value = self.rules.to_string();
            }
            "Start" => {
                self.start = value.parse().map_err(RecordErrorKind::Start)?;
                value = self.start.to_string();
            }
            "Result" => {
                self.result = Some(
                    value
                        .parse()
                        .map_err(|_| RecordErrorKind::ResultTag(Excerpt::new(&value)))?,
                );
            }
            _ => {}
        }
        self.names.insert(name.to_string());
        self.tags.push((name.to_string(), value));
        Ok(())
    }
}

/// A line of moves as it is read: the main line, or a variation open
/// inside it. Its positions are the movetext's [`Replay`]'s.
struct Line {
    /// The plies played before the line's first move (for error messages).
    ply_offset: usize,
    moves: Vec<Move>,
    /// One entry a move.
    annotations: Vec<MoveAnnotation>,
    /// The comment before the first move.
    intro: Option<String>,
}

impl Line {
    fn new(ply_offset: usize) -> Line {
        Line {
            ply_offset,
            moves: Vec::new(),
            annotations: Vec::new(),
            intro: None,
        }
    }

    /// The ply number of the next move.
    fn next_ply(&self) -> usize {
        self.ply_offset + self.moves.len() + 1
    }

    /// The annotations without empty entries at their end.
    fn trimmed_annotations(&mut self) -> Vec<MoveAnnotation> {
        let mut annotations = core::mem::take(&mut self.annotations);
        while annotations.last().is_some_and(MoveAnnotation::is_empty) {
            annotations.pop();
        }
        annotations
    }
}

/// The movetext of a game as it is read: the main line and the variations
/// open in it (a stack, innermost last; never recursion), and one replay of
/// the moves from the start to the end of the innermost line. A variation
/// takes back the move it replaces and its own moves are taken back when
/// it closes, so every move is played at most twice and taken back at most
/// once: reading is linear in the moves, however many variations.
struct Movetext {
    /// `lines[0]` is the main line.
    lines: Vec<Line>,
    /// The game along the lines open: the main line's moves up to the move
    /// the first variation replaces, that variation's moves up to the move
    /// the next replaces, and so on to the end of the innermost line.
    replay: Replay,
    /// Moves read so far, in every line.
    moves_read: usize,
    /// The line of the `{` of an open comment.
    comment: Option<usize>,
    /// The text of the open comment so far.
    comment_text: String,
    result: Option<GameResult>,
}

impl Movetext {
    fn new(rules: Rules, start: Position) -> Movetext {
        Movetext {
            lines: vec![Line::new(0)],
            replay: Replay::new(rules, start),
            moves_read: 0,
            comment: None,
            comment_text: String::new(),
            result: None,
        }
    }

    /// The line moves are read into.
    fn current(&mut self) -> &mut Line {
        self.lines
            .last_mut()
            .expect("the main line is never removed")
    }

    /// Ends the open comment: keeps it with the last move (or as the
    /// introduction before the first move of the line); a comment after the
    /// result is skipped.
    fn close_comment(&mut self) -> Result<(), RecordErrorKind> {
        self.comment = None;
        let raw = core::mem::take(&mut self.comment_text);
        if self.result.is_some() {
            return Ok(());
        }
        let text = normalize_comment(&raw);
        if text.is_empty() {
            return Ok(());
        }
        let line = self.current();
        let slot = match line.annotations.last_mut() {
            Some(a) => &mut a.comment,
            None => &mut line.intro,
        };
        let joined = match slot.take() {
            Some(before) => before + " " + &text,
            None => text,
        };
        if joined.len() > MAX_COMMENT_LEN {
            return Err(RecordErrorKind::CommentTooLong);
        }
        *slot = Some(joined);
        Ok(())
    }

    /// Opens a variation of the current line's last move: takes that move
    /// back, so the variation is played from the position before it.
    fn open_variation(&mut self) -> Result<(), RecordErrorKind> {
        if self.lines.len() > MAX_VARIATION_DEPTH {
            return Err(RecordErrorKind::VariationTooDeep);
        }
        let line = self.current();
        let Some(last) = line.moves.len().checked_sub(1) else {
            return Err(RecordErrorKind::VariationWithoutMove);
        };
        let offset = line.ply_offset + last;
        self.replay.undo();
        debug_assert_eq!(self.replay.plies(), offset);
        self.lines.push(Line::new(offset));
        Ok(())
    }

    /// Closes the innermost variation and keeps it with the move it
    /// replaces: takes its moves back and plays that move again.
    fn close_variation(&mut self) -> Result<(), RecordErrorKind> {
        if self.lines.len() < 2 {
            return Err(RecordErrorKind::UnopenedVariation);
        }
        let mut line = self.lines.pop().expect("two lines at least");
        if line.moves.is_empty() {
            return Err(RecordErrorKind::EmptyVariation);
        }
        for _ in &line.moves {
            self.replay.undo();
        }
        let variation = Variation {
            intro: line.intro.take(),
            annotations: line.trimmed_annotations(),
            moves: line.moves,
        };
        let parent = self
            .lines
            .last_mut()
            .expect("the main line is never removed");
        let replaced = *parent
            .moves
            .last()
            .expect("a variation is opened after a move");
        parent
            .annotations
            .last_mut()
            .expect("one annotation a move")
            .variations
            .push(variation);
        self.replay.redo(replaced);
        Ok(())
    }

    /// Reads one line (number `n`) of movetext.
    fn line(&mut self, line: &str, n: usize) -> Result<(), RecordErrorKind> {
        let mut rest = line;
        loop {
            if self.comment.is_some() {
                match rest.find('}') {
                    Some(i) => {
                        self.comment_text.push_str(&rest[..i]);
                        rest = &rest[i + 1..];
                        self.close_comment()?;
                    }
                    None => {
                        if self.result.is_none() {
                            self.comment_text.push_str(rest);
                            self.comment_text.push(' ');
                            if self.comment_text.len() > 4 * MAX_COMMENT_LEN {
                                return Err(RecordErrorKind::CommentTooLong);
                            }
                        }
                        return Ok(());
                    }
                }
            }
            rest = rest.trim_start_matches(is_space);
            if rest.is_empty() {
                return Ok(());
            }
            if let Some(inside) = rest.strip_prefix('{') {
                self.comment = Some(n);
                rest = inside;
                continue;
            }
            if self.result.is_none() {
                if let Some(inside) = rest.strip_prefix('(') {
                    self.open_variation()?;
                    rest = inside;
                    continue;
                }
                if let Some(after) = rest.strip_prefix(')') {
                    self.close_variation()?;
                    rest = after;
                    continue;
                }
            }
            let end = rest
                .find(|c: char| is_space(c) || matches!(c, '{' | '(' | ')'))
                .unwrap_or(rest.len())
                .max(1);
            let (token, tail) = rest.split_at(end);
            rest = tail;
            if self.result.is_some() {
                return Err(RecordErrorKind::TextAfterResult(Excerpt::new(token)));
            }
            self.token(token)?;
        }
    }

    /// Reads one token: a result, a move number (possibly joined to a move,
    /// `12.b2-b3`), `...`, or a move.
    fn token(&mut self, token: &str) -> Result<(), RecordErrorKind> {
        if let Ok(result) = token.parse::<GameResult>() {
            if self.lines.len() > 1 {
                return Err(RecordErrorKind::UnterminatedVariation);
            }
            self.result = Some(result);
            return Ok(());
        }
        if token == "..." {
            return Ok(());
        }
        let text = if token.starts_with(|c: char| c.is_ascii_digit()) {
            let digits = token.bytes().take_while(u8::is_ascii_digit).count();
            let after = &token[digits..];
            match after
                .strip_prefix("...")
                .or_else(|| after.strip_prefix('.'))
            {
                Some(text) if !text.starts_with('.') => text,
                _ => return Err(RecordErrorKind::MoveNumber(Excerpt::new(token))),
            }
        } else {
            token
        };
        if text.is_empty() {
            return Ok(());
        }
        let bare = text.trim_end_matches(['!', '?']);
        let suffix = &text[bare.len()..];
        if bare.is_empty() || suffix.is_empty() {
            return self.play(text, None);
        }
        let mark = suffix
            .parse::<Mark>()
            .map_err(|_| RecordErrorKind::BadMark {
                ply: self.lines.last().map_or(1, Line::next_ply),
                text: Excerpt::new(suffix),
            })?;
        self.play(bare, Some(mark))
    }

    /// Reads a move and plays it in the current line.
    fn play(&mut self, text: &str, mark: Option<Mark>) -> Result<(), RecordErrorKind> {
        if self.moves_read >= MAX_RECORD_MOVES {
            return Err(RecordErrorKind::TooManyMoves);
        }
        let line = self.current();
        let ply = line.next_ply();
        let written: MoveText = text.parse().map_err(|e| RecordErrorKind::Move {
            ply,
            text: Excerpt::new(text),
            error: MoveError::Syntax {
                text: Excerpt::new(text),
                error: e,
            },
        })?;
        let m = self.replay.play(ply, text, written)?;
        let line = self.current();
        line.moves.push(m);
        line.annotations.push(MoveAnnotation {
            mark,
            ..MoveAnnotation::default()
        });
        self.moves_read += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of `cycles` four-move cycles that never ends under these
    /// rules, with a one-move variation at every move.
    fn cycles_with_variations(cycles: usize) -> (Rules, String) {
        let rules = "repetitions=4000000000,no-capture=0".parse().unwrap();
        let cycle = "b2-b3 ( b2-c3 ) e5-e4 ( f5-f4 ) b3-b2 ( b3-b4 ) e4-e5 ( e4-e3 ) ";
        (rules, cycle.repeat(cycles))
    }

    /// A variation at every move costs a constant number of moves played:
    /// each move once, and the move each variation replaces once more; the
    /// line before it is never replayed.
    #[test]
    fn variations_do_not_replay_the_line() {
        for cycles in [1, 10, 1000] {
            let (rules, text) = cycles_with_variations(cycles);
            let mut movetext = Movetext::new(rules, Position::new());
            movetext.line(&text, 1).unwrap();
            let main = 4 * cycles;
            assert_eq!(movetext.lines[0].moves.len(), main);
            assert_eq!(movetext.moves_read, 2 * main);
            // Every move read, and the replaced move played again after
            // each variation.
            assert_eq!(movetext.replay.played(), 3 * main);
            assert_eq!(movetext.replay.plies(), main);
        }
    }

    /// Nested variations take back exactly what they played.
    #[test]
    fn nested_variations_leave_the_line_where_it_was() {
        let text =
            "1. b2-b3 e5-e4 ( 1... f5-f4 2. b3-b4 ( 2. c2-c3 f4-f3 ( 2... e5-e4 ) ) ) 2. b3-b2 e4-e5";
        let mut movetext = Movetext::new(Rules::ICGA, Position::new());
        movetext.line(text, 1).unwrap();
        let mut game = crate::game::Game::new(Position::new(), Rules::ICGA);
        for m in ["b2-b3", "e5-e4", "b3-b2", "e4-e5"] {
            game.play_text(m).unwrap();
        }
        assert_eq!(movetext.replay.position(), game.position());
        assert_eq!(movetext.replay.plies(), 4);
        // The repetition count is the main line's: two more moves repeat
        // the start a third time, and ICGA ends the game there.
        movetext.line("3. b2-b3 e5-e4 4. b3-b2", 2).unwrap();
        assert!(movetext.line("e4-e5 5. b2-b3", 3).is_err());
    }
}
