//! External engines that misbehave: they flood their output or never
//! answer. Each is a small `sh` script; each must fail with its reason
//! within its deadline and a margin, with bounded memory (a flood read into
//! memory would never end).
#![cfg(unix)]

use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use surakarta::{Game, Rules};
use surakarta_match::external::OutputLimits;
use surakarta_match::{
    openings, run_match, EnginePlayer, ExternalEngine, GameEnd, MatchConfig, Player, PlayerError,
};
use surakarta_search::{Limits, Options};

/// `sh -c SCRIPT`.
fn script(text: &str) -> Vec<String> {
    vec!["sh".into(), "-c".into(), text.into()]
}

/// Answers the handshake, then on `go` prints `$0` forever (`yes`).
const FLOOD_ON_GO: &str = r#"while read -r line; do
  case "$line" in
    uci) echo "id name flood"; echo uciok ;;
    isready) echo readyok ;;
    go*) exec yes "$0" ;;
  esac
done"#;

/// Runs `f` on a thread and gives its result, or fails the test if it takes
/// longer than `limit` (the thread is left behind, and ends with the test
/// process).
fn within<T: Send + 'static>(limit: Duration, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(f());
    });
    match receiver.recv_timeout(limit) {
        Ok(value) => value,
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("still waiting on the engine after {limit:?}")
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("the engine's thread panicked"),
    }
}

/// The error of starting `command`, and how long the start took.
fn start_error(
    command: Vec<String>,
    timeout: Duration,
    output: OutputLimits,
) -> (String, Duration) {
    within(timeout + Duration::from_secs(15), move || {
        let started = Instant::now();
        let result = ExternalEngine::start_with_output_limits(
            "bad".into(),
            &command,
            &[],
            Limits::depth(1),
            timeout,
            output,
        );
        let Err(error) = result else {
            panic!("the engine started")
        };
        (error.to_string(), started.elapsed())
    })
}

/// No caps on the output: only the deadline stops the wait.
const UNCAPPED: OutputLimits = OutputLimits {
    wait_bytes: u64::MAX,
    wait_lines: u64::MAX,
    game_bytes: u64::MAX,
    game_lines: u64::MAX,
};

/// `yes info` never answers `uci` and never stops printing: with the caps
/// it fails on the lines it printed, without them on the deadline, which
/// the lines do not put off.
#[test]
fn an_engine_printing_forever_at_the_handshake_fails() {
    let (error, took) = start_error(
        script("exec yes info"),
        Duration::from_secs(5),
        OutputLimits::default(),
    );
    assert_eq!(
        error,
        "bad: printed more than 65536 lines while waiting for uciok"
    );
    assert!(took < Duration::from_secs(10), "{took:?}");

    let (error, took) = start_error(script("exec yes info"), Duration::from_secs(1), UNCAPPED);
    assert_eq!(error, "bad: no answer within 1.0 s");
    assert!(took < Duration::from_secs(8), "{took:?}");
}

/// An engine that prints a line every 0.1 s but never `uciok` fails at its
/// deadline, not later.
#[test]
fn an_engine_that_keeps_talking_but_never_answers_fails_at_the_deadline() {
    let chatty = script("while :; do echo 'info string thinking'; sleep 0.1; done");
    let (error, took) = start_error(chatty, Duration::from_secs(1), OutputLimits::default());
    assert_eq!(error, "bad: no answer within 1.0 s");
    assert!(took >= Duration::from_secs(1), "{took:?}");
    assert!(took < Duration::from_secs(8), "{took:?}");
}

/// A legal handshake, then `info` lines without end on `go`: the engine
/// forfeits on the lines or on the bytes, whichever cap comes first, long
/// before its move time is up; in a match it forfeits every game and the
/// match goes on.
#[test]
fn an_engine_flooding_info_while_thinking_forfeits() {
    let long_line = format!("info string {}", "x".repeat(1000));
    for (line, reason) in [
        (
            "info depth 1 score cp 0".to_string(),
            "printed more than 65536 lines while thinking on a move",
        ),
        (
            long_line,
            "printed more than 4194304 bytes while thinking on a move",
        ),
    ] {
        let (error, took) = within(Duration::from_secs(40), move || {
            let mut command = script(FLOOD_ON_GO);
            command.push(line);
            let mut engine = ExternalEngine::start(
                "flood".into(),
                &command,
                &[],
                Limits::depth(1),
                Duration::from_secs(20),
            )
            .expect("the handshake is answered");
            engine.new_game(Rules::ICGA).expect("readyok");
            let started = Instant::now();
            let error = engine.choose(&Game::default()).unwrap_err();
            (error, started.elapsed())
        });
        assert!(
            matches!(&error, PlayerError::External { name, message }
                if name == "flood" && message == reason),
            "{error}"
        );
        assert!(took < Duration::from_secs(20), "{took:?}");
    }

    let flood = || -> Result<Box<dyn Player>, PlayerError> {
        let mut command = script(FLOOD_ON_GO);
        command.push("info depth 1".into());
        let engine = ExternalEngine::start(
            "flood".into(),
            &command,
            &[],
            Limits::depth(1),
            Duration::from_secs(20),
        )?;
        Ok(Box::new(engine))
    };
    let ours = || -> Result<Box<dyn Player>, PlayerError> {
        Ok(Box::new(EnginePlayer::new(
            "ours".into(),
            Options::default(),
            None,
            Limits::depth(1),
        )?))
    };
    let config = MatchConfig {
        rules: Rules::ICGA,
        max_plies: 100,
        concurrency: 1,
        sprt: None,
        time_control: None,
    };
    let starts = openings::from_start(1, 4, 3);
    let (result, ends) = within(Duration::from_secs(60), move || {
        let collect = Collect::default();
        let result = run_match(
            &ours,
            &flood,
            &starts,
            &config,
            &collect,
            &AtomicBool::new(false),
        )
        .map(|r| (r.tally.wins, r.tally.games(), r.error.is_none()));
        (result, collect.0.into_inner().unwrap())
    });
    assert_eq!(result.unwrap(), (2, 2, true));
    assert_eq!(ends.len(), 2);
    for end in ends {
        assert!(
            matches!(end, GameEnd::Forfeit { .. })
                && end
                    .reason()
                    .ends_with("flood: printed more than 65536 lines while thinking on a move"),
            "{end}"
        );
    }
}

/// Keeps the games' ends.
#[derive(Default)]
struct Collect(std::sync::Mutex<Vec<GameEnd>>);

impl surakarta_match::Reporter for Collect {
    fn game_finished(&self, report: &surakarta_match::GameReport<'_>) {
        self.0.lock().unwrap().push(report.finished.end.clone());
    }
}

/// What an engine prints counts over the whole game too: each wait within
/// its cap, the game over its own. The count starts again with each game.
#[test]
fn what_an_engine_prints_is_capped_over_a_game() {
    // 800 lines of 100 bytes for each `isready` and on `go`, then silence.
    let chunk = r#"yes "info string $(printf '%088d' 0)" | head -n 800"#;
    let text = format!(
        r#"while read -r line; do
  case "$line" in
    uci) echo uciok ;;
    isready) {chunk}; echo readyok ;;
    go*) {chunk}; exec sleep 30 ;;
  esac
done"#
    );
    let output = OutputLimits {
        wait_bytes: 100_000,
        wait_lines: 1_000,
        game_bytes: 150_000,
        game_lines: 1_000_000,
    };
    let error = within(Duration::from_secs(30), move || {
        let mut engine = ExternalEngine::start_with_output_limits(
            "verbose".into(),
            &script(&text),
            &[],
            Limits::depth(1),
            Duration::from_secs(10),
            output,
        )
        .expect("80,000 bytes at the start are within the caps");
        // 80,000 more before the first game's `readyok`: the start's do
        // not count in the game.
        engine.new_game(Rules::ICGA).expect("a new game's count");
        engine.choose(&Game::default()).unwrap_err()
    });
    assert_eq!(
        error.to_string(),
        "verbose: printed more than 150000 bytes in one game"
    );
}
