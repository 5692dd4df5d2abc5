//! The engine protocol's commands as values: one line of input in, a
//! [`Command`] or an error message out. Nothing here acts; the session in
//! `mod.rs` does, so the parsing can be tested and fuzzed on its own
//! (`surakarta_cli::fuzzing::engine_protocol`).

use crate::common::checks::check_depth;
use std::time::Duration;
use surakarta::{Color, Excerpt, Rules};
use surakarta_search::{
    parameter_index, Clock, Evaluation, Limits, Smp, TimeManagement, PARAMETER_SPECS,
};

use crate::common::evaluation::evaluation;

/// One command of docs/protocol.md.
#[derive(Debug)]
pub(crate) enum Command {
    /// `uci` or `protocol`: name the engine and its options.
    Hello,
    /// `isready`.
    IsReady,
    /// `newgame` or `ucinewgame`.
    NewGame,
    /// `setoption name NAME value VALUE`, its value checked.
    SetOption(Setting),
    /// `position startpos|fen FEN… [moves M…]`: the start (`None`: the
    /// start position) and the moves as written.
    Position {
        /// The position's text, if not `startpos`.
        start: Option<String>,
        /// The moves played from it.
        moves: Vec<String>,
    },
    /// `go [LIMIT N…] [infinite]`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
    /// `d` or `display`.
    Display,
}

/// An option's new value, checked.
#[derive(Debug)]
pub(crate) enum Setting {
    /// `Threads` (the range is checked when the engine is made).
    Threads(usize),
    /// `Hash` in MiB (the range and the memory are checked when the engine
    /// is made).
    Hash(usize),
    /// `Eval`.
    Eval(Evaluation),
    /// `EvalFile`: a network file, or `None` (`<empty>`) for the embedded
    /// network.
    EvalFile(Option<String>),
    /// `Smp`.
    Smp(Smp),
    /// `MultiPV`: how many best lines a search reports (the range is
    /// checked by the engine).
    MultiPv(usize),
    /// `Level`: the strength level (the range is checked by the engine).
    Level(usize),
    /// `TimeManagement`: `plain` or `adaptive`.
    TimeManagement(TimeManagement),
    /// A tunable search parameter (`aspiration-base`, …) and its value
    /// (the range is checked by the session).
    Parameter(&'static str, i64),
    /// `Rules`.
    Rules(Rules),
    /// `TablebasePath` (`None`: empty or `<empty>`, no tables).
    TablebasePath(Option<String>),
}

/// The limits of a `go`, before the side to move picks its clock.
#[derive(Debug, Default)]
pub(crate) struct Go {
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<Duration>,
    /// Black's and White's time left.
    times: [Option<Duration>; 2],
    /// Black's and White's increments.
    increments: [Duration; 2],
    moves_to_go: Option<u32>,
}

impl Go {
    /// The search limits for `turn` to move (its clock, if given).
    pub(crate) fn limits(&self, turn: Color) -> Limits {
        let side = match turn {
            Color::Black => 0,
            Color::White => 1,
        };
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime,
            clock: self.times[side].map(|time| Clock {
                time,
                increment: self.increments[side],
                moves_to_go: self.moves_to_go,
            }),
        }
    }
}

impl Command {
    /// The command on `line`; `Ok(None)` for a blank line. The error is
    /// the message the engine sends as `info string error: …`.
    pub(crate) fn parse(line: &str) -> Result<Option<Command>, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&first) = words.first() else {
            return Ok(None);
        };
        let bare = match first {
            "uci" | "protocol" => Some(Command::Hello),
            "isready" => Some(Command::IsReady),
            "newgame" | "ucinewgame" => Some(Command::NewGame),
            "stop" => Some(Command::Stop),
            "quit" => Some(Command::Quit),
            "d" | "display" => Some(Command::Display),
            _ => None,
        };
        if let Some(command) = bare {
            // These take no arguments: anything after them makes the line
            // garbage, answered and not acted on.
            if words.len() > 1 {
                return Err(format!(
                    "{first} takes no arguments, found {}",
                    Excerpt::new(&words[1..].join(" "))
                ));
            }
            return Ok(Some(command));
        }
        match first {
            "setoption" => parse_setoption(&words).map(Command::SetOption),
            "position" => parse_position(&words),
            "go" => parse_go(&words).map(Command::Go),
            other => Err(format!("unknown command {}", Excerpt::new(other))),
        }
        .map(Some)
    }
}

/// `setoption name NAME [value VALUE…]`.
fn parse_setoption(words: &[&str]) -> Result<Setting, String> {
    let value_at = words.iter().position(|&w| w == "value");
    if words.get(1) != Some(&"name") || words.len() < 3 || value_at == Some(2) {
        return Err("expected: setoption name NAME value VALUE".into());
    }
    let name = words[2..value_at.unwrap_or(words.len())].join(" ");
    let value = value_at
        .map(|i| words[i + 1..].join(" "))
        .unwrap_or_default();
    let number = |option: &str| {
        value
            .parse::<usize>()
            .map_err(|_| format!("{option}: {} is not a number", Excerpt::new(&value)))
    };
    Ok(match name.to_ascii_lowercase().as_str() {
        "threads" => Setting::Threads(number("Threads")?),
        "hash" => Setting::Hash(number("Hash")?),
        "multipv" => Setting::MultiPv(number("MultiPV")?),
        "level" => Setting::Level(number("Level")?),
        "timemanagement" => Setting::TimeManagement(
            value
                .parse()
                .map_err(|e: String| format!("TimeManagement: {e}"))?,
        ),
        "eval" => Setting::Eval(evaluation(Some(&value), None, ["Eval", "EvalFile"])?),
        "evalfile" => {
            Setting::EvalFile((!value.is_empty() && value != "<empty>").then_some(value.clone()))
        }
        "smp" => Setting::Smp(Smp::parse(&value).ok_or_else(|| {
            format!(
                "Smp: unknown mode {} (siblings, lazy)",
                Excerpt::new(&value)
            )
        })?),
        "rules" => Setting::Rules(
            value
                .parse()
                .map_err(|e: surakarta::ParseRulesError| e.to_string())?,
        ),
        "tablebasepath" => Setting::TablebasePath(
            (!value.is_empty() && value != "<empty>").then_some(value.clone()),
        ),
        lower => match parameter_index(lower) {
            Ok(i) => {
                let name = PARAMETER_SPECS[i].name;
                Setting::Parameter(
                    name,
                    value
                        .parse()
                        .map_err(|_| format!("{name}: {} is not a number", Excerpt::new(&value)))?,
                )
            }
            Err(_) => return Err(format!("unknown option {}", Excerpt::new(&name))),
        },
    })
}

/// `position startpos|fen FEN… [moves M…]`.
fn parse_position(words: &[&str]) -> Result<Command, String> {
    let moves_at = words
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(words.len());
    let start = match words.get(1) {
        Some(&"startpos") if moves_at == 2 => None,
        Some(&"fen") if moves_at > 2 => Some(words[2..moves_at].join(" ")),
        _ => return Err("expected: position startpos|fen FEN [moves M…]".into()),
    };
    let moves = words[(moves_at + 1).min(words.len())..]
        .iter()
        .map(|s| s.to_string())
        .collect();
    Ok(Command::Position { start, moves })
}

/// `go [depth N] [nodes N] [movetime MS] [btime MS] [wtime MS] [binc MS]
/// [winc MS] [movestogo N] [infinite]`.
fn parse_go(words: &[&str]) -> Result<Go, String> {
    // The limits that take a number (`infinite` takes none).
    const LIMITS: [&str; 8] = [
        "depth",
        "nodes",
        "movetime",
        "btime",
        "wtime",
        "binc",
        "winc",
        "movestogo",
    ];
    let mut go = Go::default();
    let mut i = 1;
    while i < words.len() {
        let word = words[i];
        if word == "infinite" {
            i += 1;
            continue;
        }
        if !LIMITS.contains(&word) {
            return Err(format!("go: unknown limit {}", Excerpt::new(word)));
        }
        let value = words
            .get(i + 1)
            .ok_or_else(|| format!("go: {word} needs a number"))?;
        let number: u64 = value
            .parse()
            .map_err(|_| format!("go: {word} {} is not a number", Excerpt::new(value)))?;
        let ms = Duration::from_millis(number);
        if number == 0 && matches!(word, "nodes" | "movetime") {
            return Err(format!("go: {word} 0 is out of range: give at least 1"));
        }
        match word {
            "depth" => go.depth = Some(check_depth("go: depth", number)?),
            "nodes" => go.nodes = Some(number),
            "movetime" => go.movetime = Some(ms),
            "btime" => go.times[0] = Some(ms),
            "wtime" => go.times[1] = Some(ms),
            "binc" => go.increments[0] = ms,
            "winc" => go.increments[1] = ms,
            "movestogo" => go.moves_to_go = Some(number.min(1000) as u32),
            _ => return Err(format!("go: unknown limit {}", Excerpt::new(word))),
        }
        i += 2;
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_their_errors() {
        assert!(matches!(Command::parse("  \t"), Ok(None)));
        assert!(matches!(
            Command::parse("isready"),
            Ok(Some(Command::IsReady))
        ));
        assert_eq!(
            Command::parse("isready now").unwrap_err(),
            "isready takes no arguments, found \"now\""
        );
        assert!(matches!(
            Command::parse("setoption name Hash value 128"),
            Ok(Some(Command::SetOption(Setting::Hash(128))))
        ));
        assert!(Command::parse("setoption name value 3").is_err());
        assert!(matches!(
            Command::parse("setoption name Level value 3"),
            Ok(Some(Command::SetOption(Setting::Level(3))))
        ));
        assert!(matches!(
            Command::parse("setoption name TimeManagement value adaptive"),
            Ok(Some(Command::SetOption(Setting::TimeManagement(
                TimeManagement::Adaptive
            ))))
        ));
        assert_eq!(
            Command::parse("setoption name TimeManagement value fast").unwrap_err(),
            "TimeManagement: \"fast\": expected plain or adaptive"
        );
        assert!(matches!(
            Command::parse("setoption name MultiPV value 3"),
            Ok(Some(Command::SetOption(Setting::MultiPv(3))))
        ));
        assert_eq!(
            Command::parse("setoption name multipv value many").unwrap_err(),
            "MultiPV: \"many\" is not a number"
        );
        assert!(matches!(
            Command::parse("setoption name TablebasePath value <empty>"),
            Ok(Some(Command::SetOption(Setting::TablebasePath(None))))
        ));
        let Ok(Some(Command::Position { start, moves })) =
            Command::parse("position fen 6/6/6/6/6/w5 b moves a1-a2")
        else {
            panic!("a position command");
        };
        assert_eq!(start.as_deref(), Some("6/6/6/6/6/w5 b"));
        assert_eq!(moves, ["a1-a2"]);
        assert!(Command::parse("position moves").is_err());
    }

    #[test]
    fn go_picks_the_clock_of_the_side_to_move() {
        let Ok(Some(Command::Go(go))) =
            Command::parse("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5000")
        else {
            panic!("a go command");
        };
        let black = go.limits(Color::Black).clock.unwrap();
        assert_eq!(black.time, Duration::from_millis(2000));
        assert_eq!(black.increment, Duration::from_millis(20));
        assert_eq!(black.moves_to_go, Some(1000));
        assert_eq!(
            go.limits(Color::White).clock.unwrap().time,
            Duration::from_millis(1000)
        );
        assert_eq!(
            Command::parse("go depth 65").unwrap_err(),
            "go: depth 65 is out of range: give 1 to 64"
        );
        assert_eq!(
            Command::parse("go depth").unwrap_err(),
            "go: depth needs a number"
        );
        assert!(Command::parse("go infinite").is_ok());
    }
}
