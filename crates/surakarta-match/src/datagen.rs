//! Training data by self-play: the engine plays itself from varied
//! openings with a fixed node budget per move, and every position it meets
//! after the opening is written with the search's score and the game's
//! result, in the `.skdata` format of
//! [`surakarta_search::network::data`].
//!
//! The games of a run are cut into chunks of
//! [`DatagenConfig::games_per_chunk`] games, chunk `k` holding games
//! `k·G .. (k+1)·G` in the file `chunk-NNNNNN.skdata` (six digits, `k`).
//! Each game is a pure function of the configuration and its index (its
//! opening comes from the seed and the index, the engine forgets
//! everything before each game and searches on one thread), so a chunk's
//! bytes depend neither on the thread count nor on which worker made it.
//!
//! A run may make only a range of the chunks ([`run_chunks`]): separate
//! processes — the tasks of a Slurm array job, several machines sharing a
//! file system — each make a disjoint range into the same directory, and
//! together they make the bytes one run would have made. The manifest is
//! created once, whoever comes first (the others check it); ranges must not
//! overlap while they run.
//!
//! A run into a directory first writes the manifest [`MANIFEST_NAME`] (the
//! settings that decide the bytes), then the chunks that are missing, each
//! written to a temporary file that is synced and renamed into place. A
//! second run with the same settings checks the chunks present (the
//! checksums of the format and every record) and skips them; a chunk that
//! does not read back is an error naming it ([`DatagenError::Chunk`]:
//! chunks are written whole, so it was damaged since, and is made again
//! only once removed). A run with other settings is refused, naming the
//! first setting that differs.
//!
//! # What is written
//!
//! - Openings ([`OpeningMix`]): the start position after 8 to 12 random
//!   plies, or a random board of 16 to 20 pieces (sides differing by at
//!   most [`RANDOM_MAX_DIFFERENCE`]); the opening plies are not written.
//! - Filters (each position counted once, in this order): a single legal
//!   move (played without a search), a decisive score (a game end or a
//!   tablebase win or loss within the search), a capture as the best move.
//!   Positions where the side to move could capture are counted either
//!   way ([`DatagenStats::capture_available`]).
//! - Labels: the game's result for the position's side to move, `exact`
//!   false; except that a game reaching a position whose tables' value is
//!   the game's ([`surakarta_tablebase::Tablebase::probe_game`]: the
//!   no-capture counter, the rule set and the game's repetitions leave it
//!   room; a draw only under the pure rules) ends there, that position
//!   written with the tables' value and `exact` true. Elsewhere the game
//!   goes on.
//!   With [`DatagenConfig::table_plies`], the tables then play on for that
//!   many plies (each side keeping its value: a winner's fastest wins, a
//!   draw's drawing moves, a loser's any move, chosen at random from the
//!   seed and the game's index), and every position met is written with
//!   its exact value too: exact labels at almost no cost, no search.
//! - A game ends by the rules, by the tables, by the search reporting a
//!   decisive score for the same winner [`DatagenConfig::adjudicate_plies`]
//!   times in a row (that winner's result), or at
//!   [`DatagenConfig::max_plies`] plies after the opening (adjudicated by
//!   piece count as the rules adjudicate: more pieces wins, equal draws).
//!
//! # Examples
//!
//! ```
//! use surakarta_match::datagen::{run, DatagenConfig, Quiet};
//! use surakarta_search::network::data;
//!
//! let dir = std::env::temp_dir().join(format!("datagen-doc-{}", std::process::id()));
//! let _ = std::fs::remove_dir_all(&dir);
//! let config = DatagenConfig { games: 2, nodes: 100, max_plies: 20, ..DatagenConfig::default() };
//! let stats = run(&config, &dir, &Quiet)?;
//! assert_eq!((stats.games, stats.chunks_written), (2, 1));
//! let chunk = data::read(&dir.join("chunk-000000.skdata"))?;
//! assert_eq!(chunk.records.len() as u64, stats.written);
//! // The same settings again: nothing to do.
//! assert_eq!(run(&config, &dir, &Quiet)?.chunks_present, 1);
//! # std::fs::remove_dir_all(&dir).ok();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use surakarta::random::{random_playout, SplitMix};
use surakarta::{Color, Game, Position, Rules, Termination};
use surakarta_search::network::data::{self, DataError, TrainingPosition};
use surakarta_search::{Engine, Evaluation, Limits, Options, ScoreKind, SearchParameters};
use surakarta_tablebase::{is_not_a_regular_file, Tablebase, TablebaseError, Value, Wdl};

/// The manifest's file name in the output directory.
pub const MANIFEST_NAME: &str = "datagen.txt";
/// The fewest random plies from the start position.
pub const START_PLIES_MIN: usize = 8;
/// The most random plies from the start position.
pub const START_PLIES_MAX: usize = 12;
/// The fewest pieces on a random board.
pub const RANDOM_PIECES_MIN: u32 = 16;
/// The most pieces on a random board.
pub const RANDOM_PIECES_MAX: u32 = 20;
/// The largest difference between the sides' piece counts on a random
/// board.
pub const RANDOM_MAX_DIFFERENCE: u32 = 4;
/// Most plies played on by the tables ([`DatagenConfig::table_plies`]).
pub const MAX_TABLE_PLIES: u32 = 1000;
/// Most games one run makes.
pub const MAX_GAMES: u64 = 1 << 40;
/// The manifest's first line.
const MANIFEST_HEADER: &str = "# surakarta datagen manifest, version 1";
/// Longest manifest read.
const MAX_MANIFEST_LEN: u64 = 64 << 10;

/// Where games start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OpeningMix {
    /// Even games from the start position after random plies, odd games
    /// from random boards.
    #[default]
    Varied,
    /// Every game from the start position after 8 to 12 random plies.
    Start,
    /// Every game from a random board of 16 to 20 pieces.
    Random,
}

impl OpeningMix {
    /// `varied`, `start` or `random`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            OpeningMix::Varied => "varied",
            OpeningMix::Start => "start",
            OpeningMix::Random => "random",
        }
    }
}

impl fmt::Display for OpeningMix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for OpeningMix {
    type Err = String;

    /// Reads `varied`, `start` or `random`.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_match::datagen::OpeningMix;
    ///
    /// assert_eq!("start".parse(), Ok(OpeningMix::Start));
    /// assert!("book".parse::<OpeningMix>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<OpeningMix, String> {
        match s {
            "varied" => Ok(OpeningMix::Varied),
            "start" => Ok(OpeningMix::Start),
            "random" => Ok(OpeningMix::Random),
            _ => Err("expected varied, start or random".into()),
        }
    }
}

/// Endgame tables that end games: a game ends at the first position with
/// at most `pieces` pieces, with the tables' value.
#[derive(Clone)]
pub struct DatagenTables {
    /// The tables (also given to the engine).
    pub tables: Arc<Tablebase>,
    /// The piece count they cover: every class of 2 to `pieces` pieces must
    /// be present ([`Tablebase::complete_pieces`]).
    pub pieces: u32,
}

impl fmt::Debug for DatagenTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DatagenTables")
            .field("pieces", &self.pieces)
            .finish_non_exhaustive()
    }
}

/// The settings of a run.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Games to play, 1 to [`MAX_GAMES`].
    pub games: u64,
    /// The seed of the openings.
    pub seed: u64,
    /// Nodes searched per move (at least 1).
    pub nodes: u64,
    /// Where games start.
    pub openings: OpeningMix,
    /// Plies played after the opening before a game is stopped and
    /// adjudicated by piece count (at least 1).
    pub max_plies: u32,
    /// The rules that end games.
    pub rules: Rules,
    /// The engine's options; the thread count is taken as 1 (each worker
    /// plays one game at a time, deterministically).
    pub options: Options,
    /// Tables that end games, if any.
    pub tables: Option<DatagenTables>,
    /// Games per chunk file (at least 1).
    pub games_per_chunk: u64,
    /// A game ends when the search reports a decisive score for the same
    /// winner this many moves in a row (0: never).
    pub adjudicate_plies: u32,
    /// Plies played on by the tables after a game reaches them (0: none,
    /// at most [`MAX_TABLE_PLIES`]): each position met is written with its
    /// exact value. Needs [`DatagenConfig::tables`].
    pub table_plies: u32,
    /// Worker threads, each playing one game at a time (at least 1).
    pub threads: usize,
}

impl Default for DatagenConfig {
    /// 100 games, seed 1, 5,000 nodes, varied openings, 400 plies, ICGA
    /// rules, the default engine with 16 MiB of hash, no tables, 50 games
    /// per chunk, adjudication after 4 decisive scores, no plies played on
    /// by the tables, one thread.
    fn default() -> DatagenConfig {
        DatagenConfig {
            games: 100,
            seed: 1,
            nodes: 5_000,
            openings: OpeningMix::Varied,
            max_plies: 400,
            rules: Rules::ICGA,
            options: Options {
                hash_mb: 16,
                ..Options::default()
            },
            tables: None,
            games_per_chunk: 50,
            adjudicate_plies: 4,
            table_plies: 0,
            threads: 1,
        }
    }
}

impl DatagenConfig {
    /// The number of chunk files.
    #[must_use]
    pub fn chunks(&self) -> u64 {
        self.games.div_ceil(self.games_per_chunk.max(1))
    }

    /// The engine options used: the caller's with one thread.
    #[must_use]
    pub fn engine_options(&self) -> Options {
        Options {
            threads: 1,
            ..self.options.clone()
        }
    }

    /// The settings that decide the bytes written, as the manifest holds
    /// them: `(name, value)` in order.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_match::datagen::DatagenConfig;
    ///
    /// let settings = DatagenConfig::default().settings();
    /// assert_eq!(settings[0], ("games", "100".to_string()));
    /// assert!(settings.iter().any(|(name, value)| *name == "openings" && value == "varied"));
    /// ```
    #[must_use]
    pub fn settings(&self) -> Vec<(&'static str, String)> {
        let mut settings = vec![
            ("games", self.games.to_string()),
            ("seed", self.seed.to_string()),
            ("nodes", self.nodes.to_string()),
            ("openings", self.openings.to_string()),
            ("max_plies", self.max_plies.to_string()),
            ("rules", self.rules.to_string()),
            ("games_per_chunk", self.games_per_chunk.to_string()),
            ("adjudicate_plies", self.adjudicate_plies.to_string()),
            (
                "tb_pieces",
                self.tables.as_ref().map_or(0, |t| t.pieces).to_string(),
            ),
            // Every engine option but the thread count changes the searches.
            ("evaluation", evaluation_setting(&self.options.evaluation)),
            ("techniques", format!("{:?}", self.options.techniques)),
            ("hash_mb", self.options.hash_mb.to_string()),
            ("record_format", data::VERSION.to_string()),
        ];
        // Named only when used, so that directories made before the setting
        // existed (none played on) carry on.
        if self.table_plies > 0 {
            settings.push(("table_plies", self.table_plies.to_string()));
        }
        if self.options.parameters != SearchParameters::default() {
            settings.push(("search_parameters", self.options.parameters.to_string()));
        }
        settings
    }

    /// Checks the ranges and the tables.
    fn check(&self) -> Result<(), DatagenError> {
        let bad = |message: String| Err(DatagenError::Config(message));
        if !(1..=MAX_GAMES).contains(&self.games) {
            return bad(format!(
                "games must be 1 to {MAX_GAMES}, not {}",
                self.games
            ));
        }
        if self.nodes == 0 {
            return bad("nodes must be at least 1".into());
        }
        if self.max_plies == 0 {
            return bad("max plies must be at least 1".into());
        }
        if self.games_per_chunk == 0 {
            return bad("games per chunk must be at least 1".into());
        }
        if self.chunks() > 1_000_000 {
            return bad(format!(
                "{} chunks: at most 1,000,000 (give more games per chunk)",
                self.chunks()
            ));
        }
        if !(1..=1024).contains(&self.threads) {
            return bad(format!("threads must be 1 to 1024, not {}", self.threads));
        }
        if self.table_plies > MAX_TABLE_PLIES {
            return bad(format!(
                "table plies must be 0 to {MAX_TABLE_PLIES}, not {}",
                self.table_plies
            ));
        }
        if self.table_plies > 0 && self.tables.is_none() {
            return bad("table plies need tables (--tb)".into());
        }
        if let Some(t) = &self.tables {
            let complete = t.tables.complete_pieces();
            if t.pieces < 2 || t.pieces > complete {
                return bad(format!(
                    "the tables cover every class up to {complete} pieces; {} asked",
                    t.pieces
                ));
            }
        }
        self.engine_options()
            .check()
            .map_err(|e| DatagenError::Engine(e.to_string()))
    }
}

/// The evaluation as the manifest names it: `classic`, `paper`, a custom
/// weight set in full, or a network by name and checksum.
pub(crate) fn evaluation_setting(evaluation: &Evaluation) -> String {
    match evaluation {
        Evaluation::Classic(w) if evaluation.name() == "custom" => format!("custom {w:?}"),
        Evaluation::Classic(_) => evaluation.name(),
        Evaluation::Network(n) => format!("{} (checksum {:08x})", evaluation.name(), n.checksum()),
    }
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    /// A setting is out of range.
    #[error("{0}")]
    Config(String),
    /// The output directory's manifest holds other settings.
    #[error("{path} was made with {setting} = {found}, not {asked}: use another directory or the same settings")]
    Mismatch {
        /// The manifest.
        path: PathBuf,
        /// The first setting that differs.
        setting: String,
        /// Its value in the manifest.
        found: String,
        /// Its value in this run.
        asked: String,
    },
    /// The manifest is not one this version writes.
    #[error("{path}: not a datagen manifest ({reason})")]
    Manifest {
        /// The manifest.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The directory holds chunks but no manifest: their settings are
    /// unknown.
    #[error("{0} holds chunk files but no {MANIFEST_NAME}: use another directory")]
    NoManifest(PathBuf),
    /// A chunk file present does not read back: a checksum of the format
    /// or a record fails, or it is not of the version this run writes.
    #[error("chunk {chunk} ({path}): {error}; remove the file to have the chunk made again")]
    Chunk {
        /// The chunk's number.
        chunk: u64,
        /// Its file.
        path: PathBuf,
        /// What is wrong with it.
        error: DataError,
    },
    /// A chunk file present is training data of an older version than the
    /// one this run writes.
    #[error("chunk {chunk} ({path}) is training data of version {version}, not {}: remove the file to have the chunk made again", data::VERSION)]
    ChunkVersion {
        /// The chunk's number.
        chunk: u64,
        /// Its file.
        path: PathBuf,
        /// The file's version.
        version: u16,
    },
    /// Something other than a regular file is where a file is read or
    /// written.
    #[error("{0} is in the way: not a regular file")]
    InTheWay(PathBuf),
    /// A file or directory could not be read, written or made.
    #[error("{path}: {message}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        message: String,
    },
    /// The engine could not be made.
    #[error("engine: {0}")]
    Engine(String),
    /// A tablebase probe failed.
    #[error("tablebase probe of {position}: {message}")]
    Tablebase {
        /// The position probed.
        position: String,
        /// What failed.
        message: String,
    },
    /// A worker thread could not be started or failed.
    #[error("worker thread: {0}")]
    Thread(String),
}

fn io_error(path: &Path, e: &std::io::Error) -> DatagenError {
    DatagenError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// The rules ended it.
    Rules(Termination),
    /// A position the tables cover was reached.
    Tables,
    /// The search reported a decisive score for the same winner
    /// [`DatagenConfig::adjudicate_plies`] times in a row.
    Decisive,
    /// [`DatagenConfig::max_plies`] plies were played; adjudicated by piece
    /// count.
    PlyCap,
}

/// One finished game, as reported to [`DatagenProgress::game_done`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The game's index in the run.
    pub index: u64,
    /// Plies played after the opening.
    pub plies: u64,
    /// Records written.
    pub written: u64,
    /// Positions searched or met but not written (filters).
    pub filtered: u64,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// How it ended.
    pub end: GameEnd,
}

/// What a run did. Counts are of the games played by this run; chunks
/// already present are counted only in [`DatagenStats::chunks_present`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DatagenStats {
    /// Games played.
    pub games: u64,
    /// Chunk files written.
    pub chunks_written: u64,
    /// Chunk files already present and valid (skipped).
    pub chunks_present: u64,
    /// Plies played after the openings (every position met).
    pub plies: u64,
    /// Random opening plies played (never written).
    pub opening_plies: u64,
    /// Records written, `exact` ones included.
    pub written: u64,
    /// Records whose label is the tables' value.
    pub exact: u64,
    /// Positions with a single legal move (not searched, not written).
    pub single_move: u64,
    /// Positions whose score was decisive (not written).
    pub decisive: u64,
    /// Positions whose best move was a capture (not written).
    pub capture_best: u64,
    /// Positions met where the side to move had a capture (written or not).
    pub capture_available: u64,
    /// Games ended by the rules.
    pub ended_by_rules: u64,
    /// Games ended by the tables.
    pub ended_by_tables: u64,
    /// Games ended by a run of decisive scores.
    pub ended_by_score: u64,
    /// Games stopped at the ply cap.
    pub ended_by_ply_cap: u64,
    /// Games won by Black.
    pub black_wins: u64,
    /// Games won by White.
    pub white_wins: u64,
    /// Drawn games.
    pub draws: u64,
}

impl DatagenStats {
    fn add(&mut self, o: &DatagenStats) {
        let DatagenStats {
            games,
            chunks_written,
            chunks_present,
            plies,
            opening_plies,
            written,
            exact,
            single_move,
            decisive,
            capture_best,
            capture_available,
            ended_by_rules,
            ended_by_tables,
            ended_by_score,
            ended_by_ply_cap,
            black_wins,
            white_wins,
            draws,
        } = *o;
        self.games += games;
        self.chunks_written += chunks_written;
        self.chunks_present += chunks_present;
        self.plies += plies;
        self.opening_plies += opening_plies;
        self.written += written;
        self.exact += exact;
        self.single_move += single_move;
        self.decisive += decisive;
        self.capture_best += capture_best;
        self.capture_available += capture_available;
        self.ended_by_rules += ended_by_rules;
        self.ended_by_tables += ended_by_tables;
        self.ended_by_score += ended_by_score;
        self.ended_by_ply_cap += ended_by_ply_cap;
        self.black_wins += black_wins;
        self.white_wins += white_wins;
        self.draws += draws;
    }

    /// Positions met after the openings and not written:
    /// single move, decisive score and capture as best move.
    #[must_use]
    pub fn filtered(&self) -> u64 {
        self.single_move + self.decisive + self.capture_best
    }
}

/// Receives a run's progress (from the worker threads).
pub trait DatagenProgress: Sync {
    /// The run starts: `chunks` to make (all of the run, or the range
    /// asked), `present` of them already done.
    fn started(&self, chunks: u64, present: u64) {
        let _ = (chunks, present);
    }

    /// A game is finished.
    fn game_done(&self, game: &GameSummary) {
        let _ = game;
    }

    /// A chunk file is written with `records` records.
    fn chunk_written(&self, chunk: u64, records: u64) {
        let _ = (chunk, records);
    }
}

/// Progress that nobody watches.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl DatagenProgress for Quiet {}

/// The file name of chunk `k`: `chunk-000042.skdata`.
///
/// # Examples
///
/// ```
/// assert_eq!(surakarta_match::datagen::chunk_name(42), "chunk-000042.skdata");
/// ```
#[must_use]
pub fn chunk_name(chunk: u64) -> String {
    format!("chunk-{chunk:06}.skdata")
}

/// The opening of game `index`: a pure function of the mix, the seed and
/// the index; with the random plies played to reach it (0 for a random
/// board).
///
/// # Examples
///
/// ```
/// use surakarta_match::datagen::{opening, OpeningMix};
///
/// let (start, plies) = opening(OpeningMix::Varied, 7, 0);
/// assert!((8..=12).contains(&plies) && start.outcome().is_none());
/// let (board, plies) = opening(OpeningMix::Varied, 7, 1);
/// assert!(plies == 0 && (16..=20).contains(&board.occupied().len()));
/// assert_eq!(opening(OpeningMix::Varied, 7, 1).0, board); // reproducible
/// ```
#[must_use]
pub fn opening(mix: OpeningMix, seed: u64, index: u64) -> (Position, usize) {
    let mut rng = SplitMix::new(
        SplitMix::new(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64() ^ index,
    );
    let from_start = match mix {
        OpeningMix::Varied => index.is_multiple_of(2),
        OpeningMix::Start => true,
        OpeningMix::Random => false,
    };
    if !from_start {
        let pieces = RANDOM_PIECES_MIN
            + rng.below((RANDOM_PIECES_MAX - RANDOM_PIECES_MIN + 1) as usize) as u32;
        let board_seed = rng.next_u64();
        // Two boards: Black to move on the first, White on the second.
        if let Ok(boards) =
            crate::openings::random_boards(2, pieces, RANDOM_MAX_DIFFERENCE, board_seed)
        {
            if let Some(&board) = boards.get(rng.below(2)) {
                return (board, 0);
            }
        }
    }
    let plies = START_PLIES_MIN + rng.below(START_PLIES_MAX - START_PLIES_MIN + 1);
    let position = random_playout(&mut rng, Position::new(), plies);
    // A playout stops early rather than end the game.
    let played =
        2 * (position.fullmoves() as usize - 1) + usize::from(position.turn() == Color::White);
    (position, played)
}

/// Makes the data of `config` in `dir` (created if missing), skipping the
/// chunks already there; see the module documentation.
pub fn run(
    config: &DatagenConfig,
    dir: &Path,
    progress: &dyn DatagenProgress,
) -> Result<DatagenStats, DatagenError> {
    run_chunks(config, dir, 0..config.chunks(), progress)
}

/// [`run`] for the chunks `range` only (`first..end`, `end` not included;
/// within `0..config.chunks()` and not empty, else
/// [`DatagenError::Config`]): the part of the data one job of several
/// makes. Games, chunk files and their bytes are those of [`run`].
///
/// ```
/// use surakarta_match::datagen::{chunk_name, run, run_chunks, DatagenConfig, Quiet};
///
/// let base = std::env::temp_dir().join(format!("datagen-range-doc-{}", std::process::id()));
/// let _ = std::fs::remove_dir_all(&base);
/// let config = DatagenConfig {
///     games: 3, games_per_chunk: 1, nodes: 100, max_plies: 12, ..DatagenConfig::default()
/// };
/// // Two jobs, chunks 0..2 and 2..3, make what one run makes.
/// let parts = base.join("parts");
/// assert_eq!(run_chunks(&config, &parts, 0..2, &Quiet)?.chunks_written, 2);
/// assert_eq!(run_chunks(&config, &parts, 2..3, &Quiet)?.chunks_written, 1);
/// let whole = base.join("whole");
/// run(&config, &whole, &Quiet)?;
/// for k in 0..3 {
///     let name = chunk_name(k);
///     assert_eq!(std::fs::read(parts.join(&name))?, std::fs::read(whole.join(&name))?);
/// }
/// assert!(run_chunks(&config, &parts, 2..4, &Quiet).is_err(), "only 3 chunks");
/// # std::fs::remove_dir_all(&base).ok();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run_chunks(
    config: &DatagenConfig,
    dir: &Path,
    range: std::ops::Range<u64>,
    progress: &dyn DatagenProgress,
) -> Result<DatagenStats, DatagenError> {
    config.check()?;
    let chunks = config.chunks();
    if range.is_empty() || range.end > chunks {
        return Err(DatagenError::Config(format!(
            "chunks {}..{}: give a range within 0..{chunks} (the run has {chunks} chunk{}) that is not empty",
            range.start,
            range.end,
            if chunks == 1 { "" } else { "s" }
        )));
    }
    prepare_dir(dir)?;
    check_manifest(config, dir)?;
    // Which chunks are done already (and read back).
    let mut todo = Vec::new();
    let mut stats = DatagenStats::default();
    let asked = range.end - range.start;
    for k in range {
        if check_chunk(k, &dir.join(chunk_name(k)))? {
            stats.chunks_present += 1;
        } else {
            todo.push(k);
        }
    }
    progress.started(asked, stats.chunks_present);
    let next = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let first_error: Mutex<Option<DatagenError>> = Mutex::new(None);
    let totals = Mutex::new(stats);
    let workers = config.threads.min(todo.len()).max(1);
    let todo = &todo;
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for _ in 0..workers {
            let handle = std::thread::Builder::new().spawn_scoped(scope, || {
                let result = worker(config, dir, todo, &next, &failed, progress);
                match result {
                    Ok(s) => totals.lock().unwrap_or_else(|p| p.into_inner()).add(&s),
                    Err(e) => {
                        failed.store(true, Ordering::Relaxed);
                        first_error
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .get_or_insert(e);
                    }
                }
            });
            match handle {
                Ok(h) => handles.push(h),
                Err(e) => {
                    failed.store(true, Ordering::Relaxed);
                    first_error
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .get_or_insert(DatagenError::Thread(e.to_string()));
                }
            }
        }
        for h in handles {
            if h.join().is_err() {
                failed.store(true, Ordering::Relaxed);
                first_error
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .get_or_insert(DatagenError::Thread("a worker panicked".into()));
            }
        }
    });
    if let Some(e) = first_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    Ok(totals.into_inner().unwrap_or_else(|p| p.into_inner()))
}

/// One worker: an engine, and chunks taken from the shared counter until
/// none is left or another worker failed.
fn worker(
    config: &DatagenConfig,
    dir: &Path,
    todo: &[u64],
    next: &AtomicU64,
    failed: &AtomicBool,
    progress: &dyn DatagenProgress,
) -> Result<DatagenStats, DatagenError> {
    let mut engine =
        Engine::new(config.engine_options()).map_err(|e| DatagenError::Engine(e.to_string()))?;
    engine.set_tablebase(config.tables.as_ref().map(|t| t.tables.clone()));
    let mut stats = DatagenStats::default();
    while !failed.load(Ordering::Relaxed) {
        let i = next.fetch_add(1, Ordering::Relaxed) as usize;
        let Some(&chunk) = todo.get(i) else {
            break;
        };
        let first = chunk * config.games_per_chunk;
        let last = (first + config.games_per_chunk).min(config.games);
        let mut records = Vec::new();
        for index in first..last {
            if failed.load(Ordering::Relaxed) {
                return Ok(stats);
            }
            let game = play(config, &mut engine, index, &mut records, &mut stats)?;
            progress.game_done(&game);
        }
        let path = dir.join(chunk_name(chunk));
        let mut bytes = Vec::with_capacity((records.len() + 1) * data::RECORD);
        data::write(&mut bytes, &records).map_err(|e| io_error(&path, &e))?;
        write_atomically(&path, &bytes)?;
        stats.chunks_written += 1;
        progress.chunk_written(chunk, records.len() as u64);
    }
    Ok(stats)
}

/// Plays game `index`, appending its records to `out`.
fn play(
    config: &DatagenConfig,
    engine: &mut Engine,
    index: u64,
    out: &mut Vec<TrainingPosition>,
    stats: &mut DatagenStats,
) -> Result<GameSummary, DatagenError> {
    let (start, opening_plies) = opening(config.openings, config.seed, index);
    stats.opening_plies += opening_plies as u64;
    engine.new_game();
    let limits = Limits::nodes(config.nodes);
    let stop = AtomicBool::new(false);
    let mut game = Game::new(start, config.rules);
    // The records of this game, before their labels are known: (position,
    // score, ply).
    let mut pending: Vec<(Position, i16, u16)> = Vec::new();
    // The positions the tables cover, with their exact values.
    let mut exact: Vec<(Position, Wdl, u16)> = Vec::new();
    let mut filtered = 0u64;
    // The winner the last decisive scores predicted, and how many in a row.
    let mut predicted: Option<(Option<Color>, u32)> = None;
    let (winner, end) = loop {
        let position = *game.position();
        let played = game.moves().len();
        let ply = u16::try_from(opening_plies + played).unwrap_or(u16::MAX);
        if let Some(outcome) = game.outcome() {
            break (outcome.winner, GameEnd::Rules(outcome.termination));
        }
        if let Some(t) = &config.tables {
            // Where the tables' value is the game's (the rules and the
            // game's history leave it room); elsewhere the game goes on.
            let exact_value = if position.occupied().len() <= t.pieces {
                t.tables
                    .probe_game(&game)
                    .map_err(|e| DatagenError::Tablebase {
                        position: position.to_string(),
                        message: e.to_string(),
                    })?
                    .exact()
            } else {
                None
            };
            if let Some(value) = exact_value {
                let wdl = value.wdl();
                exact.push((position, wdl, ply));
                if config.table_plies > 0 {
                    let mut rng = SplitMix::new(
                        SplitMix::new(config.seed ^ index.wrapping_mul(TABLE_PLAY_SALT)).next_u64(),
                    );
                    play_on_by_tables(t, position, ply, config.table_plies, &mut rng, &mut exact)?;
                }
                let side = position.turn();
                let winner = match wdl {
                    Wdl::Win => Some(side),
                    Wdl::Loss => Some(!side),
                    Wdl::Draw => None,
                };
                break (winner, GameEnd::Tables);
            }
        }
        if played >= config.max_plies as usize {
            break (by_pieces(&position), GameEnd::PlyCap);
        }
        stats.plies += 1;
        if !position.captures().is_empty() {
            stats.capture_available += 1;
        }
        let moves = position.legal_moves();
        if moves.len() == 1 {
            stats.single_move += 1;
            filtered += 1;
            play_move(&mut game, moves[0])?;
            continue;
        }
        let result = engine.search(&game, &limits, &stop, &mut |_| {});
        let Some(best) = result.best_move else {
            return Err(DatagenError::Engine(format!(
                "no move in {position}, where the game is not over"
            )));
        };
        let score = result.info.score;
        let side = position.turn();
        if score.is_decisive() {
            stats.decisive += 1;
            filtered += 1;
            let winner = match score.kind() {
                ScoreKind::Win(_) | ScoreKind::TbWin(_) => Some(side),
                _ => Some(!side),
            };
            let run = match predicted {
                Some((w, n)) if w == winner => n + 1,
                _ => 1,
            };
            predicted = Some((winner, run));
            if config.adjudicate_plies > 0 && run >= config.adjudicate_plies {
                break (winner, GameEnd::Decisive);
            }
        } else {
            predicted = None;
            if best.is_capture() {
                stats.capture_best += 1;
                filtered += 1;
            } else {
                let value = score.0.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
                pending.push((position, value, ply));
            }
        }
        play_move(&mut game, best)?;
    };
    let mut written = 0u64;
    for (position, score, ply) in pending {
        let label = label_for(winner, position.turn());
        out.push(TrainingPosition {
            position: stored(position),
            score,
            label,
            exact: false,
            ply,
        });
        written += 1;
    }
    for (position, label, ply) in exact {
        out.push(TrainingPosition {
            position: stored(position),
            score: 0,
            label,
            exact: true,
            ply,
        });
        written += 1;
        stats.exact += 1;
    }
    stats.written += written;
    stats.games += 1;
    match end {
        GameEnd::Rules(_) => stats.ended_by_rules += 1,
        GameEnd::Tables => stats.ended_by_tables += 1,
        GameEnd::Decisive => stats.ended_by_score += 1,
        GameEnd::PlyCap => stats.ended_by_ply_cap += 1,
    }
    match winner {
        Some(Color::Black) => stats.black_wins += 1,
        Some(Color::White) => stats.white_wins += 1,
        None => stats.draws += 1,
    }
    Ok(GameSummary {
        index,
        plies: game.moves().len() as u64,
        written,
        filtered,
        winner,
        end,
    })
}

/// Mixed into a game's seed for the moves the tables choose.
const TABLE_PLAY_SALT: u64 = 0xD1B5_4A32_D192_ED03;

/// Plays on from `position` (covered by the tables, at ply `ply`) for up
/// to `plies` plies, appending each position met after it, while the game
/// goes on, with its exact value. The side to move keeps its value: a
/// winner plays one of its fastest wins, a defender any move that keeps
/// the draw, a loser any move; ties chosen at random by `rng`. The start's
/// value was the game's, so every value met is too: a win's conversions fit
/// the no-capture limit from the start on, its line repeats nothing, and a
/// draw is the game's value only under the pure rules, which end nothing.
fn play_on_by_tables(
    tables: &DatagenTables,
    mut position: Position,
    ply: u16,
    plies: u32,
    rng: &mut SplitMix,
    out: &mut Vec<(Position, Wdl, u16)>,
) -> Result<(), DatagenError> {
    let failed = |position: &Position, e: TablebaseError| DatagenError::Tablebase {
        position: position.to_string(),
        message: e.to_string(),
    };
    for played in 1..=plies {
        let values = tables
            .tables
            .move_values(&position)
            .map_err(|e| failed(&position, e))?;
        let Some(best) =
            values
                .iter()
                .map(|&(_, v)| v)
                .reduce(|a, b| if b.is_better_than(a) { b } else { a })
        else {
            return Ok(()); // no move: the game is over
        };
        let keeps = |v: Value| match best {
            Value::Win(_) => v == best,
            _ => v.wdl() == best.wdl(),
        };
        let choices: Vec<(surakarta::Move, Value)> =
            values.into_iter().filter(|&(_, v)| keeps(v)).collect();
        let (m, value) = choices[rng.below(choices.len())];
        position = position.after(m);
        if position.pieces(Color::Black).is_empty() || position.pieces(Color::White).is_empty() {
            return Ok(());
        }
        // The move's value for its player is the new side to move's value
        // seen from the other side.
        let at = ply.saturating_add(u16::try_from(played).unwrap_or(u16::MAX));
        out.push((position, value.wdl().flipped(), at));
    }
    Ok(())
}

/// Plays `m`, which the engine or the move generator gave.
fn play_move(game: &mut Game, m: surakarta::Move) -> Result<(), DatagenError> {
    game.play(m)
        .map_err(|e| DatagenError::Engine(format!("move {m} not playable: {e}")))
}

/// The winner by piece count, as the rules adjudicate: more pieces wins,
/// equal is a draw.
fn by_pieces(position: &Position) -> Option<Color> {
    Rules::adjudicate(
        position.pieces(Color::Black).len(),
        position.pieces(Color::White).len(),
        Termination::NoCaptureLimit,
    )
    .winner
}

/// The game's result for `side`.
fn label_for(winner: Option<Color>, side: Color) -> Wdl {
    match winner {
        None => Wdl::Draw,
        Some(w) if w == side => Wdl::Win,
        Some(_) => Wdl::Loss,
    }
}

/// The position as a record stores it (counters not kept).
fn stored(position: Position) -> Position {
    let setup = position.to_setup();
    Position::from_setup(surakarta::Setup {
        halfmoves: 0,
        fullmoves: 1,
        ..setup
    })
    .unwrap_or(position)
}

/// Whether chunk `chunk` is present at `path`: `false` if there is no
/// file, `true` if it reads back whole (a regular file, of the version
/// written, its checksums and records valid), an error naming it otherwise.
fn check_chunk(chunk: u64, path: &Path) -> Result<bool, DatagenError> {
    let bytes = match surakarta_tablebase::read_regular_file(path, data::MAX_FILE_LEN) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(false),
        Err(e) if is_not_a_regular_file(&e) => {
            return Err(DatagenError::InTheWay(path.to_path_buf()))
        }
        Err(e) => return Err(io_error(path, &e)),
    };
    let damaged = |error| DatagenError::Chunk {
        chunk,
        path: path.to_path_buf(),
        error,
    };
    let read = data::from_bytes(&bytes).map_err(damaged)?;
    if read.version != data::VERSION {
        return Err(DatagenError::ChunkVersion {
            chunk,
            path: path.to_path_buf(),
            version: read.version,
        });
    }
    Ok(true)
}

/// Makes `dir` if missing; anything but a directory there is an error.
fn prepare_dir(dir: &Path) -> Result<(), DatagenError> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(DatagenError::Io {
            path: dir.to_path_buf(),
            message: "not a directory".into(),
        }),
        Err(e) if e.kind() == ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).map_err(|e| io_error(dir, &e))
        }
        Err(e) => Err(io_error(dir, &e)),
    }
}

/// Writes the manifest if there is none (refusing a directory with chunks
/// but no manifest), else checks that it holds `config`'s settings. Jobs
/// started together into one directory agree: one creates the manifest,
/// the others check it.
fn check_manifest(config: &DatagenConfig, dir: &Path) -> Result<(), DatagenError> {
    let path = dir.join(MANIFEST_NAME);
    let settings = config.settings();
    let text = loop {
        match surakarta_tablebase::read_regular_file(&path, MAX_MANIFEST_LEN) {
            Err(e) if e.kind() == ErrorKind::NotFound => {
                if holds_chunks(dir)? {
                    if std::fs::symlink_metadata(&path).is_ok() {
                        continue; // made by another job meanwhile
                    }
                    return Err(DatagenError::NoManifest(dir.to_path_buf()));
                }
                let mut text = format!("{MANIFEST_HEADER}\n");
                for (name, value) in &settings {
                    text.push_str(&format!("{name} = {value}\n"));
                }
                if create_manifest(&path, &text)? {
                    return Ok(());
                }
                // Another job created it first: check it.
            }
            Err(e) if is_not_a_regular_file(&e) => return Err(DatagenError::InTheWay(path)),
            Err(e) => return Err(io_error(&path, &e)),
            Ok(bytes) => {
                break String::from_utf8(bytes).map_err(|_| DatagenError::Manifest {
                    path: path.clone(),
                    reason: "not UTF-8 text".into(),
                })?;
            }
        }
    };
    let mut lines = text.lines();
    if lines.next() != Some(MANIFEST_HEADER) {
        return Err(DatagenError::Manifest {
            path,
            reason: format!("the first line is not {MANIFEST_HEADER:?}"),
        });
    }
    let found: Vec<(&str, &str)> = lines
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_once(" = "))
        .collect();
    for (name, asked) in &settings {
        let value = found.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
        match value {
            Some(v) if v == asked => {}
            Some(v) => {
                return Err(DatagenError::Mismatch {
                    path,
                    setting: (*name).to_string(),
                    found: v.to_string(),
                    asked: asked.clone(),
                })
            }
            None => {
                return Err(DatagenError::Manifest {
                    path,
                    reason: format!("no {name} setting"),
                })
            }
        }
    }
    // A setting named only when used (`table_plies`) and used there, but
    // not in this run.
    if let Some((name, value)) = found
        .iter()
        .find(|(n, _)| !settings.iter().any(|(s, _)| s == n))
    {
        return Err(DatagenError::Mismatch {
            path,
            setting: (*name).to_string(),
            found: (*value).to_string(),
            asked: "0".into(),
        });
    }
    Ok(())
}

/// Whether `dir` holds chunk files.
fn holds_chunks(dir: &Path) -> Result<bool, DatagenError> {
    for entry in std::fs::read_dir(dir).map_err(|e| io_error(dir, &e))? {
        let entry = entry.map_err(|e| io_error(dir, &e))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("chunk-") && name.ends_with(".skdata") {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Creates the manifest `path` holding `text` unless it exists: written
/// and synced under a name of this process's own, then linked to `path`,
/// which fails if another process created it first (`Ok(false)`). Where the
/// file system has no hard links, it is renamed into place instead (two
/// jobs then both write it, with the same text if their settings agree).
fn create_manifest(path: &Path, text: &str) -> Result<bool, DatagenError> {
    let mut own = path.as_os_str().to_owned();
    own.push(format!(".{}.tmp", std::process::id()));
    let own = PathBuf::from(own);
    let _ = std::fs::remove_file(&own); // left by a killed process of the same id
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&own)
        .and_then(|mut file| {
            file.write_all(text.as_bytes())?;
            file.sync_all()
        });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&own);
        return Err(io_error(&own, &e));
    }
    let linked = std::fs::hard_link(&own, path);
    let _ = std::fs::remove_file(&own);
    match linked {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == ErrorKind::AlreadyExists => Ok(false),
        Err(_) => write_atomically(path, text.as_bytes()).map(|()| true),
    }
}

/// Writes `bytes` to `path` so that it is always complete or absent
/// ([`surakarta_tablebase::write_atomically`]).
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), DatagenError> {
    surakarta_tablebase::write_atomically(path, |out| out.write_all(bytes)).map_err(|e| match e {
        TablebaseError::InTheWay { path, .. } => DatagenError::InTheWay(path),
        other => DatagenError::Io {
            path: path.to_path_buf(),
            message: other.to_string(),
        },
    })
}
