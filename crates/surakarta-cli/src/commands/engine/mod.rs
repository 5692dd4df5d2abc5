//! `surakarta engine`: the line protocol of docs/protocol.md on stdin and
//! stdout. Each line is parsed into a [`Command`] (`command.rs`), then
//! carried out by the session here. Searches run on their own thread so
//! that `stop`, `isready` and `quit` are answered while thinking.

pub(crate) mod command;

use crate::common::error::CliError;
use crate::common::game::build_game;
use crate::common::info::{info_lines, tb_warning};
use crate::common::memory::new_engine;
use crate::common::tables;
use clap::Args;
use command::{Command, Go, Setting};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use surakarta::{Game, Position, Rules};
use surakarta_match::lines::LineReader;
use surakarta_search::{Engine, Evaluation, Options, MAX_LEVEL, PARAMETER_SPECS};

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
pub(crate) fn run(_args: EngineProtocolArgs) -> Result<(), CliError> {
    let options = Options::default();
    let mut session = Session {
        settings: Settings {
            options: options.clone(),
            rules: Rules::ICGA,
            tablebase: None,
        },
        engine: Some(new_engine(options.clone()).map_err(CliError)?),
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
        let command = match Command::parse(&line) {
            Ok(Some(command)) => command,
            Ok(None) => continue,
            Err(message) => {
                error(&message);
                continue;
            }
        };
        match session.command(command) {
            Ok(true) => {}
            Ok(false) => break,
            Err(message) => error(&message),
        }
    }
    session.finish_search(true);
    Ok(())
}

impl Session {
    /// Carries out one command; `Ok(false)` to quit.
    fn command(&mut self, command: Command) -> Result<bool, String> {
        match command {
            Command::Hello => {
                say(&format!("id name surakarta {}", env!("CARGO_PKG_VERSION")));
                say("id author The surakarta developers");
                say("option name Threads type spin default 1 min 1 max 1024");
                say("option name Hash type spin default 64 min 1 max 65536");
                say("option name TablebasePath type string default <empty>");
                say("option name Rules type string default icga");
                say("option name Eval type combo default default var default var classic var paper var nnue");
                say("option name EvalFile type string default <empty>");
                say("option name Smp type combo default siblings var siblings var lazy");
                say("option name MultiPV type spin default 1 min 1 max 256");
                say(&format!(
                    "option name Level type spin default {MAX_LEVEL} min 1 max {MAX_LEVEL}"
                ));
                say(
                    "option name TimeManagement type combo default adaptive var plain var adaptive",
                );
                for spec in PARAMETER_SPECS {
                    say(&format!(
                        "option name {} type spin default {} min {} max {}",
                        spec.name, spec.default, spec.min, spec.max
                    ));
                }
                say("uciok");
            }
            Command::IsReady => say("readyok"),
            Command::NewGame => {
                self.finish_search(true);
                self.engine_mut()?.new_game();
            }
            Command::SetOption(setting) => self.set_option(setting)?,
            Command::Position { start, moves } => {
                self.game =
                    build_game(start.as_deref(), &moves, self.settings.rules).map_err(|e| e.0)?;
            }
            Command::Go(go) => self.go(&go)?,
            Command::Stop => self.finish_search(true),
            Command::Quit => return Ok(false),
            Command::Display => say(&format!("info string position {}", self.game.position())),
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
                    self.engine = new_engine(self.settings.options.clone()).ok();
                }
            }
        }
    }

    fn engine_mut(&mut self) -> Result<&mut Engine, String> {
        self.finish_search(false);
        if self.engine.is_none() {
            self.engine = Some(new_engine(self.settings.options.clone())?);
        }
        self.engine.as_mut().ok_or_else(|| "no engine".to_string())
    }

    fn set_option(&mut self, setting: Setting) -> Result<(), String> {
        self.finish_search(false);
        let mut options = self.settings.options.clone();
        match setting {
            Setting::Threads(threads) => options.threads = threads,
            Setting::Hash(mb) => options.hash_mb = mb,
            Setting::Eval(evaluation) => options.evaluation = evaluation,
            Setting::EvalFile(path) => {
                options.evaluation = match path {
                    None => Evaluation::network(),
                    Some(path) => Evaluation::from_file(Path::new(&path))
                        .map_err(|e| format!("EvalFile: {e}"))?,
                }
            }
            Setting::Smp(smp) => options.smp = smp,
            Setting::MultiPv(lines) => {
                // The table and history stay: only the next searches change.
                self.engine_mut()?
                    .set_multipv(lines)
                    .map_err(|e| e.to_string())?;
                self.settings.options.multipv = lines;
                return Ok(());
            }
            Setting::Level(level) => {
                let level = u8::try_from(level).unwrap_or(0);
                self.engine_mut()?
                    .set_level(Some(level))
                    .map_err(|e| e.to_string())?;
                self.settings.options.level = Some(level);
                return Ok(());
            }
            Setting::TimeManagement(time_management) => {
                self.engine_mut()?.set_time_management(time_management);
                self.settings.options.time_management = time_management;
                return Ok(());
            }
            Setting::Parameter(name, value) => {
                let mut parameters = self.settings.options.parameters;
                parameters.set(name, value).map_err(|e| e.to_string())?;
                self.engine_mut()?.set_parameters(parameters);
                self.settings.options.parameters = parameters;
                return Ok(());
            }
            Setting::Rules(rules) => {
                self.settings.rules = rules;
                self.game = rebuild(&self.game, rules);
                return Ok(());
            }
            Setting::TablebasePath(path) => {
                let tb = match path {
                    None => None,
                    Some(path) => Some(Arc::new(tables::open(Path::new(&path)).map_err(|e| e.0)?)),
                };
                self.settings.tablebase = tb.clone();
                self.engine_mut()?.set_tablebase(tb);
                return Ok(());
            }
        }
        // The old table goes first: the new one is checked against the
        // memory the process may use without it.
        self.finish_search(true);
        self.engine = None;
        let mut engine = new_engine(options.clone())?;
        engine.set_tablebase(self.settings.tablebase.clone());
        self.settings.options = options;
        self.engine = Some(engine);
        Ok(())
    }

    fn go(&mut self, go: &Go) -> Result<(), String> {
        let limits = go.limits(self.game.position().turn());
        self.engine_mut()?;
        let mut engine = self.engine.take().ok_or_else(|| "no engine".to_string())?;
        let stop = Arc::new(AtomicBool::new(false));
        let game = self.game.clone();
        let thread_stop = stop.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let multipv = engine.options().multipv;
                let result = engine.search(&game, &limits, &thread_stop, &mut |info| {
                    for line in info_lines(info, multipv) {
                        say(&format!("info {line}"));
                    }
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
