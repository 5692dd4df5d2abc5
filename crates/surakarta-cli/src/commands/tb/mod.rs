//! `surakarta tb`: generate, probe, verify and describe endgame tablebases.
//! One submodule per `tb` subcommand, and `shared` for the little several
//! of them use; this module only dispatches.

mod compress;
mod generate;
mod plan;
mod probe;
mod shared;
mod stats;
mod verify;

use crate::common::error::CliError;
use clap::{Args, Subcommand};
use std::process::ExitCode;

/// The arguments of `surakarta tb`: one of its subcommands.
#[derive(Args, Debug)]
pub(crate) struct TbArgs {
    #[command(subcommand)]
    command: TbCommand,
}

/// The `tb` subcommands.
#[derive(Subcommand, Debug)]
enum TbCommand {
    /// Generate every class with up to N pieces into DIR (resumes: tables
    /// already there are kept), or one pair whose dependencies are there.
    Generate(generate::GenerateArgs),
    /// Value, best move and conversion line of positions (arguments, or one
    /// per line on stdin).
    Probe(probe::ProbeArgs),
    /// Re-derive every entry from its successors and check every checksum;
    /// exit code 1 on any error.
    Verify(verify::VerifyArgs),
    /// Per class: positions, wins/draws/losses, DTC histogram, longest win,
    /// file format and size.
    Stats(stats::StatsArgs),
    /// Convert the format 1 tables of DIR to the compact format 2 in place
    /// (each checked value by value before it replaces the old file), and
    /// give compact tables written without a draw map one.
    Compress(compress::CompressArgs),
    /// The pairs up to N pieces in dependency order with estimated
    /// positions, memory, disk and time, as JSON or as a Snakefile, a Slurm
    /// script or a Makefile running `tb generate --pair` for each.
    Plan(plan::PlanArgs),
}

/// Runs `surakarta tb`: exit code 1 if `tb verify` found errors, 2 if
/// `tb probe` could not answer a position.
pub(crate) fn run(args: TbArgs) -> Result<ExitCode, CliError> {
    match args.command {
        TbCommand::Generate(a) => generate::run(a),
        TbCommand::Probe(a) => probe::run(a),
        TbCommand::Verify(a) => verify::run(a),
        TbCommand::Stats(a) => stats::run(a),
        TbCommand::Compress(a) => compress::run(a),
        TbCommand::Plan(a) => plan::run(a),
    }
}
