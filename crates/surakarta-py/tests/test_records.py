"""Game records (docs/notation.md, "Game records"): Game.record() writes
them, Game.from_record(), parse_records() and read_records() read them
back; files are read as the CLI's `show` reads them."""

import os
import random
import signal
import subprocess
import sys

import pytest

import surakarta
from conftest import run_cli

CLUB = """[Event "Club"]
[Black "Ann"]
[Rules "icga"]
[Result "*"]

1. b2-b3 e5-e4 2. b3-b4 *
"""


def random_game(seed, rules="icga", plies=400):
    """A game of random moves (captures first), to its end or `plies`."""
    rng = random.Random(seed)
    game = surakarta.Game(rules=rules)
    while not game.is_over() and len(game) < plies:
        moves = game.legal_moves
        captures = [m for m in moves if m.is_capture]
        game.push(rng.choice(captures or list(moves)))
    return game


@pytest.mark.parametrize("seed", range(8))
def test_a_game_round_trips_through_its_record(seed):
    game = random_game(seed, rules=["icga", "pku", "pure"][seed % 3])
    text = game.record()
    again = surakarta.Game.from_record(text)
    assert again == game
    assert again.moves == game.moves and again.rules == game.rules and again.start == game.start
    assert again.fen() == game.fen() and again.is_over() == game.is_over()
    (record,) = surakarta.parse_records(text)
    assert str(record) == text and record.game() == game
    assert record.result == (game.outcome().result if game.is_over() else "*")
    if game.is_over():
        assert record.tags["Termination"] == game.outcome().reason


def test_a_game_from_a_position_round_trips():
    game = surakarta.Game("6/6/2b3/6/1ww3/6 b", rules="pure")
    game.push(game.legal_moves[0])
    text = game.record()
    assert '[Start "6/6/2b3/6/1ww3/6 b 0 1"]' in text and '[Rules "pure"]' in text
    assert surakarta.Game.from_record(text) == game


def test_the_tags_given_come_first():
    game = surakarta.Game()
    game.push("b2-b3")
    text = game.record({"Event": "Club", "Black": "Ann", "White": 'Bo "the" \\ B'})
    lines = text.splitlines()
    assert lines[:3] == ['[Event "Club"]', '[Black "Ann"]', '[White "Bo \\"the\\" \\\\ B"]']
    (record,) = surakarta.parse_records(text)
    assert record.tags["White"] == 'Bo "the" \\ B'
    assert list(record.tags) == ["Event", "Black", "White", "Rules", "Start", "Result"]
    assert record.headers == record.tags
    assert surakarta.Record.from_game(game, {"Event": "Club"}).tags["Event"] == "Club"
    assert game.record() == game.record(None) == game.record({}) == str(surakarta.Record.from_game(game))


def test_tags_are_checked():
    game = surakarta.Game()
    with pytest.raises(ValueError, match="^invalid tag name \"Bad Name\""):
        game.record({"Bad Name": "x"})
    with pytest.raises(ValueError, match="^invalid tag name"):
        game.record({"": "x"})
    for name in ("Rules", "Start", "Result"):
        with pytest.raises(ValueError, match=f"^tag {name} is written from the game"):
            game.record({name: "x"})
    assert "[Termination \"resigned\"]" in game.record({"Termination": "resigned"})
    with pytest.raises(ValueError, match="^tag Termination is written from the game"):
        surakarta.Game("b5/6/6/6/6/6 w").record({"Termination": "x"})
    with pytest.raises(TypeError, match="^tag Event: the value must be str, not int$"):
        game.record({"Event": 3})
    with pytest.raises(TypeError, match="^a tag's name must be str, not int$"):
        game.record({3: "x"})
    with pytest.raises(TypeError, match="^tags must be a mapping"):
        game.record([("Event", "x")])
    with pytest.raises(TypeError, match="^game must be a Game, not Position$"):
        surakarta.Record.from_game(surakarta.Position())


def test_a_record_reads_as_python_chess_reads_a_game():
    (record,) = surakarta.parse_records(CLUB)
    assert record.headers["Event"] == "Club" and record.tags["Black"] == "Ann"
    assert [str(m) for m in record.mainline_moves()] == ["b2-b3", "e5-e4", "b3-b4"]
    assert record.moves == record.mainline_moves()
    assert record.result == "*" and record.rules == surakarta.Rules.icga()
    assert record.start == surakarta.Position()
    game = record.game()
    assert game.moves == record.moves and game.fen() == surakarta.Position().after("b2-b3").after("e5-e4").after("b3-b4").fen()
    game.push("a5-a4")  # a new game each call
    assert len(record.game()) == 3
    assert repr(record) == '<Record Event "Club", 3 moves, result *>'


def test_a_file_of_records(tmp_path):
    games = [random_game(seed) for seed in range(3)]
    path = tmp_path / "games.txt"
    path.write_text("\n".join(g.record({"Round": str(i + 1)}) for i, g in enumerate(games)))
    records = surakarta.read_records(path)
    assert [r.game() for r in records] == games
    assert [r.tags["Round"] for r in records] == ["1", "2", "3"]
    assert surakarta.read_records(str(path)) == records == surakarta.parse_records(path.read_text())
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    assert surakarta.read_records(empty) == [] == surakarta.parse_records("\n\n")


def test_the_cli_reads_what_python_writes(cli, tmp_path):
    game = random_game(5)
    path = tmp_path / "game.txt"
    path.write_text(game.record({"Event": "Python"}))
    code, out, err = run_cli(cli, "show", "--no-color", str(path))
    assert code == 0, err
    assert "Event: Python" in out


def test_records_that_do_not_read_are_invalid_notation(tmp_path):
    with pytest.raises(surakarta.InvalidNotationError, match="^line 3: ply 1: "):
        surakarta.parse_records('[Event "x"]\n\n1. b2-b5 *\n')
    with pytest.raises(surakarta.InvalidNotationError, match="^line 1: no game in the text$"):
        surakarta.Game.from_record("")
    with pytest.raises(surakarta.InvalidNotationError, match="expected exactly one game"):
        surakarta.Game.from_record(CLUB + "\n" + CLUB)
    path = tmp_path / "bad.txt"
    path.write_text(CLUB + "\n1. a1-a2 *\n")
    with pytest.raises(surakarta.InvalidNotationError, match=f"^{path}: line 8: ply 1: "):
        surakarta.read_records(path)
    path.write_bytes(b'[Event "\xff"]\n\n*\n')
    with pytest.raises(surakarta.InvalidNotationError, match=f"^{path}: not UTF-8 text$"):
        surakarta.read_records(path)


def test_files_that_cannot_be_read_are_os_errors(tmp_path):
    with pytest.raises(FileNotFoundError) as raised:
        surakarta.read_records(tmp_path / "missing.txt")
    assert raised.value.filename == str(tmp_path / "missing.txt")
    with pytest.raises(OSError, match="not a regular file"):
        surakarta.read_records(tmp_path)
    with pytest.raises(TypeError, match="^path must be a path"):
        surakarta.read_records(3)
    with pytest.raises(ValueError, match="^path is empty"):
        surakarta.read_records("")


def test_a_record_file_that_is_a_fifo_is_refused_without_waiting(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = tmp_path / "games.txt"
    os.mkfifo(fifo)
    code = (
        "import surakarta\n"
        "try:\n"
        f"    surakarta.read_records({str(fifo)!r})\n"
        "except OSError as e:\n"
        "    raise SystemExit('refused: ' + str(e))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=20)
    assert done.returncode == 1 and "refused:" in done.stderr and "not a regular file" in done.stderr


def test_a_record_that_would_not_read_back_is_not_written():
    game = surakarta.Game()
    tags = {f"T{i}": "x" for i in range(997)}
    text = game.record(tags)
    assert len(surakarta.parse_records(text)[0].tags) == 1000
    tags["One_more"] = "x"
    with pytest.raises(ValueError, match="more than 1000 tags"):
        game.record(tags)
    with pytest.raises(ValueError, match="more than 1000 tags"):
        str(surakarta.Record.from_game(game, tags))


def test_a_file_holds_at_most_100000_games(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("*\n" * (8 << 20))  # 16 MiB of empty games
    with pytest.raises(surakarta.InvalidNotationError, match="line 100001: more than 100000 games"):
        surakarta.read_records(path)
    assert len(surakarta.parse_records("*\n" * 100_000)) == 100_000


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no interval timer here")
def test_reading_many_records_can_be_interrupted():
    class Interrupted(Exception):
        pass

    def interrupt(signum, frame):
        raise Interrupted

    text = "1. b2-b3 e5-e4 2. b3-b4 *\n\n" * 100_000
    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        # The alarm rings while the games are read (they take far longer
        # than a millisecond): the reader checks for signals between games.
        signal.setitimer(signal.ITIMER_REAL, 0.001)
        with pytest.raises(Interrupted):
            surakarta.parse_records(text)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
