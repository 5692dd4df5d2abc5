//! Game records as the board page reads and writes them: a record's games
//! as JSON trees of moves with their marks, comments and variations, and a
//! game of that shape back as record text (`docs/notation.md`).

use serde_json::{json, Map, Value as Json};
use surakarta::record::MAX_VARIATION_DEPTH;
use surakarta::{GameRecord, Mark, MoveAnnotation, MoveText, RecordError};

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
    /// The game's text does not read as a record (an illegal move, a bad
    /// position or rule set, a result the end of the game contradicts, …).
    #[error("{0}")]
    Record(#[from] RecordError),
}

/// The games of a record text (any number, as `GameRecord::parse_all`
/// reads them) as `{"games": [{"tags", "rules", "start", "result", "intro",
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
    let records = GameRecord::parse_all(text)?;
    let games: Vec<Json> = records.iter().map(game_json).collect();
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

/// A game given as the JSON of [`records_json`] (`tags` optional, `rules`
/// default `icga`, `start` default the start position, `result` default
/// `*`, `intro` optional, `line` the moves) as canonical record text, every
/// move checked legal, variations included. The text has the tags given,
/// then `Rules`, `Start` and `Result` with the values of the fields. A field of the wrong kind, a
/// move or mark that is not one, nesting deeper than records allow, or a
/// game that does not read as a record is an error naming it.
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
    Ok(record.to_string())
}

/// Appends `[name "value"]`, escaped as records escape tag values (the
/// record's reader then checks the name).
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
