//! `surakarta engine`: the line protocol of docs/protocol.md on stdin and
//! stdout. Searches run on their own thread so that `stop`, `isready` and
//! `quit` are answered while thinking.

use crate::common::game::build_game;
use crate::common::info::{info_line, tb_warning};
use crate::common::memory::new_engine;
use crate::common::tables;
use crate::common::usage::{check_depth, UsageError};
use clap::Args;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use surakarta::{Color, Excerpt, Game, Position, Rules};
use surakarta_match::lines::LineReader;
use surakarta_search::{Clock, Engine, Limits, Options, Smp, Weights};

/// The arguments of `surakarta engine`: none (settings come through
/// `setoption`).
#[derive(Args, Debug)]
pub(crate) struct EngineProtocolArgs {}

/// Settings changed with `setoption`.
struct Settings {
    options: Options,
    rules: Rules,
    tablebase: Option<Arc<surakarta_tablebase::Tablebase>>,
}

struct Running {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Engine>,
}

struct Session {
    settings: Settings,
    /// The engine, when no search holds it.
    engine: Option<Engine>,
    running: Option<Running>,
    game: Game,
}

fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    // A closed stdout means the other side has gone; nothing to tell it.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn error(message: &str) {
    say(&format!("info string error: {message}"));
}

/// Runs `surakarta engine`: answers commands from stdin until `quit` or the
/// end of input.
pub(crate) fn run(_args: EngineProtocolArgs) -> Result<(), UsageError> {
    let options = Options::default();
    let mut session = Session {
        settings: Settings {
            options,
            rules: Rules::ICGA,
            tablebase: None,
        },
        engine: Some(new_engine(options).map_err(UsageError)?),
        running: None,
        game: Game::new(Position::new(), Rules::ICGA),
    };
    // Lines longer than MAX_LINE_BYTES or not UTF-8 are garbage like any
    // other: reported and skipped, never held in memory.
    let mut input = LineReader::new(std::io::stdin().lock());
    loop {
        let line = match input.next_line() {
            Ok(None) => break,
            Ok(Some(line)) => line,
            Err(e) => {
                error(&format!("cannot read input: {e}"));
                break;
            }
        };
        let line = match line.text() {
            Ok(text) => text,
            Err(dropped) => {
                error(&dropped.to_string());
                continue;
            }
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        match session.command(&words) {
            Ok(true) => {}
            Ok(false) => break,
            Err(message) => error(&message),
        }
    }
    session.finish_search(true);
    Ok(())
}

impl Session {
    /// Handles one command; `Ok(false)` to quit.
    fn command(&mut self, words: &[&str]) -> Result<bool, String> {
        // These take no arguments: anything after them makes the line
        // garbage, answered and not acted on.
        const BARE: [&str; 9] = [
            "uci",
            "protocol",
            "isready",
            "newgame",
            "ucinewgame",
            "stop",
            "quit",
            "d",
            "display",
        ];
        if words.len() > 1 && BARE.contains(&words[0]) {
            return Err(format!(
                "{} takes no arguments, found {}",
                words[0],
                Excerpt::new(&words[1..].join(" "))
            ));
        }
        match words[0] {
            "uci" | "protocol" => {
                say(&format!("id name surakarta {}", env!("CARGO_PKG_VERSION")));
                say("id author The surakarta developers");
                say("option name Threads type spin default 1 min 1 max 1024");
                say("option name Hash type spin default 64 min 1 max 65536");
                say("option name TablebasePath type string default <empty>");
                say("option name Rules type string default icga");
                say("option name Eval type combo default default var default var paper");
                say("option name Smp type combo default siblings var siblings var lazy");
                say("uciok");
            }
            "isready" => say("readyok"),
            "newgame" | "ucinewgame" => {
                self.finish_search(true);
                self.engine_mut()?.new_game();
            }
            "setoption" => self.set_option(words)?,
            "position" => self.set_position(words)?,
            "go" => self.go(words)?,
            "stop" => self.finish_search(true),
            "quit" => return Ok(false),
            "d" | "display" => say(&format!("info string position {}", self.game.position())),
            other => return Err(format!("unknown command {}", Excerpt::new(other))),
        }
        Ok(true)
    }

    /// Stops (if `stop`) and waits for the running search, taking its
    /// engine back.
    fn finish_search(&mut self, stop: bool) {
        if let Some(running) = self.running.take() {
            if stop {
                running.stop.store(true, Ordering::Relaxed);
            }
            match running.handle.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => {
                    error("the search thread failed; starting a new engine");
                    self.engine = new_engine(self.settings.options).ok();
                }
            }
        }
    }

    fn engine_mut(&mut self) -> Result<&mut Engine, String> {
        self.finish_search(false);
        if self.engine.is_none() {
            self.engine = Some(new_engine(self.settings.options)?);
        }
        self.engine.as_mut().ok_or_else(|| "no engine".to_string())
    }

    fn set_option(&mut self, words: &[&str]) -> Result<(), String> {
        // setoption name NAME [value VALUE…]
        let value_at = words.iter().position(|&w| w == "value");
        if words.get(1) != Some(&"name") || words.len() < 3 {
            return Err("expected: setoption name NAME value VALUE".into());
        }
        let name = words[2..value_at.unwrap_or(words.len())].join(" ");
        let value = value_at
            .map(|i| words[i + 1..].join(" "))
            .unwrap_or_default();
        self.finish_search(false);
        let mut options = self.settings.options;
        match name.to_ascii_lowercase().as_str() {
            "threads" => {
                options.threads = value
                    .parse()
                    .map_err(|_| format!("Threads: {} is not a number", Excerpt::new(&value)))?
            }
            "hash" => {
                options.hash_mb = value
                    .parse()
                    .map_err(|_| format!("Hash: {} is not a number", Excerpt::new(&value)))?
            }
            "eval" => {
                options.weights = Weights::preset(&value).ok_or_else(|| {
                    format!(
                        "Eval: unknown preset {} (default, paper)",
                        Excerpt::new(&value)
                    )
                })?
            }
            "smp" => {
                options.smp = Smp::parse(&value).ok_or_else(|| {
                    format!(
                        "Smp: unknown mode {} (siblings, lazy)",
                        Excerpt::new(&value)
                    )
                })?
            }
            "rules" => {
                self.settings.rules = value
                    .parse()
                    .map_err(|e: surakarta::ParseRulesError| e.to_string())?;
                self.game = rebuild(&self.game, self.settings.rules);
                return Ok(());
            }
            "tablebasepath" => {
                let tb = if value.is_empty() || value == "<empty>" {
                    None
                } else {
                    Some(Arc::new(tables::open(Path::new(&value)).map_err(|e| e.0)?))
                };
                self.settings.tablebase = tb.clone();
                self.engine_mut()?.set_tablebase(tb);
                return Ok(());
            }
            _ => return Err(format!("unknown option {}", Excerpt::new(&name))),
        }
        // The old table goes first: the new one is checked against the
        // memory the process may use without it.
        self.finish_search(true);
        self.engine = None;
        let mut engine = new_engine(options)?;
        engine.set_tablebase(self.settings.tablebase.clone());
        self.settings.options = options;
        self.engine = Some(engine);
        Ok(())
    }

    fn set_position(&mut self, words: &[&str]) -> Result<(), String> {
        // position startpos|fen FEN… [moves M…]
        let moves_at = words
            .iter()
            .position(|&w| w == "moves")
            .unwrap_or(words.len());
        let start = match words.get(1) {
            Some(&"startpos") if moves_at == 2 => None,
            Some(&"fen") if moves_at > 2 => Some(words[2..moves_at].join(" ")),
            _ => return Err("expected: position startpos|fen FEN [moves M…]".into()),
        };
        let moves: Vec<String> = words[(moves_at + 1).min(words.len())..]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let game = build_game(start.as_deref(), &moves, self.settings.rules).map_err(|e| e.0)?;
        self.game = game;
        Ok(())
    }

    fn go(&mut self, words: &[&str]) -> Result<(), String> {
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
        let mut limits = Limits::default();
        let mut times = [None; 2];
        let mut increments = [Duration::ZERO; 2];
        let mut moves_to_go = None;
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
                "depth" => limits.depth = Some(check_depth("go: depth", number)?),
                "nodes" => limits.nodes = Some(number),
                "movetime" => limits.movetime = Some(ms),
                "btime" => times[0] = Some(ms),
                "wtime" => times[1] = Some(ms),
                "binc" => increments[0] = ms,
                "winc" => increments[1] = ms,
                "movestogo" => moves_to_go = Some(number.min(1000) as u32),
                _ => return Err(format!("go: unknown limit {}", Excerpt::new(word))),
            }
            i += 2;
        }
        let side = match self.game.position().turn() {
            Color::Black => 0,
            Color::White => 1,
        };
        if let Some(time) = times[side] {
            limits.clock = Some(Clock {
                time,
                increment: increments[side],
                moves_to_go,
            });
        }
        self.engine_mut()?;
        let mut engine = self.engine.take().ok_or_else(|| "no engine".to_string())?;
        let stop = Arc::new(AtomicBool::new(false));
        let game = self.game.clone();
        let thread_stop = stop.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let result = engine.search(&game, &limits, &thread_stop, &mut |info| {
                    say(&format!("info {}", info_line(info)));
                });
                if let Some(warning) = tb_warning(&result) {
                    error(&warning);
                }
                match (result.best_move, game.outcome()) {
                    (Some(m), _) => say(&format!("bestmove {m}")),
                    (None, Some(outcome)) => {
                        say(&format!(
                            "info string game over: {} {outcome}",
                            outcome.result()
                        ));
                        say("bestmove none");
                    }
                    (None, None) => say("bestmove none"),
                }
                engine
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.running = Some(Running { stop, handle });
        Ok(())
    }
}

/// The same moves from the same start under other rules (moves that the new
/// rules forbid, after a game end, are dropped).
fn rebuild(game: &Game, rules: Rules) -> Game {
    let mut new = Game::new(*game.start(), rules);
    for &m in game.moves() {
        if new.play(m).is_err() {
            break;
        }
    }
    new
}
