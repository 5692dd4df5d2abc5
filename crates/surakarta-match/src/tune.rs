//! SPSA tuning of the search's parameters ([`SearchParameters`]) by self-play.
//!
//! Simultaneous perturbation stochastic approximation, as fishtest and
//! OpenBench run it: each iteration draws a random sign per tuned
//! parameter, plays game pairs between the engine with every parameter
//! moved one step `c` in its sign's direction (`plus`) and the engine moved
//! the other way (`minus`), and moves the estimate towards the side that
//! scored more, by `r · c · (wins − losses) · sign`. The step `c` and the
//! rate `r` shrink over the run (`c_k = c_end · (N/k)^γ`, `a_k = a_end ·
//! ((A+N)/(A+k))^α`, `r = a_k / c_k²`, with `α = 0.602`, `γ = 0.101`, `A =
//! N/10`, Spall's and fishtest's constants), so that the last iteration
//! uses the `c_end` and `r_end` given.
//!
//! A run is **resumable**: after every iteration the whole state (the
//! settings, the estimate and every iteration's record) is written to one
//! text file atomically; a run given the same file carries on after its
//! last iteration and refuses a file made with other settings. It is
//! **deterministic** for a seed with depth or node limits: each iteration's
//! signs and openings come from the seed and the iteration's number.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use surakarta_match::tune::{self, TuneConfig};
//! use surakarta_search::{Limits, Options};
//!
//! let dir = std::env::temp_dir().join(format!("tune-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let state = dir.join("tune.txt");
//! let mut config = TuneConfig::new(Options::default(), Limits::depth(1), &["lmr-min-depth"])?;
//! config.iterations = 2;
//! let done = tune::run(&config, &state, &AtomicBool::new(false), &mut |_| {})?;
//! assert_eq!(done.steps.len(), 2);
//! assert!(tune::run(&config, &state, &AtomicBool::new(false), &mut |_| panic!("already done"))?.finished(&config));
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt::Write as _;
use std::io::{ErrorKind, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use surakarta::random::SplitMix;
use surakarta::{Position, Rules};
use surakarta_search::{
    parameter_index, Limits, Options, ParameterError, SearchParameters, PARAMETER_SPECS,
};
use surakarta_tablebase::TablebaseError;

use crate::openings::{self, OpeningError};
use crate::player::{EnginePlayer, Player, PlayerError};
use crate::runner::{run_match, MatchConfig, MatchError, Silent};
use crate::stats::Tally;

/// Spall's exponent of the rate's decay.
const ALPHA: f64 = 0.602;
/// Spall's exponent of the step's decay.
const GAMMA: f64 = 0.101;
/// The stability constant `A` as a share of the iterations.
const A_SHARE: f64 = 0.1;
/// The first line of a state file.
const STATE_HEADER: &str = "# surakarta tune state, version 1";
/// The largest state file read back, in bytes.
const MAX_STATE_LEN: u64 = 256 << 20;
/// The most iterations a run takes.
pub const MAX_ITERATIONS: u64 = 1_000_000;
/// The most game pairs an iteration plays.
pub const MAX_PAIRS: usize = 10_000;

/// One parameter being tuned, with its step and rate at the last iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    /// The index in [`PARAMETER_SPECS`].
    pub index: usize,
    /// The perturbation at the last iteration, in the parameter's units
    /// (default: a twentieth of its range, at least 1; above 0 and at most
    /// the range, at least 1).
    pub c_end: f64,
    /// The learning rate at the last iteration (default 0.002, fishtest's;
    /// above 0 and at most [`MAX_R_END`]).
    pub r_end: f64,
}

impl Tuned {
    /// The parameter `name` with the default step and rate.
    ///
    /// # Errors
    ///
    /// [`ParameterError::Unknown`] if there is no parameter of that name.
    pub fn named(name: &str) -> Result<Tuned, ParameterError> {
        let index = parameter_index(name)?;
        let spec = PARAMETER_SPECS[index];
        Ok(Tuned {
            index,
            c_end: (f64::from(spec.max - spec.min) / 20.0).max(1.0),
            r_end: DEFAULT_R_END,
        })
    }
}

/// Candidate openings drawn per game pair in each batch of a balanced
/// iteration: about one in four or five start openings is balanced within
/// 15 centipawns, so one batch mostly suffices and little is judged in
/// vain.
pub const TUNE_BALANCE_BATCH: usize = 4;

/// fishtest's default learning rate at the last iteration.
pub const DEFAULT_R_END: f64 = 0.002;

/// The largest learning rate at the last iteration ([`Tuned::r_end`]),
/// 500 times fishtest's default: with it and a step of at most the
/// parameter's range every schedule stays a finite number.
pub const MAX_R_END: f64 = 1.0;

/// What a tuning run does.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// The engine both sides use; its [`Options::parameters`] are the start.
    pub options: Options,
    /// The limits of every move.
    pub limits: Limits,
    /// The parameters tuned (the others keep the start's values).
    pub tuned: Vec<Tuned>,
    /// Iterations of the whole run, `N` of the schedules.
    pub iterations: u64,
    /// Game pairs per iteration, each opening with both colours.
    pub pairs: usize,
    /// Random plies from the start position of each opening.
    pub opening_plies: usize,
    /// Seeds the signs and the openings.
    pub seed: u64,
    /// Play only openings this judge finds balanced
    /// ([`openings::balanced`]); each iteration draws its candidates in
    /// batches of [`TUNE_BALANCE_BATCH`] per pair.
    pub balance: Option<openings::Balance>,
    /// The rules of every game.
    pub rules: Rules,
    /// Games reaching this many plies are drawn.
    pub max_plies: usize,
    /// Games played at the same time (not a setting of the run: a resumed
    /// run may use another).
    pub concurrency: usize,
}

impl TuneConfig {
    /// A run over the parameters `names` with default settings: 1,000
    /// iterations of one game pair from 8 random plies, seed 1, ICGA
    /// rules, 400 plies a game, one game at a time.
    ///
    /// # Errors
    ///
    /// [`TuneError::Parameter`] for an unknown name, [`TuneError::Config`]
    /// for a name given twice.
    pub fn new(options: Options, limits: Limits, names: &[&str]) -> Result<TuneConfig, TuneError> {
        let mut tuned: Vec<Tuned> = Vec::new();
        for name in names {
            let t = Tuned::named(name)?;
            if tuned.iter().any(|u| u.index == t.index) {
                return Err(TuneError::Config(format!("{name} is named twice")));
            }
            tuned.push(t);
        }
        Ok(TuneConfig {
            options,
            limits,
            tuned,
            iterations: 1000,
            pairs: 1,
            opening_plies: 8,
            seed: 1,
            balance: None,
            rules: Rules::ICGA,
            max_plies: 400,
            concurrency: 1,
        })
    }

    /// The settings that decide the run, as (name, value) pairs: what the
    /// state file records and a resumed run must match.
    #[must_use]
    pub fn settings(&self) -> Vec<(&'static str, String)> {
        let names: Vec<&str> = self
            .tuned
            .iter()
            .map(|t| PARAMETER_SPECS.get(t.index).map_or("?", |spec| spec.name))
            .collect();
        let list = |f: &dyn Fn(&Tuned) -> f64| {
            self.tuned
                .iter()
                .map(|t| format!("{:?}", f(t)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut settings = vec![
            ("tuned", names.join(" ")),
            ("c_end", list(&|t| t.c_end)),
            ("r_end", list(&|t| t.r_end)),
            ("start", self.options.parameters.to_string()),
            ("iterations", self.iterations.to_string()),
            ("pairs", self.pairs.to_string()),
            ("opening_plies", self.opening_plies.to_string()),
            ("seed", self.seed.to_string()),
            ("rules", self.rules.to_string()),
            ("max_plies", self.max_plies.to_string()),
            ("limits", format!("{:?}", self.limits)),
            (
                "evaluation",
                crate::datagen::evaluation_setting(&self.options.evaluation),
            ),
            ("techniques", format!("{:?}", self.options.techniques)),
            ("threads", self.options.threads.to_string()),
            ("hash_mb", self.options.hash_mb.to_string()),
            (
                "level",
                self.options.level.map_or("none".into(), |l| l.to_string()),
            ),
        ];
        // Last and only when used, so that files of runs without it still
        // resume.
        if let Some(b) = &self.balance {
            settings.push((
                "balance",
                format!(
                    "{} cp, {} nodes, {}, {}",
                    b.max_score,
                    b.nodes,
                    crate::datagen::evaluation_setting(&b.options.evaluation),
                    b.rules
                ),
            ));
        }
        settings
    }

    /// Checks the ranges.
    fn check(&self) -> Result<(), TuneError> {
        let bad = |message: String| Err(TuneError::Config(message));
        if self.tuned.is_empty() {
            return bad("no parameter to tune".into());
        }
        if !(1..=MAX_ITERATIONS).contains(&self.iterations) {
            return bad(format!("iterations must be 1 to {MAX_ITERATIONS}"));
        }
        if !(1..=MAX_PAIRS).contains(&self.pairs) {
            return bad(format!("pairs must be 1 to {MAX_PAIRS}"));
        }
        if self.concurrency == 0 {
            return bad("concurrency must be at least 1".into());
        }
        if self.limits == Limits::default() {
            return bad("give a limit per move (depth, nodes or move time)".into());
        }
        for t in &self.tuned {
            let Some(spec) = PARAMETER_SPECS.get(t.index) else {
                return bad(format!("no parameter has index {}", t.index));
            };
            let widest_step = f64::from(spec.max - spec.min).max(1.0);
            if !(t.c_end > 0.0 && t.c_end <= widest_step) {
                return bad(format!(
                    "{}: c_end {} is out of range: give above 0 and at most {widest_step}",
                    spec.name, t.c_end
                ));
            }
            if !(t.r_end > 0.0 && t.r_end <= MAX_R_END) {
                return bad(format!(
                    "{}: r_end {} is out of range: give above 0 and at most {MAX_R_END}",
                    spec.name, t.r_end
                ));
            }
        }
        self.options
            .check()
            .map_err(|e| TuneError::Config(e.to_string()))
    }

    /// The perturbation and the rate of iteration `k` (0-based) for `t`.
    fn schedule(&self, t: &Tuned, k: u64) -> (f64, f64) {
        let n = self.iterations as f64;
        let a_big = A_SHARE * n;
        let k = (k + 1) as f64;
        let c = t.c_end * (n / k).powf(GAMMA);
        let a_end = t.r_end * t.c_end * t.c_end;
        let a = a_end * ((a_big + n) / (a_big + k)).powf(ALPHA);
        (c, a / (c * c))
    }
}

/// One finished iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneStep {
    /// The iteration's number, from 1.
    pub iteration: u64,
    /// The values `plus` played with, per tuned parameter.
    pub plus: Vec<i32>,
    /// The values `minus` played with.
    pub minus: Vec<i32>,
    /// `plus`'s wins, draws and losses against `minus`.
    pub tally: Tally,
    /// The estimate after the iteration.
    pub theta: Vec<f64>,
}

/// A run's state: the estimate and every iteration so far.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneState {
    /// The estimate of every tuned parameter (unrounded).
    pub theta: Vec<f64>,
    /// The iterations, in order.
    pub steps: Vec<TuneStep>,
}

impl TuneState {
    /// Whether every iteration of `config` has been played.
    #[must_use]
    pub fn finished(&self, config: &TuneConfig) -> bool {
        self.steps.len() as u64 >= config.iterations
    }

    /// The estimate rounded into the parameters' ranges, on top of
    /// `config`'s start: the engine the run recommends.
    #[must_use]
    pub fn parameters(&self, config: &TuneConfig) -> SearchParameters {
        with_shifts(config, &self.theta, &vec![0.0; self.theta.len()])
    }

    /// `plus`'s wins, draws and losses over the whole run.
    #[must_use]
    pub fn tally(&self) -> Tally {
        let mut total = Tally::default();
        for step in &self.steps {
            total.wins += step.tally.wins;
            total.draws += step.tally.draws;
            total.losses += step.tally.losses;
        }
        total
    }
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// A setting is out of range.
    #[error("{0}")]
    Config(String),
    /// A parameter's name or value.
    #[error(transparent)]
    Parameter(#[from] ParameterError),
    /// The state file was made with other settings.
    #[error("{path} was made with {setting} = {found}, not {asked}: use another file or the same settings")]
    Settings {
        /// The state file.
        path: PathBuf,
        /// The setting that differs.
        setting: &'static str,
        /// Its value in the file.
        found: String,
        /// Its value in this run.
        asked: String,
    },
    /// The state file is not one this tuner wrote.
    #[error("{path} is not a tuning state file: {reason}")]
    State {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Something other than a regular file is at the state's path.
    #[error("{0} is in the way: the state file's path holds something that is not a regular file")]
    InTheWay(PathBuf),
    /// Reading or writing failed.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        message: String,
    },
    /// An iteration's estimate is not a finite number (never written to the
    /// state file).
    #[error("iteration {iteration}: the estimate of {parameter} is not a finite number")]
    NotFinite {
        /// The iteration, from 1.
        iteration: u64,
        /// The parameter.
        parameter: &'static str,
    },
    /// An iteration's balanced openings could not be found.
    #[error("iteration {iteration}: {source}")]
    Openings {
        /// The iteration, from 1.
        iteration: u64,
        /// Why.
        source: OpeningError,
    },
    /// An iteration's games could not be played.
    #[error("iteration {iteration}: {source}")]
    Match {
        /// The iteration, from 1.
        iteration: u64,
        /// Why.
        source: MatchError,
    },
}

/// Plays the iterations of `config` not yet in the state file at `path`
/// (created if absent), writing the state after each; `progress` is called
/// with each finished iteration. Returns the state when every iteration is
/// done or `stop` is raised (the iteration under way is finished first).
///
/// # Errors
///
/// Bad settings, a state file of other settings or not a state file, I/O,
/// or an engine that cannot be started.
pub fn run(
    config: &TuneConfig,
    path: &Path,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&TuneStep),
) -> Result<TuneState, TuneError> {
    config.check()?;
    let mut state = match read_state(config, path)? {
        Some(state) => state,
        None => {
            let start = config.options.parameters.values();
            let state = TuneState {
                theta: config
                    .tuned
                    .iter()
                    .map(|t| f64::from(start[t.index]))
                    .collect(),
                steps: Vec::new(),
            };
            write_state(config, path, &state)?;
            state
        }
    };
    while !state.finished(config) && !stop.load(Ordering::Relaxed) {
        let step = iterate(config, &state.theta, state.steps.len() as u64)?;
        state.theta.clone_from(&step.theta);
        state.steps.push(step);
        write_state(config, path, &state)?;
        progress(state.steps.last().expect("just pushed"));
    }
    Ok(state)
}

/// The parameters of `config`'s start with the tuned ones set to `theta +
/// shifts`, rounded and clamped into their ranges; a sum that is not a
/// number keeps the start's value.
fn with_shifts(config: &TuneConfig, theta: &[f64], shifts: &[f64]) -> SearchParameters {
    let mut parameters = config.options.parameters;
    for ((t, &value), &shift) in config.tuned.iter().zip(theta).zip(shifts) {
        let Some(spec) = PARAMETER_SPECS.get(t.index) else {
            continue;
        };
        let sum = value + shift;
        if sum.is_nan() {
            continue;
        }
        let rounded = sum.round().clamp(f64::from(spec.min), f64::from(spec.max));
        // In the range, so `set` accepts it; were it refused, the start's
        // value would stay.
        let _ = parameters.set(spec.name, rounded as i64);
    }
    parameters
}

/// An iteration's openings from its `seed`: `config.pairs` start openings,
/// balanced ones if the config asks for them.
fn iteration_openings(config: &TuneConfig, seed: u64) -> Result<Vec<Position>, OpeningError> {
    match &config.balance {
        None => Ok(openings::from_start(
            config.pairs,
            config.opening_plies,
            seed,
        )),
        Some(balance) => openings::balanced(
            config.pairs,
            balance,
            config.concurrency,
            |batch| {
                Ok(openings::from_start(
                    TUNE_BALANCE_BATCH * config.pairs,
                    config.opening_plies,
                    openings::batch_seed(seed, batch),
                ))
            },
            &|_, _| {},
        ),
    }
}

/// Iteration `k` (0-based) from the estimate `theta`.
fn iterate(config: &TuneConfig, theta: &[f64], k: u64) -> Result<TuneStep, TuneError> {
    let mut rng = SplitMix::new(config.seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let signs: Vec<f64> = config
        .tuned
        .iter()
        .map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 })
        .collect();
    let schedules: Vec<(f64, f64)> = config.tuned.iter().map(|t| config.schedule(t, k)).collect();
    let up: Vec<f64> = signs
        .iter()
        .zip(&schedules)
        .map(|(s, (c, _))| s * c)
        .collect();
    let down: Vec<f64> = up.iter().map(|x| -x).collect();
    let plus = with_shifts(config, theta, &up);
    let minus = with_shifts(config, theta, &down);
    let openings =
        iteration_openings(config, rng.next_u64()).map_err(|source| TuneError::Openings {
            iteration: k + 1,
            source,
        })?;
    let factory = |name: &'static str, parameters: SearchParameters| {
        let options = Options {
            parameters,
            ..config.options.clone()
        };
        let limits = config.limits;
        move || -> Result<Box<dyn Player>, PlayerError> {
            Ok(Box::new(EnginePlayer::new(
                name.into(),
                options.clone(),
                None,
                limits,
            )?))
        }
    };
    let match_config = MatchConfig {
        rules: config.rules,
        max_plies: config.max_plies,
        concurrency: config.concurrency,
        sprt: None,
        time_control: None,
    };
    // The caller's stop flag is checked between iterations only, so that
    // every recorded iteration is whole.
    let never = AtomicBool::new(false);
    let result = run_match(
        &factory("plus", plus),
        &factory("minus", minus),
        &openings,
        &match_config,
        &Silent,
        &never,
    )
    .map_err(|source| TuneError::Match {
        iteration: k + 1,
        source,
    })?;
    if let Some(source) = result.error {
        return Err(TuneError::Match {
            iteration: k + 1,
            source,
        });
    }
    let tally = result.tally;
    let outcome = f64::from(tally.wins) - f64::from(tally.losses);
    let theta: Vec<f64> = config
        .tuned
        .iter()
        .zip(theta)
        .zip(signs.iter().zip(&schedules))
        .map(|((t, &value), (&sign, &(c, r)))| {
            let spec = PARAMETER_SPECS[t.index];
            (value + r * c * outcome * sign).clamp(f64::from(spec.min), f64::from(spec.max))
        })
        .collect();
    if let Some(i) = theta.iter().position(|x| !x.is_finite()) {
        return Err(TuneError::NotFinite {
            iteration: k + 1,
            parameter: PARAMETER_SPECS[config.tuned[i].index].name,
        });
    }
    let pick = |p: &SearchParameters| -> Vec<i32> {
        let values = p.values();
        config.tuned.iter().map(|t| values[t.index]).collect()
    };
    Ok(TuneStep {
        iteration: k + 1,
        plus: pick(&plus),
        minus: pick(&minus),
        tally,
        theta,
    })
}

/// The state file's text.
fn state_text(config: &TuneConfig, state: &TuneState) -> String {
    let mut text = format!("{STATE_HEADER}\n");
    for (name, value) in config.settings() {
        let _ = writeln!(text, "{name} = {value}");
    }
    let _ = writeln!(text, "theta = {}", floats(&state.theta));
    for step in &state.steps {
        let _ = writeln!(
            text,
            "step = {} | {} | {} | {} {} {} | {}",
            step.iteration,
            ints(&step.plus),
            ints(&step.minus),
            step.tally.wins,
            step.tally.draws,
            step.tally.losses,
            floats(&step.theta)
        );
    }
    text
}

fn floats(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| format!("{v:?}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn ints(values: &[i32]) -> String {
    values
        .iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes `state` to `path` atomically; a state with a number that is not
/// finite is refused, never written (it could not be read back).
fn write_state(config: &TuneConfig, path: &Path, state: &TuneState) -> Result<(), TuneError> {
    let finite = |values: &[f64]| values.iter().all(|x| x.is_finite());
    if !(finite(&state.theta) && state.steps.iter().all(|s| finite(&s.theta))) {
        return Err(TuneError::State {
            path: path.to_path_buf(),
            reason: "an estimate is not a finite number: nothing written".into(),
        });
    }
    let text = state_text(config, state);
    surakarta_tablebase::write_atomically(path, |out| out.write_all(text.as_bytes())).map_err(|e| {
        match e {
            TablebaseError::InTheWay { path, .. } => TuneError::InTheWay(path),
            other => TuneError::Io {
                path: path.to_path_buf(),
                message: other.to_string(),
            },
        }
    })
}

/// The state in the file at `path`, `None` if there is no file; checks the
/// settings against `config`'s.
fn read_state(config: &TuneConfig, path: &Path) -> Result<Option<TuneState>, TuneError> {
    let bytes = match surakarta_tablebase::read_regular_file(path, MAX_STATE_LEN) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) if surakarta_tablebase::is_not_a_regular_file(&e) => {
            return Err(TuneError::InTheWay(path.to_path_buf()))
        }
        Err(e) => {
            return Err(TuneError::Io {
                path: path.to_path_buf(),
                message: e.to_string(),
            })
        }
    };
    let bad = |reason: String| TuneError::State {
        path: path.to_path_buf(),
        reason,
    };
    let text = String::from_utf8(bytes).map_err(|_| bad("not UTF-8 text".into()))?;
    let mut lines = text.lines().enumerate();
    if lines.next().map(|(_, l)| l) != Some(STATE_HEADER) {
        return Err(bad(format!("the first line is not {STATE_HEADER:?}")));
    }
    let width = config.tuned.len();
    let mut settings = config.settings().into_iter();
    let mut theta = None;
    let mut steps: Vec<TuneStep> = Vec::new();
    for (number, line) in lines {
        let at = |what: &str| bad(format!("line {}: {what}", number + 1));
        let (key, value) = line
            .split_once(" = ")
            .ok_or_else(|| at("expected key = value"))?;
        if let Some((setting, asked)) = settings.next() {
            if key != setting {
                return Err(at(&format!("expected the setting {setting}")));
            }
            if value != asked {
                return Err(TuneError::Settings {
                    path: path.to_path_buf(),
                    setting,
                    found: value.chars().take(200).collect(),
                    asked,
                });
            }
            continue;
        }
        match key {
            // A setting this run does not use (it is written only when used).
            "balance" if theta.is_none() => {
                return Err(TuneError::Settings {
                    path: path.to_path_buf(),
                    setting: "balance",
                    found: value.chars().take(200).collect(),
                    asked: "none".into(),
                });
            }
            "theta" if theta.is_none() => {
                theta = Some(parse_floats(value, width).ok_or_else(|| at("bad estimate"))?);
            }
            "step" if theta.is_some() => {
                let step = parse_step(value, width).ok_or_else(|| at("bad iteration record"))?;
                if step.iteration != steps.len() as u64 + 1 {
                    return Err(at("iterations out of order"));
                }
                steps.push(step);
            }
            _ => return Err(at("unexpected key")),
        }
    }
    if settings.next().is_some() {
        return Err(bad("settings missing".into()));
    }
    let theta = theta.ok_or_else(|| bad("no estimate".into()))?;
    if let Some(last) = steps.last() {
        if last.theta != theta {
            return Err(bad("the estimate is not the last iteration's".into()));
        }
    }
    Ok(Some(TuneState { theta, steps }))
}

fn parse_floats(text: &str, width: usize) -> Option<Vec<f64>> {
    let values: Vec<f64> = text
        .split(' ')
        .map(|v| v.parse().ok().filter(|x: &f64| x.is_finite()))
        .collect::<Option<_>>()?;
    (values.len() == width).then_some(values)
}

fn parse_ints(text: &str, width: usize) -> Option<Vec<i32>> {
    let values: Vec<i32> = text
        .split(' ')
        .map(|v| v.parse().ok())
        .collect::<Option<_>>()?;
    (values.len() == width).then_some(values)
}

fn parse_step(text: &str, width: usize) -> Option<TuneStep> {
    let parts: Vec<&str> = text.split(" | ").collect();
    let [iteration, plus, minus, tally, theta] = parts[..] else {
        return None;
    };
    let counts: Vec<u32> = tally
        .split(' ')
        .map(|v| v.parse().ok())
        .collect::<Option<_>>()?;
    let [wins, draws, losses] = counts[..] else {
        return None;
    };
    Some(TuneStep {
        iteration: iteration.parse().ok()?,
        plus: parse_ints(plus, width)?,
        minus: parse_ints(minus, width)?,
        tally: Tally {
            wins,
            draws,
            losses,
        },
        theta: parse_floats(theta, width)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(names: &[&str]) -> TuneConfig {
        let mut config = TuneConfig::new(Options::default(), Limits::depth(1), names).unwrap();
        config.iterations = 3;
        config
    }

    #[test]
    fn balanced_iterations_play_only_balanced_openings() {
        let mut config = config(&["lmr-min-depth"]);
        config.pairs = 3;
        let plain = iteration_openings(&config, 7).unwrap();
        assert_eq!(plain, openings::from_start(3, 8, 7));
        let balance = openings::Balance {
            nodes: 2_000,
            ..openings::Balance::new(10, Rules::ICGA)
        };
        config.balance = Some(balance.clone());
        let balanced = iteration_openings(&config, 7).unwrap();
        assert_eq!(balanced.len(), 3);
        assert_ne!(balanced, plain);
        assert!(openings::judge_balance(&balanced, &balance, 1)
            .unwrap()
            .into_iter()
            .all(|kept| kept));
        // The same on two workers.
        config.concurrency = 2;
        assert_eq!(iteration_openings(&config, 7).unwrap(), balanced);
        // The state file records the judge, and a run without it is refused.
        assert!(config
            .settings()
            .iter()
            .any(|(k, v)| *k == "balance" && v.starts_with("10 cp, 2000 nodes")));
    }

    #[test]
    fn the_schedule_ends_at_the_given_step_and_rate() {
        let config = config(&["aspiration-base"]);
        let t = &config.tuned[0];
        let (c, r) = config.schedule(t, config.iterations - 1);
        assert!((c - t.c_end).abs() < 1e-12 && (r - t.r_end).abs() < 1e-12);
        let (c0, r0) = config.schedule(t, 0);
        assert!(c0 > c && r0 > r, "both shrink over the run");
    }

    #[test]
    fn perturbed_values_stay_in_range() {
        let config = config(&["lmr-reduction", "aspiration-growth"]);
        let p = with_shifts(&config, &[0.0, 2.0], &[-5.0, -5.0]);
        assert_eq!(p.get("lmr-reduction"), Some(0));
        assert_eq!(p.get("aspiration-growth"), Some(2));
        let q = with_shifts(&config, &[4.0, 8.0], &[5.0, 5.0]);
        assert_eq!(
            (q.get("lmr-reduction"), q.get("aspiration-growth")),
            (Some(4), Some(8))
        );
    }

    /// A huge rate (the command line once let 1.7e308 through) is a typed
    /// error before any game, never a panic; a perturbation that is not a
    /// number keeps the start's value.
    #[test]
    fn out_of_range_rates_and_steps_are_errors_not_panics() {
        let dir = std::env::temp_dir().join(format!("tune-ranges-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.txt");
        for (c_end, r_end) in [
            (1.0, 1.7e308),
            (1.0, f64::NAN),
            (1.0, 0.0),
            (1.0, MAX_R_END * 2.0),
            (f64::INFINITY, 0.002),
            (1e300, 0.002),
            (-1.0, 0.002),
        ] {
            let mut config = config(&["aspiration-base"]);
            config.tuned[0].c_end = c_end;
            config.tuned[0].r_end = r_end;
            let e = run(&config, &path, &AtomicBool::new(false), &mut |_| {}).unwrap_err();
            assert!(
                matches!(&e, TuneError::Config(m) if m.contains("out of range")),
                "{c_end} {r_end}: {e}"
            );
            assert!(!path.exists(), "nothing written for {c_end} {r_end}");
        }
        let config = config(&["aspiration-base"]);
        let start = config.options.parameters.get("aspiration-base");
        let p = with_shifts(&config, &[f64::NAN], &[1.0]);
        assert_eq!(p.get("aspiration-base"), start);
        // A state with a number that is not finite is never written.
        let state = TuneState {
            theta: vec![f64::NAN],
            steps: Vec::new(),
        };
        assert!(matches!(
            write_state(&config, &path, &state),
            Err(TuneError::State { .. })
        ));
        assert!(!path.exists());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn state_text_reads_back() {
        let config = config(&["lmr-min-depth", "aspiration-base"]);
        let state = TuneState {
            theta: vec![3.25, 19.5],
            steps: vec![TuneStep {
                iteration: 1,
                plus: vec![4, 21],
                minus: vec![2, 18],
                tally: Tally {
                    wins: 1,
                    draws: 0,
                    losses: 1,
                },
                theta: vec![3.25, 19.5],
            }],
        };
        let dir = std::env::temp_dir().join(format!("tune-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.txt");
        write_state(&config, &path, &state).unwrap();
        assert_eq!(read_state(&config, &path).unwrap(), Some(state));
        let other = TuneConfig {
            seed: 2,
            ..config.clone()
        };
        assert!(matches!(
            read_state(&other, &path),
            Err(TuneError::Settings {
                setting: "seed",
                ..
            })
        ));
        std::fs::write(&path, "not a state\n").unwrap();
        assert!(matches!(
            read_state(&config, &path),
            Err(TuneError::State { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
