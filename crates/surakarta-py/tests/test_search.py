"""The engine: searches on a few positions, callbacks, Ctrl-C, the CLI's answers."""

import _thread
import json
import signal
import threading
import time

import pytest

import surakarta
from conftest import run_cli

POSITIONS = [
    "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b",
    "ww3w/wb4/5w/6/6/b1w3 b",
    "ww1w2/5w/3bww/6/1w2b1/b3bb b",
]


@pytest.mark.parametrize("text", POSITIONS)
def test_search_to_a_depth(text):
    position = surakarta.Position(text)
    engine = surakarta.Engine(threads=1, hash=8)
    infos = []
    result = engine.search(position, depth=4, callback=infos.append)
    assert result.best_move in position.legal_moves
    assert result.pv[0] == result.best_move
    assert result.depth == 4 and [i.depth for i in infos] == [1, 2, 3, 4]
    assert result.nodes > 0 and result.score.kind in ("cp", "win", "loss")
    assert str(result.score) == result.score.text
    # The line is playable.
    p = position
    for m in result.pv:
        p = p.after(m)


@pytest.mark.parametrize("text", POSITIONS)
def test_same_answer_as_the_cli(cli, text):
    code, out, err = run_cli(
        cli, "search", "--position", text, "--depth", "5", "--threads", "1", "--hash", "16", "--json"
    )
    assert code == 0, err
    expected = json.loads(out)
    result = surakarta.Engine(threads=1, hash=16).search(text, depth=5)
    assert str(result.best_move) == expected["best_move"]
    assert [str(m) for m in result.pv] == expected["pv"]
    assert (result.score.kind, result.score.value) == (
        expected["score"]["kind"],
        expected["score"]["value"],
    )
    assert result.nodes == expected["nodes"]


def test_node_and_time_limits():
    engine = surakarta.Engine(hash=8)
    by_nodes = engine.search(surakarta.Position(), nodes=5000)
    assert by_nodes.best_move is not None
    start = time.monotonic()
    by_time = engine.search(surakarta.Position(), time=0.2)
    assert by_time.best_move is not None and time.monotonic() - start < 5


def test_game_over_has_no_best_move():
    over = surakarta.Game("b5/6/6/6/6/6 w")
    result = surakarta.Engine(hash=1).search(over, depth=3)
    assert result.best_move is None


def test_callback_exception_stops_the_search():
    def callback(info):
        if info.depth == 2:
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        surakarta.Engine(hash=8).search(surakarta.Position(), depth=30, callback=callback)


def test_gil_is_released_while_searching():
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.01)

    thread = threading.Thread(target=ticker)
    thread.start()
    try:
        surakarta.Engine(hash=8).search(surakarta.Position(), time=0.5)
    finally:
        stop.set()
        thread.join()
    assert len(ticks) > 10


def test_ctrl_c_stops_the_search():
    # A process started in the background by a non-interactive shell (as CI
    # may be) inherits SIGINT ignored, and then Python has no handler and
    # interrupt_main does nothing: install Python's own handler for the test.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer = threading.Timer(0.3, _thread.interrupt_main)
        timer.start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            surakarta.Engine(hash=8).search(surakarta.Position(), time=60)
        assert time.monotonic() - start < 10
        timer.join()
    finally:
        signal.signal(signal.SIGINT, previous)


def test_engine_with_tables(tables5):
    engine = surakarta.Engine(hash=8, tables=str(tables5))
    result = engine.search("6/6/2b3/6/1ww3/6 b", depth=3)
    assert result.best_move is not None
    assert result.score.kind in ("tbwin", "tbloss", "cp", "win", "loss")


def test_engine_evaluations():
    for name in ["classic", "paper", "nnue", "default"]:
        engine = surakarta.Engine(eval=name)
        result = engine.search(surakarta.Position(), depth=3)
        assert result.best_move in surakarta.Position().legal_moves
    assert "eval='nnue'" in repr(surakarta.Engine(eval="nnue"))
    with pytest.raises(ValueError, match="unknown eval"):
        surakarta.Engine(eval="strong")


def test_engine_eval_file_is_checked(tmp_path):
    bad = tmp_path / "bad.sknn"
    bad.write_bytes(b"SKNN" + bytes(100))
    with pytest.raises(ValueError, match="eval_file"):
        surakarta.Engine(eval_file=bad)
    with pytest.raises(ValueError, match="not 'classic'|classic"):
        surakarta.Engine(eval="classic", eval_file=bad)


@pytest.mark.parametrize("level", [1, 2, 5])
@pytest.mark.parametrize("text", POSITIONS[:2])
def test_levels_choose_as_the_cli(cli, text, level):
    """A level's move is the CLI's for the same level, seed and position;
    other seeds may choose other moves, each legal."""
    chosen = set()
    for seed in range(6):
        code, out, err = run_cli(
            cli, "search", "--position", text, "--depth", "20", "--level", str(level),
            "--level-seed", str(seed), "--threads", "1", "--hash", "16", "--json",
        )
        assert code == 0, err
        expected = json.loads(out)
        engine = surakarta.Engine(threads=1, hash=16, level=level, level_seed=seed)
        result = engine.search(text, depth=20)
        assert str(result.best_move) == expected["best_move"]
        assert result.best_move in surakarta.Position(text).legal_moves
        chosen.add(str(result.best_move))
    if level == 1:
        assert len(chosen) > 1, "level 1 picks among several moves"
    assert "level=2, level_seed=0" in repr(surakarta.Engine(level=2))


def test_level_arguments_are_checked():
    for bad in (0, 12):
        with pytest.raises(ValueError, match=r"level %d is out of range: give 1 to 11" % bad):
            surakarta.Engine(level=bad)
    with pytest.raises(TypeError, match="level must be an int"):
        surakarta.Engine(level="3")
    with pytest.raises(ValueError, match="level_seed -1 is out of range"):
        surakarta.Engine(level=3, level_seed=-1)


def test_search_parameters_as_the_cli_takes_them(cli):
    """`parameters` changes the search exactly as the CLI's `--parameters`."""
    text = POSITIONS[0]
    tuned = "lmr-min-depth=4,aspiration-base=25"
    code, out, err = run_cli(
        cli, "search", "--position", text, "--depth", "7", "--threads", "1", "--hash", "16",
        "--parameters", tuned, "--json",
    )
    assert code == 0, err
    expected = json.loads(out)
    engine = surakarta.Engine(threads=1, hash=16, parameters=tuned)
    result = engine.search(text, depth=7)
    assert result.nodes == expected["nodes"]
    assert str(result.best_move) == expected["best_move"]
    shipped = surakarta.Engine(threads=1, hash=16).search(text, depth=7)
    assert shipped.nodes != result.nodes
    assert "parameters='aspiration-base=25,lmr-min-depth=4'" in repr(engine)  # canonical order


def test_search_parameters_are_checked():
    with pytest.raises(ValueError, match="unknown search parameter"):
        surakarta.Engine(parameters="nothing=1")
    with pytest.raises(ValueError, match="lmr-reduction = 9 is out of range: expected 0 to 4"):
        surakarta.Engine(parameters="lmr-reduction=9")
    with pytest.raises(ValueError, match="expected name=value pairs"):
        surakarta.Engine(parameters="lmr-reduction")
    with pytest.raises(TypeError):
        surakarta.Engine(parameters=3)
