//! `surakarta tb stats`: per class positions, wins, draws and losses, the
//! DTC histogram, the longest win and the file.

use super::shared::{fen, stats_json};
use crate::common::error::CliError;
use crate::common::percent::percent;
use crate::common::tables::open_partial;
use clap::Args;
use serde_json::json;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use surakarta_index::{Indexer, Material};
use surakarta_tablebase::{ClassStats, Histogram};

/// The arguments of `surakarta tb stats`.
#[derive(Args, Debug)]
pub(super) struct StatsArgs {
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

/// Runs `surakarta tb stats`.
pub(super) fn run(args: StatsArgs) -> Result<ExitCode, CliError> {
    let tb = open_partial(&args.dir)?;
    let materials: Vec<Material> = if args.classes.is_empty() {
        // Classes whose files did not open too: their errors are reported.
        let all: BTreeSet<Material> = tb
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
        // Summed up part by part: a 10-piece class is never held whole.
        let summary = tb.summary(material)?;
        let histogram = summary.histogram;
        let s = histogram.stats(material, table.indexer().size());
        // The longest win and loss, each with a position.
        let examples: Vec<(&str, u32, String)> =
            [("win", summary.longest_win), ("loss", summary.longest_loss)]
                .into_iter()
                .filter_map(|(kind, found)| {
                    found.map(|(d, sides)| (kind, d, fen(sides.us, sides.them)))
                })
                .collect();
        if args.json {
            let trim = |v: &[u64]| v[..longest(v).map_or(0, |d| d as usize + 1)].to_vec();
            let mut class = stats_json(&s);
            class["format"] = json!(table.format());
            class["context_model"] = json!(table.header().compact.map(|c| c.model.name()));
            class["capture_draws"] = json!(table.header().compact.map(|c| c.capture_draws));
            class["draw_map"] = json!(table.header().compact.map(|c| c.draw_map_bits.is_some()));
            class["bytes"] = json!(table.file_len());
            class["bytes_per_position"] =
                json!(table.file_len() as f64 / s.positions.max(1) as f64);
            for kind in ["win", "loss"] {
                class[format!("longest_{kind}")] = json!(examples
                    .iter()
                    .find(|(k, _, _)| *k == kind)
                    .map(|(_, d, position)| json!({ "dtc": d, "position": position })));
            }
            class["histogram"] =
                json!({ "wins": trim(&histogram.wins), "losses": trim(&histogram.losses) });
            classes.push(class);
        } else {
            print_stats(&s, &histogram, &examples);
            let model = table.header().compact.map_or(String::new(), |c| {
                let draws = match (c.capture_draws, c.draw_map_bits) {
                    (true, Some(_)) => ", capture draws in a draw map",
                    (true, None) => ", capture draws",
                    (false, _) => "",
                };
                format!(" (context model {}{draws})", c.model.name())
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

fn print_stats(s: &ClassStats, histogram: &Histogram, examples: &[(&str, u32, String)]) {
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
    for (kind, d, fen) in examples {
        println!("  longest {kind}: {d} plies, e.g. {fen}");
    }
    println!("  {:>4} {:>13} {:>13}", "dtc", "wins", "losses");
    for d in 0..=s.longest as usize {
        let (w, l) = (histogram.wins[d], histogram.losses[d]);
        if w > 0 || l > 0 {
            println!("  {d:>4} {w:>13} {l:>13}");
        }
    }
}
