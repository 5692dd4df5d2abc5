"""The analysis board of `surakarta serve` driven in a real browser.

Starts the release binary (`surakarta serve --bind 127.0.0.1:0 --tb DIR`,
tables generated into a temporary directory), opens the page in Debian's
Chromium through Playwright (its own browser download is not used), and
plays on it as a person would: clicks a piece and a target, undoes and
redoes, jumps in the move list, pastes a position, edits the board, runs
and stops the engine. What the page shows is checked against what the
JSON API says.

Run it with scripts/browser-test.sh, which makes the virtual environment
and finds Chromium. Environment:

- SURAKARTA_CLI: the binary (default: target/release/surakarta);
- CHROMIUM: the browser (default: chromium or chromium-browser on PATH);
- SURAKARTA_SCREENSHOTS: where screenshots go (default: a new temp dir);
- SURAKARTA_SERVER_URL: test a server already running instead (it must
  have tables of up to 4 pieces and --max-analyses 1).
"""

import json
import os
import re
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

import play_checks

REPO = Path(__file__).resolve().parents[4]
CLI = Path(os.environ.get("SURAKARTA_CLI", REPO / "target" / "release" / "surakarta"))

# Black c4, b1 against White b6, d2, Black to move: captures at once (4 pieces,
# covered by `tb generate --pieces 4`).
CAPTURE_FEN = "1w4/6/2b3/6/3w2/1b4 b 0 1"
# The start position: no tables cover it.
START_FEN = "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1"
# A 3-piece position to paste (covered by the tables).
PASTE_FEN = "6/2w3/6/6/1b4/4b1 w 0 1"

# White, to move, has no pieces: the game is over.
OVER_FEN = "6/6/6/6/6/b5 w 0 1"

# Maps each piece of the board picture to the hit target under it.
PIECES_JS = """() => {
  const svg = document.querySelector('#board svg');
  const pts = [...svg.querySelectorAll('circle.point[data-square]')].map(
      (p) => [p.getAttribute('data-square'), +p.getAttribute('cx'), +p.getAttribute('cy')]);
  const out = {black: [], white: []};
  for (const c of svg.querySelectorAll('circle.piece')) {
    const x = +c.getAttribute('cx'), y = +c.getAttribute('cy');
    let best = null, bd = Infinity;
    for (const [s, px, py] of pts) {
      const d = (px - x) ** 2 + (py - y) ** 2;
      if (d < bd) { bd = d; best = s; }
    }
    out[c.classList.contains('black') ? 'black' : 'white'].push(best);
  }
  out.black.sort(); out.white.sort();
  return out;
}"""


# ---------------------------------------------------------------------------
# Fixtures: tables, the server, the browser
# ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def screenshots():
    """The screenshot directory (SURAKARTA_SCREENSHOTS or a new temp dir)."""
    path = Path(os.environ.get("SURAKARTA_SCREENSHOTS") or tempfile.mkdtemp(prefix="surakarta-shots-"))
    path.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots: {path}")
    return path


@pytest.fixture(scope="session")
def tables(tmp_path_factory):
    """Tables of every class with up to 4 pieces."""
    if not CLI.exists():
        pytest.skip(f"no binary at {CLI} (cargo build --release -p surakarta-cli)")
    d = tmp_path_factory.mktemp("tables")
    subprocess.run([str(CLI), "tb", "generate", "--pieces", "4", "--dir", str(d)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
    return d


@pytest.fixture(scope="session")
def server(request):
    """The running server's base URL (no trailing slash).

    SURAKARTA_SERVER_URL names a server already running (for working on the
    page); otherwise the binary is started on tables of up to 4 pieces.
    """
    given = os.environ.get("SURAKARTA_SERVER_URL")
    if given:
        yield given.rstrip("/")
        return
    tables = request.getfixturevalue("tables")
    proc = subprocess.Popen(
        [str(CLI), "serve", "--bind", "127.0.0.1:0", "--tb", str(tables), "--max-analyses", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = None
    deadline = time.time() + 30
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        m = re.search(r"http://[^\s/]+", line)
        if m:
            url = m.group(0)
            break
    if url is None:
        proc.kill()
        pytest.fail("the server printed no URL: " + proc.stderr.read())
    yield url
    proc.send_signal(signal.SIGINT)
    try:
        code = proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the server did not stop within 10 s of SIGINT")
    assert code == 0, f"the server exited with {code} after SIGINT"


@pytest.fixture
def page(browser, server):
    """A fresh page at 1280×800 that fails the test on any script error."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # The browser's own notes on refused requests (a 400 the page shows, a
    # 503 EventSource) are not script errors.
    pg.on("console", lambda m: m.type == "error" and not m.text.startswith("Failed to load resource")
          and "EventSource" not in m.text and errors.append(m.text))
    # Nothing is fetched from elsewhere: any request off the server fails the test.
    outside = []
    pg.on("request", lambda r: not r.url.startswith(server) and not r.url.startswith("data:")
          and outside.append(r.url))
    yield pg
    context.close()
    assert not errors, f"script errors on the page: {errors}"
    assert not outside, f"the page fetched from elsewhere: {outside}"


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def api(server, path, **params):
    """GETs a JSON answer; returns (status, body)."""
    url = server + path + "?" + urllib.parse.urlencode(params)
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def position(server, fen):
    status, body = api(server, "/api/position", fen=fen)
    assert status == 200, body
    return body


def open_board(page, server, fen=None):
    page.goto(server + "/" + ("?fen=" + urllib.parse.quote(fen) if fen else ""))
    page.wait_for_function("() => document.querySelector('#board').dataset.fen")


def wait_fen(page, fen):
    page.wait_for_function("fen => document.querySelector('#board').dataset.fen === fen", arg=fen)


def shown_fen(page):
    return page.locator("#board").get_attribute("data-fen")


def check_board(page, server, fen):
    """The picture, the box, the address and the tablebase panel show `fen` as the API does."""
    info = position(server, fen)
    assert shown_fen(page) == info["fen"]
    assert page.evaluate(PIECES_JS) == {"black": sorted(info["black"]), "white": sorted(info["white"])}
    assert page.locator("#fen-input").input_value() == info["fen"]
    # The address names the position alone (no moves yet) or the game.
    query = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query, keep_blank_values=True)
    if "fen" in query:
        assert query["fen"] == [info["fen"]]
    else:
        assert "moves" in query, page.url
    check_tablebase(page, info)
    return info


def check_tablebase(page, info):
    """The tablebase panel lists the moves in the API's order with their values."""
    rows = page.locator("#tb-moves tbody tr")
    expect(rows).to_have_count(len(info["moves"]))
    shown = rows.evaluate_all(
        "rs => rs.map(r => [r.dataset.move, ...[...r.cells].slice(1).map(c => c.textContent)])")
    want = []
    for m in info["moves"]:
        v = m["value"]
        want.append([m["move"], v["wdl"] if v else "—",
                     str(v["dtc"]) if v and v["dtc"] is not None else "—"])
    assert shown == want
    value = page.locator("#tb-value").inner_text()
    if info["outcome"] is not None:
        assert "Game over" in value and info["outcome"]["result"] in value
    elif info["value"] is None and info.get("cutoff"):
        # The tables hold the position, but the game's rules cut their value off.
        assert "not this game's value" in value and info["cutoff"] in value, value
    elif info["value"] is None:
        assert "no tables" in value.lower()
    else:
        assert info["value"]["wdl"] in value
        if info["value"]["dtc"] is not None:
            assert str(info["value"]["dtc"]) in value


def move_list(page):
    return page.locator("#move-list button.ply").evaluate_all("bs => bs.map(b => b.textContent)")


def point(page, sq):
    return page.locator(f'#board circle.point[data-square="{sq}"]')


# ---------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------


def test_page_and_assets_are_served(server):
    for path, kind in (("/", "text/html"), ("/app.js", "javascript"), ("/tree.js", "javascript"),
                       ("/analysis-view.js", "javascript"), ("/style.css", "text/css")):
        with urllib.request.urlopen(server + path, timeout=10) as r:
            assert kind in r.headers["Content-Type"], (path, r.headers["Content-Type"])


def test_start_position_without_tables(page, server, screenshots):
    open_board(page, server)
    info = check_board(page, server, START_FEN)
    assert len(info["black"]) == 12 and len(info["white"]) == 12
    expect(page.locator("#tb-value")).to_contain_text("No tables")
    expect(page.locator("#tb-line")).to_contain_text("no tables")
    assert move_list(page) == ["start"]
    expect(page.locator("#undo")).to_be_disabled()
    page.screenshot(path=str(screenshots / "start.png"))


def test_capture_by_clicking_then_undo_redo_and_jump(page, server, screenshots):
    open_board(page, server, CAPTURE_FEN)
    before = check_board(page, server, CAPTURE_FEN)
    assert before["value"] is not None, "the 4-piece tables cover this position"
    status, probe = api(server, "/api/probe", fen=CAPTURE_FEN)
    assert status == 200 and probe["line"]
    expect(page.locator("#tb-line")).to_contain_text(" ".join(probe["line"]))

    # An illegal click first: an empty point, then a piece of the side not to move.
    point(page, "a3").click()
    point(page, before["white"][0]).click()
    assert page.locator("#board .ring").count() == 0
    assert shown_fen(page) == before["fen"]

    capture = next(m for m in before["moves"] if m["capture"])
    point(page, capture["from"]).click()
    targets = sorted(page.locator("#board .ring.target").evaluate_all(
        "rs => rs.map(r => r.getAttribute('data-square'))"))
    assert targets == sorted(m["to"] for m in before["moves"] if m["from"] == capture["from"])
    expect(page.locator("#board .ring.selected")).to_have_count(1)

    # Hovering the target draws the capture's path (from /api/svg?move=).
    point(page, capture["to"]).hover()
    page.wait_for_function("m => document.querySelector('#board svg').dataset.preview === m",
                           arg=capture["move"])
    assert page.locator("#board g.preview > *").count() > 0
    page.screenshot(path=str(screenshots / "capture-path.png"))

    point(page, capture["to"]).click()
    wait_fen(page, capture["fen"])
    after = check_board(page, server, capture["fen"])
    assert len(after["black"]) + len(after["white"]) == len(before["black"]) + len(before["white"]) - 1
    assert move_list(page) == ["start", capture["move"]]
    page.screenshot(path=str(screenshots / "after-capture.png"))

    # Undo with the button, redo with the → key.
    page.click("#undo")
    wait_fen(page, before["fen"])
    check_board(page, server, before["fen"])
    expect(page.locator("#redo")).to_be_enabled()
    page.locator("body").click(position={"x": 5, "y": 5})  # focus off any input
    page.keyboard.press("ArrowRight")
    wait_fen(page, after["fen"])
    page.keyboard.press("ArrowLeft")
    wait_fen(page, before["fen"])

    # A second ply from the tablebase panel: play the best move, then jump in the list.
    page.keyboard.press("ArrowRight")
    wait_fen(page, after["fen"])
    if after["moves"]:
        best = after["moves"][0]
        page.locator(f'#tb-moves tr[data-move="{best["move"]}"]').click()
        wait_fen(page, best["fen"])
        check_board(page, server, best["fen"])
        assert move_list(page) == ["start", capture["move"], best["move"]]
        page.locator('#move-list button[data-ply="1"]').click()
        wait_fen(page, after["fen"])
        expect(page.locator('#move-list button[data-ply="1"]')).to_have_class(re.compile(r"\bcurrent\b"))
    page.locator('#move-list button[data-ply="0"]').click()
    wait_fen(page, before["fen"])

    # The address reproduces the view.
    url = page.url
    page.goto(url)
    page.wait_for_function("() => document.querySelector('#board').dataset.fen")
    assert shown_fen(page) == before["fen"]


def test_the_address_keeps_its_form_after_a_move(page, server):
    # #… never reaches the host: the page keeps writing it that way. With a
    # move played the address carries the game: its start and its moves.
    for mark in ("#", "?"):
        page.goto(server + "/" + mark + "fen=" + urllib.parse.quote(START_FEN))
        wait_fen(page, START_FEN)
        first = page.locator("#tb-moves tbody tr").first.get_attribute("data-move")
        page.locator("#tb-moves tbody tr").first.click()
        page.wait_for_function("fen => document.querySelector('#board').dataset.fen !== fen",
                               arg=START_FEN)
        parts = urllib.parse.urlparse(page.url)
        named, other = (parts.fragment, parts.query) if mark == "#" else (parts.query, parts.fragment)
        q = urllib.parse.parse_qs(named, keep_blank_values=True)
        assert q.get("moves") == [first] and q.get("game") == [""], page.url
        assert "moves=" not in other and "fen=" not in other, page.url


def test_paste_a_position(page, server, screenshots):
    open_board(page, server)
    box = page.locator("#fen-input")
    box.fill("this is no position")
    box.press("Enter")
    status, body = api(server, "/api/position", fen="this is no position")
    assert status == 400
    expect(page.locator("#fen-error")).to_have_text(body["error"])
    assert shown_fen(page) == START_FEN

    box.fill(PASTE_FEN)
    box.press("Enter")
    wait_fen(page, PASTE_FEN)
    expect(page.locator("#fen-error")).to_be_hidden()
    info = check_board(page, server, PASTE_FEN)
    assert info["value"] is not None
    assert move_list(page) == ["start"]
    # The conversion line is the one /api/probe gives.
    status, probe = api(server, "/api/probe", fen=PASTE_FEN)
    assert status == 200
    if probe["line"]:
        expect(page.locator("#tb-line")).to_contain_text(" ".join(probe["line"]))

    # A finished game: the result from the API, no moves, the engine has none.
    box.fill(OVER_FEN)
    box.press("Enter")
    wait_fen(page, OVER_FEN)
    info = check_board(page, server, OVER_FEN)
    assert info["outcome"] and info["moves"] == []
    expect(page.locator("#status")).to_contain_text(info["outcome"]["result"])
    expect(page.locator("#tb-value")).to_contain_text("Game over")
    expect(page.locator("#tb-moves")).to_be_hidden()
    page.click("#engine-start")
    expect(page.locator("#engine-best")).to_contain_text("game is over")

    # The Load button works as Enter does.
    box.fill(CAPTURE_FEN)
    page.click("#fen-load")
    wait_fen(page, CAPTURE_FEN)
    page.screenshot(path=str(screenshots / "pasted.png"))


def test_engine_start_stop(page, server, screenshots):
    open_board(page, server)
    # A short analysis runs to its best move.
    page.select_option("#engine-movetime", "1000")
    page.click("#engine-start")
    expect(page.locator("#engine-stop")).to_be_enabled()
    expect(page.locator("#engine-lines tbody tr").first).to_be_visible(timeout=10_000)
    expect(page.locator("#engine-best .best-move")).to_be_visible(timeout=15_000)
    best = page.locator("#engine-best .best-move").get_attribute("data-move")
    assert best in [m["move"] for m in position(server, START_FEN)["moves"]]
    depth, score, nodes, pv = page.locator("#engine-lines tbody tr").first.locator("td").all_inner_texts()
    assert int(depth) >= 1 and score and pv.split()
    expect(page.locator("#engine-stop")).to_be_disabled()
    page.screenshot(path=str(screenshots / "engine.png"))

    # A long one, stopped by the button: the server frees its only slot
    # (--max-analyses 1), so a new analysis is accepted right after.
    page.select_option("#engine-movetime", "30000")
    page.click("#engine-start")
    expect(page.locator("#engine-lines tbody tr").first).to_be_visible(timeout=10_000)
    page.click("#engine-stop")
    expect(page.locator("#engine-state")).to_have_text("stopped")
    assert page.evaluate("() => window.surakartaBoard.analysing") is False
    assert_slot_frees(server)

    # A new position stops a running analysis too.
    page.click("#engine-start")
    expect(page.locator("#engine-lines tbody tr").first).to_be_visible(timeout=10_000)
    first = position(server, START_FEN)["moves"][0]
    page.locator(f'#tb-moves tr[data-move="{first["move"]}"]').click()
    wait_fen(page, first["fen"])
    expect(page.locator("#engine-state")).to_contain_text("stopped")
    assert_slot_frees(server)


def test_engine_busy_server(page, server):
    """With the server's only analysis slot taken, Start says so plainly."""
    open_board(page, server)
    url = server + "/api/analysis?" + urllib.parse.urlencode({"fen": START_FEN, "movetime": 30000})
    held = urllib.request.urlopen(url, timeout=10)  # holds the slot (--max-analyses 1)
    try:
        held.readline()
        status, body = api(server, "/api/analysis", fen=START_FEN, movetime=100)
        assert status == 503, body
        page.click("#engine-start")
        expect(page.locator("#engine-state")).to_contain_text("could not start")
        expect(page.locator("#engine-start")).to_be_enabled()
    finally:
        held.close()
    assert_slot_frees(server)


def assert_slot_frees(server, seconds=3.0):
    """An analysis is accepted (not 503) within `seconds`: the old one stopped."""
    deadline = time.time() + seconds
    last = None
    while time.time() < deadline:
        url = server + "/api/analysis?" + urllib.parse.urlencode({"fen": START_FEN, "movetime": 50})
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                r.read()
                return
        except urllib.error.HTTPError as e:
            last = e.code
            if e.code != 503:
                raise
        time.sleep(0.1)
    pytest.fail(f"the stopped analysis still holds the server's slot (last status {last})")


def test_board_editor(page, server, screenshots):
    open_board(page, server)
    page.click("#edit-toggle")
    expect(page.locator("#editor")).to_be_visible()
    page.click("#edit-clear")
    assert page.evaluate(PIECES_JS) == {"black": [], "white": []}

    # Nothing on the board: White, not to move, has no pieces: the server says no.
    page.click("#edit-done")
    status, body = api(server, "/api/position", fen="6/6/6/6/6/6 b 0 1")
    assert status == 400
    expect(page.locator("#edit-error")).to_have_text(body["error"])

    point(page, "a1").click()  # black
    point(page, "c3").click()  # black
    point(page, "f6").click()  # black …
    point(page, "f6").click()  # … white
    point(page, "b2").click()  # black …
    point(page, "b2").click()  # … white …
    point(page, "b2").click()  # … empty
    assert page.evaluate(PIECES_JS) == {"black": ["a1", "c3"], "white": ["f6"]}
    page.check('input[name="edit-side"][value="w"]')
    page.screenshot(path=str(screenshots / "editor.png"))
    page.click("#edit-done")
    wait_fen(page, "5w/6/6/2b3/6/b5 w 0 1")
    expect(page.locator("#editor")).to_be_hidden()
    check_board(page, server, "5w/6/6/2b3/6/b5 w 0 1")

    # "Start position" fills the start placement.
    page.click("#edit-toggle")
    page.click("#edit-start")
    page.click("#edit-done")
    wait_fen(page, START_FEN)


def test_narrow_window(browser, server, screenshots):
    context = browser.new_context(viewport={"width": 400, "height": 860})
    pg = context.new_page()
    open_board(pg, server, CAPTURE_FEN)
    width = pg.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 400, f"the page scrolls sideways on a narrow window ({width} px)"
    box = pg.locator("#board").bounding_box()
    assert box["width"] > 300
    pg.screenshot(path=str(screenshots / "narrow.png"), full_page=True)
    context.close()


# ---------------------------------------------------------------------------
# Playing the computer, flipping, the score (play_checks.py, shared with the
# static site's test)
# ---------------------------------------------------------------------------


def opener(server):
    def open_at(pg, ending):
        pg.goto(server + "/" + ending)
        pg.wait_for_function("() => document.querySelector('#board').dataset.fen")
    return open_at


def test_play_as_black_the_engine_replies_and_take_back(page, server):
    play_checks.check_play_as_black_reply_and_take_back(page, opener(server))


def test_play_as_white_the_engine_moves_first(page, server):
    play_checks.check_play_as_white_engine_moves_first(page, opener(server))


def test_flip_the_board(page, server):
    play_checks.check_flip(page, opener(server))


def test_resign_shows_game_over(page, server):
    play_checks.check_resign(page, opener(server))


def test_short_games_to_their_end(page, server):
    play_checks.check_short_games_to_their_end(page, opener(server))


def test_the_score_is_explained(page, server):
    play_checks.check_score_explained(page, opener(server))


def test_moves_as_a_tree(page, server):
    play_checks.check_tree_variations(page, opener(server))


def test_a_whole_game_against_level_1(page, server, screenshots):
    play_checks.check_whole_game_against_level_1(page, opener(server), screenshots)


def test_records_in_and_out(page, server):
    play_checks.check_record_import_and_export(page, opener(server))


def test_game_analysis(page, server, screenshots):
    play_checks.check_game_analysis(page, opener(server), screenshots)


def test_the_address_carries_the_game(page, server):
    play_checks.check_address_carries_the_game(page, opener(server))


def test_multipv_lines(page, server):
    play_checks.check_multipv_lines(page, opener(server))


def test_rule_sets(page, server):
    play_checks.check_rules_choice(page, opener(server))
