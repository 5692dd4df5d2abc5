"""Makes docs/images/serve.png: the analysis board at 1280×800.

The pictures of playing and analysing a game (docs/images/play.png and
analysis.png, 1000×640) are made by the browser tests themselves, into the
screenshot directory:

    SURAKARTA_SCREENSHOTS=docs/images bash scripts/browser-test.sh \
        -k "test_board and (whole_game or game_analysis)"

This script is not a test (pytest does not collect it). Start a server on tables of up to
6 pieces, then run this with the browser test's venv:

    surakarta tb generate --pieces 6 --dir target/page6
    surakarta serve --tb target/page6 --bind 127.0.0.1:8080 &
    target/browser-test-venv/bin/python crates/surakarta-cli/tests/browser/docs_screenshot.py \
        http://127.0.0.1:8080 docs/images/serve.png

It opens a three-against-three position that Black wins in 11 plies, plays
the tables' best move for each side, lets the engine think for a second,
then picks up a piece so its targets show.
"""

import os
import shutil
import sys
import urllib.parse

from playwright.sync_api import sync_playwright

FEN = "4w1/2b2w/2b3/1b4/6/1w4 b 0 1"


def main():
    server, out = sys.argv[1].rstrip("/"), sys.argv[2]
    exe = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(server + "/?fen=" + urllib.parse.quote(FEN))
        page.wait_for_function("() => document.querySelector('#board').dataset.fen")
        for _ in range(2):  # the best move of each side, from the tablebase panel
            fen = page.locator("#board").get_attribute("data-fen")
            page.locator("#tb-moves tbody tr").first.click()
            page.wait_for_function("f => document.querySelector('#board').dataset.fen !== f", arg=fen)
        page.select_option("#engine-movetime", "1000")
        page.click("#engine-start")
        page.locator("#engine-best .best-move").wait_for(timeout=15_000)
        # Pick up the piece of the tables' best move and rest on its target.
        best = page.locator("#tb-moves tbody tr").first.get_attribute("data-move")
        page.locator(f'#board circle.point[data-square="{best[:2]}"]').click()
        page.locator(f'#board circle.point[data-square="{best[-2:]}"]').hover()
        page.wait_for_timeout(400)
        page.screenshot(path=out)
        browser.close()


if __name__ == "__main__":
    main()
