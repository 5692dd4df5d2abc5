//! `surakarta search` and `surakarta bench`: one search from the command
//! line, and the fixed benchmark.

use crate::UsageError;
use clap::Args;
use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use surakarta::{Excerpt, Game, Position, Rules};
use surakarta_search::{
    bench, Engine, Info, Limits, Options, Score, ScoreKind, Smp, Techniques, Weights,
};

/// The deepest search the command line and the engine protocol accept, in
/// plies (`search`, `bench`, `play`, `match` players, `go depth`).
pub(crate) const MAX_DEPTH: u32 = 64;

/// `depth` if it is 1 to [`MAX_DEPTH`], else the message `NAME DEPTH is out
/// of range: give 1 to 64` (`name` is how the user gave it: `--depth`).
pub(crate) fn check_depth(name: &str, depth: u64) -> Result<u32, String> {
    match u32::try_from(depth) {
        Ok(d) if (1..=MAX_DEPTH).contains(&d) => Ok(d),
        _ => Err(format!(
            "{name} {depth} is out of range: give 1 to {MAX_DEPTH}"
        )),
    }
}

/// Engine settings shared by `search`, `bench` and `engine`.
#[derive(Args, Debug, Clone)]
pub(crate) struct EngineArgs {
    /// Search threads, 1 to 1024 (1 is deterministic).
    #[arg(long, short = 't', value_name = "N", default_value_t = 1)]
    pub(crate) threads: usize,
    /// Transposition table size in MiB, 1 to 65536.
    #[arg(long, value_name = "MB", default_value_t = 64)]
    pub(crate) hash: usize,
    /// Evaluation weights: `default` or `paper` (seed 001's weights).
    #[arg(long, value_name = "PRESET", default_value = "default")]
    pub(crate) eval: String,
    /// Switch search techniques off, to measure them: a comma-separated list
    /// of tt, aspiration, quiescence, killers, history, reductions.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub(crate) without: Vec<String>,
    /// How several threads share the work: `siblings` (Young Brothers
    /// Wait) or `lazy` (Lazy SMP).
    #[arg(long, value_name = "MODE", default_value = "siblings")]
    pub(crate) smp: String,
}

impl EngineArgs {
    pub(crate) fn options(&self) -> Result<Options, UsageError> {
        let weights = Weights::preset(&self.eval).ok_or_else(|| {
            UsageError(format!(
                "unknown --eval {}: expected default or paper",
                Excerpt::new(&self.eval)
            ))
        })?;
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
                    return Err(UsageError(format!(
                        "unknown technique {} in --without: expected tt, aspiration, quiescence, killers, history, reductions",
                        Excerpt::new(other)
                    )))
                }
            };
            *flag = false;
        }
        let smp = Smp::parse(&self.smp).ok_or_else(|| {
            UsageError(format!(
                "unknown --smp {}: expected siblings or lazy",
                Excerpt::new(&self.smp)
            ))
        })?;
        Ok(Options {
            threads: self.threads,
            hash_mb: self.hash,
            weights,
            techniques,
            smp,
        })
    }
}

#[derive(Args, Debug)]
pub(crate) struct SearchArgs {
    /// The position (notation as in docs/notation.md); default: the start.
    #[arg(long, short = 'p', value_name = "FEN")]
    position: Option<String>,
    /// Moves played from the position first (`b2-c3`, `b2xe5` or `b2c3`).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
    /// Search to this depth in plies, 1 to 64.
    #[arg(long, short = 'd', value_name = "PLIES", group = "limit")]
    depth: Option<u32>,
    /// Search about this many nodes.
    #[arg(long, value_name = "N", group = "limit")]
    nodes: Option<u64>,
    /// Search for this many milliseconds.
    #[arg(long, value_name = "MS", group = "limit")]
    movetime: Option<u64>,
    /// Rule set: icga, pku, pure, or a list like repetitions=3,no-capture=50.
    #[arg(long, value_name = "RULES", default_value = "icga")]
    rules: String,
    /// Probe the endgame tables in this directory.
    #[arg(long, value_name = "DIR")]
    tb: Option<PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
    /// Print one JSON object at the end instead of text.
    #[arg(long)]
    json: bool,
}

/// The game described by a position and moves under a rule set.
pub(crate) fn build_game(
    position: Option<&str>,
    moves: &[String],
    rules: Rules,
) -> Result<Game, UsageError> {
    let start = match position {
        None | Some("startpos") => Position::new(),
        Some(text) => text
            .parse::<Position>()
            .map_err(|e| UsageError(format!("invalid position {}: {e}", Excerpt::new(text))))?,
    };
    let mut game = Game::new(start, rules);
    for (i, text) in moves.iter().enumerate() {
        game.play_text(text)
            .map_err(|e| UsageError(format!("move {} ({}): {e}", i + 1, Excerpt::new(text))))?;
    }
    Ok(game)
}

/// The score as a JSON object: `{"kind": "cp", "value": 12}`.
pub(crate) fn score_json(score: Score) -> serde_json::Value {
    let (kind, value) = match score.kind() {
        ScoreKind::Eval(v) => ("cp", i64::from(v)),
        ScoreKind::Win(n) => ("win", i64::from(n)),
        ScoreKind::Loss(n) => ("loss", i64::from(n)),
        ScoreKind::TbWin(n) => ("tbwin", i64::from(n)),
        ScoreKind::TbLoss(n) => ("tbloss", i64::from(n)),
    };
    json!({ "kind": kind, "value": value })
}

/// One iteration as a protocol-style line (without the `info` word).
pub(crate) fn info_line(info: &Info) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {} tbhits {} pv {}",
        info.depth,
        info.seldepth,
        info.score,
        info.nodes,
        info.nps,
        info.elapsed.as_millis(),
        info.hashfull,
        info.tb_hits,
        pv.join(" ")
    )
}

pub(crate) fn run(args: SearchArgs) -> Result<(), UsageError> {
    let depth = args
        .depth
        .map(|d| check_depth("--depth", d.into()))
        .transpose()
        .map_err(UsageError)?;
    let rules: Rules = args.rules.parse()?;
    let game = build_game(args.position.as_deref(), &args.moves, rules)?;
    let limits = Limits {
        depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        clock: None,
    };
    if limits == Limits::default() {
        return Err(UsageError(
            "give a limit: --depth PLIES, --nodes N or --movetime MS".into(),
        ));
    }
    let mut engine = Engine::new(args.engine.options()?)?;
    if let Some(dir) = &args.tb {
        engine.set_tablebase(Some(Arc::new(crate::tb::open(dir)?)));
    }
    let stop = AtomicBool::new(false);
    let json = args.json;
    let result = engine.search(&game, &limits, &stop, &mut |info| {
        if !json {
            println!("info {}", info_line(info));
        }
    });
    if result.tb_errors > 0 {
        eprintln!(
            "warning: {} tablebase probes failed (run `surakarta tb verify`)",
            result.tb_errors
        );
    }
    let best = result.best_move.map(|m| m.to_string());
    if json {
        let info = &result.info;
        let object = json!({
            "position": game.position().to_string(),
            "best_move": best,
            "score": score_json(info.score),
            "depth": info.depth,
            "seldepth": info.seldepth,
            "nodes": info.nodes,
            "nps": info.nps,
            "pv": info.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            "seconds": info.elapsed.as_secs_f64(),
            "tb_hits": info.tb_hits,
        });
        println!("{object}");
    } else {
        match best {
            Some(m) => println!("bestmove {m}"),
            None => println!(
                "bestmove none ({})",
                game.outcome().map_or("no move".into(), |o| o.to_string())
            ),
        }
    }
    Ok(())
}

#[derive(Args, Debug)]
pub(crate) struct BenchArgs {
    /// Depth of each search, 1 to 64.
    #[arg(long, short = 'd', value_name = "PLIES", default_value_t = bench::DEFAULT_DEPTH)]
    depth: u32,
    #[command(flatten)]
    engine: EngineArgs,
    /// Search with the tables of DIR, then time probes of random positions
    /// of its classes with the most pieces.
    #[arg(long, value_name = "DIR")]
    tb: Option<PathBuf>,
    /// Probes to time with --tb.
    #[arg(long, value_name = "N", default_value_t = 100_000, requires = "tb")]
    probes: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run_bench(args: BenchArgs) -> Result<(), UsageError> {
    check_depth("--depth", args.depth.into()).map_err(UsageError)?;
    let json = args.json;
    let tablebase = match &args.tb {
        Some(dir) => Some(Arc::new(crate::tb::open(dir)?)),
        None => None,
    };
    let report = bench::run(
        args.engine.options()?,
        tablebase.clone(),
        args.depth,
        &mut |i, position, result| {
            if !json {
                let best = result.best_move.map_or("none".into(), |m| m.to_string());
                println!(
                    "{:>2} {:<40} {:>10} nodes  score {:<10} best {best}",
                    i + 1,
                    position.to_string(),
                    result.info.nodes,
                    result.info.score.to_string()
                );
            }
        },
    )?;
    let timing = match &tablebase {
        Some(tb) => Some(surakarta_tablebase::time_probes(tb, args.probes)?),
        None => None,
    };
    if json {
        let object = json!({
            "positions": report.positions,
            "depth": report.depth,
            "threads": args.engine.threads,
            "nodes": report.nodes,
            "seconds": report.elapsed.as_secs_f64(),
            "nps": report.nps(),
            "tb_hits": report.tb_hits,
            "probes": timing.as_ref().map(|t| json!({
                "classes": t.classes.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "probes": t.probes,
                "median_ns": t.median.as_nanos() as u64,
                "p90_ns": t.p90.as_nanos() as u64,
                "p99_ns": t.p99.as_nanos() as u64,
                "mean_ns": t.mean.as_nanos() as u64,
                "first_probes_ms": t.first_probes.as_secs_f64() * 1e3,
            })),
        });
        println!("{object}");
    } else {
        println!(
            "{} positions, depth {}, {} threads: {} nodes in {:.2} s, {} nodes/s",
            report.positions,
            report.depth,
            args.engine.threads,
            report.nodes,
            report.elapsed.as_secs_f64(),
            report.nps()
        );
        println!("signature {}", report.nodes);
        if let Some(t) = &timing {
            println!("tablebase hits {}", report.tb_hits);
            let classes: Vec<String> = t.classes.iter().map(ToString::to_string).collect();
            println!(
                "probes of {}: {} probes, median {} ns, p90 {} ns, p99 {} ns, mean {} ns; first probe of each class (checksums) {:.1} ms",
                classes.join(" "),
                t.probes,
                t.median.as_nanos(),
                t.p90.as_nanos(),
                t.p99.as_nanos(),
                t.mean.as_nanos(),
                t.first_probes.as_secs_f64() * 1e3
            );
        }
    }
    Ok(())
}
