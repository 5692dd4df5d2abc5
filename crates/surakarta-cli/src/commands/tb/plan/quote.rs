//! Values (`--dir`, `--binary`) written into workflow files so that the
//! tool reading each place gets the value back exactly: one function per
//! place a value lands. A value a place cannot hold is refused with
//! [`Unwritable`], never written raw.
//!
//! - a POSIX shell word ([`shell_quote`]): single quotes, `'` as `'\''`;
//! - a Python string literal ([`python_string`]): printable ASCII only, so
//!   it is also safe in a Python comment (no line break can end it);
//! - a file of a Snakemake rule ([`snakemake_path`]): a Python literal, but
//!   Snakemake reads `{name}` in a file name as a wildcard and has no
//!   escape for it, so `{` is refused;
//! - a word of a Snakemake `shell:` command ([`snakemake_shell_word`]): a
//!   shell word whose braces are then doubled, as Snakemake formats the
//!   command (quoting first: doubling adds no quote, quoting no brace);
//! - a make variable's value ([`make_value`]): `$` as `$$`, `#` as `\#`;
//!   a file name make would split or read as syntax is refused.

use core::fmt::{self, Write as _};
use surakarta::Excerpt;

/// A path that a workflow file cannot hold: no escaping would make the
/// tool reading the file see it as it is (a line break in a Makefile, `{`
/// in a Snakemake file name, an empty path, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Unwritable {
    /// Which path (`--dir`, `--binary`).
    pub(super) what: &'static str,
    /// The path (its start, if long).
    pub(super) value: Excerpt,
    /// The workflow file (`a Makefile`, `a Snakefile`, `a Slurm script`).
    pub(super) workflow: &'static str,
    /// Why it cannot be written there.
    pub(super) problem: String,
}

impl fmt::Display for Unwritable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} cannot go in {}: {}",
            self.what, self.value, self.workflow, self.problem
        )
    }
}

impl std::error::Error for Unwritable {}

/// The refusal of `value` (given as `what`) in `workflow`.
fn unwritable(
    what: &'static str,
    value: &str,
    workflow: &'static str,
    problem: impl Into<String>,
) -> Unwritable {
    Unwritable {
        what,
        value: Excerpt::new(value),
        workflow,
        problem: problem.into(),
    }
}

/// Checks what every workflow needs of a path: it names something (not
/// empty) and can be a file name (no NUL byte).
pub(super) fn check_path(
    what: &'static str,
    value: &str,
    workflow: &'static str,
) -> Result<(), Unwritable> {
    if value.is_empty() {
        return Err(unwritable(what, value, workflow, "it is empty"));
    }
    if value.contains('\0') {
        return Err(unwritable(
            what,
            value,
            workflow,
            "a path cannot hold a NUL character",
        ));
    }
    Ok(())
}

/// The program path `value` (`--binary`) as the first word of a shell
/// command may hold it: bash reads a command word that starts with `%` as
/// a job (`%1` is `fg %1`, even quoted: "fg: no job control"), so a
/// relative path with a `/` gets `./` in front (the same file), and a bare
/// program name starting with `%` (looked up in `PATH`) is refused; other
/// paths are unchanged. Also [`check_path`].
pub(super) fn program_path(value: &str, workflow: &'static str) -> Result<String, Unwritable> {
    check_path("--binary", value, workflow)?;
    if !value.starts_with('%') {
        return Ok(value.to_string());
    }
    if value.contains('/') {
        return Ok(format!("./{value}"));
    }
    Err(unwritable(
        "--binary",
        value,
        workflow,
        "bash reads a command starting with '%' as a job: give the program's path (./%…)",
    ))
}

/// Whether a shell word made only of these characters means itself.
fn shell_safe(c: char) -> bool {
    c.is_ascii_alphanumeric() || "/._-+,@:".contains(c)
}

/// A word for the POSIX shell (and bash): as it is when every character
/// means itself, else in single quotes with each `'` written `'\''`.
#[must_use]
pub(super) fn shell_quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(shell_safe) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// A Python string literal of `s`, in printable ASCII only: `"` and `\`
/// escaped, line breaks, tabs and other control characters as `\n`, `\r`,
/// `\t`, `\xNN`, and every non-ASCII character as `\uNNNN` or
/// `\UNNNNNNNN`. It holds no line break, so it is also safe in a comment.
#[must_use]
pub(super) fn python_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ' '..='~' => out.push(c),
            c if u32::from(c) < 0x100 => {
                let _ = write!(out, "\\x{:02x}", u32::from(c));
            }
            c if u32::from(c) < 0x1_0000 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => {
                let _ = write!(out, "\\U{:08x}", u32::from(c));
            }
        }
    }
    out.push('"');
    out
}

/// A file of a Snakemake rule (`input:`, `output:`) as a Python literal.
/// Refuses `{`: Snakemake reads `{name}` in a file name as a wildcard,
/// and doubling the braces does not escape it.
pub(super) fn snakemake_path(what: &'static str, path: &str) -> Result<String, Unwritable> {
    check_path(what, path, "a Snakefile")?;
    if path.contains('{') {
        return Err(unwritable(
            what,
            path,
            "a Snakefile",
            "Snakemake reads '{' in a file name as the start of a wildcard and has no escape for it",
        ));
    }
    Ok(python_string(path))
}

/// A word of a Snakemake `shell:` command: shell-quoted, then its braces
/// doubled, since Snakemake formats the command (`{threads}`) before the
/// shell reads it.
#[must_use]
pub(super) fn snakemake_shell_word(s: &str) -> String {
    shell_quote(s).replace('{', "{{").replace('}', "}}")
}

/// `value` as the value of a make variable (`NAME := value`), `$` as `$$`
/// and `#` as `\#`. A `target` (a path make takes as file names of rules)
/// is refused if make would split it or read part of it as syntax: blanks,
/// `:`, `;`, `|`, `%`, wildcards, parentheses, a leading `~`. Every value
/// is refused with a control character (no make line holds a line break)
/// or a backslash (make reads it as an escape), and a command's value with
/// leading or trailing blanks (make drops them).
pub(super) fn make_value(
    what: &'static str,
    value: &str,
    target: bool,
) -> Result<String, Unwritable> {
    const MAKEFILE: &str = "a Makefile";
    check_path(what, value, MAKEFILE)?;
    let refuse = |problem: String| Err(unwritable(what, value, MAKEFILE, problem));
    for c in value.chars() {
        let problem = match c {
            c if c.is_control() => "no make line can hold it",
            '\\' => "make reads a backslash as an escape",
            ' ' if target => "make splits file names at blanks",
            ':' | ';' | '|' if target => "make reads it as part of a rule",
            '%' if target => "make reads it as a pattern",
            '*' | '?' | '[' | ']' if target => "make expands wildcards in file names",
            '(' | ')' if target => "make reads parentheses as an archive member",
            _ => continue,
        };
        return refuse(format!("it holds {c:?}, and {problem}"));
    }
    if target && value.starts_with('~') {
        return refuse("make expands a leading '~' to a home directory".to_string());
    }
    if value.trim_matches(' ') != value {
        return refuse("make drops leading and trailing blanks".to_string());
    }
    Ok(value.replace('$', "$$").replace('#', "\\#"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_path_starting_with_a_percent_sign_is_not_read_as_a_job() {
        assert_eq!(
            program_path("/usr/bin/x", "a Snakefile").unwrap(),
            "/usr/bin/x"
        );
        assert_eq!(
            program_path("%d%s %n", "a Snakefile").unwrap_err().what,
            "--binary"
        );
        assert_eq!(program_path("%d/%n", "a Snakefile").unwrap(), "./%d/%n");
        assert_eq!(program_path("a%b", "a Snakefile").unwrap(), "a%b");
        assert!(program_path("", "a Snakefile").is_err());
    }

    #[test]
    fn shell_words_are_single_quoted_unless_plain() {
        assert_eq!(shell_quote("/usr/bin/surakarta"), "/usr/bin/surakarta");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
        // Tilde expansion and assignments are not plain words.
        assert_eq!(shell_quote("~x"), "'~x'");
        assert_eq!(shell_quote("A=b"), "'A=b'");
        assert_eq!(
            shell_quote("$(touch m)`x`\n\"{}\";\\"),
            "'$(touch m)`x`\n\"{}\";\\'"
        );
    }

    #[test]
    fn python_literals_are_printable_ascii() {
        assert_eq!(python_string("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(
            python_string("t\nimport os\r\t#"),
            "\"t\\nimport os\\r\\t#\""
        );
        assert_eq!(python_string("\0\x7f"), "\"\\x00\\x7f\"");
        assert_eq!(python_string("é\u{2028}🂡"), "\"\\xe9\\u2028\\U0001f0a1\"");
        // Braces and quotes of the other kind stay: a literal is not
        // formatted.
        assert_eq!(python_string("{x}'"), "\"{x}'\"");
    }

    #[test]
    fn snakemake_refuses_wildcards_and_doubles_braces_in_commands() {
        assert_eq!(snakemake_path("--dir", "a}b").unwrap(), "\"a}b\"");
        let e = snakemake_path("--dir", "tabs{x}").unwrap_err();
        assert_eq!(
            e.to_string(),
            "--dir \"tabs{x}\" cannot go in a Snakefile: Snakemake reads '{' in a file \
             name as the start of a wildcard and has no escape for it"
        );
        assert!(snakemake_path("--dir", "").is_err());
        assert_eq!(snakemake_shell_word("a{b}"), "'a{{b}}'");
        assert_eq!(snakemake_shell_word("x'}"), "'x'\\''}}'");
    }

    #[test]
    fn make_values_escape_dollar_and_hash_and_refuse_syntax() {
        assert_eq!(make_value("--dir", "t$x#y", true).unwrap(), "t$$x\\#y");
        assert_eq!(
            make_value("--dir", "'\"`{}!&=,@+^é", true).unwrap(),
            "'\"`{}!&=,@+^é"
        );
        // A command may hold blanks and what only rules read.
        assert_eq!(
            make_value("--binary", "/opt/a b;c|d:e%(f)*", false).unwrap(),
            "/opt/a b;c|d:e%(f)*"
        );
        for dir in [
            "a b", "a:b", "a;b", "a|b", "a%b", "a*b", "a?b", "a[b", "a(b", "~x", "a\\b", "a\nb",
            "a\tb", "", "a\0b",
        ] {
            let e = make_value("--dir", dir, true).unwrap_err();
            assert!(
                e.to_string()
                    .starts_with(&format!("--dir {dir:?} cannot go in a Makefile: ")),
                "{e}"
            );
        }
        for binary in ["a\nb", " a", "a ", "a\\b"] {
            assert!(make_value("--binary", binary, false).is_err(), "{binary:?}");
        }
        let e = make_value("--dir", "a b", true).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--dir \"a b\" cannot go in a Makefile: it holds ' ', and make splits file \
             names at blanks"
        );
    }
}
