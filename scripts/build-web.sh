#!/usr/bin/env bash
# Builds the static analysis board into DIR: the page of `surakarta serve`
# (index.html, style.css, app.js, tree.js, analysis-view.js, backend.js) answered by WebAssembly in the
# browser instead of a server (site.js, engine-worker.js, surakarta_wasm.js
# and surakarta_wasm_bg.wasm), with the compact tables up to 6 pieces in
# DIR/tables. Any static file host serves DIR as it is (docs/web.md).
#
# Usage: scripts/build-web.sh DIR [--tb SRC] [--preload N]
#   --tb SRC      copy the tables of SRC (format 2 files, any piece count)
#                 instead of generating those up to 6 pieces; classes above
#                 the preload count are fetched by the page when a position
#                 needs them
#   --preload N   classes up to N pieces load with the page (default 6)
#
# Needs the wasm32-unknown-unknown target (added with rustup if missing)
# and the wasm-bindgen command-line tool of the version the crate pins
# (installed with cargo if missing or different). DIR must be new, empty,
# or an earlier build of this script (it holds .surakarta-web); anything
# else is refused.
set -euo pipefail
cd "$(dirname "$0")/.."

die() {
    echo "error: $*" >&2
    exit 2
}

dir=""
src=""
preload=6
while [ $# -gt 0 ]; do
    case "$1" in
        --tb) [ $# -ge 2 ] || die "--tb needs a directory"; src="$2"; shift 2 ;;
        --preload) [ $# -ge 2 ] || die "--preload needs a piece count"; preload="$2"; shift 2 ;;
        -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) die "unknown option $1 (see --help)" ;;
        *) [ -z "$dir" ] || die "one DIR only (see --help)"; dir="$1"; shift ;;
    esac
done
[ -n "$dir" ] || die "usage: scripts/build-web.sh DIR [--tb SRC] [--preload N]"
case "$preload" in
    [2-9]|10) ;;
    *) die "--preload $preload: a piece count from 2 to 10" ;;
esac
if [ -n "$src" ] && [ ! -d "$src" ]; then die "--tb $src: not a directory"; fi

# DIR: new, empty, or ours. A symbolic link is refused (it may point
# anywhere), as is a file or a directory holding other things.
if [ -L "$dir" ]; then die "$dir is a symbolic link; give a real directory"; fi
if [ -e "$dir" ]; then
    [ -d "$dir" ] || die "$dir exists and is not a directory"
    if [ -n "$(ls -A "$dir")" ] && [ ! -f "$dir/.surakarta-web" ]; then
        die "$dir holds files that are not an earlier build of this script; give a new or empty directory"
    fi
fi
mkdir -p "$dir"
touch "$dir/.surakarta-web"

target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
version="$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)"$/\1/p' crates/surakarta-wasm/Cargo.toml)"
[ -n "$version" ] || die "cannot read the pinned wasm-bindgen version from crates/surakarta-wasm/Cargo.toml"

# The toolchain pieces.
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    echo "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
fi
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$version" ]; then
    echo "installing wasm-bindgen-cli $version (a few minutes, once)"
    cargo install -q wasm-bindgen-cli --version "$version" --force
fi

echo "building the WebAssembly module"
cargo build -q --release --target wasm32-unknown-unknown -p surakarta-wasm
wasm-bindgen --target no-modules --no-typescript --out-dir "$dir" \
    "$target_dir/wasm32-unknown-unknown/release/surakarta_wasm.wasm"

# The page: the server's files, with a site.js that names WebAssembly.
assets=crates/surakarta-cli/assets/serve
cp "$assets/index.html" "$assets/style.css" "$assets/app.js" "$assets/tree.js" \
    "$assets/analysis-view.js" "$assets/backend.js" \
    "$assets/engine-worker.js" "$dir/"
cat > "$dir/site.js" <<'EOF'
// Which back end answers this page (backend.js): WebAssembly in the page,
// no server (the static site of scripts/build-web.sh).
window.SURAKARTA_BACKEND = 'wasm';
EOF

# The tables.
mkdir -p "$dir/tables"
if [ -n "$src" ]; then
    echo "copying the tables of $src"
    find "$dir/tables" -maxdepth 1 -name '*.sktb' -delete
    found=0
    for f in "$src"/*.sktb; do
        [ -f "$f" ] || continue
        cp "$f" "$dir/tables/"
        found=$((found + 1))
    done
    [ "$found" -gt 0 ] || die "--tb $src holds no .sktb tables"
else
    echo "generating the tables up to 6 pieces (format 2)"
    cargo build -q --release -p surakarta-cli
    "$target_dir/release/surakarta" tb generate --pieces 6 --dir "$dir/tables" --json > /dev/null
    rm -f "$dir/tables/.surakarta.lock"
fi

# tables/manifest.json: every table file with its class, piece count and
# size, and whether it loads with the page.
{
    printf '{\n  "tables": ['
    sep=""
    for f in "$dir"/tables/*.sktb; do
        name="$(basename "$f")"
        class="${name%.sktb}"
        case "$class" in
            [0-9]v[0-9]|[0-9]v1[0-9]|1[0-9]v[0-9]) ;;
            *) echo "skipping $name (not a table name)" >&2; continue ;;
        esac
        pieces=$(( ${class%v*} + ${class#*v} ))
        bytes=$(wc -c < "$f" | tr -d ' ')
        load=false
        if [ "$pieces" -le "$preload" ]; then load=true; fi
        printf '%s\n    {"file": "%s", "class": "%s", "pieces": %d, "bytes": %d, "preload": %s}' \
            "$sep" "$name" "$class" "$pieces" "$bytes" "$load"
        sep=","
    done
    printf '\n  ]\n}\n'
} > "$dir/tables/manifest.json"

wasm_bytes=$(wc -c < "$dir/surakarta_wasm_bg.wasm" | tr -d ' ')
page_gz=$(cat "$dir"/*.wasm "$dir"/*.js "$dir"/*.html "$dir"/*.css | gzip -9 | wc -c | tr -d ' ')
tables_bytes=$(cat "$dir"/tables/*.sktb | wc -c | tr -d ' ')
echo "static site in $dir: module $wasm_bytes bytes, page and module $page_gz bytes gzipped, tables $tables_bytes bytes"
echo "serve it with any static file server, for example: python3 -m http.server -d $dir 8000"
