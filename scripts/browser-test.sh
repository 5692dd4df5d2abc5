#!/usr/bin/env bash
# The browser tests of `surakarta serve` and of the static site
# (crates/surakarta-cli/tests/browser): pytest + Playwright for Python
# driving the system's Chromium (Debian's `chromium` package; Playwright's
# own browser download is never used).
#
# Makes its own virtual environment (pip install pytest playwright), builds
# the release binary if it is missing and the static site
# (scripts/build-web.sh, which adds the WebAssembly target and the
# wasm-bindgen tool where missing), and runs the tests. Where Chromium,
# python3 -m venv or pip is not available it says "browser test skipped: …"
# and exits 0.
#
# Environment:
#   CHROMIUM               the browser to drive (default: chromium or chromium-browser on PATH)
#   SURAKARTA_CLI          the binary (default: $CARGO_TARGET_DIR/release/surakarta, built if missing)
#   SURAKARTA_SCREENSHOTS  where the screenshots go (default: a new temporary directory)
#   BROWSER_TEST_VENV      the virtual environment (default: $CARGO_TARGET_DIR/browser-test-venv, kept)
#   SURAKARTA_WEB_DIR      the static site (default: $CARGO_TARGET_DIR/web-site, built)
# Extra arguments go to pytest (e.g. -k editor).
set -euo pipefail
cd "$(dirname "$0")/.."

skip() {
    echo "browser test skipped: $*"
    exit 0
}

target_dir="${CARGO_TARGET_DIR:-$PWD/target}"

# The browser: Debian's chromium (or CHROMIUM).
chromium="${CHROMIUM:-}"
if [ -z "$chromium" ]; then
    for name in chromium chromium-browser; do
        if command -v "$name" >/dev/null 2>&1; then
            chromium="$(command -v "$name")"
            break
        fi
    done
fi
[ -n "$chromium" ] && [ -x "$chromium" ] || skip "no Chromium found (apt-get install chromium, or set CHROMIUM)"

command -v python3 >/dev/null 2>&1 || skip "no python3"

# The binary under test.
cli="${SURAKARTA_CLI:-$target_dir/release/surakarta}"
if [ -z "${SURAKARTA_CLI:-}" ]; then
    # Cargo does nothing if it is up to date (the page files are embedded, so
    # an edited page rebuilds it).
    cargo build --release -q -p surakarta-cli
fi
[ -x "$cli" ] || { echo "error: no binary at $cli" >&2; exit 1; }

# The virtual environment, kept between runs.
venv="${BROWSER_TEST_VENV:-$target_dir/browser-test-venv}"
if ! "$venv/bin/python" -c "import pytest, playwright" >/dev/null 2>&1; then
    rm -rf "$venv"
    python3 -m venv "$venv" >/dev/null 2>&1 || skip "python3 -m venv failed (apt-get install python3-venv)"
    "$venv/bin/python" -m pip install -q pytest playwright >/dev/null 2>&1 \
        || { rm -rf "$venv"; skip "pip could not install pytest and playwright"; }
fi

# The static site, built (again) unless one is given.
web="${SURAKARTA_WEB_DIR:-}"
if [ -z "$web" ]; then
    web="$target_dir/web-site"
    bash scripts/build-web.sh "$web"
fi

shots="${SURAKARTA_SCREENSHOTS:-$(mktemp -d "${TMPDIR:-/tmp}/surakarta-screenshots.XXXXXX")}"
mkdir -p "$shots"
echo "browser test: $("$chromium" --version 2>/dev/null | head -n1), binary $cli, screenshots in $shots"

# The test launches $CHROMIUM through executable_path: Playwright's own
# browsers are neither downloaded nor looked for.
CHROMIUM="$chromium" SURAKARTA_CLI="$cli" SURAKARTA_SCREENSHOTS="$shots" SURAKARTA_WEB_DIR="$web" \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider crates/surakarta-cli/tests/browser "$@"
