//! `tb plan --format slurm`: the plan as a bash script of `sbatch` calls.

use super::comment;
use super::quote::{check_path, shell_quote, Unwritable};
use core::fmt::Write as _;
use surakarta_tablebase::plan::{Plan, MEMORY_MARGIN, TIME_MARGIN};

/// A bash script submitting one Slurm job per pair (`sbatch --parsable`),
/// each with `--dependency=afterok:` on the jobs of its dependencies,
/// `--mem` and `--time` from the estimates with margins, and
/// `--cpus-per-task` the plan's threads. Pairs whose tables are all in
/// `dir` already are not submitted (and not waited for). `dir` must be on
/// a filesystem every node shares.
///
/// Paths are written as single-quoted shell words, and each job's command
/// is quoted again, word by word, for the `/bin/sh` that runs `sbatch
/// --wrap`; an empty path is refused.
pub(super) fn slurm_script(plan: &Plan, dir: &str, binary: &str) -> Result<String, Unwritable> {
    check_path("--dir", dir, "a Slurm script")?;
    check_path("--binary", binary, "a Slurm script")?;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "#!/usr/bin/env bash\n\
         # From `surakarta tb plan --pieces {} --format slurm`: one Slurm job per pair\n\
         # for the tables up to {} pieces in $DIR, which every node must share. --mem and\n\
         # --time are the plan's estimates times {MEMORY_MARGIN} and {TIME_MARGIN}: a model\n\
         # (docs/tablebase.md), not measurements; a job that fails cancels the jobs\n\
         # waiting for it. Pairs whose tables are all there are not submitted again.\n\
         set -euo pipefail\n\
         shopt -s inherit_errexit\n\n\
         if [ -z \"${{SURAKARTA:-}}\" ]; then SURAKARTA={}; fi\n\
         if [ -z \"${{DIR:-}}\" ]; then DIR={}; fi\n\
         THREADS=${{THREADS:-{}}}\n\
         mkdir -p -- \"$DIR\"\n",
        plan.pieces,
        plan.pieces,
        shell_quote(binary),
        shell_quote(dir),
        plan.settings.threads
    );
    let _ = writeln!(
        s,
        "# sh_words WORD...: the words as one command line for the /bin/sh that runs\n\
         # sbatch --wrap, each in single quotes (a quote in a word as '\\'').\n\
         sh_words() {{\n\
         \x20   local q=\"'\" bs='\\' word line=\n\
         \x20   for word in \"$@\"; do\n\
         \x20       line+=\" $q${{word//$q/$q$bs$q$q}}$q\"\n\
         \x20   done\n\
         \x20   printf '%s' \"${{line# }}\"\n\
         }}\n\n\
         # submit PAIR MEM_MIB MINUTES [JOB_ID...]: submits PAIR's job to start after\n\
         # the given jobs succeed, and prints its id (nothing if its tables are there).\n\
         submit() {{\n\
         \x20   local pair=$1 mem=$2 minutes=$3\n\
         \x20   shift 3\n\
         \x20   local a=${{pair%v*}} b=${{pair#*v}}\n\
         \x20   if [ -e \"$DIR/${{a}}v${{b}}.sktb\" ] && [ -e \"$DIR/${{b}}v${{a}}.sktb\" ]; then\n\
         \x20       return 0\n\
         \x20   fi\n\
         \x20   local after=() job\n\
         \x20   for job in \"$@\"; do\n\
         \x20       if [ -n \"$job\" ]; then after+=(\"$job\"); fi\n\
         \x20   done\n\
         \x20   local dependency=()\n\
         \x20   if [ \"${{#after[@]}}\" -gt 0 ]; then\n\
         \x20       dependency=(\"--dependency=afterok:$(IFS=:; echo \"${{after[*]}}\")\" --kill-on-invalid-dep=yes)\n\
         \x20   fi\n\
         \x20   local id\n\
         \x20   id=$(sbatch --parsable --job-name=\"tb-$pair\" --cpus-per-task=\"$THREADS\" \\\n\
         \x20       --mem=\"${{mem}}M\" --time=\"$minutes\" ${{dependency[@]+\"${{dependency[@]}}\"}} \\\n\
         \x20       --wrap=\"$(sh_words \"$SURAKARTA\" tb generate --pair \"$pair\" \"--dir=$DIR\" \\\n\
         \x20           \"--threads=$THREADS\" --format {} --index {})\") || id=\n\
         \x20   if [ -z \"${{id%%;*}}\" ]; then\n\
         \x20       echo \"sbatch gave no job id for pair $pair: stopping\" >&2\n\
         \x20       exit 1\n\
         \x20   fi\n\
         \x20   echo \"${{id%%;*}}\"\n\
         }}",
        plan.settings.format, plan.settings.scheme
    );
    for p in &plan.pairs {
        let after: Vec<String> = p
            .depends_on
            .iter()
            .map(|d| format!(" \"$job_{d}\""))
            .collect();
        let _ = writeln!(
            s,
            "\n{}\njob_{}=$(submit {} {} {}{})",
            comment(plan, p),
            p.pair,
            p.pair,
            p.memory_request_mib(),
            p.time_limit_minutes(),
            after.concat()
        );
    }
    s.push_str("\necho \"submitted; watch with: squeue --me\"\n");
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use surakarta_tablebase::plan::Settings;

    #[test]
    fn slurm_scripts_write_shell_words() {
        let plan = Plan::new(3, Settings::default()).unwrap();
        let slurm = slurm_script(&plan, "my tables", "surakarta").unwrap();
        assert!(
            slurm.contains("if [ -z \"${DIR:-}\" ]; then DIR='my tables'; fi"),
            "{slurm}"
        );
        assert!(
            slurm.contains("job_2v1=$(submit 2v1 256 10 \"$job_1v1\")"),
            "{slurm}"
        );
        assert!(matches!(
            slurm_script(&plan, "tables", ""),
            Err(Unwritable {
                what: "--binary",
                ..
            })
        ));
    }
}
