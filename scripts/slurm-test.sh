#!/usr/bin/env bash
# The cluster path on a real scheduler: starts a single-node Slurm cluster
# on localhost (munge, slurmctld, slurmd with a minimal configuration in a
# temporary directory; slurmd fetches it from slurmctld, so that commands
# run inside jobs find it too), then runs what `tb plan` writes as a
# researcher would:
#   1. the Slurm script for 5 pieces with MAX_TIME=4 (every pair a chain of
#      three jobs): the tables verify and equal a local `tb generate`;
#   2. a pair cancelled while queued (its dependants are cancelled with
#      it; the jobs are submitted held, then released), then the script run
#      again: it submits only what is missing and the set is complete and
#      equal;
#   3. a damaged table: moved aside and its pair made again;
#   4. a plan for 10 pieces (jobs held back by --begin, never run) on a
#      node of at most 20,000 MB: 6v4's request is refused by sbatch, 5v5
#      and the other pairs not needing 6v4 are still submitted, the script
#      lists the refusal and exits 1; run again while the jobs are queued,
#      it submits nothing twice;
#   5. training data as a Slurm array job (docs/examples/datagen-array.sbatch,
#      `datagen --chunks`): three tasks make the chunks of one local run;
#   6. the Snakefile through Snakemake's Slurm executor plugin (from PyPI,
#      in a venv made here), with resources from the plan: equal tables.
# Everything it started is stopped at the end. Where Slurm cannot be run
# (not installed, not root, a Slurm configuration of the machine's own
# present) it says "slurm test skipped: …" and exits 0.
#
# Environment:
#   SURAKARTA_CLI  the binary (default: $CARGO_TARGET_DIR/release/surakarta, built if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"

skip() {
    echo "slurm test skipped: $*"
    exit 0
}
fail() {
    echo "slurm test FAILED: $*" >&2
    exit 1
}

for tool in sbatch squeue scancel sinfo slurmctld slurmd munged munge; do
    command -v "$tool" >/dev/null 2>&1 || skip "$tool is not installed (Debian: slurm-wlm and munge)"
done
[ "$(id -u)" = 0 ] || skip "slurmd must run as root"
if [ -e /etc/slurm/slurm.conf ] || [ -e /etc/slurm-llnl/slurm.conf ] || [ -e /run/slurm/conf ]; then
    skip "this machine has a Slurm configuration of its own; the test runs its own cluster only where there is none"
fi

target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
bin="${SURAKARTA_CLI:-$target_dir/release/surakarta}"
if [ ! -x "$bin" ]; then
    cargo build --release -q
fi
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"

work="$(mktemp -d)"
chmod 755 "$work"
pids=()
started_munged=""
cleanup() {
    set +e
    if [ -n "${ours:-}" ]; then
        # The cluster is this test's own: every job in it is ours.
        squeue --noheader --format=%i 2>/dev/null | xargs -r scancel 2>/dev/null
    fi
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    sleep 1
    for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null; done
    if [ -n "$started_munged" ]; then kill "$(cat /run/munge/munged.pid 2>/dev/null)" 2>/dev/null; fi
    if [ -L /run/slurm/conf ]; then rm -f /run/slurm/conf; fi
    rm -rf "$work"
}
trap cleanup EXIT

# munge, as the machine's own service would run it (the default socket:
# slurmd asks it before it has any configuration).
if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
    if [ ! -s /etc/munge/munge.key ]; then
        mungekey --create --keyfile=/etc/munge/munge.key 2>/dev/null \
            || dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null
        chown munge:munge /etc/munge/munge.key 2>/dev/null || true
        chmod 600 /etc/munge/munge.key
    fi
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null || true
    if id munge >/dev/null 2>&1; then
        su -s /bin/sh munge -c munged || fail "munged did not start"
    else
        munged --force || fail "munged did not start"
    fi
    started_munged=1
    sleep 1
    munge -n </dev/null | unmunge >/dev/null || fail "munge does not answer"
fi

host="$(hostname -s)"
cpus="$(nproc)"
# The node as slurmd measures it, at most 20,000 MB: the 10-piece plan's
# 6v4 (23,146 MB) must not fit, 5v5 (16,318 MB) must.
memory="$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p')"
[ -n "$memory" ] || fail "slurmd -C gave no RealMemory"
if [ "$memory" -gt 20000 ]; then memory=20000; fi
port=$((20000 + RANDOM % 20000))
mkdir -p "$work/state" "$work/spool" "$work/jobs"
cat > "$work/slurm.conf" <<EOF
ClusterName=surakarta-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldParameters=enable_configless
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MpiDefault=none
MinJobAge=3600
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -f "$work/slurm.conf" >/dev/null 2>&1 &
pids+=($!)
ours=1
sleep 2
slurmd -D --conf-server "127.0.0.1:$port" -N "$host" >/dev/null 2>&1 &
pids+=($!)
up=""
for _ in $(seq 1 30); do
    if sinfo --noheader --format=%t 2>/dev/null | grep -qx idle; then up=1; break; fi
    sleep 1
done
if [ -z "$up" ]; then
    tail -n 5 "$work/slurmctld.log" "$work/slurmd.log" >&2 || true
    fail "the node never became idle"
fi
echo "slurm: a node of $cpus CPUs and $memory MB on port $port"

# wait_idle SECONDS: until no job of ours is pending or running.
wait_idle() {
    local left=$1
    while [ -n "$(squeue --noheader --format=%i)" ]; do
        [ "$left" -gt 0 ] || fail "jobs still queued after $1 s: $(squeue --noheader)"
        sleep 2
        left=$((left - 2))
    done
}
# same_tables DIR: DIR's tables are exactly those of a local run.
same_tables() {
    local name n=0
    for name in "$work/local"/*.sktb; do
        cmp -s "$name" "$1/$(basename "$name")" || fail "$(basename "$name") in $1 differs from a local tb generate"
        n=$((n + 1))
    done
    [ "$(ls "$1"/*.sktb | wc -l)" = "$n" ] || fail "$1 has other tables than a local run"
}

"$bin" tb generate --pieces 5 --dir "$work/local" --json >/dev/null
cd "$work/jobs"

echo "-- 1. the Slurm script for 5 pieces, every pair as a chain of three jobs"
"$bin" tb plan --pieces 5 --threads 1 --format slurm --dir "$work/t5" > submit.sh
MAX_TIME=4 bash submit.sh > out1.txt || fail "the script failed: $(cat out1.txt)"
grep -q "3v2: submitted as 3 jobs of 4 minutes" out1.txt || fail "no chain: $(cat out1.txt)"
wait_idle 300
"$bin" tb verify --dir "$work/t5" >/dev/null || fail "the tables do not verify"
same_tables "$work/t5"
echo "ok: 18 jobs, tables verified and equal to a local run"

echo "-- 2. a pair cancelled while queued, then the script again"
"$bin" tb plan --pieces 5 --threads 1 --format slurm --dir "$work/t5b" > submit-b.sh
# Held at submission, so that 3v1 is cancelled before anything runs.
SBATCH_OPTIONS=--hold bash submit-b.sh > out2.txt
scancel --name="$(squeue --noheader --format=%j | grep '^tb-3v1-' | head -n 1)"
squeue --noheader --format=%i | xargs -r scontrol release
wait_idle 120
for table in 3v1 4v1 3v2; do
    [ ! -e "$work/t5b/$table.sktb" ] || fail "$table was made although 3v1 was cancelled"
done
bash submit-b.sh > out2b.txt
grep -q "submitted 3 jobs" out2b.txt || fail "the rerun did not submit exactly 3v1, 4v1, 3v2: $(cat out2b.txt)"
wait_idle 120
same_tables "$work/t5b"
echo "ok: the rerun submitted 3 pairs and finished the set"

echo "-- 3. a damaged table is made again"
printf 'x' >> "$work/t5b/3v1.sktb"
bash submit-b.sh > out3.txt 2> err3.txt
grep -q "3v1.sktb is damaged" err3.txt || fail "the damage was not noticed: $(cat out3.txt err3.txt)"
grep -q "submitted 1 jobs" out3.txt || fail "$(cat out3.txt)"
wait_idle 120
same_tables "$work/t5b"
echo "ok: moved aside as 3v1.sktb.damaged and made again"

echo "-- 4. a refused request, independent pairs still submitted, a rerun while queued"
"$bin" tb plan --pieces 10 --threads 2 --format slurm --dir "$work/t10" > submit-10.sh
status=0
SBATCH_OPTIONS="--begin=now+7200" bash submit-10.sh > out4.txt 2> err4.txt || status=$?
[ "$status" = 1 ] || fail "exit code $status, expected 1: $(cat err4.txt)"
grep -q "6v4: sbatch refused it: Memory specification can not be satisfied" err4.txt \
    || fail "no refusal of 6v4 listed: $(cat err4.txt)"
queued="$(squeue --noheader --format=%j | grep -c '^tb-')"
squeue --noheader --format=%j | grep -q '^tb-5v5-' || fail "5v5 (which does not need 6v4) was not submitted"
if squeue --noheader --format=%j | grep -q '^tb-6v4-'; then fail "6v4 is queued"; fi
status=0
SBATCH_OPTIONS="--begin=now+7200" bash submit-10.sh > out4b.txt 2>/dev/null || status=$?
[ "$status" = 1 ] || fail "the rerun's exit code is $status, expected 1"
grep -q "^submitted 0 jobs; $queued pairs queued or running already" out4b.txt || fail "the rerun submitted again: $(tail -n 1 out4b.txt)"
[ "$(squeue --noheader --format=%j | grep -c '^tb-')" = "$queued" ] || fail "the queue grew on the rerun"
squeue --noheader --format=%i | xargs -r scancel
wait_idle 60
echo "ok: $queued jobs queued, 6v4 refused and listed, the rerun submitted nothing"

echo "-- 5. training data as an array job (docs/examples/datagen-array.sbatch)"
mkdir -p "$work/datagen"
cd "$work/datagen"
# 7 games in 7 chunks, 3 per task: tasks 0..=2 make 0..3, 3..6 and 6..7.
sbatch --array=0-2 \
    --export="ALL,SURAKARTA=$bin,OUT=$work/datagen/data,GAMES=7,GAMES_PER_CHUNK=1,PER_TASK=3,NODES=200" \
    "$repo/docs/examples/datagen-array.sbatch" > out5.txt || fail "sbatch refused the array job: $(cat out5.txt)"
wait_idle 300
"$bin" datagen --out "$work/datagen/local" --games 7 --games-per-chunk 1 --nodes 200 > local.txt \
    || fail "the local run failed"
for k in 0 1 2 3 4 5 6; do
    name="chunk-00000$k.skdata"
    cmp -s "data/$name" "local/$name" \
        || fail "$name differs from the local run's (or is missing): $(cat datagen-*.out 2>/dev/null | tail -n 5)"
done
cmp -s data/datagen.txt local/datagen.txt || fail "the manifests differ"
[ "$(ls data | wc -l)" = 8 ] || fail "files other than 7 chunks and the manifest: $(ls data)"
echo "ok: three array tasks made the 7 chunks of one local run, byte for byte"

echo "-- 6. Snakemake with the Slurm executor plugin"
if ! python3 -m venv "$work/venv" >/dev/null 2>&1 \
    || ! "$work/venv/bin/pip" install -q "snakemake>=8" "snakemake-executor-plugin-slurm>=1.8" >/dev/null 2>&1; then
    echo "skipped: Snakemake and its Slurm plugin could not be installed from PyPI"
    exit 0
fi
mkdir -p "$work/snake"
cd "$work/snake"
"$bin" tb plan --pieces 5 --threads 1 --format snakemake --dir "$work/t5s" --partition main > Snakefile
"$work/venv/bin/snakemake" --executor slurm --jobs 4 --slurm-no-account \
    --slurm-status-command squeue --slurm-init-seconds-before-status-checks 1 \
    --seconds-between-status-checks 2 --latency-wait 5 > snakemake.log 2>&1 \
    || { tail -n 30 snakemake.log >&2; fail "snakemake failed"; }
same_tables "$work/t5s"
echo "ok: Snakemake on Slurm made the same tables"
