//! Plans for generating the tables pair by pair on many machines: the
//! [`Pair`]s up to a piece count in dependency order, each with the tables
//! it writes and needs and what it costs (positions, memory, disk, time)
//! by the model below, with totals and the critical path. A plan is data:
//! the workflow files that run `surakarta tb generate --pair` for each
//! pair in that order (a Snakefile, a Slurm script or a Makefile) are
//! written from it by `surakarta tb plan`.
//!
//! **The figures are estimates from a model**, fitted to what was measured
//! up to 9 pieces on the project's machine (2 cores of an AMD EPYC, KVM,
//! docs/benchmarks.md); the 10-piece pairs run since (docs/tablebase.md,
//! "Runs beyond 8 pieces") peaked at or below its memory figures, and
//! nothing beyond 10 pieces has been measured.
//!
//! - **positions**: the slots of both classes' indexes ([`Scheme::size`]),
//!   exact; the symmetric scheme wastes below 0.1% of them from 7 pieces on.
//! - **time**: slots over [`GENERATION_RATE`] per thread, plus, for format
//!   2, slots over [`COMPACTION_RATE`] per thread. Linear scaling in the
//!   thread count is assumed (measured only on 2 cores: 190% CPU); larger
//!   classes have more levels, so this is optimistic (a lower bound).
//! - **memory**: what [`generate_pair`](crate::generate_pair) holds at its
//!   peak, from the code (see [`memory_bytes`]).
//! - **disk**: format 1 is exact (a byte per slot plus the header); format
//!   2 is slots times [`FORMAT2_STRONG_BYTES_PER_SLOT`] or
//!   [`FORMAT2_WEAK_BYTES_PER_SLOT`], ratios measured on the 8-piece tables.

use crate::format::{self, HEADER_LEN};
use crate::generate::convert::STREAMING_ABOVE;
use crate::pair::Pair;
use surakarta_index::{Material, Scheme};

/// Generation speed: slots solved per second per thread. Measured on the
/// machine shared with other jobs, where long runs run: the 8-piece step
/// 1.79 M positions per CPU second single-threaded, the whole 9-piece run
/// (6.0 G positions, 3,426 CPU s) 1.75 M; the lower figure
/// (benches/results/2026-11-23-epyc-2core). On an idle machine the same
/// code resolves 3.4 M per CPU second (docs/benchmarks.md, "Generation"),
/// so the model's times are upper bounds there.
pub const GENERATION_RATE: f64 = 1.75e6;

/// Compaction speed (writing format 2): slots per second per thread.
/// Measured with the first format 2 writer on the shared machine: `surakarta
/// tb compress` of every table up to 8 pieces, 1,108,995,506 positions in
/// 345 s on 2 threads (benches/results/2026-11-26-epyc-2core/
/// format2-history.csv): 1.6 M per second per core. The current writer
/// takes about 204 CPU s for the same set on an idle machine
/// (docs/benchmarks.md, "Compact tables"), so this is an upper bound.
pub const COMPACTION_RATE: f64 = 1.6e6;

/// Format 2 bytes per slot of a class whose side to move has more pieces
/// (`a v b`, `a > b`): most of its positions win in 1 by a capture, which
/// compaction may store as any win. Measured on the 8-piece tables with
/// context models (benches/results/2026-11-24-epyc-2core/format2-classes.csv):
/// 7v1 0.0082, 6v2 0.0025, 5v3 0.0059; rounded up to the worst of them
/// doubled, since 4v3 (7 pieces) took 0.032 and the near-balanced classes
/// of 9 to 12 pieces are not measured.
pub const FORMAT2_STRONG_BYTES_PER_SLOT: f64 = 0.02;

/// Format 2 bytes per slot of a class whose side to move has as many or
/// fewer pieces (`a v b`, `a <= b`). Measured on the 8-piece tables with
/// context models and capture draws: 1v7 0.031, 2v6 0.014, 3v5 0.021, 4v4
/// 0.089 (benches/results/2026-11-24-epyc-2core/format2-classes.csv);
/// the balanced class decides, rounded up to
/// 0.10. The 7-piece 3v4 took 0.075.
pub const FORMAT2_WEAK_BYTES_PER_SLOT: f64 = 0.10;

/// Working memory of compaction per slot of a class compacted whole (at
/// most [`STREAMING_ABOVE`] slots): its context and freedom map, its ranks
/// and their filled copy (a byte each) and its 16-bit symbols before
/// Re-Pair (two bytes). Measured: `tb compress` of the tables up to 8
/// pieces peaked at 2.43 GB holding 1.11 GB of tables, about 5 bytes per
/// slot of 4v4 (265 M slots) beyond them.
pub const COMPACTION_BYTES_PER_SLOT: u64 = 5;

/// Working memory per slot of a class compacted by streaming (more than
/// [`STREAMING_ABOVE`] slots), beyond [`STREAMING_SAMPLE_BYTES`]: the
/// symbols of every chunk after parsing (two bytes per symbol, and each
/// chunk's own allocation), then the body being written. Measured on 4v4
/// forced through the streaming path with a sample of 2^20 slots
/// (`examples/compact_stream.rs`;
/// benches/results/2026-11-24-epyc-2core/compact-stream.csv):
/// 656 MB peak against 559 MB for the same process compacting nothing
/// (the tables it holds), so 97 MB or 0.37 bytes per slot, for a file of
/// 0.10 bytes per slot (that sample's; 0.088 with the default one). The
/// symbols grow with the file, and [`FORMAT2_WEAK_BYTES_PER_SLOT`]
/// expects 0.10 of the weak and balanced classes: 0.37 with a margin.
pub const STREAMING_BYTES_PER_SLOT: f64 = 0.45;

/// The fixed working memory of the streaming path: its sample of
/// [`SAMPLE_SLOTS`](crate::SAMPLE_SLOTS) slots (a context and freedom byte
/// and a 16-bit symbol per slot) and Re-Pair's work on it, held before
/// the chunks' symbols. Measured on 4v4 forced through the streaming path
/// with the default sample: 1,014 MB peak, 455 MB beyond the same process
/// compacting nothing; rounded up.
pub const STREAMING_SAMPLE_BYTES: u64 = 448 << 20;

/// Working memory of compacting one class of `slots` slots with the
/// default options: [`COMPACTION_BYTES_PER_SLOT`] per slot up to
/// [`STREAMING_ABOVE`] slots, above that [`STREAMING_BYTES_PER_SLOT`] per
/// slot plus [`STREAMING_SAMPLE_BYTES`].
#[must_use]
pub fn compaction_bytes(slots: u64) -> u64 {
    if slots > STREAMING_ABOVE {
        (slots as f64 * STREAMING_BYTES_PER_SLOT).ceil() as u64 + STREAMING_SAMPLE_BYTES
    } else {
        COMPACTION_BYTES_PER_SLOT * slots
    }
}

/// Memory of the process beyond the tables: code, thread stacks, buffers.
pub const PROCESS_BYTES: u64 = 64 << 20;

/// The memory a job asks its scheduler for: the estimate times this.
pub const MEMORY_MARGIN: f64 = 1.25;

/// The time limit a job asks its scheduler for: the estimate times this
/// (the model is a lower bound), and at least [`MIN_TIME_LIMIT_MINUTES`].
pub const TIME_MARGIN: f64 = 3.0;

/// The least time limit a job asks for, in minutes.
pub const MIN_TIME_LIMIT_MINUTES: u64 = 10;

/// The least memory a job asks for, in MiB.
pub const MIN_MEMORY_MIB: u64 = 256;

/// Most pieces a plan covers (every class [`Material`] can name).
pub const MAX_PIECES: u32 = 24;

/// Why a plan cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlanError {
    /// The piece count is outside `2..=MAX_PIECES`.
    #[error("{0} pieces is out of range: give 2 to {MAX_PIECES}")]
    Pieces(u32),
    /// Not a table format.
    #[error("format {0} is not a table format: give 1 (a byte per slot) or 2 (compact)")]
    Format(u16),
    /// No threads.
    #[error("a pair needs at least one thread")]
    Threads,
}

/// How the tables of a plan are made.
///
/// # Examples
///
/// ```
/// use surakarta_index::Scheme;
/// use surakarta_tablebase::plan::Settings;
///
/// // The default is what was measured: symmetric index, format 2, 2 threads.
/// let settings = Settings::default();
/// assert_eq!((settings.scheme, settings.format, settings.threads), (Scheme::Symmetric, 2, 2));
/// let wider = Settings { threads: 8, ..Settings::default() };
/// assert_eq!(wider.threads, 8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The index scheme.
    pub scheme: Scheme,
    /// The file format written (1 or 2).
    pub format: u16,
    /// Threads of each pair's process.
    pub threads: u32,
    /// Memory a pair's process may use, in bytes (`None`: no limit). A
    /// pair whose modelled peak ([`memory_bytes`]) is above it is planned
    /// with its state mapped from work files when what must stay resident
    /// then fits ([`mapped_memory_bytes`]): it is given the limit, and its
    /// work files take disk ([`PairPlan::work_bytes`]).
    pub memory_limit: Option<u64>,
}

impl Default for Settings {
    /// Symmetric index, format 2, 2 threads (the measured machine).
    fn default() -> Settings {
        Settings {
            scheme: Scheme::Symmetric,
            format: format::FORMAT_VERSION,
            threads: 2,
            memory_limit: None,
        }
    }
}

/// One pair's entry of a plan: what it writes and needs, and its estimates.
///
/// File names are bare (`3v2.sktb`): a workflow puts them in the directory
/// it generates into.
///
/// # Examples
///
/// ```
/// use surakarta_tablebase::plan::{PairPlan, Settings, MIN_MEMORY_MIB};
///
/// let p = PairPlan::new("3v2".parse()?, Settings::default());
/// assert_eq!(p.outputs, ["3v2.sktb", "2v3.sktb"]);
/// // Captures lead to 1v3 (from 3v2) and 2v2 (from 2v3).
/// let needs: Vec<String> = p.depends_on.iter().map(|d| d.to_string()).collect();
/// assert_eq!(needs, ["3v1", "2v2"]);
/// assert_eq!(p.inputs, ["3v1.sktb", "1v3.sktb", "2v2.sktb"]);
/// assert_eq!(p.positions(), p.slots.iter().sum::<u64>());
/// assert_eq!(p.memory_request_mib(), MIN_MEMORY_MIB);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PairPlan {
    /// The pair.
    pub pair: Pair,
    /// Its classes ([`Pair::classes`]).
    pub classes: Vec<Material>,
    /// The slots of each class's index, in the order of `classes`.
    pub slots: Vec<u64>,
    /// The pairs whose tables it needs ([`Pair::dependencies`]).
    pub depends_on: Vec<Pair>,
    /// The file names of the tables it writes, in the order of `classes`
    /// ([`Pair::file_names`]).
    pub outputs: Vec<String>,
    /// The file names of the tables it needs: each pair's of `depends_on`
    /// in turn, in the order of that pair's classes.
    pub inputs: Vec<String>,
    /// Estimated peak memory of its process ([`memory_bytes`]; when
    /// `mapped`, the settings' memory limit).
    pub memory_bytes: u64,
    /// Whether its state is mapped from work files (it does not fit the
    /// settings' memory limit in memory, and does mapped:
    /// [`mapped_memory_bytes`]).
    pub mapped: bool,
    /// Bytes of its work files when `mapped` ([`work_bytes`]; reserved,
    /// removed when it is done), else 0.
    pub work_bytes: u64,
    /// How many windows its passes work through when `mapped` within the
    /// settings' limit ([`windows`]; 1: each class whole).
    pub windows: u64,
    /// Estimated bytes of its table files ([`disk_bytes`]).
    pub disk_bytes: u64,
    /// Estimated seconds ([`seconds`]).
    pub seconds: f64,
}

impl PairPlan {
    /// The plan of one pair.
    #[must_use]
    pub fn new(pair: Pair, settings: Settings) -> PairPlan {
        let classes = pair.classes();
        let in_memory = memory_bytes(pair, settings);
        let mapped_need = mapped_memory_bytes(pair, settings);
        let mapped = settings
            .memory_limit
            .is_some_and(|limit| in_memory > limit && mapped_need <= limit);
        let windows = match settings.memory_limit {
            Some(limit) if mapped => self::windows(pair, settings, limit),
            _ => 1,
        };
        PairPlan {
            pair,
            slots: classes.iter().map(|&m| settings.scheme.size(m)).collect(),
            classes,
            depends_on: pair.dependencies(),
            outputs: pair.file_names(),
            inputs: pair
                .dependencies()
                .into_iter()
                .flat_map(Pair::file_names)
                .collect(),
            memory_bytes: match settings.memory_limit {
                Some(limit) if mapped => limit,
                _ => in_memory,
            },
            mapped,
            work_bytes: if mapped {
                work_bytes(pair, settings.scheme)
            } else {
                0
            },
            windows,
            disk_bytes: pair
                .classes()
                .into_iter()
                .map(|m| disk_bytes(m, settings.scheme, settings.format))
                .sum(),
            seconds: seconds(pair, settings) * window_time_factor(windows),
        }
    }

    /// Positions: the slots of both classes.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.slots.iter().sum()
    }

    /// The memory to ask a scheduler for, in MiB: the estimate times
    /// [`MEMORY_MARGIN`], at least [`MIN_MEMORY_MIB`].
    #[must_use]
    pub fn memory_request_mib(&self) -> u64 {
        let mib = (self.memory_bytes as f64 * MEMORY_MARGIN / (1u64 << 20) as f64).ceil();
        (mib as u64).max(MIN_MEMORY_MIB)
    }

    /// The time limit to ask a scheduler for, in minutes: the estimate
    /// times [`TIME_MARGIN`], at least [`MIN_TIME_LIMIT_MINUTES`].
    #[must_use]
    pub fn time_limit_minutes(&self) -> u64 {
        ((self.seconds * TIME_MARGIN / 60.0).ceil() as u64).max(MIN_TIME_LIMIT_MINUTES)
    }
}

/// Sums over the pairs of one piece count (or all): [`Plan::totals`].
///
/// # Examples
///
/// ```
/// use surakarta_tablebase::plan::{Plan, Settings};
///
/// let plan = Plan::new(4, Settings::default())?;
/// let all = plan.totals(None);
/// let four = plan.totals(Some(4));
/// // 1v1, 2v1, 3v1 and 2v2: two of them with 4 pieces.
/// assert_eq!((all.pairs, four.pairs), (4, 2));
/// assert!(four.positions < all.positions && four.seconds <= all.seconds);
/// # Ok::<(), surakarta_tablebase::plan::PlanError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Totals {
    /// Number of pairs.
    pub pairs: usize,
    /// Positions (slots) of all their classes.
    pub positions: u64,
    /// Bytes of all their files.
    pub disk_bytes: u64,
    /// Seconds, one pair after another.
    pub seconds: f64,
    /// The largest peak memory of one pair.
    pub max_memory_bytes: u64,
}

/// Every pair up to a piece count, in dependency order, with estimates:
/// the data a workflow file is written from (`surakarta tb plan` writes a
/// Snakefile, a Makefile or a Slurm script from it).
///
/// # Examples
///
/// ```
/// use surakarta_tablebase::plan::{Plan, PlanError, Settings};
///
/// let plan = Plan::new(5, Settings::default())?;
/// // Each pair comes after the pairs it needs.
/// for (i, p) in plan.pairs.iter().enumerate() {
///     assert!(p.depends_on.iter().all(|d| plan.pairs[..i].iter().any(|q| q.pair == *d)));
/// }
/// // With a machine per pair, the longest chain of dependencies decides.
/// assert!(plan.critical_path_seconds() <= plan.totals(None).seconds);
/// assert_eq!(Plan::new(25, Settings::default()), Err(PlanError::Pieces(25)));
/// # Ok::<(), PlanError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The largest piece count.
    pub pieces: u32,
    /// How the tables are made.
    pub settings: Settings,
    /// The pairs with 2 to `pieces` pieces, each after its dependencies.
    pub pairs: Vec<PairPlan>,
}

impl Plan {
    /// The plan for every class with 2 to `pieces` pieces.
    pub fn new(pieces: u32, settings: Settings) -> Result<Plan, PlanError> {
        if !(2..=MAX_PIECES).contains(&pieces) {
            return Err(PlanError::Pieces(pieces));
        }
        if !(format::OLDEST_VERSION..=format::FORMAT_VERSION).contains(&settings.format) {
            return Err(PlanError::Format(settings.format));
        }
        if settings.threads == 0 {
            return Err(PlanError::Threads);
        }
        Ok(Plan {
            pieces,
            settings,
            pairs: Pair::all(pieces)
                .into_iter()
                .map(|p| PairPlan::new(p, settings))
                .collect(),
        })
    }

    /// Sums over the pairs with exactly `pieces` pieces, or over all with
    /// `None`.
    #[must_use]
    pub fn totals(&self, pieces: Option<u32>) -> Totals {
        let mut t = Totals::default();
        for p in &self.pairs {
            if pieces.is_some_and(|n| n != p.pair.pieces()) {
                continue;
            }
            t.pairs += 1;
            t.positions += p.positions();
            t.disk_bytes += p.disk_bytes;
            t.seconds += p.seconds;
            t.max_memory_bytes = t.max_memory_bytes.max(p.memory_bytes);
        }
        t
    }

    /// The least wall time with as many machines as pairs can run at
    /// once: the longest chain of estimated seconds through the
    /// dependencies (each pair starts when its last dependency ends).
    #[must_use]
    pub fn critical_path_seconds(&self) -> f64 {
        let mut finish: Vec<f64> = Vec::with_capacity(self.pairs.len());
        for p in &self.pairs {
            let start = p
                .depends_on
                .iter()
                .filter_map(|d| self.pairs.iter().position(|q| q.pair == *d))
                .map(|i| finish[i])
                .fold(0.0, f64::max);
            finish.push(start + p.seconds);
        }
        finish.into_iter().fold(0.0, f64::max)
    }
}

/// Estimated bytes of a class's table file: format 1 exactly (a byte per
/// slot and the header), format 2 by the measured ratios
/// ([`FORMAT2_STRONG_BYTES_PER_SLOT`], [`FORMAT2_WEAK_BYTES_PER_SLOT`]).
#[must_use]
pub fn disk_bytes(material: Material, scheme: Scheme, format: u16) -> u64 {
    let slots = scheme.size(material);
    let body = if format == 1 {
        slots
    } else {
        let ratio = if material.us() > material.them() {
            FORMAT2_STRONG_BYTES_PER_SLOT
        } else {
            FORMAT2_WEAK_BYTES_PER_SLOT
        };
        (slots as f64 * ratio).ceil() as u64
    };
    body + HEADER_LEN as u64
}

/// Estimated seconds to generate a pair on `settings.threads` threads:
/// slots over [`GENERATION_RATE`] per thread, plus slots over
/// [`COMPACTION_RATE`] per thread for format 2. Reading and expanding the
/// dependencies is left out (it is far faster than generating).
#[must_use]
pub fn seconds(pair: Pair, settings: Settings) -> f64 {
    let slots: u64 = pair
        .classes()
        .iter()
        .map(|&m| settings.scheme.size(m))
        .sum();
    let threads = f64::from(settings.threads.max(1));
    let mut rate = 1.0 / GENERATION_RATE;
    if settings.format != 1 {
        rate += 1.0 / COMPACTION_RATE;
    }
    slots as f64 * rate / threads
}

/// Estimated peak memory of generating a pair
/// ([`generate_pair`](crate::generate_pair)), in bytes: the larger of its
/// two phases, plus the occupancy directories and [`PROCESS_BYTES`].
///
/// - **solving**: a byte per slot of each class (the values) and two bits
///   per slot (the bitmaps of candidates and of captures into draws, in
///   64-bit words), plus the tables its
///   captures reach, a byte per slot each (read, or expanded from format
///   2: generation probes them all the time);
/// - **writing**: the values and the tables captures reach, plus for format
///   2 the working memory of compacting the class that needs most
///   ([`compaction_bytes`]: 5 bytes per slot up to [`STREAMING_ABOVE`]
///   slots, a fraction of a byte above; format 1 reads the written file
///   back in pieces to check it);
/// - **directories** (symmetric scheme): a bit per `n`-point set in
///   64-byte blocks of 448 bits (`C(36, n) / 7` bytes) for the
///   pair's `n` pieces, for `n - 1` (the dependencies) and, when they are
///   compact, for `n - 2` (what expanding them probes; those tables are
///   read compact and dropped before solving starts, so they are not
///   counted).
#[must_use]
pub fn memory_bytes(pair: Pair, settings: Settings) -> u64 {
    let size = |m: Material| settings.scheme.size(m);
    let values: u64 = pair.classes().into_iter().map(size).sum();
    let bitmaps: u64 = pair
        .classes()
        .into_iter()
        .map(|m| size(m).div_ceil(64) * 8 * 2)
        .sum();
    let (dependencies, compaction) = tables_and_compaction_bytes(pair, settings);
    let solving = values + bitmaps + dependencies;
    let writing = values + dependencies + if settings.format == 1 { 0 } else { compaction };
    solving.max(writing) + directories_bytes(pair, settings) + PROCESS_BYTES
}

/// The bytes of the tables a pair's captures reach (a byte per slot) and of
/// compacting the class of the pair that needs most ([`compaction_bytes`]).
fn tables_and_compaction_bytes(pair: Pair, settings: Settings) -> (u64, u64) {
    let size = |m: Material| settings.scheme.size(m);
    let dependencies = pair.capture_targets().into_iter().map(size).sum();
    let compaction = pair
        .classes()
        .into_iter()
        .map(|m| compaction_bytes(size(m)))
        .max()
        .unwrap_or(0);
    (dependencies, compaction)
}

/// The least memory a pair whose state is mapped from work files
/// ([`Storage::Mapped`](crate::Storage::Mapped)) is given room for beyond
/// what must stay resident: the pages of values, bitmaps and tables the
/// solver works on at a time.
pub const MAPPED_FLOOR_BYTES: u64 = 8 << 20;

/// What must stay resident when a pair is generated with its state (values
/// and bitmaps) in work files mapped from the tables' directory, paged by
/// the kernel ([`Storage::Mapped`](crate::Storage::Mapped)), in bytes:
/// [`PROCESS_BYTES`], the occupancy directories (as in [`memory_bytes`])
/// and [`MAPPED_FLOOR_BYTES`]; for format 2 also the tables its captures
/// reach (read compact and expanded into memory) and compacting the class
/// that needs most ([`compaction_bytes`]). In format 1 the tables captures
/// reach are mapped from their files and paged like the state.
///
/// A pair generated that way is given the memory limit (at least this)
/// and its work files take [`work_bytes`] on disk beside the tables.
#[must_use]
pub fn mapped_memory_bytes(pair: Pair, settings: Settings) -> u64 {
    let resident_tables = if settings.format == 1 {
        0
    } else {
        let (dependencies, compaction) = tables_and_compaction_bytes(pair, settings);
        dependencies + compaction
    };
    resident_tables + directories_bytes(pair, settings) + PROCESS_BYTES + MAPPED_FLOOR_BYTES
}

/// The least slots of a window (see [`window_slots`]).
pub const MIN_WINDOW_SLOTS: u64 = 1 << 20;

/// What a mapped pair's process holds beyond its maps and the occupancy
/// directories, for sizing its windows ([`window_slots`]): code, thread
/// stacks and buffers. Measured: 4v4 in memory peaks at 2–5 MB above its
/// values, bitmaps and the table captures reach; rounded up.
/// ([`PROCESS_BYTES`] is what the refusal and the scheduler's request
/// count, with a margin.)
pub const WINDOW_PROCESS_BYTES: u64 = 16 << 20;

/// The share of the room (the limit less what stays resident) a window
/// takes: a value byte and a candidate bit per slot. The rest holds the
/// pages read in order and those being written back. Measured on 4v4 in
/// a cgroup: at 256 MiB windows of 0.66 of the room took 1.35 times the
/// time in memory, of 0.44 1.7 times; at 128 MiB 0.52 took 4.1 times,
/// 0.26 6.7 times, and 1.0 more than 7.5 times (stopped).
pub const WINDOW_SHARE: f64 = 2.0 / 3.0;

/// The slots of the windows a pair whose state is mapped
/// ([`Storage::Mapped`](crate::Storage::Mapped)) works through each
/// partner class (and, in format 1, each table captures reach) in when
/// given `limit` bytes, or `None` if the largest of those fits the room
/// whole.
///
/// The room is the limit less what stays resident
/// ([`mapped_memory_bytes`] with [`WINDOW_PROCESS_BYTES`] for the
/// process). While the largest class's random reads and writes (a value
/// byte and a candidate bit per slot) fit it, the page cache keeps them
/// and windows would only cost time. Beyond, the solver reads and writes
/// the partner only inside a window at a time, reading its own slots in
/// order, once per window: windows of at most [`WINDOW_SHARE`] of the
/// room, as few as that allows, of equal size.
#[must_use]
pub fn window_slots(pair: Pair, settings: Settings, limit: u64) -> Option<u64> {
    let resident = mapped_memory_bytes(pair, settings) - PROCESS_BYTES + WINDOW_PROCESS_BYTES;
    let room = limit.saturating_sub(resident) as f64;
    let mut paged = pair.classes();
    if settings.format == 1 {
        paged.extend(pair.capture_targets());
    }
    let largest = paged
        .into_iter()
        .map(|m| settings.scheme.size(m))
        .max()
        .unwrap_or(0);
    equal_windows(largest, room, 1.125)
}

/// Windows over `largest` slots within `room` bytes at `bytes_per_slot`:
/// `None` if it fits whole, else the slots of as few equal windows as keep
/// each within [`WINDOW_SHARE`] of the room (at least
/// [`MIN_WINDOW_SLOTS`]). What [`window_slots`] and
/// [`Tablebase::verify_window_slots`](crate::Tablebase::verify_window_slots)
/// share.
#[must_use]
pub fn equal_windows(largest: u64, room: f64, bytes_per_slot: f64) -> Option<u64> {
    if largest as f64 * bytes_per_slot <= room {
        return None;
    }
    let most = ((room * WINDOW_SHARE / bytes_per_slot) as u64).max(MIN_WINDOW_SLOTS);
    let windows = largest.div_ceil(most);
    Some(largest.div_ceil(windows).max(MIN_WINDOW_SLOTS))
}

/// `0..size` cut into consecutive windows of `slots` slots (the last one
/// shorter; one window if `slots` is 0 or at least `size`): the ranges the
/// solver and the verifier work through.
pub(crate) fn window_ranges(size: u64, slots: u64) -> Vec<std::ops::Range<u64>> {
    let step = if slots == 0 {
        size.max(1)
    } else {
        slots.min(size.max(1))
    };
    (0..size.div_ceil(step))
        .map(|w| w * step..((w + 1) * step).min(size))
        .collect()
}

/// Each window beyond the first that a pair's passes work through adds
/// this fraction of its time in memory: the first pass's captures and the
/// level passes look at their own positions once per window, the rest is
/// done once, and each window's pages are read from disk again. Measured
/// on 4v4 (format 1, 2 threads, in a cgroup of the limit): 4 windows at
/// 256 MiB took 1.75–2.1 times the time in memory (0.25–0.37 a window),
/// 12 windows at 128 MiB 6.7 times (0.52 a window); rounded to the
/// larger (docs/tablebase.md, "Generation within a memory limit").
pub const WINDOW_TIME: f64 = 0.5;

/// The factor [`WINDOW_TIME`] gives a pair worked through in `windows`
/// windows: `1 + WINDOW_TIME · (windows − 1)`.
#[must_use]
pub fn window_time_factor(windows: u64) -> f64 {
    1.0 + WINDOW_TIME * windows.saturating_sub(1) as f64
}

/// How many windows of [`window_slots`] each pass of a pair mapped within
/// `limit` bytes works through, at most (1: each class whole).
#[must_use]
pub fn windows(pair: Pair, settings: Settings, limit: u64) -> u64 {
    let Some(slots) = window_slots(pair, settings, limit) else {
        return 1;
    };
    pair.classes()
        .into_iter()
        .map(|m| settings.scheme.size(m).div_ceil(slots))
        .max()
        .unwrap_or(1)
}

/// The bytes of a pair's work files when its state is mapped
/// ([`mapped_memory_bytes`]): a byte per slot and two bitmaps per class,
/// each part rounded up to 64 KiB. They are reserved when made and
/// removed when the pair is done.
#[must_use]
pub fn work_bytes(pair: Pair, scheme: Scheme) -> u64 {
    pair.classes()
        .into_iter()
        .map(|m| crate::generate::store::work_file_bytes(scheme.size(m)))
        .sum()
}

/// The occupancy directories a pair's generation holds (symmetric scheme;
/// see [`memory_bytes`]).
fn directories_bytes(pair: Pair, settings: Settings) -> u64 {
    let n = pair.pieces();
    match settings.scheme {
        Scheme::Plain => 0,
        Scheme::Symmetric => {
            // 64-byte blocks of 448 bits (surakarta-index's directory).
            let bitmap = |pieces: u32| binomial36(pieces).div_ceil(448) * 64;
            let mut bytes = bitmap(n) + bitmap(n - 1);
            if settings.format != 1 && n >= 3 {
                bytes += bitmap(n - 2);
            }
            bytes
        }
    }
}

/// `C(36, k)`: the number of `k`-point sets, by the product formula (fits
/// `u64`: `C(36, 18) < 2^34`).
fn binomial36(k: u32) -> u64 {
    (0..u64::from(k.min(36))).fold(1u64, |acc, i| acc * (36 - i) / (i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::human_bytes;

    fn pair(s: &str) -> Pair {
        s.parse().unwrap()
    }

    #[test]
    fn plans_up_to_24_pieces_are_ordered_and_do_not_overflow() {
        for pieces in [2, 5, 12, 24] {
            let plan = Plan::new(pieces, Settings::default()).unwrap();
            assert_eq!(plan.pairs.len(), Pair::all(pieces).len());
            let t = plan.totals(None);
            assert!(t.positions > 0 && t.seconds > 0.0);
            for (i, p) in plan.pairs.iter().enumerate() {
                for d in &p.depends_on {
                    assert!(plan.pairs[..i].iter().any(|q| q.pair == *d));
                }
                // What a pair reads is what its dependencies wrote.
                let written: Vec<String> = p
                    .depends_on
                    .iter()
                    .flat_map(|d| plan.pairs[..i].iter().find(|q| q.pair == *d))
                    .flat_map(|q| q.outputs.iter().cloned())
                    .collect();
                assert_eq!(p.inputs, written, "{}", p.pair);
                assert_eq!(p.outputs.len(), p.classes.len());
            }
        }
        // The longest chain: at least the largest pair, at most everything.
        let plan = Plan::new(8, Settings::default()).unwrap();
        let path = plan.critical_path_seconds();
        let t = plan.totals(None);
        let largest = plan.pairs.iter().map(|p| p.seconds).fold(0.0, f64::max);
        assert!(
            path >= largest && path < t.seconds,
            "{path} {largest} {}",
            t.seconds
        );
        // 1v1 → 2v1 → {3v1, 2v2}; 4v1 waits for 3v1, 3v2 for both.
        let plan = Plan::new(5, Settings::default()).unwrap();
        let s = |name: &str| {
            plan.pairs
                .iter()
                .find(|p| p.pair.to_string() == name)
                .unwrap()
                .seconds
        };
        let two_one = s("1v1") + s("2v1");
        let expected =
            (two_one + s("3v1") + s("4v1")).max(two_one + s("3v1").max(s("2v2")) + s("3v2"));
        assert!((plan.critical_path_seconds() - expected).abs() < 1e-9);
        assert_eq!(Plan::new(1, Settings::default()), Err(PlanError::Pieces(1)));
        assert_eq!(
            Plan::new(25, Settings::default()),
            Err(PlanError::Pieces(25))
        );
        let bad = Settings {
            format: 3,
            ..Settings::default()
        };
        assert_eq!(Plan::new(5, bad), Err(PlanError::Format(3)));
        let none = Settings {
            threads: 0,
            ..Settings::default()
        };
        assert_eq!(Plan::new(5, none), Err(PlanError::Threads));
    }

    /// Within 1 GiB in format 1, the 9-piece pairs that do not fit in
    /// memory are mapped, the large ones worked through in equal windows
    /// of at most two thirds of the room, and their time grows by
    /// [`WINDOW_TIME`] a window.
    #[test]
    fn nine_pieces_in_one_gib_are_planned_in_windows() {
        let limit = 1 << 30;
        let settings = Settings {
            format: 1,
            memory_limit: Some(limit),
            ..Settings::default()
        };
        let resident =
            mapped_memory_bytes(pair("5v4"), settings) - PROCESS_BYTES + WINDOW_PROCESS_BYTES;
        let room = (limit - resident) as f64;
        let slots = window_slots(pair("5v4"), settings, limit).unwrap();
        // 1,483,321,140 slots a class, in three equal windows.
        assert_eq!(slots, 1_483_321_140u64.div_ceil(3));
        assert!(slots as f64 * 1.125 <= room * WINDOW_SHARE);
        assert!(1_483_321_140u64.div_ceil(2) as f64 * 1.125 > room * WINDOW_SHARE);
        let p = PairPlan::new(pair("5v4"), settings);
        assert!(p.mapped && p.memory_bytes == limit);
        assert_eq!(p.windows, 3);
        let whole = seconds(pair("5v4"), settings);
        assert!((p.seconds - whole * (1.0 + 2.0 * WINDOW_TIME)).abs() < 1e-6);
        // 6v3 in two windows; 7v2 is mapped, but its classes fit the room.
        assert_eq!(PairPlan::new(pair("6v3"), settings).windows, 2);
        let r = PairPlan::new(pair("7v2"), settings);
        assert!(r.mapped && r.windows == 1);
        // 8v1 fits in memory: whole, no windows.
        let q = PairPlan::new(pair("8v1"), settings);
        assert!(!q.mapped && q.windows == 1);
        // Without a limit, or with one the largest class fits: no windows.
        assert_eq!(window_slots(pair("5v4"), settings, 64 << 30), None);
        assert_eq!(windows(pair("5v4"), settings, 64 << 30), 1);
    }

    #[test]
    fn the_model_by_hand_for_4v4() {
        // 4v4: 265,030,080 slots; captures lead to 3v4 (36,566,496 slots).
        let settings = Settings {
            format: 1,
            ..Settings::default()
        };
        let p = PairPlan::new(pair("4v4"), settings);
        assert_eq!(p.slots, [265_030_080]);
        assert_eq!(p.disk_bytes, 265_030_080 + 128);
        let three_four = Scheme::Symmetric.size("3v4".parse().unwrap());
        let directories = 30_260_340u64.div_ceil(448) * 64 + 8_347_680u64.div_ceil(448) * 64;
        let solving = 265_030_080 + 265_030_080 / 64 * 8 * 2 + three_four;
        // Writing format 1 reads the file back in pieces: solving is more.
        let writing = 265_030_080 + three_four;
        assert!(solving > writing);
        assert_eq!(p.memory_bytes, solving + directories + PROCESS_BYTES);
        assert!((p.seconds - 265_030_080.0 / GENERATION_RATE / 2.0).abs() < 1e-6);
        // Format 2: compaction's working memory dominates, and takes time.
        let p2 = PairPlan::new(pair("4v4"), Settings::default());
        let writing = 265_030_080 * (1 + COMPACTION_BYTES_PER_SLOT) + three_four;
        let directories2 = directories + 1_947_792u64.div_ceil(448) * 64;
        assert_eq!(p2.memory_bytes, writing + directories2 + PROCESS_BYTES);
        assert!(p2.seconds > p.seconds);
        assert_eq!(
            p2.disk_bytes,
            (265_030_080.0 * FORMAT2_WEAK_BYTES_PER_SLOT).ceil() as u64 + 128
        );
        assert!(p2.memory_request_mib() as f64 * 1048576.0 >= p2.memory_bytes as f64 * 1.25);
        // 76 s solving and 83 s compacting, times 3: 476 s, under the
        // 10-minute floor.
        assert!((p2.seconds - 158.5).abs() < 1.0, "{}", p2.seconds);
        assert_eq!(p2.time_limit_minutes(), MIN_TIME_LIMIT_MINUTES);
        assert_eq!(
            PairPlan::new(pair("2v1"), settings).time_limit_minutes(),
            MIN_TIME_LIMIT_MINUTES
        );
    }

    #[test]
    fn a_pair_over_the_limit_is_planned_mapped_when_that_fits() {
        let settings = Settings {
            format: 1,
            ..Settings::default()
        };
        let p = PairPlan::new(pair("4v4"), settings);
        assert!(!p.mapped && p.work_bytes == 0);
        let limit = 256 << 20;
        let bounded = Settings {
            memory_limit: Some(limit),
            ..settings
        };
        let q = PairPlan::new(pair("4v4"), bounded);
        assert!(q.mapped && p.memory_bytes > limit);
        assert_eq!(q.memory_bytes, limit);
        // A byte per slot and two bitmaps, each part rounded up to 64 KiB.
        let slots = 265_030_080u64;
        let words = slots.div_ceil(64) * 8;
        assert_eq!(
            q.work_bytes,
            slots.next_multiple_of(1 << 16) + 2 * words.next_multiple_of(1 << 16)
        );
        assert_eq!(q.disk_bytes, p.disk_bytes);
        // Below even what must stay resident: planned in memory (and
        // refused when run).
        let tiny = Settings {
            memory_limit: Some(mapped_memory_bytes(pair("4v4"), settings) - 1),
            ..settings
        };
        assert!(!PairPlan::new(pair("4v4"), tiny).mapped);
        // Format 2 keeps the expanded dependencies and compaction resident:
        // 4v4 does not fit 256 MiB even mapped.
        let compact = Settings {
            memory_limit: Some(limit),
            ..Settings::default()
        };
        assert!(!PairPlan::new(pair("4v4"), compact).mapped);
    }

    #[test]
    fn big_classes_compact_by_streaming_and_ten_pieces_fit_20_gib() {
        // Up to the threshold, 5 bytes per slot; above it a fraction.
        assert_eq!(
            compaction_bytes(STREAMING_ABOVE),
            COMPACTION_BYTES_PER_SLOT * STREAMING_ABOVE
        );
        // Above it, less than the whole-class path would take.
        let big = STREAMING_ABOVE + 1;
        assert!(compaction_bytes(big) < COMPACTION_BYTES_PER_SLOT * big);
        const { assert!(STREAMING_BYTES_PER_SLOT < 1.0) };
        // Every class of up to 8 pieces is compacted whole (byte-identical
        // files); 4v4 is the largest.
        assert!(Scheme::Symmetric.size("4v4".parse().unwrap()) <= STREAMING_ABOVE);
        let plan = Plan::new(10, Settings::default()).unwrap();
        let limit = 20u64 << 30;
        for p in &plan.pairs {
            assert!(
                p.memory_bytes < limit,
                "{}: {}",
                p.pair,
                human_bytes(p.memory_bytes)
            );
        }
        // 6v4 + 4v6: the writing phase (values, dependencies, streaming
        // compaction of a 6.67 G-slot class) is the peak.
        let p = plan.pairs.iter().find(|p| p.pair == pair("6v4")).unwrap();
        let values: u64 = p.slots.iter().sum();
        let dependencies: u64 = pair("6v4")
            .capture_targets()
            .into_iter()
            .map(|m| Scheme::Symmetric.size(m))
            .sum();
        let writing = values + dependencies + compaction_bytes(p.slots[0]);
        assert!(p.memory_bytes > writing && p.memory_bytes < writing + (1 << 30));
    }
}
