//! [`Tablebase`]: the tables of a set of classes (in memory, read or
//! mapped from a directory) and how a position is probed in them,
//! including the resolution of a compact table's don't-care slots.

use crate::error::TablebaseError;
use crate::files::open::table_files;
use crate::format::FileProblem;
use crate::probe::cache;
use crate::probe::table::{Directories, Table, TableIndexer};
use crate::value::{Value, Wdl};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use surakarta::capture_moves;
use surakarta_index::{Indexer, Material, Sides};

/// Tables of material classes, in memory or mapped from files.
///
/// # Examples
///
/// ```
/// use surakarta::Position;
/// use surakarta_index::Scheme;
/// use surakarta_tablebase::{NoProgress, Tablebase, Value};
///
/// // Every class up to 3 pieces, solved in memory in a moment.
/// let (tables, _) = Tablebase::generate(3, Scheme::Symmetric, &NoProgress)?;
/// let position: Position = "b5/6/6/6/6/w4w b".parse()?;
/// assert_eq!(tables.probe_position(&position)?, Value::Win(3));
/// let (best, _) = tables.best_move(&position)?.unwrap();
/// assert_eq!(best.to_string(), "a6-a5");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct Tablebase {
    pub(crate) tables: BTreeMap<Material, Table>,
    /// Why a class's file did not load (see [`Tablebase::map_dir_partial`]).
    pub(crate) load_errors: BTreeMap<Material, TablebaseError>,
    pub(crate) dir: Option<PathBuf>,
    pub(crate) directories: Directories,
    /// Exact values of compact tables' positions met before.
    pub(crate) cache: std::sync::OnceLock<cache::ProbeCache>,
}

impl Tablebase {
    /// An empty tablebase (every probe of a class is
    /// [`TablebaseError::MissingTable`]).
    #[must_use]
    pub fn new() -> Tablebase {
        Tablebase::default()
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
        Tablebase::load_dir_partial(
            dir,
            // SAFETY: passed on to the caller, who promises the files stay put.
            |path, directories| unsafe { Table::map(path, directories) },
        )
    }

    /// Like [`Tablebase::open_dir`], but a file that cannot be read does
    /// not stop the others, as with [`Tablebase::map_dir_partial`]: its
    /// error is kept for its class ([`Tablebase::load_errors`]) and is what
    /// every use of that class returns ([`Tablebase::lookup`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_index::{Material, Scheme};
    /// use surakarta_tablebase::{generate_dir, NoProgress, Tablebase};
    ///
    /// let dir = std::env::temp_dir().join(format!("surakarta-doc-open-partial-{}", std::process::id()));
    /// generate_dir(&dir, 3, Scheme::Symmetric, 2, &NoProgress)?;
    /// let path = dir.join("2v1.sktb");
    /// let mut bytes = std::fs::read(&path)?;
    /// bytes[20] ^= 0x40; // the header's checksum no longer matches
    /// std::fs::write(&path, bytes)?;
    ///
    /// assert!(Tablebase::open_dir(&dir).is_err());
    /// let tables = Tablebase::open_dir_partial(&dir)?;
    /// assert_eq!(tables.materials().count(), 2); // 1v1, 1v2
    /// let two_v_one = Material::new(2, 1)?;
    /// assert!(tables.load_errors().any(|(m, _)| m == two_v_one));
    /// let error = tables.lookup(two_v_one).unwrap_err();
    /// assert!(error.to_string().contains("header checksum mismatch"), "{error}");
    /// std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open_dir_partial(dir: &Path) -> Result<Tablebase, TablebaseError> {
        Tablebase::load_dir_partial(dir, Table::read)
    }

    /// Loads the tables of `dir` with `load`, keeping each file's error
    /// for its class.
    fn load_dir_partial(
        dir: &Path,
        load: impl FnMut(&Path, &mut Directories) -> Result<Table, TablebaseError>,
    ) -> Result<Tablebase, TablebaseError> {
        let mut load_errors = BTreeMap::new();
        let mut tablebase = Tablebase::load_dir_with(dir, load, |material, e| {
            load_errors.insert(material, e);
            Ok(())
        })?;
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
                    Err(crate::error::file_error(
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
    #[must_use]
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
            Some(e) => e.duplicate(),
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
    #[must_use]
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The largest piece count `n` such that every class with 2 to `n`
    /// pieces is present (0 if not even the 2-piece class is).
    #[must_use]
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
    /// use surakarta_tablebase::{NoProgress, Tablebase, Value, Wdl};
    ///
    /// // Every class up to 3 pieces, in memory (files: `Tablebase::map_dir`).
    /// let (tables, _) = Tablebase::generate(3, Scheme::Symmetric, &NoProgress).unwrap();
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
        let (stored, index) = table.stored_value_at(sides)?;
        let value = self.resolve(table, stored, sides, index)?;
        cache.put(sides, value);
        Ok(value)
    }

    /// Win, draw or loss of a position given by its sides (the side to
    /// move first): one stored value, and capture probes only where a
    /// compact table stores a loss that may stand for a draw
    /// ([`Table::capture_draws`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta::Position;
    /// use surakarta_index::{Scheme, Sides};
    /// use surakarta_tablebase::{NoProgress, Tablebase, Wdl};
    ///
    /// let (tables, _) = Tablebase::generate(3, Scheme::Symmetric, &NoProgress)?;
    /// let position: Position = "6/1w4/6/6/bb4/6 w".parse()?;
    /// assert_eq!(tables.probe_wdl(Sides::of(&position))?, Wdl::Loss);
    /// assert_eq!(tables.probe(Sides::of(&position))?.wdl(), Wdl::Loss);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
            return table.stored_wdl(sides);
        }
        let cache = self.cache.get_or_init(cache::ProbeCache::new);
        if let Some(value) = cache.get(sides) {
            return Ok(value.wdl());
        }
        // Only a stored loss needs resolving (and its exact value to cache),
        // where the table's draw map says it may stand for a draw.
        let (stored, index) = match table.stored_or_wdl(sides, |wdl| wdl != Wdl::Loss)? {
            Ok(at) => at,
            Err(wdl) => return Ok(wdl),
        };
        if let Value::Loss(_) = stored {
            if !table.may_hide_draw(index) {
                return Ok(Wdl::Loss);
            }
            // Exact once resolved: a loss, or a draw by a capture.
            let value = self.resolve(table, stored, sides, index)?;
            cache.put(sides, value);
            return Ok(value.wdl());
        }
        Ok(stored.wdl())
    }

    /// The exact value of a position (at slot `index`) from the value
    /// `table` stores for it. A compact table may store any win where a
    /// capture wins in 1, so a stored win in more than 1 is checked against
    /// the captures; one with [`Table::capture_draws`] may store any draw
    /// or loss where a capture draws, so a stored loss is checked against
    /// the captures too where its draw map allows one.
    #[inline]
    pub(crate) fn resolve(
        &self,
        table: &Table,
        stored: Value,
        sides: Sides,
        index: u64,
    ) -> Result<Value, TablebaseError> {
        match stored {
            Value::Win(d)
                if d > 1 && table.is_compact() && self.wins_by_capture(None, sides)? =>
            {
                Ok(Value::Win(1))
            }
            Value::Loss(_)
                if table.may_hide_draw(index) && self.draws_by_capture(None, sides)? =>
            {
                Ok(Value::Draw)
            }
            value => Ok(value),
        }
    }

    /// Whether the side to move has a capture into a position lost for the
    /// opponent (or of the opponent's last piece): the opponent's exact
    /// win/draw/loss, so a stored loss there is resolved (by
    /// [`Tablebase::draws_by_capture`], which does not recurse further).
    /// `target` is the class's [`capture_target`] where the
    /// caller has it (a format 1 target is then read directly), else
    /// `None`.
    pub(crate) fn wins_by_capture(
        &self,
        target: CaptureTarget<'_>,
        sides: Sides,
    ) -> Result<bool, TablebaseError> {
        for m in capture_moves(sides.us, sides.them) {
            let after = Sides::new(
                sides.them.without(m.to()),
                sides.us.without(m.from()).with(m.to()),
            );
            if after.us.is_empty() || capture_wdl(self, target, after)? == Wdl::Loss {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether the side to move has a capture that draws or wins: a
    /// capture after which the opponent does not win. Whether a position
    /// is a win needs no resolution (a stored win is always a win, a
    /// stored draw or loss never one), so this reads one stored value per
    /// capture and never recurses. `target` as for
    /// [`Tablebase::wins_by_capture`].
    pub(crate) fn draws_by_capture(
        &self,
        target: CaptureTarget<'_>,
        sides: Sides,
    ) -> Result<bool, TablebaseError> {
        for m in capture_moves(sides.us, sides.them) {
            let after = Sides::new(
                sides.them.without(m.to()),
                sides.us.without(m.from()).with(m.to()),
            );
            if after.us.is_empty() {
                return Ok(true);
            }
            let opponent_wins = match target {
                Some(_) => capture_wdl(self, target, after)? == Wdl::Win,
                None => self.wins(after)?,
            };
            if !opponent_wins {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether the side to move wins (exact from the stored value alone,
    /// see [`Tablebase::draws_by_capture`]; a cached exact value is used
    /// if there is one).
    fn wins(&self, sides: Sides) -> Result<bool, TablebaseError> {
        if sides.them.is_empty() {
            return Err(TablebaseError::NoPieces);
        }
        let table = self.lookup(Material::of(sides)?)?;
        if table.is_compact() {
            if let Some(value) = self.cache.get().and_then(|c| c.get(sides)) {
                return Ok(value.wdl() == Wdl::Win);
            }
        }
        Ok(table.stored_wdl(sides)? == Wdl::Win)
    }
}

/// A capture target table held as its indexer and value bytes (a format-1
/// table), so a capture's probe is a rank and a read: no map lookup, no
/// checksum flag, no compact decoding.
pub(crate) type CaptureTarget<'a> = Option<(&'a TableIndexer, &'a [u8])>;

/// The table that captures from a position of `material` reach, if it is a
/// format-1 table in `smaller` whose checksum holds (otherwise probes go
/// through [`Tablebase::probe_wdl`], which reports any problem).
pub(crate) fn capture_target(smaller: &Tablebase, material: Material) -> CaptureTarget<'_> {
    let table = smaller.lookup(material.after_capture()?).ok()?;
    if table.is_compact() {
        return None;
    }
    Some((table.indexer(), table.payload().ok()?))
}

/// The value of `after`, a position reached by a capture (its side to move
/// has a piece) into the class of `target`: [`Tablebase::probe_wdl`] (the
/// reference, and the path for compact tables), read directly from a
/// format-1 target table.
#[inline]
pub(crate) fn capture_wdl(
    smaller: &Tablebase,
    target: CaptureTarget<'_>,
    after: Sides,
) -> Result<Wdl, TablebaseError> {
    if let Some((indexer, bytes)) = target {
        if let Some(&byte) = bytes.get(indexer.rank(after)?.index as usize) {
            return Ok(Value::from_table_byte(byte).wdl());
        }
    }
    smaller.probe_wdl(after)
}
