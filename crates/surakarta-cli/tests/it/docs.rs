//! The command transcripts of the README and docs/ are what the binary
//! prints: every fenced block marked `console` is run and compared.
//!
//! A block holds commands (a line starting with `$ `, continued by lines
//! starting with `> ` right after it), each followed by what it prints, stdout and stderr
//! together as on a terminal, and optionally a line `? CODE` with its exit
//! code (0 when absent). Output that changes from run to run is written with
//! snapbox's wildcards: `[..]` inside a line matches any characters, `...` on
//! a line of its own any lines. The commands of one document run in order,
//! in one fresh directory of their own (so a later command reads what an
//! earlier one wrote), through `sh -c` (pipes and redirections work), with
//! the built `surakarta` first on `PATH`. A mismatch fails with a diff
//! naming the document and line.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The documents whose `console` blocks are checked: the README and every
/// Markdown file of docs/, relative to the workspace root.
fn documents() -> Vec<String> {
    let mut documents = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(workspace_root().join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.sort();
    documents.extend(docs);
    documents
}

/// One command of a transcript and what it must print.
#[derive(Debug)]
struct Step {
    /// The line of the document the command starts on (1-based).
    line: usize,
    command: String,
    expected: String,
    code: i32,
}

/// The steps of every `console` block of `text`, in order.
fn steps(text: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut in_console = false;
    let mut in_other = false;
    for (number, line) in text.lines().enumerate() {
        if let Some(info) = line.trim_start().strip_prefix("```") {
            if in_console || in_other {
                in_console = false;
                in_other = false;
            } else if info.split_whitespace().next() == Some("console") {
                in_console = true;
            } else {
                in_other = true;
            }
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            steps.push(Step {
                line: number + 1,
                command: command.to_string(),
                expected: String::new(),
                code: 0,
            });
            continue;
        }
        let step = steps
            .last_mut()
            .unwrap_or_else(|| panic!("line {}: output before any command", number + 1));
        let continued = line.strip_prefix("> ").filter(|_| step.expected.is_empty());
        if let Some(more) = continued {
            step.command.push('\n');
            step.command.push_str(more);
        } else if let Some(code) = line.strip_prefix("? ") {
            step.code = code.trim().parse().expect("an exit code after `? `");
        } else {
            step.expected.push_str(line);
            step.expected.push('\n');
        }
    }
    steps
}

/// The workspace root (two levels above this crate).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("the workspace root")
        .to_path_buf()
}

/// Runs the `console` blocks of `document`; returns the number of steps
/// and a description of each step whose output or exit code differs.
fn check(document: &str) -> (usize, Vec<String>) {
    let text = std::fs::read_to_string(workspace_root().join(document)).unwrap();
    let steps = steps(&text);
    if steps.is_empty() {
        return (0, Vec::new());
    }
    let dir = scratch_dir(&format!("transcripts-{}", document.replace('/', "-")));
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let mut failures = Vec::new();
    for step in &steps {
        let output = Command::new("sh")
            .arg("-c")
            .arg(format!("exec 2>&1\n{}", step.command))
            .current_dir(&dir)
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .output()
            .expect("run sh");
        let printed = String::from_utf8_lossy(&output.stdout).into_owned();
        let name = format!("{document}:{} `{}`", step.line, step.command);
        if output.status.code() != Some(step.code) {
            failures.push(format!(
                "{name}: exit code {:?}, the document says {}\n{printed}",
                output.status.code(),
                step.code
            ));
            continue;
        }
        if let Err(error) = snapbox::Assert::new().try_eq(
            Some(&name),
            printed.into(),
            step.expected.as_str().into(),
        ) {
            failures.push(error.to_string());
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    (steps.len(), failures)
}

#[test]
fn the_documents_transcripts_are_what_the_binary_prints() {
    // The documents are independent (each runs in its own directory), and
    // their steps mostly wait on the binary: checked side by side.
    let documents = documents();
    let results: Vec<(usize, Vec<String>)> = std::thread::scope(|scope| {
        let checks: Vec<_> = documents
            .iter()
            .map(|document| scope.spawn(move || check(document)))
            .collect();
        checks.into_iter().map(|c| c.join().unwrap()).collect()
    });
    let mut failures = Vec::new();
    let mut checked = 0;
    for (steps, differ) in results {
        checked += steps;
        failures.extend(differ);
    }
    // The README's and docs/cli.md's transcripts at least were found.
    assert!(checked >= 10, "only {checked} transcript steps found");
    assert!(
        failures.is_empty(),
        "{} transcript(s) differ from what the binary prints (update the document):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn a_transcript_is_read_as_commands_outputs_and_codes() {
    let text = "text\n```console\n$ surakarta perft 1\n> --json\n{..}\n\n$ false\n? 1\n```\n\
                ```sh\n$ not a step\n```\n";
    let steps = steps(text);
    assert_eq!(steps.len(), 2, "{steps:?}");
    assert_eq!(steps[0].line, 3);
    assert_eq!(steps[0].command, "surakarta perft 1\n--json");
    assert_eq!(steps[0].expected, "{..}\n\n");
    assert_eq!((steps[1].command.as_str(), steps[1].code), ("false", 1));
    assert_eq!(steps[1].expected, "");
    // A wrong transcript is caught: the comparison is real.
    assert!(snapbox::Assert::new()
        .try_eq(None, "win in 5\n".into(), "win in 6\n".into())
        .is_err());
    assert!(snapbox::Assert::new()
        .try_eq(
            None,
            "nodes 1234 nps 99\n".into(),
            "nodes 1234 nps [..]\n".into()
        )
        .is_ok());
}

/// The strength levels as the documents state them are the engine's: the
/// table of docs/search.md (the one place each level's depth, lines and
/// margin are written) has a row for every level 1 to `MAX_LEVEL` with the
/// code's values, and wherever a document gives the levels' range
/// (`level … 1 to N`, `1–N`) or names the full engine's level (`N … full
/// engine`), N is `MAX_LEVEL`.
#[test]
fn documented_levels_are_the_engines() {
    use surakarta_search::{level_parameters, MAX_LEVEL};
    let search = std::fs::read_to_string(workspace_root().join("docs/search.md")).unwrap();
    let section = search
        .split("## Strength levels")
        .nth(1)
        .expect("docs/search.md has a section Strength levels");
    let rows: Vec<Vec<&str>> = section
        .lines()
        .skip_while(|l| !l.starts_with("| Level"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    let levels: Vec<&str> = rows.iter().map(|r| r[0]).collect();
    let expected: Vec<String> = (1..=MAX_LEVEL).map(|l| l.to_string()).collect();
    assert_eq!(levels, expected, "the levels of docs/search.md's table");
    for row in &rows {
        let level: u8 = row[0].parse().unwrap();
        match level_parameters(level) {
            Some(p) => assert_eq!(
                (row[1], row[2], row[3]),
                (
                    p.depth.to_string().as_str(),
                    p.lines.to_string().as_str(),
                    p.margin.to_string().as_str()
                ),
                "level {level} in docs/search.md"
            ),
            None => assert!(row[1].contains("full engine"), "level {level}: {row:?}"),
        }
    }
    let top = MAX_LEVEL.to_string();
    for document in documents() {
        let text = std::fs::read_to_string(workspace_root().join(&document)).unwrap();
        // Sentences wrap: search the text with its line breaks as spaces.
        let text = text.replace('\n', " ");
        let lower = text.to_lowercase();
        for (at, _) in lower.match_indices("level") {
            let after: String = lower[at..].chars().take(20).collect();
            for marker in ["1 to ", "1–"] {
                if let Some(i) = after.find(marker) {
                    let n: String = lower[at + i + marker.len()..]
                        .chars()
                        .take_while(char::is_ascii_digit)
                        .collect();
                    assert!(
                        n.is_empty() || n == top,
                        "{document}: {after:?} gives levels 1 to {n}, the code 1 to {top}"
                    );
                }
            }
        }
        for (at, _) in lower.match_indices("full engine") {
            let before: String = {
                let start = lower[..at]
                    .char_indices()
                    .rev()
                    .nth(50)
                    .map_or(0, |(i, _)| i);
                lower[start..at].to_string()
            };
            if !before.contains("level") && !before.contains('|') {
                continue;
            }
            let last_number: Option<String> = before
                .rsplit(|c: char| !c.is_ascii_digit())
                .find(|s| !s.is_empty())
                .map(String::from);
            if let Some(n) = last_number {
                assert_eq!(
                    n, top,
                    "{document}: {before:?} calls level {n} the full engine, the code {top}"
                );
            }
        }
    }
}

/// The anchors of a Markdown document: each heading as GitHub names it
/// (lower case, punctuation but `-` and `_` dropped, spaces as `-`, a
/// repeated one with `-1`, `-2`, …), outside fenced code blocks.
fn anchors(text: &str) -> Vec<String> {
    let mut anchors: Vec<String> = Vec::new();
    let mut seen: std::collections::HashMap<String, usize> = Default::default();
    let mut fenced = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim().to_lowercase();
        let slug: String = title
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let repeats = seen.entry(slug.clone()).or_insert(0);
        *repeats += 1;
        let repeats = *repeats - 1;
        anchors.push(if repeats == 0 {
            slug
        } else {
            format!("{slug}-{repeats}")
        });
    }
    anchors
}

/// Every relative link of the README, ARCHITECTURE.md, CHANGELOG.md and
/// docs/ leads to a file of the repository and, with `#anchor` into a
/// Markdown file, to one of its headings: moving a section breaks no link
/// silently.
#[test]
fn the_documents_links_lead_somewhere() {
    let root = workspace_root();
    let mut documents = documents();
    documents.extend(["ARCHITECTURE.md".to_string(), "CHANGELOG.md".to_string()]);
    let mut broken = Vec::new();
    let mut checked = 0;
    for document in &documents {
        let text = std::fs::read_to_string(root.join(document)).unwrap();
        let dir = Path::new(document).parent().unwrap_or(Path::new(""));
        for (at, _) in text.match_indices("](") {
            let rest = &text[at + 2..];
            let Some(end) = rest.find(')') else { continue };
            let link = &rest[..end];
            if link.contains("://") || link.starts_with("mailto:") || link.contains(' ') {
                continue;
            }
            let (file, anchor) = link.split_once('#').unwrap_or((link, ""));
            let target = if file.is_empty() {
                PathBuf::from(document)
            } else {
                dir.join(file)
            };
            checked += 1;
            if !root.join(&target).exists() {
                broken.push(format!("{document}: {link}: no file {}", target.display()));
                continue;
            }
            if !anchor.is_empty() && target.extension().is_some_and(|e| e == "md") {
                let target_text = std::fs::read_to_string(root.join(&target)).unwrap();
                if !anchors(&target_text).iter().any(|a| a == anchor) {
                    broken.push(format!("{document}: {link}: no heading #{anchor}"));
                }
            }
        }
    }
    assert!(checked > 200, "only {checked} links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_are_named_as_github_names_them() {
    let text = "# A `code` title\n## The tables' value in a game\n```\n# not a heading\n```\n## 11 pieces\n## 11 pieces\n";
    assert_eq!(
        anchors(text),
        [
            "a-code-title",
            "the-tables-value-in-a-game",
            "11-pieces",
            "11-pieces-1"
        ]
    );
}
