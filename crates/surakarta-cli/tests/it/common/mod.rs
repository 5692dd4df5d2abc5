//! Helpers shared by the CLI's end-to-end tests; each test file includes
//! this module and uses what it needs.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The `surakarta` binary under test.
pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_surakarta");

/// Runs `surakarta ARGS` with no input.
pub(crate) fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("run surakarta")
}

/// Starts `command` with stdout and stderr piped and the given stdin.
fn spawn(command: &mut Command, stdin: Stdio) -> Child {
    command
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run surakarta")
}

/// Runs `surakarta ARGS` with no input; if it has not finished within
/// `limit`, kills it and fails the test (for runs that could hang).
pub(crate) fn run_within(args: &[&str], limit: Duration) -> Output {
    let child = spawn(Command::new(BIN).args(args), Stdio::null());
    wait_within(child, args, limit)
}

/// Runs `surakarta ARGS`, writing `input` to its stdin; if it has not
/// finished within `limit`, kills it and fails the test.
pub(crate) fn run_with_stdin_within(args: &[&str], input: &str, limit: Duration) -> Output {
    let mut child = spawn(Command::new(BIN).args(args), Stdio::piped());
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_string();
    // On its own thread: a child that stops reading must not block the test.
    std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    wait_within(child, args, limit)
}

/// Waits for `child` (stdout and stderr piped) and collects its output;
/// kills it and fails the test if it runs longer than `limit`.
fn wait_within(mut child: Child, args: &[&str], limit: Duration) -> Output {
    // Drain both pipes on their own threads so a full pipe cannot stall it.
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("stdout")));
    let err = drain(Box::new(child.stderr.take().expect("stderr")));
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for surakarta") {
            break status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("surakarta {args:?} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
    }
}

/// `surakarta ARGS` run by `sh` with its address space limited to 2 GiB
/// (`ulimit -v`).
#[cfg(target_os = "linux")]
fn with_2gib_address_space(args: &[&str]) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("ulimit -v 2097152 && exec \"$0\" \"$@\"")
        .arg(BIN)
        .args(args);
    command
}

/// Runs `surakarta ARGS` with its address space limited to 2 GiB (`ulimit
/// -v`), writing to its stdin `before`, then `zeros` zero bytes without a
/// line break, then `after`; fails the test if it runs longer than `limit`.
/// A reader that holds a whole line aborts on a line this long.
#[cfg(target_os = "linux")]
pub(crate) fn run_with_long_line(
    args: &[&str],
    before: &str,
    zeros: u64,
    after: &str,
    limit: Duration,
) -> Output {
    let mut child = spawn(&mut with_2gib_address_space(args), Stdio::piped());
    let mut stdin = child.stdin.take().expect("stdin");
    let (before, after) = (before.to_string(), after.to_string());
    std::thread::spawn(move || {
        let block = vec![0u8; 1 << 20];
        let _ = stdin.write_all(before.as_bytes());
        let mut left = zeros;
        while left > 0 {
            let n = left.min(block.len() as u64) as usize;
            if stdin.write_all(&block[..n]).is_err() {
                return;
            }
            left -= n as u64;
        }
        let _ = stdin.write_all(after.as_bytes());
    });
    wait_within(child, args, limit)
}

/// Runs `surakarta ARGS`, writing `input` to its stdin, with its address
/// space limited to 2 GiB (`ulimit -v`): an allocation of more fails at
/// once on any machine, without using the memory.
#[cfg(target_os = "linux")]
pub(crate) fn run_with_2gib_address_space(args: &[&str], input: &str) -> Output {
    let mut child = spawn(&mut with_2gib_address_space(args), Stdio::piped());
    let mut stdin = child.stdin.take().expect("stdin");
    // The process may exit without reading it all.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().expect("wait for surakarta")
}

/// Runs `surakarta ARGS`, writing `input` to its stdin.
pub(crate) fn run_with_stdin(args: &[&str], input: &str) -> Output {
    run_with_stdin_after(args, input, Duration::ZERO)
}

/// Runs `surakarta ARGS`, writing `input` to its stdin after `delay`.
pub(crate) fn run_with_stdin_after(args: &[&str], input: &str, delay: Duration) -> Output {
    let mut child = spawn(Command::new(BIN).args(args), Stdio::piped());
    let mut stdin = child.stdin.take().expect("stdin");
    std::thread::sleep(delay);
    stdin.write_all(input.as_bytes()).expect("write stdin");
    drop(stdin);
    child.wait_with_output().expect("wait for surakarta")
}

/// The engine's `info string error` lines in `out`.
pub(crate) fn engine_errors(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.starts_with("info string error"))
        .collect()
}

/// The output as text.
pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The error output as text.
pub(crate) fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A path for one test's files, unique to this process, with nothing there.
pub(crate) fn fresh_path(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("surakarta-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&path);
    let _ = std::fs::remove_file(&path);
    path
}

/// Every table up to 5 pieces in the default format, made by `tb generate`
/// once for the whole test binary, in cargo's scratch directory for
/// integration tests (`target/tmp`, replaced by each run). Tests only read
/// it; one that changes tables copies them first.
pub(crate) fn tables_up_to_5() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-up-to-5");
        let _ = std::fs::remove_dir_all(&dir);
        let o = run(&[
            "tb",
            "generate",
            "--pieces",
            "5",
            "--dir",
            dir.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "tb generate: {}", stderr(&o));
        dir
    })
}

/// A fresh directory holding every table of up to `pieces` pieces, made by
/// `tb generate` (fails the test if that fails).
pub(crate) fn generated_tables(name: &str, pieces: u32) -> PathBuf {
    let dir = fresh_path(name);
    let pieces = pieces.to_string();
    let o = run(&[
        "tb",
        "generate",
        "--pieces",
        &pieces,
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "tb generate: {}", stderr(&o));
    dir
}

/// A fresh, empty directory for one test.
pub(crate) fn scratch_dir(name: &str) -> PathBuf {
    let dir = fresh_path(name);
    std::fs::create_dir_all(&dir).expect("create the scratch directory");
    dir
}

/// The run failed with exit code 2 and exactly one `error:` line containing
/// `needle`, and printed nothing on stdout.
pub(crate) fn assert_cli_error(o: &Output, needle: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(needle), "{needle:?} not in {err}");
    assert!(o.stdout.is_empty(), "stdout: {}", stdout(o));
}

/// Makes a FIFO at `path` (with `mkfifo`): an output or input that would
/// block a command that opened it.
#[cfg(unix)]
pub(crate) fn make_fifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.unwrap().success(), "mkfifo {}", path.display());
}

/// A symbolic link `dir/name` to a file `dir/target.txt` holding `keep`:
/// an output path that a command must replace, not write through
/// ([`assert_link_replaced`]).
#[cfg(unix)]
pub(crate) fn link_to_kept_file(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let target = dir.join("target.txt");
    std::fs::write(&target, "keep\n").unwrap();
    let link = dir.join(name);
    std::os::unix::fs::symlink(&target, &link).unwrap();
    (link, target)
}

/// The link of [`link_to_kept_file`] is now a regular file and the file it
/// pointed to is as it was.
#[cfg(unix)]
pub(crate) fn assert_link_replaced(link: &Path, target: &Path) {
    assert_eq!(std::fs::read_to_string(target).unwrap(), "keep\n");
    assert!(std::fs::symlink_metadata(link).unwrap().is_file());
}
