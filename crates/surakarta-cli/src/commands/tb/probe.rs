//! `surakarta tb probe`: value, best move and conversion line of positions.

use crate::common::error::CliError;
use crate::common::tables::open_partial;
use clap::Args;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use surakarta::Position;
use surakarta_board::{probe, probe_json, ProbeAnswer};
use surakarta_match::lines::{Line, LineReader};
use surakarta_tablebase::Tablebase;

/// The arguments of `surakarta tb probe`.
#[derive(Args, Debug)]
pub(super) struct ProbeArgs {
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

/// Probes the position written as `text`; the error is the message printed.
fn answer(tb: &Tablebase, text: &str) -> Result<ProbeAnswer, String> {
    let position: Position = text.parse().map_err(|e| format!("{e}"))?;
    probe(tb, position).map_err(|e| e.to_string())
}

/// Runs `surakarta tb probe`.
pub(super) fn run(args: ProbeArgs) -> Result<ExitCode, CliError> {
    let tb = open_partial(&args.dir)?;
    // Lines from stdin longer than MAX_LINE_BYTES or not UTF-8 are
    // reported like a bad position and skipped, never held in memory.
    let inputs: Box<dyn Iterator<Item = Result<Line, std::io::Error>>> =
        if args.positions.is_empty() {
            Box::new(LineReader::new(std::io::stdin().lock()))
        } else {
            Box::new(
                args.positions
                    .clone()
                    .into_iter()
                    .map(|p| Ok(Line::Text(p))),
            )
        };
    let mut failures = 0;
    for input in inputs {
        let input = input.map_err(|e| CliError(format!("reading stdin: {e}")))?;
        let text = match input.text() {
            Ok(line) => line.trim().to_string(),
            Err(dropped) => {
                failures += 1;
                if args.json {
                    println!(
                        "{}",
                        json!({ "position": null, "error": dropped.to_string() })
                    );
                } else {
                    eprintln!("error: {dropped}");
                }
                continue;
            }
        };
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        match answer(&tb, &text) {
            Ok(a) if args.json => println!("{}", probe_json(&a)),
            Ok(a) => println!("{}", answer_text(&a)),
            Err(message) => {
                failures += 1;
                if args.json {
                    println!("{}", json!({ "position": text, "error": message }));
                } else {
                    eprintln!("error: {}: {message}", surakarta::Excerpt::new(&text));
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

/// An answer as a line of text: `POSITION: VALUE; best MOVE; line MOVES`.
fn answer_text(a: &ProbeAnswer) -> String {
    let best = match a.best {
        Some(m) => format!("best {m}"),
        None => "no legal move".to_string(),
    };
    let line = if a.line.is_empty() {
        String::new()
    } else {
        let moves: Vec<String> = a.line.iter().map(|m| m.to_string()).collect();
        format!("; line {}", moves.join(" "))
    };
    format!("{}: {}; {best}{line}", a.position, a.value)
}
