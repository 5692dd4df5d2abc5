//! Runs of the solver: every class up to a piece count, in memory or into
//! a directory of table files, or one [`Pair`] into a directory that holds
//! the tables it needs (resumable by pair, checkpointed).

use crate::error::file_error;
use crate::error::{PairWork, TablebaseError};
use crate::files::lock::DirLock;
use crate::files::open::table_files;
use crate::format::{self, ClassStats, FileProblem};
use crate::generate::convert::CompactOptions;
use crate::generate::store::Storage;
use crate::generate::{checkpoint, plan, solver as generate};
use crate::pair::Pair;
use crate::probe::table::{Directories, Table, TableIndexer};
use crate::probe::tablebase::Tablebase;
use crate::progress::{Pass, Progress, Stage};
use std::path::Path;
use std::time::{Duration, Instant};
use surakarta_index::{Indexer, Material, Scheme};

impl Tablebase {
    /// Generates every class with 2 to `max_pieces` pieces in `scheme`, in
    /// dependency order, in memory, on the current rayon thread pool.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_index::{Material, Scheme};
    /// use surakarta_tablebase::{NoProgress, Tablebase};
    ///
    /// let (tables, stats) = Tablebase::generate(4, Scheme::Symmetric, &NoProgress)?;
    /// assert_eq!(tables.complete_pieces(), 4);
    /// assert_eq!(tables.materials().count(), 6); // 1v1, 2v1, 1v2, 3v1, 2v2, 1v3
    /// let two_v_two = stats.iter().find(|s| s.material == Material::new(2, 2).unwrap()).unwrap();
    /// assert_eq!(two_v_two.positions, 44_481); // up to symmetry
    /// assert_eq!((two_v_two.wins, two_v_two.draws, two_v_two.losses), (30_616, 10_185, 3_680));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn generate(
        max_pieces: u32,
        scheme: Scheme,
        reporter: &dyn Progress,
    ) -> Result<(Tablebase, Vec<ClassStats>), TablebaseError> {
        let mut tablebase = Tablebase::new();
        let mut all_stats = Vec::new();
        let pairs: Vec<(Vec<Material>, Vec<TableIndexer>)> = Pair::all(max_pieces)
            .into_iter()
            .map(|pair| {
                let pair = pair.classes();
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
            for table in generate::generate_pair(
                indexers,
                &tablebase,
                reporter,
                None,
                generate::Windows::default(),
            )?
            .0
            {
                reporter.class_done(&table.stats(), start.elapsed());
                all_stats.push(table.stats());
                tablebase.insert(table);
            }
        }
        Ok((tablebase, all_stats))
    }
}

/// What [`generate_dir`] did with one class.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClassOutcome {
    /// The class's figures.
    pub stats: ClassStats,
    /// Seconds its pair took (0 when skipped).
    pub seconds: f64,
    /// Whether it was in the directory already.
    pub skipped: bool,
    /// Where its pair continued from, if it resumed from a checkpoint.
    pub resumed_at: Option<Stage>,
    /// Its pair's modelled peak memory in bytes ([`plan::memory_bytes`],
    /// or in mapped storage the limit, at least
    /// [`plan::mapped_memory_bytes`]; 0 when skipped).
    pub memory_estimate: u64,
    /// Where its pair's state was kept while solving:
    /// [`Storage::Memory`] or [`Storage::Mapped`] (`None` when skipped).
    pub storage: Option<Storage>,
    /// When mapped within a memory limit that its largest class does not
    /// fit whole: the slots of the windows the solver worked through each
    /// partner class in ([`plan::window_slots`]); else `None`.
    pub window_slots: Option<u64>,
}

/// Generates every class with 2 to `max_pieces` pieces into `dir` (created
/// if missing), one file per class, in dependency order. Classes whose
/// files are already there (with intact headers and payloads) are loaded,
/// not generated, so an interrupted run resumes. Each new table is written
/// in `format` (1: a byte per slot, 2: compact) to a temporary file, read
/// back and checked, then renamed into place. Tables are kept in memory
/// one byte per slot while the later classes need them (a compact table
/// found in the directory is expanded).
///
/// # Examples
///
/// ```
/// use surakarta::Position;
/// use surakarta_index::Scheme;
/// use surakarta_tablebase::{generate_dir, table_files, NoProgress, Tablebase, Value};
///
/// let dir = std::env::temp_dir().join(format!("surakarta-doc-generate-{}", std::process::id()));
/// let outcomes = generate_dir(&dir, 3, Scheme::Symmetric, 2, &NoProgress)?;
/// assert_eq!(outcomes.len(), 3); // 1v1, 2v1, 1v2
/// assert_eq!(table_files(&dir)?.len(), 3);
///
/// // A second run finds the tables there and skips them.
/// assert!(generate_dir(&dir, 3, Scheme::Symmetric, 2, &NoProgress)?.iter().all(|o| o.skipped));
///
/// let tables = Tablebase::open_dir(&dir)?;
/// let position: Position = "b5/6/6/6/6/w4w b".parse()?;
/// assert_eq!(tables.probe_position(&position)?, Value::Win(3));
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn generate_dir(
    dir: &Path,
    max_pieces: u32,
    scheme: Scheme,
    format: u16,
    reporter: &dyn Progress,
) -> Result<Vec<ClassOutcome>, TablebaseError> {
    let options = GenerateOptions {
        scheme,
        format,
        ..GenerateOptions::default()
    };
    generate_dir_with(dir, max_pieces, &options, reporter)
}

/// How [`generate_dir_with`] generates.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use surakarta_index::Scheme;
/// use surakarta_tablebase::{generate_dir_with, GenerateOptions, NoProgress};
///
/// let dir = std::env::temp_dir().join(format!("surakarta-doc-options-{}", std::process::id()));
/// let options = GenerateOptions {
///     scheme: Scheme::Plain,
///     format: 1, // a byte per slot
///     checkpoint_every: Duration::from_secs(60),
///     memory_limit: Some(1 << 30),
///     ..GenerateOptions::default()
/// };
/// let outcomes = generate_dir_with(&dir, 3, &options, &NoProgress)?;
/// assert!(outcomes.iter().all(|o| !o.skipped && o.stats.positions > 0));
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateOptions {
    /// The index scheme of new tables.
    pub scheme: Scheme,
    /// The file format of new tables: 1 (a byte per slot) or 2 (compact).
    pub format: u16,
    /// How format 2 tables are compacted.
    pub compact: CompactOptions,
    /// The least time between two checkpoints of a pair (zero: at every
    /// segment of every pass and before every level; otherwise also at
    /// least nine times the last one's writing time). A pair that ends
    /// sooner writes none.
    pub checkpoint_every: Duration,
    /// Memory a pair may use, in bytes. A pair whose modelled peak
    /// ([`plan::memory_bytes`]) is larger is solved with its state mapped
    /// from work files ([`Storage::Auto`]), or refused before it starts
    /// ([`TablebaseError::NotEnoughMemory`]) if even that needs more
    /// ([`plan::mapped_memory_bytes`]) or the storage is
    /// [`Storage::Memory`]. `None`: no limit.
    pub memory_limit: Option<u64>,
    /// Where a pair's state is kept while it is solved.
    pub storage: Storage,
    /// The slots of the windows a mapped pair is worked through in
    /// (`None`: from the memory limit, [`plan::window_slots`]); at least
    /// [`plan::MIN_WINDOW_SLOTS`]. For measuring the windows' cost.
    pub window_slots: Option<u64>,
}

impl Default for GenerateOptions {
    /// The symmetric index, the newest format, a checkpoint at most every
    /// five minutes.
    fn default() -> GenerateOptions {
        GenerateOptions {
            scheme: Scheme::Symmetric,
            format: format::FORMAT_VERSION,
            compact: CompactOptions::default(),
            checkpoint_every: Duration::from_secs(300),
            memory_limit: None,
            storage: Storage::Auto,
            window_slots: None,
        }
    }
}

/// [`generate_dir`] with every option. Each pair checkpoints its state to
/// `dir` (`AvB.ckpt`) between segments of its passes, at most once per
/// [`GenerateOptions::checkpoint_every`]; a rerun continues an unfinished
/// pair from its checkpoint (a damaged or mismatching one is reported to
/// [`Progress::checkpoint_rejected`] and the pair starts over), and the
/// checkpoint is removed once the pair's tables are written. The run holds
/// the directory's lock ([`crate::files::lock::DirLock`]): another run there is
/// [`TablebaseError::DirectoryInUse`].
pub fn generate_dir_with(
    dir: &Path,
    max_pieces: u32,
    options: &GenerateOptions,
    reporter: &dyn Progress,
) -> Result<Vec<ClassOutcome>, TablebaseError> {
    prepare_dir(dir, options)?;
    let _lock = DirLock::acquire(dir)?;
    let mut directories = Directories::default();
    let present = table_files(dir)?;
    let pairs: Vec<Vec<Material>> = Pair::all(max_pieces)
        .into_iter()
        .map(Pair::classes)
        .collect();
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
            remove_stale_checkpoint(dir, classes[0])?;
            for &material in classes {
                outcomes.push(present_class(
                    &present[&material],
                    material,
                    &mut directories,
                    reporter,
                )?);
            }
            continue;
        }
        let pair = Pair::of(classes[0]);
        outcomes.extend(solve(dir, pair, options, &mut directories, reporter)?);
    }
    Ok(outcomes)
}

/// Checks the options' format and creates `dir` if missing: what every
/// generation into a directory does first.
pub(crate) fn prepare_dir(dir: &Path, options: &GenerateOptions) -> Result<(), TablebaseError> {
    if !(format::OLDEST_VERSION..=format::FORMAT_VERSION).contains(&options.format) {
        return Err(TablebaseError::Format(options.format));
    }
    std::fs::create_dir_all(dir).map_err(|source| TablebaseError::Directory {
        path: dir.to_path_buf(),
        source,
    })?;
    Ok(())
}

/// Writes the just generated tables of `materials` (in `tablebase`, with
/// the tables their captures reach) into `dir` in the options' format, and reports
/// them done (`start`: when their pair began; `resumed_at`: where it
/// continued from a checkpoint, if it did).
pub(crate) fn write_pair(
    tablebase: &Tablebase,
    materials: &[Material],
    dir: &Path,
    options: &GenerateOptions,
    reporter: &dyn Progress,
    start: Instant,
    resumed_at: Option<Stage>,
) -> Result<Vec<ClassOutcome>, TablebaseError> {
    for &material in materials {
        let path = dir.join(format::file_name(material));
        if options.format == 1 {
            tablebase.lookup(material)?.write(&path)?;
        } else {
            reporter.progress(Pass::Compact, 0, 1);
            tablebase
                .compacted_with(material, &options.compact)?
                .write(&path)?;
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
            resumed_at,
            memory_estimate: 0,
            storage: None,
            window_slots: None,
        });
    }
    Ok(outcomes)
}

/// Solves one pair into `dir` (created if missing), given that the tables
/// it needs are there: the classes its captures reach
/// ([`Pair::capture_targets`]), and for each of those stored compact
/// (format 2) the class *its* captures reach, which expanding it to a
/// byte per slot needs (generation probes it often), and so on while the
/// tables met are compact. A table that is not
/// there is [`TablebaseError::MissingDependency`]; one that does not load
/// or is damaged is [`TablebaseError::UnusableDependency`]; both name the
/// file and the pair.
///
/// If the pair's own tables are all in `dir` already (headers and payload
/// checksums intact), nothing is generated: they are reported as skipped,
/// as [`crate::generate_dir`] does when it resumes. Otherwise the pair is
/// generated in the options' scheme and each table written in their format
/// (1 or 2) to a temporary file, read back, checked and renamed into place:
/// the same files, byte for byte, as [`crate::generate_dir`] writes. The
/// pair checkpoints and resumes as in [`crate::generate_dir_with`]. It
/// holds the pair's lock ([`crate::files::lock::DirLock::acquire_pair`]), so that jobs
/// of other pairs run beside it but not a second one of the same pair nor
/// one that holds the whole directory ([`TablebaseError::DirectoryInUse`]).
pub fn generate_pair(
    dir: &Path,
    pair: Pair,
    options: &GenerateOptions,
    reporter: &dyn Progress,
) -> Result<Vec<ClassOutcome>, TablebaseError> {
    crate::generate::runs::prepare_dir(dir, options)?;
    let _lock = DirLock::acquire_pair(dir, pair)?;
    let mut directories = Directories::default();
    let present = crate::table_files(dir)?;
    let classes = pair.classes();
    if classes.iter().all(|m| present.contains_key(m)) {
        remove_stale_checkpoint(dir, classes[0])?;
        return classes
            .iter()
            .map(|&m| present_class(&present[&m], m, &mut directories, reporter))
            .collect();
    }
    let slots = classes.iter().map(|&m| options.scheme.size(m)).sum();
    reporter.started(slots);
    solve(dir, pair, options, &mut directories, reporter)
}

/// Removes the checkpoint of a pair whose tables are all present (left by
/// a run killed between writing them and removing it).
fn remove_stale_checkpoint(dir: &Path, first: Material) -> Result<(), TablebaseError> {
    checkpoint::remove_stale(dir, first).map_err(|e| TablebaseError::File {
        path: checkpoint::path_of(dir, first),
        problem: e.into(),
    })
}

/// A class whose table is in the directory already: read, checked (header,
/// payload checksum, class), reported skipped, and dropped.
pub(crate) fn present_class(
    path: &Path,
    material: Material,
    directories: &mut Directories,
    reporter: &dyn Progress,
) -> Result<ClassOutcome, TablebaseError> {
    let stats = read_checked(path, material, directories)?.stats();
    reporter.class_skipped(&stats);
    Ok(ClassOutcome {
        stats,
        seconds: 0.0,
        skipped: true,
        resumed_at: None,
        memory_estimate: 0,
        storage: None,
        window_slots: None,
    })
}

/// Solves `pair` into `dir`, loading from `dir` only the tables it needs
/// (see [`generate_pair`]) and dropping them when done: what a pair holds
/// in memory is its own values and its dependencies, as
/// [`plan::memory_bytes`] models. Refuses the pair up front with
/// [`TablebaseError::NotEnoughMemory`] if the model exceeds the options'
/// memory limit.
pub(crate) fn solve(
    dir: &Path,
    pair: Pair,
    options: &GenerateOptions,
    directories: &mut Directories,
    reporter: &dyn Progress,
) -> Result<Vec<ClassOutcome>, TablebaseError> {
    let GenerateOptions {
        scheme,
        format,
        checkpoint_every,
        memory_limit,
        ..
    } = *options;
    let classes = pair.classes();
    let settings = plan::Settings {
        scheme,
        format,
        ..plan::Settings::default()
    };
    let (storage, memory_estimate) = choose_storage(pair, settings, options.storage, memory_limit)?;
    let mapped = storage == Storage::Mapped;
    let window_slots = match options.window_slots {
        Some(slots) => Some(slots.max(plan::MIN_WINDOW_SLOTS)).filter(|_| mapped),
        None => memory_limit
            .filter(|_| mapped)
            .and_then(|limit| plan::window_slots(pair, settings, limit)),
    };
    let present = crate::table_files(dir)?;
    let mut tablebase = Tablebase {
        dir: Some(dir.to_path_buf()),
        directories: std::mem::take(directories),
        ..Tablebase::default()
    };
    // The tables captures reach, read from `dir` and expanded to a byte per
    // slot where they are compact (with what expanding them needs, dropped
    // again before solving starts).
    let targets = pair.capture_targets();
    tablebase.expand_capture_targets(
        &targets,
        |material, directories| {
            let path = dir.join(format::file_name(material));
            if !present.contains_key(&material) {
                return Err(TablebaseError::MissingDependency {
                    material,
                    pair,
                    path,
                });
            }
            let table = if mapped {
                map_checked(&path, material, directories)
            } else {
                read_checked(&path, material, directories)
            };
            table.map(Some).map_err(|e| unusable(material, pair, e))
        },
        |material, e| Err(unusable(material, pair, e)),
    )?;

    let indexers: Vec<TableIndexer> = classes
        .iter()
        .map(|&m| TableIndexer::new(m, scheme, &mut tablebase.directories))
        .collect();
    let slots = indexers.iter().map(Indexer::size).sum();
    reporter.pair_started(&classes, slots);
    reporter.pair_memory(memory_estimate);
    if mapped {
        let work = classes
            .iter()
            .map(|&m| crate::generate::store::work_file_bytes(scheme.size(m)))
            .sum();
        reporter.pair_mapped(work, window_slots);
    }
    let start = Instant::now();
    let saved = checkpoint::path(dir, &indexers[0]);
    let checkpointing = generate::Checkpointing {
        dir,
        every: checkpoint_every,
        mapped,
    };
    // The tables captures reach are worked through in windows too where
    // they are mapped files (format 1), not bytes in memory.
    let targets_mapped = targets
        .iter()
        .any(|&t| tablebase.lookup(t).is_ok_and(Table::is_mapped));
    let windows = generate::Windows {
        partner: window_slots,
        targets: window_slots.filter(|_| targets_mapped),
    };
    let (tables, resumed_at) = generate::generate_pair(
        indexers,
        &tablebase,
        reporter,
        Some(&checkpointing),
        windows,
    )?;
    for table in tables {
        tablebase.insert(table);
    }
    let mut outcomes = crate::generate::runs::write_pair(
        &tablebase, &classes, dir, options, reporter, start, resumed_at,
    )?;
    for outcome in &mut outcomes {
        outcome.memory_estimate = memory_estimate;
        outcome.storage = Some(storage);
        outcome.window_slots = window_slots;
    }
    checkpoint::remove(&saved).map_err(|e| TablebaseError::File {
        path: saved.clone(),
        problem: e.into(),
    })?;
    *directories = std::mem::take(&mut tablebase.directories);
    Ok(outcomes)
}

/// Where a pair's state is kept ([`Storage::Memory`] or
/// [`Storage::Mapped`]) and its modelled peak memory, given the storage
/// asked for and the memory limit; [`TablebaseError::NotEnoughMemory`] if
/// it does not fit.
fn choose_storage(
    pair: Pair,
    settings: plan::Settings,
    asked: Storage,
    limit: Option<u64>,
) -> Result<(Storage, u64), TablebaseError> {
    let in_memory = plan::memory_bytes(pair, settings);
    let mapped = plan::mapped_memory_bytes(pair, settings);
    let refuse = |work, needed, limit| TablebaseError::NotEnoughMemory {
        pair,
        work,
        needed,
        limit,
    };
    match (asked, limit) {
        (Storage::Memory, Some(limit)) if in_memory > limit => {
            Err(refuse(PairWork::Generate, in_memory, limit))
        }
        (Storage::Memory, _) => Ok((Storage::Memory, in_memory)),
        (Storage::Auto, None) => Ok((Storage::Memory, in_memory)),
        (Storage::Auto, Some(limit)) if in_memory <= limit => Ok((Storage::Memory, in_memory)),
        (Storage::Auto | Storage::Mapped, Some(limit)) if mapped > limit => {
            Err(refuse(PairWork::GenerateMapped, mapped, limit))
        }
        (Storage::Auto | Storage::Mapped, limit) => {
            // The page cache takes what the limit leaves: the model says
            // the limit (or, with none, the least it needs).
            Ok((Storage::Mapped, limit.unwrap_or(mapped).max(mapped)))
        }
    }
}

/// Maps a table file (a format 1 one stays paged by the kernel, not read
/// into memory), checks its payload checksum and its class.
fn map_checked(
    path: &Path,
    material: Material,
    directories: &mut Directories,
) -> Result<Table, TablebaseError> {
    // SAFETY: table files in a directory whose lock the run holds are
    // never written in place: each is written to a temporary file and
    // renamed over its name (a rename leaves this map on the old file),
    // so the mapped file does not change or shrink while the table lives.
    #[allow(unsafe_code)]
    let table = unsafe { Table::map(path, directories)? };
    checked(table, path, material)
}

/// Reads a table file, checks its payload checksum and its class.
fn read_checked(
    path: &Path,
    material: Material,
    directories: &mut Directories,
) -> Result<Table, TablebaseError> {
    checked(Table::read(path, directories)?, path, material)
}

/// `table`, read from `path`, if it is of class `material` and its payload
/// matches its checksum.
fn checked(table: Table, path: &Path, material: Material) -> Result<Table, TablebaseError> {
    if table.material() != material {
        return Err(file_error(
            path,
            FileProblem::WrongMaterial {
                expected: material,
                found: table.material(),
            },
        ));
    }
    table.check()?;
    Ok(table)
}

fn unusable(material: Material, pair: Pair, error: TablebaseError) -> TablebaseError {
    TablebaseError::UnusableDependency {
        material,
        pair,
        error: Box::new(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The storage of a pair: in memory when it fits the limit (or there
    /// is none, or memory is asked for), mapped when only that fits,
    /// refused when neither does.
    #[test]
    fn storage_is_chosen_by_the_limit() {
        let settings = plan::Settings {
            format: 1,
            ..plan::Settings::default()
        };
        let pair: Pair = "6v1".parse().unwrap();
        let in_memory = plan::memory_bytes(pair, settings);
        let mapped = plan::mapped_memory_bytes(pair, settings);
        // 6v1 + 1v6 need about 84 MiB in memory, 82 MiB mapped.
        assert!(mapped < in_memory, "{mapped} {in_memory}");
        let limit = (0.08 * f64::from(1 << 30)) as u64;
        assert!(mapped <= limit && limit < in_memory);
        let choose = |asked, limit| choose_storage(pair, settings, asked, limit);
        assert_eq!(
            choose(Storage::Auto, None).unwrap(),
            (Storage::Memory, in_memory)
        );
        assert_eq!(
            choose(Storage::Auto, Some(in_memory)).unwrap(),
            (Storage::Memory, in_memory)
        );
        assert_eq!(
            choose(Storage::Auto, Some(limit)).unwrap(),
            (Storage::Mapped, limit)
        );
        assert_eq!(
            choose(Storage::Mapped, None).unwrap(),
            (Storage::Mapped, mapped)
        );
        assert!(matches!(
            choose(Storage::Memory, Some(limit)),
            Err(TablebaseError::NotEnoughMemory {
                work: PairWork::Generate,
                ..
            })
        ));
        assert!(matches!(
            choose(Storage::Auto, Some(mapped - 1)),
            Err(TablebaseError::NotEnoughMemory {
                work: PairWork::GenerateMapped,
                needed,
                ..
            }) if needed == mapped
        ));
        // Format 2 keeps the expanded dependencies and compaction resident.
        let compact = plan::mapped_memory_bytes(pair, plan::Settings::default());
        assert!(compact > mapped);
    }
}
