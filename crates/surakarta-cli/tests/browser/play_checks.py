"""Playing the computer and flipping the board: the checks both back ends
share (test_board.py runs them on `surakarta serve`, test_static_site.py on
the static site). Each takes a fresh page and a function that opens the
board at an address ending (e.g. "?fen=…" or "#fen=…").
"""

import re
import urllib.parse

from playwright.sync_api import expect

import small_png

START_FEN = "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1"
# Black b1 takes White's last piece on b6: one capture from the end.
BLACK_WINS_FEN = "1w4/6/2b3/6/6/1b4 b 0 1"
# White to move takes Black's last piece (d2xc4): the engine ends the game.
WHITE_WINS_FEN = "6/6/2b3/6/3w2/6 w 0 1"

# How long the engine may take to answer at depth 1 (the static site's
# worker may still be loading its tables).
REPLY_MS = 30_000


def address(fen):
    return "?fen=" + urllib.parse.quote(fen)


def point(page, sq):
    return page.locator(f'#board circle.point[data-square="{sq}"]')


def shown_fen(page):
    return page.locator("#board").get_attribute("data-fen")


def plies(page):
    return page.evaluate("() => window.surakartaBoard.plies")


def new_game(page, colour, strength="depth:1", start="start", clock="none"):
    page.select_option("#play-colour", colour)
    page.select_option("#play-clock", clock)
    page.select_option("#play-strength", strength)
    page.select_option("#play-from", start)
    page.click("#play-new")


def wait_engine_done(page, n_plies):
    """Waits until the line has `n_plies` positions and the engine is not thinking."""
    page.wait_for_function(
        """n => { const b = window.surakartaBoard;
                  return b.plies.length === n && b.game && !b.game.thinking && b.cursor === n - 1
                         && document.querySelector('#board').dataset.fen === b.plies[n - 1].fen; }""",
        arg=n_plies, timeout=REPLY_MS)


def check_play_as_black_reply_and_take_back(page, open_board):
    open_board(page, "")
    new_game(page, "b")
    page.wait_for_function("() => document.querySelector('#board').dataset.fen && window.surakartaBoard.game")
    expect(page.locator("#play-state")).to_contain_text("Your move")
    assert not page.evaluate("() => window.surakartaBoard.flipped"), "Black plays from the bottom"
    start = shown_fen(page)
    assert start == START_FEN
    # The analysis engine is not for use during a game.
    expect(page.locator("#engine-start")).to_be_disabled()

    point(page, "b2").click()
    point(page, "b3").click()
    # The engine answers by itself.
    wait_engine_done(page, 3)
    line = plies(page)
    assert line[1]["move"] == "b2-b3"
    assert line[2]["fen"].split()[1] == "b", "after White's reply it is Black's move"
    expect(page.locator("#move-list button.ply")).to_have_count(3)
    # Its move is marked on the board like any move.
    expect(page.locator("#board rect.last-move")).to_have_count(2)
    expect(page.locator("#play-state")).to_contain_text("Your move")

    # Take back: the position before the person's move; the game's moves
    # end there (the moves taken back stay in the tree, for study).
    page.click("#play-takeback")
    page.wait_for_function("fen => document.querySelector('#board').dataset.fen === fen", arg=start)
    assert page.evaluate("() => window.surakartaBoard.cursor") == 0
    assert page.evaluate("() => window.surakartaBoard.game.moves") == []
    expect(page.locator("#play-takeback")).to_be_disabled()
    # Playing on after the take back gets a reply again; the new moves are
    # the main line, the old ones a variation.
    point(page, "c2").click()
    point(page, "c3").click()
    wait_engine_done(page, 3)
    assert plies(page)[1]["move"] == "c2-c3"
    assert page.evaluate("() => window.surakartaBoard.mainLine")[0] == "c2-c3"
    expect(page.locator("#move-list .variation")).to_have_count(1)


def check_play_as_white_engine_moves_first(page, open_board):
    open_board(page, "")
    new_game(page, "w")
    wait_engine_done(page, 2)
    line = plies(page)
    assert line[0]["fen"] == START_FEN and line[1]["fen"].split()[1] == "w"
    assert page.evaluate("() => window.surakartaBoard.flipped"), "White plays from the bottom"
    assert page.evaluate("() => window.surakartaBoard.game.human") == "w"
    expect(page.locator("#play-state")).to_contain_text("You play White")


def screen_pos(page, sq):
    box = point(page, sq).bounding_box()
    return (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def check_flip(page, open_board):
    open_board(page, "")
    page.evaluate("() => localStorage.removeItem('surakarta.flipped')")
    open_board(page, "")
    a1 = screen_pos(page, "a1")
    f6 = screen_pos(page, "f6")
    assert a1[0] < f6[0] and a1[1] > f6[1], "a1 at the bottom left"
    page.locator("#board").click(position={"x": 2, "y": 2})  # focus on the page, not a box
    page.keyboard.press("f")
    page.wait_for_function("() => document.querySelector('#board').dataset.flipped === 'true'")
    a1f = screen_pos(page, "a1")
    assert a1f[0] > f6[0] - 1 and a1f[1] < a1[1], (a1, a1f)
    assert abs(a1f[0] - f6[0]) < 2 and abs(a1f[1] - f6[1]) < 2, "a1 now where f6 was"
    # Moves still go by clicking on the turned board.
    point(page, "b2").click()
    point(page, "b3").click()
    page.wait_for_function("() => window.surakartaBoard.plies.length === 2")
    # Kept across a reload; the button turns it back.
    open_board(page, "")
    assert page.evaluate("() => window.surakartaBoard.flipped")
    page.click("#flip")
    page.wait_for_function("() => document.querySelector('#board').dataset.flipped === 'false'")
    assert screen_pos(page, "a1") == a1


def check_resign(page, open_board):
    open_board(page, "")
    new_game(page, "b")
    expect(page.locator("#play-state")).to_contain_text("Your move")
    page.click("#play-resign")
    expect(page.locator("#play-state")).to_contain_text("Game over")
    expect(page.locator("#play-state")).to_contain_text("White wins (resignation)")
    expect(page.locator("#status")).to_contain_text("resignation")
    expect(page.locator("#play-resign")).to_be_disabled()
    # Analysis again: the engine panel works and moves are free.
    expect(page.locator("#engine-start")).to_be_enabled()
    point(page, "b2").click()
    point(page, "b3").click()
    page.wait_for_function("() => window.surakartaBoard.plies.length === 2")


def check_short_games_to_their_end(page, open_board):
    # The person makes the last capture.
    open_board(page, address(BLACK_WINS_FEN))
    new_game(page, "b", start="shown")
    expect(page.locator("#play-state")).to_contain_text("Your move")
    point(page, "b1").click()
    point(page, "b6").click()
    expect(page.locator("#play-state")).to_contain_text("Game over", timeout=REPLY_MS)
    expect(page.locator("#play-state")).to_contain_text("Black wins (no pieces left)")
    assert page.evaluate("() => window.surakartaBoard.game.over.reason") == "no pieces left"

    # The engine makes it, by itself.
    open_board(page, address(WHITE_WINS_FEN))
    new_game(page, "b", start="shown")
    expect(page.locator("#play-state")).to_contain_text("Game over", timeout=REPLY_MS)
    expect(page.locator("#play-state")).to_contain_text("White wins (no pieces left)")
    assert plies(page)[1]["move"] == "d2xc4"
    expect(page.locator("#play-takeback")).to_be_disabled()  # no move of the person's to take back


def check_score_explained(page, open_board):
    """The engine panel names the score's unit and side."""
    open_board(page, "")
    page.select_option("#engine-movetime", "1000")
    page.click("#engine-start")
    best = page.locator("#engine-best button.best-move")
    expect(best).to_be_visible(timeout=REPLY_MS)
    text = page.locator("#engine-best").inner_text()
    assert " for Black" in text or " for White" in text or "level" in text or "wins" in text, text
    expect(page.locator("#engine-panel .score-help")).to_contain_text("one piece")
    # The headline names the unit and the point of view.
    eval_text = page.locator("#engine-eval").inner_text()
    assert "Black to move" in eval_text, eval_text
    assert "pieces" in eval_text or "plies" in eval_text, eval_text
    assert page.locator("#rules-select").input_value() == "icga"
    # The tables' verdict in words: Black (to move) wins, 5 plies to the capture.
    open_board(page, address("6/6/2w3/6/1b4/b5 b 0 1"))
    expect(page.locator("#tb-value strong")).to_have_text("Black wins")
    expect(page.locator("#tb-value")).to_contain_text("win in 5")


# ---------------------------------------------------------------------------
# Moves as a tree, records, the address, game analysis, MultiPV, rules
# ---------------------------------------------------------------------------

# A record with a comment, a mark and a variation (Black's 1... f5-f4
# instead of e5-e4, two plies long).
RECORD = """[Event "tree test"]

1. b2-b3 { a quiet start } e5-e4 ( 1... f5-f4 2. b3-b4 ) 2. b3-b4?! *
"""
# Black, to move, wins with a1-b1 (tables: win in 5); b2-b3 loses (White
# answers c4xb3): the game analysis marks it a blunder from the tables.
BLUNDER_RECORD = """[Start "6/6/2w3/6/1b4/b5 b 0 1"]

1. b2-b3 c4xb3 *
"""
# Two pieces each, 44 plies without a capture: under ICGA the game ends by
# the no-capture rule within six plies unless a capture comes, and each
# capture brings the end nearer (no pieces left).
SHORT_GAME_FEN = "6/6/2w3/6/1b3w/b5 b 44 1"


def wait_shown(page):
    """Waits until the node the page holds is drawn."""
    page.wait_for_function(
        """() => { const b = window.surakartaBoard, board = document.querySelector('#board');
                   return b.fen && board.dataset.fen === b.fen && !board.hasAttribute('aria-busy'); }""")


def play_click(page, move):
    """Plays `move` by clicking its piece and its target."""
    point(page, move[:2]).click()
    point(page, move[-2:]).click()


def main_line(page):
    return page.evaluate("() => window.surakartaBoard.mainLine")


def check_tree_variations(page, open_board):
    open_board(page, "")
    play_click(page, "b2-b3")
    page.wait_for_function("() => window.surakartaBoard.plies.length === 2")
    wait_shown(page)
    play_click(page, "e5-e4")
    page.wait_for_function("() => window.surakartaBoard.plies.length === 3")
    wait_shown(page)
    # Back to after b2-b3 (the move list) and another reply: a variation.
    page.locator('#move-list button[data-ply="1"]').click()
    page.wait_for_function("() => window.surakartaBoard.cursor === 1")
    wait_shown(page)
    play_click(page, "f5-f4")
    page.wait_for_function("() => window.surakartaBoard.plies.map(p => p.move).join() === ',b2-b3,f5-f4'")
    wait_shown(page)
    assert main_line(page) == ["b2-b3", "e5-e4"], "the main line is kept"
    variation = page.locator("#move-list .variation")
    expect(variation).to_have_count(1)
    expect(variation).to_contain_text("f5-f4")
    expect(variation.locator("button.current")).to_have_text("f5-f4")
    # The arrows go along the current line: back to b2-b3, forward to f5-f4.
    page.locator("#board").click(position={"x": 2, "y": 2})
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => window.surakartaBoard.cursor === 1")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => window.surakartaBoard.plies[window.surakartaBoard.cursor].move === 'f5-f4'")
    # A click on the main line's e5-e4 goes there.
    page.locator("#move-list button.ply.main", has_text="e5-e4").click()
    page.wait_for_function("() => window.surakartaBoard.plies[window.surakartaBoard.cursor].move === 'e5-e4'")
    expect(page.locator("#var-promote")).to_be_disabled()
    # Promote the variation: f5-f4 is the main line, e5-e4 the variation.
    page.locator("#move-list .variation button.ply", has_text="f5-f4").click()
    page.wait_for_function("() => window.surakartaBoard.plies[window.surakartaBoard.cursor].move === 'f5-f4'")
    wait_shown(page)
    page.click("#var-promote")
    page.wait_for_function("() => window.surakartaBoard.mainLine.join() === 'b2-b3,f5-f4'")
    expect(page.locator("#move-list .variation")).to_contain_text("e5-e4")
    # Delete it: only the main line is left.
    page.locator("#move-list .variation button.ply", has_text="e5-e4").click()
    page.wait_for_function("() => window.surakartaBoard.plies[window.surakartaBoard.cursor].move === 'e5-e4'")
    wait_shown(page)
    page.click("#var-delete")
    page.wait_for_function("() => window.surakartaBoard.nodes === 3")
    wait_shown(page)
    expect(page.locator("#move-list .variation")).to_have_count(0)
    assert page.evaluate("() => window.surakartaBoard.cursor") == 1, "shown: where the variation began"


def check_whole_game_against_level_1(page, open_board, screenshots=None):
    """A whole game against level 1, played by clicking to its end.

    It starts from a position of four pieces with 44 plies without a
    capture already counted (SHORT_GAME_FEN), so that the game ends in a
    few dozen plies at most (a full game from the start position against a
    random-ish level 1 can take hundreds); the person plays a capture when
    there is one, else the first legal move, and resigns after 60 plies if
    the game has still not ended.
    """
    open_board(page, address(SHORT_GAME_FEN))
    new_game(page, "b", strength="level:1", start="shown", clock="3+2")
    expect(page.locator("#play-state")).to_contain_text("level 1")
    # Both clocks show; Black's (to move) runs.
    expect(page.locator("#clock-b")).to_contain_text("Black 2:5")
    expect(page.locator("#clock-w")).to_have_text("White 3:00")
    expect(page.locator("#clock-b")).to_have_class(re.compile(r"\brunning\b"))
    expect(page.locator("#play-state")).to_contain_text("seed")
    game = page.evaluate("() => window.surakartaBoard.game")
    assert game["level"] == 1 and isinstance(game["seed"], int)
    # During the game the tables' values and the engine's evaluation are hidden.
    expect(page.locator("#tb-value")).to_contain_text("hidden")
    assert all(t == "—" for t in page.locator("#tb-moves td.wdl").all_inner_texts())
    expect(page.locator("#engine-hidden")).to_be_visible()

    took_back = False
    for _ in range(40):
        page.wait_for_function("() => window.surakartaBoard.game.over || window.surakartaBoard.awaitingMove",
                               timeout=REPLY_MS)
        wait_shown(page)
        if page.evaluate("() => window.surakartaBoard.game.over"):
            break
        if len(page.evaluate("() => window.surakartaBoard.game.moves")) > 60:
            page.click("#play-resign")
            break
        # The panel is filled after the position is drawn; a position the
        # rules end (the no-capture limit) has no rows, and the game is then
        # marked over.
        # The rows are read in the same step as the check, so that a panel
        # being redrawn is never read half-way.
        shown = page.wait_for_function(
            """() => { const b = window.surakartaBoard;
                       if (b.game.over) return 'over';
                       const ms = [...document.querySelectorAll('#tb-moves tbody tr[data-move]')]
                         .map(r => r.dataset.move);
                       return ms.length > 0 && b.awaitingMove ? ms : false; }""",
            timeout=REPLY_MS,
        ).json_value()
        if shown == "over":
            break
        captures = [m for m in shown if "x" in m]
        played = len(page.evaluate("() => window.surakartaBoard.game.moves"))
        play_click(page, (captures or shown)[0])
        # The move is taken before the loop looks at the board again: until
        # then the page may still show the position the move was played on.
        page.wait_for_function(
            f"() => window.surakartaBoard.game.over || window.surakartaBoard.game.moves.length > {played}",
            timeout=REPLY_MS,
        )
        if not took_back and played == 0:
            # Take back the first move once, after the engine's reply.
            page.wait_for_function("() => window.surakartaBoard.game.moves.length >= 2 || window.surakartaBoard.game.over",
                                   timeout=REPLY_MS)
            if not page.evaluate("() => window.surakartaBoard.game.over"):
                page.click("#play-takeback")
                page.wait_for_function("() => window.surakartaBoard.game.moves.length === 0")
                took_back = True
    over = page.evaluate("() => window.surakartaBoard.game.over")
    assert over, "the game ended"
    # The clocks stopped; each side got its increment for every move.
    clock = page.evaluate("() => window.surakartaBoard.game.clock")
    assert 0 < clock["b"] <= 180_000 + 2_000 * 40 and 0 < clock["w"] <= 180_000 + 2_000 * 40, clock
    expect(page.locator("#clocks .running")).to_have_count(0)
    assert took_back
    expect(page.locator("#play-state")).to_contain_text("Game over")
    expect(page.locator("#play-state")).to_contain_text(over["reason"])
    expect(page.locator("#status")).to_contain_text(over["result"])
    # Afterwards: analysis again, the values shown.
    expect(page.locator("#engine-hidden")).to_be_hidden()
    expect(page.locator("#engine-start")).to_be_enabled()
    if screenshots is not None:
        small_screenshot(page, str(screenshots / "play.png"))


def small_screenshot(page, path, down_to=None):
    """A picture for the documents: the top of the page at 1000×640 (down
    to the bottom of the element `down_to` if given), in 128 colours (a few
    tens of KB)."""
    size = page.viewport_size
    page.set_viewport_size({"width": 1000, "height": 640})
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_timeout(200)
    height = 640
    if down_to:
        box = page.locator(down_to).bounding_box()
        height = max(height, int(box["y"] + box["height"]) + 8)
    shot = page.screenshot(full_page=True, clip={"x": 0, "y": 0, "width": 1000, "height": height})
    with open(path, "wb") as f:
        f.write(small_png.quantize(shot))
    page.set_viewport_size(size)


def check_record_import_and_export(page, open_board):
    open_board(page, "")
    page.fill("#record-text", "1. b2-b3 e5-e9 *")
    page.click("#record-open")
    expect(page.locator("#record-error")).to_contain_text("Cannot open the record")
    page.fill("#record-text", RECORD)
    page.click("#record-open")
    expect(page.locator("#record-error")).to_contain_text("Opened a game of 3 plies")
    assert main_line(page) == ["b2-b3", "e5-e4", "b3-b4"]
    assert page.evaluate("() => window.surakartaBoard.nodes") == 6
    expect(page.locator("#move-list .variation")).to_contain_text("f5-f4")
    expect(page.locator("#move-list .comment")).to_have_text("a quiet start")
    expect(page.locator("#move-list .mark").first).to_have_text("?!")
    # The variation's moves are positions like any other: go there.
    page.locator("#move-list .variation button.ply", has_text="b3-b4").click()
    page.wait_for_function("() => window.surakartaBoard.plies.map(p => p.move).join() === ',b2-b3,f5-f4,b3-b4'")
    wait_shown(page)
    assert page.evaluate("() => window.surakartaBoard.cursor") == 3
    # Export: the variation, the comment and the mark are written.
    page.fill("#record-text", "")
    page.click("#record-export")
    page.wait_for_function("() => document.querySelector('#record-text').value.includes('f5-f4')")
    text = page.locator("#record-text").input_value()
    assert "( 1... f5-f4 2. b3-b4 )" in text and "{ a quiet start }" in text and "b3-b4?!" in text, text
    assert '[Rules "icga"]' in text and text.rstrip().endswith("*"), text
    assert '[Event "tree test"]' in text, text
    # Read back, it is the same tree.
    page.click("#play-new")  # another tree first (a game from the start)
    page.wait_for_function("() => window.surakartaBoard.nodes === 1")
    page.click("#play-resign")
    page.fill("#record-text", text)
    page.click("#record-open")
    page.wait_for_function("() => window.surakartaBoard.nodes === 6")
    assert main_line(page) == ["b2-b3", "e5-e4", "b3-b4"]
    # A download carries the same text.
    with page.expect_download() as info:
        page.click("#record-download")
    path = info.value.path()
    with open(path, encoding="utf-8") as f:
        assert f.read() == text


def check_game_analysis(page, open_board, screenshots=None):
    open_board(page, "")
    page.fill("#record-text", BLUNDER_RECORD)
    page.click("#record-open")
    expect(page.locator("#record-error")).to_contain_text("Opened a game of 2 plies")
    page.select_option("#review-movetime", "200")
    page.click("#review-start")
    graph = page.locator("#review-graph svg.eval-graph")
    expect(graph).to_be_visible(timeout=REPLY_MS)
    # b2-b3 threw the win away: a blunder from the tables, with the better move.
    expect(graph.locator("circle.dot.blunder")).to_have_count(1)
    mark = page.locator("#move-list .mark.review.blunder")
    expect(mark).to_have_text("??")
    first = page.locator('#move-list button[data-ply="1"]')
    assert first.get_attribute("title").startswith("Best was ")
    expect(page.locator("#review-totals tr[data-side=black] td").nth(2)).to_have_text("1")
    # A click on the graph goes to that ply (the right end: the last).
    box = graph.bounding_box()
    graph.click(position={"x": box["width"] - 2, "y": box["height"] / 2})
    page.wait_for_function("() => window.surakartaBoard.cursor === 2")
    graph.click(position={"x": 2, "y": box["height"] / 2})
    page.wait_for_function("() => window.surakartaBoard.cursor === 0")
    page.locator('#move-list button[data-ply="1"]').click()
    expect(page.locator("#node-note")).to_contain_text("best was")
    if screenshots is not None:
        small_screenshot(page, str(screenshots / "analysis.png"), down_to="#review-panel")


def check_address_carries_the_game(page, open_board):
    # '#' form: a link with moves opens the game at its ply.
    open_board(page, "#game=&moves=b2-b3,e5-e4,b3-b4&ply=2")
    page.wait_for_function("() => window.surakartaBoard.cursor === 2")
    wait_shown(page)
    assert main_line(page) == ["b2-b3", "e5-e4", "b3-b4"]
    # A move from here is a variation; the address follows, in the same form.
    play_click(page, "a2-a3")
    page.wait_for_function("() => window.surakartaBoard.cursor === 3")
    wait_shown(page)
    parts = urllib.parse.urlparse(page.url)
    named = urllib.parse.parse_qs(parts.fragment, keep_blank_values=True)
    assert named["moves"] == ["b2-b3,e5-e4,a2-a3"], page.url
    assert "moves=" not in parts.query
    fen = shown_fen(page)
    # The same address opens the same game at the same ply.
    url = page.url
    page.goto("about:blank")
    page.goto(url)
    page.wait_for_function("() => window.surakartaBoard.cursor === 3")
    wait_shown(page)
    assert shown_fen(page) == fen
    # An illegal move in the address says so and shows the start.
    open_board(page, "?moves=b2-b3,b3-b9")
    expect(page.locator("#fen-error")).to_contain_text("no valid game")
    open_board(page, "?moves=b2-b3,e2-e3")
    expect(page.locator("#fen-error")).to_contain_text("no valid game")


def check_multipv_lines(page, open_board):
    open_board(page, "")
    page.select_option("#engine-multipv", "3")
    page.select_option("#engine-movetime", "1000")
    page.click("#engine-start")
    expect(page.locator("#engine-best .best-move")).to_be_visible(timeout=REPLY_MS)
    lines = page.locator("#engine-pvs .pv-line")
    expect(lines).to_have_count(3)
    firsts = lines.evaluate_all("ls => ls.map(l => l.querySelector('.pv-move').dataset.move)")
    assert len(set(firsts)) == 3, firsts
    assert all(l.strip() for l in lines.locator(".pv-score").all_inner_texts())
    # A click on a line's second move plays the line to it.
    second = lines.nth(1).locator(".pv-move")
    want = second.evaluate_all("bs => bs.slice(0, 2).map(b => b.dataset.move)")
    second.nth(1).click()
    page.wait_for_function("w => window.surakartaBoard.plies.slice(1).map(p => p.move).join() === w.join()", arg=want)
    wait_shown(page)


def check_rules_choice(page, open_board):
    # 40 plies without a capture: the game goes on under ICGA (50) but is
    # over under PKU (40).
    fen = "6/6/2w3/6/1b3w/b5 b 40 1"
    open_board(page, address(fen))
    expect(page.locator("#status")).to_contain_text("to move")
    page.select_option("#rules-select", "pku")
    expect(page.locator("#status")).to_contain_text("Game over")
    assert "rules=pku" in page.url
    page.select_option("#rules-select", "icga")
    expect(page.locator("#status")).to_contain_text("to move")
