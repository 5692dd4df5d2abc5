//! Retrograde distance-to-conversion (DTC) endgame tablebases for Surakarta.
//!
//! Semantics (pure rules, values for the side to move) are in
//! `docs/tablebase.md`, the file format in `docs/tablebase-format.md`.
//!
//! - [`Tablebase::generate`] solves every class up to a piece count in
//!   memory; [`generate_dir`] does the same into a directory of files,
//!   skipping the tables already there; [`generate_pair`] solves one
//!   [`Pair`] into a directory that holds the tables it needs (one process
//!   per pair, for clusters), and [`plan`] estimates what each pair costs
//!   and writes the workflow files that run them in order.
//! - [`Tablebase::open_dir`] (reads) or [`Tablebase::map_dir`] (memory maps)
//!   a directory; [`Tablebase::probe`], [`Tablebase::best_move`] and
//!   [`Tablebase::line`] answer for positions.
//! - [`Tablebase::verify`] re-derives every entry of a table from its
//!   successors.
//!
//! The library never prints; long work reports through a [`Reporter`].

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod cache;
mod checkpoint;
mod compact;
mod context;
mod convert;
mod error;
pub mod file;
mod generate;
mod huffman;
mod open;
mod pair;
pub mod plan;
mod probe;
mod repair;
mod table;
mod timing;
mod value;
mod verify;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub use context::ContextModel;
pub use convert::{compress_dir, CompressOutcome};
pub use error::TablebaseError;
pub use file::{CompactShape, FileProblem, Header};
pub use pair::{generate_pair, Pair};
pub use table::{ClassStats, Directories, Histogram, Table, TableIndexer};
pub use timing::{time_probes, ProbeTiming};
pub use value::{Value, Wdl, MAX_DTC};
pub use verify::{Mismatch, VerifyReport};

use surakarta_index::{Indexer, Material, Scheme, Sides};

/// A stage of long work, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Generation's first pass (captures and positions without moves).
    Initial,
    /// Generation's level `k`: un-moving the positions at distance `k`.
    Level(u32),
    /// Verification of a table.
    Verify,
    /// Compacting a table into format 2.
    Compact,
}

/// Receives progress of long work; the library never prints. Methods may be
/// called from several threads at once.
pub trait Reporter: Sync {
    /// Generation will solve classes with this many slots in all.
    fn started(&self, _total_slots: u64) {}
    /// A class and its swap (one or two materials) are about to be solved.
    fn pair_started(&self, _materials: &[Material], _slots: u64) {}
    /// The pair just started is modelled to need this many bytes at its
    /// peak ([`plan::memory_bytes`]).
    fn pair_memory(&self, _bytes: u64) {}
    /// Within the current pair or table: `done` of `total` slots of `pass`.
    fn progress(&self, _pass: Pass, _done: u64, _total: u64) {}
    /// A class was already in the directory and is not generated again.
    fn class_skipped(&self, _stats: &ClassStats) {}
    /// A class is finished (`elapsed`: the time of its pair so far).
    fn class_done(&self, _stats: &ClassStats, _elapsed: Duration) {}
    /// The current pair's state was saved; it would resume at `next_level`.
    fn checkpoint_written(&self, _next_level: u32, _bytes: u64) {}
    /// The current pair continues from its checkpoint at `next_level`.
    fn checkpoint_resumed(&self, _next_level: u32) {}
    /// A checkpoint was found but not used (the pair starts over): why.
    fn checkpoint_rejected(&self, _path: &Path, _why: &str) {}
}

/// A reporter that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Reporter for Silent {}

/// What [`generate_dir`] did with one class.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClassOutcome {
    /// The class's figures.
    pub stats: ClassStats,
    /// Seconds its pair took (0 when skipped).
    pub seconds: f64,
    /// Whether it was in the directory already.
    pub skipped: bool,
    /// The level its pair continued from, if it resumed from a checkpoint.
    pub resumed_at_level: Option<u32>,
    /// Its pair's modelled peak memory in bytes ([`plan::memory_bytes`];
    /// 0 when skipped).
    pub memory_estimate: u64,
}

/// Tables of material classes, in memory or mapped from files.
#[derive(Debug, Default)]
pub struct Tablebase {
    tables: BTreeMap<Material, Table>,
    /// Why a class's file did not load (see [`Tablebase::map_dir_partial`]).
    load_errors: BTreeMap<Material, TablebaseError>,
    dir: Option<PathBuf>,
    directories: Directories,
    /// Exact values of compact tables' positions met before.
    cache: std::sync::OnceLock<cache::ProbeCache>,
}

/// The classes with 2 to `max_pieces` pieces in dependency order, each
/// with its swap: `[a v b, b v a]` with `a > b`, or `[a v a]`.
pub fn pairs(max_pieces: u32) -> Vec<Vec<Material>> {
    let mut out = Vec::new();
    for pieces in 2..=max_pieces.min(24) {
        for material in Material::with_pieces(pieces) {
            if material.us() < material.them() {
                continue;
            }
            if material.swapped() == material {
                out.push(vec![material]);
            } else {
                out.push(vec![material, material.swapped()]);
            }
        }
    }
    out
}

impl Tablebase {
    /// An empty tablebase (every probe of a class is
    /// [`TablebaseError::MissingTable`]).
    pub fn new() -> Tablebase {
        Tablebase::default()
    }

    /// Generates every class with 2 to `max_pieces` pieces in `scheme`, in
    /// dependency order, in memory, on the current rayon thread pool.
    pub fn generate(
        max_pieces: u32,
        scheme: Scheme,
        reporter: &dyn Reporter,
    ) -> Result<(Tablebase, Vec<ClassStats>), TablebaseError> {
        let mut tablebase = Tablebase::new();
        let mut all_stats = Vec::new();
        let pairs: Vec<(Vec<Material>, Vec<TableIndexer>)> = pairs(max_pieces)
            .into_iter()
            .map(|pair| {
                let indexers = pair
                    .iter()
                    .map(|&m| TableIndexer::new(m, scheme, &mut tablebase.directories))
                    .collect();
                (pair, indexers)
            })
            .collect();
        reporter.started(pairs.iter().flat_map(|(_, i)| i).map(Indexer::size).sum());
        for (pair, indexers) in pairs {
            reporter.pair_started(&pair, indexers.iter().map(|i| i.size()).sum());
            let start = Instant::now();
            for table in generate::generate_pair(indexers, &tablebase, reporter, None)?.0 {
                reporter.class_done(&table.stats(), start.elapsed());
                all_stats.push(table.stats());
                tablebase.insert(table);
            }
        }
        Ok((tablebase, all_stats))
    }

    /// Reads every table file (`{material}.sktb`) of a directory into
    /// memory; other files are ignored. Headers are checked now, payload
    /// checksums on each table's first use.
    pub fn open_dir(dir: &Path) -> Result<Tablebase, TablebaseError> {
        Tablebase::load_dir(dir, Table::read)
    }

    /// Like [`Tablebase::open_dir`], but maps the files instead of reading
    /// them: opening is instant and memory is the operating system's page
    /// cache.
    ///
    /// # Safety
    ///
    /// No table file of the directory may change or shrink while the
    /// tablebase exists (see [`Table::map`]).
    #[allow(unsafe_code)]
    pub unsafe fn map_dir(dir: &Path) -> Result<Tablebase, TablebaseError> {
        // SAFETY: passed on to the caller, who promises the files stay put.
        Tablebase::load_dir(dir, |path, directories| unsafe {
            Table::map(path, directories)
        })
    }

    /// Like [`Tablebase::map_dir`], but a file that cannot be opened does
    /// not stop the others: its error is kept for its class
    /// ([`Tablebase::load_errors`]) and is what every use of that class
    /// returns ([`Tablebase::lookup`]: probes, verification), so the other
    /// classes still answer and the bad file is named when it is needed.
    ///
    /// # Safety
    ///
    /// As for [`Tablebase::map_dir`].
    #[allow(unsafe_code)]
    pub unsafe fn map_dir_partial(dir: &Path) -> Result<Tablebase, TablebaseError> {
        let mut load_errors = BTreeMap::new();
        let mut tablebase = Tablebase::load_dir_with(
            dir,
            // SAFETY: passed on to the caller, who promises the files stay put.
            |path, directories| unsafe { Table::map(path, directories) },
            |material, e| {
                load_errors.insert(material, e);
                Ok(())
            },
        )?;
        tablebase.load_errors = load_errors;
        Ok(tablebase)
    }

    fn load_dir(
        dir: &Path,
        load: impl FnMut(&Path, &mut Directories) -> Result<Table, TablebaseError>,
    ) -> Result<Tablebase, TablebaseError> {
        Tablebase::load_dir_with(dir, load, |_, e| Err(e))
    }

    fn load_dir_with(
        dir: &Path,
        mut load: impl FnMut(&Path, &mut Directories) -> Result<Table, TablebaseError>,
        mut failed: impl FnMut(Material, TablebaseError) -> Result<(), TablebaseError>,
    ) -> Result<Tablebase, TablebaseError> {
        let mut tablebase = Tablebase {
            dir: Some(dir.to_path_buf()),
            ..Tablebase::default()
        };
        for (material, path) in table_files(dir)? {
            let table = load(&path, &mut tablebase.directories).and_then(|table| {
                if table.material() == material {
                    Ok(table)
                } else {
                    Err(table::file_error(
                        &path,
                        FileProblem::WrongMaterial {
                            expected: material,
                            found: table.material(),
                        },
                    ))
                }
            });
            match table {
                Ok(table) => tablebase.insert(table),
                Err(e) => failed(material, e)?,
            }
        }
        Ok(tablebase)
    }

    /// Adds (or replaces) a table.
    pub fn insert(&mut self, table: Table) {
        self.cache = std::sync::OnceLock::new();
        self.load_errors.remove(&table.material());
        self.tables.insert(table.material(), table);
    }

    /// The table of a class.
    pub fn table(&self, material: Material) -> Option<&Table> {
        self.tables.get(&material)
    }

    /// The table of a class, or why there is none: the error its file gave
    /// when the directory was opened ([`Tablebase::map_dir_partial`]), else
    /// [`TablebaseError::MissingTable`].
    pub fn lookup(&self, material: Material) -> Result<&Table, TablebaseError> {
        if let Some(table) = self.tables.get(&material) {
            return Ok(table);
        }
        Err(match self.load_errors.get(&material) {
            Some(e) => e.clone(),
            None => TablebaseError::MissingTable {
                material,
                dir: self.dir.clone(),
            },
        })
    }

    /// The classes whose files did not load, in order, with their errors
    /// (only [`Tablebase::map_dir_partial`] keeps any).
    pub fn load_errors(&self) -> impl Iterator<Item = (Material, &TablebaseError)> + '_ {
        self.load_errors.iter().map(|(&m, e)| (m, e))
    }

    /// The classes present, in order.
    pub fn materials(&self) -> impl Iterator<Item = Material> + '_ {
        self.tables.keys().copied()
    }

    /// The directory the tables came from, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The largest piece count `n` such that every class with 2 to `n`
    /// pieces is present (0 if not even the 2-piece class is).
    pub fn complete_pieces(&self) -> u32 {
        (2..=24)
            .take_while(|&n| Material::with_pieces(n).all(|m| self.tables.contains_key(&m)))
            .last()
            .unwrap_or(0)
    }

    /// The value of a position given by its sides (the side to move first).
    /// A side to move without pieces has lost.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::Position;
    /// use surakarta_index::{Scheme, Sides};
    /// use surakarta_tablebase::{Silent, Tablebase, Value, Wdl};
    ///
    /// // Every class up to 3 pieces, in memory (files: `Tablebase::map_dir`).
    /// let (tables, _) = Tablebase::generate(3, Scheme::Symmetric, &Silent).unwrap();
    /// let position: Position = "b5/6/6/6/6/w4w b".parse().unwrap();
    /// let value = tables.probe(Sides::of(&position)).unwrap();
    /// assert_eq!(value.wdl(), Wdl::Win);
    /// assert!(matches!(value, Value::Win(d) if d >= 1));
    /// assert_eq!(tables.probe_position(&position).unwrap(), value);
    /// // A class without a table is an error, not a guess.
    /// let bigger: Position = "bb4/6/6/6/6/ww4 b".parse().unwrap();
    /// assert!(tables.probe_position(&bigger).is_err());
    /// ```
    pub fn probe(&self, sides: Sides) -> Result<Value, TablebaseError> {
        if sides.us.is_empty() {
            return Ok(Value::Loss(0));
        }
        if sides.them.is_empty() {
            return Err(TablebaseError::NoPieces);
        }
        let material = Material::of(sides)?;
        let table = self.lookup(material)?;
        if !table.is_compact() {
            return table.stored_value(sides);
        }
        let cache = self.cache.get_or_init(cache::ProbeCache::new);
        if let Some(value) = cache.get(sides) {
            return Ok(value);
        }
        let stored = table.stored_value(sides)?;
        let value = self.resolve(table, stored, sides)?;
        cache.put(sides, value);
        Ok(value)
    }

    /// Win, draw or loss of a position given by its sides (the side to
    /// move first): one stored value, and capture probes only where a
    /// compact table stores a loss that may stand for a draw
    /// ([`Table::capture_draws`]).
    pub fn probe_wdl(&self, sides: Sides) -> Result<Wdl, TablebaseError> {
        if sides.us.is_empty() {
            return Ok(Wdl::Loss);
        }
        if sides.them.is_empty() {
            return Err(TablebaseError::NoPieces);
        }
        let material = Material::of(sides)?;
        let table = self.lookup(material)?;
        if !table.capture_draws() {
            return Ok(table.stored_value(sides)?.wdl());
        }
        let cache = self.cache.get_or_init(cache::ProbeCache::new);
        if let Some(value) = cache.get(sides) {
            return Ok(value.wdl());
        }
        let stored = table.stored_value(sides)?;
        if let Value::Loss(_) = stored {
            // Exact once resolved: a loss, or a draw by a capture.
            let value = self.resolve(table, stored, sides)?;
            cache.put(sides, value);
            return Ok(value.wdl());
        }
        Ok(stored.wdl())
    }
}

/// The table files of a directory by class, in class order.
pub fn table_files(dir: &Path) -> Result<BTreeMap<Material, PathBuf>, TablebaseError> {
    let dir_error = |e: std::io::Error| TablebaseError::Directory {
        path: dir.to_path_buf(),
        message: e.to_string(),
    };
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).map_err(dir_error)? {
        let path = entry.map_err(dir_error)?.path();
        if path.extension().and_then(|e| e.to_str()) != Some(file::EXTENSION) {
            continue;
        }
        let material = path
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(|s| s.parse::<Material>().ok());
        if let Some(material) = material {
            out.insert(material, path);
        }
    }
    Ok(out)
}

/// Generates every class with 2 to `max_pieces` pieces into `dir` (created
/// if missing), one file per class, in dependency order. Classes whose
/// files are already there (with intact headers and payloads) are loaded,
/// not generated, so an interrupted run resumes. Each new table is written
/// in `format` (1: a byte per slot, 2: compact) to a temporary file, read
/// back and checked, then renamed into place. Tables are kept in memory
/// one byte per slot while the later classes need them (a compact table
/// found in the directory is expanded).
pub fn generate_dir(
    dir: &Path,
    max_pieces: u32,
    scheme: Scheme,
    format: u16,
    reporter: &dyn Reporter,
) -> Result<Vec<ClassOutcome>, TablebaseError> {
    let options = GenerateOptions {
        scheme,
        format,
        ..GenerateOptions::default()
    };
    generate_dir_with(dir, max_pieces, &options, reporter)
}

/// How [`generate_dir_with`] generates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateOptions {
    /// The index scheme of new tables.
    pub scheme: Scheme,
    /// The file format of new tables: 1 (a byte per slot) or 2 (compact).
    pub format: u16,
    /// The least time between two checkpoints of a pair (zero: at every
    /// level boundary). A pair that ends sooner writes none.
    pub checkpoint_every: Duration,
    /// Memory a pair may use, in bytes: a pair whose modelled peak
    /// ([`plan::memory_bytes`]) is larger is refused before it starts
    /// ([`TablebaseError::NotEnoughMemory`]). `None`: no limit.
    pub memory_limit: Option<u64>,
}

impl Default for GenerateOptions {
    /// The symmetric index, the newest format, a checkpoint at most every
    /// five minutes.
    fn default() -> GenerateOptions {
        GenerateOptions {
            scheme: Scheme::Symmetric,
            format: file::FORMAT_VERSION,
            checkpoint_every: Duration::from_secs(300),
            memory_limit: None,
        }
    }
}

/// [`generate_dir`] with every option. Each pair checkpoints its state to
/// `dir` (`AvB.ckpt`) at level boundaries, at most once per
/// [`GenerateOptions::checkpoint_every`]; a rerun continues an unfinished
/// pair from its checkpoint (a damaged or mismatching one is reported to
/// [`Reporter::checkpoint_rejected`] and the pair starts over), and the
/// checkpoint is removed once the pair's tables are written.
pub fn generate_dir_with(
    dir: &Path,
    max_pieces: u32,
    options: &GenerateOptions,
    reporter: &dyn Reporter,
) -> Result<Vec<ClassOutcome>, TablebaseError> {
    prepare_dir(dir, options)?;
    let mut directories = Directories::default();
    let present = table_files(dir)?;
    let pairs = pairs(max_pieces);
    let total = pairs
        .iter()
        .filter(|pair| !pair.iter().all(|m| present.contains_key(m)))
        .flatten()
        .map(|&m| options.scheme.size(m))
        .sum::<u64>();
    reporter.started(total);
    let mut outcomes = Vec::new();
    for classes in &pairs {
        if classes.iter().all(|m| present.contains_key(m)) {
            for &material in classes {
                outcomes.push(pair::present_class(
                    &present[&material],
                    material,
                    &mut directories,
                    reporter,
                )?);
            }
            continue;
        }
        let pair = Pair::of(classes[0]);
        outcomes.extend(pair::solve(dir, pair, options, &mut directories, reporter)?);
    }
    Ok(outcomes)
}

/// Checks the options' format and creates `dir` if missing: what every
/// generation into a directory does first.
pub(crate) fn prepare_dir(dir: &Path, options: &GenerateOptions) -> Result<(), TablebaseError> {
    if !(file::OLDEST_VERSION..=file::FORMAT_VERSION).contains(&options.format) {
        return Err(TablebaseError::Format(options.format));
    }
    std::fs::create_dir_all(dir).map_err(|e| TablebaseError::Directory {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    Ok(())
}

/// Writes the just generated tables of `materials` (in `tablebase`, with
/// the tables their captures reach) into `dir` in `format`, and reports
/// them done (`start`: when their pair began; `resumed_at_level`: the
/// level it continued from a checkpoint, if it did).
pub(crate) fn write_pair(
    tablebase: &Tablebase,
    materials: &[Material],
    dir: &Path,
    format: u16,
    reporter: &dyn Reporter,
    start: Instant,
    resumed_at_level: Option<u32>,
) -> Result<Vec<ClassOutcome>, TablebaseError> {
    for &material in materials {
        let path = dir.join(file::file_name(material));
        if format == 1 {
            tablebase.lookup(material)?.write(&path)?;
        } else {
            reporter.progress(Pass::Compact, 0, 1);
            tablebase.compacted(material)?.write(&path)?;
        }
    }
    let mut outcomes = Vec::new();
    for &material in materials {
        let stats = tablebase.lookup(material)?.stats();
        reporter.class_done(&stats, start.elapsed());
        outcomes.push(ClassOutcome {
            stats,
            seconds: start.elapsed().as_secs_f64(),
            skipped: false,
            resumed_at_level,
            memory_estimate: 0,
        });
    }
    Ok(outcomes)
}

/// Bytes of the compact body `values` would get with every slot exact (a
/// measuring aid for format studies, not part of the API).
#[doc(hidden)]
pub fn study_compact_len(values: &[u8], freedom: &[u8]) -> u64 {
    compact::encode(values, freedom, compact::Stored::Values)
        .1
        .len() as u64
}
