//! A match's record file: each finished game written as a record tagged
//! with the match, its opening and its clock ([`game_record`]), and read
//! back ([`read_played`]) as the games a resumed match has already
//! played ([`crate::resume_match`]).
//!
//! The text is the caller's: this module never touches files.

use std::collections::HashMap;
use surakarta::record::RecordErrorKind;
use surakarta::{
    Color, Excerpt, Game, GameRecord, GameResult, MoveText, Position, RecordError, Rules,
};

use crate::player::TimeControl;
use crate::runner::{GameReport, PlayedGame};

/// The tag naming the match (`Event`): the same text in every game of one
/// match.
pub const EVENT_TAG: &str = "Event";
/// The tag with the game's opening: its number in the match's list, from 1.
pub const OPENING_TAG: &str = "Opening";
/// The tag with both players' clock (`2+0.05`), when they had one.
pub const TIME_CONTROL_TAG: &str = "TimeControl";

/// Which match a record file belongs to: what every game in it must show.
#[derive(Clone, Copy, Debug)]
pub struct MatchIdentity<'a> {
    /// The `Event` tag's text.
    pub event: &'a str,
    /// The first player's name, as the `Black` or `White` tag.
    pub first: &'a str,
    /// The rule set of every game.
    pub rules: Rules,
    /// Both players' clock, if any.
    pub time_control: Option<TimeControl>,
    /// The openings, each game's start one of them.
    pub openings: &'a [Position],
}

/// The record of a finished game of the match `event`, as a match writes
/// it: `Event`, `Round` (the finishing order), `Opening`, the players
/// (`Black`, `White`), `TimeControl` if the players had a clock, then the
/// game's own tags; the match decides the result (a forfeit or the ply cap
/// ends a game the rules have not).
#[must_use]
pub fn game_record(
    event: &str,
    report: &GameReport<'_>,
    time_control: Option<TimeControl>,
) -> GameRecord {
    let round = report.number.to_string();
    let opening = (report.opening + 1).to_string();
    let clock = time_control.map(|tc| tc.to_string());
    let mut tags = vec![
        (EVENT_TAG, event),
        ("Round", round.as_str()),
        (OPENING_TAG, opening.as_str()),
        ("Black", report.names[0]),
        ("White", report.names[1]),
    ];
    if let Some(clock) = &clock {
        tags.push((TIME_CONTROL_TAG, clock));
    }
    let finished = report.finished;
    let mut record = GameRecord::from_game_tagged(&finished.game, &tags);
    record.set_result(finished.end.result(), &finished.end.reason());
    record
}

/// The games of a record file read back by [`read_played`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The games, in the file's order.
    pub games: Vec<PlayedGame>,
    /// The length of the text up to the end of the last whole record (and
    /// the blank lines after it): the rest is an unfinished record, cut
    /// off when the match was stopped while writing it.
    pub whole_len: usize,
}

/// Why a record file is not one of this match.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayedError {
    /// A record (not the last) cannot be read.
    #[error("game {game} of the record file cannot be read: {error}")]
    Record {
        /// The game's place in the file, from 1.
        game: usize,
        /// What is wrong with it.
        error: RecordError,
    },
    /// A record differs from what the match would have written.
    #[error("game {game} of the record file is not of this match: {why}")]
    OtherMatch {
        /// The game's place in the file, from 1.
        game: usize,
        /// What differs.
        why: String,
    },
    /// Text follows the last game that is not a record cut off while it
    /// was written (a note, or records glued to it).
    #[error(
        "line {line} of the record file: text after the end of game {game}, which a match never writes there"
    )]
    TextAfterGame {
        /// The game it follows, from 1.
        game: usize,
        /// Where it begins, from 1.
        line: usize,
    },
    /// A game of the match is in the file twice: the same opening with the
    /// same colours.
    #[error(
        "game {game} of the record file is opening {opening} with the first player as {first_color} again, as game {earlier} was"
    )]
    PlayedTwice {
        /// The game's place in the file, from 1.
        game: usize,
        /// The earlier game of the same opening and colours, from 1.
        earlier: usize,
        /// The opening's number, from 1.
        opening: usize,
        /// The first player's colour.
        first_color: Color,
    },
}

/// The games of `text`, a record file written by the match `identity`
/// (see [`game_record`]), for [`crate::resume_match`]. The text must be
/// whole records and at most one record cut off at its end, nothing else.
/// Each whole record must carry the match's event, rules and clock, the
/// first player as Black or White, an opening of the match and start from
/// it, and a result; no two may be the same game (opening and colours). A
/// last record that is the beginning of one as the match writes it (its
/// tags, then numbered moves, no result) is taken as cut off while it was
/// written, not as an error ([`Played::whole_len`] ends before it).
///
/// # Errors
///
/// [`PlayedError`] names the first record that cannot be read, belongs to
/// another match or repeats a game, or the line where text that is no
/// record follows the last game. Line numbers count in the whole text.
///
/// # Examples
///
/// ```
/// use surakarta::{Color, Rules};
/// use surakarta_match::openings;
/// use surakarta_match::record_file::{read_played, MatchIdentity};
///
/// let openings = openings::from_start(1, 0, 1);
/// let text = "[Event \"m\"]\n[Round \"1\"]\n[Opening \"1\"]\n[Black \"a\"]\n[White \"b\"]\n[Rules \"icga\"]\n\n1. b2-b3 1-0\n\n[Event \"m\"]\n[Ro";
/// let identity = MatchIdentity { event: "m", first: "b", rules: Rules::ICGA, time_control: None, openings: &openings };
/// let played = read_played(text, &identity)?;
/// assert_eq!(played.games.len(), 1);
/// assert_eq!(played.games[0].first_color, Color::White);
/// assert_eq!(played.games[0].winner, Some(Color::Black));
/// assert_eq!(&text[played.whole_len..], "[Event \"m\"]\n[Ro"); // cut off
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_played(text: &str, identity: &MatchIdentity<'_>) -> Result<Played, PlayedError> {
    let blocks = split_records(text);
    let before = blocks.first().map_or(text, |&(start, _)| &text[..start]);
    if !before.trim().is_empty() {
        return Err(PlayedError::OtherMatch {
            game: 1,
            why: "the file does not start with a record".to_string(),
        });
    }
    // The first line of every record of this match.
    let event_line = GameRecord::from_game_tagged(
        &Game::new(Position::new(), identity.rules),
        &[(EVENT_TAG, identity.event)],
    )
    .to_string()
    .lines()
    .next()
    .unwrap_or_default()
    .to_string();
    let mut games = Vec::with_capacity(blocks.len());
    // The game of each opening and first colour, from 1.
    let mut seen = HashMap::new();
    let mut whole_len = 0;
    // Lines of the text before the block.
    let (mut lines_before, mut counted) = (0, 0);
    for (i, &(start, end)) in blocks.iter().enumerate() {
        let game = i + 1;
        lines_before += text[counted..start].matches('\n').count();
        counted = start;
        let block = &text[start..end];
        let parsed = block.parse::<GameRecord>();
        let whole = matches!(&parsed, Ok(r) if r.result != GameResult::Unfinished);
        if !whole && game == blocks.len() && is_cut_off(block, &event_line) {
            break;
        }
        let record = parsed.map_err(|mut error| {
            error.line += lines_before;
            match error.kind {
                RecordErrorKind::ExtraGame => PlayedError::TextAfterGame {
                    game,
                    line: error.line,
                },
                _ => PlayedError::Record { game, error },
            }
        })?;
        let other = |why: String| PlayedError::OtherMatch { game, why };
        let played = played_game(&record, identity).map_err(other)?;
        if let Some(&earlier) = seen.get(&(played.opening, played.first_color)) {
            return Err(PlayedError::PlayedTwice {
                game,
                earlier,
                opening: played.opening + 1,
                first_color: played.first_color,
            });
        }
        seen.insert((played.opening, played.first_color), game);
        games.push(played);
        whole_len = end;
    }
    Ok(Played { games, whole_len })
}

/// Whether `block`, the last of the file and not a whole record, is the
/// beginning of a record of this match as [`game_record`] writes it, cut
/// off while it was written: tag lines from `event_line` on (the last
/// maybe cut), then, after one blank line, move numbers and moves (the
/// last maybe cut), with no result and no other line.
fn is_cut_off(block: &str, event_line: &str) -> bool {
    if !begins_as(block, event_line) {
        return false;
    }
    let (tags, moves) = match block.split_once("\n\n") {
        Some((tags, moves)) => (tags, Some(moves)),
        None => (block, None),
    };
    let mut tag_lines = tags.split('\n').peekable();
    while let Some(line) = tag_lines.next() {
        let cut = tag_lines.peek().is_none() && moves.is_none();
        let tag = line.starts_with('[') && (cut || line.ends_with("\"]"));
        if !(tag || cut && line.is_empty()) {
            return false;
        }
    }
    let Some(moves) = moves else {
        return true;
    };
    if moves.starts_with('\n') || moves.contains("\n\n") {
        return false;
    }
    let mut words = moves.split_whitespace().peekable();
    while let Some(word) = words.next() {
        let cut = words.peek().is_none() && !moves.ends_with(char::is_whitespace);
        let whole = is_move_number(word) || word.parse::<MoveText>().is_ok();
        if !(whole || cut && begins_token(word)) {
            return false;
        }
    }
    true
}

/// Whether `word` is a move number: `12.` or `12...`.
fn is_move_number(word: &str) -> bool {
    let digits = word.trim_end_matches('.');
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && matches!(word.len() - digits.len(), 1 | 3)
}

/// Whether `word` is the beginning of a move number, of a move (`b2-b3`,
/// `b2xe5`) or of a result token other than the whole token.
fn begins_token(word: &str) -> bool {
    let number = {
        let digits = word.trim_end_matches('.');
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    };
    let shape: [&[u8]; 5] = [b"abcdef", b"123456", b"-x", b"abcdef", b"123456"];
    let step = word.len() <= shape.len()
        && word
            .bytes()
            .zip(shape)
            .all(|(b, allowed)| allowed.contains(&b));
    let result = ["1-0", "0-1", "1/2-1/2"]
        .iter()
        .any(|r| r.starts_with(word) && *r != word);
    number || step || result
}

/// Whether `block` begins as this match's records begin: with
/// `event_line`, or with a part of it if the block is shorter.
fn begins_as(block: &str, event_line: &str) -> bool {
    match block.split_once('\n') {
        Some((first, _)) => first == event_line,
        None => event_line.starts_with(block),
    }
}

/// The game a record of the match `identity` shows, or what differs.
fn played_game(record: &GameRecord, identity: &MatchIdentity<'_>) -> Result<PlayedGame, String> {
    let tag = |name: &str| record.tag(name).unwrap_or("");
    if tag(EVENT_TAG) != identity.event {
        return Err(format!(
            "its event is {}, this match's {}",
            Excerpt::new(tag(EVENT_TAG)),
            Excerpt::new(identity.event)
        ));
    }
    if record.rules != identity.rules {
        return Err(format!(
            "its rules are {}, this match's {}",
            record.rules, identity.rules
        ));
    }
    let clock = identity.time_control.map(|tc| tc.to_string());
    if record.tag(TIME_CONTROL_TAG) != clock.as_deref() {
        return Err(format!(
            "its clock is {:#}, this match's {}",
            Excerpt::new(record.tag(TIME_CONTROL_TAG).unwrap_or("none")),
            clock.as_deref().unwrap_or("none")
        ));
    }
    let first_color = if tag("Black") == identity.first {
        Color::Black
    } else if tag("White") == identity.first {
        Color::White
    } else {
        return Err(format!(
            "{} plays neither side",
            Excerpt::new(identity.first)
        ));
    };
    let opening = tag(OPENING_TAG)
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=identity.openings.len()).contains(n))
        .ok_or_else(|| {
            format!(
                "its opening {} is not one of this match's 1 to {}",
                Excerpt::new(tag(OPENING_TAG)),
                identity.openings.len()
            )
        })?
        - 1;
    if record.start != identity.openings[opening] {
        return Err(format!(
            "it starts from {}, this match's opening {} is {}",
            record.start,
            opening + 1,
            identity.openings[opening]
        ));
    }
    let winner = match record.result {
        GameResult::BlackWins => Some(Color::Black),
        GameResult::WhiteWins => Some(Color::White),
        GameResult::Draw => None,
        GameResult::Unfinished => return Err("it has no result".to_string()),
    };
    Ok(PlayedGame {
        opening,
        first_color,
        winner,
    })
}

/// The byte ranges of the records in `text`: each starts at a line
/// beginning with `[Event ` at the start of the text or after a blank
/// line, and runs to the next one (blank lines after it included).
fn split_records(text: &str) -> Vec<(usize, usize)> {
    let mut starts = Vec::new();
    let mut offset = 0;
    let mut after_blank = true;
    for line in text.split_inclusive('\n') {
        if after_blank && line.starts_with("[Event ") {
            starts.push(offset);
        }
        after_blank = line.trim().is_empty();
        offset += line.len();
    }
    let mut blocks: Vec<(usize, usize)> = starts.windows(2).map(|w| (w[0], w[1])).collect();
    if let Some(&last) = starts.last() {
        blocks.push((last, text.len()));
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_split_at_event_lines_after_blank_lines() {
        let text = "[Event \"a\"]\n\n1. b2-b3 *\n\n[Event \"b\"]\n[Event \"c\"]\n\n1. b2-b3 *\n";
        let blocks = split_records(text);
        assert_eq!(blocks.len(), 2);
        assert!(text[blocks[0].0..blocks[0].1].ends_with("*\n\n"));
        assert_eq!(blocks[1].1, text.len());
        assert!(split_records("").is_empty());
        assert!(split_records("no record\n").is_empty());
    }

    #[test]
    fn only_the_beginning_of_a_record_is_cut_off() {
        let event = "[Event \"m\"]";
        for cut in [
            "[Ev",
            "[Event \"m\"]\n[Ro",
            "[Event \"m\"]\n[Round \"1\"]\n",
            "[Event \"m\"]\n\n",
            "[Event \"m\"]\n\n1. b2-b3 e5-e",
            "[Event \"m\"]\n\n1. b2-b3 e5-e4\n2.",
            "[Event \"m\"]\n\n1. b2-b3 1/2-1",
        ] {
            assert!(is_cut_off(cut, event), "{cut:?}");
        }
        for not in [
            "[Event \"x\"]\n\n",
            "[Event \"m\"]\nnote\n",
            "[Event \"m\"]\n\n1. b2-b3 1-0\n\nnote\n",
            "[Event \"m\"]\n\n1. b2-b3 e5-e4\n\n",
            "[Event \"m\"]\n\n\n1. b2-b3",
            "[Event \"m\"]\n\n1. b2-b3 note ",
            "[Event \"m\"]\n\n1. b2-b3 *",
            "[Event \"m\"]\n\n1. b2-b3 1-0 ",
        ] {
            assert!(!is_cut_off(not, event), "{not:?}");
        }
    }
}
