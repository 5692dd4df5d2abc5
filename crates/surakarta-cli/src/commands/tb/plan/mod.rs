//! `surakarta tb plan`: the pairs up to N pieces in dependency order with
//! their estimates, as JSON or as a workflow (Snakemake, Slurm, make).
//!
//! The library gives the plan as data ([`Plan`]); this module writes it
//! out, one submodule per format (`json`, `snakemake`, `slurm`, `make`),
//! with `quote` writing `--dir` and `--binary` into each place they land
//! (or refusing them). This file holds the arguments and what the
//! workflows share: a pair's comment line and its `tb generate` command.

mod json;
mod make;
mod quote;
mod slurm;
mod snakemake;

use crate::common::error::CliError;
use crate::common::threads::check_threads;
use clap::Args;
use std::path::Path;
use std::process::ExitCode;
use surakarta::Excerpt;
use surakarta_index::Scheme;
use surakarta_tablebase::plan::{PairPlan, Plan, Settings};
use surakarta_tablebase::{human_bytes, human_seconds, thousands, Pair};

/// What `tb plan` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum PlanFormat {
    /// One JSON object: the pairs in dependency order with their estimates.
    Json,
    /// A Snakefile: a rule per pair (resume, local and cluster executors).
    Snakemake,
    /// A bash script of `sbatch` calls chained by `--dependency=afterok`.
    Slurm,
    /// A Makefile (GNU make 4.3 or newer): a grouped target per pair.
    Make,
}

/// The arguments of `surakarta tb plan`.
#[derive(Args, Debug)]
pub(super) struct PlanArgs {
    /// Largest piece count, 2 to 24.
    #[arg(long, short = 'n', value_name = "N")]
    pieces: u32,
    /// What to print.
    #[arg(long, value_enum, default_value_t = PlanFormat::Json)]
    format: PlanFormat,
    /// Directory of the tables the workflow writes (shared by every node on
    /// a cluster).
    #[arg(long, short = 'd', value_name = "DIR", default_value = "tables")]
    dir: String,
    /// The surakarta program the workflow runs (default: this one).
    #[arg(long, value_name = "PATH")]
    binary: Option<String>,
    /// Threads of each pair's process, 1 to 1024 (default: one per core of
    /// this machine); the time estimates assume they scale linearly.
    #[arg(long, short = 't', value_name = "T")]
    threads: Option<usize>,
    /// Index scheme of the tables.
    #[arg(long, value_name = "SCHEME", default_value = "symmetric")]
    index: Scheme,
    /// File format of the tables: 2 (compact, the default) or 1.
    #[arg(long, value_name = "VERSION", default_value_t = 2,
          value_parser = clap::value_parser!(u16).range(1..=2))]
    table_format: u16,
}

/// Runs `surakarta tb plan`.
pub(super) fn run(args: PlanArgs) -> Result<ExitCode, CliError> {
    let threads = check_threads(args.threads)?;
    let binary = match args.binary {
        Some(b) => b,
        None => std::env::current_exe()
            .map_err(|e| {
                CliError(format!(
                    "cannot find this program's path (give --binary): {e}"
                ))
            })?
            .into_os_string()
            .into_string()
            .map_err(|path| {
                CliError(format!(
                    "this program's path {:#} is not UTF-8 (give --binary)",
                    Excerpt::new(&path.to_string_lossy())
                ))
            })?,
    };
    let settings = Settings {
        scheme: args.index,
        format: args.table_format,
        threads: threads as u32,
    };
    let plan = Plan::new(args.pieces, settings)?;
    let text = match args.format {
        PlanFormat::Json => json::plan_json(&plan, &args.dir, &binary).to_string() + "\n",
        PlanFormat::Snakemake => snakemake::snakefile(&plan, &args.dir, &binary)?,
        PlanFormat::Slurm => slurm::slurm_script(&plan, &args.dir, &binary)?,
        PlanFormat::Make => make::makefile(&plan, &args.dir, &binary)?,
    };
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// A comment line with a pair's estimates.
fn comment(plan: &Plan, p: &PairPlan) -> String {
    format!(
        "# {}: {} positions; estimated {} memory, {} on disk, {} on {} threads",
        p.pair,
        thousands(p.positions()),
        human_bytes(p.memory_bytes),
        human_bytes(p.disk_bytes),
        human_seconds(p.seconds),
        plan.settings.threads
    )
}

/// The command that generates one pair, from words already written for
/// the place it goes (`--dir=DIR`: a directory starting with `-` is still
/// the option's value).
fn command(plan: &Plan, pair: Pair, binary: &str, dir: &str, threads: &str) -> String {
    format!(
        "{binary} tb generate --pair {pair} --dir={dir} --threads={threads} --format {} --index {}",
        plan.settings.format, plan.settings.scheme
    )
}

/// `dir/name` as text (`name` alone for an empty dir).
fn join(dir: &str, name: &str) -> String {
    Path::new(dir).join(name).display().to_string()
}
