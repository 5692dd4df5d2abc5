//! Verifying a directory of tables: the classes chosen and grouped into
//! pairs, every pair checked against the memory limit before any starts,
//! compact pairs expanded one at a time, checkpoints (finished tables
//! skipped, unfinished ones resumed, all removed at the end), the
//! directory's lock, and one outcome per table.

use crate::error::TablebaseError;
use crate::files::lock::DirLock;
use crate::probe::tablebase::Tablebase;
use crate::progress::Progress;
use crate::verify::checkpoint::VerifyCheckpoints;
use crate::verify::report::VerifyReport;
use std::path::Path;
use std::time::{Duration, Instant};
use surakarta_index::{Indexer, Material};

/// How [`verify_dir_with`] verifies.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use surakarta_index::{Material, Scheme};
/// use surakarta_tablebase::{generate_dir, verify_dir_with, NoProgress, VerifyOptions};
///
/// let dir = std::env::temp_dir().join(format!("surakarta-doc-verify-options-{}", std::process::id()));
/// generate_dir(&dir, 3, Scheme::Symmetric, 2, &NoProgress)?;
/// let options = VerifyOptions {
///     classes: vec![Material::new(2, 1)?],
///     memory_limit: Some(1 << 30),
///     checkpoint_every: Some(Duration::from_secs(60)),
///     checksums_only: false,
/// };
/// let outcomes = verify_dir_with(&dir, &options, &NoProgress)?;
/// assert_eq!(outcomes.len(), 1);
/// assert_eq!(outcomes[0].material(), Material::new(2, 1)?);
/// assert_eq!(outcomes[0].errors(), 0);
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyOptions {
    /// Only these classes (empty: every class in the directory). The
    /// tables their moves reach must be there too. A class given without a
    /// file in the directory is [`TablebaseError::MissingTable`], before
    /// anything is verified.
    pub classes: Vec<Material>,
    /// Memory a pair may use, in bytes: if a pair's modelled peak
    /// ([`Tablebase::verify_memory_bytes`]) is larger, the run is refused
    /// before any pair starts ([`TablebaseError::NotEnoughMemory`]).
    /// `None`: no limit.
    pub memory_limit: Option<u64>,
    /// Save each table's progress in the directory (`6v4-verify.ckpt`) at
    /// most this often, and continue from what an earlier run saved there
    /// ([`VerifyCheckpoints`]); the checkpoints are removed when the run
    /// is over. `None`: no checkpoints.
    pub checkpoint_every: Option<Duration>,
    /// Only check each file: its header, its length and its payload
    /// checksum, without re-deriving any entry (seconds for tables that
    /// take hours to verify, and the tables captures reach need not be
    /// there). The reports then have no positions re-derived and header
    /// counts taken as they are (`stats_ok`); the memory limit and
    /// checkpoints do not apply.
    pub checksums_only: bool,
}

impl Default for VerifyOptions {
    /// Every class, no memory limit, no checkpoints.
    fn default() -> VerifyOptions {
        VerifyOptions {
            classes: Vec::new(),
            memory_limit: None,
            checkpoint_every: None,
            checksums_only: false,
        }
    }
}

/// What [`verify_dir`] found for one table.
///
/// # Examples
///
/// ```
/// use surakarta_index::Scheme;
/// use surakarta_tablebase::{generate_dir, verify_dir, NoProgress, VerifyOutcome};
///
/// let dir = std::env::temp_dir().join(format!("surakarta-doc-verify-outcome-{}", std::process::id()));
/// generate_dir(&dir, 3, Scheme::Symmetric, 2, &NoProgress)?;
/// // A damaged header: the file does not open.
/// let path = dir.join("2v1.sktb");
/// let mut bytes = std::fs::read(&path)?;
/// bytes[20] ^= 0x40;
/// std::fs::write(&path, bytes)?;
/// for outcome in verify_dir(&dir, &NoProgress)? {
///     match &outcome {
///         VerifyOutcome::Unreadable { material, error } => {
///             assert_eq!(material.to_string(), "2v1");
///             assert!(error.to_string().contains("header checksum mismatch"));
///         }
///         // 1v2's quiet moves lead into 2v1.
///         VerifyOutcome::Failed { material, .. } => assert_eq!(material.to_string(), "1v2"),
///         VerifyOutcome::Verified(report) => assert_eq!(report.material.to_string(), "1v1"),
///     }
///     assert_eq!(outcome.errors(), u64::from(outcome.material().to_string() != "1v1"));
/// }
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub enum VerifyOutcome {
    /// The table's file did not open (damaged header, not a regular file,
    /// another class's table): the error names the file. One error.
    Unreadable {
        /// The class its name gives.
        material: Material,
        /// Why it did not open.
        error: TablebaseError,
    },
    /// The table was verified: what it found ([`VerifyReport::errors`]).
    Verified(VerifyReport),
    /// The table could not be verified: a table its moves reach is
    /// missing or damaged, or its checkpoint could not be written. One
    /// error.
    Failed {
        /// The class.
        material: Material,
        /// Why it could not be verified.
        error: TablebaseError,
    },
}

impl VerifyOutcome {
    /// The class.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_index::{Material, Scheme};
    /// use surakarta_tablebase::{generate_dir, verify_dir, NoProgress};
    ///
    /// let dir = std::env::temp_dir().join(format!("surakarta-doc-verify-material-{}", std::process::id()));
    /// generate_dir(&dir, 3, Scheme::Symmetric, 2, &NoProgress)?;
    /// let classes: Vec<Material> = verify_dir(&dir, &NoProgress)?.iter().map(|o| o.material()).collect();
    /// assert_eq!(classes, [Material::new(1, 1)?, Material::new(2, 1)?, Material::new(1, 2)?]);
    /// std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn material(&self) -> Material {
        match self {
            VerifyOutcome::Unreadable { material, .. } | VerifyOutcome::Failed { material, .. } => {
                *material
            }
            VerifyOutcome::Verified(report) => report.material,
        }
    }

    /// Errors found: the report's ([`VerifyReport::errors`]) for a
    /// verified table, else one.
    ///
    /// # Examples
    ///
    /// ```
    /// use surakarta_index::Scheme;
    /// use surakarta_tablebase::{generate_dir, verify_dir, NoProgress};
    ///
    /// let dir = std::env::temp_dir().join(format!("surakarta-doc-verify-errors-{}", std::process::id()));
    /// generate_dir(&dir, 3, Scheme::Symmetric, 1, &NoProgress)?;
    /// assert!(verify_dir(&dir, &NoProgress)?.iter().all(|o| o.errors() == 0));
    /// // A flipped payload byte: a checksum mismatch, one error.
    /// let path = dir.join("1v2.sktb");
    /// let mut bytes = std::fs::read(&path)?;
    /// let last = bytes.len() - 1;
    /// bytes[last] ^= 1;
    /// std::fs::write(&path, bytes)?;
    /// let errors: u64 = verify_dir(&dir, &NoProgress)?.iter().map(|o| o.errors()).sum();
    /// assert!(errors >= 1);
    /// std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn errors(&self) -> u64 {
        match self {
            VerifyOutcome::Verified(report) => report.errors(),
            VerifyOutcome::Unreadable { .. } | VerifyOutcome::Failed { .. } => 1,
        }
    }
}

/// Verifies every table of `dir` ([`Tablebase::verify`]): the outcome of
/// each, the files that did not open first, then the classes pair by
/// pair in dependency order. The tables are read into memory; see
/// [`verify_dir_with`].
///
/// # Examples
///
/// ```
/// use surakarta_index::Scheme;
/// use surakarta_tablebase::{generate_dir, verify_dir, NoProgress, VerifyOutcome};
///
/// let dir = std::env::temp_dir().join(format!("surakarta-doc-verify-dir-{}", std::process::id()));
/// generate_dir(&dir, 3, Scheme::Symmetric, 2, &NoProgress)?;
/// let outcomes = verify_dir(&dir, &NoProgress)?;
/// assert_eq!(outcomes.len(), 3); // 1v1, 2v1, 1v2
/// for outcome in &outcomes {
///     let VerifyOutcome::Verified(report) = outcome else {
///         panic!("{outcome:?}");
///     };
///     assert_eq!(report.errors(), 0);
///     assert!(report.positions > 0);
/// }
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify_dir(
    dir: &Path,
    reporter: &dyn Progress,
) -> Result<Vec<VerifyOutcome>, TablebaseError> {
    verify_dir_with(dir, &VerifyOptions::default(), reporter)
}

/// [`verify_dir`] with every option, on the current rayon thread pool.
///
/// A file that does not open is an outcome of its own
/// ([`VerifyOutcome::Unreadable`]), and so is a table that cannot be
/// verified ([`VerifyOutcome::Failed`]); the run goes on with the others.
/// It stops with an error, before anything is verified, for a directory
/// it cannot read, a chosen class without a file
/// ([`TablebaseError::MissingTable`]) or a pair above the memory limit
/// ([`TablebaseError::NotEnoughMemory`]); or when a checkpoint cannot be
/// removed at the end.
///
/// The classes are verified pair by pair: a pair's compact tables and the
/// compact tables its captures reach are expanded to a byte per slot
/// ([`Tablebase::expand_pair`]), its classes verified, and the copies
/// dropped before the next pair. Progress: [`Progress::started`] with the
/// slots of every table to verify, then per table
/// [`Progress::pair_started`] (the class alone), the passes of
/// [`Tablebase::verify_with`], and [`Progress::class_done`].
///
/// Without checkpoints the run holds the directory's lock, shared
/// ([`DirLock::acquire_for_reading`]): a run writing the directory (a
/// generation, a compression) is [`TablebaseError::DirectoryInUse`]
/// rather than a pair half written reported as damaged. With checkpoints
/// ([`VerifyOptions::checkpoint_every`]) it holds the lock of
/// [`VerifyCheckpoints`] and each pair's while verifying it; a pair whose
/// tables all have a finished verification saved is reported from the
/// checkpoints without being expanded.
///
/// The tables are read into memory ([`Tablebase::open_dir_partial`]); to
/// map them instead, give [`verify_tables`] the opening.
pub fn verify_dir_with(
    dir: &Path,
    options: &VerifyOptions,
    reporter: &dyn Progress,
) -> Result<Vec<VerifyOutcome>, TablebaseError> {
    verify_tables(dir, options, Tablebase::open_dir_partial, reporter, |_| {})
}

/// [`verify_dir_with`] with the tables of `dir` opened by `open` (once the
/// directory's lock is held), such as [`Tablebase::map_dir_partial`] or a
/// caller's check around it, and each outcome given to `each` as soon as
/// it is known, in the order of the returned list (to print each table's
/// result while the next is verified). `open`'s error is returned as it
/// is; the verification's own errors are converted into its type.
///
/// # Examples
///
/// ```
/// use surakarta_index::Scheme;
/// use surakarta_tablebase::{generate_dir, verify_tables, NoProgress, Tablebase, VerifyOptions};
///
/// let dir = std::env::temp_dir().join(format!("surakarta-doc-verify-tables-{}", std::process::id()));
/// generate_dir(&dir, 4, Scheme::Symmetric, 2, &NoProgress)?;
/// let mut lines = Vec::new();
/// let outcomes = verify_tables(
///     &dir,
///     &VerifyOptions::default(),
///     |dir| Tablebase::open_dir_partial(dir),
///     &NoProgress,
///     |outcome| lines.push(format!("{}: {} errors", outcome.material(), outcome.errors())),
/// )?;
/// assert_eq!(lines.len(), outcomes.len());
/// assert_eq!(lines[0], "1v1: 0 errors");
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verify_tables<E: From<TablebaseError>>(
    dir: &Path,
    options: &VerifyOptions,
    open: impl FnOnce(&Path) -> Result<Tablebase, E>,
    reporter: &dyn Progress,
    mut each: impl FnMut(&VerifyOutcome),
) -> Result<Vec<VerifyOutcome>, E> {
    let VerifyOptions {
        classes,
        memory_limit,
        checkpoint_every,
        checksums_only,
    } = options;
    // A run that writes the whole directory (a generation, a compression)
    // holds its lock: the directory is in use, rather than a pair half
    // written reported as a failure. With checkpoints the verification
    // takes the lock itself.
    let _reading = match checkpoint_every {
        None if dir.is_dir() => DirLock::acquire_for_reading(dir)?,
        _ => None,
    };
    let mut tb = open(dir)?;
    let chosen = |m: Material| classes.is_empty() || classes.contains(&m);
    let unreadable: Vec<VerifyOutcome> = tb
        .load_errors()
        .filter(|&(m, _)| chosen(m))
        .filter_map(|(material, _)| {
            let error = tb.lookup(material).err()?;
            Some(VerifyOutcome::Unreadable { material, error })
        })
        .collect();
    for &class in classes {
        if tb.table(class).is_none() && tb.load_errors().all(|(m, _)| m != class) {
            // Not in the directory at all: say so, as a probe of it would.
            tb.lookup(class)?;
        }
    }
    if *checksums_only {
        let mut checked = Vec::new();
        for outcome in unreadable {
            each(&outcome);
            checked.push(outcome);
        }
        for material in tb.materials().filter(|&m| chosen(m)) {
            let Some(table) = tb.table(material) else {
                continue;
            };
            let outcome = VerifyOutcome::Verified(VerifyReport {
                material,
                positions: 0,
                checksum_ok: table.check().is_ok(),
                stats_ok: true,
                mismatches: 0,
                examples: Vec::new(),
            });
            each(&outcome);
            checked.push(outcome);
        }
        return Ok(checked);
    }
    // Every pair is checked against the memory limit before any starts.
    let pairs = tb.verify_pairs(classes);
    for &(pair, _) in &pairs {
        tb.check_verify_memory(pair, *memory_limit)?;
    }
    reporter.started(
        pairs
            .iter()
            .flat_map(|(_, classes)| classes)
            .filter_map(|&m| tb.table(m))
            .map(|t| t.indexer().size())
            .sum(),
    );
    let mut outcomes = Vec::new();
    let mut found = |outcome: VerifyOutcome| {
        each(&outcome);
        outcomes.push(outcome);
    };
    for outcome in unreadable {
        found(outcome);
    }
    let checkpoints = checkpoint_every
        .map(|every| VerifyCheckpoints::new(dir, every))
        .transpose()?;
    let mut checkpointed = Vec::new();
    for (pair, classes) in pairs {
        if checkpoints.is_some() {
            checkpointed.extend(&classes);
        }
        // A pair finished in an earlier run is reported from its
        // checkpoints, without expanding it.
        let finished = checkpoints
            .as_ref()
            .is_some_and(|c| classes.iter().all(|&m| c.is_finished(&tb, m)));
        if finished {
            for &material in &classes {
                found(verify_one(
                    &tb,
                    material,
                    reporter,
                    checkpoints.as_ref(),
                    None,
                ));
            }
        } else {
            // The pair's compact tables and those its captures reach,
            // expanded (re-deriving probes every move, far faster
            // unpacked), and dropped before the next pair.
            let window = memory_limit.and_then(|limit| tb.verify_window_slots(pair, limit));
            let expanded = tb.expand_pair(pair, *memory_limit)?;
            for &material in &classes {
                found(verify_one(
                    &expanded,
                    material,
                    reporter,
                    checkpoints.as_ref(),
                    window,
                ));
            }
        }
    }
    if let Some(c) = &checkpoints {
        for material in checkpointed {
            c.remove(material).map_err(|e| TablebaseError::File {
                path: c.path(material),
                problem: e.into(),
            })?;
        }
    }
    Ok(outcomes)
}

/// Verifies the table of `material` in `source`, reporting it as a task
/// of its own, the partner read in windows of `window` slots if given
/// ([`Tablebase::verify_in_windows`]).
fn verify_one(
    source: &Tablebase,
    material: Material,
    reporter: &dyn Progress,
    checkpoints: Option<&VerifyCheckpoints>,
    window: Option<u64>,
) -> VerifyOutcome {
    let start = Instant::now();
    let table = source.table(material);
    reporter.pair_started(&[material], table.map_or(0, |t| t.indexer().size()));
    let result = source.verify_in_windows(material, reporter, checkpoints, window);
    if let Some(table) = table {
        reporter.class_done(&table.stats(), start.elapsed());
    }
    match result {
        Ok(report) => VerifyOutcome::Verified(report),
        Err(error) => VerifyOutcome::Failed { material, error },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::ClassStats;
    use crate::generate::runs::generate_dir;
    use crate::progress::{NoProgress, Pass, Stage};
    use std::path::PathBuf;
    use std::sync::Mutex;
    use surakarta_index::Scheme;

    /// A fresh directory with every class up to 4 pieces, compact.
    fn tables(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "surakarta-verify-dir-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        generate_dir(&dir, 4, Scheme::Symmetric, 2, &NoProgress).unwrap();
        dir
    }

    fn m(s: &str) -> Material {
        s.parse().unwrap()
    }

    /// Flips bits of byte `at` of `class`'s file (negative: from the end).
    fn damage(dir: &Path, class: &str, at: isize) {
        let path = dir.join(crate::format::file_name(m(class)));
        let mut bytes = std::fs::read(&path).unwrap();
        let at = if at < 0 {
            bytes.len() - at.unsigned_abs()
        } else {
            at.unsigned_abs()
        };
        bytes[at] ^= 0x40;
        std::fs::write(&path, bytes).unwrap();
    }

    /// The checkpoint files left in `dir`.
    fn checkpoint_files(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with("-verify.ckpt"))
            .collect();
        names.sort();
        names
    }

    /// Records what a run reports: each event with the table it is about.
    #[derive(Default)]
    struct Recorder {
        events: Mutex<Vec<String>>,
        current: Mutex<String>,
    }

    impl Recorder {
        fn push(&self, event: String) {
            self.events.lock().unwrap().push(event);
        }
        fn events(&self) -> Vec<String> {
            self.events.lock().unwrap().clone()
        }
    }

    impl Progress for Recorder {
        fn started(&self, total_slots: u64) {
            self.push(format!("started {total_slots}"));
        }
        fn pair_started(&self, materials: &[Material], slots: u64) {
            *self.current.lock().unwrap() = materials[0].to_string();
            self.push(format!("{} {slots}", materials[0]));
        }
        fn progress(&self, pass: Pass, _done: u64, _total: u64) {
            assert_eq!(pass, Pass::Verify);
            let current = self.current.lock().unwrap().clone();
            let mut events = self.events.lock().unwrap();
            let event = format!("{current} re-derived");
            if events.last() != Some(&event) {
                events.push(event);
            }
        }
        fn class_done(&self, stats: &ClassStats, _elapsed: Duration) {
            self.push(format!("{} done", stats.material));
        }
        fn checkpoint_resumed(&self, stage: Stage) {
            let finished = matches!(stage, Stage::Verify { done, total } if done == total);
            let current = self.current.lock().unwrap().clone();
            self.push(format!("{current} resumed finished={finished}"));
        }
        fn checkpoint_rejected(&self, path: &Path, _why: &str) {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            self.push(format!("rejected {name}"));
        }
    }

    /// A file that does not open, a table whose payload is damaged and a
    /// table whose partner does not open are each an outcome with errors,
    /// in order (the unreadable file first, then pair by pair); the other
    /// tables verify clean; what `each` gets is what is returned.
    #[test]
    fn damaged_tables_are_outcomes_with_errors() {
        let dir = tables("damaged");
        let clean = verify_dir(&dir, &NoProgress).unwrap();
        assert_eq!(clean.len(), 6);
        assert!(clean.iter().all(
            |o| matches!(o, VerifyOutcome::Verified(r) if r.errors() == 0 && r.positions > 0)
        ));
        damage(&dir, "2v1", 20); // the header
        damage(&dir, "2v2", -7); // the payload
        let mut seen = Vec::new();
        let outcomes = verify_tables(
            &dir,
            &VerifyOptions::default(),
            Tablebase::open_dir_partial,
            &NoProgress,
            |o| seen.push(format!("{}: {}", o.material(), o.errors())),
        )
        .unwrap();
        let listed: Vec<String> = outcomes
            .iter()
            .map(|o| format!("{}: {}", o.material(), o.errors()))
            .collect();
        assert_eq!(seen, listed);
        let classes: Vec<Material> = outcomes.iter().map(VerifyOutcome::material).collect();
        let expected = ["2v1", "1v1", "1v2", "3v1", "1v3", "2v2"].map(m);
        assert_eq!(classes, expected);
        match &outcomes[0] {
            VerifyOutcome::Unreadable { error, .. } => {
                assert!(error.to_string().contains("2v1.sktb"), "{error}");
            }
            other => panic!("{other:?}"),
        }
        match &outcomes[2] {
            VerifyOutcome::Failed { error, .. } => {
                assert!(error.to_string().contains("2v1.sktb"), "{error}");
            }
            other => panic!("{other:?}"),
        }
        match &outcomes[5] {
            VerifyOutcome::Verified(report) => {
                assert!(!report.checksum_ok);
                assert!(report.errors() > 0);
            }
            other => panic!("{other:?}"),
        }
        // 1v2's quiet moves and the compact 3v1 and 1v3 need 2v1.
        let errors: Vec<u64> = outcomes.iter().map(VerifyOutcome::errors).collect();
        assert_eq!(errors[..5], [1, 0, 1, 1, 1], "{outcomes:?}");
        assert!(errors[5] >= 1, "{outcomes:?}");
        // Only the classes chosen: the unreadable file is an outcome only
        // when its class is among them.
        let only = |classes: &[&str]| VerifyOptions {
            classes: classes.iter().map(|&c| m(c)).collect(),
            ..VerifyOptions::default()
        };
        let outcomes = verify_dir_with(&dir, &only(&["3v1", "1v1"]), &NoProgress).unwrap();
        assert_eq!(
            outcomes.iter().map(|o| o.material()).collect::<Vec<_>>(),
            ["1v1", "3v1"].map(m)
        );
        let errors: Vec<u64> = outcomes.iter().map(VerifyOutcome::errors).collect();
        assert_eq!(errors, [0, 1], "{outcomes:?}");
        let outcomes = verify_dir_with(&dir, &only(&["2v1"]), &NoProgress).unwrap();
        assert!(matches!(
            outcomes[..],
            [VerifyOutcome::Unreadable { material, .. }] if material == m("2v1")
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Checking only the checksums finds a damaged header or payload, a
    /// file with trailing data, and needs neither the memory nor the
    /// tables the chosen classes' captures reach.
    #[test]
    fn checksums_only_finds_damage_without_re_deriving() {
        let dir = tables("checksums");
        damage(&dir, "2v2", -7); // the payload
        let mut bytes = std::fs::read(dir.join("3v1.sktb")).unwrap();
        bytes.push(0);
        std::fs::write(dir.join("3v1.sktb"), bytes).unwrap();
        std::fs::remove_file(dir.join("1v1.sktb")).unwrap(); // what 2v1's captures reach
        let options = |classes: &[&str]| VerifyOptions {
            classes: classes.iter().map(|&c| m(c)).collect(),
            memory_limit: Some(1),
            checksums_only: true,
            ..VerifyOptions::default()
        };
        let outcomes = verify_dir_with(&dir, &options(&[]), &NoProgress).unwrap();
        let found: Vec<String> = outcomes
            .iter()
            .map(|o| format!("{}: {}", o.material(), o.errors()))
            .collect();
        assert_eq!(
            found,
            ["3v1: 1", "1v2: 0", "1v3: 0", "2v1: 0", "2v2: 1"],
            "{outcomes:?}"
        );
        assert!(
            matches!(&outcomes[0], VerifyOutcome::Unreadable { error, .. }
            if error.to_string().contains("trailing data"))
        );
        let outcomes = verify_dir_with(&dir, &options(&["2v1", "1v2"]), &NoProgress).unwrap();
        assert!(outcomes.iter().all(|o| matches!(o,
            VerifyOutcome::Verified(r) if r.errors() == 0 && r.positions == 0)));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A class without a file, or a pair above the memory limit, stops the
    /// run before anything is reported or verified.
    #[test]
    fn a_missing_class_or_too_little_memory_stops_before_anything() {
        let dir = tables("refused");
        for (options, needle) in [
            (
                VerifyOptions {
                    classes: vec![m("1v1"), m("5v1")],
                    ..VerifyOptions::default()
                },
                "5v1.sktb not found",
            ),
            (
                VerifyOptions {
                    memory_limit: Some(1 << 20),
                    ..VerifyOptions::default()
                },
                "verifying pair 1v1 needs about ",
            ),
        ] {
            let recorder = Recorder::default();
            let mut seen = 0;
            let e = verify_tables(
                &dir,
                &options,
                Tablebase::open_dir_partial,
                &recorder,
                |_| seen += 1,
            )
            .unwrap_err();
            assert!(e.to_string().contains(needle), "{e}");
            assert_eq!(seen, 0);
            assert!(recorder.events().is_empty(), "{:?}", recorder.events());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Finished verifications saved by an earlier run (stopped before its
    /// end) are reported from their checkpoints: a pair whose tables are
    /// all finished is not re-derived, a pair with one table finished
    /// re-derives only the other; a damaged checkpoint is rejected and its
    /// table verified again. The outcomes are those of a run without
    /// checkpoints, and no checkpoint is left at the end.
    #[test]
    fn a_checkpointed_run_resumes_and_cleans_up() {
        let dir = tables("resume");
        let reference = verify_dir(&dir, &NoProgress).unwrap();
        // What a run stopped during pair 3v1 leaves: 1v1, 2v1 and 1v2
        // finished, 3v1 finished but not 1v3.
        {
            let tb = Tablebase::open_dir(&dir).unwrap();
            let c = VerifyCheckpoints::new(&dir, Duration::ZERO).unwrap();
            for class in ["1v1", "2v1", "1v2", "3v1"] {
                tb.verify_with(m(class), &NoProgress, Some(&c)).unwrap();
            }
        }
        std::fs::write(dir.join("2v2-verify.ckpt"), b"SKVRFY\0\x01 damaged").unwrap();
        assert_eq!(
            checkpoint_files(&dir),
            ["1v1", "1v2", "2v1", "2v2", "3v1"].map(|c| format!("{c}-verify.ckpt"))
        );
        let options = VerifyOptions {
            checkpoint_every: Some(Duration::ZERO),
            ..VerifyOptions::default()
        };
        let recorder = Recorder::default();
        let outcomes = verify_dir_with(&dir, &options, &recorder).unwrap();
        assert_eq!(format!("{outcomes:?}"), format!("{reference:?}"));
        assert!(checkpoint_files(&dir).is_empty());
        let events = recorder.events();
        let about = |class: &str| -> Vec<&str> {
            events
                .iter()
                .filter_map(|e| e.strip_prefix(class)?.strip_prefix(' '))
                .collect()
        };
        assert!(events[0].starts_with("started "), "{events:?}");
        for class in ["1v1", "2v1", "1v2", "3v1"] {
            assert_eq!(
                about(class)[1..],
                ["resumed finished=true", "done"],
                "{events:?}"
            );
        }
        assert_eq!(about("1v3")[1..], ["re-derived", "done"], "{events:?}");
        assert!(events.contains(&"rejected 2v2-verify.ckpt".to_string()));
        assert_eq!(about("2v2")[1..], ["re-derived", "done"], "{events:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
