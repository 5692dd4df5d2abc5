//! `surakarta tb plan`: the pairs up to N pieces in dependency order with
//! their estimates, as JSON or as a workflow (Snakemake, Slurm, make).

use crate::common::error::CliError;
use crate::common::threads::check_threads;
use clap::Args;
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;
use surakarta::Excerpt;
use surakarta_index::Scheme;
use surakarta_tablebase::plan::{self, Plan, Settings, Totals};

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
        PlanFormat::Json => plan_json(&plan, &args.dir, &binary).to_string() + "\n",
        PlanFormat::Snakemake => plan.snakefile(&args.dir, &binary)?,
        PlanFormat::Slurm => plan.slurm_script(&args.dir, &binary)?,
        PlanFormat::Make => plan.makefile(&args.dir, &binary)?,
    };
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

fn totals_json(t: &Totals) -> serde_json::Value {
    json!({
        "pairs": t.pairs,
        "positions": t.positions,
        "disk_bytes": t.disk_bytes,
        "seconds_estimate": t.seconds,
        "max_memory_bytes": t.max_memory_bytes,
    })
}

fn plan_json(plan: &Plan, dir: &str, binary: &str) -> serde_json::Value {
    let pairs: Vec<_> = plan
        .pairs
        .iter()
        .map(|p| {
            let outputs: Vec<String> = p
                .pair
                .file_names()
                .iter()
                .map(|f| Path::new(dir).join(f).display().to_string())
                .collect();
            json!({
                "name": p.pair.to_string(),
                "pieces": p.pair.pieces(),
                "classes": p.classes.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                "class_positions": p.slots,
                "positions": p.positions(),
                "depends_on": p.depends_on.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
                "memory_bytes": p.memory_bytes,
                "memory_request_mib": p.memory_request_mib(),
                "disk_bytes": p.disk_bytes,
                "seconds_estimate": p.seconds,
                "time_limit_minutes": p.time_limit_minutes(),
                "outputs": outputs,
            })
        })
        .collect();
    let by_pieces: Vec<_> = (2..=plan.pieces)
        .map(|n| {
            let mut t = totals_json(&plan.totals(Some(n)));
            t["pieces"] = json!(n);
            t
        })
        .collect();
    json!({
        "pieces": plan.pieces,
        "index": plan.settings.scheme.to_string(),
        "table_format": plan.settings.format,
        "threads": plan.settings.threads,
        "dir": dir,
        "binary": binary,
        "model": {
            "generation_positions_per_thread_second": plan::GENERATION_RATE,
            "compaction_positions_per_thread_second": plan::COMPACTION_RATE,
            "format2_strong_bytes_per_position": plan::FORMAT2_STRONG_BYTES_PER_SLOT,
            "format2_weak_bytes_per_position": plan::FORMAT2_WEAK_BYTES_PER_SLOT,
            "compaction_bytes_per_position": plan::COMPACTION_BYTES_PER_SLOT,
            "streaming_compaction_above_positions": surakarta_tablebase::STREAMING_ABOVE,
            "streaming_compaction_bytes_per_position": plan::STREAMING_BYTES_PER_SLOT,
            "streaming_compaction_sample_bytes": plan::STREAMING_SAMPLE_BYTES,
            "memory_margin": plan::MEMORY_MARGIN,
            "time_margin": plan::TIME_MARGIN,
        },
        "totals": totals_json(&plan.totals(None)),
        "critical_path_seconds": plan.critical_path_seconds(),
        "by_pieces": by_pieces,
        "pairs": pairs,
    })
}
