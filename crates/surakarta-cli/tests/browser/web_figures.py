"""The static site's figures in Chromium (docs/benchmarks.md, "The board in
the browser"); not a test. Prints one JSON object:

- the size of the page and module, raw and gzipped, without the tables;
- load times: from navigation to the first board drawn with its legal
  moves (`surakartaBoard.firstShownMs`), over several fresh page loads;
- the engine's benchmark in the page (`Board.bench(depth)`, one thread) and
  natively (`surakarta bench --depth D --threads 1 --json`), alternated
  round by round, and the ratio of each round;
- the probe timing of the 6-piece classes in the page (`Board.timeProbes`)
  and natively (`surakarta bench --tb DIR --probes N --json`).

Usage (in the venv of scripts/browser-test.sh, on an idle machine):
    python web_figures.py SITE_DIR [--depth 8] [--probes 100000] [--loads 5] [--rounds 5]
"""

import argparse
import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import find_chromium  # noqa: E402
from test_static_site import serve_dir  # noqa: E402

REPO = Path(__file__).resolve().parents[4]
CLI = Path(os.environ.get("SURAKARTA_CLI", REPO / "target" / "release" / "surakarta"))


def native_bench(depth):
    """`surakarta bench --depth D --threads 1 --json`'s object."""
    return json.loads(subprocess.run(
        [str(CLI), "bench", "--depth", str(depth), "--threads", "1", "--json"],
        check=True, capture_output=True, text=True).stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("site")
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--probes", type=int, default=100000)
    ap.add_argument("--loads", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    site = Path(args.site)

    files = sorted(p for p in site.iterdir() if p.suffix in (".wasm", ".js", ".html", ".css"))
    raw = sum(p.stat().st_size for p in files)
    gz = sum(len(gzip.compress(p.read_bytes(), 9)) for p in files)
    tables = sum(p.stat().st_size for p in (site / "tables").glob("*.sktb"))

    httpd, url = serve_dir(site)
    out = {"files": [p.name for p in files], "bytes": raw, "gzip_bytes": gz, "table_bytes": tables}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_chromium(), args=["--no-sandbox", "--disable-gpu"])
        loads = []
        for _ in range(args.loads):
            context = browser.new_context()  # a fresh cache each time
            page = context.new_page()
            page.goto(url + "/")
            page.wait_for_function("() => window.surakartaBoard.firstShownMs !== null", timeout=30000)
            loads.append(page.evaluate("() => window.surakartaBoard.firstShownMs"))
            context.close()
        out["load_ms"] = loads
        out["chromium"] = browser.version

        page = browser.new_page()
        page.goto(url + "/")
        page.wait_for_function("() => window.surakartaBoard.firstShownMs !== null", timeout=30000)
        # The page's and the native benchmark alternate, round by round,
        # so that both see the same state of a shared machine.
        out["bench_page"] = []
        out["bench_native"] = []
        for _ in range(args.rounds):
            out["bench_page"].append(json.loads(page.evaluate(
                "d => { const b = new wasm_bindgen.Board(); b.setHash(64); return b.bench(d); }",
                args.depth)))
            out["bench_native"].append(native_bench(args.depth))
        out["probes_page"] = json.loads(page.evaluate("""async (n) => {
            const b = new wasm_bindgen.Board();
            const m = await (await fetch('tables/manifest.json')).json();
            for (const t of m.tables.filter((t) => t.preload)) {
                const bytes = new Uint8Array(await (await fetch('tables/' + t.file)).arrayBuffer());
                b.addTable(t.file, bytes);
            }
            return b.timeProbes(n);
        }""", args.probes))
        browser.close()
    httpd.shutdown()

    out["same_nodes"] = all(p["nodes"] == n["nodes"]
                            for p, n in zip(out["bench_page"], out["bench_native"]))
    out["nps_ratio"] = [p["nps"] / n["nps"] for p, n in zip(out["bench_page"], out["bench_native"])]
    probes = json.loads(subprocess.run(
        [str(CLI), "bench", "--tb", str(site / "tables"), "--probes", str(args.probes),
         "--depth", "1", "--json"],
        check=True, capture_output=True, text=True).stdout)
    out["probes_native"] = probes.get("probes", probes)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
