#!/usr/bin/env bash
# Memory limits are honoured, not fatal: runs the release binary inside a
# cgroup limited to 1 GiB of memory and checks that every request for more
# is refused with a clear error instead of the kernel killing the process
# (exit 137, no message):
#   - `search --hash 2048`: exit 2, one error line naming the cgroup limit;
#   - `engine` with `setoption name Hash value 2048`: an `info string error`,
#     and the engine goes on with its old table;
#   - `match` whose two players' tables do not fit together: exit 2;
#   - `match` against an external engine printing without end (`yes info`):
#     exit 2, one error line naming the cap on its output;
#   - `tb generate` of a pair modelled above the limit: refused before it
#     starts, exit 2;
#   - `serve --hash 400 --max-analyses 3`: three clients asking for
#     analyses at once get answers or a 503 with a JSON error; the server
#     is still up afterwards;
#   - engines counted with their threads' stacks and search state:
#     `search --hash 985 --threads 256`, `serve --threads 256` whose
#     analysis does not fit its budget, two analyses of 128 threads where
#     one fits (200 and 503, the server up);
#   - `bench --probes` too many to hold, `endgames -t` out of range or with
#     more engines than fit;
#   - a 16 MiB record file of empty games (`*` lines, 8 million of them):
#     `show`, `analyse --depth 1` and `play --record` refuse it at the games
#     limit (exit 2) instead of making millions of records;
#   - `serve` given 16 POSTs at once of 256 KiB of `*` lines to
#     `/api/record`: every one answered (400 or 503), the server still up
#     and answering;
#   - `tb generate --pair 6v1` with the cgroup lowered to 82 MiB, below the
#     pair's need in memory: solved in mapped storage, not killed, the same
#     bytes as in memory.
#
# Needs root and a cgroup memory controller (v1 `memory`, or v2 with
# `memory` in cgroup.subtree_control of the hierarchy's root, or a
# delegated v2 subtree); otherwise it says "memory limit test skipped: …"
# and exits 0. The cgroup is removed at the end.
#
# Environment:
#   SURAKARTA_CLI  the binary (default: $CARGO_TARGET_DIR/release/surakarta, built if missing)
set -euo pipefail
cd "$(dirname "$0")/.."

skip() {
    echo "memory limit test skipped: $*"
    exit 0
}
fail() {
    echo "memory limit test FAILED: $*" >&2
    exit 1
}

target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
bin="${SURAKARTA_CLI:-$target_dir/release/surakarta}"
if [ ! -x "$bin" ]; then
    cargo build --release -q
fi

[ "$(id -u)" = 0 ] || skip "not root: cannot make a cgroup"
limit=$((1 << 30))

# Make a cgroup with a 1 GiB limit, v1 or v2; `cgroup` is its directory,
# `procs` the file that moves a process into it.
cgroup=""
v1_root="$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts)"
v2_root="$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)"
if [ -n "$v1_root" ] && [ -w "$v1_root" ]; then
    cgroup="$v1_root/surakarta-memory-test-$$"
    mkdir "$cgroup" 2>/dev/null || cgroup=""
    if [ -n "$cgroup" ]; then
        echo "$limit" >"$cgroup/memory.limit_in_bytes"
        # Swap would let the kernel page out rather than refuse; keep it out.
        [ -w "$cgroup/memory.memsw.limit_in_bytes" ] && echo "$limit" >"$cgroup/memory.memsw.limit_in_bytes" || true
    fi
fi
if [ -z "$cgroup" ] && [ -n "$v2_root" ] && [ -w "$v2_root" ]; then
    if grep -qw memory "$v2_root/cgroup.controllers" 2>/dev/null; then
        grep -qw memory "$v2_root/cgroup.subtree_control" \
            || echo "+memory" >"$v2_root/cgroup.subtree_control" 2>/dev/null || true
        if grep -qw memory "$v2_root/cgroup.subtree_control"; then
            cgroup="$v2_root/surakarta-memory-test-$$"
            mkdir "$cgroup" 2>/dev/null || cgroup=""
            if [ -n "$cgroup" ]; then
                echo "$limit" >"$cgroup/memory.max"
                [ -w "$cgroup/memory.swap.max" ] && echo 0 >"$cgroup/memory.swap.max" || true
            fi
        fi
    fi
fi
[ -n "$cgroup" ] || skip "no writable cgroup memory controller (v1 or v2) on this machine"
echo "memory limit test: cgroup $cgroup, limit 1 GiB"

work="$(mktemp -d)"
# The start position, escaped for a query string.
start="wwwwww%2Fwwwwww%2F6%2F6%2Fbbbbbb%2Fbbbbbb+b"
server_pid=""
# Stops the server (SIGTERM; it exits 0 within its 5 s grace) and waits
# for it, so that the cgroup is empty and can be removed.
stop_server() {
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
        server_pid=""
    fi
}
# start_server PORT-FILE ARGS...: starts `surakarta serve ARGS` inside the
# cgroup in the background (server_pid) and waits for its address in
# PORT-FILE; sets url. Not through the in_cgroup function: a function run
# with & is a subshell whose pid is not the server's, and killing it would
# leave the server running in the cgroup. This sh execs into the server.
start_server() {
    local port_file="$1"
    shift
    sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cgroup" \
        "$bin" serve "$@" >"$port_file" 2>"$work/serve-err" &
    server_pid=$!
    for _ in $(seq 100); do
        [ -s "$port_file" ] && break
        sleep 0.1
    done
    url="$(head -n 1 "$port_file")"
    [ -n "$url" ] || fail "serve $* did not start: $(cat "$work/serve-err")"
}
cleanup() {
    stop_server
    rm -rf "$work"
    rmdir "$cgroup" 2>/dev/null || true
}
trap cleanup EXIT

# Runs "$@" inside the cgroup (a child shell moves itself in, then execs).
in_cgroup() {
    sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cgroup" "$@"
}

checks=0
expect_refused() { # NAME STATUS STDERR-FILE NEEDLE
    local name="$1" status="$2" err="$3" needle="$4"
    [ "$status" != 137 ] || fail "$name was killed (exit 137): $(cat "$err")"
    [ "$status" = 2 ] || fail "$name: exit $status, expected 2: $(cat "$err")"
    grep -q "$needle" "$err" || fail "$name: '$needle' not in: $(cat "$err")"
    checks=$((checks + 1))
    echo "  ok: $name refused: $(head -c 300 "$err" | head -n 1)"
}

# 1. search --hash 2048.
status=0
in_cgroup "$bin" search --hash 2048 --depth 1 >"$work/out" 2>"$work/err" || status=$?
expect_refused "search --hash 2048" "$status" "$work/err" "cgroup limit"
# A table that fits is still made.
in_cgroup "$bin" search --hash 256 --depth 2 >"$work/out" 2>"$work/err" \
    || fail "search --hash 256 under 1 GiB: $(cat "$work/err")"
checks=$((checks + 1))

# 2. The engine protocol.
printf 'setoption name Hash value 2048\nisready\ngo depth 1\nquit\n' \
    | in_cgroup "$bin" engine >"$work/out" 2>"$work/err" || fail "engine exit $?: $(cat "$work/err")"
grep -q '^info string error: .*cgroup limit' "$work/out" || fail "engine: no error line: $(cat "$work/out")"
grep -q '^readyok$' "$work/out" || fail "engine: no readyok: $(cat "$work/out")"
grep -q '^bestmove ' "$work/out" || fail "engine: no bestmove: $(cat "$work/out")"
checks=$((checks + 1))
echo "  ok: engine setoption Hash 2048 answered with an error, the engine goes on"

# 3. A match whose tables do not fit together.
status=0
in_cgroup "$bin" match --first depth=1,hash=600 --second depth=1,hash=600 --games 2 \
    >"$work/out" 2>"$work/err" || status=$?
expect_refused "match with two 600 MiB tables" "$status" "$work/err" "cgroup limit"

# 3b. A match against an external engine that never answers and never stops
# printing (`yes info`): refused at its cap on output, not killed by the
# kernel after reading the flood into memory.
status=0
in_cgroup timeout 60 "$bin" match --first depth=2 --second "depth=2,timeout=5,cmd=yes info" -n 2 \
    >"$work/out" 2>"$work/err" || status=$?
expect_refused "match against yes info" "$status" "$work/err" "printed more than 65536 lines while waiting for uciok"

# 4. tb generate of a pair modelled above the limit (refused before it
# starts, so its smaller tables are not needed).
status=0
in_cgroup "$bin" tb generate --pair 5v4 --dir "$work/tables" >"$work/out" 2>"$work/err" || status=$?
expect_refused "tb generate --pair 5v4" "$status" "$work/err" "memory"

# 5. serve: one budget for all analyses.
if ! command -v curl >/dev/null 2>&1; then
    echo "  serve part skipped: no curl"
elif "$bin" serve --help | grep -q -- '--analysis-memory'; then
    start_server "$work/url" --bind 127.0.0.1:0 --hash 400 --max-analyses 3
    clients=()
    for i in 1 2 3; do
        curl -s -N -o "$work/analysis$i" -w '%{http_code}\n' \
            "${url}api/analysis?fen=$start&movetime=1500" >"$work/status$i" &
        clients+=($!)
    done
    wait "${clients[@]}" || true
    sleep 0.2
    kill -0 "$server_pid" 2>/dev/null || fail "the server died under three analyses: $(cat "$work/serve-err")"
    answered=0
    refused=0
    for i in 1 2 3; do
        case "$(cat "$work/status$i")" in
            200) answered=$((answered + 1)) ;;
            503) grep -q '"error"' "$work/analysis$i" || fail "503 without a JSON error: $(cat "$work/analysis$i")"
                refused=$((refused + 1)) ;;
            *) fail "analysis $i: status $(cat "$work/status$i"): $(cat "$work/analysis$i")" ;;
        esac
    done
    [ "$answered" -ge 1 ] || fail "no analysis answered"
    curl -sf "${url}api/position?fen=$start" >/dev/null || fail "the server no longer answers"
    checks=$((checks + 1))
    echo "  ok: serve --hash 400 --max-analyses 3: $answered analyses answered, $refused refused with 503, server up"
    stop_server
else
    fail "serve has no --analysis-memory budget"
fi

# 6. Engines counted whole: the table and each thread's stack and search
# state, so that no thread count fits through the gap between a table and
# the limit.
status=0
in_cgroup "$bin" search --hash 985 --threads 256 --movetime 2000 >"$work/out" 2>"$work/err" || status=$?
expect_refused "search --hash 985 --threads 256" "$status" "$work/err" "the engine (hash 985 MiB, 256 threads).*cgroup limit"
status=0
in_cgroup "$bin" serve --bind 127.0.0.1:0 --analysis-memory 990 --hash 495 --max-analyses 2 --threads 256 \
    >"$work/out" 2>"$work/err" || status=$?
expect_refused "serve --analysis-memory 990 --hash 495 --threads 256" "$status" "$work/err" "must hold one analysis's engine"
# Analyses whose threads count: two asked for at once, one fits the budget.
if command -v curl >/dev/null 2>&1; then
    start_server "$work/url2" --bind 127.0.0.1:0 --analysis-memory 960 --hash 300 --threads 128 --max-analyses 2
    clients=()
    for i in 1 2; do
        curl -s -N -o "$work/threads$i" -w '%{http_code}\n' \
            "${url}api/analysis?fen=$start&movetime=3000" >"$work/threads-status$i" &
        clients+=($!)
    done
    wait "${clients[@]}" || true
    kill -0 "$server_pid" 2>/dev/null || fail "the server died under two analyses of 128 threads: $(cat "$work/serve-err")"
    statuses="$(cat "$work/threads-status1" "$work/threads-status2" | sort | tr '\n' ' ')"
    [ "$statuses" = "200 503 " ] || fail "two analyses of 128 threads: statuses $statuses"
    grep -q "an analysis needs" "$work/threads1" "$work/threads2" || fail "the 503 does not say what an analysis needs"
    checks=$((checks + 1))
    echo "  ok: serve --threads 128 --hash 300 --analysis-memory 960: one analysis answered, one refused with 503, server up"
    stop_server
fi
# bench's probe list and endgames' workers are counted before they are made.
"$bin" tb generate --pieces 4 --dir "$work/t4" >/dev/null 2>"$work/err" || fail "tb generate --pieces 4: $(cat "$work/err")"
status=0
in_cgroup "$bin" bench --depth 1 --tb "$work/t4" --probes 100000000 >"$work/out" 2>"$work/err" || status=$?
expect_refused "bench --probes 100000000" "$status" "$work/err" "probes to time (--probes).*cgroup limit"
status=0
in_cgroup "$bin" bench --depth 1 --tb "$work/t4" --probes 4294967296 >"$work/out" 2>"$work/err" || status=$?
expect_refused "bench --probes 4294967296" "$status" "$work/err" "probes <N>.: out of range"
status=0
in_cgroup "$bin" endgames --tb "$work/t4" --pieces 4 --positions 5 --nodes 200 -t 4294967296 \
    >"$work/out" 2>"$work/err" || status=$?
expect_refused "endgames -t 4294967296" "$status" "$work/err" "out of range: give 1 to 1024"
status=0
in_cgroup "$bin" endgames --tb "$work/t4" --pieces 4 --positions 40 --nodes 200 -t 1024 \
    >"$work/out" 2>"$work/err" || status=$?
expect_refused "endgames --positions 40 -t 1024" "$status" "$work/err" "40 engines .*cgroup limit"

# 7. Records: a 16 MiB file of empty games is refused at the games limit
# by every command that reads records.
awk 'BEGIN { for (i = 0; i < 8388608; i++) print "*" }' >"$work/empty-games.txt"
for command in "show" "analyse --depth 1" "play --record"; do
    status=0
    # shellcheck disable=SC2086 # the command's words
    in_cgroup timeout 120 "$bin" $command "$work/empty-games.txt" </dev/null \
        >"$work/out" 2>"$work/err" || status=$?
    expect_refused "$command of 8 million empty games" "$status" "$work/err" "more than 100000 games"
done
# serve: 16 bodies of 256 KiB of empty games at once; every one answered
# (400 at the games limit, or 503 while the record workers are busy), the
# server up and answering afterwards.
if command -v curl >/dev/null 2>&1; then
    head -c 262144 "$work/empty-games.txt" >"$work/empty-body.txt"
    start_server "$work/url3" --bind 127.0.0.1:0
    clients=()
    for i in $(seq 16); do
        curl -s -o "$work/record$i" -w '%{http_code}\n' --max-time 60 \
            --data-binary @"$work/empty-body.txt" "${url}api/record" >"$work/record-status$i" &
        clients+=($!)
    done
    wait "${clients[@]}" || true
    kill -0 "$server_pid" 2>/dev/null || fail "the server died under 16 record bodies: $(cat "$work/serve-err")"
    for i in $(seq 16); do
        case "$(cat "$work/record-status$i")" in
            400) grep -q 'more than 2000 games' "$work/record$i" || fail "record $i: $(cat "$work/record$i")" ;;
            503) grep -q '"error"' "$work/record$i" || fail "record $i: 503 without a JSON error" ;;
            *) fail "record $i: status $(cat "$work/record-status$i"): $(head -c 300 "$work/record$i")" ;;
        esac
    done
    curl -sf "${url}api/position?fen=$start" >/dev/null || fail "the server no longer answers after 16 record bodies"
    checks=$((checks + 1))
    echo "  ok: serve: 16 record bodies of 256 KiB of empty games at once all answered, server up"
    stop_server
fi

# 8. tb generate within a limit below a pair's need: with the cgroup
# lowered to 82 MiB, the pair 6v1 (modelled above it in memory) is solved
# with its values and bitmaps mapped from work files, worked through in
# windows of 2^20 slots, is not killed, and gives the bytes of an
# in-memory run; no work file is left.
small=$((82 << 20))
set_limit() { # BYTES: the cgroup's memory limit
    if [ -e "$cgroup/memory.limit_in_bytes" ]; then
        if [ "$1" -lt "$(cat "$cgroup/memory.limit_in_bytes")" ]; then
            echo "$1" >"$cgroup/memory.limit_in_bytes"
            [ -w "$cgroup/memory.memsw.limit_in_bytes" ] && echo "$1" >"$cgroup/memory.memsw.limit_in_bytes" || true
        else
            [ -w "$cgroup/memory.memsw.limit_in_bytes" ] && echo "$1" >"$cgroup/memory.memsw.limit_in_bytes" || true
            echo "$1" >"$cgroup/memory.limit_in_bytes"
        fi
    else
        echo "$1" >"$cgroup/memory.max"
    fi
}
"$bin" tb generate --pieces 6 --format 1 --dir "$work/in-memory" >/dev/null 2>"$work/err" \
    || fail "tb generate --pieces 6: $(cat "$work/err")"
mkdir -p "$work/mapped"
cp "$work/in-memory"/*.sktb "$work/mapped/"
"$bin" tb generate --pair 6v1 --format 1 --storage memory --dir "$work/in-memory" >/dev/null 2>"$work/err" \
    || fail "tb generate --pair 6v1 in memory: $(cat "$work/err")"
set_limit "$small"
status=0
in_cgroup "$bin" tb generate --pair 6v1 --format 1 --dir "$work/mapped" --window-slots 1048576 --json >"$work/out" 2>"$work/err" || status=$?
set_limit "$limit"
[ "$status" = 0 ] || fail "tb generate --pair 6v1 in 82 MiB: exit $status: $(cat "$work/err")"
grep -q '"storage":"mapped"' "$work/out" || fail "tb generate --pair 6v1 in 82 MiB was not mapped: $(head -c 300 "$work/out")"
grep -q '"window_slots":[0-9]' "$work/out" || fail "tb generate --pair 6v1 in 82 MiB was not worked through in windows: $(head -c 300 "$work/out")"
for c in 6v1 1v6; do
    cmp -s "$work/in-memory/$c.sktb" "$work/mapped/$c.sktb" || fail "$c mapped in 82 MiB differs from the in-memory table"
done
! ls "$work/mapped"/*.work >/dev/null 2>&1 || fail "work files left: $(ls "$work/mapped")"
checks=$((checks + 1))
echo "  ok: tb generate --pair 6v1 in 82 MiB: mapped, in windows, the in-memory bytes, no work file left"

# 9. tb verify of that pair in the same cgroup and a limit below it: every
# entry right, not killed.
set_limit "$small"
status=0
in_cgroup "$bin" tb verify --dir "$work/mapped" 6v1 1v6 --memory-limit 0.07 --json >"$work/out" 2>"$work/err" || status=$?
set_limit "$limit"
[ "$status" = 0 ] || fail "tb verify 6v1 1v6 in 82 MiB: exit $status: $(cat "$work/err")"
grep -q '"errors":0' "$work/out" || fail "tb verify 6v1 1v6 in 82 MiB: $(head -c 300 "$work/out")"
checks=$((checks + 1))
echo "  ok: tb verify 6v1 1v6 in 82 MiB (--memory-limit 0.07): 0 errors"

# Nothing of the test may be left running in the cgroup.
leftover="$(cat "$cgroup/cgroup.procs")"
[ -z "$leftover" ] || fail "processes left in the cgroup: $leftover"

echo "memory limit test: $checks checks passed"
