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

use crate::common::checks::in_range;
use crate::common::error::CliError;
use crate::common::threads::check_threads;
use clap::Args;
use std::path::Path;
use std::process::ExitCode;
use surakarta::Excerpt;
use surakarta_index::Scheme;
use surakarta_tablebase::plan::{self, PairPlan, Plan, Settings, MAX_PIECES};
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
    #[arg(long, short = 'n', value_name = "N", value_parser = in_range(2..=MAX_PIECES))]
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
    /// Largest memory a job may ask for, in MiB (a cluster's memory per
    /// node): larger requests are capped to it; a pair whose modelled peak
    /// is above it is planned with its state mapped from work files (its
    /// command gets `--memory-limit`) when that fits, else the plan is
    /// refused. At most 18 digits, like the Slurm script's `MAX_MEM`.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=MAX_CAP))]
    max_mem: Option<u64>,
    /// Longest time a job may ask for, in minutes (a partition's time
    /// limit): a pair that needs longer runs as several jobs in a row
    /// (Slurm) or is retried (Snakemake), each continuing from the last
    /// one's checkpoint. At most 18 digits, like the Slurm script's
    /// `MAX_TIME`.
    #[arg(long, value_name = "MINUTES", value_parser = clap::value_parser!(u64).range(1..=MAX_CAP))]
    max_time: Option<u64>,
    /// Slurm partition of every job (Slurm, Snakemake).
    #[arg(long, value_name = "NAME")]
    partition: Option<String>,
    /// Slurm account every job is charged to (Slurm, Snakemake).
    #[arg(long, value_name = "NAME")]
    account: Option<String>,
    /// Slurm quality of service of every job (Slurm, Snakemake).
    #[arg(long, value_name = "NAME")]
    qos: Option<String>,
    /// One more sbatch option for every job, as `--sbatch-option=--constraint=ib`
    /// (Slurm, Snakemake); repeat it for more.
    #[arg(
        long = "sbatch-option",
        value_name = "OPTION",
        allow_hyphen_values = true
    )]
    sbatch_options: Vec<String>,
}

/// What each job asks its scheduler for beyond the plan's model: caps on
/// memory and time, and where the jobs go. The Slurm script reads each
/// from its environment too, with these as defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Requests {
    /// Largest `--mem` in MiB.
    pub max_mem_mib: Option<u64>,
    /// Largest `--time` in minutes.
    pub max_minutes: Option<u64>,
    /// `--partition`.
    pub partition: Option<String>,
    /// `--account`.
    pub account: Option<String>,
    /// `--qos`.
    pub qos: Option<String>,
    /// More sbatch options, each one word.
    pub sbatch_options: Vec<String>,
}

impl Requests {
    /// Checks every value (one word of letters, digits and `_ - . , : = + / @ %`,
    /// which no workflow quotes wrongly) and that every pair's modelled
    /// peak fits the memory cap.
    fn check(&self, plan: &Plan) -> Result<(), CliError> {
        let named = [
            ("--partition", &self.partition),
            ("--account", &self.account),
            ("--qos", &self.qos),
        ];
        let words = named
            .iter()
            .filter_map(|(flag, value)| Some((*flag, value.as_deref()?)))
            .chain(
                self.sbatch_options
                    .iter()
                    .map(|o| ("--sbatch-option", o.as_str())),
            );
        for (flag, word) in words {
            let plain = |c: char| c.is_ascii_alphanumeric() || "_-.,:=+/@%".contains(c);
            if word.is_empty() || !word.chars().all(plain) {
                return Err(CliError(format!(
                    "{flag} {:#}: give one word of letters, digits and _ - . , : = + / @ %",
                    Excerpt::new(word)
                )));
            }
        }
        if let Some(cap) = self.max_mem_mib {
            if let Some(p) = plan.pairs.iter().find(|p| model_mib(p) > cap) {
                let mapped = plan::mapped_memory_bytes(p.pair, plan.settings);
                return Err(CliError(format!(
                    "pair {} needs about {} by the plan's model ({} MiB), and {} with its state \
                     mapped from work files, above --max-mem {cap}: \
                     give a larger --max-mem (or plan fewer pieces)",
                    p.pair,
                    human_bytes(p.memory_bytes),
                    thousands(model_mib(p)),
                    human_bytes(mapped),
                )));
            }
        }
        Ok(())
    }

    /// The memory `p`'s job asks for, in MiB.
    fn memory_mib(&self, p: &PairPlan) -> u64 {
        let mib = p.memory_request_mib();
        self.max_mem_mib.map_or(mib, |cap| mib.min(cap))
    }

    /// The time each of `p`'s jobs asks for, in minutes.
    fn minutes(&self, p: &PairPlan) -> u64 {
        let minutes = p.time_limit_minutes();
        self.max_minutes.map_or(minutes, |cap| minutes.min(cap))
    }

    /// How many jobs of [`Requests::minutes`] `p` needs in a row.
    fn jobs(&self, p: &PairPlan) -> u64 {
        p.time_limit_minutes().div_ceil(self.minutes(p))
    }
}

/// A pair's modelled peak memory in MiB, rounded up.
fn model_mib(p: &PairPlan) -> u64 {
    p.memory_bytes.div_ceil(1 << 20)
}

/// Seconds between a pair's checkpoints when its jobs have `minutes`
/// each: a quarter of that, at most the generator's default of 300, so
/// that a job cut off at its limit leaves work for the next. (The Slurm
/// script computes the same when it runs, from its own `MAX_TIME`.)
fn checkpoint_seconds(minutes: u64) -> u64 {
    minutes.saturating_mul(15).clamp(1, 300)
}

/// The largest `--max-mem` and `--max-time`: 18 digits, the most the Slurm
/// script's shell arithmetic (64-bit) takes without wrapping, checked
/// there by length before any arithmetic.
const MAX_CAP: u64 = 999_999_999_999_999_999;

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
        // A pair above the cap in memory is planned with its state mapped
        // from work files when that fits.
        memory_limit: args.max_mem.map(|mib| mib.saturating_mul(1 << 20)),
    };
    let plan = Plan::new(args.pieces, settings)?;
    let requests = Requests {
        max_mem_mib: args.max_mem,
        max_minutes: args.max_time,
        partition: args.partition,
        account: args.account,
        qos: args.qos,
        sbatch_options: args.sbatch_options,
    };
    requests.check(&plan)?;
    let text = match args.format {
        PlanFormat::Json => {
            json::plan_json(&plan, &args.dir, &binary, &requests).to_string() + "\n"
        }
        PlanFormat::Snakemake => snakemake::snakefile(&plan, &args.dir, &binary, &requests)?,
        PlanFormat::Slurm => slurm::slurm_script(&plan, &args.dir, &binary, &requests)?,
        PlanFormat::Make => make::makefile(&plan, &args.dir, &binary)?,
    };
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// A comment line with a pair's estimates.
fn comment(plan: &Plan, p: &PairPlan) -> String {
    let mapped = if p.mapped {
        let windows = if p.windows > 1 {
            format!(", in {} windows", p.windows)
        } else {
            String::new()
        };
        format!(
            " (state mapped from work files of {}{windows})",
            human_bytes(p.work_bytes)
        )
    } else {
        String::new()
    };
    format!(
        "# {}: {} positions; estimated {} memory{mapped}, {} on disk, {} on {} threads",
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
    // A pair planned mapped is given the plan's limit, so that it runs
    // mapped wherever it runs.
    let limit = plan
        .pairs
        .iter()
        .find(|p| p.pair == pair && p.mapped)
        .and(plan.settings.memory_limit)
        .map(|bytes| format!(" --memory-limit {}", bytes as f64 / (1u64 << 30) as f64))
        .unwrap_or_default();
    format!(
        "{binary} tb generate --pair {pair} --dir={dir} --threads={threads} --format {} --index {}{limit}",
        plan.settings.format, plan.settings.scheme
    )
}

/// `dir/name` as text (`name` alone for an empty dir).
fn join(dir: &str, name: &str) -> String {
    Path::new(dir).join(name).display().to_string()
}
