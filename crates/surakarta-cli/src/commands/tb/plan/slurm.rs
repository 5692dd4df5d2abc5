//! `tb plan --format slurm`: the plan as a bash script of `sbatch` calls.

use super::quote::{check_path, program_path, shell_quote, Unwritable};
use super::{comment, model_mib, Requests};
use surakarta_tablebase::plan::{Plan, MEMORY_MARGIN, TIME_MARGIN};

/// The script before the pairs: settings, shell functions, what is queued.
/// `@NAME@` marks are filled in by [`slurm_script`].
const PREAMBLE: &str = r#"#!/usr/bin/env bash
# From `surakarta tb plan --pieces @PIECES@ --format slurm`: one Slurm job per pair for
# the tables up to @PIECES@ pieces in $DIR, which every node must share. Each job waits
# for the jobs of the pairs it needs (afterok); a job that fails cancels the jobs
# waiting for it. --mem and --time are the plan's estimates times @MEMORY_MARGIN@ and @TIME_MARGIN@
# (a model, docs/big-tables.md, not measurements), capped by MAX_MEM and MAX_TIME.
#
# Safe to run again at any time, to finish what failed, was cancelled or ran out
# of time: a pair is skipped when its jobs are queued or running (job names
# tb-PAIR-TAG, TAG from $DIR) or when its tables are there and intact (`tb verify
# --checksums-only`; a damaged table is moved aside as NAME.sktb.damaged and its
# pair made again). A pair Slurm refuses does not stop the others: the pairs
# that do not need it are still submitted, and the script ends by listing what
# was not submitted and why (exit code 1).
#
# Settings, from the environment (the defaults are the plan's):
#   SURAKARTA       the surakarta program every node runs
#   DIR             the tables' directory
#   THREADS         threads per job (--cpus-per-task)
#   MAX_MEM         largest --mem in MiB; a pair whose model needs more is not
#                   submitted (empty: no cap)
#   MAX_TIME        largest --time in minutes; a pair asking more runs as a chain
#                   of jobs, each continuing from the last one's checkpoint
#                   (empty: no cap)
#   PARTITION, ACCOUNT, QOS   sbatch's --partition, --account and --qos
#   SBATCH_OPTIONS  more sbatch options, split at spaces ("--constraint=ib --hold")
set -euo pipefail
shopt -s inherit_errexit

if [ -z "${SURAKARTA:-}" ]; then SURAKARTA=@SURAKARTA@; fi
if [ -z "${DIR:-}" ]; then DIR=@DIR@; fi
THREADS=${THREADS:-@THREADS@}
MAX_MEM=${MAX_MEM-@MAX_MEM@}
MAX_TIME=${MAX_TIME-@MAX_TIME@}
PARTITION=${PARTITION-@PARTITION@}
ACCOUNT=${ACCOUNT-@ACCOUNT@}
QOS=${QOS-@QOS@}
SBATCH_OPTIONS=${SBATCH_OPTIONS-@SBATCH_OPTIONS@}

# Whole numbers above 0 of at most 18 digits, checked by length before any
# arithmetic (bash's 64-bit numbers wrap above that); MAX_MEM and MAX_TIME
# may be empty: no cap.
for setting in "THREADS=$THREADS" "MAX_MEM=$MAX_MEM" "MAX_TIME=$MAX_TIME"; do
    value=${setting#*=}
    case $setting in
        *=*[!0-9]* | *=0*) echo "$setting: give a whole number above 0" >&2; exit 2 ;;
    esac
    if [ "${#value}" -gt 18 ]; then
        echo "$setting: give a whole number above 0 of at most 18 digits" >&2
        exit 2
    fi
done
mkdir -p -- "$DIR"
tag=$(cd -- "$DIR" && pwd -P | cksum | cut -d ' ' -f 1)

options=()
if [ -n "$PARTITION" ]; then options+=("--partition=$PARTITION"); fi
if [ -n "$ACCOUNT" ]; then options+=("--account=$ACCOUNT"); fi
if [ -n "$QOS" ]; then options+=("--qos=$QOS"); fi
if [ -n "$SBATCH_OPTIONS" ]; then
    read -r -a more <<< "$SBATCH_OPTIONS"
    options+=("${more[@]}")
fi

# sh_words WORD...: the words as one command line for the /bin/sh that runs
# sbatch --wrap, each in single quotes (a quote in a word as '\'').
sh_words() {
    local q="'" bs='\' word line=
    for word in "$@"; do
        line+=" $q${word//$q/$q$bs$q$q}$q"
    done
    printf '%s' "${line# }"
}

# The jobs of this plan already queued or running, by name: the last one of each.
declare -A queued=()
if ! listing=$(squeue --noheader --user="$(id -un)" --format='%i %j'); then
    echo "squeue failed: cannot tell which pairs are queued already; nothing submitted" >&2
    exit 1
fi
while read -r id name; do
    if [ -n "${name:-}" ] && [ "${id//[!0-9]/}" = "$id" ] \
        && [ "$id" -gt "${queued[$name]:-0}" ]; then
        queued[$name]=$id
    fi
done <<< "$listing"

declare -A job=() blocked=()
problems=()
submitted=0 running=0 present=0
errors=$(mktemp)
trap 'rm -f -- "$errors"' EXIT

# intact CLASS: whether CLASS's table is there and intact. A damaged one is
# moved aside so that its pair is made again; one that cannot be checked
# blocks its pair.
intact() {
    local file="$DIR/$1.sktb" why status=0
    if [ ! -e "$file" ]; then return 1; fi
    why=$("$SURAKARTA" tb verify --checksums-only "--dir=$DIR" "$1" 2>&1) || status=$?
    case $status in
        0) return 0 ;;
        1)
            mv -f -- "$file" "$file.damaged"
            echo "$1.sktb is damaged ($(head -n 1 <<< "$why")): moved to $1.sktb.damaged" >&2
            return 1
            ;;
        *)
            problems+=("$1: its table cannot be checked: $(head -n 1 <<< "$why")")
            return 2
            ;;
    esac
}

# pair PAIR MEM_MIB MODEL_MIB MINUTES [PAIR_NEEDED...]: submits PAIR's jobs
# unless they are queued or its tables are there, after the jobs of the
# pairs it needs.
pair() {
    local pair=$1 mem=$2 model=$3 minutes=$4
    shift 4
    local a=${pair%v*} b=${pair#*v} name="tb-$pair-$tag" needed after=()
    for needed in "$@"; do
        if [ -n "${blocked[$needed]:-}" ]; then
            blocked[$pair]=1
            problems+=("$pair: not submitted: it needs $needed")
            return 0
        fi
        if [ -n "${job[$needed]:-}" ]; then after+=("${job[$needed]}"); fi
    done
    if [ -n "${queued[$name]:-}" ]; then
        job[$pair]=${queued[$name]}
        running=$((running + 1))
        echo "$pair: queued or running already (job ${queued[$name]})"
        return 0
    fi
    local status=0 other=0
    intact "${a}v$b" || status=$?
    if [ "$a" != "$b" ]; then intact "${b}v$a" || other=$?; fi
    if [ "$status" = 2 ] || [ "$other" = 2 ]; then
        blocked[$pair]=1
        return 0
    fi
    if [ "$status" = 0 ] && [ "$other" = 0 ]; then
        present=$((present + 1))
        return 0
    fi
    if [ -n "$MAX_MEM" ] && [ "$model" -gt "$MAX_MEM" ]; then
        blocked[$pair]=1
        problems+=("$pair: not submitted: the model needs $model MiB, above MAX_MEM=$MAX_MEM")
        return 0
    fi
    if [ -n "$MAX_MEM" ] && [ "$mem" -gt "$MAX_MEM" ]; then mem=$MAX_MEM; fi
    local jobs=1
    if [ -n "$MAX_TIME" ] && [ "$minutes" -gt "$MAX_TIME" ]; then
        jobs=$(((minutes + MAX_TIME - 1) / MAX_TIME))
        minutes=$MAX_TIME
    fi
    local command k id= out dependency chain=() every=()
    if [ "$jobs" -gt 1 ]; then
        # Checkpoints every quarter of a job's time, at most every 300 s.
        every=("--checkpoint-every=$((minutes * 15 < 300 ? minutes * 15 : 300))")
    fi
    command=$(sh_words "$SURAKARTA" tb generate --pair "$pair" "--dir=$DIR" \
        "--threads=$THREADS" --format @FORMAT@ --index @INDEX@ ${every[@]+"${every[@]}"})
    for ((k = 1; k <= jobs; k++)); do
        # Every job waits for the pairs needed to succeed; each after the
        # first also for the job before it, however that ended, and
        # continues its work.
        dependency=()
        if [ "${#after[@]}" -gt 0 ]; then
            dependency=("afterok:$(IFS=:; echo "${after[*]}")")
        fi
        if [ -n "$id" ]; then dependency+=("afterany:$id"); fi
        if [ "${#dependency[@]}" -gt 0 ]; then
            dependency=("--dependency=$(IFS=,; echo "${dependency[*]}")" --kill-on-invalid-dep=yes)
        fi
        out=$(sbatch --parsable --job-name="$name" --cpus-per-task="$THREADS" \
            --mem="${mem}M" --time="$minutes" ${options[@]+"${options[@]}"} \
            ${dependency[@]+"${dependency[@]}"} --wrap="$command" 2> "$errors") || out=
        out=${out##*$'\n'}
        out=${out%%;*}
        if [ -z "$out" ] || [ "${out//[!0-9]/}" != "$out" ]; then
            blocked[$pair]=1
            local why
            why=$(sed -e 's/^sbatch: error: //' "$errors" \
                | awk '{ printf "%s%s", (NR > 1 ? "; " : ""), $0 }')
            problems+=("$pair: sbatch refused it: ${why:-no job id}")
            # A chain cut short is no chain: its first jobs are cancelled.
            if [ "${#chain[@]}" -gt 0 ]; then
                scancel "${chain[@]}" || true
                submitted=$((submitted - ${#chain[@]}))
            fi
            return 0
        fi
        id=$out
        chain+=("$id")
        submitted=$((submitted + 1))
    done
    job[$pair]=$id
    if [ "$jobs" = 1 ]; then
        echo "$pair: submitted (job $id)"
    else
        echo "$pair: submitted as $jobs jobs of $minutes minutes (the last: job $id)"
    fi
}
"#;

/// The script after the pairs: what was done and what was not.
const SUMMARY: &str = r#"
echo "submitted $submitted jobs; $running pairs queued or running already; $present pairs there already"
if [ "${#problems[@]}" -gt 0 ]; then
    echo "not everything was submitted:" >&2
    printf '  %s\n' "${problems[@]}" >&2
    exit 1
fi
echo "watch with: squeue --me"
"#;

/// A bash script submitting one Slurm job per pair (`sbatch --parsable`),
/// each with `--dependency=afterok:` on the jobs of its dependencies,
/// `--mem` and `--time` from the estimates with margins (capped by the
/// requests' limits), and `--cpus-per-task` the plan's threads; safe to
/// run again at any time (see the script's own header). `dir` must be on
/// a filesystem every node shares.
///
/// Paths and settings are written as single-quoted shell words, and each
/// job's command is quoted again, word by word, for the `/bin/sh` that
/// runs `sbatch --wrap`; an empty path is refused.
pub(super) fn slurm_script(
    plan: &Plan,
    dir: &str,
    binary: &str,
    requests: &Requests,
) -> Result<String, Unwritable> {
    check_path("--dir", dir, "a Slurm script")?;
    let binary = &program_path(binary, "a Slurm script")?;
    let number = |n: Option<u64>| n.map_or_else(String::new, |n| n.to_string());
    let word = |w: &Option<String>| shell_quote(w.as_deref().unwrap_or(""));
    let mut s = PREAMBLE
        .replace("@PIECES@", &plan.pieces.to_string())
        .replace("@MEMORY_MARGIN@", &MEMORY_MARGIN.to_string())
        .replace("@TIME_MARGIN@", &TIME_MARGIN.to_string())
        .replace("@SURAKARTA@", &shell_quote(binary))
        .replace("@DIR@", &shell_quote(dir))
        .replace("@THREADS@", &plan.settings.threads.to_string())
        .replace("@MAX_MEM@", &number(requests.max_mem_mib))
        .replace("@MAX_TIME@", &number(requests.max_minutes))
        .replace("@PARTITION@", &word(&requests.partition))
        .replace("@ACCOUNT@", &word(&requests.account))
        .replace("@QOS@", &word(&requests.qos))
        .replace(
            "@SBATCH_OPTIONS@",
            &shell_quote(&requests.sbatch_options.join(" ")),
        )
        .replace("@FORMAT@", &plan.settings.format.to_string())
        .replace("@INDEX@", &plan.settings.scheme.to_string());
    for p in &plan.pairs {
        let needed: Vec<String> = p.depends_on.iter().map(|d| format!(" {d}")).collect();
        s.push_str(&format!(
            "\n{}\npair {} {} {} {}{}\n",
            comment(plan, p),
            p.pair,
            p.memory_request_mib(),
            model_mib(p),
            p.time_limit_minutes(),
            needed.concat()
        ));
    }
    s.push_str(SUMMARY);
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use surakarta_tablebase::plan::Settings;

    #[test]
    fn slurm_scripts_write_shell_words() {
        let plan = Plan::new(3, Settings::default()).unwrap();
        let requests = Requests {
            partition: Some("long jobs".into()),
            sbatch_options: vec!["--hold".into(), "--mail-type=FAIL".into()],
            max_minutes: Some(30),
            ..Requests::default()
        };
        let slurm = slurm_script(&plan, "my tables", "surakarta", &requests).unwrap();
        assert!(
            slurm.contains("if [ -z \"${DIR:-}\" ]; then DIR='my tables'; fi"),
            "{slurm}"
        );
        assert!(slurm.contains("PARTITION=${PARTITION-'long jobs'}"));
        assert!(slurm.contains("SBATCH_OPTIONS=${SBATCH_OPTIONS-'--hold --mail-type=FAIL'}"));
        assert!(slurm.contains("MAX_TIME=${MAX_TIME-30}"));
        assert!(slurm.contains("MAX_MEM=${MAX_MEM-}"));
        assert!(slurm.contains("\npair 2v1 256 "), "{slurm}");
        assert!(slurm.contains(" 10 1v1\n"), "{slurm}");
        let marks = ["PIECES", "DIR", "MAX_MEM", "FORMAT", "INDEX"].map(|m| format!("@{m}@"));
        assert!(
            marks.iter().all(|m| !slurm.contains(m)),
            "every mark filled in"
        );
        assert!(matches!(
            slurm_script(&plan, "tables", "", &Requests::default()),
            Err(Unwritable {
                what: "--binary",
                ..
            })
        ));
    }
}
