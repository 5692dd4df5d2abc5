//! Progress bars on stderr (indicatif), hidden when stderr is not a
//! terminal or output is JSON: [`Bars`] for long tablebase work, [`counter`]
//! for anything counted (games, positions, epochs).

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;
use surakarta_index::Material;
use surakarta_tablebase::{ClassStats, Pass, Progress, Stage};

/// A bar counting to `total` `things` (`games`, `epochs`, …), drawn only if
/// `visible` and stderr is a terminal; `{msg}` follows the estimate.
pub(crate) fn counter(total: u64, things: &str, visible: bool) -> ProgressBar {
    let target = if visible && std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(total), target);
    let template =
        format!("[{{bar:30}}] {{pos}}/{{len}} {things} {{elapsed_precise}} (eta {{eta}})  {{msg}}");
    bar.set_style(
        ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar
}

/// An overall bar (slots of finished classes) and a bar for the current
/// pair or table (slots of the current pass).
pub(crate) struct Bars {
    multi: MultiProgress,
    overall: ProgressBar,
    current: ProgressBar,
    /// Slots finished before the current pair.
    finished: AtomicU64,
    /// The current pair, for the pass message.
    name: Mutex<String>,
    /// Whether to print notes (each pair's memory) on stderr: text output.
    notes: bool,
}

impl Bars {
    /// Bars drawn only if `visible` and stderr is a terminal.
    pub(crate) fn new(visible: bool) -> Bars {
        let target = if visible && std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let multi = MultiProgress::with_draw_target(target);
        let overall = multi.add(ProgressBar::new(0));
        overall.set_style(
            ProgressStyle::with_template(
                "{prefix:>8} [{bar:30}] {percent:>3}% {elapsed_precise} (eta {eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        overall.set_prefix("overall");
        let current = multi.add(ProgressBar::new(0));
        current.set_style(
            ProgressStyle::with_template("{prefix:>8} [{bar:30}] {percent:>3}% {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        Bars {
            multi,
            overall,
            current,
            finished: AtomicU64::new(0),
            name: Mutex::new(String::new()),
            notes: visible,
        }
    }

    /// Marks the current table finished.
    pub(crate) fn finish_table(&self, slots: u64) {
        let done = self.finished.fetch_add(slots, Ordering::Relaxed) + slots;
        self.overall.set_position(done);
    }

    /// Sets the overall length.
    pub(crate) fn set_total(&self, total: u64) {
        self.overall.set_length(total);
    }

    /// Prints a line on stdout, with the bars out of the way.
    pub(crate) fn println(&self, line: &str) {
        self.multi.suspend(|| println!("{line}"));
    }

    /// Prints a line on stderr, with the bars out of the way (also when
    /// the bars are hidden).
    pub(crate) fn eprintln(&self, line: &str) {
        self.multi.suspend(|| eprintln!("{line}"));
    }

    /// Removes the bars.
    pub(crate) fn clear(&self) {
        self.current.finish_and_clear();
        self.overall.finish_and_clear();
        let _ = self.multi.clear();
    }

    fn set_name(&self, name: String) {
        *self.name.lock().unwrap_or_else(|e| e.into_inner()) = name;
    }
}

impl Progress for Bars {
    fn started(&self, total_slots: u64) {
        self.set_total(total_slots);
        self.overall.enable_steady_tick(Duration::from_millis(200));
    }

    fn pair_started(&self, materials: &[Material], slots: u64) {
        let names: Vec<String> = materials.iter().map(Material::to_string).collect();
        self.set_name(names.join(" + "));
        self.current.set_prefix(names[0].clone());
        self.current.set_length(slots);
        self.current.set_position(0);
    }

    fn progress(&self, pass: Pass, done: u64, total: u64) {
        let what = match pass {
            Pass::Initial => "first pass".to_string(),
            Pass::Level(k) => format!("level {k}"),
            Pass::Verify => "verifying".to_string(),
            Pass::Compact => "compacting".to_string(),
        };
        let name = self.name.lock().map(|n| n.clone()).unwrap_or_default();
        self.current.set_message(format!("{name}: {what}"));
        self.current.set_length(total);
        self.current.set_position(done);
    }

    fn class_done(&self, stats: &ClassStats, _elapsed: Duration) {
        self.finish_table(stats.slots);
    }

    fn pair_memory(&self, bytes: u64) {
        if self.notes {
            let name = self.name.lock().map(|n| n.clone()).unwrap_or_default();
            self.eprintln(&format!(
                "{name}: modelled peak memory {}",
                surakarta_tablebase::human_bytes(bytes)
            ));
        }
    }

    fn pair_mapped(&self, work_bytes: u64, window_slots: Option<u64>) {
        if self.notes {
            let name = self.name.lock().map(|n| n.clone()).unwrap_or_default();
            let windows = window_slots.map_or(String::new(), |slots| {
                format!(", in windows of {slots} slots")
            });
            self.eprintln(&format!(
                "{name}: over the memory limit in memory: solving with its state mapped from work files ({}){windows}",
                surakarta_tablebase::human_bytes(work_bytes)
            ));
        }
    }

    fn checkpoint_written(&self, stage: Stage, bytes: u64) {
        let name = self.name.lock().map(|n| n.clone()).unwrap_or_default();
        self.current.set_message(format!(
            "{name}: checkpoint {stage} ({:.1} MB)",
            bytes as f64 / 1e6
        ));
    }

    fn checkpoint_resumed(&self, stage: Stage) {
        let name = self.name.lock().map(|n| n.clone()).unwrap_or_default();
        self.eprintln(&format!("{name}: continuing from its checkpoint {stage}"));
    }

    fn checkpoint_rejected(&self, path: &Path, why: &str) {
        self.eprintln(&format!(
            "warning: {}: {why}; not used, starting over",
            path.display()
        ));
    }
}
