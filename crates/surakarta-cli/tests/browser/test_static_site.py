"""The static analysis board (scripts/build-web.sh) driven in a real browser.

Serves the built folder with a plain static file server (Python's
http.server, in this process; no `surakarta` process runs), opens it in
Debian's Chromium through Playwright and uses it as a person would: the
board draws, a move is played by clicking, the tablebase panel shows a
5-piece position's values, the engine answers a legal move and stops when
asked, a position in the address loads, and a class the site did not load
at start is fetched when a position needs it, a game against the engine
is played (play_checks.py, shared with test_board.py), and the page and
module stay within 1 MB gzipped. No request may go to /api/ or off the
host.

Environment:

- SURAKARTA_WEB_DIR: the built site (scripts/browser-test.sh builds it;
  the tests skip without it);
- CHROMIUM: the browser (default: chromium or chromium-browser on PATH).
"""

import functools
import json
import os
import shutil
import threading
import urllib.parse
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import expect

import play_checks

# Six pieces (3v3): loaded at start by a full site, fetched on demand by a
# site that preloads up to 5 pieces.
SIX_FEN = "6/6/2w3/6/1b3w/bb2w1 b"
START_FEN = "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1"


class QuietHandler(SimpleHTTPRequestHandler):
    """A static file handler that logs nothing and names .wasm's type."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".js": "text/javascript"}

    def log_message(self, *args):
        pass


def serve_dir(directory):
    """Serves `directory` on 127.0.0.1 in a thread; returns (server, base URL)."""
    handler = functools.partial(QuietHandler, directory=str(directory))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


@pytest.fixture(scope="session")
def site_dir():
    given = os.environ.get("SURAKARTA_WEB_DIR")
    if not given or not (Path(given) / "index.html").exists():
        pytest.skip("no static site (scripts/build-web.sh DIR, then SURAKARTA_WEB_DIR=DIR)")
    return Path(given)


@pytest.fixture(scope="session")
def site(site_dir):
    httpd, url = serve_dir(site_dir)
    yield url
    httpd.shutdown()


@pytest.fixture(scope="session")
def small_site(site_dir, tmp_path_factory):
    """The same site with only the classes up to 5 pieces loaded at start."""
    d = tmp_path_factory.mktemp("small-site") / "site"
    shutil.copytree(site_dir, d)
    manifest = json.loads((d / "tables" / "manifest.json").read_text())
    for t in manifest["tables"]:
        t["preload"] = t["pieces"] <= 5
    (d / "tables" / "manifest.json").write_text(json.dumps(manifest))
    httpd, url = serve_dir(d)
    yield url
    httpd.shutdown()


def new_page(browser, base):
    """A page that records script errors and every request."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    pg.errors = []
    pg.requests = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.on("console", lambda m: m.type == "error" and pg.errors.append(m.text))
    pg.on("request", lambda r: pg.requests.append(r.url))
    return context, pg


def check_clean(pg, base):
    assert not pg.errors, f"script errors on the page: {pg.errors}"
    api = [u for u in pg.requests if urllib.parse.urlparse(u).path.startswith("/api/")]
    assert not api, f"requests to /api/: {api}"
    outside = [u for u in pg.requests if not u.startswith(base) and not u.startswith("data:")]
    assert not outside, f"requests off the host: {outside}"


@pytest.fixture
def page(browser, site):
    context, pg = new_page(browser, site)
    yield pg
    context.close()
    check_clean(pg, site)


def open_board(page, base, query=""):
    page.goto(base + "/" + query)
    page.wait_for_function("() => document.querySelector('#board').dataset.fen", timeout=20000)


def wait_fen(page, fen):
    page.wait_for_function("fen => document.querySelector('#board').dataset.fen === fen", arg=fen)


def check_address_after_a_move(page, mark, fen):
    """After a move from `fen` the address carries the game (its start and
    the move) with `mark` (`#` or `?`) and not with the other."""
    first = page.locator("#tb-moves tbody tr").first.get_attribute("data-move")
    page.locator("#tb-moves tbody tr").first.click()
    page.wait_for_function("fen => document.querySelector('#board').dataset.fen !== fen", arg=fen)
    parts = urllib.parse.urlparse(page.url)
    named, other = (parts.fragment, parts.query) if mark == "#" else (parts.query, parts.fragment)
    q = urllib.parse.parse_qs(named, keep_blank_values=True)
    assert q.get("moves") == [first] and q.get("game") == [fen], page.url
    assert "moves=" not in other and "fen=" not in other, page.url


def shown_fen(page):
    return page.locator("#board").get_attribute("data-fen")


def rows(page):
    """The tablebase panel's rows: [move, wdl, dtc]."""
    return page.locator("#tb-moves tbody tr").evaluate_all(
        "rs => rs.map(r => [r.dataset.move, ...[...r.cells].slice(1).map(c => c.textContent)])")


def test_the_board_draws_with_legal_moves_and_a_move_is_played_by_clicking(page, site):
    open_board(page, site)
    assert page.evaluate("() => window.surakartaBoard.backend") == "wasm"
    assert shown_fen(page) == START_FEN
    moves = rows(page)
    # perft 1 of the start (docs/benchmarks.md): 16 moves, none in the tables.
    assert len(moves) == 16 and all(wdl == "—" for _, wdl, _ in moves)
    expect(page.locator("#status")).to_contain_text("Black to move · 16 legal moves")
    # The same moves as the module's own Game (the rules crate) lists.
    listed = page.evaluate("() => new wasm_bindgen.Game().legalMoves()")
    assert sorted(listed) == sorted(m for m, _, _ in moves)
    assert page.locator("#board svg circle.piece").count() == 24
    # Click a piece, then its target.
    move = moves[0][0]
    src, dst = move.split("-")
    page.locator(f'#board circle.point[data-square="{src}"]').click()
    page.locator(f'#board circle.point[data-square="{dst}"]').click()
    page.wait_for_function("() => window.surakartaBoard.plies.length === 2")
    page.wait_for_function(f"() => document.querySelector('#board').dataset.fen !== '{START_FEN}'")
    assert page.evaluate("() => window.surakartaBoard.plies[1].move") == move
    assert " w " in shown_fen(page)
    # Undo brings the start back.
    page.locator("#undo").click()
    wait_fen(page, START_FEN)


def test_the_tablebase_panel_shows_values_and_the_conversion_line(page, site):
    # Black b2 and a1 against White c4: Black wins in 5, a1-b1 first.
    open_board(page, site, "?fen=" + urllib.parse.quote("6/6/2w3/6/1b4/b5 b"))
    expect(page.locator("#tb-value")).to_contain_text("win")
    expect(page.locator("#tb-value")).to_contain_text("5")
    expect(page.locator("#tb-line")).to_contain_text("a1-b1")
    table = rows(page)
    assert table[0][1] == "win"
    assert ["a1-b1"] == [m for m, _, _ in table if m == "a1-b1"]
    best = [r for r in table if r[0] == "a1-b1"][0]
    assert best[1:] == table[0][1:], "a1-b1 is among the fastest wins"


def test_the_engine_answers_a_legal_move_and_stops(page, site):
    open_board(page, site)
    legal = {m for m, _, _ in rows(page)}
    page.select_option("#engine-movetime", "1000")
    page.locator("#engine-start").click()
    best = page.locator("#engine-best button.best-move")
    expect(best).to_be_visible(timeout=20000)
    assert best.get_attribute("data-move") in legal
    assert page.locator("#engine-lines tbody tr").count() >= 1
    # A long search is stopped at once, and the next one runs.
    page.select_option("#engine-movetime", "30000")
    page.locator("#engine-start").click()
    expect(page.locator("#engine-state")).to_contain_text("running")
    page.wait_for_timeout(300)
    page.locator("#engine-stop").click()
    expect(page.locator("#engine-state")).to_have_text("stopped")
    page.select_option("#engine-movetime", "1000")
    page.locator("#engine-start").click()
    expect(page.locator("#engine-best button.best-move")).to_be_visible(timeout=20000)
    # The page stayed responsive while the engine searched: a move is played.
    page.locator("#tb-moves tbody tr").first.click()
    page.wait_for_function("() => window.surakartaBoard.plies.length === 2")


def test_positions_in_the_address_load(page, site):
    fen = "6/2w3/6/6/1b4/4b1 w 0 1"
    # Either form opens the position, and a move keeps the form: #fen=…
    # never reaches the host.
    for mark in ("?", "#"):
        open_board(page, site, mark + "fen=" + urllib.parse.quote(fen))
        wait_fen(page, fen)
        check_address_after_a_move(page, mark, fen)
    # A bad position says so and shows the start.
    open_board(page, site, "?fen=" + urllib.parse.quote("7/6/6/6/6/6 b"))
    expect(page.locator("#fen-error")).to_contain_text("no valid position")


def test_a_class_not_loaded_at_start_is_fetched_when_needed(browser, small_site):
    context, pg = new_page(browser, small_site)
    try:
        open_board(pg, small_site)
        assert not any("3v3" in u for u in pg.requests)
        # What the page says while it fetches.
        pg.evaluate("""() => {
            window.backendSaid = [];
            const box = document.querySelector('#backend-status');
            new MutationObserver(() => window.backendSaid.push(box.textContent))
                .observe(box, {childList: true, characterData: true, subtree: true});
        }""")
        pg.fill("#fen-input", SIX_FEN)
        pg.locator("#fen-input").press("Enter")
        expect(pg.locator("#tb-value")).to_contain_text("to move", timeout=20000)
        assert any(u.endswith("/tables/3v3.sktb") for u in pg.requests)
        said = pg.evaluate("() => window.backendSaid")
        assert any(t.startswith("fetching tables 3v3 (") and t.endswith("KB)…") for t in said), said
        table = rows(pg)
        assert all(wdl != "—" for _, wdl, _ in table)
        check_clean(pg, small_site)
    finally:
        context.close()


# Playing the computer, flipping, the score: the checks of play_checks.py,
# shared with the server's test.


def opener(site):
    return lambda pg, ending: open_board(pg, site, ending)


def test_play_as_black_the_engine_replies_and_take_back(page, site):
    play_checks.check_play_as_black_reply_and_take_back(page, opener(site))


def test_play_as_white_the_engine_moves_first(page, site):
    play_checks.check_play_as_white_engine_moves_first(page, opener(site))


def test_flip_the_board(page, site):
    play_checks.check_flip(page, opener(site))


def test_resign_shows_game_over(page, site):
    play_checks.check_resign(page, opener(site))


def test_short_games_to_their_end(page, site):
    play_checks.check_short_games_to_their_end(page, opener(site))


def test_the_score_is_explained(page, site):
    play_checks.check_score_explained(page, opener(site))


def test_moves_as_a_tree(page, site):
    play_checks.check_tree_variations(page, opener(site))


def test_a_whole_game_against_level_1(page, site):
    play_checks.check_whole_game_against_level_1(page, opener(site))


def test_records_in_and_out(page, site):
    play_checks.check_record_import_and_export(page, opener(site))


def test_game_analysis(page, site):
    play_checks.check_game_analysis(page, opener(site))


def test_the_address_carries_the_game(page, site):
    play_checks.check_address_carries_the_game(page, opener(site))


def test_multipv_lines(page, site):
    play_checks.check_multipv_lines(page, opener(site))


def test_rule_sets(page, site):
    play_checks.check_rules_choice(page, opener(site))


def test_the_page_weighs_at_most_a_megabyte_gzipped_without_tables(site_dir):
    """The page and the module (every .wasm, .js, .html and .css), gzipped
    together as scripts/build-web.sh reports them."""
    import gzip

    data = b"".join(p.read_bytes() for ext in ("wasm", "js", "html", "css")
                    for p in sorted(site_dir.glob("*." + ext)))
    size = len(gzip.compress(data, 9))
    assert size <= 1_000_000, f"page and module: {size} bytes gzipped"
