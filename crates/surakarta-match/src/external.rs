//! Engines in other processes, driven through the line protocol of
//! `docs/protocol.md` (`uci`, `setoption`, `newgame`, `position`, `go`,
//! `bestmove`).
//!
//! An engine is hostile input like any other: every wait for one of its
//! answers has a deadline that the lines it prints meanwhile do not put
//! off, what it may print is capped per wait and per game
//! ([`OutputLimits`]), and the lines between the thread reading its output
//! and the match go through a bounded channel, so an engine printing
//! faster than the match reads is held up on its pipe instead of filling
//! memory.

use std::fmt;
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use surakarta::{Color, Excerpt, Game, Move, Rules};
use surakarta_search::Limits;

use crate::lines::{Line, LineReader};
use crate::player::{Clocks, Player, PlayerError};

/// The most lines held between the thread reading an engine's output and
/// the match (each at most [`MAX_LINE_BYTES`](crate::lines::MAX_LINE_BYTES)
/// long, so at most 4 MiB); when they are all waiting, the thread stops
/// reading and the engine blocks on its pipe.
const CHANNEL_LINES: usize = 64;

/// What an external engine may print: per wait for one of its answers
/// (`uciok`, `readyok`, `bestmove`) and per game (from `newgame` to the
/// game's last move). An engine that prints more forfeits (or, at the
/// start, fails to start). Every line counts, those skipped as too long or
/// not UTF-8 too, with its line break.
///
/// # Examples
///
/// ```
/// use surakarta_match::external::OutputLimits;
///
/// let limits = OutputLimits::default();
/// assert_eq!(limits.wait_bytes, 4 << 20);
/// assert!(limits.game_bytes > limits.wait_bytes);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputLimits {
    /// Bytes printed while waiting for one answer (default 4 MiB).
    pub wait_bytes: u64,
    /// Lines printed while waiting for one answer (default 65,536).
    pub wait_lines: u64,
    /// Bytes printed in one game (default 64 MiB).
    pub game_bytes: u64,
    /// Lines printed in one game (default 1,048,576).
    pub game_lines: u64,
}

impl Default for OutputLimits {
    fn default() -> OutputLimits {
        OutputLimits {
            wait_bytes: 4 << 20,
            wait_lines: 1 << 16,
            game_bytes: 64 << 20,
            game_lines: 1 << 20,
        }
    }
}

/// What the match is waiting for, as the errors name it.
#[derive(Debug, Clone, Copy)]
enum Step {
    Uciok,
    Readyok,
    Move,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Step::Uciok => "while waiting for uciok",
            Step::Readyok => "while waiting for readyok",
            Step::Move => "while thinking on a move",
        })
    }
}

/// An engine program speaking the protocol on its stdin and stdout. Its
/// stderr is discarded. The process is told to quit, and killed if it does
/// not, when the value is dropped.
pub struct ExternalEngine {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    limits: Limits,
    move_timeout: Duration,
    output: OutputLimits,
    /// Bytes and lines printed in the current game so far.
    game_printed: (u64, u64),
}

impl ExternalEngine {
    /// Starts `command` (program and arguments), checks the handshake
    /// (`uci` … `uciok`), sets `options` (name, value) and waits for
    /// `readyok`. Each move is searched with `limits` (`go depth`, `nodes`,
    /// `movetime`; with none, `movetime 1000`); the engine forfeits if its
    /// `bestmove` takes longer than the move time plus `move_timeout`.
    /// `move_timeout` also bounds each wait of the handshake (`uciok`,
    /// `readyok`), here and before each game. Each wait is a deadline: the
    /// lines the engine prints meanwhile do not put it off. What the engine
    /// may print is capped by the default [`OutputLimits`].
    pub fn start(
        name: String,
        command: &[String],
        options: &[(String, String)],
        limits: Limits,
        move_timeout: Duration,
    ) -> Result<ExternalEngine, PlayerError> {
        ExternalEngine::start_with_output_limits(
            name,
            command,
            options,
            limits,
            move_timeout,
            OutputLimits::default(),
        )
    }

    /// [`ExternalEngine::start`] with other caps on what the engine may
    /// print.
    ///
    /// # Errors
    ///
    /// [`PlayerError::External`] if the program cannot be started, exits,
    /// does not answer `uciok` or `readyok` within `move_timeout`, or
    /// prints more than `output` allows while doing so.
    pub fn start_with_output_limits(
        name: String,
        command: &[String],
        options: &[(String, String)],
        limits: Limits,
        move_timeout: Duration,
        output: OutputLimits,
    ) -> Result<ExternalEngine, PlayerError> {
        let fail = |message: String| PlayerError::External {
            name: name.clone(),
            message,
        };
        let (program, args) = command
            .split_first()
            .ok_or_else(|| fail("empty command".into()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| fail(format!("cannot start {}: {e}", Excerpt::new(program))))?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(fail("no pipes to the process".into()));
            }
        };
        // Bounded: when the match does not read, the thread blocks, and so
        // does the engine on its full pipe.
        let (sender, lines) = mpsc::sync_channel(CHANNEL_LINES);
        std::thread::spawn(move || {
            let mut reader = LineReader::new(BufReader::new(stdout));
            // Lines too long or not UTF-8 are passed on too, to be counted;
            // the end of output or a read error ends the thread (the engine
            // is gone), and so does the engine value being dropped.
            while let Ok(Some(line)) = reader.next_line() {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = ExternalEngine {
            name,
            child,
            stdin,
            lines,
            limits,
            move_timeout,
            output,
            game_printed: (0, 0),
        };
        engine.send("uci")?;
        engine.wait_for(Step::Uciok, |l| l == "uciok", engine.move_timeout)?;
        for (option, value) in options {
            engine.send(&format!("setoption name {option} value {value}"))?;
        }
        engine.ready()?;
        Ok(engine)
    }

    fn error(&self, message: String) -> PlayerError {
        PlayerError::External {
            name: self.name.clone(),
            message,
        }
    }

    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| self.error(format!("cannot write to the engine: {e}")))
    }

    /// Reads lines until one satisfies `wanted`, which is returned; other
    /// lines (`info …`, `id …`) are skipped. Fails when `timeout` has passed
    /// (checked before every line, so lines arriving do not put it off),
    /// when the engine prints more than its [`OutputLimits`] allow, reports
    /// an error or exits.
    fn wait_for(
        &mut self,
        step: Step,
        wanted: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Result<String, PlayerError> {
        let deadline = Instant::now() + timeout;
        let mut printed = (0u64, 0u64);
        loop {
            let Some(left) = deadline
                .checked_duration_since(Instant::now())
                .filter(|left| !left.is_zero())
            else {
                return Err(self.error(format!("no answer within {:.1} s", timeout.as_secs_f64())));
            };
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.error("the engine exited".into()))
                }
            };
            let bytes = 1 + match &line {
                Line::Text(text) => text.len() as u64,
                Line::TooLong { bytes } => *bytes,
                Line::NotUtf8 { bytes } => *bytes as u64,
            };
            printed = (printed.0 + bytes, printed.1 + 1);
            self.game_printed = (self.game_printed.0 + bytes, self.game_printed.1 + 1);
            self.check_printed(step, printed)?;
            let Line::Text(line) = line else { continue };
            let line = line.trim();
            if wanted(line) {
                return Ok(line.to_string());
            }
            if line.starts_with("info string error") {
                return Err(self.error(format!("the engine reported {}", Excerpt::new(line))));
            }
        }
    }

    /// Whether what the engine printed, `printed` (bytes, lines) in this
    /// wait and its game's so far, is within its [`OutputLimits`].
    fn check_printed(&self, step: Step, printed: (u64, u64)) -> Result<(), PlayerError> {
        let limits = &self.output;
        let over = if printed.0 > limits.wait_bytes {
            format!("{} bytes {step}", limits.wait_bytes)
        } else if printed.1 > limits.wait_lines {
            format!("{} lines {step}", limits.wait_lines)
        } else if self.game_printed.0 > limits.game_bytes {
            format!("{} bytes in one game", limits.game_bytes)
        } else if self.game_printed.1 > limits.game_lines {
            format!("{} lines in one game", limits.game_lines)
        } else {
            return Ok(());
        };
        Err(self.error(format!("printed more than {over}")))
    }

    fn ready(&mut self) -> Result<(), PlayerError> {
        self.send("isready")?;
        self.wait_for(Step::Readyok, |l| l == "readyok", self.move_timeout)
            .map(|_| ())
    }

    /// The `go` command for the limits (and both clocks, in a game on a
    /// clock: `btime`, `wtime`, `binc`, `winc` in milliseconds) and how
    /// long to wait for its answer: the move timeout beyond the move time,
    /// or beyond the mover's time left on a clock. Without any limit or
    /// clock the engine gets `movetime 1000`.
    fn go(&self, clock: Option<(&Clocks, Color)>) -> (String, Duration) {
        let mut go = String::from("go");
        let mut wait = self.move_timeout;
        if let Some(depth) = self.limits.depth {
            go.push_str(&format!(" depth {depth}"));
        }
        if let Some(nodes) = self.limits.nodes {
            go.push_str(&format!(" nodes {nodes}"));
        }
        let movetime = match self.limits.movetime {
            Some(t) => Some(t),
            None if go == "go" && clock.is_none() => Some(Duration::from_secs(1)),
            None => None,
        };
        if let Some(t) = movetime {
            go.push_str(&format!(" movetime {}", t.as_millis()));
        }
        match clock {
            Some((clocks, mover)) => {
                let increment = clocks.increment.as_millis();
                go.push_str(&format!(
                    " btime {} wtime {} binc {increment} winc {increment}",
                    clocks.black.as_millis(),
                    clocks.white.as_millis()
                ));
                wait += clocks.left(mover);
            }
            None => wait += movetime.unwrap_or_default(),
        }
        (go, wait)
    }
}

impl Player for ExternalEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, rules: Rules) -> Result<(), PlayerError> {
        self.game_printed = (0, 0);
        self.send(&format!("setoption name Rules value {rules}"))?;
        self.send("newgame")?;
        self.ready()
    }

    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
        let (go, wait) = self.go(None);
        self.play(game, &go, wait)
    }

    /// `go` with the limits and both clocks; the answer is awaited for the
    /// mover's time left and the move timeout.
    fn choose_on_clock(&mut self, game: &Game, clocks: &Clocks) -> Result<Move, PlayerError> {
        let (go, wait) = self.go(Some((clocks, game.position().turn())));
        self.play(game, &go, wait)
    }
}

impl ExternalEngine {
    /// Sends the game and `go`, then waits up to `wait` for `bestmove`.
    fn play(&mut self, game: &Game, go: &str, wait: Duration) -> Result<Move, PlayerError> {
        let mut position = format!("position fen {}", game.start());
        if !game.moves().is_empty() {
            position.push_str(" moves");
            for m in game.moves() {
                position.push_str(&format!(" {m}"));
            }
        }
        self.send(&position)?;
        self.send(go)?;
        let line = self.wait_for(Step::Move, |l| l.starts_with("bestmove"), wait)?;
        let text = line.split_whitespace().nth(1).unwrap_or("");
        game.position()
            .parse_move(text)
            .map_err(|e| PlayerError::Illegal {
                name: self.name.clone(),
                text: Excerpt::new(text),
                error: e.into(),
            })
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
