//! `surakarta tb`: generate, probe, verify and describe endgame tablebases.

use crate::common::tables::open_partial;
use crate::common::threads::{check_threads, thread_pool};
use crate::common::usage::UsageError;
use crate::progress::Bars;
use clap::{Args, Subcommand};
use serde_json::json;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use surakarta::{Color, Position};
use surakarta_index::{Indexer, Material, Scheme};
use surakarta_tablebase::plan::{self, Plan, Settings, Totals};
use surakarta_tablebase::{
    generate_dir_with, generate_pair, ClassOutcome, ClassStats, GenerateOptions, Histogram, Pair,
    Tablebase, TablebaseError, Value,
};

/// Most pieces `tb generate` accepts (10 pieces already need ~65 GB).
const MAX_PIECES: u32 = 10;

/// The arguments of `surakarta tb`: one of its subcommands.
#[derive(Args, Debug)]
pub(crate) struct TbArgs {
    #[command(subcommand)]
    command: TbCommand,
}

#[derive(Subcommand, Debug)]
enum TbCommand {
    /// Generate every class with up to N pieces into DIR (resumes: tables
    /// already there are kept), or one pair whose dependencies are there.
    Generate(GenerateArgs),
    /// Value, best move and conversion line of positions (arguments, or one
    /// per line on stdin).
    Probe(ProbeArgs),
    /// Re-derive every entry from its successors and check every checksum;
    /// exit code 1 on any error.
    Verify(VerifyArgs),
    /// Per class: positions, wins/draws/losses, DTC histogram, longest win,
    /// file format and size.
    Stats(StatsArgs),
    /// Convert the format 1 tables of DIR to the compact format 2 in place
    /// (each checked value by value before it replaces the old file).
    Compress(CompressArgs),
    /// The pairs up to N pieces in dependency order with estimated
    /// positions, memory, disk and time, as JSON or as a Snakefile, a Slurm
    /// script or a Makefile running `tb generate --pair` for each.
    Plan(PlanArgs),
}

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

#[derive(Args, Debug)]
struct PlanArgs {
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

#[derive(Args, Debug)]
struct CompressArgs {
    /// Directory of the tables.
    #[arg(long, short = 'd', value_name = "DIR")]
    dir: PathBuf,
    /// Worker threads, 1 to 1024 (default: one per core).
    #[arg(long, short = 't', value_name = "T")]
    threads: Option<usize>,
    /// Print one JSON object (and no progress bars) instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["pieces", "pair"])))]
struct GenerateArgs {
    /// Largest piece count, 2 to 10.
    #[arg(long, short = 'n', value_name = "N")]
    pieces: Option<u32>,
    /// Only this pair (AvB: the classes AvB and BvA, or AvA alone); the
    /// tables its captures reach must be in DIR already.
    #[arg(long, value_name = "AvB")]
    pair: Option<Pair>,
    /// Directory of the tables (created if missing).
    #[arg(long, short = 'd', value_name = "DIR")]
    dir: PathBuf,
    /// Worker threads, 1 to 1024 (default: one per core).
    #[arg(long, short = 't', value_name = "T")]
    threads: Option<usize>,
    /// Index scheme: "symmetric" (8-fold smaller) or "plain" (the paper's).
    #[arg(long, value_name = "SCHEME", default_value = "symmetric")]
    index: Scheme,
    /// File format: 2 (compact, the default) or 1 (a byte per slot).
    #[arg(long, value_name = "VERSION", default_value_t = 2,
          value_parser = clap::value_parser!(u16).range(1..=2))]
    format: u16,
    /// Least seconds between two checkpoints of a pair (0: at every level).
    #[arg(long, value_name = "SECONDS", default_value_t = 300)]
    checkpoint_every: u64,
    /// Refuse a pair whose modelled peak memory exceeds this many GiB
    /// (default: the memory available when the command starts).
    #[arg(long, value_name = "GIB")]
    memory_limit: Option<f64>,
    /// Print one JSON object (and no progress bars) instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct ProbeArgs {
    /// Directory of the tables.
    #[arg(long, short = 'd', value_name = "DIR")]
    dir: PathBuf,
    /// Positions (notation of docs/notation.md); none: read stdin.
    #[arg(value_name = "FEN")]
    positions: Vec<String>,
    /// One JSON object per position instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct VerifyArgs {
    /// Directory of the tables.
    #[arg(long, short = 'd', value_name = "DIR")]
    dir: PathBuf,
    /// Only these classes (e.g. 5v4); default all. The tables their
    /// captures reach must be in DIR too.
    #[arg(value_name = "CLASS")]
    classes: Vec<Material>,
    /// Worker threads, 1 to 1024 (default: one per core).
    #[arg(long, short = 't', value_name = "T")]
    threads: Option<usize>,
    /// Print one JSON object (and no progress bars) instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct StatsArgs {
    /// Directory of the tables.
    #[arg(long, short = 'd', value_name = "DIR")]
    dir: PathBuf,
    /// Only these classes (e.g. 3v2); default all.
    #[arg(value_name = "CLASS")]
    classes: Vec<Material>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `surakarta tb`: exit code 1 if `tb verify` found errors, 2 if
/// `tb probe` could not answer a position.
pub(crate) fn run(args: TbArgs) -> Result<ExitCode, UsageError> {
    match args.command {
        TbCommand::Generate(a) => generate(a),
        TbCommand::Probe(a) => probe(a),
        TbCommand::Verify(a) => verify(a),
        TbCommand::Stats(a) => stats(a),
        TbCommand::Compress(a) => compress(a),
        TbCommand::Plan(a) => plan(a),
    }
}

fn plan(args: PlanArgs) -> Result<ExitCode, UsageError> {
    let threads = check_threads(args.threads)?;
    let binary = match args.binary {
        Some(b) => b,
        None => std::env::current_exe()
            .map_err(|e| {
                UsageError(format!(
                    "cannot find this program's path (give --binary): {e}"
                ))
            })?
            .display()
            .to_string(),
    };
    let settings = Settings {
        scheme: args.index,
        format: args.table_format,
        threads: threads as u32,
    };
    let plan = Plan::new(args.pieces, settings)?;
    let text = match args.format {
        PlanFormat::Json => plan_json(&plan, &args.dir, &binary).to_string() + "\n",
        PlanFormat::Snakemake => plan.snakefile(&args.dir, &binary),
        PlanFormat::Slurm => plan.slurm_script(&args.dir, &binary),
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
            "memory_margin": plan::MEMORY_MARGIN,
            "time_margin": plan::TIME_MARGIN,
        },
        "totals": totals_json(&plan.totals(None)),
        "critical_path_seconds": plan.critical_path_seconds(),
        "by_pieces": by_pieces,
        "pairs": pairs,
    })
}

fn compress(args: CompressArgs) -> Result<ExitCode, UsageError> {
    let threads = check_threads(args.threads)?;
    let pool = thread_pool(threads)?;
    let bars = Bars::new(!args.json);
    let start = Instant::now();
    let result = pool.install(|| surakarta_tablebase::compress_dir(&args.dir, &bars));
    bars.clear();
    let outcomes = result?;
    if outcomes.is_empty() {
        return Err(UsageError(format!(
            "{}: no table files (*.sktb) found",
            args.dir.display()
        )));
    }
    let seconds = start.elapsed().as_secs_f64();
    let before: u64 = outcomes.iter().map(|o| o.before).sum();
    let after: u64 = outcomes.iter().map(|o| o.after).sum();
    let converted = outcomes.iter().filter(|o| !o.skipped).count();
    if args.json {
        let tables: Vec<_> = outcomes
            .iter()
            .map(|o| {
                json!({
                    "class": o.material.to_string(),
                    "before": o.before,
                    "after": o.after,
                    "skipped": o.skipped,
                    "seconds": o.seconds,
                })
            })
            .collect();
        println!(
            "{}",
            json!({
                "dir": args.dir.display().to_string(),
                "tables": tables,
                "converted": converted,
                "before": before,
                "after": after,
                "threads": threads,
                "seconds": seconds,
            })
        );
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{:<6} {:>13} {:>13} {:>8} {:>8}",
        "class", "bytes before", "bytes after", "ratio", "seconds"
    );
    for o in &outcomes {
        let time = if o.skipped {
            "compact".to_string()
        } else {
            format!("{:.2}", o.seconds)
        };
        println!(
            "{:<6} {:>13} {:>13} {:>7.1}x {:>8}",
            o.material.to_string(),
            o.before,
            o.after,
            o.before as f64 / o.after.max(1) as f64,
            time
        );
    }
    println!(
        "{converted} of {} tables converted, {before} -> {after} bytes ({:.1}x) in {seconds:.2} s on {threads} thread{}",
        outcomes.len(),
        before as f64 / after.max(1) as f64,
        if threads == 1 { "" } else { "s" },
    );
    Ok(ExitCode::SUCCESS)
}

fn percent(part: u64, whole: u64) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

fn generate(args: GenerateArgs) -> Result<ExitCode, UsageError> {
    // clap requires exactly one of --pieces and --pair.
    let what = match (args.pieces, args.pair) {
        (_, Some(pair)) => Ok(pair),
        (Some(pieces), None) if (2..=MAX_PIECES).contains(&pieces) => Err(pieces),
        (Some(pieces), None) => {
            return Err(UsageError(format!(
                "--pieces {pieces} is out of range: give 2 to {MAX_PIECES}"
            )))
        }
        (None, None) => return Err(UsageError("give --pieces N or --pair AvB".into())),
    };
    let threads = check_threads(args.threads)?;
    let pool = thread_pool(threads)?;
    let bars = Bars::new(!args.json);
    let start = Instant::now();
    let memory_limit = match args.memory_limit {
        Some(gib) if !(gib > 0.0 && gib.is_finite()) => {
            return Err(UsageError(format!(
                "--memory-limit {gib} is out of range: give a positive number of GiB"
            )))
        }
        Some(gib) => Some((gib * (1u64 << 30) as f64) as u64),
        None => available_memory(),
    };
    let options = GenerateOptions {
        scheme: args.index,
        format: args.format,
        checkpoint_every: Duration::from_secs(args.checkpoint_every),
        memory_limit,
    };
    let result = pool.install(|| match what {
        Ok(pair) => generate_pair(&args.dir, pair, &options, &bars),
        Err(pieces) => generate_dir_with(&args.dir, pieces, &options, &bars),
    });
    bars.clear();
    let outcomes = result?;
    let seconds = start.elapsed().as_secs_f64();
    let positions: u64 = outcomes.iter().map(|o| o.stats.positions).sum();
    let skipped = outcomes.iter().filter(|o| o.skipped).count();
    if args.json {
        let classes: Vec<_> = outcomes.iter().map(outcome_json).collect();
        let mut out = json!({
            "dir": args.dir.display().to_string(),
            "index": args.index.to_string(),
            "format": args.format,
            "threads": threads,
            "classes": classes,
            "positions": positions,
            "skipped": skipped,
            "seconds": seconds,
            "memory_limit_bytes": options.memory_limit,
        });
        match what {
            Ok(pair) => out["pair"] = json!(pair.to_string()),
            Err(pieces) => out["pieces"] = json!(pieces),
        }
        println!("{out}");
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{:<6} {:>13} {:>13} {:>13} {:>13} {:>7} {:>8}",
        "class", "positions", "wins", "draws", "losses", "longest", "seconds"
    );
    for o in &outcomes {
        let s = &o.stats;
        let time = if o.skipped {
            "present".to_string()
        } else {
            format!("{:.2}", o.seconds)
        };
        println!(
            "{:<6} {:>13} {:>13} {:>13} {:>13} {:>7} {:>8}",
            s.material.to_string(),
            s.positions,
            s.wins,
            s.draws,
            s.losses,
            s.longest,
            time
        );
    }
    println!(
        "{} classes ({skipped} already present), {positions} positions, {:.2} s on {threads} thread{} in {}",
        outcomes.len(),
        seconds,
        if threads == 1 { "" } else { "s" },
        args.dir.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// A class's figures as a JSON object, for other fields to be added to.
fn stats_json(s: &ClassStats) -> serde_json::Value {
    json!({
        "class": s.material.to_string(),
        "slots": s.slots,
        "positions": s.positions,
        "wins": s.wins,
        "draws": s.draws,
        "losses": s.losses,
        "longest": s.longest,
    })
}

fn outcome_json(o: &ClassOutcome) -> serde_json::Value {
    let mut out = stats_json(&o.stats);
    out["seconds"] = json!(o.seconds);
    out["skipped"] = json!(o.skipped);
    out["resumed_at_level"] = json!(o.resumed_at_level);
    out["memory_estimate_bytes"] = json!(o.memory_estimate);
    out
}

/// One probe's answer.
struct Answer {
    position: Position,
    value: Value,
    best: Option<surakarta::Move>,
    line: Vec<surakarta::Move>,
}

fn answer(tb: &Tablebase, text: &str) -> Result<Answer, String> {
    let position: Position = text.parse().map_err(|e| format!("{e}"))?;
    let probe = || -> Result<Answer, TablebaseError> {
        Ok(Answer {
            value: tb.probe_position(&position)?,
            best: tb.best_move(&position)?.map(|(m, _)| m),
            line: tb.line(&position)?,
            position,
        })
    };
    probe().map_err(|e| e.to_string())
}

fn probe(args: ProbeArgs) -> Result<ExitCode, UsageError> {
    let tb = open_partial(&args.dir)?;
    let inputs: Box<dyn Iterator<Item = Result<String, std::io::Error>>> =
        if args.positions.is_empty() {
            Box::new(std::io::stdin().lock().lines())
        } else {
            Box::new(args.positions.clone().into_iter().map(Ok))
        };
    let mut failures = 0;
    for input in inputs {
        let input = input.map_err(|e| UsageError(format!("reading stdin: {e}")))?;
        let text = input.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        match answer(&tb, text) {
            Ok(a) => {
                let line: Vec<String> = a.line.iter().map(|m| m.to_string()).collect();
                if args.json {
                    println!(
                        "{}",
                        json!({
                            "position": a.position.to_string(),
                            "wdl": a.value.wdl().name(),
                            "dtc": a.value.dtc(),
                            "best_move": a.best.map(|m| m.to_string()),
                            "line": line,
                        })
                    );
                } else {
                    let best = match a.best {
                        Some(m) => format!("best {m}"),
                        None => "no legal move".to_string(),
                    };
                    let line = if line.is_empty() {
                        String::new()
                    } else {
                        format!("; line {}", line.join(" "))
                    };
                    println!("{}: {}; {best}{line}", a.position, a.value);
                }
            }
            Err(message) => {
                failures += 1;
                if args.json {
                    println!("{}", json!({ "position": text, "error": message }));
                } else {
                    eprintln!("error: {}: {message}", surakarta::Excerpt::new(text));
                }
            }
        }
    }
    Ok(if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(2)
    })
}

fn verify(args: VerifyArgs) -> Result<ExitCode, UsageError> {
    let pool = thread_pool(check_threads(args.threads)?)?;
    // Compact tables are expanded into memory first (their checksums and
    // blocks checked, stored wins resolved through the captures, header
    // figures kept): re-deriving probes every move, far faster unpacked.
    let tb = pool.install(|| open_partial(&args.dir).map(Tablebase::into_expanded))?;
    let chosen = |m: Material| args.classes.is_empty() || args.classes.contains(&m);
    let open_errors: Vec<&TablebaseError> = tb
        .load_errors()
        .filter(|&(m, _)| chosen(m))
        .map(|(_, e)| e)
        .collect();
    let mut materials: Vec<Material> = tb.materials().filter(|&m| chosen(m)).collect();
    for &class in &args.classes {
        if !materials.contains(&class) && tb.load_errors().all(|(m, _)| m != class) {
            // Not in DIR at all: say so, as a probe of it would.
            tb.lookup(class)?;
        }
    }
    materials.dedup();
    let verified = materials.len();
    let bars = Bars::new(!args.json);
    bars.set_total(
        materials
            .iter()
            .filter_map(|&m| tb.table(m))
            .map(|t| t.indexer().size())
            .sum(),
    );
    let start = Instant::now();
    let mut errors = open_errors.len() as u64;
    let mut positions = 0;
    let mut reports = Vec::new();
    for e in &open_errors {
        if args.json {
            reports.push(json!({ "file": e.path().map(|p| p.display().to_string()), "error": e.to_string(), "errors": 1 }));
        } else {
            bars.println(&format!("error: {e}"));
        }
    }
    for material in materials {
        let slots = tb.table(material).map_or(0, |t| t.indexer().size());
        bars.start_table(material, slots);
        let result = pool.install(|| tb.verify(material, &bars));
        bars.finish_table(slots);
        match result {
            Ok(report) => {
                errors += report.errors();
                positions += report.positions;
                let examples: Vec<_> = report
                    .examples
                    .iter()
                    .map(|m| {
                        json!({
                            "position": fen(m.sides.us, m.sides.them),
                            "stored": m.stored.to_string(),
                            "derived": m.derived.to_string(),
                        })
                    })
                    .collect();
                if args.json {
                    reports.push(json!({
                        "class": material.to_string(),
                        "positions": report.positions,
                        "checksum_ok": report.checksum_ok,
                        "counts_ok": report.stats_ok,
                        "mismatches": report.mismatches,
                        "errors": report.errors(),
                        "examples": examples,
                    }));
                } else if report.errors() == 0 {
                    bars.println(&format!("{material}: {} positions, ok", report.positions));
                } else {
                    let mut parts = Vec::new();
                    if !report.checksum_ok {
                        parts.push("payload checksum mismatch".to_string());
                    }
                    if report.checksum_ok && !report.stats_ok {
                        parts.push("header counts differ from the payload".to_string());
                    }
                    if report.mismatches > 0 {
                        parts.push(format!(
                            "{} entries differ from their successors",
                            report.mismatches
                        ));
                    }
                    bars.println(&format!("{material}: FAILED: {}", parts.join("; ")));
                    for (m, e) in report.examples.iter().zip(&examples) {
                        bars.println(&format!(
                            "  {}: stored {}, successors give {}",
                            e["position"].as_str().unwrap_or(""),
                            m.stored,
                            m.derived
                        ));
                    }
                }
            }
            Err(e) => {
                errors += 1;
                if args.json {
                    reports.push(json!({ "class": material.to_string(), "error": e.to_string(), "errors": 1 }));
                } else {
                    bars.println(&format!("{material}: cannot verify: {e}"));
                }
            }
        }
    }
    bars.clear();
    let seconds = start.elapsed().as_secs_f64();
    let tables = verified + open_errors.len();
    if args.json {
        println!(
            "{}",
            json!({
                "dir": args.dir.display().to_string(),
                "tables": reports,
                "positions": positions,
                "errors": errors,
                "seconds": seconds,
            })
        );
    } else {
        println!(
            "verified {tables} tables, {positions} positions in {seconds:.2} s: {errors} error{}",
            if errors == 1 { "" } else { "s" }
        );
    }
    Ok(if errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// A position in notation with the side owning `us` (Black) to move.
fn fen(us: surakarta::Bitboard, them: surakarta::Bitboard) -> String {
    Position::from_sides(us, them, Color::Black)
        .map(|p| p.to_string())
        .unwrap_or_else(|e| format!("(invalid: {e})"))
}

fn stats(args: StatsArgs) -> Result<ExitCode, UsageError> {
    let tb = open_partial(&args.dir)?;
    let materials: Vec<Material> = if args.classes.is_empty() {
        // Classes whose files did not open too: their errors are reported.
        let all: std::collections::BTreeSet<Material> = tb
            .materials()
            .chain(tb.load_errors().map(|(m, _)| m))
            .collect();
        all.into_iter().collect()
    } else {
        args.classes.clone()
    };
    let mut classes = Vec::new();
    for material in materials {
        let table = tb.lookup(material)?;
        let values = tb.values(material)?;
        let histogram = Histogram::of(table.indexer(), &values);
        let s = histogram.stats(material, table.indexer().size());
        let longest_win = longest(&histogram.wins);
        let example = match longest_win {
            Some(d) => {
                let index = values.iter().position(|&b| u32::from(b) == d);
                match index {
                    Some(i) => {
                        let sides = table
                            .indexer()
                            .unrank(i as u64)
                            .map_err(TablebaseError::from)?;
                        Some(fen(sides.us, sides.them))
                    }
                    None => None,
                }
            }
            None => None,
        };
        if args.json {
            let trim = |v: &[u64]| v[..longest(v).map_or(0, |d| d as usize + 1)].to_vec();
            let mut class = stats_json(&s);
            class["format"] = json!(table.format());
            class["context_model"] = json!(table.header().compact.map(|c| c.model.name()));
            class["bytes"] = json!(table.file_len());
            class["bytes_per_position"] =
                json!(table.file_len() as f64 / s.positions.max(1) as f64);
            class["longest_win"] =
                json!(longest_win.map(|d| json!({ "dtc": d, "position": example })));
            class["histogram"] =
                json!({ "wins": trim(&histogram.wins), "losses": trim(&histogram.losses) });
            classes.push(class);
        } else {
            print_stats(&s, &histogram, longest_win, example.as_deref());
            let model = table.header().compact.map_or(String::new(), |c| {
                format!(" (context model {})", c.model.name())
            });
            println!(
                "  file: format {}{model}, {} bytes, {:.4} bytes per position",
                table.format(),
                table.file_len(),
                table.file_len() as f64 / s.positions.max(1) as f64
            );
        }
    }
    if args.json {
        println!(
            "{}",
            json!({ "dir": args.dir.display().to_string(), "classes": classes })
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The largest index with a nonzero count.
fn longest(counts: &[u64]) -> Option<u32> {
    counts.iter().rposition(|&n| n > 0).map(|d| d as u32)
}

fn print_stats(
    s: &ClassStats,
    histogram: &Histogram,
    longest_win: Option<u32>,
    example: Option<&str>,
) {
    println!(
        "{}: {} positions ({} slots); wins {} ({:.1}%), draws {} ({:.1}%), losses {} ({:.1}%)",
        s.material,
        s.positions,
        s.slots,
        s.wins,
        percent(s.wins, s.positions),
        s.draws,
        percent(s.draws, s.positions),
        s.losses,
        percent(s.losses, s.positions)
    );
    if let (Some(d), Some(fen)) = (longest_win, example) {
        println!("  longest win: {d} plies, e.g. {fen}");
    }
    println!("  {:>4} {:>13} {:>13}", "dtc", "wins", "losses");
    for d in 0..=s.longest as usize {
        let (w, l) = (histogram.wins[d], histogram.losses[d]);
        if w > 0 || l > 0 {
            println!("  {d:>4} {w:>13} {l:>13}");
        }
    }
}

/// The memory available to a new process (Linux: `MemAvailable` of
/// `/proc/meminfo`, which counts reclaimable page cache), if known.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
