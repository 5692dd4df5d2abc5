//! `surakarta analyse`: every move of a recorded game judged by the engine
//! (and the tables where they hold the position), marked `?!`, `?` or `??`,
//! with totals per side; optionally the annotated record, JSON and an
//! evaluation graph.

use crate::common::checks::{check_depth, in_range, GAME_NUMBER, MOVETIME_MS, NODES};
use crate::common::engine_args::EngineArgs;
use crate::common::error::CliError;
use crate::common::game::{pick_game, read_records};
use crate::common::memory::new_engine;
use crate::common::output::{check_not_input, check_output, same_file, write_output};
use crate::common::tables;
use crate::progress::counter;
use crate::render::graph::{evaluation_graph, white_chance, Point};
use clap::Args;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use surakarta::GameRecord;
use surakarta_match::analysis::{analyse_game, annotate, Eval, GameAnalysis};
use surakarta_search::Limits;

/// The arguments of `surakarta analyse`.
#[derive(Args, Debug)]
pub(crate) struct AnalyseArgs {
    /// The record file (docs/notation.md, "Game records").
    #[arg(value_name = "RECORD")]
    record: PathBuf,
    /// Which game of the file, from 1 (default: the last).
    #[arg(long, value_name = "K", value_parser = in_range(GAME_NUMBER))]
    game: Option<usize>,
    /// Search each position to this depth in plies, 1 to 64.
    #[arg(long, short = 'd', value_name = "PLIES", group = "limit")]
    depth: Option<u32>,
    /// Search each position about this many nodes, 1 to 10⁹.
    #[arg(long, value_name = "N", group = "limit", value_parser = in_range(NODES))]
    nodes: Option<u64>,
    /// Search each position this many milliseconds, 1 to 86400000 (the
    /// default: 500).
    #[arg(long, value_name = "MS", group = "limit", value_parser = in_range(MOVETIME_MS))]
    movetime: Option<u64>,
    /// Endgame tables: exact values (and marks) where they hold the position.
    #[arg(long, value_name = "DIR")]
    tb: Option<PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
    /// Write the record with the marks and comments to this file.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Write the evaluation graph (White's win chance by ply) as SVG.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `surakarta analyse`.
pub(crate) fn run(args: AnalyseArgs) -> Result<(), CliError> {
    let depth = args
        .depth
        .map(|d| check_depth("--depth", d.into()))
        .transpose()
        .map_err(CliError)?;
    let mut limits = Limits {
        depth,
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        clock: None,
    };
    if limits == Limits::default() {
        limits.movetime = Some(Duration::from_millis(500));
    }
    // Every output is checked before the work, none may be the record read.
    for (flag, path) in [("--out", &args.out), ("--svg", &args.svg)] {
        if let Some(path) = path {
            check_output(flag, path)?;
            check_not_input(flag, path, &args.record)?;
        }
    }
    if let (Some(out), Some(svg)) = (&args.out, &args.svg) {
        if same_file(out, svg) {
            return Err(CliError(format!(
                "--out and --svg are the same file {}: give two files",
                out.display()
            )));
        }
    }
    let records = read_records(&args.record)?;
    let record = &records[pick_game(&args.record, records.len(), args.game)?];
    let tables = args
        .tb
        .as_deref()
        .map(tables::open)
        .transpose()?
        .map(Arc::new);
    let mut engine = new_engine(args.engine.options()?).map_err(CliError)?;
    engine.set_tablebase(tables.clone());

    let bar = counter(record.moves.len() as u64 + 1, "positions", !args.json);
    let analysis = analyse_game(
        record,
        &mut engine,
        &limits,
        tables.as_deref(),
        &AtomicBool::new(false),
        &mut |done, _| bar.set_position(done as u64),
    )
    .map_err(|e| CliError(format!("{}: {e}", args.record.display())))?;
    bar.finish_and_clear();

    if let Some(out) = &args.out {
        // The annotated record must read back, as `show` reads it.
        let text = annotated(record, &analysis)
            .to_text()
            .map_err(|e| CliError(format!("cannot write {}: {e}", out.display())))?;
        write_output(out, text.as_bytes())?;
    }
    if let Some(file) = &args.svg {
        write_output(file, graph(&analysis).as_bytes())?;
    }
    if args.json {
        println!("{}", surakarta_board::analysis_json(&analysis));
    } else {
        print_text(&analysis);
    }
    Ok(())
}

/// The record with the analysis written in: each move's mark replaced by
/// the analysis's, and its comment after the record's own, if any
/// (`a trap | -0.35 → -2.10; best d5-d4`).
fn annotated(record: &GameRecord, analysis: &GameAnalysis) -> GameRecord {
    let mut annotated = record.clone();
    annotate(&mut annotated, analysis);
    for i in 0..annotated.moves.len() {
        let own = record.annotation(i).comment;
        let mut annotation = annotated.annotation(i);
        annotation.comment = match (own, annotation.comment) {
            (Some(own), Some(analysis)) => Some(format!("{own} | {analysis}")),
            (own, analysis) => analysis.or(own),
        };
        annotated.set_annotation(i, annotation);
    }
    annotated
}

/// The evaluation graph: White's win chance before the first move, then
/// after each move.
fn graph(analysis: &GameAnalysis) -> String {
    let mut points = Vec::with_capacity(analysis.plies.len() + 1);
    if let Some(first) = analysis.plies.first() {
        points.push(Point {
            white_chance: white_chance(first.mover, first.before.win_chance()),
            mark: None,
        });
    } else {
        points.push(Point {
            white_chance: 0.5,
            mark: None,
        });
    }
    for p in &analysis.plies {
        points.push(Point {
            white_chance: white_chance(p.mover, p.after.win_chance()),
            mark: p.mark,
        });
    }
    evaluation_graph(&points)
}

fn print_text(analysis: &GameAnalysis) {
    for p in &analysis.plies {
        let mark = p.mark.map_or("", |m| m.as_str());
        let best = p
            .best
            .filter(|&b| b != p.played)
            .map_or(String::new(), |b| format!("  best {b}"));
        println!(
            "{:>4}. {:<6} {} {:<2}  {} → {}{best}",
            p.ply,
            p.mover.name(),
            p.played,
            mark,
            p.before,
            p.after
        );
        if let Some(tables) = p.tables {
            if let Some(cutoff) = tables.cutoff {
                println!(
                    "        ({}, not the game's value: {cutoff})",
                    Eval::Table(tables.table)
                );
            }
        }
    }
    for (name, s) in [("black", &analysis.black), ("white", &analysis.white)] {
        println!(
            "{name}: {} moves, {} inaccuracies, {} mistakes, {} blunders, average loss {:.3}",
            s.moves, s.inaccuracies, s.mistakes, s.blunders, s.average_loss
        );
    }
}
