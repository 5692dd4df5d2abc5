"""Errors are raised as docs/python.md documents, with the CLI's messages."""

import pytest

import surakarta
from conftest import run_cli


def test_exception_hierarchy():
    assert issubclass(surakarta.InvalidNotationError, ValueError)
    assert issubclass(surakarta.IllegalMoveError, ValueError)
    assert issubclass(surakarta.TablebaseError, OSError)
    assert issubclass(surakarta.MissingTableError, surakarta.TablebaseError)


@pytest.mark.parametrize(
    "text",
    ["", "not a position", "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb x", "7/6/6/6/6/6 b", "b" * 1000],
)
def test_bad_positions(text):
    with pytest.raises(surakarta.InvalidNotationError, match="^invalid position"):
        surakarta.Position(text)
    with pytest.raises(surakarta.InvalidNotationError):
        surakarta.perft(text, 1)


@pytest.mark.parametrize("text", ["b2+c3", "b2", "z2-c3", "b2-b9"])
def test_bad_move_text(text):
    start = surakarta.Position()
    with pytest.raises(surakarta.InvalidNotationError, match="invalid move text"):
        start.parse_move(text)
    with pytest.raises(surakarta.InvalidNotationError):
        start.after(text)
    with pytest.raises(surakarta.InvalidNotationError):
        surakarta.Game().push(text)


def test_move_without_separator_needs_a_position():
    with pytest.raises(surakarta.InvalidNotationError):
        surakarta.Move("b2b3")


@pytest.mark.parametrize(
    "text,message",
    [
        ("a3-a4", "there is no piece on a3"),
        ("a5-a4", "the piece on a5 is white's"),
        ("b2xb3", "this move is b2-b3"),
        ("a1-a2", "illegal move"),
    ],
)
def test_illegal_moves(text, message):
    start = surakarta.Position()
    with pytest.raises(surakarta.IllegalMoveError, match=message):
        start.after(text)
    with pytest.raises(surakarta.IllegalMoveError, match=message):
        surakarta.Game().push(text)
    assert not start.is_legal(text)


def test_bad_squares_colors_rules():
    with pytest.raises(ValueError):
        surakarta.square_name(36)
    with pytest.raises(surakarta.InvalidNotationError):
        surakarta.parse_square("g1")
    with pytest.raises(ValueError):
        surakarta.Position().pieces("red")
    with pytest.raises(surakarta.InvalidNotationError):
        surakarta.Rules.parse("chess")
    with pytest.raises(ValueError):
        surakarta.Rules(repetitions=0)


def test_bad_engine_settings():
    with pytest.raises(ValueError, match="threads 0 is out of range: give 1 to 1024"):
        surakarta.Engine(threads=0)
    with pytest.raises(ValueError, match="hash 0 is out of range: give 1 to 65536 MiB"):
        surakarta.Engine(hash=0)
    engine = surakarta.Engine(hash=1)
    with pytest.raises(ValueError, match="give at least one limit"):
        engine.search(surakarta.Position())
    with pytest.raises(ValueError, match="depth 0 is out of range"):
        engine.search(surakarta.Position(), depth=0)


def test_missing_directory_names_it(tmp_path):
    missing = tmp_path / "nowhere"
    with pytest.raises(surakarta.TablebaseError, match="nowhere"):
        surakarta.Tablebase(missing)
    with pytest.raises(surakarta.TablebaseError, match="no table files"):
        surakarta.Tablebase(tmp_path)


def test_messages_are_the_clis(cli):
    """The CLI prints `error: MESSAGE`; Python raises MESSAGE."""
    cases = [
        (["search", "--position", "not a position", "--depth", "1"], lambda: surakarta.Position("not a position")),
        (["search", "--rules", "chess", "--depth", "1"], lambda: surakarta.Rules.parse("chess")),
        (["search", "--moves", "a1-a2", "--depth", "1"], lambda: surakarta.Game().push("a1-a2")),
        (["tb", "generate", "--pieces", "2", "--threads", "0", "--dir", "unused"],
         lambda: surakarta.Engine(threads=0)),
    ]
    for args, call in cases:
        code, _, err = run_cli(cli, *args)
        assert code == 2, err
        with pytest.raises(ValueError) as raised:
            call()
        assert str(raised.value) in err, (err, str(raised.value))


def test_search_of_a_game_being_searched_elsewhere_does_not_panic():
    game = surakarta.Game()
    result = surakarta.Engine(hash=1).search(game, depth=2)
    assert result.best_move in game.legal_moves
