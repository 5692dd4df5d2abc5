//! `tb plan --format make`: the plan as a Makefile.

use super::quote::{make_value, program_path, Unwritable};
use super::{command, comment};
use core::fmt::Write as _;
use surakarta_tablebase::plan::Plan;

/// A Makefile (GNU make 4.3 or newer): a grouped target (`&:`) per pair,
/// its table files in `$(DIR)`, with its dependencies' files as
/// prerequisites, so `make -j J` runs each pair once, after its
/// dependencies; `all` (the default goal) asks for every table. `DIR`,
/// `SURAKARTA` and `THREADS` can be overridden on make's command line.
///
/// The values are written with make's escapes (`$$`, `\#`) and the recipes
/// single-quote them for the shell; a value make cannot hold (a line break,
/// a backslash, and in `dir`, which names targets, blanks and make's rule
/// syntax) is refused.
pub(super) fn makefile(plan: &Plan, dir: &str, binary: &str) -> Result<String, Unwritable> {
    let dir = make_value("--dir", dir, true)?;
    let binary = make_value("--binary", &program_path(binary, "a Makefile")?, false)?;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Makefile from `surakarta tb plan --pieces {} --format make`: the tables up\n\
         # to {} pieces in $(DIR), one grouped target per pair (GNU make 4.3 or newer).\n\
         # Run: make -j J [DIR=...] [THREADS=...] [SURAKARTA=...]\n\
         # Each pair needs the memory in its comment (an estimate from a model,\n\
         # docs/big-tables.md): keep J times it within the machine's memory.\n\n\
         SURAKARTA := {binary}\nDIR := {dir}\nTHREADS := {}\n\n\
         # $(call quote,WORD): WORD as one shell word, in single quotes.\n\
         quote = '$(subst ','\\'',$(1))'\n\n.PHONY: all\n",
        plan.pieces, plan.pieces, plan.settings.threads
    );
    let files = |names: &[String]| -> String {
        names
            .iter()
            .map(|f| format!("$(DIR)/{f}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let all: Vec<String> = plan.pairs.iter().map(|p| files(&p.outputs)).collect();
    let _ = writeln!(s, "all: {}", all.join(" \\\n     "));
    for p in &plan.pairs {
        let _ = writeln!(
            s,
            "\n{}\n{} &:{}{}\n\t{}",
            comment(plan, p),
            files(&p.outputs),
            if p.inputs.is_empty() { "" } else { " " },
            files(&p.inputs),
            command(
                plan,
                p.pair,
                "$(call quote,$(SURAKARTA))",
                "$(call quote,$(DIR))",
                "$(call quote,$(THREADS))"
            )
        );
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use surakarta_tablebase::plan::Settings;

    #[test]
    fn makefiles_escape_values_or_refuse_them() {
        let plan = Plan::new(3, Settings::default()).unwrap();
        // `$` and `#` escaped, the recipe quotes for the shell.
        let make = makefile(&plan, "t$x#y", "/opt/x y/surakarta").unwrap();
        assert!(make.contains("\nDIR := t$$x\\#y\n"), "{make}");
        assert!(make.contains("SURAKARTA := /opt/x y/surakarta\n"), "{make}");
        assert!(
            make.contains(
                "\t$(call quote,$(SURAKARTA)) tb generate --pair 2v1 --dir=$(call quote,$(DIR))"
            ),
            "{make}"
        );
        // 2v1 needs 1v1; 1v1 needs nothing.
        assert!(make.contains("\n$(DIR)/2v1.sktb $(DIR)/1v2.sktb &: $(DIR)/1v1.sktb\n"));
        assert!(make.contains("\n$(DIR)/1v1.sktb &:\n"));
        for dir in ["my tables", "a:b", "t\nx", ""] {
            assert!(matches!(
                makefile(&plan, dir, "surakarta"),
                Err(Unwritable {
                    what: "--dir",
                    workflow: "a Makefile",
                    ..
                })
            ));
        }
    }
}
