//! `surakarta play`: a person against the engine in the terminal. Commands
//! are read line by line from stdin, so a game can also be scripted by
//! piping them in; the board (`render::draw`) is drawn after every move.
//! A game saved as a record (`save`, `--save`) goes on with `--record`.

use crate::common::checks::{check_depth, in_range, GAME_NUMBER, MOVETIME_MS};
use crate::common::engine_args::EngineArgs;
use crate::common::error::CliError;
use crate::common::game::{parse_position, pick_game, read_records, replay};
use crate::common::info::tb_warning;
use crate::common::output::{check_output, write_output};
use crate::render::draw;
use clap::Args;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use surakarta::capture_path::capture_paths;
use surakarta::{Color, Game, GameRecord, GameResult, Move, MoveError, Outcome, Position, Rules};
use surakarta_match::lines::LineReader;
use surakarta_search::{Clock, Engine, Info, Limits};

/// The arguments of `surakarta play`.
#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    /// The side you play.
    #[arg(long, value_name = "COLOR", default_value = "black", value_parser = ["black", "white"])]
    color: String,
    /// The start position (notation as in docs/notation.md); default: the start.
    #[arg(long, short = 'p', value_name = "FEN", conflicts_with = "record")]
    position: Option<String>,
    /// Resume the game of this record file (docs/notation.md, as `save`
    /// writes it): from its last position, with its moves (undo and
    /// repetitions count them) and under its rule set.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// With --record: resume game K of the file (1-based; default: the last).
    #[arg(long, value_name = "K", requires = "record", value_parser = in_range(GAME_NUMBER))]
    game: Option<usize>,
    /// Rule set: icga, pku, pure, or a list like repetitions=3,no-capture=50
    /// (a record names its own).
    #[arg(
        long,
        value_name = "RULES",
        default_value = "icga",
        conflicts_with = "record"
    )]
    rules: String,
    /// The engine searches to this depth in plies, 1 to 64.
    #[arg(long, short = 'd', value_name = "PLIES", group = "limit")]
    depth: Option<u32>,
    /// The engine thinks this many milliseconds a move (the default is 1000
    /// unless --depth or --clock is given), 1 to 86400000.
    #[arg(long, value_name = "MS", group = "limit", value_parser = in_range(MOVETIME_MS))]
    movetime: Option<u64>,
    /// Give both sides a clock with this many minutes; running out loses.
    #[arg(long, value_name = "MINUTES")]
    clock: Option<f64>,
    /// Seconds added to a side's clock after each of its moves (with --clock).
    #[arg(long, value_name = "SECONDS")]
    increment: Option<f64>,
    /// Let the engine probe the endgame tables in this directory.
    #[arg(long, value_name = "DIR")]
    tb: Option<PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
    /// Save the game as a record to FILE when it ends (or is left).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// No ANSI colours, even on a terminal.
    #[arg(long)]
    no_color: bool,
}

/// How a game of `play` ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    /// The rule set ended it.
    Rules(Outcome),
    /// This side's clock ran out.
    Time(Color),
    /// This side resigned.
    Resigned(Color),
    /// The person quit, or the input ended.
    Abandoned,
}

/// Both sides' clocks.
#[derive(Debug, Clone, Copy)]
struct Clocks {
    /// Time left, by `Color::index`.
    left: [Duration; 2],
    increment: Duration,
}

impl Clocks {
    /// Charges `color` for `spent`: `false` if that was more than it had
    /// (the flag fell; the clock shows zero), else adds the increment.
    fn charge(&mut self, color: Color, spent: Duration) -> bool {
        let left = &mut self.left[color.index()];
        if spent >= *left {
            *left = Duration::ZERO;
            return false;
        }
        *left = *left - spent + self.increment;
        true
    }

    /// `clock: black 4:59.8, white 5:00.0`.
    fn line(&self) -> String {
        format!(
            "clock: black {}, white {}",
            clock_text(self.left[0]),
            clock_text(self.left[1])
        )
    }
}

/// A duration as `m:ss.s`.
fn clock_text(d: Duration) -> String {
    let tenths = d.as_millis() / 100;
    format!("{}:{:02}.{}", tenths / 600, tenths / 10 % 60, tenths % 10)
}

/// The lines the person types, from stdin.
struct Input {
    lines: LineReader<std::io::StdinLock<'static>>,
    /// Whether stdin is a terminal (which echoes what is typed); if not, the
    /// lines read are echoed after the prompt so the transcript reads right.
    terminal: bool,
}

impl Input {
    /// The next line without its line break and surrounding blanks; `None`
    /// at the end of input. A line too long or not UTF-8 is reported on
    /// stderr and read as an empty line (the prompt comes again).
    fn line(&mut self) -> Option<String> {
        match self.lines.next_line() {
            Ok(None) | Err(_) => {
                // Ends the prompt's line.
                println!();
                None
            }
            Ok(Some(line)) => {
                let line = match line.text() {
                    Ok(text) => text.trim().to_string(),
                    Err(dropped) => {
                        println!();
                        eprintln!("error: {dropped}");
                        return Some(String::new());
                    }
                };
                if !self.terminal {
                    println!("{line}");
                }
                Some(line)
            }
        }
    }
}

struct Session {
    game: Game,
    human: Color,
    engine: Engine,
    /// The engine's limits other than the clock.
    limits: Limits,
    clocks: Option<Clocks>,
    /// `MINUTES+SECONDS` as given, for the record's TimeControl tag.
    time_control: Option<String>,
    engine_name: String,
    color: bool,
    input: Input,
}

/// How long `hint` searches when the engine's moves are limited by the clock
/// alone.
const HINT_MOVETIME: Duration = Duration::from_millis(1000);

const HELP: &str = "\
commands:
  b2-c3, b2xe5, b2c3   play a move (a step, a capture, or either)
  moves                list the legal moves, captures first
  hint                 the engine's suggestion for your move, from a search
                       with its --depth or --movetime (1000 ms when only
                       --clock limits it), then the legal moves
  history              list the moves played so far
  undo                 take back your last move and the engine's reply
  board                draw the board again
  save FILE            save the game so far as a record
  resign               give up the game
  help                 this list
  quit                 leave the game (so does the end of input)
The clocks (with --clock) run from the prompt to your move, commands
included, and are not turned back by undo.";

/// The game to play, checked: everything but the engine.
struct Settings {
    /// The game so far: the start, or a record's moves.
    game: Game,
    human: Color,
    /// The engine's limits other than the clock.
    limits: Limits,
    clocks: Option<Clocks>,
    /// `MINUTES+SECONDS` as given, for the record's TimeControl tag.
    time_control: Option<String>,
    engine_name: String,
}

/// The game of the record file `file` (game `k`, or the last), replayed,
/// to be continued: an error if it is over.
fn resume(file: &Path, k: Option<usize>) -> Result<Game, CliError> {
    let records = read_records(file)?;
    let record = &records[pick_game(file, records.len(), k)?];
    let game = replay(record, record.moves.len(), file)?;
    let name = file.display();
    if let Some(outcome) = game.outcome() {
        return Err(CliError(format!("{name}: the game is over: {outcome}")));
    }
    if record.result != GameResult::Unfinished {
        let how = record
            .tag("Termination")
            .map(|t| format!(" ({t})"))
            .unwrap_or_default();
        return Err(CliError(format!(
            "{name}: the game is over: {}{how}",
            record.result.as_str()
        )));
    }
    Ok(game)
}

/// Checks the record to resume, that the record file can be written, the
/// rules, the position, the engine's limits and the clocks.
fn check(args: &PlayArgs) -> Result<Settings, CliError> {
    // --save may name the same file: it is written whole when saved.
    let resumed = match &args.record {
        Some(file) => Some(resume(file, args.game)?),
        None => None,
    };
    if let Some(file) = &args.save {
        // Find out now, not after the game, that the record cannot be written.
        check_output("--save", file)?;
    }
    let game = match resumed {
        Some(game) => game,
        None => {
            let rules: Rules = args.rules.parse()?;
            let start = match &args.position {
                None => Position::new(),
                Some(text) => parse_position(text)?,
            };
            Game::new(start, rules)
        }
    };
    let human = if args.color == "white" {
        Color::White
    } else {
        Color::Black
    };
    if let Some(depth) = args.depth {
        check_depth("--depth", depth.into()).map_err(CliError)?;
    }
    let clocks = match (args.clock, args.increment) {
        (None, Some(_)) => return Err(CliError("--increment needs --clock".into())),
        (None, None) => None,
        (Some(minutes), increment) => {
            let increment = increment.unwrap_or(0.0);
            if !(minutes > 0.0 && minutes <= 10_000.0) {
                return Err(CliError(format!(
                    "--clock {minutes} is out of range: give more than 0 and at most 10000 minutes"
                )));
            }
            if !(0.0..=3_600.0).contains(&increment) {
                return Err(CliError(format!(
                    "--increment {increment} is out of range: give 0 to 3600 seconds"
                )));
            }
            let time = Duration::from_secs_f64(minutes * 60.0);
            Some(Clocks {
                left: [time; 2],
                increment: Duration::from_secs_f64(increment),
            })
        }
    };
    // Seconds from whole milliseconds: 0.13 minutes is "7.8", not
    // "7.800000000000001".
    let seconds = |d: Duration| (d.as_millis() as f64 / 1000.0).to_string();
    let time_control = clocks
        .as_ref()
        .map(|c| format!("{}+{}", seconds(c.left[0]), seconds(c.increment)));
    let mut limits = Limits {
        depth: args.depth,
        movetime: args.movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    if limits.depth.is_none() && limits.movetime.is_none() && clocks.is_none() {
        limits.movetime = Some(Duration::from_millis(1000));
    }
    let mut parts = vec!["surakarta".to_string()];
    if let Some(d) = limits.depth {
        parts.push(format!("depth={d}"));
    }
    if let Some(t) = limits.movetime {
        parts.push(format!("movetime={}", t.as_millis()));
    }
    if let Some(tc) = &time_control {
        parts.push(format!("clock={tc}"));
    }
    Ok(Settings {
        game,
        human,
        limits,
        clocks,
        time_control,
        engine_name: parts.join(" "),
    })
}

/// Runs `surakarta play`: the game, then its end, then the record.
pub(crate) fn run(args: PlayArgs) -> Result<(), CliError> {
    let settings = check(&args)?;
    let engine = args.engine.engine(args.tb.as_deref())?;
    let mut session = Session::new(settings, engine, draw::use_color(args.no_color));
    session.intro(&args);
    let end = session.play();
    session.announce(end);
    if let Some(file) = &args.save {
        session.save(file, end)?;
    }
    Ok(())
}

/// Prints and flushes, so prompts appear before the input is read.
fn flush() {
    // A closed stdout leaves nobody to tell.
    let _ = std::io::stdout().flush();
}

impl Session {
    fn new(settings: Settings, engine: Engine, color: bool) -> Session {
        let stdin = std::io::stdin();
        let terminal = stdin.is_terminal();
        let lines = LineReader::new(stdin.lock());
        Session {
            game: settings.game,
            human: settings.human,
            engine,
            limits: settings.limits,
            clocks: settings.clocks,
            time_control: settings.time_control,
            engine_name: settings.engine_name,
            color,
            input: Input { lines, terminal },
        }
    }

    fn intro(&self, args: &PlayArgs) {
        println!(
            "You play {} against {} ({}); rules {}.",
            self.human,
            self.engine_name,
            !self.human,
            self.game.rules()
        );
        println!("Type a move like b2-b3, b2xe5 or b2c3, or help for the commands.");
        if let Some(file) = &args.record {
            let plies = self.game.moves().len();
            let unit = if plies == 1 { "ply" } else { "plies" };
            println!(
                "Resuming the game of {} after {plies} {unit} (history lists them).",
                file.display()
            );
        }
        if let Some(file) = &args.save {
            println!("The game will be saved to {}.", file.display());
        }
        self.draw();
    }

    /// The name of the side playing `color`.
    fn name(&self, color: Color) -> &str {
        if color == self.human {
            "human"
        } else {
            &self.engine_name
        }
    }

    /// Draws the board with the last move marked, and the clocks.
    fn draw(&self) {
        let last = self.game.moves().last().copied();
        print!("{}", draw::board(self.game.position(), last, self.color));
        if let Some(clocks) = &self.clocks {
            println!("{}", clocks.line());
        }
        flush();
    }

    /// Plays until the game ends, is resigned or left.
    fn play(&mut self) -> End {
        loop {
            if let Some(outcome) = self.game.outcome() {
                return End::Rules(outcome);
            }
            let end = if self.game.position().turn() == self.human {
                self.human_turn()
            } else {
                self.engine_turn()
            };
            if let Some(end) = end {
                return end;
            }
        }
    }

    /// Reads commands until the person plays a move (`None`) or the game
    /// ends.
    fn human_turn(&mut self) -> Option<End> {
        let started = Instant::now();
        loop {
            print!(
                "{}, move {}> ",
                self.human,
                self.game.position().fullmoves()
            );
            flush();
            let Some(line) = self.input.line() else {
                return Some(End::Abandoned);
            };
            let line = line.as_str();
            let mut words = line.split_whitespace();
            let Some(command) = words.next() else {
                continue;
            };
            match command {
                "help" | "?" => println!("{HELP}"),
                "moves" => self.list_moves(),
                "hint" => self.hint(),
                "history" => self.history(),
                "board" => self.draw(),
                "undo" => self.undo(),
                "save" => match (words.next(), words.next()) {
                    (Some(file), None) => {
                        if let Err(CliError(message)) = self.save(Path::new(file), End::Abandoned) {
                            println!("error: {message}");
                        }
                    }
                    _ => println!("error: usage: save FILE"),
                },
                "resign" => return Some(End::Resigned(self.human)),
                "quit" | "exit" => return Some(End::Abandoned),
                _ => match self.game.position().parse_move(line) {
                    Err(e @ MoveError::Syntax { .. }) => {
                        println!("error: {e} (or a command: type help)");
                    }
                    Err(e) => println!("error: {e}"),
                    Ok(m) => {
                        if let Some(clocks) = &mut self.clocks {
                            if !clocks.charge(self.human, started.elapsed()) {
                                return Some(End::Time(self.human));
                            }
                        }
                        self.make_move(m, "you play");
                        return None;
                    }
                },
            }
        }
    }

    /// Lets the engine think and play (`None`), or lose on time.
    fn engine_turn(&mut self) -> Option<End> {
        let side = !self.human;
        println!("{} is thinking ...", self.engine_name);
        flush();
        let mut limits = self.limits;
        if let Some(clocks) = &self.clocks {
            limits.clock = Some(Clock {
                time: clocks.left[side.index()],
                increment: clocks.increment,
                moves_to_go: None,
            });
        }
        let started = Instant::now();
        let stop = AtomicBool::new(false);
        let result = self.engine.search(&self.game, &limits, &stop, &mut |info| {
            println!("  {}", info_text(info));
            flush();
        });
        if let Some(warning) = tb_warning(&result) {
            println!("warning: {warning}");
        }
        if let Some(clocks) = &mut self.clocks {
            if !clocks.charge(side, started.elapsed()) {
                return Some(End::Time(side));
            }
        }
        // The game is not over, so the engine has a move; a legal move
        // stands in if it found none.
        let m = result
            .best_move
            .or_else(|| self.game.legal_moves().first().copied())?;
        self.make_move(m, &format!("{} plays", self.engine_name));
        None
    }

    /// Plays the legal move `m`, says so, and draws the board.
    fn make_move(&mut self, m: Move, who: &str) {
        let before = *self.game.position();
        if let Err(e) = self.game.play(m) {
            // Unreachable: `m` was checked legal and the game is not over.
            println!("error: {e}");
            return;
        }
        println!("{who} {m}");
        if m.is_capture() {
            if let Some(path) = capture_paths(&before, m.from(), m.to()).first() {
                println!("path: {}", path.text());
            }
        }
        self.draw();
    }

    /// Lists the legal moves, captures first.
    fn list_moves(&self) {
        let moves = self.game.legal_moves();
        let (captures, steps): (Vec<Move>, Vec<Move>) = moves.iter().partition(|m| m.is_capture());
        let join = |list: &[Move]| match list {
            [] => "none".to_string(),
            _ => list
                .iter()
                .map(Move::to_string)
                .collect::<Vec<_>>()
                .join(" "),
        };
        println!("{} legal moves", moves.len());
        println!("  captures: {}", join(&captures));
        println!("  steps: {}", join(&steps));
    }

    /// The engine's suggestion for the person's move: a search with the
    /// engine's limits without the clock ([`HINT_MOVETIME`] if the clock was
    /// the only one), then the legal moves.
    fn hint(&mut self) {
        let mut limits = self.limits;
        limits.clock = None;
        if limits.depth.is_none() && limits.movetime.is_none() {
            limits.movetime = Some(HINT_MOVETIME);
        }
        // Said before the search, so the wait has a reason.
        print!("hint: ");
        flush();
        let stop = AtomicBool::new(false);
        let result = self.engine.search(&self.game, &limits, &stop, &mut |_| {});
        let info = &result.info;
        match result.best_move {
            Some(m) => println!("{m} (score {}, depth {})", info.score, info.depth),
            // Unreachable: it is the person's turn, so the game goes on.
            None => println!("none"),
        }
        if let Some(warning) = tb_warning(&result) {
            println!("warning: {warning}");
        }
        self.list_moves();
    }

    /// Lists the moves played so far, numbered as in a record.
    fn history(&self) {
        let start = self.game.start();
        let moves = self.game.moves();
        let plies = moves.len();
        let unit = if plies == 1 { "ply" } else { "plies" };
        if *start == Position::new() {
            println!("{plies} {unit} from the start");
        } else {
            println!("{plies} {unit} from {start}");
        }
        for line in numbered(start, moves) {
            println!("  {line}");
        }
    }

    /// Takes back moves up to and including the person's last one, so that
    /// it is their turn again.
    fn undo(&mut self) {
        let start_turn = self.game.start().turn();
        let mover = |ply: usize| {
            if ply.is_multiple_of(2) {
                start_turn
            } else {
                !start_turn
            }
        };
        let plies = self.game.moves().len();
        if !(0..plies).any(|ply| mover(ply) == self.human) {
            println!("error: nothing to undo: you have not moved yet");
            return;
        }
        let mut taken = Vec::new();
        while let Some(m) = self.game.undo() {
            taken.push(m.to_string());
            if mover(self.game.moves().len()) == self.human {
                break;
            }
        }
        taken.reverse();
        println!("took back {}", taken.join(" "));
        self.draw();
    }

    fn announce(&self, end: End) {
        match end {
            End::Rules(outcome) => println!("game over: {outcome}"),
            End::Time(loser) => {
                if let Some(clocks) = &self.clocks {
                    println!("{}", clocks.line());
                }
                println!("game over: {} wins ({loser} ran out of time)", !loser);
            }
            End::Resigned(loser) => println!("game over: {} wins ({loser} resigned)", !loser),
            End::Abandoned => {
                let plies = self.game.moves().len();
                let unit = if plies == 1 { "ply" } else { "plies" };
                println!("game left unfinished after {plies} {unit}");
            }
        }
    }

    /// The game as a record: who played, the time control, the result and
    /// how the game ended.
    fn record(&self, end: End) -> GameRecord {
        let mut leading = vec![
            ("Event", "surakarta play"),
            ("Black", self.name(Color::Black)),
            ("White", self.name(Color::White)),
        ];
        if let Some(tc) = &self.time_control {
            leading.push(("TimeControl", tc));
        }
        let mut record = GameRecord::from_game_tagged(&self.game, &leading);
        let (loser, termination) = match end {
            End::Time(loser) => (loser, "time forfeit"),
            End::Resigned(loser) => (loser, "resignation"),
            End::Rules(_) | End::Abandoned => return record,
        };
        record.set_result(GameResult::from_winner(Some(!loser)), termination);
        record
    }

    /// Writes the record of the game so far to `file`.
    fn save(&self, file: &Path, end: End) -> Result<(), CliError> {
        check_output("save", file)?;
        let text = self
            .record(end)
            .to_text()
            .map_err(|e| CliError(format!("cannot write {}: {e}", file.display())))?;
        write_output(file, text.as_bytes())?;
        println!("saved the game to {}", file.display());
        Ok(())
    }
}

/// `moves` played from `start`, one line per move number as in a record:
/// `1. b2-b3 e5-e4`, or `1... e5-e4` when White moves first.
fn numbered(start: &Position, moves: &[Move]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut number = start.fullmoves();
    let mut turn = start.turn();
    for (i, m) in moves.iter().enumerate() {
        match turn {
            Color::Black => lines.push(format!("{number}. {m}")),
            Color::White if i == 0 => lines.push(format!("{number}... {m}")),
            Color::White => {
                if let Some(line) = lines.last_mut() {
                    line.push_str(&format!(" {m}"));
                }
            }
        }
        if turn == Color::White {
            number = number.saturating_add(1);
        }
        turn = !turn;
    }
    lines
}

/// Moves of the principal variation shown while the engine thinks (more
/// would wrap the line).
const SHOWN_PV: usize = 6;

/// One finished iteration of the engine, for the person watching.
fn info_text(info: &Info) -> String {
    let mut pv: Vec<String> = info.pv.iter().take(SHOWN_PV).map(Move::to_string).collect();
    if info.pv.len() > SHOWN_PV {
        pv.push("...".into());
    }
    format!(
        "depth {} score {} nodes {} time {} ms pv {}",
        info.depth,
        info.score,
        info.nodes,
        info.elapsed.as_millis(),
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_charge_and_fall() {
        let mut clocks = Clocks {
            left: [Duration::from_secs(10); 2],
            increment: Duration::from_secs(2),
        };
        assert!(clocks.charge(Color::Black, Duration::from_secs(3)));
        assert_eq!(clocks.left[0], Duration::from_secs(9));
        assert_eq!(clocks.line(), "clock: black 0:09.0, white 0:10.0");
        assert!(!clocks.charge(Color::White, Duration::from_secs(10)));
        assert_eq!(clocks.left[1], Duration::ZERO);
        assert_eq!(clock_text(Duration::from_millis(125_490)), "2:05.4");
    }

    #[test]
    fn history_is_numbered_as_in_a_record() {
        let mut game = Game::default();
        for m in ["b2-b3", "e5-e4", "b3-b4"] {
            game.play_text(m).unwrap();
        }
        assert_eq!(
            numbered(game.start(), game.moves()),
            ["1. b2-b3 e5-e4", "2. b3-b4"]
        );
        let start: Position = "6/2w3/6/6/1b4/4b1 w 0 7".parse().unwrap();
        let mut game = Game::new(start, Rules::PURE);
        for m in ["c5-c4", "b2-b3", "c4-c3"] {
            game.play_text(m).unwrap();
        }
        assert_eq!(
            numbered(game.start(), game.moves()),
            ["7... c5-c4", "8. b2-b3 c4-c3"]
        );
    }
}
