//! `surakarta show`: draw a position or a point of a game record in the
//! terminal, optionally as an SVG picture, with a move highlighted.

use crate::common::checks::{in_range, GAME_NUMBER};
use crate::common::error::CliError;
use crate::common::game::{pick_game, read_records, replay};
use crate::common::output::{check_not_input, check_output, write_output};
use crate::render::{draw, printable};
use clap::Args;
use std::path::{Path, PathBuf};
use surakarta::capture_path::CapturePath;
use surakarta::{Move, Position};
use surakarta_board::{capture_path, svg_picture};

/// The arguments of `surakarta show`.
#[derive(Args, Debug)]
pub(crate) struct ShowArgs {
    /// A position in the notation of docs/notation.md (quoted, or its fields
    /// as separate words), or a game record file.
    #[arg(value_name = "FEN|RECORD", required = true, num_args = 1..)]
    input: Vec<String>,
    /// For a record: show the position after this many plies (default: the
    /// final position).
    #[arg(long, value_name = "N", value_parser = in_range(0..=surakarta::record::MAX_RECORD_MOVES))]
    ply: Option<usize>,
    /// For a record file with several games: show game K (1-based; default:
    /// the last).
    #[arg(long, value_name = "K", value_parser = in_range(GAME_NUMBER))]
    game: Option<usize>,
    /// Highlight this legal move of the shown position (`b2-c3`, `b2xe5` or
    /// `b2c3`) instead of the move that led to it.
    #[arg(long = "move", value_name = "MOVE")]
    mv: Option<String>,
    /// Also write the board as an SVG picture to FILE.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// No ANSI colours, even on a terminal.
    #[arg(long)]
    no_color: bool,
}

/// What to draw: a position, the move to highlight and the position that
/// move was played from.
struct View {
    /// Lines printed above the board (a record's tags, their control
    /// characters escaped).
    header: Vec<String>,
    position: Position,
    /// How the game has ended at the shown position, if it has.
    outcome: Option<surakarta::Outcome>,
    /// The highlighted move and how to name it ("last move", "move").
    highlight: Option<(Move, String)>,
    /// The position the highlighted move is played in.
    before: Option<Position>,
}

/// Reads the argument as a position.
fn view_of_position(text: &str, args: &ShowArgs) -> Result<View, CliError> {
    let position: Position = text.parse().map_err(|e| {
        CliError(format!(
            "{} is neither a record file nor a valid position: {e}",
            surakarta::Excerpt::new(text)
        ))
    })?;
    for (given, flag) in [
        (args.ply.is_some(), "--ply"),
        (args.game.is_some(), "--game"),
    ] {
        if given {
            return Err(CliError(format!(
                "{flag} needs a game record file, not a position"
            )));
        }
    }
    Ok(View {
        header: Vec::new(),
        position,
        outcome: position.outcome(),
        highlight: None,
        before: None,
    })
}

/// Reads the file as game records and picks the game and ply to show.
fn view_of_record(file: &Path, args: &ShowArgs) -> Result<View, CliError> {
    let records = read_records(file)?;
    let count = records.len();
    let index = pick_game(file, count, args.game)?;
    let record = &records[index];
    let plies = record.moves.len();
    let ply = args.ply.unwrap_or(plies);
    if ply > plies {
        let unit = if plies == 1 { "ply" } else { "plies" };
        return Err(CliError(format!(
            "--ply {ply} is beyond the end of the game ({plies} {unit})"
        )));
    }
    let game = replay(record, ply, file)?;

    let mut header = Vec::new();
    if count > 1 {
        header.push(format!("game {} of {count}", index + 1));
    }
    for (tag, value) in &record.tags {
        header.push(format!("{}: {}", printable(tag), printable(value)));
    }
    let positions = game.positions();
    let highlight = game
        .moves()
        .last()
        .map(|&m| (m, format!("last move (ply {ply} of {plies})")));
    Ok(View {
        header,
        position: *game.position(),
        outcome: game.outcome(),
        highlight,
        before: positions.len().checked_sub(2).map(|i| positions[i]),
    })
}

/// What the arguments ask to show: a record's game and ply or a position,
/// with `--move` highlighted if given.
fn view(args: &ShowArgs) -> Result<View, CliError> {
    let text = args.input.join(" ");
    let file = Path::new(&text);
    let mut view = if args.input.len() == 1 && file.is_file() {
        view_of_record(file, args)?
    } else {
        view_of_position(&text, args)?
    };
    if let Some(mv) = &args.mv {
        let m = view
            .position
            .parse_move(mv)
            .map_err(|e| CliError(format!("--move: {e}")))?;
        // Drawn in the shown position, not played.
        view.before = Some(view.position);
        view.highlight = Some((m, "highlighted move".into()));
    }
    Ok(view)
}

/// Runs `surakarta show`: writes the SVG picture if asked, then prints the
/// board.
pub(crate) fn run(args: ShowArgs) -> Result<(), CliError> {
    if let Some(file) = &args.svg {
        check_output("--svg", file)?;
        if let [input] = &args.input[..] {
            check_not_input("--svg", file, Path::new(input))?;
        }
    }
    let view = view(&args)?;
    let path = capture_path(
        view.highlight.as_ref().map(|(m, _)| *m),
        view.before.as_ref(),
    );
    let out = text(&view, path.as_ref(), draw::use_color(args.no_color));
    if let Some(file) = &args.svg {
        let highlight = view
            .highlight
            .as_ref()
            .map(|(m, label)| (*m, label.as_str()));
        let picture = svg_picture(&view.position, highlight, path.as_ref());
        write_output(file, picture.as_bytes())?;
    }
    print!("{out}");
    Ok(())
}

/// The terminal text: the header, the board, the highlighted move and its
/// path, how the game ended and the position in notation.
fn text(view: &View, path: Option<&CapturePath>, color: bool) -> String {
    let mut out = String::new();
    for line in &view.header {
        out.push_str(line);
        out.push('\n');
    }
    let highlight = view.highlight.as_ref().map(|(m, _)| *m);
    out.push_str(&draw::board(&view.position, highlight, color));
    if let Some((m, label)) = &view.highlight {
        out.push_str(&format!("{label}: {m}, from ( ) to [ ]\n"));
    }
    if let Some(path) = path {
        let arcs = path.arcs();
        let plural = if arcs == 1 { "" } else { "s" };
        out.push_str(&format!("path: {} ({arcs} arc{plural})\n", path.text()));
    }
    if let Some(outcome) = view.outcome {
        out.push_str(&format!("game over: {outcome}\n"));
    }
    out.push_str(&format!("position: {}\n", view.position));
    out
}
