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
//! A move may be followed by variations in parentheses, PGN's recursive
//! annotation variations: `1. b2-b3 (1. b2-c3 e5-e4) e5-e4` gives `b2-c3
//! e5-e4` as an alternative to `b2-b3`, played from the position before it
//! ([`Variation`], kept in the move's [`MoveAnnotation`]). Variations nest,
//! and carry marks, comments and variations of their own.
//!
//! Reading never panics and is bounded: at most [`MAX_RECORD_TEXT`] bytes of
//! text, [`MAX_RECORD_GAMES`] games, [`MAX_RECORD_TAGS`] tags and
//! [`MAX_RECORD_MOVES`] moves a game (variations included) and variations
//! nested at most [`MAX_VARIATION_DEPTH`] deep; it takes time linear in the
//! text, and the records it makes take memory a small multiple of the text
//! (`docs/notation.md`, "Reading"); neither reading nor writing recurses.
//! Writing is canonical, and reading what was written gives back an equal
//! record; [`GameRecord::to_text`] and [`GameRecord::format_all`] refuse a
//! record the reader would refuse ([`RecordWriteError`]).
//!
//! The types are here; the work is in three submodules: `parse` (text to
//! tags and movetext tokens: [`GameRecord::parse_all`] and `FromStr`),
//! `replay` (the moves checked against the rules, the result checked against
//! the end of the game: [`GameRecord::to_game`]) and `write` (the canonical
//! text: `Display` and [`GameRecord::format_all`]).

mod parse;
mod replay;
mod write;

pub use parse::Records;

use crate::color::Color;
use crate::excerpt::Excerpt;
use crate::game::Game;
use crate::moves::Move;
use crate::notation::MoveText;
use crate::position::{MoveError, ParsePositionError, Position};
use crate::rules::{Outcome, ParseRulesError, Rules};
use core::fmt;
use core::str::FromStr;

/// Longest text [`GameRecord::parse_all`] and `GameRecord::from_str` read
/// (16 MiB); anything longer is rejected unread.
pub const MAX_RECORD_TEXT: usize = 16 * 1024 * 1024;

/// Most moves (plies) one game may have, the moves of its variations
/// included.
pub const MAX_RECORD_MOVES: usize = 100_000;

/// Most games one text may hold: a file of 16 MiB holds fewer than 100,000
/// real games (a tagged game takes more than 168 bytes), and the limit
/// keeps a file of empty games (`*` lines) from taking more memory than a
/// small multiple of its size.
pub const MAX_RECORD_GAMES: usize = 100_000;

/// Deepest nesting of variations one game may have (a variation of the
/// main line is at depth 1). The board's JSON of a game
/// (`surakarta_board::records_json`) nests three levels a variation, and
/// must stay within JSON readers' usual limit of 128 levels.
pub const MAX_VARIATION_DEPTH: usize = 32;

/// Most tags one game may have.
pub const MAX_RECORD_TAGS: usize = 1_000;

/// Longest comment, in bytes, one move (or the start of the movetext) may
/// carry, after its whitespace is collapsed.
pub const MAX_COMMENT_LEN: usize = 4096;

/// The width movetext lines are wrapped at when a record is written.
pub const RECORD_LINE_WIDTH: usize = 80;

/// The result field of a record.
///
/// # Examples
///
/// ```
/// use surakarta::{Color, GameResult};
///
/// assert_eq!("1-0".parse::<GameResult>(), Ok(GameResult::BlackWins));
/// assert_eq!(GameResult::from_winner(Some(Color::White)).as_str(), "0-1");
/// assert_eq!(GameResult::from_outcome(None), GameResult::Unfinished);
/// assert!("2-0".parse::<GameResult>().is_err());
/// ```
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
    #[must_use]
    pub const fn from_winner(winner: Option<Color>) -> GameResult {
        match winner {
            Some(Color::Black) => GameResult::BlackWins,
            Some(Color::White) => GameResult::WhiteWins,
            None => GameResult::Draw,
        }
    }

    /// The result of a game that ended with `o` (`None`: not over, `*`).
    #[must_use]
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
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::BlackWins => "1-0",
            GameResult::WhiteWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }
}

/// Why a result's text could not be read: it is not one of the four
/// results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("invalid result: expected 1-0, 0-1, 1/2-1/2 or *")]
pub struct ParseGameResultError;

impl FromStr for GameResult {
    type Err = ParseGameResultError;

    /// Exactly `1-0`, `0-1`, `1/2-1/2` or `*`.
    fn from_str(s: &str) -> Result<GameResult, ParseGameResultError> {
        GameResult::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or(ParseGameResultError)
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
    /// The text holds more games than the limit (this many: at most
    /// [`MAX_RECORD_GAMES`], or fewer where the reader asked for fewer);
    /// reported on the line of the first game over it.
    #[error("more than {0} games in one text")]
    TooManyGames(usize),
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
    /// The `Result` tag's value (this) is not a result.
    #[error("Result tag: invalid result {0}: expected 1-0, 0-1, 1/2-1/2 or *")]
    ResultTag(Excerpt),
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
        text: MoveText,
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
    /// A comment is longer than [`MAX_COMMENT_LEN`] bytes.
    #[error("comment longer than {MAX_COMMENT_LEN} bytes")]
    CommentTooLong,
    /// A move is followed by `!` and `?` characters that are not one of the
    /// six marks `!`, `?`, `!!`, `??`, `!?`, `?!`.
    #[error("ply {ply}: invalid move mark {text}: expected !, ?, !!, ??, !? or ?!")]
    BadMark {
        /// Which move of the game, counting from 1.
        ply: usize,
        /// The mark as written.
        text: Excerpt,
    },
    /// A `(` opens a variation where there is no move for it to replace
    /// (before the first move of a line).
    #[error("a variation '(' must follow the move it replaces")]
    VariationWithoutMove,
    /// A variation has no move.
    #[error("empty variation '()'")]
    EmptyVariation,
    /// A `)` closes no variation.
    #[error("')' closes no variation")]
    UnopenedVariation,
    /// A variation is still open at the result token or at the end of the
    /// text.
    #[error("variation opened with '(' is never closed")]
    UnterminatedVariation,
    /// Variations nest deeper than [`MAX_VARIATION_DEPTH`].
    #[error("variations nested deeper than {MAX_VARIATION_DEPTH}")]
    VariationTooDeep,
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

/// Why a record cannot be written: its text would not read back
/// ([`GameRecord::to_text`], [`GameRecord::format_all`]). `kind` is what the
/// reader would refuse: too many games, tags or moves, a tag name that is
/// not one or given twice, a comment too long, variations nested too deep
/// or empty, or a text over [`MAX_RECORD_TEXT`].
///
/// # Examples
///
/// ```
/// use surakarta::{GameRecord, RecordErrorKind};
///
/// let mut record: GameRecord = "1. b2-b3 *".parse()?;
/// record.tags.push(("Bad\"]".to_string(), "x".to_string()));
/// let error = record.to_text().unwrap_err();
/// assert!(matches!(error.kind, RecordErrorKind::TagName(_)));
/// assert_eq!(error.to_string(), r#"game 1: invalid tag name "Bad\"]": expected letters, digits and '_'"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game {game}: {kind}")]
pub struct RecordWriteError {
    /// Which game, counting from 1.
    pub game: usize,
    /// What the reader would refuse.
    pub kind: RecordErrorKind,
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
    /// The comment before the first move, if any.
    pub intro: Option<String>,
    /// The marks and comments of the moves: entry `i` belongs to `moves[i]`.
    /// It may be shorter than `moves` (the moves after its end carry
    /// nothing); a record read from text has no empty entry at its end, so
    /// a record without marks and comments has none at all.
    pub annotations: Vec<MoveAnnotation>,
}

/// A move mark, written directly after the move (`b2-b3?`).
///
/// # Examples
///
/// ```
/// use surakarta::Mark;
///
/// assert_eq!("??".parse::<Mark>(), Ok(Mark::Blunder));
/// assert_eq!(Mark::Dubious.as_str(), "?!");
/// assert!("?!?".parse::<Mark>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mark {
    /// `!`: a good move.
    Good,
    /// `?`: a mistake.
    Mistake,
    /// `!!`: a brilliant move.
    Brilliant,
    /// `??`: a blunder.
    Blunder,
    /// `!?`: an interesting move.
    Interesting,
    /// `?!`: a dubious move (an inaccuracy).
    Dubious,
}

impl Mark {
    /// All six marks.
    pub const ALL: [Mark; 6] = [
        Mark::Good,
        Mark::Mistake,
        Mark::Brilliant,
        Mark::Blunder,
        Mark::Interesting,
        Mark::Dubious,
    ];

    /// The mark as text: `!`, `?`, `!!`, `??`, `!?` or `?!`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Mark::Good => "!",
            Mark::Mistake => "?",
            Mark::Brilliant => "!!",
            Mark::Blunder => "??",
            Mark::Interesting => "!?",
            Mark::Dubious => "?!",
        }
    }
}

/// Why a mark's text could not be read: it is not one of the six marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("invalid move mark: expected !, ?, !!, ??, !? or ?!")]
pub struct ParseMarkError;

impl FromStr for Mark {
    type Err = ParseMarkError;

    /// Exactly `!`, `?`, `!!`, `??`, `!?` or `?!`.
    fn from_str(s: &str) -> Result<Mark, ParseMarkError> {
        Mark::ALL
            .into_iter()
            .find(|m| m.as_str() == s)
            .ok_or(ParseMarkError)
    }
}

impl fmt::Display for Mark {
    /// `!`, `?`, `!!`, `??`, `!?` or `?!`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a record says about one move: a mark and a comment (`{ … }`), each
/// optional.
///
/// Comments are kept with their whitespace runs collapsed to single spaces
/// and without spaces at either end; an empty comment is none. Several
/// comments after one move are read as one, joined by a space. A comment
/// cannot hold `}`: when a record is written, a `}` in a comment is written
/// as `)`.
///
/// # Examples
///
/// ```
/// use surakarta::{GameRecord, Mark};
///
/// let record: GameRecord = "{ A short game. } 1. b2-b3? { better b2-c3 } e5-e4!! *".parse()?;
/// assert_eq!(record.intro.as_deref(), Some("A short game."));
/// assert_eq!(record.annotations[0].mark, Some(Mark::Mistake));
/// assert_eq!(record.annotations[0].comment.as_deref(), Some("better b2-c3"));
/// assert_eq!(record.annotations[1].mark, Some(Mark::Brilliant));
/// assert_eq!(record.to_string(), "{ A short game. } 1. b2-b3? { better b2-c3 } 1... e5-e4!! *\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct MoveAnnotation {
    /// The mark written after the move.
    pub mark: Option<Mark>,
    /// The comment after the move.
    pub comment: Option<String>,
    /// Alternatives to the move, each played from the position before it,
    /// written in parentheses after the move and its comment.
    pub variations: Vec<Variation>,
}

impl MoveAnnotation {
    /// Whether the annotation carries no mark, comment or variation.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.mark.is_none() && self.comment.is_none() && self.variations.is_empty()
    }
}

/// A variation: moves played instead of a move of the line it belongs to,
/// from the position before that move, with marks, comments and variations
/// of their own, as in PGN's `( … )`.
///
/// # Examples
///
/// ```
/// use surakarta::{GameRecord, Mark};
///
/// let text = "1. b2-b3 ( { or } 1. b2-c3? e5-e4 ( 1... f5-e4 ) ) 1... e5-e4 *";
/// let record: GameRecord = text.parse()?;
/// assert_eq!(record.moves.len(), 2);
/// let variation = &record.annotations[0].variations[0];
/// assert_eq!(variation.intro.as_deref(), Some("or"));
/// assert_eq!(variation.moves[0].to_string(), "b2-c3");
/// assert_eq!(variation.annotations[0].mark, Some(Mark::Mistake));
/// // A variation of the variation: an alternative to its e5-e4.
/// assert_eq!(variation.annotations[1].variations[0].moves[0].to_string(), "f5-e4");
/// assert_eq!(record.to_string(), format!("{text}\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Variation {
    /// The comment before the variation's first move, if any.
    pub intro: Option<String>,
    /// The moves, legal in sequence from the position before the move the
    /// variation replaces (checked when a record is read).
    pub moves: Vec<Move>,
    /// The marks, comments and variations of the moves: entry `i` belongs
    /// to `moves[i]`, as in [`GameRecord::annotations`].
    pub annotations: Vec<MoveAnnotation>,
}

impl GameRecord {
    /// The record of a game: tags `Rules`, `Start`, `Result` and, when the
    /// game is over, `Termination` (e.g. `no pieces left`); the result is the
    /// game's outcome, `*` while it goes on.
    #[must_use]
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
            intro: None,
            annotations: Vec::new(),
        }
    }

    /// The record of `game` as [`GameRecord::from_game`] makes it, with the
    /// `leading` tags (such as `Event`, `Black`, `White`) written before the
    /// game's own. Each name must be a valid tag name (see
    /// [`GameRecord::set_tag`]).
    #[must_use]
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

    /// The annotation of move `i` (counting from 0): its mark and comment,
    /// empty when it has none.
    #[must_use]
    pub fn annotation(&self, i: usize) -> MoveAnnotation {
        self.annotations.get(i).cloned().unwrap_or_default()
    }

    /// Sets the annotation of move `i` (counting from 0), growing
    /// `annotations` as needed; an index past the moves is ignored. Empty
    /// entries at the end are removed, as when a record is read.
    pub fn set_annotation(&mut self, i: usize, annotation: MoveAnnotation) {
        if i >= self.moves.len() {
            return;
        }
        if self.annotations.len() <= i {
            self.annotations.resize(i + 1, MoveAnnotation::default());
        }
        self.annotations[i] = annotation;
        while self
            .annotations
            .last()
            .is_some_and(MoveAnnotation::is_empty)
        {
            self.annotations.pop();
        }
    }

    /// The value of the tag `name` (case-sensitive), if present.
    #[must_use]
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
}

/// Whether `name` is a tag name: one or more of `A-Z a-z 0-9 _`.
///
/// # Examples
///
/// ```
/// use surakarta::record::is_tag_name;
///
/// assert!(is_tag_name("Event_2"));
/// assert!(!is_tag_name(""));
/// assert!(!is_tag_name("X\"]\n[Start"));
/// ```
#[must_use]
pub fn is_tag_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}
