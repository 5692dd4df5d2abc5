//! The engine settings shared by `search`, `bench`, `play` and `tune`
//! ([`EngineArgs`]), checked into the library's [`Options`], and an engine
//! built from them.

use crate::common::checks::in_range;
use crate::common::error::CliError;
use crate::common::evaluation::evaluation;
use crate::common::memory::new_engine;
use crate::common::tables;
use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use surakarta::Excerpt;
use surakarta_search::{
    Engine, Options, SearchParameters, Smp, Techniques, MAX_HASH_MB, MAX_LEVEL, MAX_THREADS,
};

/// Engine settings shared by `search`, `bench`, `play` and `tune`.
#[derive(Args, Debug, Clone)]
pub(crate) struct EngineArgs {
    /// Search threads, 1 to 1024 (1 is deterministic).
    #[arg(long, short = 't', value_name = "N", default_value_t = 1,
          value_parser = in_range(1..=MAX_THREADS))]
    pub(crate) threads: usize,
    /// Transposition table size in MiB, 1 to 65536.
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = in_range(1..=MAX_HASH_MB))]
    pub(crate) hash: usize,
    /// Evaluation: `classic` (hand-made features), `paper` (seed 001's
    /// weights), `nnue` (the embedded network) or `default` (nnue).
    #[arg(long, value_name = "NAME")]
    pub(crate) eval: Option<String>,
    /// A network file (`.sknn`) to evaluate with instead of the embedded one.
    #[arg(long, value_name = "PATH")]
    pub(crate) eval_file: Option<PathBuf>,
    /// Switch search techniques off, to measure them: a comma-separated list
    /// of tt, aspiration, quiescence, killers, history, reductions.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub(crate) without: Vec<String>,
    /// How several threads share the work: `siblings` (Young Brothers
    /// Wait) or `lazy` (Lazy SMP).
    #[arg(long, value_name = "MODE", default_value = "siblings")]
    pub(crate) smp: String,
    /// Strength level, 1 to 11: 11 (or none) is the full engine; lower
    /// levels search shallower and pick among near-best moves
    /// (docs/cli.md, "Strength levels").
    #[arg(long, value_name = "L", value_parser = in_range(1..=MAX_LEVEL))]
    pub(crate) level: Option<u8>,
    /// The seed of a level's choice among near-best moves (the same
    /// position and seed give the same move), any whole number from 0;
    /// only with --level.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "level")]
    pub(crate) level_seed: u64,
    /// Search parameters other than the shipped ones, e.g.
    /// `lmr-min-depth=4,aspiration-base=25` (the names, ranges and defaults:
    /// `surakarta tune --list`).
    #[arg(long, value_name = "NAME=VALUE,…", default_value = "")]
    pub(crate) parameters: String,
}

impl EngineArgs {
    /// The engine options these arguments name; an unknown `--eval`,
    /// `--without` technique or `--smp` mode is an error. (Threads and hash
    /// size are checked when the engine is made.)
    pub(crate) fn options(&self) -> Result<Options, CliError> {
        let evaluation = evaluation(
            self.eval.as_deref(),
            self.eval_file.as_deref(),
            ["--eval", "--eval-file"],
        )
        .map_err(CliError)?;
        let mut techniques = Techniques::default();
        for name in &self.without {
            let flag = match name.as_str() {
                "tt" => &mut techniques.transposition,
                "aspiration" => &mut techniques.aspiration,
                "quiescence" => &mut techniques.quiescence,
                "killers" => &mut techniques.killers,
                "history" => &mut techniques.history,
                "reductions" => &mut techniques.reductions,
                other => {
                    return Err(CliError(format!(
                        "unknown technique {} in --without: expected tt, aspiration, quiescence, killers, history, reductions",
                        Excerpt::new(other)
                    )))
                }
            };
            *flag = false;
        }
        let smp = Smp::parse(&self.smp).ok_or_else(|| {
            CliError(format!(
                "unknown --smp {}: expected siblings or lazy",
                Excerpt::new(&self.smp)
            ))
        })?;
        let parameters: SearchParameters = self
            .parameters
            .parse()
            .map_err(|e| CliError(format!("--parameters: {e}")))?;
        Ok(Options {
            threads: self.threads,
            hash_mb: self.hash,
            evaluation,
            techniques,
            smp,
            multipv: 1,
            level: self.level,
            level_seed: self.level_seed,
            parameters,
            ..Options::default()
        })
    }

    /// An engine with these options (its table checked against the memory
    /// the process may use), probing the tables of `tb` if given
    /// (opened with [`tables::open`]: a table that does not open is an
    /// error).
    pub(crate) fn engine(&self, tb: Option<&Path>) -> Result<Engine, CliError> {
        let mut engine = new_engine(self.options()?).map_err(CliError)?;
        if let Some(dir) = tb {
            engine.set_tablebase(Some(Arc::new(tables::open(dir)?)));
        }
        Ok(engine)
    }
}
