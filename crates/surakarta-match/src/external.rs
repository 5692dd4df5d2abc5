//! Engines in other processes, driven through the line protocol of
//! `docs/protocol.md` (`uci`, `setoption`, `newgame`, `position`, `go`,
//! `bestmove`).

use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use surakarta::{Excerpt, Game, Move, Rules};
use surakarta_search::Limits;

use crate::lines::{Line, LineReader};
use crate::player::{Player, PlayerError};

/// An engine program speaking the protocol on its stdin and stdout. Its
/// stderr is discarded. The process is told to quit, and killed if it does
/// not, when the value is dropped.
pub struct ExternalEngine {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    limits: Limits,
    move_timeout: Duration,
}

impl ExternalEngine {
    /// Starts `command` (program and arguments), checks the handshake
    /// (`uci` … `uciok`), sets `options` (name, value) and waits for
    /// `readyok`. Each move is searched with `limits` (`go depth`, `nodes`,
    /// `movetime`; with none, `movetime 1000`); the engine forfeits if its
    /// `bestmove` takes longer than the move time plus `move_timeout`.
    /// `move_timeout` also bounds each wait of the handshake (`uciok`,
    /// `readyok`), here and before each game.
    pub fn start(
        name: String,
        command: &[String],
        options: &[(String, String)],
        limits: Limits,
        move_timeout: Duration,
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
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = LineReader::new(BufReader::new(stdout));
            // A line too long or not UTF-8 is dropped; the end of output or a
            // read error ends the thread (the engine is gone).
            while let Ok(Some(line)) = reader.next_line() {
                let Line::Text(line) = line else { continue };
                if sender.send(line.trim().to_string()).is_err() {
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
        };
        engine.send("uci")?;
        engine.wait_for(|l| l == "uciok", engine.move_timeout)?;
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
    /// lines (`info …`, `id …`) are skipped.
    fn wait_for(
        &mut self,
        wanted: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Result<String, PlayerError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if wanted(&line) => return Ok(line),
                Ok(line) if line.starts_with("info string error") => {
                    return Err(self.error(format!("the engine reported {}", Excerpt::new(&line))))
                }
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(
                        self.error(format!("no answer within {:.1} s", timeout.as_secs_f64()))
                    )
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.error("the engine exited".into()))
                }
            }
        }
    }

    fn ready(&mut self) -> Result<(), PlayerError> {
        self.send("isready")?;
        self.wait_for(|l| l == "readyok", self.move_timeout)
            .map(|_| ())
    }

    /// The `go` command for the limits and how long to wait for its answer.
    fn go(&self) -> (String, Duration) {
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
            None if go == "go" => Some(Duration::from_secs(1)),
            None => None,
        };
        if let Some(t) = movetime {
            go.push_str(&format!(" movetime {}", t.as_millis()));
            wait += t;
        }
        (go, wait)
    }
}

impl Player for ExternalEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, rules: Rules) -> Result<(), PlayerError> {
        self.send(&format!("setoption name Rules value {rules}"))?;
        self.send("newgame")?;
        self.ready()
    }

    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
        let mut position = format!("position fen {}", game.start());
        if !game.moves().is_empty() {
            position.push_str(" moves");
            for m in game.moves() {
                position.push_str(&format!(" {m}"));
            }
        }
        self.send(&position)?;
        let (go, wait) = self.go();
        self.send(&go)?;
        let line = self.wait_for(|l| l.starts_with("bestmove"), wait)?;
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
