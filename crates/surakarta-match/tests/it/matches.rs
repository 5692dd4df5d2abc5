//! Matches end to end with in-process players and scripted ones.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use surakarta::random::SplitMix;
use surakarta::{Color, Game, GameError, Move, Rules};
use surakarta_match::{
    openings, play_game_on_clock, record_file, resume_match, run_match, EnginePlayer, GameEnd,
    GameReport, MatchConfig, MatchError, PlayedGame, Player, PlayerError, Reporter, Silent, Sprt,
    SprtDecision, TimeControl,
};
use surakarta_search::{Limits, Options};

fn engine(depth: u32) -> impl Fn() -> Result<Box<dyn Player>, PlayerError> + Sync {
    move || {
        Ok(Box::new(EnginePlayer::new(
            format!("depth {depth}"),
            Options::default(),
            None,
            Limits::depth(depth),
        )?))
    }
}

/// Plays uniformly random legal moves.
struct RandomMover(SplitMix);

impl Player for RandomMover {
    fn name(&self) -> &str {
        "random"
    }
    fn new_game(&mut self, _rules: Rules) -> Result<(), PlayerError> {
        Ok(())
    }
    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
        let moves = game.legal_moves();
        Ok(moves[self.0.below(moves.len())])
    }
}

/// Always answers the first legal move's reverse, which is illegal.
struct Cheater;

impl Player for Cheater {
    fn name(&self) -> &str {
        "cheater"
    }
    fn new_game(&mut self, _rules: Rules) -> Result<(), PlayerError> {
        Ok(())
    }
    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
        let m = game.legal_moves()[0];
        Ok(Move::step(m.to(), m.from()))
    }
}

fn config(concurrency: usize) -> MatchConfig {
    MatchConfig {
        rules: Rules::ICGA,
        max_plies: 400,
        concurrency,
        sprt: None,
        time_control: None,
    }
}

/// Collects every report.
#[derive(Default)]
struct Collect(Mutex<Vec<Seen>>);

/// A report's game number, end, rules outcome and tally size.
type Seen = (usize, GameEnd, Option<surakarta::Outcome>, u32);

impl Reporter for Collect {
    fn game_finished(&self, r: &GameReport<'_>) {
        self.0.lock().unwrap().push((
            r.number,
            r.finished.end.clone(),
            r.finished.game.outcome(),
            r.tally.games(),
        ));
    }
}

#[test]
fn deeper_search_wins_and_reports_are_consistent() {
    let starts = openings::from_start(5, 8, 1);
    let collect = Collect::default();
    let stop = AtomicBool::new(false);
    // Depth 6: the tuned reductions make depth 4 little deeper than 1.
    let result = run_match(&engine(6), &engine(1), &starts, &config(2), &collect, &stop).unwrap();
    assert_eq!(result.tally.games(), 10);
    assert_eq!(result.scheduled, 10);
    // Five pairs, and their points are the tally's.
    assert_eq!(result.pairs.pairs(), 5);
    let half_points: u32 = (0..5).map(|k| k as u32 * result.pairs.counts[k]).sum();
    assert_eq!(half_points, 2 * result.tally.wins + result.tally.draws);
    assert!(result.tally.score() > 0.6, "{:?}", result.tally);
    let reports = collect.0.into_inner().unwrap();
    assert_eq!(reports.len(), 10);
    for (number, end, outcome, games) in &reports {
        assert_eq!(*number as u32, *games);
        match end {
            GameEnd::Rules(o) => assert_eq!(Some(*o), *outcome),
            GameEnd::PlyCap(_) => assert!(outcome.is_none()),
            GameEnd::Flag { .. } | GameEnd::Forfeit { .. } => panic!("an engine forfeited: {end}"),
        }
    }
}

#[test]
fn concurrency_does_not_change_deterministic_results() {
    let starts = openings::from_start(3, 6, 9);
    let stop = AtomicBool::new(false);
    let one = run_match(&engine(2), &engine(1), &starts, &config(1), &Silent, &stop).unwrap();
    let two = run_match(&engine(2), &engine(1), &starts, &config(2), &Silent, &stop).unwrap();
    assert_eq!(one.tally, two.tally);
}

#[test]
fn illegal_moves_forfeit_and_the_player_is_replaced() {
    let made = AtomicUsize::new(0);
    let cheater = || -> Result<Box<dyn Player>, PlayerError> {
        made.fetch_add(1, Ordering::Relaxed);
        Ok(Box::new(Cheater))
    };
    let random =
        || -> Result<Box<dyn Player>, PlayerError> { Ok(Box::new(RandomMover(SplitMix::new(1)))) };
    let starts = openings::from_start(2, 4, 3);
    let collect = Collect::default();
    let stop = AtomicBool::new(false);
    let result = run_match(&random, &cheater, &starts, &config(1), &collect, &stop).unwrap();
    assert_eq!((result.tally.wins, result.tally.games()), (4, 4));
    // One at the start and one after each of the four forfeits.
    assert_eq!(made.load(Ordering::Relaxed), 5);
    for (_, end, _, _) in collect.0.into_inner().unwrap() {
        let GameEnd::Forfeit { error, .. } = &end else {
            panic!("{end}")
        };
        assert!(
            matches!(
                error,
                PlayerError::Illegal {
                    error: GameError::Move(_),
                    ..
                }
            ),
            "{error}"
        );
        assert!(end.reason().contains("illegal move"), "{end}");
    }
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let random =
        || -> Result<Box<dyn Player>, PlayerError> { Ok(Box::new(RandomMover(SplitMix::new(5)))) };
    let starts = openings::from_start(100, 6, 4);
    let config = MatchConfig {
        sprt: Some(Sprt::new(0.0, 100.0, 0.05, 0.05).unwrap()),
        ..config(2)
    };
    let stop = AtomicBool::new(false);
    let result = run_match(&engine(2), &random, &starts, &config, &Silent, &stop).unwrap();
    let stop = result.sprt.unwrap();
    assert_eq!(stop.decision, SprtDecision::H1);
    assert!(stop.tally.games() <= result.tally.games());
    assert!(stop.pairs.pairs() <= result.pairs.pairs() && stop.pairs.pairs() > 0);
    assert!(result.tally.games() < 60, "{:?}", result.tally);
    assert!(!result.interrupted);
}

#[test]
fn a_raised_stop_flag_plays_nothing_more() {
    let starts = openings::from_start(4, 6, 4);
    let stop = AtomicBool::new(true);
    let result = run_match(&engine(1), &engine(1), &starts, &config(1), &Silent, &stop).unwrap();
    assert_eq!(result.tally.games(), 0);
    assert!(result.interrupted);
    assert!(run_match(&engine(1), &engine(1), &[], &config(1), &Silent, &stop).is_err());
}

#[test]
fn a_player_that_cannot_start_fails_the_match() {
    let broken =
        || -> Result<Box<dyn Player>, PlayerError> { Err(PlayerError::NoMove("broken".into())) };
    let starts = openings::from_start(2, 4, 3);
    let stop = AtomicBool::new(false);
    let err = run_match(&engine(1), &broken, &starts, &config(2), &Silent, &stop).unwrap_err();
    assert!(err.to_string().contains("broken"), "{err}");

    // A player that forfeits and then cannot restart ends the match, but
    // the games played count.
    let made = AtomicUsize::new(0);
    let once = || -> Result<Box<dyn Player>, PlayerError> {
        if made.fetch_add(1, Ordering::Relaxed) == 0 {
            Ok(Box::new(Cheater))
        } else {
            Err(PlayerError::NoMove("gone".into()))
        }
    };
    let result = run_match(&engine(1), &once, &starts, &config(1), &Silent, &stop).unwrap();
    assert_eq!((result.tally.wins, result.tally.games()), (1, 1));
    assert!(result.error.unwrap().to_string().contains("gone"));
}

/// An engine that never answers `uci` is given up after the player's
/// timeout, not a fixed ten seconds.
#[cfg(unix)]
#[test]
fn the_handshake_waits_for_the_timeout_given() {
    use std::time::{Duration, Instant};
    let started = Instant::now();
    let command = ["sleep".to_string(), "30".to_string()];
    let result = surakarta_match::ExternalEngine::start(
        "mute".into(),
        &command,
        &[],
        Limits::depth(1),
        Duration::from_secs(1),
    );
    let Err(error) = result else {
        panic!("a mute engine started")
    };
    assert_eq!(error.to_string(), "mute: no answer within 1.0 s");
    // One second of waiting and half a second for the process to quit.
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "{:?}",
        started.elapsed()
    );
}

/// Thinks for a fixed wall time, then plays a random move.
struct Sleeper(SplitMix, std::time::Duration);

impl Player for Sleeper {
    fn name(&self) -> &str {
        "sleeper"
    }
    fn new_game(&mut self, _rules: Rules) -> Result<(), PlayerError> {
        Ok(())
    }
    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
        std::thread::sleep(self.1);
        let moves = game.legal_moves();
        Ok(moves[self.0.below(moves.len())])
    }
}

/// On a clock, a side that spends more than its time loses on time, an
/// increment larger than its thinking keeps it alive, and the engine
/// shares its time out over a game without losing on time.
#[test]
fn a_side_whose_clock_runs_out_loses_on_time() {
    let think = std::time::Duration::from_millis(30);
    let start = surakarta::Position::new();
    // 0.1 s for the game, 30 ms a move: the fourth move runs out of time.
    let control: TimeControl = "0.1".parse().unwrap();
    let mut sleeper = Sleeper(SplitMix::new(1), think);
    let mut random = RandomMover(SplitMix::new(2));
    let finished = play_game_on_clock(
        &mut random,
        &mut sleeper,
        start,
        Rules::ICGA,
        100,
        Some(control),
    );
    assert_eq!(
        finished.end,
        GameEnd::Flag {
            loser: Color::White
        }
    );
    assert_eq!(finished.end.winner(), Some(Color::Black));
    assert_eq!(finished.end.reason(), "white lost on time");
    assert!(
        (5..=8).contains(&finished.game.moves().len()),
        "{}",
        finished.game.moves().len()
    );
    // An increment above its thinking time: never out of time.
    let control: TimeControl = "0.1+0.05".parse().unwrap();
    let finished = play_game_on_clock(
        &mut random,
        &mut sleeper,
        start,
        Rules::ICGA,
        20,
        Some(control),
    );
    assert!(
        !matches!(finished.end, GameEnd::Flag { .. }),
        "{}",
        finished.end
    );
    // The engine with no limit but the clock: 1 s + 10 ms for 40 plies,
    // its time shared out.
    let engine = || EnginePlayer::new("clock".into(), Options::default(), None, Limits::default());
    let (mut black, mut white) = (engine().unwrap(), engine().unwrap());
    let control: TimeControl = "1+0.01".parse().unwrap();
    let finished = play_game_on_clock(
        &mut black,
        &mut white,
        start,
        Rules::ICGA,
        40,
        Some(control),
    );
    assert!(
        !matches!(finished.end, GameEnd::Flag { .. }),
        "{}",
        finished.end
    );
}

/// Writes each finished game to a text as a match's record file does.
struct RecordText {
    event: &'static str,
    text: Mutex<String>,
}

impl Reporter for RecordText {
    fn game_finished(&self, report: &GameReport<'_>) {
        let record = record_file::game_record(self.event, report, None);
        self.text.lock().unwrap().push_str(&format!("{record}\n"));
    }
}

#[test]
fn a_match_resumed_from_its_record_file_ends_as_if_never_stopped() {
    let starts = openings::from_start(4, 6, 12);
    let stop = AtomicBool::new(false);
    let (deep, shallow) = (engine(2), engine(1));
    let whole = RecordText {
        event: "resume",
        text: Mutex::new(String::new()),
    };
    let all = run_match(&deep, &shallow, &starts, &config(1), &whole, &stop).unwrap();
    let text = whole.text.into_inner().unwrap();
    let identity = record_file::MatchIdentity {
        event: "resume",
        first: "depth 2",
        rules: Rules::ICGA,
        time_control: None,
        openings: &starts,
    };
    assert_eq!(
        record_file::read_played(&text, &identity)
            .unwrap()
            .games
            .len(),
        8
    );

    // Stopped while writing the fourth game: three whole games count.
    let fourth = text.match_indices("[Event").nth(3).unwrap().0;
    let cut = &text[..fourth + 60];
    let played = record_file::read_played(cut, &identity).unwrap();
    assert_eq!((played.games.len(), played.whole_len), (3, fourth));
    let rest = RecordText {
        event: "resume",
        text: Mutex::new(cut[..played.whole_len].to_string()),
    };
    let resumed = resume_match(
        &deep,
        &shallow,
        &starts,
        &played.games,
        &config(1),
        &rest,
        &stop,
    )
    .unwrap();
    assert_eq!((resumed.tally, resumed.pairs), (all.tally, all.pairs));
    let text = rest.text.into_inner().unwrap();
    let again = record_file::read_played(&text, &identity).unwrap();
    assert_eq!(again.games.len(), 8);
    assert_eq!(again.whole_len, text.len());
    // Rounds go on after the games resumed.
    assert!(text.contains("[Round \"8\"]"));

    // Every game played: nothing more starts, the tally stands.
    let broken =
        || -> Result<Box<dyn Player>, PlayerError> { Err(PlayerError::NoMove("started".into())) };
    let done = resume_match(
        &broken,
        &broken,
        &starts,
        &again.games,
        &config(2),
        &Silent,
        &stop,
    )
    .unwrap();
    assert_eq!(done.tally, all.tally);

    // Another match's file, or the same games given twice, are refused.
    let other = record_file::MatchIdentity {
        first: "depth 3",
        ..identity
    };
    assert!(matches!(
        record_file::read_played(&text, &other),
        Err(record_file::PlayedError::OtherMatch { game: 1, .. })
    ));
    let fewer = record_file::MatchIdentity {
        openings: &starts[..2],
        ..identity
    };
    let error = record_file::read_played(&text, &fewer).unwrap_err();
    assert!(error.to_string().contains("opening"), "{error}");
    let twice = [played.games[0], played.games[0]];
    assert!(matches!(
        resume_match(&deep, &shallow, &starts, &twice, &config(1), &Silent, &stop),
        Err(MatchError::PlayedTwice { .. })
    ));
    let beyond = [PlayedGame {
        opening: 4,
        ..played.games[0]
    }];
    assert!(matches!(
        resume_match(
            &deep,
            &shallow,
            &starts,
            &beyond,
            &config(1),
            &Silent,
            &stop
        ),
        Err(MatchError::PlayedOpening {
            opening: 5,
            openings: 4
        })
    ));
    // A note after the last game, or a game twice, is refused.
    assert!(matches!(
        record_file::read_played(&format!("{text}note\n"), &identity),
        Err(record_file::PlayedError::TextAfterGame { game: 8, .. })
    ));
    let first = &text[..text.match_indices("[Event").nth(1).unwrap().0];
    assert!(matches!(
        record_file::read_played(&format!("{text}{first}"), &identity),
        Err(record_file::PlayedError::PlayedTwice {
            game: 9,
            earlier: 1,
            ..
        })
    ));
    // Text before the first record, or a broken record before the last.
    assert!(record_file::read_played(&format!("x\n{text}"), &identity).is_err());
    let broken_middle = text.replacen("[Result", "[Result \"", 1);
    assert!(matches!(
        record_file::read_played(&broken_middle, &identity),
        Err(record_file::PlayedError::Record { game: 1, .. })
    ));
}

#[test]
fn a_decided_sprt_plays_nothing_more_on_resume() {
    // The first player won both games of 15 of the 30 openings.
    let starts = openings::from_start(30, 6, 4);
    let played: Vec<PlayedGame> = (0..15)
        .flat_map(|opening| {
            [Color::Black, Color::White].map(|color| PlayedGame {
                opening,
                first_color: color,
                winner: Some(color),
            })
        })
        .collect();
    let config = MatchConfig {
        sprt: Some(Sprt::new(0.0, 100.0, 0.05, 0.05).unwrap()),
        ..config(2)
    };
    let broken =
        || -> Result<Box<dyn Player>, PlayerError> { Err(PlayerError::NoMove("started".into())) };
    let stop = AtomicBool::new(false);
    let result = resume_match(&broken, &broken, &starts, &played, &config, &Silent, &stop).unwrap();
    assert_eq!(result.sprt.map(|s| s.decision), Some(SprtDecision::H1));
    assert_eq!(result.tally.games(), 30);
    assert_eq!(result.scheduled, 60);
}
