//! The `--memory-limit` of the `tb` subcommands that expand or build
//! tables in memory (`generate`, `verify`).

use crate::common::usage::UsageError;

/// The memory limit in bytes for `--memory-limit GIB`: the value given if
/// it is a positive number of GiB, else the memory available when the
/// command starts ([`available_memory`]; `None` if unknown: no limit).
pub(crate) fn memory_limit(gib: Option<f64>) -> Result<Option<u64>, UsageError> {
    match gib {
        Some(gib) if !(gib > 0.0 && gib.is_finite()) => Err(UsageError(format!(
            "--memory-limit {gib} is out of range: give a positive number of GiB"
        ))),
        Some(gib) => Ok(Some((gib * (1u64 << 30) as f64) as u64)),
        None => Ok(available_memory()),
    }
}

/// The memory available to a new process (Linux: `MemAvailable` of
/// `/proc/meminfo`, which counts reclaimable page cache), if known.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
