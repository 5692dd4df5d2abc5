//! `surakarta train`: trains the evaluation network on `.skdata` training
//! positions and writes it as a `.sknn` file (docs/evaluation.md,
//! "Training").

use crate::common::checks::in_range;
use crate::common::data::data_files;
use crate::common::error::CliError;
use crate::common::output::{check_output, write_output};
use crate::common::threads::check_threads;
use crate::progress::counter;
use clap::{Args, ValueEnum};
use serde_json::json;
use std::ops::Bound::{Excluded, Included};
use std::path::{Path, PathBuf};
use std::time::Instant;
use surakarta_search::network::data;
use surakarta_search::network::train::{
    train, Augment, EpochReport, FloatNetwork, TrainOptions, Trained, TrainingSet, MAX_BATCH,
    MAX_EPOCHS,
};
use surakarta_search::network::Network;

/// The arguments of `surakarta train`.
#[derive(Args, Debug)]
pub(crate) struct TrainArgs {
    /// Training data: `.skdata` files, or directories whose `*.skdata`
    /// files are all read.
    #[arg(long, value_name = "PATH", num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// The network file to write (written to a temporary file in the same
    /// directory, then renamed).
    #[arg(long, value_name = "FILE.sknn")]
    out: PathBuf,
    /// Passes over the training positions, 1 to 100000.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = in_range(1..=MAX_EPOCHS))]
    epochs: usize,
    /// Positions per gradient step, 1 to 16777216.
    #[arg(long, value_name = "N", default_value_t = 16_384, value_parser = in_range(1..=MAX_BATCH))]
    batch: usize,
    /// Adam's learning rate, above 0 and at most 1.
    #[arg(long, value_name = "X", default_value_t = 0.001,
          value_parser = in_range((Excluded(0.0f32), Included(1.0))))]
    lr: f32,
    /// The epoch after which the learning rate drops tenfold (default:
    /// after three quarters of the epochs), 0 to 100000.
    #[arg(long, value_name = "EPOCH", value_parser = in_range(0..=MAX_EPOCHS))]
    lr_drop: Option<usize>,
    /// Weight of the search score in the target; the rest is the game
    /// result, 0 to 1.
    #[arg(long, value_name = "X", default_value_t = 0.5, value_parser = in_range(0.0f32..=1.0))]
    lambda: f32,
    /// Evaluation units per logit, the K of sigmoid(score / K): a number,
    /// or `auto` to fit it on the data.
    #[arg(long, value_name = "K|auto", default_value = "auto", value_parser = parse_scale)]
    scale: Scale,
    /// Scores of at least this magnitude are decisive: trained on the
    /// result alone and left out of the scale fit; 1 to 32767.
    #[arg(long, value_name = "N", default_value_t = 10_000,
          value_parser = in_range(1..=i32::from(i16::MAX)))]
    max_score: i32,
    /// Which of the board's eight symmetries each position is trained with.
    #[arg(long, value_enum, default_value_t = Symmetries::Mirror)]
    symmetries: Symmetries,
    /// Worker threads, 1 to 1024 (default: one per core); the network does
    /// not depend on it.
    #[arg(long, short = 't', value_name = "N")]
    threads: Option<usize>,
    /// Seed of the initial weights, the order and the symmetries.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Share of the positions kept for validation (by a hash of the
    /// position, so the same positions in every run), at least 0 and below
    /// 1.
    #[arg(long, value_name = "X", default_value_t = 0.05, value_parser = in_range(0.0..1.0))]
    validation_share: f64,
    /// Share of the positions labelled exactly by the tables that are
    /// trained on (0 to 1; by a hash of the position, so the same ones in
    /// every run); the others are all kept.
    #[arg(long, value_name = "X", default_value_t = 1.0, value_parser = in_range(0.0..=1.0))]
    exact_share: f64,
    /// Start from this network instead of random weights.
    #[arg(long, value_name = "FILE.sknn")]
    from: Option<PathBuf>,
    /// The classic evaluation's share of the network's result (0 to 1,
    /// stored in 256ths): the file evaluates as this blend.
    #[arg(long, value_name = "X", default_value_t = 0.35, value_parser = in_range(0.0f32..=1.0))]
    classic_share: f32,
    /// Train without the counts (steps, captures, arcs): their weights
    /// stay 0 and the network sees the pieces' points alone.
    #[arg(long)]
    no_counts: bool,
    /// Give the network the threat inputs: for each piece, whether it can
    /// be captured and whether it can capture (a network file of
    /// architecture 3; each evaluation then generates both sides'
    /// captures). A network trained `--from` one with them keeps them.
    #[arg(long)]
    threats: bool,
    /// The name written into the network file (at most 255 bytes; default:
    /// a description of the run).
    #[arg(long, value_name = "TEXT")]
    name: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// `--scale`: a fixed K or fitted.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Scale {
    /// Fit on the data.
    Auto,
    /// This K.
    Fixed(i32),
}

fn parse_scale(text: &str) -> Result<Scale, String> {
    if text == "auto" {
        return Ok(Scale::Auto);
    }
    match text.parse::<i32>() {
        Ok(k) if (1..=100_000).contains(&k) => Ok(Scale::Fixed(k)),
        _ => Err("give `auto` or a whole number from 1 to 100000".into()),
    }
}

/// `--symmetries`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(crate) enum Symmetries {
    /// The positions as recorded.
    None,
    /// The position or its mirror image across the files, at random.
    Mirror,
    /// One random symmetry per position and epoch.
    Random,
    /// All eight each epoch.
    All,
}

/// Runs `surakarta train`.
pub(crate) fn run(args: TrainArgs) -> Result<(), CliError> {
    let started = Instant::now();
    let threads = check_threads(args.threads)?;
    if let Some(name) = &args.name {
        if name.len() > 255 {
            return Err(CliError(format!(
                "--name is {} bytes, at most 255",
                name.len()
            )));
        }
    }
    check_output("--out", &args.out)?;
    let options = TrainOptions {
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        lr_drop_epoch: args.lr_drop,
        lambda: args.lambda,
        scale: match args.scale {
            Scale::Auto => None,
            Scale::Fixed(k) => Some(k),
        },
        max_score: args.max_score,
        threads,
        seed: args.seed,
        augment: match args.symmetries {
            Symmetries::None => Augment::None,
            Symmetries::Mirror => Augment::Mirror,
            Symmetries::Random => Augment::Random,
            Symmetries::All => Augment::All,
        },
        counts: !args.no_counts,
        classic_share: args.classic_share,
        threats: args.threats,
        ..TrainOptions::default()
    };
    options.check()?;
    let start = match &args.from {
        Some(path) => Some(FloatNetwork::from_network(&Network::read(path)?)),
        None => None,
    };
    let files = data_files(&args.data)?;
    let mut set = TrainingSet::new(args.validation_share)?.keeping_exact(args.exact_share)?;
    let mut outdated = Vec::new();
    for file in &files {
        let read = data::read(file)?;
        if read.is_outdated() {
            outdated.push(file.as_path());
        }
        set.add(&read.records);
    }
    if let Some(line) = outdated_warning(&outdated) {
        eprintln!("{line}");
    }
    if set.training_len() == 0 {
        return Err(CliError(format!(
            "no training positions in {} ({} file{})",
            join_paths(&args.data),
            files.len(),
            if files.len() == 1 { "" } else { "s" }
        )));
    }
    let bar = counter(args.epochs as u64, "epochs", !args.json);
    let text = !args.json;
    let trained = train(&set, &options, start.as_ref(), &mut |r| {
        bar.inc(1);
        if text {
            bar.suspend(|| println!("{}", epoch_line(r)));
        }
    });
    bar.finish_and_clear();
    let trained = trained?;
    let name = args
        .name
        .clone()
        .unwrap_or_else(|| default_name(&trained, &options, args.exact_share));
    let net = trained.quantize(&name)?;
    let bytes = net.to_bytes();
    write_output(&args.out, &bytes)?;
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        println!(
            "{}",
            summary_json(&args.out, &net, &trained, seconds, set.exact_left_out())
        );
    } else {
        print_summary(&args.out, &net, &trained, seconds, set.exact_left_out());
    }
    Ok(())
}

/// The one warning line for the data files of version 1 (no checksums),
/// if any.
fn outdated_warning(files: &[&Path]) -> Option<String> {
    let first = files.first()?.display();
    let version = data::VERSION;
    Some(match files.len() {
        1 => format!(
            "warning: {first} is training data of version 1, without checksums: damage in it cannot be found (datagen writes version {version})"
        ),
        n => format!(
            "warning: {n} files ({first} and {} more) are training data of version 1, without checksums: damage in them cannot be found (datagen writes version {version})",
            n - 1
        ),
    })
}

fn join_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The line printed after each epoch.
fn epoch_line(r: &EpochReport) -> String {
    let validation = r
        .validation_loss
        .map_or("-".to_string(), |v| format!("{v:.5}"));
    format!(
        "epoch {:>3}/{}  loss {:.5}  validation {validation}  lr {}  {:.0} positions/s  {:.1} s",
        r.epoch,
        r.epochs,
        r.train_loss,
        r.lr,
        r.samples_per_second,
        r.elapsed.as_secs_f64()
    )
}

fn default_name(t: &Trained, o: &TrainOptions, exact_share: f64) -> String {
    format!(
        "{} epochs on {} positions, lambda {}, K {}, lr {}, batch {}, seed {}, classic share {}{}{}{}",
        o.epochs,
        t.training_positions,
        o.lambda,
        t.scale,
        o.lr,
        o.batch,
        o.seed,
        o.classic_share,
        if o.counts { "" } else { ", no counts" },
        if o.threats { ", threat inputs" } else { "" },
        if exact_share < 1.0 {
            format!(", exact share {exact_share}")
        } else {
            String::new()
        }
    )
}

fn final_losses(t: &Trained) -> (f64, Option<f64>) {
    t.epochs
        .last()
        .map_or((f64::NAN, None), |r| (r.train_loss, r.validation_loss))
}

fn mean_rate(t: &Trained) -> f64 {
    let n = t.epochs.len().max(1) as f64;
    t.epochs.iter().map(|r| r.samples_per_second).sum::<f64>() / n
}

fn print_summary(out: &Path, net: &Network, t: &Trained, seconds: f64, exact_left_out: u64) {
    let (train_loss, validation) = final_losses(t);
    println!(
        "wrote {} ({:08x}): {} epochs on {} training and {} validation positions{}",
        out.display(),
        net.checksum(),
        t.epochs.len(),
        t.training_positions,
        t.validation_positions,
        if exact_left_out > 0 {
            format!(" ({exact_left_out} exactly labelled ones left out)")
        } else {
            String::new()
        }
    );
    println!(
        "scale K {} ({})",
        t.scale,
        if t.scale_fitted { "fitted" } else { "given" }
    );
    println!(
        "final loss {train_loss:.5}, validation {}",
        validation.map_or("-".to_string(), |v| format!("{v:.5}"))
    );
    println!(
        "{seconds:.1} s in all, {:.0} positions/s while training",
        mean_rate(t)
    );
}

fn summary_json(
    out: &Path,
    net: &Network,
    t: &Trained,
    seconds: f64,
    exact_left_out: u64,
) -> serde_json::Value {
    let (train_loss, validation) = final_losses(t);
    json!({
        "out": out.display().to_string(),
        "name": net.name,
        "checksum": format!("{:08x}", net.checksum()),
        "scale": t.scale,
        "scale_fitted": t.scale_fitted,
        "training_positions": t.training_positions,
        "validation_positions": t.validation_positions,
        "exact_left_out": exact_left_out,
        "train_loss": train_loss,
        "validation_loss": validation,
        "seconds": seconds,
        "positions_per_second": mean_rate(t),
        "epochs": t.epochs.iter().map(|r| json!({
            "epoch": r.epoch,
            "train_loss": r.train_loss,
            "validation_loss": r.validation_loss,
            "lr": r.lr,
            "positions_per_second": r.samples_per_second,
            "seconds": r.elapsed.as_secs_f64(),
        })).collect::<Vec<_>>(),
    })
}
