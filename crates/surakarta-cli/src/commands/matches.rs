//! `surakarta match`: two engine configurations (in-process or external
//! programs) play a match; live progress, a record file, the final score
//! with Elo and an optional SPRT stop.

use crate::common::checks::{
    in_range, BALANCE_CP, CONCURRENCY, GAME_PLIES, MAX_DEPTH, NODES, OPENING_PLIES,
};
use crate::common::error::CliError;
use crate::common::evaluation::evaluation;
use crate::common::memory::check_memory_fits;
use crate::common::output::{check_not_input, check_output, create_output};
use crate::common::tables;
use crate::progress::counter;
use clap::Args;
use indicatif::ProgressBar;
use serde_json::json;
use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use surakarta::{Excerpt, Position, Rules};
use surakarta_match::{
    openings, record_file, resume_match, EnginePlayer, ExternalEngine, GameReport, MatchConfig,
    MatchResult, PlayedGame, Player, PlayerError, Reporter, Sprt, SprtDecision, Tally, TimeControl,
};
use surakarta_search::{Limits, Options, SearchParameters, Smp, TimeManagement, MAX_LEVEL};
use surakarta_tablebase::{read_regular_file, Tablebase};

/// The arguments of `surakarta match`.
#[derive(Args, Debug)]
pub(crate) struct MatchArgs {
    /// The first player: comma-separated settings, e.g.
    /// `depth=6,tb=tables,name=tb` or `movetime=100,cmd=./engine --flag`
    /// (keys: name, depth, nodes, movetime, threads, hash, eval, eval-file, smp,
    /// level, time-management, tb, timeout, cmd, and the search parameters
    /// of `surakarta tune --list`; `cmd` takes the rest of the text).
    #[arg(long, value_name = "SPEC")]
    first: String,
    /// The second player, in the same form.
    #[arg(long, value_name = "SPEC")]
    second: String,
    /// Openings: `start` (the start position after --plies random moves),
    /// `random` (random boards of --pieces pieces, sides differing by at
    /// most --max-diff), `thinned` (the start position with pieces removed
    /// at random down to --pieces, sides differing by at most --max-diff,
    /// then --plies random moves), or a file of positions, one per line.
    #[arg(long, value_name = "SOURCE", default_value = "start")]
    openings: String,
    /// Games to play; each opening is played twice, colours swapped, so an
    /// odd number is rounded up. Default: 100, or two per position of an
    /// openings file.
    #[arg(long, short = 'n', value_name = "N")]
    games: Option<usize>,
    /// Random plies from the start position (`--openings start` or
    /// `thinned`), 0 to 200.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = in_range(OPENING_PLIES))]
    plies: usize,
    /// Pieces on a random or thinned board (`--openings random` or
    /// `thinned`), 2 to 24.
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = in_range(2..=24u32))]
    pieces: u32,
    /// Largest difference between the sides' piece counts on a random or
    /// thinned board, 0 to 22.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = in_range(0..=22u32))]
    max_diff: u32,
    /// Seed of the random openings.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Keep only balanced openings: those the default engine (or
    /// --balance-eval) scores within this many centipawns either way after
    /// a search of --balance-nodes nodes (generated openings are drawn
    /// until enough pass; an openings file is filtered in its order), 1 to
    /// 100000.
    #[arg(long, value_name = "CP", value_parser = in_range(BALANCE_CP))]
    balance: Option<u32>,
    /// Nodes of the search that judges an opening's balance (--balance),
    /// 1 to 10⁹.
    #[arg(long, value_name = "N", default_value_t = openings::DEFAULT_BALANCE_NODES,
          value_parser = in_range(NODES))]
    balance_nodes: u64,
    /// The evaluation of the search that judges balance: `classic`,
    /// `paper`, `nnue` or `default` (--balance).
    #[arg(long, value_name = "NAME")]
    balance_eval: Option<String>,
    /// A network file (`.sknn`) for the search that judges balance.
    #[arg(long, value_name = "PATH")]
    balance_eval_file: Option<PathBuf>,
    /// Rule set: icga, pku, pure, or a list like repetitions=3,no-capture=50.
    #[arg(long, value_name = "RULES", default_value = "icga")]
    rules: String,
    /// Games stopped and drawn at this many plies, 1 to 100000 (the most
    /// moves a game record holds).
    #[arg(long, value_name = "PLIES", default_value_t = 1000, value_parser = in_range(GAME_PLIES))]
    max_plies: usize,
    /// Games played at the same time, 1 to 256.
    #[arg(long, short = 'c', value_name = "N", default_value_t = 1, value_parser = in_range(CONCURRENCY))]
    concurrency: usize,
    /// Stop early by SPRT: `ELO0,ELO1[,ALPHA,BETA]` (error rates default to
    /// 0.05), e.g. `0,10`.
    #[arg(
        long,
        value_name = "ELO0,ELO1[,ALPHA,BETA]",
        allow_hyphen_values = true
    )]
    sprt: Option<String>,
    /// Both players on a clock: `SECONDS+INCREMENT` (for example
    /// `2+0.05`); each keeps its own limits as well, and a side whose time
    /// runs out loses the game.
    #[arg(long, value_name = "SECONDS+INC")]
    tc: Option<TimeControl>,
    /// Write every game to this record file (docs/notation.md).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Go on with the match whose games are in the --record file (same
    /// players, openings and settings): its games count, the others are
    /// played and added to it. Without the file, the match starts.
    #[arg(long, requires = "record")]
    resume: bool,
    /// Print one JSON object at the end (and no progress) instead of text.
    #[arg(long)]
    json: bool,
}

/// Most games one match plays.
const MAX_GAMES: usize = 20_000_000;

/// One side of the match as given on the command line.
#[derive(Debug, Clone, PartialEq)]
struct PlayerSpec {
    name: Option<String>,
    limits: Limits,
    threads: Option<usize>,
    hash: Option<usize>,
    eval: Option<String>,
    eval_file: Option<PathBuf>,
    tb: Option<PathBuf>,
    smp: Option<Smp>,
    level: Option<u8>,
    time_management: Option<TimeManagement>,
    /// The tunable search parameters given (the others keep their default).
    parameters: SearchParameters,
    timeout: Option<Duration>,
    command: Option<Vec<String>>,
}

impl PlayerSpec {
    /// The spec of `--{flag}`; on a clock (`--tc`) no limit per move is
    /// needed.
    fn parse(flag: &str, text: &str, clock: bool) -> Result<PlayerSpec, CliError> {
        let bad = |message: String| CliError(format!("--{flag}: {message}"));
        let mut spec = PlayerSpec {
            name: None,
            limits: Limits::default(),
            threads: None,
            hash: None,
            eval: None,
            eval_file: None,
            tb: None,
            smp: None,
            level: None,
            time_management: None,
            parameters: SearchParameters::default(),
            timeout: None,
            command: None,
        };
        let mut rest = text.trim();
        let mut keys: Vec<&str> = Vec::new();
        while !rest.is_empty() {
            let (item, tail) = match rest.split_once(',') {
                Some((item, tail)) if !item.trim_start().starts_with("cmd=") => (item, tail),
                _ => (rest, ""),
            };
            rest = tail.trim();
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| bad(format!("expected key=value, found {}", Excerpt::new(item))))?;
            let (key, value) = (key.trim(), value.trim());
            if keys.contains(&key) {
                return Err(bad(format!(
                    "{} is given twice: give each key once",
                    Excerpt::new(key)
                )));
            }
            keys.push(key);
            let number = |what: &str, max: u64| -> Result<u64, CliError> {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|&n| (1..=max).contains(&n))
                    .ok_or_else(|| {
                        bad(format!(
                            "{key}: expected {what}, found {}",
                            Excerpt::new(value)
                        ))
                    })
            };
            match key {
                "name" if value.is_empty() => return Err(bad("name: empty".into())),
                "name" => spec.name = Some(value.to_string()),
                "depth" => {
                    spec.limits.depth = Some(number(
                        &format!("a depth of 1 to {MAX_DEPTH}"),
                        MAX_DEPTH.into(),
                    )? as u32)
                }
                "nodes" => spec.limits.nodes = Some(number("a node count of at least 1", u64::MAX)?),
                "movetime" => {
                    spec.limits.movetime =
                        Some(Duration::from_millis(number("milliseconds, at least 1", u64::MAX)?))
                }
                "threads" => spec.threads = Some(number("1 to 1024 threads", 1024)? as usize),
                "hash" => spec.hash = Some(number("a size of 1 to 65536 MiB", 65_536)? as usize),
                "eval" => spec.eval = Some(value.to_string()),
                "eval-file" => spec.eval_file = Some(PathBuf::from(value)),
                "smp" => {
                    spec.smp = Some(Smp::parse(value).ok_or_else(|| {
                        bad(format!(
                            "smp: expected siblings or lazy, found {}",
                            Excerpt::new(value)
                        ))
                    })?)
                }
                "level" => {
                    spec.level = Some(number(
                        &format!("a level of 1 to {MAX_LEVEL}"),
                        MAX_LEVEL.into(),
                    )? as u8)
                }
                "time-management" => {
                    spec.time_management = Some(value.parse().map_err(|e: String| {
                        bad(format!("time-management: {e}"))
                    })?)
                }
                "tb" => spec.tb = Some(PathBuf::from(value)),
                "timeout" => {
                    spec.timeout = Some(Duration::from_secs(number("seconds, at least 1", 86_400)?))
                }
                "cmd" => {
                    let words: Vec<String> = value.split_whitespace().map(String::from).collect();
                    if words.is_empty() {
                        return Err(bad("cmd: empty command".into()));
                    }
                    spec.command = Some(words);
                }
                _ if spec.parameters.get(key).is_some() => {
                    let number = value.parse::<i64>().map_err(|_| {
                        bad(format!("{key}: expected a whole number, found {}", Excerpt::new(value)))
                    })?;
                    spec.parameters
                        .set(key, number)
                        .map_err(|e| bad(e.to_string()))?;
                }
                _ => {
                    return Err(bad(format!(
                        "unknown key {}: expected name, depth, nodes, movetime, threads, hash, eval, eval-file, smp, level, time-management, tb, timeout, cmd or a search parameter (`surakarta tune --list`)",
                        Excerpt::new(key)
                    )))
                }
            }
        }
        if spec.limits == Limits::default() && !clock {
            return Err(bad(
                "give a limit per move: depth=N, nodes=N or movetime=MS (or a clock: --tc)".into(),
            ));
        }
        if spec.timeout.is_some() && spec.command.is_none() {
            return Err(bad(
                "timeout applies to external engines (cmd=…) only".into()
            ));
        }
        Ok(spec)
    }

    /// The name in records and reports.
    fn display_name(&self) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        let mut parts = Vec::new();
        if let Some(command) = &self.command {
            parts.push(command[0].clone());
        } else {
            parts.push("surakarta".into());
        }
        if let Some(d) = self.limits.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.limits.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(t) = self.limits.movetime {
            parts.push(format!("movetime={}", t.as_millis()));
        }
        if let Some(level) = self.level {
            parts.push(format!("level={level}"));
        }
        if let Some(t) = self.time_management {
            parts.push(format!("time-management={t}"));
        }
        if self.parameters != SearchParameters::default() {
            parts.push(self.parameters.to_string());
        }
        if self.tb.is_some() {
            parts.push("tb".into());
        }
        if let Some(e) = &self.eval {
            parts.push(format!("eval={e}"));
        }
        if let Some(f) = &self.eval_file {
            parts.push(format!("eval-file={}", f.display()));
        }
        if let Some(Smp::Lazy) = self.smp {
            parts.push("smp=lazy".into());
        }
        parts.join(" ")
    }

    /// The engine options of an in-process player.
    fn options(&self) -> Result<Options, CliError> {
        let evaluation = evaluation(
            self.eval.as_deref(),
            self.eval_file.as_deref(),
            ["eval", "eval-file"],
        )
        .map_err(CliError)?;
        Ok(Options {
            evaluation,
            ..self.options_but_evaluation()
        })
    }

    /// [`PlayerSpec::options`] with the default evaluation: all that decides
    /// the engine's size, without reading a network file.
    fn options_but_evaluation(&self) -> Options {
        Options {
            threads: self.threads.unwrap_or(1),
            hash_mb: self.hash.unwrap_or(64),
            smp: self.smp.unwrap_or_default(),
            level: self.level,
            time_management: self.time_management.unwrap_or_default(),
            parameters: self.parameters,
            ..Options::default()
        }
    }

    /// The `setoption` pairs sent to an external engine.
    fn protocol_options(&self) -> Vec<(String, String)> {
        let mut options = Vec::new();
        if let Some(t) = self.threads {
            options.push(("Threads".into(), t.to_string()));
        }
        if let Some(h) = self.hash {
            options.push(("Hash".into(), h.to_string()));
        }
        if let Some(e) = &self.eval {
            options.push(("Eval".into(), e.clone()));
        }
        if let Some(f) = &self.eval_file {
            options.push(("EvalFile".into(), f.display().to_string()));
        }
        if let Some(dir) = &self.tb {
            options.push(("TablebasePath".into(), dir.display().to_string()));
        }
        if let Some(smp) = self.smp {
            options.push(("Smp".into(), smp.name().into()));
        }
        if let Some(t) = self.time_management {
            options.push(("TimeManagement".into(), t.to_string()));
        }
        for (name, value) in self.parameters.changed() {
            options.push((name.into(), value.to_string()));
        }
        if let Some(level) = self.level {
            options.push(("Level".into(), level.to_string()));
        }
        options
    }
}

/// A factory for one side's players.
type Factory = Box<dyn Fn() -> Result<Box<dyn Player>, PlayerError> + Sync>;

/// The player factory for `spec`; errors name the flag (`--first`).
fn factory(
    flag: &str,
    spec: PlayerSpec,
    name: String,
    tables: &mut HashMap<PathBuf, Arc<Tablebase>>,
) -> Result<Factory, CliError> {
    if let Some(command) = spec.command.clone() {
        let options = spec.protocol_options();
        let timeout = spec.timeout.unwrap_or(Duration::from_secs(60));
        return Ok(Box::new(move || {
            let engine =
                ExternalEngine::start(name.clone(), &command, &options, spec.limits, timeout)?;
            Ok(Box::new(engine) as Box<dyn Player>)
        }));
    }
    let prefixed = |e: CliError| CliError(format!("--{flag}: {}", e.0));
    let options = spec.options().map_err(prefixed)?;
    let tablebase = match &spec.tb {
        None => None,
        Some(dir) => Some(match tables.get(dir) {
            Some(tb) => tb.clone(),
            None => {
                let tb = Arc::new(
                    tables::open(dir)
                        .map_err(|e| CliError(format!("--{flag}: tablebase directory {}", e.0)))?,
                );
                tables.insert(dir.clone(), tb.clone());
                tb
            }
        }),
    };
    let limits = spec.limits;
    Ok(Box::new(move || {
        let player = EnginePlayer::new(name.clone(), options.clone(), tablebase.clone(), limits)?;
        Ok(Box::new(player) as Box<dyn Player>)
    }))
}

fn parse_sprt(text: &str) -> Result<Sprt, CliError> {
    let bad = || {
        CliError(format!(
            "--sprt {}: expected ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA, e.g. 0,10",
            Excerpt::new(text)
        ))
    };
    let numbers: Vec<f64> = text
        .split(',')
        .map(|s| s.trim().parse::<f64>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    let (elo0, elo1, alpha, beta) = match numbers[..] {
        [a, b] => (a, b, 0.05, 0.05),
        [a, b, c, d] => (a, b, c, d),
        _ => return Err(bad()),
    };
    Sprt::new(elo0, elo1, alpha, beta).map_err(|e| CliError(format!("--sprt: {e}")))
}

/// The first player's result line: `W-D-L, score, Elo`.
fn summary(tally: &Tally) -> String {
    let elo = match tally.elo() {
        Some(e) => format!("Elo {:+.1} [{:+.1}, {:+.1}]", e.diff, e.low, e.high),
        None => "Elo n/a".into(),
    };
    format!(
        "{}-{}-{} (W-D-L)  score {:.1}%  {elo}",
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * tally.score()
    )
}

/// Shows progress and writes records as games finish.
struct Progress {
    bar: ProgressBar,
    text: bool,
    record: Option<Mutex<File>>,
    record_error: Mutex<Option<String>>,
    first_name: String,
    event: String,
    time_control: Option<TimeControl>,
    /// Raised when stdout is closed: no more games.
    stop: AtomicBool,
}

impl Reporter for Progress {
    fn game_finished(&self, report: &GameReport<'_>) {
        let finished = report.finished;
        let t = report.tally;
        self.bar.set_position(report.number as u64);
        self.bar.set_message(summary(&t));
        if self.text {
            let line = format!(
                "game {:>4} (opening {}, {} as {}): {} vs {}: {}  [{}-{}-{}]",
                report.number,
                report.opening + 1,
                self.first_name,
                report.first_color,
                report.names[0],
                report.names[1],
                finished.end,
                t.wins,
                t.draws,
                t.losses
            );
            // A closed stdout (`| head`) ends the match quietly instead of
            // panicking in `println!`.
            let written = self.bar.suspend(|| {
                let mut out = std::io::stdout().lock();
                writeln!(out, "{line}").and_then(|()| out.flush())
            });
            if written.is_err() {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
        if let Some(file) = &self.record {
            let record = record_file::game_record(&self.event, report, self.time_control);
            let mut file = file.lock().unwrap_or_else(|p| p.into_inner());
            if let Err(e) = writeln!(file, "{record}").and_then(|()| file.flush()) {
                self.record_error
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .get_or_insert(e.to_string());
            }
        }
    }
}

/// The match to play, checked.
struct Settings {
    rules: Rules,
    first: PlayerSpec,
    second: PlayerSpec,
    sprt: Option<Sprt>,
    /// The openings, each played twice with colours swapped.
    starts: Vec<Position>,
}

/// Checks the rules, both players, the SPRT, the concurrency and the game
/// count, and makes or reads the openings.
fn check(args: &MatchArgs) -> Result<Settings, CliError> {
    let rules: Rules = args.rules.parse()?;
    if let Some(record) = &args.record {
        check_output("--record", record)?;
        if !matches!(args.openings.as_str(), "start" | "random" | "thinned") {
            check_not_input("--record", record, Path::new(&args.openings))?;
        }
    }
    let clock = args.tc.is_some();
    let first = PlayerSpec::parse("first", &args.first, clock)?;
    let second = PlayerSpec::parse("second", &args.second, clock)?;
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    // Every game running holds an engine of each in-process player: the
    // engines (tables, threads' stacks and search state) must fit
    // together, or the run is killed midway.
    let engine_bytes = |spec: &PlayerSpec| match spec.command {
        Some(_) => 0,
        None => spec.options_but_evaluation().memory_bytes(),
    };
    let engines = (engine_bytes(&first).saturating_add(engine_bytes(&second)))
        .saturating_mul(args.concurrency as u64);
    if engines > 0 {
        check_memory_fits(
            &match args.concurrency {
                1 => "the engines of both players (their hash and threads)".to_string(),
                n => format!(
                    "the engines of both players (their hash and threads) in {n} games at once (--concurrency)"
                ),
            },
            engines,
        )
        .map_err(CliError)?;
    }
    if args.games.is_some_and(|g| g == 0 || g > MAX_GAMES) {
        return Err(CliError(format!("--games must be 1 to {MAX_GAMES}")));
    }
    let pairs = |default: usize| args.games.map_or(default, |g| g.div_ceil(2));
    let balance = match args.balance {
        None => None,
        Some(max_score) => {
            let mut balance = openings::Balance {
                nodes: args.balance_nodes,
                ..openings::Balance::new(max_score, rules)
            };
            balance.options.evaluation = evaluation(
                args.balance_eval.as_deref(),
                args.balance_eval_file.as_deref(),
                ["--balance-eval", "--balance-eval-file"],
            )
            .map_err(CliError)?;
            Some(balance)
        }
    };
    let starts = match args.openings.as_str() {
        kind @ ("start" | "random" | "thinned") => {
            // Batch 0, 1, … of the generator; the first batch of a seed is
            // that seed's unfiltered openings.
            let generate = |batch: u64, n: usize| {
                let seed = openings::batch_seed(args.seed, batch);
                match kind {
                    "start" => Ok(openings::from_start(n, args.plies, seed)),
                    "random" => openings::random_boards(n, args.pieces, args.max_diff, seed),
                    _ => openings::thinned_start(n, args.pieces, args.max_diff, args.plies, seed),
                }
            };
            match &balance {
                None => generate(0, pairs(50))?,
                Some(balance) => {
                    let bar = counter(pairs(50) as u64, "balanced openings", !args.json);
                    let starts = openings::balanced(
                        pairs(50),
                        balance,
                        args.concurrency,
                        |batch| generate(batch, openings::BALANCE_BATCH),
                        &|_, kept| bar.set_position(kept as u64),
                    )?;
                    bar.finish_and_clear();
                    starts
                }
            }
        }
        path => {
            let text = read_openings_file(path)?;
            let mut all =
                openings::parse_file(&text, rules).map_err(|e| CliError(format!("{path}: {e}")))?;
            if let Some(balance) = &balance {
                let verdicts = openings::judge_balance(&all, balance, args.concurrency)?;
                let mut verdicts = verdicts.into_iter();
                all.retain(|_| verdicts.next().unwrap_or(false));
                if all.is_empty() {
                    return Err(CliError(format!(
                        "{path}: no position is balanced within {} centipawns",
                        balance.max_score
                    )));
                }
            }
            let n = pairs(all.len());
            if n > all.len() {
                let which = if balance.is_some() { " balanced" } else { "" };
                return Err(CliError(format!(
                    "{path} has {}{which} positions: at most {} games",
                    all.len(),
                    2 * all.len()
                )));
            }
            all.truncate(n);
            all
        }
    };
    Ok(Settings {
        rules,
        first,
        second,
        sprt,
        starts,
    })
}

/// The text of the openings file at `path`: a regular file (never a FIFO,
/// a device or a directory, which would block or never end) of at most
/// [`openings::MAX_FILE_LEN`] bytes, read through
/// [`read_regular_file`], which stops one byte past the limit.
fn read_openings_file(path: &str) -> Result<String, CliError> {
    let cannot = |e: std::io::Error| CliError(format!("cannot read openings file {path}: {e}"));
    let bytes = read_regular_file(Path::new(path), openings::MAX_FILE_LEN as u64).map_err(|e| {
        match e.kind() {
            std::io::ErrorKind::InvalidData => CliError(format!(
                "{path}: openings file too long (more than {} bytes)",
                openings::MAX_FILE_LEN
            )),
            _ => cannot(e),
        }
    })?;
    String::from_utf8(bytes).map_err(|_| {
        cannot(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        ))
    })
}

/// Runs `surakarta match`: the games (with progress and records as they
/// finish), then the result.
pub(crate) fn run(args: MatchArgs) -> Result<(), CliError> {
    let Settings {
        rules,
        first,
        second,
        sprt,
        starts,
    } = check(&args)?;
    let (mut first_name, mut second_name) = (first.display_name(), second.display_name());
    if first_name == second_name {
        first_name.push_str(" (1)");
        second_name.push_str(" (2)");
    }
    let mut tables = HashMap::new();
    let first_factory = factory("first", first, first_name.clone(), &mut tables)?;
    let second_factory = factory("second", second, second_name.clone(), &mut tables)?;

    let event = format!("surakarta match: {first_name} vs {second_name}");
    let identity = record_file::MatchIdentity {
        event: &event,
        first: &first_name,
        rules,
        time_control: args.tc,
        openings: &starts,
    };
    let (record, played) = match &args.record {
        None => (None, Vec::new()),
        Some(path) => {
            let (kept, played) = if args.resume {
                resume_record(path, &identity)?
            } else {
                (String::new(), Vec::new())
            };
            (
                Some(Mutex::new(create_output(path, kept.as_bytes())?)),
                played,
            )
        }
    };
    let bar = counter(2 * starts.len() as u64, "games", !args.json);
    bar.set_position(played.len() as u64);
    let progress = Progress {
        bar,
        text: !args.json,
        record,
        record_error: Mutex::new(None),
        first_name: first_name.clone(),
        event: event.clone(),
        time_control: args.tc,
        stop: AtomicBool::new(false),
    };
    let config = MatchConfig {
        rules,
        max_plies: args.max_plies,
        concurrency: args.concurrency,
        sprt,
        time_control: args.tc,
    };
    let started = Instant::now();
    let result = resume_match(
        &*first_factory,
        &*second_factory,
        &starts,
        &played,
        &config,
        &progress,
        &progress.stop,
    )?;
    if result.interrupted {
        // Nobody is reading stdout any more.
        return Ok(());
    }
    progress.bar.finish_and_clear();
    let report = Report {
        first: first_name,
        second: second_name,
        rules,
        sprt,
        time_control: args.tc,
        seconds: started.elapsed().as_secs_f64(),
        resumed: played.len(),
        result,
    };
    if args.json {
        println!("{}", report_json(&report));
    } else {
        print_report(&report);
    }
    // Failures after games were played: the results above stand.
    if let Some(e) = report.result.error {
        return Err(CliError(format!("the match ended early: {e}")));
    }
    if let Some(e) = progress
        .record_error
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take()
    {
        return Err(CliError(format!("cannot write the record file: {e}")));
    }
    Ok(())
}

/// Most bytes of a record file a resumed match reads.
const MAX_RESUMED_RECORD_BYTES: u64 = 1 << 30;

/// The text to keep of the record file at `path` of the match `identity`
/// (its whole records, ending in a blank line so the next record can
/// follow; a record cut off at its end is dropped) and the games those
/// records show; a missing file is kept as nothing. The file is only
/// read: anything but whole records and one cut off at the end is an
/// error, with the file as it was.
fn resume_record(
    path: &Path,
    identity: &record_file::MatchIdentity<'_>,
) -> Result<(String, Vec<PlayedGame>), CliError> {
    let shown = path.display();
    let bytes = match read_regular_file(path, MAX_RESUMED_RECORD_BYTES) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(CliError(format!("cannot read record file {shown}: {e}"))),
    };
    let mut text = String::from_utf8(bytes)
        .map_err(|_| CliError(format!("{shown}: the record file is not UTF-8 text")))?;
    let played = record_file::read_played(&text, identity).map_err(|e| {
        CliError(format!(
            "cannot resume from {shown}: {e}; the file is left as it was"
        ))
    })?;
    text.truncate(played.whole_len);
    // The next record follows a blank line.
    let missing = if text.is_empty() || text.ends_with("\n\n") {
        ""
    } else if text.ends_with('\n') {
        "\n"
    } else {
        "\n\n"
    };
    text.push_str(missing);
    Ok((text, played.games))
}

/// A finished match, for printing.
struct Report {
    /// The first player's name.
    first: String,
    /// The second player's name.
    second: String,
    rules: Rules,
    sprt: Option<Sprt>,
    /// The clock of both players (`--tc`).
    time_control: Option<TimeControl>,
    /// Seconds of this run (not of the games resumed).
    seconds: f64,
    /// Games read back from the record file (`--resume`).
    resumed: usize,
    result: MatchResult,
}

impl Report {
    /// The SPRT's decision (`H0`, `H1`), if it stopped the match, and the
    /// tally when it was made (games running then are counted in the tally
    /// afterwards).
    fn decision(&self) -> Option<(&'static str, Tally)> {
        self.result.sprt.map(|stop| {
            let name = match stop.decision {
                SprtDecision::H0 => "H0",
                SprtDecision::H1 => "H1",
            };
            (name, stop.tally)
        })
    }

    /// The LLR of the pairs when the SPRT decided, else at the end.
    fn llr(&self, s: &Sprt) -> f64 {
        let pairs = self
            .result
            .sprt
            .map_or(self.result.pairs, |stop| stop.pairs);
        s.llr_pairs(&pairs)
    }
}

/// The result as the JSON object of `--json`.
fn report_json(report: &Report) -> serde_json::Value {
    let result = &report.result;
    let t = result.tally;
    let decision = report.decision();
    let elo = t.elo();
    json!({
        "first": report.first,
        "second": report.second,
        "rules": report.rules.to_string(),
        "tc": report.time_control.map(|tc| tc.to_string()),
        "games": t.games(),
        "scheduled": result.scheduled,
        "wins": t.wins,
        "draws": t.draws,
        "losses": t.losses,
        "score": t.score(),
        "elo": elo.map(|e| e.diff),
        "elo_low": elo.map(|e| e.low),
        "elo_high": elo.map(|e| e.high),
        "pentanomial": result.pairs.counts,
        "elo_pairs": result.pairs.elo().map(|e| json!({
            "elo": e.diff, "low": e.low, "high": e.high,
        })),
        "sprt": report.sprt.map(|s| json!({
            "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
            "llr": report.llr(&s), "lower": s.bounds().0, "upper": s.bounds().1,
            "decision": decision.map(|(d, _)| d),
            "decided_after": decision.map(|(_, at)| at.games()),
        })),
        "seconds": report.seconds,
        "resumed": report.resumed,
    })
}

/// Prints the result as text: the score, the pairs and the SPRT.
fn print_report(report: &Report) {
    let result = &report.result;
    let t = result.tally;
    let clock = report
        .time_control
        .map_or(String::new(), |tc| format!(" at {tc}"));
    let resumed = match report.resumed {
        0 => String::new(),
        n => format!(" ({n} of them resumed from the record file)"),
    };
    println!(
        "{} vs {}: {} games{clock} in {:.1} s{resumed}",
        report.first,
        report.second,
        t.games(),
        report.seconds
    );
    println!("{}", summary(&t));
    if let Some(e) = result.pairs.elo() {
        let c = result.pairs.counts;
        println!(
            "pairs: {} (0 / ½ / 1 / 1½ / 2 points: {} / {} / {} / {} / {})  Elo {:+.1} [{:+.1}, {:+.1}]",
            result.pairs.pairs(),
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            e.diff,
            e.low,
            e.high
        );
    }
    if let Some(s) = report.sprt {
        let (lower, upper) = s.bounds();
        let verdict = report
            .decision()
            .map_or("undecided".to_string(), |(d, at)| {
                format!("{d} accepted after {} games", at.games())
            });
        println!(
            "SPRT elo0 {} elo1 {}: LLR {:.2} [{lower:.2}, {upper:.2}] {verdict}",
            s.elo0,
            s.elo1,
            report.llr(&s),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        let s = PlayerSpec::parse("first", "depth=6, tb=/tmp/t ,name=tb", false).unwrap();
        assert_eq!(s.limits.depth, Some(6));
        assert_eq!(s.tb, Some(PathBuf::from("/tmp/t")));
        assert_eq!(s.display_name(), "tb");
        let s = PlayerSpec::parse("second", "movetime=50,cmd=./engine --a, b", false).unwrap();
        assert_eq!(
            s.command,
            Some(vec!["./engine".to_string(), "--a,".into(), "b".into()])
        );
        assert_eq!(s.display_name(), "./engine movetime=50");
        let s = PlayerSpec::parse("first", "level=3,nodes=1000", false).unwrap();
        assert_eq!(s.level, Some(3));
        assert_eq!(s.options().unwrap().level, Some(3));
        assert_eq!(s.display_name(), "surakarta nodes=1000 level=3");
        assert!(s
            .protocol_options()
            .contains(&("Level".to_string(), "3".to_string())));
        let s = PlayerSpec::parse("first", "time-management=adaptive,nodes=1000", false).unwrap();
        assert_eq!(
            s.options().unwrap().time_management,
            TimeManagement::Adaptive
        );
        assert_eq!(
            s.display_name(),
            "surakarta nodes=1000 time-management=adaptive"
        );
        assert!(s
            .protocol_options()
            .contains(&("TimeManagement".to_string(), "adaptive".to_string())));
        for bad in [
            "time-management=fast,depth=2",
            "",
            "depth=0",
            "depth=x",
            "speed=3,depth=2",
            "depth",
            "depth=2,cmd=",
            "level=0,depth=2",
            "level=12,depth=2",
        ] {
            assert!(PlayerSpec::parse("first", bad, false).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn sprt_text() {
        assert_eq!(parse_sprt("0,10").unwrap().alpha, 0.05);
        assert_eq!(parse_sprt("-5,5,0.1,0.2").unwrap().beta, 0.2);
        for bad in ["", "0", "10,0", "0,10,0.6,0.1", "a,b"] {
            assert!(parse_sprt(bad).is_err(), "{bad:?}");
        }
    }
}
