//! Game records as the board page reads and writes them: a record's games
//! as JSON trees of moves with their marks, comments and variations, and a
//! game of that shape back as record text (`docs/notation.md`).

use serde_json::{json, Map, Value as Json};
use surakarta::record::{is_tag_name, MAX_VARIATION_DEPTH};
use surakarta::{
    Excerpt, GameRecord, Mark, MoveAnnotation, MoveText, RecordError, RecordWriteError,
};

/// Most games [`records_json`] reads from one text (the page's record
/// box, the server's `/api/record`): a text of real games that fits the
/// server's 256 KiB body holds fewer; a text of empty games (`*` lines) is
/// refused before it makes an answer a hundred times its size.
pub const MAX_PAGE_GAMES: usize = 2_000;

/// How deep JSON readers nest (serde_json's recursion limit, which the
/// server and the WebAssembly board read games with): the JSON of a game
/// must stay within it.
pub const JSON_NESTING_LIMIT: usize = 128;

/// How deep the JSON of a game whose variations nest `depth` deep nests:
/// the `{"games": [...]}` answer and its game (3 levels), the main line
/// and its nodes (2), each variation's `variations` array, the line and
/// its nodes (3), and the innermost node's empty `variations` array (1).
#[must_use]
pub const fn json_nesting(depth: usize) -> usize {
    6 + 3 * depth
}

// The deepest game a record may hold reads back from its JSON.
const _: () = assert!(json_nesting(MAX_VARIATION_DEPTH) <= JSON_NESTING_LIMIT);

/// What is wrong with a game given as JSON to [`record_text`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordJsonError {
    /// A field is missing or of the wrong kind.
    #[error("{field}: {problem}")]
    Field {
        /// Where: `rules`, `line[3].move`, `line[0].variations[1][2].mark`, …
        field: String,
        /// What is wrong.
        problem: String,
    },
    /// The text given is not JSON ([`record_text_of_json`]).
    #[error("not JSON ({0})")]
    NotJson(String),
    /// The game's text does not read as a record (an illegal move, a bad
    /// position or rule set, a result the end of the game contradicts, …).
    #[error("{0}")]
    Record(#[from] RecordError),
    /// The game cannot be written as a record that reads back (too many
    /// tags, a text over the record size limit, …).
    #[error("{}", .0.kind)]
    Write(#[from] RecordWriteError),
}

/// The games of a record text (at most [`MAX_PAGE_GAMES`]; otherwise as
/// `GameRecord::parse_all` reads them) as `{"games": [{"tags", "rules", "start", "result", "intro",
/// "line"}]}`: `tags` an object of every tag, `rules` and `start` the rule
/// set and the start position (FEN), `result` the result token, `intro` the
/// comment before the first move (or null), and `line` the main line, an
/// array of nodes `{"move", "mark", "comment", "variations"}`. A node's
/// `variations` are lines (arrays of nodes) played instead of its move,
/// from the position before it; the first node of a variation may carry
/// `"intro"`, the comment after the variation's `(`.
///
/// ```
/// let text = "[Event \"Club\"]\n\n1. b2-b3? { better b2-c3 } ( 1. b2-c3 ) 1... e5-e4 *\n";
/// let games = surakarta_board::records_json(text)?;
/// let game = &games["games"][0];
/// assert_eq!(game["tags"]["Event"], "Club");
/// assert_eq!(game["line"][0]["move"], "b2-b3");
/// assert_eq!(game["line"][0]["mark"], "?");
/// assert_eq!(game["line"][0]["variations"][0][0]["move"], "b2-c3");
/// // Written back (with its Rules, Start and Result tags), it reads as the same game.
/// let again = surakarta_board::record_text(game)?;
/// assert!(again.starts_with("[Event \"Club\"]\n[Rules \"icga\"]\n"));
/// assert_eq!(surakarta_board::records_json(&again)?["games"][0]["line"], game["line"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn records_json(text: &str) -> Result<Json, RecordError> {
    let games = GameRecord::records(text)
        .max_games(MAX_PAGE_GAMES)
        .map(|record| record.map(|record| game_json(&record)))
        .collect::<Result<Vec<Json>, RecordError>>()?;
    Ok(json!({ "games": games }))
}

/// One record as the JSON of [`records_json`].
fn game_json(record: &GameRecord) -> Json {
    let tags: Map<String, Json> = record
        .tags
        .iter()
        .map(|(name, value)| (name.clone(), Json::String(value.clone())))
        .collect();
    json!({
        "tags": tags,
        "rules": record.rules.to_string(),
        "start": record.start.to_string(),
        "result": record.result.as_str(),
        "intro": record.intro,
        "line": line_json(&record.moves, &record.annotations, None),
    })
}

/// A line of moves as an array of nodes; `intro` goes on its first node.
/// Recursion follows the record's nesting, at most
/// [`MAX_VARIATION_DEPTH`] deep in a record that was read.
fn line_json(
    moves: &[surakarta::Move],
    annotations: &[MoveAnnotation],
    intro: Option<&str>,
) -> Json {
    let nodes: Vec<Json> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let a = annotations.get(i);
            let variations: Vec<Json> = a
                .map(|a| a.variations.as_slice())
                .unwrap_or_default()
                .iter()
                .map(|v| line_json(&v.moves, &v.annotations, v.intro.as_deref()))
                .collect();
            let mut node = json!({
                "move": m.to_string(),
                "mark": a.and_then(|a| a.mark).map(Mark::as_str),
                "comment": a.and_then(|a| a.comment.as_deref()),
                "variations": variations,
            });
            if i == 0 {
                if let Some(intro) = intro {
                    node["intro"] = Json::String(intro.to_string());
                }
            }
            node
        })
        .collect();
    Json::Array(nodes)
}

/// [`record_text`] of a game given as JSON text, as the server's
/// `/api/record/text` and the WebAssembly board read it: text that is not
/// JSON (or nests deeper than [`JSON_NESTING_LIMIT`]) is an error, and
/// every game [`records_json`] gives reads.
///
/// ```
/// let text = surakarta_board::record_text_of_json(r#"{"line": [{"move": "b2-b3"}]}"#)?;
/// assert!(text.ends_with("\n\n1. b2-b3 *\n"), "{text}");
/// assert!(surakarta_board::record_text_of_json("{").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn record_text_of_json(game: &str) -> Result<String, RecordJsonError> {
    let game: Json =
        serde_json::from_str(game).map_err(|e| RecordJsonError::NotJson(e.to_string()))?;
    record_text(&game)
}

/// A game given as the JSON of [`records_json`] (`tags` optional, `rules`
/// default `icga`, `start` default the start position, `result` default
/// `*`, `intro` optional, `line` the moves) as canonical record text, every
/// move checked legal, variations included. The text has the tags given,
/// then `Rules`, `Start` and `Result` with the values of the fields. A field of the wrong kind, a
/// tag name that is not one (letters, digits and `_`), a move or mark that
/// is not one, nesting deeper than records allow, or a game that does not
/// read as a record (or could not be written as one) is an error naming it.
///
/// ```
/// use serde_json::json;
///
/// let game = json!({"line": [{"move": "b2-b3", "mark": "!"}, {"move": "e5-e4"}]});
/// let text = surakarta_board::record_text(&game)?;
/// assert!(text.ends_with("\n\n1. b2-b3! e5-e4 *\n"), "{text}");
/// let illegal = json!({"line": [{"move": "b2-b5"}]});
/// assert!(surakarta_board::record_text(&illegal).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn record_text(game: &Json) -> Result<String, RecordJsonError> {
    let field = |field: &str, problem: &str| RecordJsonError::Field {
        field: field.to_string(),
        problem: problem.to_string(),
    };
    let object = game
        .as_object()
        .ok_or_else(|| field("game", "expected an object"))?;
    let text_of = |name: &str, default: &str| -> Result<String, RecordJsonError> {
        match object.get(name) {
            None | Some(Json::Null) => Ok(default.to_string()),
            Some(Json::String(s)) => Ok(s.clone()),
            Some(_) => Err(field(name, "expected a string")),
        }
    };
    let rules = text_of("rules", "icga")?;
    let start = text_of("start", "")?;
    let result = text_of("result", "*")?;
    let mut out = String::new();
    if let Some(tags) = object.get("tags").filter(|t| !t.is_null()) {
        let tags = tags
            .as_object()
            .ok_or_else(|| field("tags", "expected an object of names and values"))?;
        for (name, value) in tags {
            if matches!(name.as_str(), "Rules" | "Start" | "Result") {
                continue;
            }
            if !is_tag_name(name) {
                return Err(field(
                    &format!("tags.{}", Excerpt::new(name)),
                    "a tag name is letters, digits and '_'",
                ));
            }
            let value = value
                .as_str()
                .ok_or_else(|| field(&format!("tags.{name}"), "expected a string"))?;
            tag_line(&mut out, name, value);
        }
    }
    tag_line(&mut out, "Rules", &rules);
    if !start.is_empty() {
        tag_line(&mut out, "Start", &start);
    }
    tag_line(&mut out, "Result", &result);
    out.push('\n');
    if let Some(intro) = object.get("intro").filter(|i| !i.is_null()) {
        let intro = intro
            .as_str()
            .ok_or_else(|| field("intro", "expected a string"))?;
        comment(&mut out, intro);
    }
    let line = object.get("line").unwrap_or(&Json::Null);
    if !line.is_null() {
        movetext(&mut out, line, "line", 0)?;
    }
    out.push_str(&result);
    out.push('\n');
    let record: GameRecord = out.parse()?;
    Ok(record.to_text()?)
}

/// Appends `[name "value"]` (a checked name), the value escaped as records
/// escape tag values.
fn tag_line(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for ch in value.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

/// Appends a comment, a `}` in it written as `)` (as records write them).
fn comment(out: &mut String, text: &str) {
    out.push_str("{ ");
    out.push_str(&text.replace('}', ")"));
    out.push_str(" } ");
}

/// Appends the moves of `line` (at `path`, `depth` variations deep), with
/// their marks, comments and variations, as movetext for the record's
/// reader to check.
fn movetext(
    out: &mut String,
    line: &Json,
    path: &str,
    depth: usize,
) -> Result<(), RecordJsonError> {
    let field = |field: String, problem: &str| RecordJsonError::Field {
        field,
        problem: problem.to_string(),
    };
    if depth > MAX_VARIATION_DEPTH {
        return Err(field(
            path.to_string(),
            &format!("variations nested deeper than {MAX_VARIATION_DEPTH}"),
        ));
    }
    let nodes = line
        .as_array()
        .ok_or_else(|| field(path.to_string(), "expected an array of moves"))?;
    for (i, node) in nodes.iter().enumerate() {
        let at = format!("{path}[{i}]");
        let node = node
            .as_object()
            .ok_or_else(|| field(at.clone(), "expected an object with a move"))?;
        if i == 0 && depth > 0 {
            if let Some(intro) = node.get("intro").and_then(Json::as_str) {
                comment(out, intro);
            }
        }
        let m = node
            .get("move")
            .and_then(Json::as_str)
            .ok_or_else(|| field(format!("{at}.move"), "expected a move text"))?;
        if m.parse::<MoveText>().is_err() {
            return Err(field(format!("{at}.move"), &format!("{m:?} is not a move")));
        }
        out.push_str(m);
        match node.get("mark") {
            None | Some(Json::Null) => {}
            Some(Json::String(mark)) if mark.parse::<Mark>().is_ok() => out.push_str(mark),
            Some(_) => {
                return Err(field(
                    format!("{at}.mark"),
                    "expected null or one of !, ?, !!, ??, !?, ?!",
                ))
            }
        }
        out.push(' ');
        match node.get("comment") {
            None | Some(Json::Null) => {}
            Some(Json::String(text)) => comment(out, text),
            Some(_) => return Err(field(format!("{at}.comment"), "expected null or a string")),
        }
        match node.get("variations") {
            None | Some(Json::Null) => {}
            Some(Json::Array(variations)) => {
                for (j, v) in variations.iter().enumerate() {
                    out.push_str("( ");
                    movetext(out, v, &format!("{at}.variations[{j}]"), depth + 1)?;
                    out.push_str(") ");
                }
            }
            Some(_) => {
                return Err(field(
                    format!("{at}.variations"),
                    "expected an array of lines",
                ))
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record whose variations nest as deep as records allow: its JSON
    /// reads back as JSON text and writes the same record.
    #[test]
    fn the_deepest_record_reads_back_from_its_json_text() {
        let mut text = String::from("1. b2-b3 ");
        for _ in 0..MAX_VARIATION_DEPTH {
            text.push_str("( 1. b2-c3 ");
        }
        text.push_str(&")".repeat(MAX_VARIATION_DEPTH));
        text.push_str(" *\n");
        let answer = records_json(&text).unwrap().to_string();
        let answer: Json = serde_json::from_str(&answer).unwrap();
        let game = answer["games"][0].to_string();
        let written = record_text_of_json(&game).unwrap();
        let record: GameRecord = text.parse().unwrap();
        let back: GameRecord = written.parse().unwrap();
        assert_eq!(
            (back.moves, back.annotations),
            (record.moves, record.annotations)
        );
        // One level deeper is the record reader's error, not the JSON
        // reader's.
        let mut deeper = serde_json::json!([{"move": "b2-c3"}]);
        for _ in 0..MAX_VARIATION_DEPTH {
            deeper = serde_json::json!([{"move": "b2-c3", "variations": [deeper]}]);
        }
        let game = serde_json::json!({"line": [{"move": "b2-b3", "variations": [deeper]}]});
        let error = record_text_of_json(&game.to_string()).unwrap_err();
        assert!(
            error.to_string().contains("nested deeper than 32"),
            "{error}"
        );
    }

    /// A tag name must be one: a name that would write other tag lines (a
    /// `Start` of its choosing) is refused, naming the field.
    #[test]
    fn tag_names_cannot_write_other_tags() {
        let game = serde_json::json!({
            "tags": {"X\"]\n[Start \"6/6/6/6/6/b5 b\"]\n[B": "x"},
            "line": [],
        });
        let error = record_text(&game).unwrap_err();
        assert!(
            matches!(&error, RecordJsonError::Field { problem, .. } if problem.contains("tag name")),
            "{error}"
        );
        let game = serde_json::json!({"tags": {"Event": "a\"]\n[Start \"x\"]"}});
        let text = record_text(&game).unwrap();
        assert!(
            text.starts_with("[Event \"a\\\"] [Start \\\"x\\\"]\"]\n"),
            "{text}"
        );
        let record: GameRecord = text.parse().unwrap();
        assert_eq!(record.tags.len(), 3);
    }

    /// A text of empty games is refused past [`MAX_PAGE_GAMES`], naming
    /// the limit: its answer would be a hundred times its size.
    #[test]
    fn records_json_reads_at_most_max_page_games() {
        let games = records_json(&"*\n".repeat(MAX_PAGE_GAMES)).unwrap();
        assert_eq!(games["games"].as_array().unwrap().len(), MAX_PAGE_GAMES);
        let error = records_json(&"*\n".repeat(128 * 1024)).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "line {}: more than 2000 games in one text",
                MAX_PAGE_GAMES + 1
            )
        );
    }
}
