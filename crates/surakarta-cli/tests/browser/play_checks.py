"""Playing the computer and flipping the board: the checks both back ends
share (test_board.py runs them on `surakarta serve`, test_static_site.py on
the static site). Each takes a fresh page and a function that opens the
board at an address ending (e.g. "?fen=…" or "#fen=…").
"""

import urllib.parse

from playwright.sync_api import expect

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


def new_game(page, colour, strength="depth:1", start="start"):
    page.select_option("#play-colour", colour)
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

    # Take back: the position before the person's move, the line cut there.
    page.click("#play-takeback")
    page.wait_for_function("fen => document.querySelector('#board').dataset.fen === fen", arg=start)
    assert len(plies(page)) == 1
    expect(page.locator("#play-takeback")).to_be_disabled()
    # Playing on after the take back gets a reply again.
    point(page, "c2").click()
    point(page, "c3").click()
    wait_engine_done(page, 3)
    assert plies(page)[1]["move"] == "c2-c3"


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
    expect(page.locator("#rules-name")).to_have_text("ICGA")
