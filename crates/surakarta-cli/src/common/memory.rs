//! How much memory the process may really use, and the checks made with it
//! before a large allocation: the transposition tables of `search`,
//! `engine`, `match` and `serve`, and the `--memory-limit` of the `tb`
//! subcommands that expand or build tables in memory (`generate`,
//! `verify`).
//!
//! A transposition table is zeroed when it is made, so every page of it is
//! touched at once: asking for more than a cgroup allows gets the process
//! killed (exit 137, no message) rather than refused. So the request is
//! compared first with [`usable_memory`]: the smaller of the memory the
//! kernel reports available and the room left under every cgroup memory
//! limit above the process (v1 `memory.limit_in_bytes`, v2 `memory.max`).

use crate::common::error::CliError;
use std::path::{Path, PathBuf};
use surakarta_search::{Engine, Options};

/// What the process keeps for itself beside a large table (code, stacks,
/// buffers, the other tables): a request must leave this much free.
pub(crate) const RESERVE_BYTES: u64 = 32 << 20;

const MIB: u64 = 1 << 20;
const GIB: f64 = (1u64 << 30) as f64;

/// The memory limit in bytes for `--memory-limit GIB`: the value given if
/// it is a positive number of GiB, else the memory the process may use when
/// the command starts ([`usable_memory`]; `None` if unknown: no limit). A
/// value above what the process may use is lowered to it: a pair that does
/// not fit is refused before it starts rather than killed halfway.
pub(crate) fn memory_limit(gib: Option<f64>) -> Result<Option<u64>, CliError> {
    let usable = usable_memory();
    match gib {
        Some(gib) if !(gib > 0.0 && gib.is_finite()) => Err(CliError(format!(
            "--memory-limit {gib} is out of range: give a positive number of GiB"
        ))),
        Some(gib) => {
            let given = (gib * GIB) as u64;
            Ok(Some(usable.map_or(given, |u| given.min(u))))
        }
        None => Ok(usable),
    }
}

/// Checks that `bytes` more (`what`: "the engine (hash 64 MiB, 1
/// thread)") fit in what the process may use, keeping [`RESERVE_BYTES`]
/// aside; the error names the request, the limit and where the limit comes
/// from. Every large allocation of the CLI is checked here first.
pub(crate) fn check_memory_fits(what: &str, bytes: u64) -> Result<(), String> {
    check_fits(what, bytes, &Memory::read())
}

/// A new engine with `options`, checked first ([`check_engine_fits`]):
/// `search`, `bench`, `play`, `engine`, `match` and each analysis of
/// `serve` make their engines here, so an engine too large is an error,
/// never a kill.
pub(crate) fn new_engine(options: Options) -> Result<Engine, String> {
    check_engine_fits(&options)?;
    Engine::new(options).map_err(|e| e.to_string())
}

/// Checks the ranges of `options` and that the whole engine they make fits
/// in what the process may use ([`check_memory_fits`] with
/// [`Options::memory_bytes`]: the table, and each thread's stack and search
/// state), for callers that have the engine made elsewhere (`bench`).
pub(crate) fn check_engine_fits(options: &Options) -> Result<(), String> {
    check_engines_fit(options, 1, "")
}

/// Checks the ranges of `options` and that `count` engines made with them
/// fit together (`context`, if not empty, says why there are several: "in
/// 4 games at once").
pub(crate) fn check_engines_fit(
    options: &Options,
    count: u64,
    context: &str,
) -> Result<(), String> {
    options.check().map_err(|e| e.to_string())?;
    check_memory_fits(
        &engines_description(options, count, context),
        options.memory_bytes().saturating_mul(count),
    )
}

/// "the engine (hash 64 MiB, 1 thread)", or "4 engines (hash 64 MiB, 1
/// thread each) in 4 games at once".
fn engines_description(options: &Options, count: u64, context: &str) -> String {
    let threads = match options.threads {
        1 => "1 thread".to_string(),
        n => format!("{n} threads"),
    };
    let context = if context.is_empty() {
        String::new()
    } else {
        format!(" {context}")
    };
    match count {
        1 => format!(
            "the engine (hash {} MiB, {threads}){context}",
            options.hash_mb
        ),
        n => format!(
            "{n} engines (hash {} MiB, {threads} each){context}",
            options.hash_mb
        ),
    }
}

/// The MiB an engine with `options` takes ([`Options::memory_bytes`],
/// rounded up).
pub(crate) fn engine_mib(options: &Options) -> u64 {
    options.memory_bytes().div_ceil(MIB)
}

/// [`check_memory_fits`] against a given reading of the machine.
fn check_fits(what: &str, bytes: u64, memory: &Memory) -> Result<(), String> {
    let Some((usable, source)) = memory.usable() else {
        return Ok(());
    };
    if bytes.saturating_add(RESERVE_BYTES) <= usable {
        return Ok(());
    }
    Err(format!(
        "{what}: {} MiB needed, but this process may use only {} MiB more ({source}); ask for less",
        bytes.div_ceil(MIB),
        usable.saturating_sub(RESERVE_BYTES) / MIB,
    ))
}

/// The bytes the process may still allocate: the smallest of the kernel's
/// available memory, the room under the cgroup limits and the room under
/// the address space limit (`ulimit -v`); `None` if none is known.
pub(crate) fn usable_memory() -> Option<u64> {
    Memory::read().usable().map(|(bytes, _)| bytes)
}

/// One reading of the machine's memory figures.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Memory {
    /// `MemAvailable` of `/proc/meminfo` (counts reclaimable page cache).
    available: Option<u64>,
    /// The room left under the tightest cgroup memory limit, and that
    /// cgroup's limit file.
    cgroup: Option<(u64, PathBuf)>,
    /// The room left under the address space limit (`RLIMIT_AS`, `ulimit
    /// -v`): the soft limit less the process's current virtual size.
    address_space: Option<u64>,
}

impl Memory {
    /// Reads `/proc/meminfo`, `/proc/self/cgroup` and
    /// `/proc/self/mountinfo`, and the cgroup files they lead to,
    /// `/proc/self/limits` and `/proc/self/status`. Anything missing or
    /// unreadable counts as no limit.
    fn read() -> Memory {
        let available = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|text| parse_meminfo_available(&text));
        let cgroup = match (
            std::fs::read_to_string("/proc/self/cgroup"),
            std::fs::read_to_string("/proc/self/mountinfo"),
        ) {
            (Ok(cgroups), Ok(mounts)) => cgroup_room(&cgroups, &mounts, &|p: &Path| {
                std::fs::read_to_string(p).ok()
            }),
            _ => None,
        };
        let address_space = match (
            std::fs::read_to_string("/proc/self/limits"),
            std::fs::read_to_string("/proc/self/status"),
        ) {
            (Ok(limits), Ok(status)) => address_space_room(&limits, &status),
            _ => None,
        };
        Memory {
            available,
            cgroup,
            address_space,
        }
    }

    /// The smallest of the figures and where it comes from.
    fn usable(&self) -> Option<(u64, String)> {
        let available = self
            .available
            .map(|a| (a, "the memory the system has available".to_string()));
        let cgroup = self.cgroup.as_ref().map(|(room, file)| {
            (
                *room,
                format!("the room under the cgroup limit of {}", file.display()),
            )
        });
        let address_space = self.address_space.map(|a| {
            (
                a,
                "the room under the address space limit, ulimit -v".to_string(),
            )
        });
        [available, cgroup, address_space]
            .into_iter()
            .flatten()
            .min_by_key(|(bytes, _)| *bytes)
    }
}

/// The soft `Max address space` of `/proc/self/limits` less `VmSize` of
/// `/proc/self/status`, in bytes; `None` if unlimited or unreadable.
fn address_space_room(limits: &str, status: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft: u64 = line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let size_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmSize:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(soft.saturating_sub(size_kib.saturating_mul(1024)))
}

/// `MemAvailable` of `/proc/meminfo`, in bytes.
fn parse_meminfo_available(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// A mounted cgroup hierarchy that carries memory limits.
#[derive(Debug, PartialEq, Eq)]
struct MemoryMount {
    /// Version 2 (the unified hierarchy) or version 1's memory controller.
    v2: bool,
    /// The cgroup path the mount shows at its mount point.
    root: String,
    /// Where it is mounted.
    mount_point: PathBuf,
}

/// The memory cgroup mounts of `/proc/self/mountinfo`: fields `ID PARENT
/// MAJ:MIN ROOT MOUNT-POINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE
/// SUPER-OPTIONS`.
fn memory_mounts(mountinfo: &str) -> Vec<MemoryMount> {
    let mut mounts = Vec::new();
    for line in mountinfo.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        let Some(dash) = fields.iter().position(|f| *f == "-") else {
            continue;
        };
        if fields.len() < 5 || fields.len() < dash + 4 {
            continue;
        }
        let fstype = fields[dash + 1];
        let super_options = fields[dash + 3];
        let v2 = match fstype {
            "cgroup2" => true,
            "cgroup" if super_options.split(',').any(|o| o == "memory") => false,
            _ => continue,
        };
        mounts.push(MemoryMount {
            v2,
            root: unescape_mountinfo(fields[3]),
            mount_point: PathBuf::from(unescape_mountinfo(fields[4])),
        });
    }
    mounts
}

/// Mountinfo writes space, tab, newline and backslash as `\ooo` octal.
fn unescape_mountinfo(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes
            .get(i + 1..i + 4)
            .filter(|_| bytes[i] == b'\\')
            .and_then(|d| std::str::from_utf8(d).ok())
            .and_then(|d| u8::from_str_radix(d, 8).ok());
        match octal {
            Some(b) => {
                out.push(b);
                i += 4;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The room left under the tightest memory limit on the way from the
/// process's cgroups up to the top of each hierarchy, with that cgroup's
/// limit file. `read` reads a file (`None`: absent or unreadable).
fn cgroup_room(
    cgroups: &str,
    mountinfo: &str,
    read: &dyn Fn(&Path) -> Option<String>,
) -> Option<(u64, PathBuf)> {
    let mounts = memory_mounts(mountinfo);
    let mut tightest: Option<(u64, PathBuf)> = None;
    // Lines `HIERARCHY:CONTROLLERS:PATH`; v2 is `0::PATH`.
    for line in cgroups.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let v2 = controllers.is_empty();
        if !v2 && !controllers.split(',').any(|c| c == "memory") {
            continue;
        }
        for mount in mounts.iter().filter(|m| m.v2 == v2) {
            // The part of the path below the mount's root, if the process's
            // cgroup is visible through this mount at all.
            let Some(below) = relative_to(path, &mount.root) else {
                continue;
            };
            let mut dir = mount.mount_point.clone();
            let mut levels = vec![dir.clone()];
            for part in below.split('/').filter(|p| !p.is_empty() && *p != "..") {
                dir.push(part);
                levels.push(dir.clone());
            }
            for level in levels {
                if let Some(room) = room_in(&level, v2, read) {
                    if tightest.as_ref().is_none_or(|(t, _)| room.0 < *t) {
                        tightest = Some(room);
                    }
                }
            }
        }
    }
    tightest
}

/// `path` below `root` (both cgroup paths starting with `/`).
fn relative_to<'a>(path: &'a str, root: &str) -> Option<&'a str> {
    if root == "/" {
        return Some(path);
    }
    let rest = path.strip_prefix(root)?;
    (rest.is_empty() || rest.starts_with('/')).then_some(rest)
}

/// The room under one cgroup's memory limit (limit minus usage, page cache
/// that can be dropped not counted as used), with the limit file; `None`
/// if the cgroup sets no limit.
fn room_in(dir: &Path, v2: bool, read: &dyn Fn(&Path) -> Option<String>) -> Option<(u64, PathBuf)> {
    let (limit_file, usage_file, inactive_key) = if v2 {
        ("memory.max", "memory.current", "inactive_file")
    } else {
        (
            "memory.limit_in_bytes",
            "memory.usage_in_bytes",
            "total_inactive_file",
        )
    };
    let limit_path = dir.join(limit_file);
    let limit: u64 = read(&limit_path)?.trim().parse().ok()?;
    // v1 writes "no limit" as a huge multiple of the page size.
    if limit >= 1 << 60 {
        return None;
    }
    let usage: u64 = read(&dir.join(usage_file))
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(0);
    let inactive: u64 = read(&dir.join("memory.stat"))
        .and_then(|stat| {
            stat.lines().find_map(|l| {
                l.strip_prefix(inactive_key)?
                    .strip_prefix(' ')?
                    .trim()
                    .parse()
                    .ok()
            })
        })
        .unwrap_or(0);
    let used = usage.saturating_sub(inactive.min(usage));
    Some((limit.saturating_sub(used), limit_path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn files(entries: &[(&str, &str)]) -> HashMap<PathBuf, String> {
        entries
            .iter()
            .map(|(p, t)| (PathBuf::from(p), (*t).to_string()))
            .collect()
    }

    const MOUNTS_V1: &str = "\
30 25 0:26 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
31 25 0:27 /process_api/abc /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
32 25 0:28 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw";

    #[test]
    fn finds_the_memory_mounts_of_both_versions() {
        let mounts = memory_mounts(MOUNTS_V1);
        assert_eq!(mounts.len(), 2);
        assert!(!mounts[0].v2);
        assert_eq!(mounts[0].root, "/process_api/abc");
        assert_eq!(
            mounts[0].mount_point,
            PathBuf::from("/sys/fs/cgroup/memory")
        );
        assert!(mounts[1].v2);
    }

    #[test]
    fn a_v1_limit_below_the_mount_root_is_found_and_its_ancestors_are_checked() {
        let cgroups = "4:memory:/process_api/abc/job\n0::/\n";
        let fs = files(&[
            // The mount root itself: 3 GiB, 1 GiB used.
            (
                "/sys/fs/cgroup/memory/memory.limit_in_bytes",
                "3221225472\n",
            ),
            (
                "/sys/fs/cgroup/memory/memory.usage_in_bytes",
                "1073741824\n",
            ),
            // The process's own cgroup: 1 GiB, 600 MiB used of which 100 MiB is cache.
            (
                "/sys/fs/cgroup/memory/job/memory.limit_in_bytes",
                "1073741824\n",
            ),
            (
                "/sys/fs/cgroup/memory/job/memory.usage_in_bytes",
                "629145600\n",
            ),
            (
                "/sys/fs/cgroup/memory/job/memory.stat",
                "cache 5\ntotal_inactive_file 104857600\n",
            ),
        ]);
        let (room, file) = cgroup_room(cgroups, MOUNTS_V1, &|p| fs.get(p).cloned()).unwrap();
        assert_eq!(room, (1024 - 500) << 20);
        assert_eq!(
            file,
            PathBuf::from("/sys/fs/cgroup/memory/job/memory.limit_in_bytes")
        );
    }

    #[test]
    fn v2_max_is_read_and_no_limit_means_none() {
        let mounts = "40 1 0:30 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw";
        let cgroups = "0::/user.slice/run\n";
        let limited = files(&[
            ("/sys/fs/cgroup/user.slice/run/memory.max", "536870912\n"),
            ("/sys/fs/cgroup/user.slice/run/memory.current", "0\n"),
            ("/sys/fs/cgroup/user.slice/memory.max", "max\n"),
        ]);
        assert_eq!(
            cgroup_room(cgroups, mounts, &|p| limited.get(p).cloned()).map(|r| r.0),
            Some(512 << 20)
        );
        let unlimited = files(&[("/sys/fs/cgroup/user.slice/run/memory.max", "max\n")]);
        assert_eq!(
            cgroup_room(cgroups, mounts, &|p| unlimited.get(p).cloned()),
            None
        );
        // v1's "unlimited" value.
        let v1 = files(&[(
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",
            "9223372036854771712\n",
        )]);
        assert_eq!(
            cgroup_room("4:memory:/process_api/abc\n", MOUNTS_V1, &|p| v1
                .get(p)
                .cloned()),
            None
        );
    }

    #[test]
    fn a_cgroup_outside_the_mount_root_is_not_read() {
        let fs = files(&[("/sys/fs/cgroup/memory/memory.limit_in_bytes", "1024\n")]);
        assert_eq!(
            cgroup_room("4:memory:/elsewhere\n", MOUNTS_V1, &|p| fs.get(p).cloned()),
            None
        );
    }

    #[test]
    fn a_request_over_the_room_is_refused_naming_the_limit() {
        let memory = Memory {
            available: Some(8 << 30),
            cgroup: Some((1 << 30, PathBuf::from("/cg/memory.max"))),
            address_space: Some(4 << 30),
        };
        let error = check_fits("the transposition table (hash)", 2048 << 20, &memory).unwrap_err();
        assert!(
            error.starts_with("the transposition table (hash): 2048 MiB needed"),
            "{error}"
        );
        assert!(error.contains("/cg/memory.max"), "{error}");
        assert!(error.contains("992 MiB"), "{error}");
        assert!(check_fits("a table", 512 << 20, &memory).is_ok());
        // The reserve counts: exactly the room is too much.
        assert!(check_fits("a table", 1 << 30, &memory).is_err());
        // Nothing known: no limit.
        assert!(check_fits("a table", u64::MAX, &Memory::default()).is_ok());
    }

    #[test]
    fn the_address_space_limit_counts_what_is_mapped_already() {
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max address space         2147483648           unlimited            bytes\n";
        let status = "Name:\tsurakarta\nVmSize:\t  524288 kB\n";
        assert_eq!(address_space_room(limits, status), Some(1536 << 20));
        let unlimited =
            "Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(address_space_room(unlimited, status), None);
        let memory = Memory {
            address_space: Some(1536 << 20),
            ..Memory::default()
        };
        let error = check_fits("the transposition table (hash)", 4 << 30, &memory).unwrap_err();
        assert!(error.contains("ulimit -v"), "{error}");
    }

    #[test]
    fn meminfo_and_mountinfo_escapes_are_read() {
        assert_eq!(
            parse_meminfo_available("MemTotal: 10 kB\nMemAvailable:     2048 kB\n"),
            Some(2 << 20)
        );
        assert_eq!(unescape_mountinfo("/a\\040b"), "/a b");
        assert_eq!(unescape_mountinfo("/plain\\"), "/plain\\");
    }
}
