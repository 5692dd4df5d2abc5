//! Game records: whole games as plain text, in a PGN-like format.
//!
//! A record is a block of tag lines `[Name "value"]`, a blank line, and the
//! movetext: the moves in move notation, optionally numbered, ending with a
//! result token `1-0`, `0-1`, `1/2-1/2` or `*`. A file holds any number of
//! records, separated by blank lines. The `Rules` and `Start` tags give the
//! rule set and the start position; the moves are checked legal in sequence,
//! and a result must agree with the end of the game when the rules have ended
//! it. The format, with every error, is specified in `docs/notation.md`
//! ("Game records").
//!
//! ```text
//! [Event "surakarta match"]
//! [Rules "icga"]
//! [Result "*"]
//!
//! 1. b2-b3 e5-e4 2. b3-c4 f5-e5 *
//! ```
//!
//! Reading never panics and is bounded: at most [`MAX_RECORD_TEXT`] bytes of
//! text, [`MAX_RECORD_TAGS`] tags and [`MAX_RECORD_MOVES`] moves a game, no
//! recursion. Writing is canonical, and reading what was written gives back
//! an equal record.

use crate::color::Color;
use crate::excerpt::Excerpt;
use crate::game::{outcome_under, Game, GameError};
use crate::moves::Move;
use crate::notation::MoveText;
use crate::position::{MoveError, ParsePositionError, Position};
use crate::rules::{Outcome, ParseRulesError, Rules};
use core::fmt;
use core::str::FromStr;
use std::collections::{HashMap, HashSet};

/// Longest text [`GameRecord::parse_all`] and `GameRecord::from_str` read
/// (16 MiB); anything longer is rejected unread.
pub const MAX_RECORD_TEXT: usize = 16 * 1024 * 1024;

/// Most moves (plies) one game may have.
pub const MAX_RECORD_MOVES: usize = 100_000;

/// Most tags one game may have.
pub const MAX_RECORD_TAGS: usize = 1_000;

/// The width movetext lines are wrapped at when a record is written.
pub const RECORD_LINE_WIDTH: usize = 80;

/// The result field of a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Black won: `1-0`.
    BlackWins,
    /// White won: `0-1`.
    WhiteWins,
    /// A draw: `1/2-1/2`.
    Draw,
    /// Unfinished, or the result is unknown: `*`.
    Unfinished,
}

impl GameResult {
    /// All four results, in the order `1-0`, `0-1`, `1/2-1/2`, `*`.
    pub const ALL: [GameResult; 4] = [
        GameResult::BlackWins,
        GameResult::WhiteWins,
        GameResult::Draw,
        GameResult::Unfinished,
    ];

    /// The result of a game that `winner` won (`None`: a draw).
    pub const fn from_winner(winner: Option<Color>) -> GameResult {
        match winner {
            Some(Color::Black) => GameResult::BlackWins,
            Some(Color::White) => GameResult::WhiteWins,
            None => GameResult::Draw,
        }
    }

    /// The result of a game that ended with `o` (`None`: not over, `*`).
    pub fn from_outcome(o: Option<Outcome>) -> GameResult {
        match o {
            None => GameResult::Unfinished,
            Some(o) => match o.winner {
                Some(Color::Black) => GameResult::BlackWins,
                Some(Color::White) => GameResult::WhiteWins,
                None => GameResult::Draw,
            },
        }
    }

    /// The result as text: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::BlackWins => "1-0",
            GameResult::WhiteWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }
}

/// Why a result's text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid result {0}: expected 1-0, 0-1, 1/2-1/2 or *")]
pub struct ParseGameResultError(pub Excerpt);

impl FromStr for GameResult {
    type Err = ParseGameResultError;

    /// Exactly `1-0`, `0-1`, `1/2-1/2` or `*`.
    fn from_str(s: &str) -> Result<GameResult, ParseGameResultError> {
        GameResult::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| ParseGameResultError(Excerpt::new(s)))
    }
}

impl fmt::Display for GameResult {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a record could not be read: the 1-based line number and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct RecordError {
    /// The line the problem is on, counting from 1 (line 1 for problems of
    /// the whole text).
    pub line: usize,
    /// What is wrong.
    pub kind: RecordErrorKind,
}

/// What is wrong with a record; see `docs/notation.md` for the line each is
/// reported on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordErrorKind {
    /// The text is longer than [`MAX_RECORD_TEXT`].
    #[error("record text too long ({0} bytes; at most {MAX_RECORD_TEXT})")]
    TooLong(usize),
    /// The text holds no game (only for a single record).
    #[error("no game in the text")]
    NoGame,
    /// More text follows the first game's result (only for a single record).
    #[error("text after the end of the game: expected exactly one game")]
    ExtraGame,
    /// A tag line is not of the form `[Name "value"]`.
    #[error("malformed tag line {text}: {problem}")]
    TagSyntax {
        /// The line.
        text: Excerpt,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// A tag name is empty or has characters other than `A-Z a-z 0-9 _`.
    #[error("invalid tag name {0}: expected letters, digits and '_'")]
    TagName(Excerpt),
    /// A tag value has no closing quote.
    #[error("tag {0}: the value has no closing '\"'")]
    UnterminatedQuote(Excerpt),
    /// A tag value has a backslash followed by something other than `"` or `\`.
    #[error("tag {tag}: invalid escape '\\{found}' in the value (only \\\" and \\\\ are allowed)")]
    BadEscape {
        /// The tag's name.
        tag: Excerpt,
        /// The character after the backslash.
        found: char,
    },
    /// The same tag name appears twice in one game.
    #[error("tag {0} given twice")]
    DuplicateTag(Excerpt),
    /// A game has more than [`MAX_RECORD_TAGS`] tags.
    #[error("more than {MAX_RECORD_TAGS} tags in one game")]
    TooManyTags,
    /// The `Rules` tag is not a rule set.
    #[error("Rules tag: {0}")]
    Rules(ParseRulesError),
    /// The `Start` tag is not a valid position.
    #[error("Start tag: {0}")]
    Start(ParsePositionError),
    /// The `Result` tag is not a result.
    #[error("Result tag: {0}")]
    ResultTag(ParseGameResultError),
    /// A token starting with a digit is not a move number `N.` or `N...`
    /// (nor a result).
    #[error(
        "invalid move number {0}: expected a number followed by '.' or '...', like 12. or 12..."
    )]
    MoveNumber(Excerpt),
    /// A move is unreadable or illegal.
    #[error("ply {ply}: {error}")]
    Move {
        /// Which move of the game, counting from 1.
        ply: usize,
        /// The move as written.
        text: Excerpt,
        /// What is wrong with it.
        error: MoveError,
    },
    /// A move follows the end of the game under its rules.
    #[error("ply {ply}: {text} is played after the game ended: {outcome}")]
    MoveAfterEnd {
        /// Which move of the game, counting from 1.
        ply: usize,
        /// The move as written.
        text: String,
        /// How the game had ended.
        outcome: Outcome,
    },
    /// A game has more than [`MAX_RECORD_MOVES`] moves.
    #[error("more than {MAX_RECORD_MOVES} moves in one game")]
    TooManyMoves,
    /// A `{` comment is never closed (before the end of the text, or before
    /// the end of the line after the result token).
    #[error("comment opened with '{{' is never closed")]
    UnterminatedComment,
    /// The movetext ends (at the end of the text or at a tag line) without a
    /// result token.
    #[error("the movetext has no result token (1-0, 0-1, 1/2-1/2 or *) at its end")]
    MissingResult,
    /// Something other than a comment follows the result token on its line.
    #[error("unexpected text {0} after the result token")]
    TextAfterResult(Excerpt),
    /// The result token differs from the `Result` tag.
    #[error("the result token {token} disagrees with the Result tag {tag}")]
    ResultMismatch {
        /// The `Result` tag's value.
        tag: GameResult,
        /// The result token.
        token: GameResult,
    },
    /// The game is over under its rules and the result is not its result.
    #[error("the result {result} contradicts the end of the game: {outcome}, so the result is {}", GameResult::from_outcome(Some(*outcome)))]
    ResultContradicts {
        /// The result token.
        result: GameResult,
        /// How the game ended under its rules.
        outcome: Outcome,
    },
}

/// A game as a record: tags, rule set, start position, moves and result.
///
/// Records read from text are valid: the moves are legal in sequence under
/// `rules` from `start`, no move follows the end of the game, and if the
/// game is over `result` is its result. The fields are public, so a record
/// built by hand need not be; [`GameRecord::to_game`] checks it.
///
/// # Examples
///
/// ```
/// use surakarta::{Game, GameRecord, Position, Rules};
///
/// let mut game = Game::new(Position::new(), Rules::ICGA);
/// for m in ["b2-b3", "e5-e4", "b3-b4"] {
///     game.play_text(m).unwrap();
/// }
/// let text = GameRecord::from_game(&game).to_string();
/// let records = GameRecord::parse_all(&text).unwrap();
/// assert_eq!(records.len(), 1);
/// assert_eq!(records[0].to_game().unwrap(), game);
/// // A record is checked as it is read: an illegal move is an error.
/// assert!(GameRecord::parse_all("1. b2-b5 *").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// Every tag in file order, including `Rules`, `Start` and `Result`
    /// (whose values are stored in canonical form when read).
    pub tags: Vec<(String, String)>,
    /// The rule set, from the `Rules` tag (`icga` when absent).
    pub rules: Rules,
    /// The start position, from the `Start` tag (the start position when absent).
    pub start: Position,
    /// The moves, legal in sequence in a record that was read.
    pub moves: Vec<Move>,
    /// The result, from the result token at the end of the movetext.
    pub result: GameResult,
}

impl GameRecord {
    /// The record of a game: tags `Rules`, `Start`, `Result` and, when the
    /// game is over, `Termination` (e.g. `no pieces left`); the result is the
    /// game's outcome, `*` while it goes on.
    pub fn from_game(game: &Game) -> GameRecord {
        let outcome = game.outcome();
        let result = GameResult::from_outcome(outcome);
        let mut tags = vec![
            ("Rules".to_string(), game.rules().to_string()),
            ("Start".to_string(), game.start().to_string()),
            ("Result".to_string(), result.as_str().to_string()),
        ];
        if let Some(o) = outcome {
            tags.push((
                "Termination".to_string(),
                o.termination.describe().to_string(),
            ));
        }
        GameRecord {
            tags,
            rules: game.rules(),
            start: *game.start(),
            moves: game.moves().to_vec(),
            result,
        }
    }

    /// The record of `game` as [`GameRecord::from_game`] makes it, with the
    /// `leading` tags (such as `Event`, `Black`, `White`) written before the
    /// game's own. Each name must be a valid tag name (see
    /// [`GameRecord::set_tag`]).
    pub fn from_game_tagged(game: &Game, leading: &[(&str, &str)]) -> GameRecord {
        let mut record = GameRecord::from_game(game);
        let own = std::mem::take(&mut record.tags);
        for (name, value) in leading {
            record.set_tag(name, value);
        }
        for (name, value) in own {
            record.set_tag(&name, &value);
        }
        record
    }

    /// Sets the result (the field and the `Result` tag) and the
    /// `Termination` tag, for an end the rules did not decide: resignation,
    /// time forfeit, adjudication. A game the rules have ended must keep
    /// their result, or the record will not read back.
    pub fn set_result(&mut self, result: GameResult, termination: &str) {
        self.result = result;
        self.set_tag("Result", result.as_str());
        self.set_tag("Termination", termination);
    }

    /// The value of the tag `name` (case-sensitive), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets the tag `name` to `value`: replaces its value where it is, or
    /// appends it. `name` must be one or more of `A-Z a-z 0-9 _`; any other
    /// name is a bug in the caller (debug builds panic, release builds ignore
    /// the call). This changes only `tags`: the `Rules`, `Start` and `Result`
    /// tags are written from the fields ([`fmt::Display`]), so set those
    /// fields instead.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        debug_assert!(is_tag_name(name), "invalid tag name {name:?}");
        if !is_tag_name(name) {
            return;
        }
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The game the record describes: its moves replayed under `rules` from
    /// `start`. Fails on an illegal move or a move after the end of the game
    /// (never for a record that was read from text).
    pub fn to_game(&self) -> Result<Game, GameError> {
        let mut replay = Replay::new(self.rules, self.start);
        let mut positions = Vec::with_capacity(self.moves.len() + 1);
        positions.push(self.start);
        for &m in &self.moves {
            if let Some(outcome) = replay.outcome() {
                return Err(GameError::GameOver(outcome));
            }
            let next = replay.position.play(m)?;
            replay.advance(m, next);
            positions.push(next);
        }
        Ok(Game::from_checked(
            self.rules,
            positions,
            self.moves.clone(),
        ))
    }

    /// Reads a file of any number of records (none for an empty text),
    /// separated by blank lines. Stops at the first error.
    pub fn parse_all(text: &str) -> Result<Vec<GameRecord>, RecordError> {
        let mut parser = Parser::new(text)?;
        let mut records = Vec::new();
        while let Some(record) = parser.next_game()? {
            records.push(record);
        }
        Ok(records)
    }

    /// Writes records as one file that [`GameRecord::parse_all`] reads back:
    /// each record's text, separated by blank lines.
    pub fn format_all(records: &[GameRecord]) -> String {
        let mut out = String::new();
        for (i, record) in records.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&record.to_string());
        }
        out
    }
}

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

impl fmt::Display for GameRecord {
    /// The canonical text: the tags in order, one a line (the `Rules`,
    /// `Start` and `Result` tags with the values of the fields; a `Rules` or
    /// `Start` tag is added at the end when absent and the field is not the
    /// default), a blank line, then the numbered moves and the result token,
    /// wrapped at [`RECORD_LINE_WIDTH`] columns. Every line ends with a line
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

        let mut line = String::new();
        let mut unit = String::new();
        let mut number = self.start.fullmoves();
        let mut turn = self.start.turn();
        let last = self.moves.len();
        for i in 0..=last {
            unit.clear();
            if let Some(m) = self.moves.get(i) {
                use fmt::Write;
                match turn {
                    Color::Black => write!(unit, "{number}. {m}")?,
                    Color::White if i == 0 => write!(unit, "{number}... {m}")?,
                    Color::White => write!(unit, "{m}")?,
                }
                if turn == Color::White {
                    number = number.saturating_add(1);
                }
                turn = !turn;
            } else {
                unit.push_str(self.result.as_str());
            }
            if !line.is_empty() && line.len() + 1 + unit.len() > RECORD_LINE_WIDTH {
                f.write_str(&line)?;
                f.write_str("\n")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&unit);
        }
        f.write_str(&line)?;
        f.write_str("\n")
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

/// Whether `name` is a tag name: one or more of `A-Z a-z 0-9 _`.
fn is_tag_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

fn is_space(c: char) -> bool {
    c.is_ascii_whitespace()
}

fn trim(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// A game replayed under its rules: the current position and, when the rules
/// limit repetitions, how often each placement has occurred since the last
/// capture. Gives the same outcome as [`Game::outcome`] in constant time per
/// move.
struct Replay {
    rules: Rules,
    position: Position,
    seen: HashMap<(u64, u64, Color), u32>,
}

impl Replay {
    fn new(rules: Rules, start: Position) -> Replay {
        let mut replay = Replay {
            rules,
            position: start,
            seen: HashMap::new(),
        };
        replay.count();
        replay
    }

    fn key(pos: &Position) -> (u64, u64, Color) {
        (
            pos.pieces(Color::Black).bits(),
            pos.pieces(Color::White).bits(),
            pos.turn(),
        )
    }

    /// Counts one more occurrence of the current position.
    fn count(&mut self) {
        if self.rules.repetitions().is_some() {
            let n = self.seen.entry(Replay::key(&self.position)).or_insert(0);
            *n = n.saturating_add(1);
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        outcome_under(self.rules, &self.position, || {
            self.seen
                .get(&Replay::key(&self.position))
                .copied()
                .unwrap_or(1)
        })
    }

    /// Moves on to `next`, the position after the legal move `m`.
    fn advance(&mut self, m: Move, next: Position) {
        if m.is_capture() {
            // Positions before a capture have more pieces: none can recur.
            self.seen.clear();
        }
        self.position = next;
        self.count();
    }
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

        let fail = |kind| RecordError {
            line: result_line,
            kind,
        };
        if let Some(tag) = header.result {
            if tag != result {
                return Err(fail(RecordErrorKind::ResultMismatch { tag, token: result }));
            }
        }
        if let Some(outcome) = movetext.replay.outcome() {
            if GameResult::from_outcome(Some(outcome)) != result {
                return Err(fail(RecordErrorKind::ResultContradicts { result, outcome }));
            }
        }
        Ok(Some(GameRecord {
            tags: header.tags,
            rules: header.rules,
            start: header.start,
            moves: movetext.moves,
            result,
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
                self.result = Some(value.parse().map_err(RecordErrorKind::ResultTag)?);
            }
            _ => {}
        }
        self.names.insert(name.to_string());
        self.tags.push((name.to_string(), value));
        Ok(())
    }
}

/// The movetext of a game as it is read: the moves so far, replayed.
struct Movetext {
    replay: Replay,
    moves: Vec<Move>,
    /// The line of the `{` of an open comment.
    comment: Option<usize>,
    result: Option<GameResult>,
}

impl Movetext {
    fn new(rules: Rules, start: Position) -> Movetext {
        Movetext {
            replay: Replay::new(rules, start),
            moves: Vec::new(),
            comment: None,
            result: None,
        }
    }

    /// Reads one line (number `n`) of movetext.
    fn line(&mut self, line: &str, n: usize) -> Result<(), RecordErrorKind> {
        let mut rest = line;
        loop {
            if self.comment.is_some() {
                match rest.find('}') {
                    Some(i) => {
                        rest = &rest[i + 1..];
                        self.comment = None;
                    }
                    None => return Ok(()),
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
            let end = rest
                .find(|c: char| is_space(c) || c == '{')
                .unwrap_or(rest.len());
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
        self.play(text)
    }

    /// Reads a move and plays it.
    fn play(&mut self, text: &str) -> Result<(), RecordErrorKind> {
        let ply = self.moves.len() + 1;
        let bad = |error| RecordErrorKind::Move {
            ply,
            text: Excerpt::new(text),
            error,
        };
        let written: MoveText = text.parse().map_err(|e| bad(MoveError::Syntax(e)))?;
        if self.moves.len() >= MAX_RECORD_MOVES {
            return Err(RecordErrorKind::TooManyMoves);
        }
        if let Some(outcome) = self.replay.outcome() {
            // A move text that parsed: at most five characters.
            return Err(RecordErrorKind::MoveAfterEnd {
                ply,
                text: text.to_string(),
                outcome,
            });
        }
        let m = self.replay.position.check_move(written).map_err(bad)?;
        let next = self.replay.position.after(m);
        self.replay.advance(m, next);
        self.moves.push(m);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// The replay's constant-time outcome is `Game::outcome` at every
        /// ply, on sparse positions where random play repeats positions.
        #[test]
        fn replay_outcome_is_game_outcome(
            fen in prop::sample::select(vec![
                "6/6/2w3/6/1b4/b5 b",
                "w5/6/6/6/6/5b b 30 4",
                "1w4/6/6/2b3/6/w4b w",
                "ww4/6/6/6/6/4bb b",
                "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b",
            ]),
            rules in prop::sample::select(vec![
                Rules::ICGA,
                Rules::PKU,
                Rules::PURE,
                Rules::new(Some(2), None).unwrap(),
                Rules::new(Some(4), Some(60)).unwrap(),
            ]),
            choices in prop::collection::vec(any::<u8>(), 0..200),
        ) {
            let start: Position = fen.parse().unwrap();
            let mut game = Game::new(start, rules);
            let mut replay = Replay::new(rules, start);
            for c in choices {
                prop_assert_eq!(replay.outcome(), game.outcome(), "{:?}", game.moves());
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[c as usize % moves.len()];
                game.play(m).unwrap();
                replay.advance(m, *game.position());
            }
            prop_assert_eq!(replay.outcome(), game.outcome());
        }
    }

    #[test]
    fn replay_sees_repetitions() {
        let mut game = Game::new(Position::new(), Rules::ICGA);
        let mut replay = Replay::new(Rules::ICGA, Position::new());
        for m in "b2-b3 e5-e4 b3-b2 e4-e5 b2-b3 e5-e4 b3-b2 e4-e5".split_whitespace() {
            assert_eq!(replay.outcome(), None);
            let m = game.play_text(m).unwrap();
            replay.advance(m, *game.position());
        }
        assert!(game.outcome().is_some());
        assert_eq!(replay.outcome(), game.outcome());
    }
}
