//! `tb plan --format snakemake`: the plan as a Snakefile.

use super::quote::{program_path, python_string, snakemake_path, snakemake_shell_word, Unwritable};
use super::{checkpoint_seconds, command, comment, join, Requests};
use core::fmt::Write as _;
use surakarta_tablebase::plan::{Plan, MEMORY_MARGIN, TIME_MARGIN};

/// A Snakefile: a rule per pair whose `output` is its table files in
/// `dir`, `input` its dependencies' files, with `threads`, `resources`
/// (`mem_mb`, `runtime` in minutes, from the estimates with margins and
/// capped by `requests`; the Slurm executor's `slurm_partition`,
/// `slurm_account`, `qos` and `slurm_extra` when given) and a `shell` command
/// running `binary tb generate --pair`; and a first rule `all` asking for
/// every table. A pair whose time is capped is retried (`retries`),
/// each attempt continuing from the last one's checkpoint. Snakemake's own
/// resume and its cluster executors (`--executor slurm`) then apply.
///
/// Paths are written as Python literals, and in the command as shell words
/// with doubled braces; a `dir` with `{` (which Snakemake would read as a
/// wildcard) or an empty path is refused.
pub(super) fn snakefile(
    plan: &Plan,
    dir: &str,
    binary: &str,
    requests: &Requests,
) -> Result<String, Unwritable> {
    snakemake_path("--dir", dir)?;
    let binary = &program_path(binary, "a Snakefile")?;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Snakefile from `surakarta tb plan --pieces {} --format snakemake`: the\n\
         # tables up to {} pieces, one rule per pair (a class and its swap), in\n\
         # the directory {}.\n\
         # Run: snakemake --cores N (locally) or snakemake --executor slurm --jobs J.\n\
         # mem_mb and runtime (minutes) are the plan's estimates times {MEMORY_MARGIN} and\n\
         # {TIME_MARGIN}: a model (docs/big-tables.md), not measurements.",
        plan.pieces,
        plan.pieces,
        python_string(dir)
    );
    let table = |name: &str| snakemake_path("--dir", &join(dir, name));
    s.push_str("\nlocalrules: all\n\nrule all:\n    input:\n");
    for p in &plan.pairs {
        for name in &p.outputs {
            let _ = writeln!(s, "        {},", table(name)?);
        }
    }
    for p in &plan.pairs {
        let _ = writeln!(s, "\n{}\nrule pair_{}:", comment(plan, p), p.pair);
        if !p.inputs.is_empty() {
            s.push_str("    input:\n");
            for name in &p.inputs {
                let _ = writeln!(s, "        {},", table(name)?);
            }
        }
        s.push_str("    output:\n");
        for name in &p.outputs {
            let _ = writeln!(s, "        {},", table(name)?);
        }
        let _ = writeln!(s, "    threads: {}", plan.settings.threads);
        let _ = writeln!(
            s,
            "    resources:\n        mem_mb={},\n        runtime={},",
            requests.memory_mib(p),
            requests.minutes(p)
        );
        let extra = requests.sbatch_options.join(" ");
        let slurm = [
            ("slurm_partition", requests.partition.clone()),
            ("slurm_account", requests.account.clone()),
            ("qos", requests.qos.clone()),
            ("slurm_extra", (!extra.is_empty()).then_some(extra)),
        ];
        for (key, value) in slurm {
            if let Some(value) = value {
                let _ = writeln!(s, "        {key}={},", python_string(&value));
            }
        }
        let jobs = requests.jobs(p);
        let mut command = command(
            plan,
            p.pair,
            &snakemake_shell_word(binary),
            &snakemake_shell_word(dir),
            "{threads}",
        );
        if jobs > 1 {
            let _ = writeln!(s, "    retries: {}", jobs - 1);
            let every = checkpoint_seconds(requests.minutes(p));
            let _ = write!(command, " --checkpoint-every={every}");
        }
        let _ = writeln!(s, "    shell:\n        {}", python_string(&command));
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use surakarta_tablebase::plan::Settings;

    #[test]
    fn snakefiles_write_python_literals_and_refuse_wildcards() {
        let plan = Plan::new(3, Settings::default()).unwrap();
        // Python literals, doubled braces in the command only.
        let snake = snakefile(
            &plan,
            "my }tables\n",
            "/opt/x y/{surakarta}",
            &Requests::default(),
        )
        .unwrap();
        assert!(
            snake.contains("        \"my }tables\\n/1v1.sktb\","),
            "{snake}"
        );
        assert!(
            snake.contains(
                "\"'/opt/x y/{{surakarta}}' tb generate --pair 2v1 --dir='my }}tables\\n' --threads={threads}"
            ),
            "{snake}"
        );
        // No raw line break from a path: every line is the generator's.
        assert!(snake
            .lines()
            .all(|l| l.is_empty() || l.starts_with(['#', ' ', 'l', 'r'])));
        assert!(matches!(
            snakefile(&plan, "tabs{x}", "surakarta", &Requests::default()),
            Err(Unwritable {
                what: "--dir",
                workflow: "a Snakefile",
                ..
            })
        ));
    }
}
