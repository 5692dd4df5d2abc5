//! `surakarta data`: checks training data files (every checksum and
//! record) and counts what they hold.

use crate::common::data::data_files;
use crate::common::error::CliError;
use crate::common::percent::percent;
use crate::progress::counter;
use clap::Args;
use serde_json::json;
use std::collections::HashSet;
use std::path::PathBuf;
use std::process::ExitCode;
use surakarta_match::endgames::key;
use surakarta_search::network::data::{self, DataStats};
use surakarta_tablebase::FileKind;

/// The arguments of `surakarta data`.
#[derive(Args, Debug)]
pub(crate) struct DataArgs {
    /// Training data: `.skdata` files, or directories whose `*.skdata`
    /// files are all read.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Also count the distinct positions (side to move included); holds
    /// 20 to 40 bytes of memory per distinct position (more while the set
    /// grows).
    #[arg(long)]
    distinct: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `surakarta data`: exit code 1 if a file is damaged (each named on
/// stderr), 0 otherwise; a file that cannot be read is an error (exit
/// code 2).
pub(crate) fn run(args: DataArgs) -> Result<ExitCode, CliError> {
    let files = data_files(&args.paths)?;
    let mut stats = DataStats::default();
    let mut distinct: Option<HashSet<u128>> = args.distinct.then(HashSet::new);
    let mut damaged = Vec::new();
    let mut outdated = 0u64;
    let bar = counter(files.len() as u64, "files", !args.json);
    for file in &files {
        // Not opened if it is no regular file: a FIFO would block.
        let read = match std::fs::metadata(file) {
            Ok(metadata) if !metadata.is_file() => Err(format!(
                "{}: not a regular file (a {})",
                file.display(),
                FileKind::of(metadata.file_type())
            )),
            _ => match data::read(file) {
                Ok(read) => Ok(read),
                // A file that cannot be opened or read is an error, not
                // damage.
                Err(e @ data::DataError::Io { .. }) => return Err(CliError(e.to_string())),
                Err(e) => Err(e.to_string()),
            },
        };
        match read {
            Ok(read) => {
                outdated += u64::from(read.is_outdated());
                stats.add(&read.records);
                if let Some(set) = &mut distinct {
                    set.extend(read.records.iter().map(|r| key(&r.position)));
                }
            }
            Err(e) => {
                bar.suspend(|| eprintln!("damaged: {e}"));
                damaged.push(e);
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let distinct = distinct.map(|set| set.len() as u64);
    if args.json {
        println!(
            "{}",
            summary_json(&stats, files.len(), &damaged, outdated, distinct)
        );
    } else {
        print!(
            "{}",
            summary_text(&stats, files.len(), damaged.len(), outdated, distinct)
        );
    }
    Ok(if damaged.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// "win W%, draw D%, loss L%" of labels counted as `[loss, draw, win]`.
fn label_shares(labels: &[u64; 3]) -> String {
    let total = labels.iter().sum();
    format!(
        "win {:.1}%, draw {:.1}%, loss {:.1}%",
        percent(labels[2], total),
        percent(labels[1], total),
        percent(labels[0], total)
    )
}

/// The text summary.
fn summary_text(
    stats: &DataStats,
    files: usize,
    damaged: usize,
    outdated: u64,
    distinct: Option<u64>,
) -> String {
    let mut out = String::new();
    let n = stats.positions;
    let exact = stats.exact();
    let game = n - exact;
    out.push_str(&format!(
        "{n} positions in {files} file{}: {damaged} damaged, {outdated} of version 1 (without checksums)\n",
        if files == 1 { "" } else { "s" }
    ));
    out.push_str(&format!(
        "labelled by the game's result: {game} ({:.1}%): {}; mean |score| {:.0}\n",
        percent(game, n),
        label_shares(&stats.game_labels),
        stats.mean_game_abs_score()
    ));
    out.push_str(&format!(
        "labelled exactly by the tables: {exact} ({:.1}%): {}\n",
        percent(exact, n),
        label_shares(&stats.exact_labels)
    ));
    out.push_str(&format!(
        "White to move {:.1}%; ply: mean {:.1}, largest {}\n",
        percent(stats.white_to_move, n),
        stats.mean_ply(),
        stats.max_ply
    ));
    if let Some(d) = distinct {
        out.push_str(&format!(
            "distinct positions: {d} ({:.1}%)\n",
            percent(d, n)
        ));
    }
    out.push_str("pieces  positions   share\n");
    for (pieces, &count) in stats.by_pieces.iter().enumerate().rev() {
        if count > 0 {
            out.push_str(&format!(
                "{pieces:>6}  {count:>9}  {:>5.1}%\n",
                percent(count, n)
            ));
        }
    }
    out
}

/// The JSON summary.
fn summary_json(
    stats: &DataStats,
    files: usize,
    damaged: &[String],
    outdated: u64,
    distinct: Option<u64>,
) -> serde_json::Value {
    let labels = |l: &[u64; 3]| json!({"loss": l[0], "draw": l[1], "win": l[2]});
    let by_pieces: serde_json::Map<String, serde_json::Value> = stats
        .by_pieces
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c > 0)
        .map(|(p, &c)| (p.to_string(), json!(c)))
        .collect();
    json!({
        "files": files,
        "damaged_files": damaged,
        "version_1_files": outdated,
        "positions": stats.positions,
        "exact": stats.exact(),
        "game_labels": labels(&stats.game_labels),
        "exact_labels": labels(&stats.exact_labels),
        "white_to_move": stats.white_to_move,
        "mean_ply": stats.mean_ply(),
        "max_ply": stats.max_ply,
        "mean_game_abs_score": stats.mean_game_abs_score(),
        "by_pieces": by_pieces,
        "distinct": distinct,
    })
}
