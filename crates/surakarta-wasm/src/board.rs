//! The board's state and answers in plain Rust (what the JavaScript
//! bindings wrap, and what the native tests use).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use surakarta::{Game, Position, Rules};
use surakarta_board::{bestmove_json, finished_json, info_json, not_covered};
use surakarta_index::{Material, Sides};
use surakarta_search::{Engine, Limits, Options};
use surakarta_tablebase::{Directories, Table, Tablebase};

/// The transposition table of the board's engine, in MiB: small, since a
/// page holds it in the browser's memory.
pub const DEFAULT_HASH_MB: usize = 16;

/// The tables and engine of one page (or one Web Worker).
///
/// Errors are one line of text that names what failed (a position that
/// does not parse, a damaged table), for the page to show.
pub struct Board {
    tablebase: Arc<Tablebase>,
    directories: Directories,
    engine: Option<Engine>,
    hash_mb: usize,
}

impl Default for Board {
    fn default() -> Board {
        Board::new()
    }
}

/// A game given as JSON text, replayed.
fn game_of(game: &str) -> Result<Game, String> {
    let game: serde_json::Value =
        serde_json::from_str(game).map_err(|e| format!("game: not JSON ({e})"))?;
    surakarta_board::game_from_json(&game).map_err(|e| format!("game: {e}"))
}

/// Field `name` of a request object as a whole number from `low` to
/// `high`; `None` when absent or null.
fn json_number(
    request: &serde_json::Value,
    name: &str,
    low: u64,
    high: u64,
) -> Result<Option<u64>, String> {
    match request.get(name) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if (low..=high).contains(&n) => Ok(Some(n)),
            _ => Err(format!("{name} {v} is out of range: give {low} to {high}")),
        },
    }
}

/// The most lines an analysis may ask for (as `/api/analysis`).
const MAX_LINES: u64 = 8;

/// What an analysis asks for, checked.
struct AnalysisRequest {
    game: Game,
    movetime_ms: u64,
    depth: Option<u32>,
    nodes: Option<u64>,
    level: Option<u8>,
    seed: u64,
    multipv: usize,
}

impl Default for AnalysisRequest {
    fn default() -> AnalysisRequest {
        AnalysisRequest {
            game: Game::new(Position::new(), Rules::default()),
            movetime_ms: 2000,
            depth: None,
            nodes: None,
            level: None,
            seed: 0,
            multipv: 1,
        }
    }
}

impl AnalysisRequest {
    /// Reads the JSON text of a request (see [`Board::analyse_request`]).
    fn read(text: &str) -> Result<AnalysisRequest, String> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("analysis: not JSON ({e})"))?;
        let object = value.as_object().ok_or("analysis: expected an object")?;
        let number = |name, low, high| json_number(&value, name, low, high);
        let game = match (object.get("game"), object.get("fen")) {
            (Some(game), _) if !game.is_null() => {
                surakarta_board::game_from_json(game).map_err(|e| format!("game: {e}"))?
            }
            (_, Some(serde_json::Value::String(fen))) => Game::new(parse(fen)?, Rules::default()),
            (_, Some(v)) if !v.is_null() => return Err("fen: expected position text".into()),
            _ => Game::new(Position::new(), Rules::default()),
        };
        Ok(AnalysisRequest {
            game,
            movetime_ms: number("movetime", 1, 30_000)?.unwrap_or(2000),
            depth: number("depth", 1, 64)?.map(|d| d as u32),
            nodes: number("nodes", 1, u64::MAX)?,
            level: number("level", 1, u64::from(surakarta_search::MAX_LEVEL))?.map(|l| l as u8),
            seed: number("seed", 0, u64::MAX)?.unwrap_or(0),
            multipv: number("multipv", 1, MAX_LINES)?.map_or(1, |k| k as usize),
        })
    }
}

/// `fen` parsed, or an error that says so.
pub(crate) fn parse(fen: &str) -> Result<Position, String> {
    fen.trim()
        .parse()
        .map_err(|e| format!("position {fen:?}: {e}"))
}

impl Board {
    /// A board without tables; the engine is made at the first search.
    pub fn new() -> Board {
        Board {
            tablebase: Arc::new(Tablebase::new()),
            directories: Directories::default(),
            engine: None,
            hash_mb: DEFAULT_HASH_MB,
        }
    }

    /// Loads a table file's bytes (`name`, such as `4v3.sktb`, is used in
    /// errors). The whole file is checked (header, length, payload
    /// checksum) before it is used. Returns its class, such as `"4v3"`.
    pub fn add_table(&mut self, name: &str, bytes: Vec<u8>) -> Result<String, String> {
        let table = Table::from_file_bytes(Path::new(name), bytes, &mut self.directories)
            .map_err(|e| e.to_string())?;
        let class = table.material().to_string();
        // The engine holds the tables only while it searches.
        Arc::get_mut(&mut self.tablebase)
            .ok_or("the tables are in use by a search")?
            .insert(table);
        Ok(class)
    }

    /// The classes loaded, such as `["1v1", "2v1", …]`.
    pub fn classes(&self) -> Vec<String> {
        let mut classes: Vec<Material> = self.tablebase.materials().collect();
        classes.sort_by_key(|m| (m.pieces(), std::cmp::Reverse(m.us()), m.them()));
        classes.iter().map(Material::to_string).collect()
    }

    /// The classes a position's answer probes that are not loaded: its own
    /// class `avb`, the class `bva` its quiet moves lead to, and the
    /// classes the captures of either lead to (`(b-1)va` and `(a-1)vb`,
    /// which a compact table's stored wins are resolved through). Empty
    /// for a position with a side without pieces.
    pub fn missing_classes(&self, fen: &str) -> Result<Vec<String>, String> {
        let position = parse(fen)?;
        let Ok(material) = Material::of(Sides::of(&position)) else {
            return Ok(Vec::new());
        };
        let (us, them) = (material.us(), material.them());
        let mut classes: Vec<Material> = [(us, them), (them, us), (them - 1, us), (us - 1, them)]
            .into_iter()
            .filter_map(|(a, b)| Material::new(a, b).ok())
            .filter(|&m| self.tablebase.table(m).is_none())
            .collect();
        // Equal sides name each pair twice, side by side.
        classes.dedup();
        Ok(classes.iter().map(Material::to_string).collect())
    }

    /// The answer of `/api/position` ([`surakarta_board::position_answer`])
    /// as JSON text.
    pub fn position(&self, fen: &str) -> Result<String, String> {
        let position = parse(fen)?;
        Ok(surakarta_board::position_answer(&position, Some(&self.tablebase)).to_string())
    }

    /// The answer of `/api/position` for a game given as JSON text
    /// (`{"rules", "start", "moves": [...]}`, [`surakarta_board::game_from_json`]):
    /// its current position under its rules, with its history
    /// ([`surakarta_board::game_answer`]).
    pub fn game_position(&self, game: &str) -> Result<String, String> {
        let game = game_of(game)?;
        Ok(surakarta_board::game_answer(&game, Some(&self.tablebase)).to_string())
    }

    /// The answer of `/api/probe` ([`surakarta_board::probe_json`]) as JSON
    /// text; an error where no table covers the position or one fails.
    pub fn probe(&self, fen: &str) -> Result<String, String> {
        let position = parse(fen)?;
        match surakarta_board::probe(&self.tablebase, position) {
            Ok(answer) => Ok(surakarta_board::probe_json(&answer).to_string()),
            Err(e) if not_covered(&e) => Err(format!("not in the tables: {e}")),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The picture `/api/svg` answers: the board, with `highlight` (a
    /// legal move of the position, in notation) marked and its capture path
    /// drawn.
    pub fn svg(&self, fen: &str, highlight: Option<&str>) -> Result<String, String> {
        let position = parse(fen)?;
        let highlight = highlight
            .map(|text| {
                position
                    .parse_move(text)
                    .map_err(|e| format!("move {text:?}: {e}"))
            })
            .transpose()?;
        Ok(surakarta_board::highlighted_picture(&position, highlight))
    }

    /// Sets the engine's transposition table (1 to 1,024 MiB) for the next
    /// searches.
    pub fn set_hash(&mut self, mib: usize) -> Result<(), String> {
        if !(1..=1024).contains(&mib) {
            return Err(format!("hash {mib} MiB: must be 1 to 1024"));
        }
        if mib != self.hash_mb {
            self.hash_mb = mib;
            self.engine = None;
        }
        Ok(())
    }

    /// The engine, made on first use.
    fn engine(&mut self) -> Result<&mut Engine, String> {
        let engine = match self.engine.take() {
            Some(engine) => engine,
            None => Engine::new(Options {
                hash_mb: self.hash_mb,
                ..Options::default()
            })
            .map_err(|e| e.to_string())?,
        };
        Ok(self.engine.insert(engine))
    }

    /// Searches `fen` for `movetime_ms` milliseconds (and to `depth`, if
    /// given) on this thread, with the tables loaded. Each finished
    /// iteration goes to `on_info` as the JSON text of an `info` event;
    /// `on_info` returns true to stop the search. Returns the `bestmove`
    /// event's JSON text (a finished game: no move, its outcome).
    pub fn analyse(
        &mut self,
        fen: &str,
        movetime_ms: u32,
        depth: Option<u32>,
        on_info: &mut dyn FnMut(String) -> bool,
    ) -> Result<String, String> {
        let request = AnalysisRequest {
            game: Game::new(parse(fen)?, Rules::default()),
            movetime_ms: u64::from(movetime_ms.max(1)),
            depth: depth.map(|d| d.clamp(1, 64)),
            ..AnalysisRequest::default()
        };
        self.search(request, on_info)
    }

    /// [`Board::analyse`] as the page asks for it: `request` is the JSON
    /// text of `{"fen"}` or `{"game": {"rules", "start", "moves"}}`, with
    /// `"movetime"` (ms, 1 to 30,000; default 2,000), `"depth"` (1 to 64),
    /// `"nodes"`, `"level"` (1 to 11), `"seed"` and `"multipv"` (1 to 8),
    /// the parameters of `/api/analysis`.
    pub fn analyse_request(
        &mut self,
        request: &str,
        on_info: &mut dyn FnMut(String) -> bool,
    ) -> Result<String, String> {
        let request = AnalysisRequest::read(request)?;
        self.search(request, on_info)
    }

    /// Judges every move of a game as `surakarta analyse` does
    /// (`surakarta_match::analysis`), with the tables loaded: `request` is
    /// the JSON text of `{"game": {"rules", "start", "moves"}}` with
    /// `"movetime"` (ms a position, 1 to 30,000; default 500) or `"nodes"`.
    /// `on_progress(done, total)` is called after each position valued.
    /// Returns the JSON text of `/api/game-analysis`'s `done` event
    /// ([`surakarta_board::review_json`]).
    pub fn analyse_game(
        &mut self,
        request: &str,
        on_progress: &mut dyn FnMut(usize, usize),
    ) -> Result<String, String> {
        let value: serde_json::Value =
            serde_json::from_str(request).map_err(|e| format!("game analysis: not JSON ({e})"))?;
        let game = match value.get("game") {
            Some(g) if !g.is_null() => {
                surakarta_board::game_from_json(g).map_err(|e| format!("game: {e}"))?
            }
            _ => return Err("game analysis: no game".into()),
        };
        let movetime = json_number(&value, "movetime", 1, 30_000)?;
        let nodes = json_number(&value, "nodes", 1, u64::MAX)?;
        let limits = surakarta_board::review_limits(movetime, nodes, 30_000);
        let record = surakarta::GameRecord::from_game(&game);
        let tablebase = self.tablebase.clone();
        let engine = self.engine()?;
        engine.set_tablebase(Some(tablebase.clone()));
        engine.set_level(None).map_err(|e| e.to_string())?;
        engine.set_multipv(1).map_err(|e| e.to_string())?;
        let analysis = surakarta_match::analysis::analyse_game(
            &record,
            engine,
            &limits,
            Some(&tablebase),
            &AtomicBool::new(false),
            on_progress,
        );
        engine.set_tablebase(None);
        let analysis = analysis.map_err(|e| e.to_string())?;
        Ok(surakarta_board::review_json(&game, &analysis).to_string())
    }

    /// Runs an analysis with the tables loaded.
    fn search(
        &mut self,
        request: AnalysisRequest,
        on_info: &mut dyn FnMut(String) -> bool,
    ) -> Result<String, String> {
        let game = request.game;
        if let Some(outcome) = game.outcome() {
            return Ok(finished_json(&outcome).to_string());
        }
        let limits = Limits {
            depth: request.depth,
            nodes: request.nodes,
            movetime: Some(Duration::from_millis(request.movetime_ms)),
            clock: None,
        };
        let tablebase = self.tablebase.clone();
        let engine = self.engine()?;
        engine.set_tablebase(Some(tablebase));
        engine.set_level(request.level).map_err(|e| e.to_string())?;
        engine.set_level_seed(request.seed);
        engine
            .set_multipv(request.multipv)
            .map_err(|e| e.to_string())?;
        let stop = AtomicBool::new(false);
        let result = engine.search(&game, &limits, &stop, &mut |info| {
            if on_info(info_json(info).to_string()) {
                stop.store(true, Ordering::Relaxed);
            }
        });
        engine.set_tablebase(None);
        Ok(bestmove_json(&result).to_string())
    }

    /// The engine's benchmark (the positions of `surakarta bench`, one
    /// thread, `depth`): `{"depth", "nodes", "time_ms", "nps"}` as JSON
    /// text, to compare with the native `surakarta bench --depth D`.
    pub fn bench(&mut self, depth: u32) -> Result<String, String> {
        let depth = depth.clamp(1, 12);
        let options = Options {
            hash_mb: self.hash_mb,
            ..Options::default()
        };
        let report = surakarta_search::bench::run(options, None, depth, &mut |_, _, _| {})
            .map_err(|e| e.to_string())?;
        Ok(serde_json::json!({
            "depth": depth,
            "nodes": report.nodes,
            "time_ms": report.elapsed.as_secs_f64() * 1000.0,
            "nps": report.nps(),
        })
        .to_string())
    }

    /// Times `probes` probes of random positions of the loaded classes with
    /// the most pieces (what `surakarta bench --tb DIR --probes N` does):
    /// `{"classes", "probes", "mean_ns", "median_ns", "p90_ns"}` as JSON
    /// text. `mean_ns` is the whole run's time over the probes; the median
    /// and 90th percentile time each probe alone, which a browser's clock
    /// cannot resolve (`performance.now()` steps by 5 to 100 µs there):
    /// they read 0 in a page.
    pub fn time_probes(&self, probes: u32) -> Result<String, String> {
        let timing = surakarta_tablebase::time_probes(&self.tablebase, probes as usize)
            .map_err(|e| e.to_string())?;
        Ok(serde_json::json!({
            "classes": timing.classes.iter().map(Material::to_string).collect::<Vec<_>>(),
            "probes": timing.probes,
            "median_ns": timing.median.as_nanos() as u64,
            "p90_ns": timing.p90.as_nanos() as u64,
            "mean_ns": timing.mean.as_nanos() as u64,
        })
        .to_string())
    }
}
