//! One material class's table in memory, and the index over either scheme.

use crate::error::{file_error, TablebaseError};
use crate::files::atomic::TempFile;
use crate::format::compact::Compact;
use crate::format::compact::ContextModel;
use crate::format::{self, ClassStats, CompactShape, FileProblem, Header, HEADER_LEN};
use crate::value::{Value, Wdl, MAX_DTC};
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use surakarta::{Bitboard, Square};
use surakarta_index::{
    IndexError, Indexer, Material, OccupancyDirectory, OccupancyImages, OccupancyRank,
    PlainIndexer, Ranked, Scheme, SideImages, Sides, StepRanks, SymmetricIndexer,
};

/// The index of one class in either scheme.
#[derive(Clone, Debug)]
pub enum TableIndexer {
    /// The plain combinatorial index.
    Plain(PlainIndexer),
    /// The symmetry-reduced index.
    Symmetric(SymmetricIndexer),
}

impl TableIndexer {
    /// The indexer of `material` in `scheme`, taking the occupancy directory
    /// from (or adding it to) `directories`.
    #[must_use]
    pub fn new(material: Material, scheme: Scheme, directories: &mut Directories) -> TableIndexer {
        match scheme {
            Scheme::Plain => TableIndexer::Plain(PlainIndexer::new(material)),
            Scheme::Symmetric => {
                let directory = directories.get(material.pieces());
                match SymmetricIndexer::with_directory(material, directory) {
                    Ok(indexer) => TableIndexer::Symmetric(indexer),
                    Err(_) => unreachable!("the directory has the material's piece count"),
                }
            }
        }
    }

    /// The scheme.
    #[must_use]
    pub fn scheme(&self) -> Scheme {
        match self {
            TableIndexer::Plain(_) => Scheme::Plain,
            TableIndexer::Symmetric(_) => Scheme::Symmetric,
        }
    }

    /// Calls `f(index, sides)` for every used slot with index in
    /// `start..end`, in index order.
    pub fn for_each_in(&self, start: u64, end: u64, mut f: impl FnMut(u64, Sides)) {
        let end = end.min(self.size());
        if start >= end {
            return;
        }
        match self {
            TableIndexer::Plain(p) => {
                if let Ok(walk) = p.positions_from(start) {
                    for (index, sides) in (start..end).zip(walk) {
                        f(index, sides);
                    }
                }
            }
            TableIndexer::Symmetric(s) => {
                if let Ok(walk) = s.positions_from(start) {
                    for (index, sides) in walk.take_while(|&(i, _)| i < end) {
                        f(index, sides);
                    }
                }
            }
        }
    }

    /// Calls `f(index)` for every unused slot with index in `start..end`,
    /// in index order (the plain scheme has none).
    pub fn for_each_unused_in(&self, start: u64, end: u64, f: impl FnMut(u64)) {
        match self {
            TableIndexer::Plain(_) => {}
            TableIndexer::Symmetric(s) => s.for_each_unused_in(start, end, f),
        }
    }

    /// The position of the first used slot with index in `start..end`, if
    /// there is one (symmetric indexes leave some slots unused).
    #[must_use]
    pub fn first_in(&self, start: u64, end: u64) -> Option<Sides> {
        if start >= end.min(self.size()) {
            return None;
        }
        match self {
            TableIndexer::Plain(p) => p.positions_from(start).ok()?.next(),
            TableIndexer::Symmetric(s) => s
                .positions_from(start)
                .ok()?
                .next()
                .filter(|&(index, _)| index < end)
                .map(|(_, sides)| sides),
        }
    }
}

impl TableIndexer {
    /// A ranker of the positions of this class where `mover` has made one
    /// step and `other` is unchanged; the side to move is `mover` if
    /// `mover_is_us`, else `other`. The sets must fit the class once a
    /// step is made.
    #[inline]
    #[must_use]
    pub fn step_ranks(
        &self,
        mover: Bitboard,
        other: Bitboard,
        mover_is_us: bool,
    ) -> StepRanker<'_> {
        match self {
            TableIndexer::Plain(indexer) => StepRanker::Plain {
                indexer,
                mover,
                other,
                mover_is_us,
            },
            TableIndexer::Symmetric(s) => {
                StepRanker::Symmetric(s.step_ranks(mover, other, mover_is_us))
            }
        }
    }
}

impl Indexer for TableIndexer {
    fn material(&self) -> Material {
        match self {
            TableIndexer::Plain(p) => p.material(),
            TableIndexer::Symmetric(s) => s.material(),
        }
    }

    fn size(&self) -> u64 {
        match self {
            TableIndexer::Plain(p) => p.size(),
            TableIndexer::Symmetric(s) => s.size(),
        }
    }

    #[inline]
    fn rank(&self, sides: Sides) -> Result<Ranked, IndexError> {
        match self {
            TableIndexer::Plain(p) => p.rank(sides),
            TableIndexer::Symmetric(s) => s.rank(sides),
        }
    }

    fn unrank(&self, index: u64) -> Result<Sides, IndexError> {
        match self {
            TableIndexer::Plain(p) => p.unrank(index),
            TableIndexer::Symmetric(s) => s.unrank(index),
        }
    }
}

impl TableIndexer {
    /// What ranking the positions on the set whose images are `images`
    /// shares, for [`TableIndexer::rank_in`] (nothing in the plain scheme).
    /// The set must hold the class's number of pieces; the result is
    /// unspecified otherwise (checked in debug builds).
    #[inline]
    pub(crate) fn occupancy_rank(&self, images: &OccupancyImages) -> OccupancyRank {
        match self {
            TableIndexer::Plain(_) => OccupancyRank::unshared(images.occupied()),
            TableIndexer::Symmetric(s) => s.occupancy_rank_of(images),
        }
    }

    /// The index of the position on `occupancy`'s points whose side to move
    /// holds `us`; `us` must be a subset of the points with the class's
    /// number of pieces to move (an error in the plain scheme, unspecified
    /// in the symmetric one).
    #[inline]
    pub(crate) fn rank_in(
        &self,
        occupancy: &OccupancyRank,
        us: Bitboard,
    ) -> Result<u64, IndexError> {
        match self {
            TableIndexer::Symmetric(s) => Ok(s.rank_in(occupancy, us)),
            TableIndexer::Plain(p) => Ok(p.rank(Sides::new(us, occupancy.occupied() - us))?.index),
        }
    }

    /// [`TableIndexer::rank_in`] for a side to move ranked on many sets,
    /// its images kept in `us`.
    #[inline]
    pub(crate) fn rank_side_in(
        &self,
        occupancy: &OccupancyRank,
        us: &mut SideImages,
    ) -> Result<u64, IndexError> {
        match self {
            TableIndexer::Symmetric(s) => Ok(s.rank_side_in(occupancy, us)),
            TableIndexer::Plain(_) => self.rank_in(occupancy, us.side()),
        }
    }
}

/// Ranks the positions one step away from a base position, in either
/// scheme (see [`TableIndexer::step_ranks`]).
#[derive(Clone, Debug)]
pub enum StepRanker<'a> {
    /// Each position ranked in full.
    Plain {
        /// The indexer.
        indexer: &'a PlainIndexer,
        /// The side that steps.
        mover: Bitboard,
        /// The other side.
        other: Bitboard,
        /// Whether the side that steps is the side to move.
        mover_is_us: bool,
    },
    /// From the base position's images ([`StepRanks`]).
    Symmetric(StepRanks<'a>),
}

impl StepRanker<'_> {
    /// The index of the position where the mover stepped `from → to`.
    #[inline]
    pub fn rank(&self, from: Square, to: Square) -> Result<u64, IndexError> {
        match self {
            StepRanker::Plain {
                indexer,
                mover,
                other,
                mover_is_us,
            } => {
                let moved = mover.without(from).with(to);
                let sides = if *mover_is_us {
                    Sides::new(moved, *other)
                } else {
                    Sides::new(*other, moved)
                };
                Ok(indexer.rank(sides)?.index)
            }
            StepRanker::Symmetric(ranks) => Ok(ranks.rank(from, to)),
        }
    }
}

/// Occupancy directories by piece count, built on first use and shared.
#[derive(Clone, Debug, Default)]
pub struct Directories {
    by_pieces: HashMap<u32, Arc<OccupancyDirectory>>,
}

impl Directories {
    /// The directory for `pieces`, built (on all cores) if missing.
    pub fn get(&mut self, pieces: u32) -> Arc<OccupancyDirectory> {
        self.by_pieces
            .entry(pieces)
            .or_insert_with(|| {
                let threads = rayon::current_num_threads();
                Arc::new(OccupancyDirectory::build_with_threads(pieces, threads))
            })
            .clone()
    }
}

/// The least slots of a part of [`Table::stored_part`] (small in unit
/// tests, so that small classes have several parts).
const MIN_PART: u64 = if cfg!(test) { 1 << 12 } else { 1 << 20 };

/// How many positions of a class have each value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Histogram {
    /// `wins[d]`: wins in `d` plies.
    pub wins: Vec<u64>,
    /// Draws.
    pub draws: u64,
    /// `losses[d]`: losses in `d` plies.
    pub losses: Vec<u64>,
}

impl Histogram {
    /// Counts the positions of each value in exact value bytes, one per
    /// slot of `indexer` (unused slots skipped), on all cores.
    #[must_use]
    pub fn of(indexer: &TableIndexer, values: &[u8]) -> Histogram {
        histogram_of(indexer, values)
    }

    pub(crate) fn empty() -> Histogram {
        Histogram {
            wins: vec![0; MAX_DTC as usize + 1],
            draws: 0,
            losses: vec![0; MAX_DTC as usize + 1],
        }
    }

    pub(crate) fn add(&mut self, value: Value) {
        self.add_many(value, 1);
    }

    /// Counts `n` positions of `value`.
    pub(crate) fn add_many(&mut self, value: Value, n: u64) {
        match value {
            Value::Win(d) => self.wins[d as usize] += n,
            Value::Draw => self.draws += n,
            Value::Loss(d) => self.losses[d as usize] += n,
        }
    }

    pub(crate) fn merge(mut self, other: Histogram) -> Histogram {
        for (a, b) in self.wins.iter_mut().zip(other.wins) {
            *a += b;
        }
        for (a, b) in self.losses.iter_mut().zip(other.losses) {
            *a += b;
        }
        self.draws += other.draws;
        self
    }

    /// The figures this histogram implies for `material` with `slots` slots.
    #[must_use]
    pub fn stats(&self, material: Material, slots: u64) -> ClassStats {
        let wins: u64 = self.wins.iter().sum();
        let losses: u64 = self.losses.iter().sum();
        let deepest = |v: &[u64]| v.iter().rposition(|&n| n > 0).unwrap_or(0) as u32;
        ClassStats {
            material,
            slots,
            positions: wins + self.draws + losses,
            wins,
            draws: self.draws,
            losses,
            longest: deepest(&self.wins).max(deepest(&self.losses)),
        }
    }
}

/// Where a table's bytes live.
#[derive(Debug)]
enum Storage {
    /// In memory; the payload starts at the offset.
    Owned(Vec<u8>, usize),
    /// A read-only memory map; the payload starts at the offset (a whole
    /// table file's, or a generation's work file of values at 0).
    Mapped(memmap2::Mmap, usize),
}

/// A finished table of one material class, in memory or mapped from a
/// file: one byte per slot ([`Value::to_byte`], format 1) or a compact
/// payload (format 2).
///
/// A compact table may store any win where the value is a win in 1 that a
/// capture proves; [`Tablebase::probe`](crate::probe::tablebase::Tablebase::probe) resolves
/// those, so probe through a [`Tablebase`](crate::probe::tablebase::Tablebase) for exact
/// values.
#[derive(Debug)]
pub struct Table {
    indexer: TableIndexer,
    storage: Storage,
    /// Format 2: the shape and decoding tables of the payload.
    compact: Option<(CompactShape, Box<Compact>)>,
    stats: ClassStats,
    checksum: u32,
    path: Option<PathBuf>,
    /// Whether the payload matches `checksum` (checked on first use for
    /// files; tables built in memory are their own truth).
    intact: OnceLock<bool>,
}

impl Table {
    /// A table from its index and values (one per slot); computes its
    /// figures and checksum.
    pub fn new(indexer: TableIndexer, values: Vec<u8>) -> Result<Table, TablebaseError> {
        Table::of_values(indexer, Storage::Owned(values, 0))
    }

    /// A table from its index and a read-only map of its values (one per
    /// slot, from the start of the map): what generation in mapped work
    /// files ends with. Computes its figures and checksum.
    pub(crate) fn from_mapped_values(
        indexer: TableIndexer,
        map: memmap2::Mmap,
    ) -> Result<Table, TablebaseError> {
        Table::of_values(indexer, Storage::Mapped(map, 0))
    }

    /// A format 1 table of the value bytes in `storage`.
    fn of_values(indexer: TableIndexer, storage: Storage) -> Result<Table, TablebaseError> {
        let values = match &storage {
            Storage::Owned(bytes, offset) => &bytes[*offset..],
            Storage::Mapped(map, offset) => &map[*offset..],
        };
        if values.len() as u64 != indexer.size() {
            return Err(TablebaseError::SizeMismatch {
                material: indexer.material(),
                expected: indexer.size(),
                found: values.len() as u64,
            });
        }
        let stats = histogram_of(&indexer, values).stats(indexer.material(), indexer.size());
        let checksum = format::checksum(values);
        Ok(Table {
            indexer,
            storage,
            compact: None,
            stats,
            checksum,
            path: None,
            intact: OnceLock::from(true),
        })
    }

    /// A format 1 table from its values and the figures claimed for them
    /// (not recomputed: a copy of a file's table keeps its header's).
    pub(crate) fn with_stats(
        indexer: TableIndexer,
        values: Vec<u8>,
        stats: ClassStats,
    ) -> Result<Table, TablebaseError> {
        let mut table = Table::new(indexer, values)?;
        table.stats = stats;
        Ok(table)
    }

    /// A format 2 table from its index, figures and compact body.
    pub(crate) fn from_compact(
        indexer: TableIndexer,
        stats: ClassStats,
        shape: CompactShape,
        body: Vec<u8>,
    ) -> Result<Table, TablebaseError> {
        let compact = Compact::parse(shape, indexer.size(), &body)
            .map_err(|p| file_error(Path::new("(memory)"), p))?;
        let checksum = format::checksum(&body);
        Ok(Table {
            indexer,
            storage: Storage::Owned(body, 0),
            compact: Some((shape, Box::new(compact))),
            stats,
            checksum,
            path: None,
            intact: OnceLock::from(true),
        })
    }

    /// Reads a table file into memory. The header is checked at once, the
    /// payload checksum on first use (or with [`Table::check`]).
    pub fn read(path: &Path, directories: &mut Directories) -> Result<Table, TablebaseError> {
        let bytes = crate::files::open::read_table_file(path).map_err(|p| file_error(path, p))?;
        let header = Header::parse(&bytes, bytes.len() as u64).map_err(|p| file_error(path, p))?;
        Table::from_parts(path, header, Storage::Owned(bytes, HEADER_LEN), directories)
    }

    /// Maps a table file into memory. The header is checked at once, the
    /// payload checksum on first use (or with [`Table::check`]).
    ///
    /// # Safety
    ///
    /// The file must not be changed or truncated while the table exists:
    /// the map would change under the reader (a truncation can end the
    /// process with `SIGBUS`).
    #[allow(unsafe_code)]
    pub unsafe fn map(path: &Path, directories: &mut Directories) -> Result<Table, TablebaseError> {
        let file = crate::files::open::open_table_file(path).map_err(|p| file_error(path, p))?;
        // SAFETY: the caller promises the file does not change while mapped;
        // the map is read-only and lives as long as the table.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| file_error(path, e.into()))?;
        let header = Header::parse(&map, map.len() as u64).map_err(|p| file_error(path, p))?;
        Table::from_parts(path, header, Storage::Mapped(map, HEADER_LEN), directories)
    }

    /// A table from the bytes of a whole file (what [`Table::read`] does
    /// after reading); `name` is used in errors. Checks everything,
    /// including the payload checksum, and where `name` is a table file's
    /// name (`4v3.sktb`) that the file holds that class
    /// ([`FileProblem::WrongMaterial`] otherwise).
    pub fn from_file_bytes(
        name: &Path,
        bytes: Vec<u8>,
        directories: &mut Directories,
    ) -> Result<Table, TablebaseError> {
        let header = Header::parse(&bytes, bytes.len() as u64).map_err(|p| file_error(name, p))?;
        let table =
            Table::from_parts(name, header, Storage::Owned(bytes, HEADER_LEN), directories)?;
        table.check()?;
        let named = name
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(&format!(".{}", crate::format::EXTENSION)))
            .and_then(|stem| stem.parse::<Material>().ok());
        match named {
            Some(expected) if expected != table.material() => Err(file_error(
                name,
                FileProblem::WrongMaterial {
                    expected,
                    found: table.material(),
                },
            )),
            _ => Ok(table),
        }
    }

    fn from_parts(
        path: &Path,
        header: Header,
        storage: Storage,
        directories: &mut Directories,
    ) -> Result<Table, TablebaseError> {
        let material = header.stats.material;
        let indexer = TableIndexer::new(material, header.scheme, directories);
        if indexer.size() != header.stats.slots {
            return Err(file_error(
                path,
                FileProblem::SlotCount {
                    material,
                    scheme: header.scheme,
                    expected: indexer.size(),
                    found: header.stats.slots,
                },
            ));
        }
        let compact = match header.compact {
            None => None,
            Some(shape) => {
                let body = match &storage {
                    Storage::Owned(bytes, offset) => &bytes[*offset..],
                    Storage::Mapped(map, offset) => &map[*offset..],
                };
                let compact =
                    Compact::parse(shape, indexer.size(), body).map_err(|p| file_error(path, p))?;
                Some((shape, Box::new(compact)))
            }
        };
        Ok(Table {
            indexer,
            storage,
            compact,
            stats: header.stats,
            checksum: header.checksum,
            path: Some(path.to_path_buf()),
            intact: OnceLock::new(),
        })
    }

    /// The material class.
    #[must_use]
    pub fn material(&self) -> Material {
        self.indexer.material()
    }

    /// The index.
    #[must_use]
    pub fn indexer(&self) -> &TableIndexer {
        &self.indexer
    }

    /// The figures (from the header for files).
    #[must_use]
    pub fn stats(&self) -> ClassStats {
        self.stats
    }

    /// The payload's CRC-32 (from the header for files).
    #[must_use]
    pub fn checksum(&self) -> u32 {
        self.checksum
    }

    /// The file the table came from, if any.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The format version: 1 (a byte per slot) or 2 (compact).
    #[must_use]
    pub fn format(&self) -> u16 {
        self.header().version()
    }

    /// Whether the payload is a map of a file (paged by the kernel), not
    /// bytes in memory.
    pub(crate) fn is_mapped(&self) -> bool {
        matches!(self.storage, Storage::Mapped(..))
    }

    /// Whether the payload is compact (format 2), so that stored wins may
    /// stand for wins in 1 by a capture.
    #[must_use]
    pub fn is_compact(&self) -> bool {
        self.compact.is_some()
    }

    /// Whether this compact table may store any draw or loss for a drawn
    /// position with a capture into a drawn one (so a stored loss is
    /// exact only once the captures are probed; header byte 71).
    #[must_use]
    pub fn capture_draws(&self) -> bool {
        self.compact
            .as_ref()
            .is_some_and(|(shape, _)| shape.capture_draws)
    }

    /// Bytes of the table as a file (header and payload).
    #[must_use]
    pub fn file_len(&self) -> u64 {
        (HEADER_LEN + self.raw().len()) as u64
    }

    /// The header describing this table.
    #[must_use]
    pub fn header(&self) -> Header {
        Header {
            scheme: self.indexer.scheme(),
            compact: self.compact.as_ref().map(|(shape, _)| *shape),
            stats: self.stats,
            checksum: self.checksum,
        }
    }

    fn raw(&self) -> &[u8] {
        match &self.storage {
            Storage::Owned(bytes, offset) => &bytes[*offset..],
            Storage::Mapped(map, offset) => &map[*offset..],
        }
    }

    /// Checks the payload against the header's checksum (once; later calls
    /// return the first answer).
    pub fn check(&self) -> Result<(), TablebaseError> {
        if *self
            .intact
            .get_or_init(|| format::checksum(self.raw()) == self.checksum)
        {
            return Ok(());
        }
        Err(file_error(
            self.path.as_deref().unwrap_or(Path::new("(memory)")),
            FileProblem::PayloadChecksum {
                expected: self.checksum,
                found: format::checksum(self.raw()),
            },
        ))
    }

    /// The payload bytes (after the checksum check): for format 1 the
    /// value bytes, one per slot.
    pub fn payload(&self) -> Result<&[u8], TablebaseError> {
        self.check()?;
        Ok(self.raw())
    }

    /// The value byte stored at a slot (`index < size`), after the
    /// checksum check. In a compact table a stored win may stand for a win
    /// in 1 by a capture (see [`Table`]); a compact table with a context
    /// model reads the slot's position back from the index to find its
    /// context (an unused slot reads in context 0).
    #[inline]
    pub fn stored(&self, index: u64) -> Result<u8, TablebaseError> {
        let raw = self.payload()?;
        let out_of_range = || {
            TablebaseError::Index(surakarta_index::IndexError::OutOfRange {
                index,
                material: self.material(),
                size: self.indexer.size(),
            })
        };
        match &self.compact {
            None => raw.get(index as usize).copied().ok_or_else(out_of_range),
            Some(_) if index >= self.indexer.size() => Err(out_of_range()),
            Some((_, compact)) => {
                let terminal = compact.terminal_at(raw, index).map_err(|p| self.error(p))?;
                let context = match compact.model() {
                    ContextModel::None => 0,
                    model => self
                        .indexer
                        .unrank(index)
                        .map_or(0, |sides| model.of(sides)),
                };
                Ok(compact.value(terminal, context))
            }
        }
    }

    /// The value stored for a position of this class (see
    /// [`Table::stored`]).
    #[inline]
    pub fn stored_value(&self, sides: Sides) -> Result<Value, TablebaseError> {
        self.stored_value_at(sides).map(|(value, _)| value)
    }

    /// [`Table::stored_value`] and the position's slot.
    #[inline]
    pub(crate) fn stored_value_at(&self, sides: Sides) -> Result<(Value, u64), TablebaseError> {
        let ranked = self.indexer.rank(sides)?;
        let byte = match &self.compact {
            None => self.stored(ranked.index)?,
            Some((_, compact)) => {
                let raw = self.payload()?;
                let at = compact
                    .locate(raw, ranked.index)
                    .map_err(|p| self.error(p))?;
                // The context while the block's bytes are loaded.
                let context = compact.model().of(sides);
                let terminal = compact.terminal_in(at).map_err(|p| self.error(p))?;
                compact.value(terminal, context)
            }
        };
        Ok((Value::from_table_byte(byte), ranked.index))
    }

    /// Whether the loss stored at slot `index` may stand for a draw that a
    /// capture proves ([`Table::capture_draws`], and where the file has a
    /// draw map, the slot's unit is set in it).
    #[inline]
    pub(crate) fn may_hide_draw(&self, index: u64) -> bool {
        self.compact
            .as_ref()
            .is_some_and(|(_, compact)| compact.may_hide_draw(self.raw(), index))
    }

    /// The value stored for a position of this class (see
    /// [`Table::stored`]) and its slot, or only its win/draw/loss (`Err`)
    /// where a compact table's terminal stands for the same one in every
    /// context and `enough` accepts it: then the position's context is not
    /// computed.
    #[inline]
    pub(crate) fn stored_or_wdl(
        &self,
        sides: Sides,
        enough: impl Fn(Wdl) -> bool,
    ) -> Result<Result<(Value, u64), Wdl>, TablebaseError> {
        let Some((_, compact)) = &self.compact else {
            return self.stored_value_at(sides).map(Ok);
        };
        let ranked = self.indexer.rank(sides)?;
        let raw = self.payload()?;
        let at = compact
            .locate(raw, ranked.index)
            .map_err(|p| self.error(p))?;
        let terminal = compact.terminal_in(at).map_err(|p| self.error(p))?;
        if let Some(wdl) = compact.wdl(terminal).filter(|&w| enough(w)) {
            return Ok(Err(wdl));
        }
        let byte = compact.value(terminal, compact.model().of(sides));
        Ok(Ok((Value::from_table_byte(byte), ranked.index)))
    }

    /// The win/draw/loss of the value stored for a position of this class
    /// (a compact table computes the position's context only where the
    /// terminal stored does not tell alone).
    #[inline]
    pub fn stored_wdl(&self, sides: Sides) -> Result<Wdl, TablebaseError> {
        Ok(match self.stored_or_wdl(sides, |_| true)? {
            Ok((value, _)) => value.wdl(),
            Err(wdl) => wdl,
        })
    }

    /// Every stored value byte, one per slot (decoded on all cores for a
    /// compact table, whose blocks are checked to cover their slots
    /// exactly; unused slots of a compact table read as their terminal's
    /// value in context 0).
    pub fn stored_bytes(&self) -> Result<Cow<'_, [u8]>, TablebaseError> {
        let raw = self.payload()?;
        let Some((_, compact)) = &self.compact else {
            return Ok(Cow::Borrowed(raw));
        };
        let mut bytes = self.decoded_terminals(raw, compact)?;
        bytes
            .par_chunks_mut(1 << 16)
            .enumerate()
            .for_each(|(c, part)| self.terminals_to_stored(compact, (c as u64) << 16, part));
        Ok(Cow::Owned(bytes))
    }

    /// Turns the terminals of slots `start..` (`part`) of a compact table
    /// into the value bytes they store: each position's own context, and
    /// context 0 for unused slots.
    fn terminals_to_stored(&self, compact: &Compact, start: u64, part: &mut [u8]) {
        let model = compact.model();
        if model == ContextModel::None {
            for t in part.iter_mut() {
                *t = compact.value(*t, 0);
            }
            return;
        }
        // Unused slots first (context 0), then every position's own.
        let terminals = part.to_vec();
        for (t, out) in terminals.iter().zip(part.iter_mut()) {
            *out = compact.value(*t, 0);
        }
        self.indexer
            .for_each_in(start, start + part.len() as u64, |index, sides| {
                let i = (index - start) as usize;
                part[i] = compact.value(terminals[i], model.of(sides));
            });
    }

    /// The slots of a part of [`Table::stored_part`]: whole blocks of a
    /// compact table, at least [`MIN_PART`].
    pub(crate) fn part_slots(&self) -> u64 {
        let block = self.compact.as_ref().map_or(1, |(_, c)| c.block_len());
        block.max(MIN_PART)
    }

    /// The stored value bytes of slots `start..end` (`start` a multiple of
    /// [`Table::part_slots`], `end` the next one or the class's end), as
    /// [`Table::stored_bytes`] gives them, decoding only the blocks that
    /// hold them: a class summed up part by part never holds its values.
    pub(crate) fn stored_part(
        &self,
        start: u64,
        end: u64,
    ) -> Result<Cow<'_, [u8]>, TablebaseError> {
        let raw = self.payload()?;
        let Some((_, compact)) = &self.compact else {
            return Ok(Cow::Borrowed(&raw[start as usize..end as usize]));
        };
        let block = compact.block_len();
        let mut part = Vec::with_capacity((end - start) as usize);
        for b in start / block..end.div_ceil(block) {
            compact
                .decode_block(raw, b, &mut part)
                .map_err(|p| self.error(p))?;
        }
        if part.len() as u64 != end - start {
            return Err(self.error(FileProblem::Corrupt("blocks cover other slots")));
        }
        self.terminals_to_stored(compact, start, &mut part);
        Ok(Cow::Owned(part))
    }

    /// [`Table::stored_bytes`] of a compact table with a context model,
    /// given every slot's context (bits 2 and up of `contexts`, one byte
    /// per slot, 0 for unused slots) instead of computing them: for the
    /// read-back check of a table just written with `model`.
    pub(crate) fn stored_bytes_in(
        &self,
        model: ContextModel,
        contexts: &[u8],
    ) -> Result<Cow<'_, [u8]>, TablebaseError> {
        let raw = self.payload()?;
        let Some((_, compact)) = &self.compact else {
            return Err(self.error(FileProblem::Corrupt("not a compact table")));
        };
        if compact.model() != model || contexts.len() as u64 != self.indexer.size() {
            return Err(self.error(FileProblem::Corrupt(
                "the compact table answers differently",
            )));
        }
        let mut bytes = self.decoded_terminals(raw, compact)?;
        if bytes.len() != contexts.len() {
            return Err(self.error(FileProblem::Corrupt(
                "the compact table answers differently",
            )));
        }
        bytes
            .par_chunks_mut(1 << 16)
            .zip(contexts.par_chunks(1 << 16))
            .for_each(|(part, contexts)| {
                for (t, &c) in part.iter_mut().zip(contexts) {
                    *t = compact.value(*t, usize::from(c >> 2));
                }
            });
        Ok(Cow::Owned(bytes))
    }

    /// Every slot's terminal symbol of a compact table, its blocks decoded
    /// on all cores (`raw` is the payload) straight into their place: a
    /// byte per slot and a block's worth per thread, never a second copy
    /// of the class (a 10-piece class has billions of slots).
    fn decoded_terminals(&self, raw: &[u8], compact: &Compact) -> Result<Vec<u8>, TablebaseError> {
        let size = self.indexer.size();
        let block = compact.block_len();
        if size.div_ceil(block) != compact.blocks() {
            return Err(self.error(FileProblem::Corrupt("blocks cover other slots")));
        }
        let mut terminals = vec![0u8; size as usize];
        terminals
            .par_chunks_mut(block as usize)
            .enumerate()
            .try_for_each(|(b, slots)| {
                let mut decoded = Vec::with_capacity(slots.len());
                compact.decode_block(raw, b as u64, &mut decoded)?;
                if decoded.len() != slots.len() {
                    return Err(FileProblem::Corrupt("blocks cover other slots"));
                }
                slots.copy_from_slice(&decoded);
                Ok(())
            })
            .map_err(|p| self.error(p))?;
        Ok(terminals)
    }

    fn error(&self, problem: FileProblem) -> TablebaseError {
        file_error(
            self.path.as_deref().unwrap_or(Path::new("(memory)")),
            problem,
        )
    }

    /// Writes the table as a file: to `path` with `.tmp` appended (a
    /// temporary file created new, never through a link), synced, read back
    /// (in pieces: the header and the payload's checksum are checked
    /// without holding the file in memory), then renamed to `path`, so
    /// `path` exists only when complete.
    pub fn write(&self, path: &Path) -> Result<(), TablebaseError> {
        let mut tmp = self.write_tmp(path)?;
        let (header, found) = read_back(tmp.file()).map_err(|p| file_error(path, p))?;
        self.check_read_back(header, found)
            .map_err(|p| file_error(path, p))?;
        tmp.persist()
    }

    /// Like [`Table::write`], but `check` also examines the file written
    /// (given the bytes read back, all in memory) before it takes its final
    /// name.
    pub(crate) fn write_checked(
        &self,
        path: &Path,
        check: impl FnOnce(Vec<u8>) -> Result<(), TablebaseError>,
    ) -> Result<(), TablebaseError> {
        use std::io::{Read, Seek};
        let mut tmp = self.write_tmp(path)?;
        // Read the file back before it takes the final name.
        let mut back = Vec::new();
        let read = (|| {
            let file = tmp.file();
            file.rewind()?;
            file.read_to_end(&mut back)
        })();
        read.map_err(|e| file_error(path, e.into()))?;
        let header = Header::parse(&back, back.len() as u64).map_err(|p| file_error(path, p))?;
        let found = format::checksum(&back[HEADER_LEN..]);
        self.check_read_back(header, found)
            .map_err(|p| file_error(path, p))?;
        check(back)?;
        tmp.persist()
    }

    /// Writes the file to `path` with `.tmp` appended and syncs it; returns
    /// that file, open (removed again when dropped unpersisted).
    fn write_tmp(&self, path: &Path) -> Result<TempFile, TablebaseError> {
        let mut tmp = TempFile::create(path)?;
        tmp.fill(|out| {
            out.write_all(&self.header().to_bytes())?;
            out.write_all(self.payload().map_err(std::io::Error::other)?)
        })?;
        Ok(tmp)
    }

    /// Whether a file read back has this table's header and checksum.
    fn check_read_back(&self, header: Header, found: u32) -> Result<(), FileProblem> {
        if header != self.header() || found != self.checksum {
            return Err(FileProblem::PayloadChecksum {
                expected: self.checksum,
                found,
            });
        }
        Ok(())
    }
}

/// Reads a written table file back in pieces, from its start: its header
/// and the CRC-32 of its payload.
fn read_back(file: &mut std::fs::File) -> Result<(Header, u32), FileProblem> {
    use std::io::{Read, Seek};
    file.rewind()?;
    let len = file.metadata()?.len();
    let mut head = vec![0u8; HEADER_LEN.min(len as usize)];
    file.read_exact(&mut head)?;
    let header = Header::parse(&head, len)?;
    let mut crc = crc32fast::Hasher::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        crc.update(&buffer[..n]);
    }
    Ok((header, crc.finalize()))
}

/// Counts the positions of each value in exact value bytes (unused slots
/// skipped), on all cores.
///
/// Every byte of a part is counted, then the bytes of its unused slots taken
/// back ([`TableIndexer::for_each_unused_in`]): no position is unranked.
pub(crate) fn histogram_of(indexer: &TableIndexer, values: &[u8]) -> Histogram {
    const PART: u64 = 1 << 20;
    let size = indexer.size().min(values.len() as u64);
    (0..size.div_ceil(PART))
        .into_par_iter()
        .map(|part| {
            let (start, end) = (part * PART, ((part + 1) * PART).min(size));
            let mut counts = [0u64; 256];
            for &b in &values[start as usize..end as usize] {
                counts[usize::from(b)] += 1;
            }
            indexer.for_each_unused_in(start, end, |index| {
                counts[usize::from(values[index as usize])] -= 1;
            });
            let mut h = Histogram::empty();
            for (byte, &n) in counts.iter().enumerate() {
                if n > 0 {
                    h.add_many(Value::from_table_byte(byte as u8), n);
                }
            }
            h
        })
        .reduce(Histogram::empty, Histogram::merge)
}

/// [`histogram_of`] by walking every used slot: the reference the tests
/// compare it with.
#[cfg(test)]
fn histogram_by_walking(indexer: &TableIndexer, values: &[u8]) -> Histogram {
    let mut h = Histogram::empty();
    indexer.for_each_in(0, indexer.size(), |index, _| {
        h.add(Value::from_table_byte(values[index as usize]));
    });
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The histogram from every byte less the unused slots' is the one
    /// from walking the used slots, in both schemes, with arbitrary bytes
    /// in the unused slots too.
    #[test]
    fn histograms_match_walking_the_used_slots() {
        let mut directories = Directories::default();
        for scheme in [Scheme::Plain, Scheme::Symmetric] {
            for material in ["1v1", "2v1", "2v2", "3v2", "2v3", "3v3", "4v2"] {
                let material: Material = material.parse().unwrap();
                let indexer = TableIndexer::new(material, scheme, &mut directories);
                let mut state = u64::from(material.pieces());
                let values: Vec<u8> = (0..indexer.size())
                    .map(|_| {
                        state = state
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        (state >> 56) as u8
                    })
                    .collect();
                assert_eq!(
                    histogram_of(&indexer, &values),
                    histogram_by_walking(&indexer, &values),
                    "{material} {scheme:?}"
                );
            }
        }
    }

    /// The unused slots are exactly those a walk skips.
    #[test]
    fn unused_slots_are_the_ones_the_walk_skips() {
        let mut directories = Directories::default();
        for material in ["2v1", "2v2", "3v3"] {
            let material: Material = material.parse().unwrap();
            let indexer = TableIndexer::new(material, Scheme::Symmetric, &mut directories);
            let size = indexer.size();
            for (start, end) in [(0, size), (1, size - 1), (size / 3, size / 3 + 50)] {
                let mut used = Vec::new();
                indexer.for_each_in(start, end, |index, _| used.push(index));
                let mut unused = Vec::new();
                indexer.for_each_unused_in(start, end, |index| unused.push(index));
                let mut all: Vec<u64> = used.iter().chain(&unused).copied().collect();
                all.sort_unstable();
                assert_eq!(
                    all,
                    (start..end).collect::<Vec<_>>(),
                    "{material} {start}..{end}"
                );
                assert!(unused.windows(2).all(|w| w[0] < w[1]));
            }
        }
    }

    /// `first_in` finds what a walk over the range finds first, in both
    /// schemes, over whole classes and at their ends.
    #[test]
    fn first_in_is_the_first_position_of_the_walk() {
        let mut directories = Directories::default();
        for scheme in [Scheme::Plain, Scheme::Symmetric] {
            for material in [
                Material::new(2, 1),
                Material::new(3, 2),
                Material::new(2, 2),
            ] {
                let indexer = TableIndexer::new(material.unwrap(), scheme, &mut directories);
                let size = indexer.size();
                for start in (0..size + 3).step_by(7) {
                    for width in [0, 1, 5, 64] {
                        let mut walked = None;
                        indexer.for_each_in(start, start + width, |_, sides| {
                            walked.get_or_insert(sides);
                        });
                        assert_eq!(indexer.first_in(start, start + width), walked);
                    }
                }
            }
        }
    }
}
