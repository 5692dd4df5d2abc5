"""Every argument is checked with the CLI's bounds: TypeError for a value of
the wrong type (a bool where a number goes included), ValueError naming the
argument and the range for a value out of it, as the CLI words it."""

import builtins
import math
import os
import re
import subprocess
import sys

import pytest

import surakarta
from conftest import run_cli

START = surakarta.Position()

# Calls that run forever on a package that does not check are run in a
# child process under this many seconds, so that they fail instead of hang.
CHILD_TIMEOUT = 60


def run_python(code, timeout=CHILD_TIMEOUT):
    """Runs `code` in a fresh interpreter; returns (exit code, stderr)."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after {timeout} s: {code}")
    return done.returncode, done.stderr


def in_child(call, value):
    """`call` (text with `{value}`) run in a fresh interpreter under the
    timeout when `value` is an int (a count that an unchecked package would
    take and work on for hours), in this process otherwise; an exception in
    the child is raised here again, with its type and message."""
    if type(value) is not int:
        return eval(call.format(value="value"), {"surakarta": surakarta, "value": value})
    code, err = run_python(
        "import sys, surakarta\n"
        "try:\n"
        f"    {call.format(value=repr(value))}\n"
        "except Exception as e:\n"
        "    sys.stderr.write(type(e).__name__ + ':' + str(e))\n"
        "    sys.exit(3)\n"
    )
    if code == 3:
        name, _, message = err.partition(":")
        kind = getattr(surakarta, name, None) or getattr(builtins, name, Exception)
        raise kind(message)
    assert code == 0, err
    return None


# The three calls a hostile trial found taken.


def test_a_thousand_pieces_is_refused_at_once(tmp_path):
    target = tmp_path / "g"
    code, err = run_python(
        "import surakarta\n"
        "try:\n"
        f"    surakarta.generate_tables({str(target)!r}, 1000)\n"
        "except ValueError as e:\n"
        "    raise SystemExit('refused: ' + str(e))\n"
    )
    assert code == 1 and "refused: pieces 1000 is out of range: give 2 to 10" in err, err
    assert not target.exists()


def test_zero_pieces_is_refused_not_an_empty_list(tmp_path):
    with pytest.raises(ValueError, match=r"^pieces 0 is out of range: give 2 to 10$"):
        surakarta.generate_tables(tmp_path / "g", 0)
    assert not (tmp_path / "g").exists()


def test_a_bool_is_not_a_time():
    with pytest.raises(TypeError, match="^time must be a number .* not bool$"):
        surakarta.Limit(time=True)


# Whole numbers: (what, call with the value, least, greatest, values to try
# that are in range and quick).

WHOLE = [
    ("pieces", lambda d, v: in_child(f"surakarta.generate_tables({str(d)!r}, {{value}})", v), 2, 10, [2]),
    ("threads", lambda d, v: surakarta.Engine(threads=v, hash=1), 1, 1024, [1, 2, 1024]),
    ("hash", lambda d, v: surakarta.Engine(hash=v), 1, 65536, [1, 2]),
    ("depth", lambda d, v: surakarta.Limit(depth=v), 1, 64, [1, 64]),
    ("depth", lambda d, v: surakarta.Engine(hash=1).search(START, depth=v), 1, 64, [1]),
    ("nodes", lambda d, v: surakarta.Limit(nodes=v), 1, 2**64 - 1, [1, 2**64 - 1]),
    ("depth", lambda d, v: in_child("surakarta.perft(surakarta.Position(), {value})", v), 1, 12, [1, 3]),
    ("repetitions", lambda d, v: surakarta.Rules(repetitions=v), 2, 2**32 - 1, [2, 2**32 - 1]),
    ("no_capture_plies", lambda d, v: surakarta.Rules(no_capture_plies=v), 1, 2**32 - 1, [1, 2**32 - 1]),
    ("square", lambda d, v: surakarta.square_name(v), 0, 35, [0, 35]),
    ("square", lambda d, v: START.piece_at(v), 0, 35, [0, 35]),
    ("from_square", lambda d, v: surakarta.Move.step(v, 1), 0, 35, [0, 35]),
    ("to_square", lambda d, v: surakarta.Move.capture(0, v), 0, 35, [0, 35]),
]
WHOLE_IDS = [f"{name}-{i}" for i, (name, *_) in enumerate(WHOLE)]


@pytest.mark.parametrize("name, call, low, high, good", WHOLE, ids=WHOLE_IDS)
def test_whole_numbers_in_range_are_taken(tmp_path, name, call, low, high, good):
    for value in good:
        call(tmp_path / "tables", value)


@pytest.mark.parametrize("name, call, low, high, good", WHOLE, ids=WHOLE_IDS)
def test_whole_numbers_out_of_range_are_value_errors(tmp_path, name, call, low, high, good):
    for value in (low - 1, high + 1, -1, 2**70, -(2**70)):
        if low <= value <= high:
            continue
        with pytest.raises(ValueError) as raised:
            call(tmp_path / "tables", value)
        message = str(raised.value)
        assert message.startswith(f"{name} {value} is out of range: give {low} to {high}"), message
    assert not (tmp_path / "tables").exists()


@pytest.mark.parametrize("name, call, low, high, good", WHOLE, ids=WHOLE_IDS)
def test_whole_numbers_of_the_wrong_type_are_type_errors(tmp_path, name, call, low, high, good):
    for value in (True, False, float(low), 2.5, math.nan, "3", b"3", [3], object()):
        if name.endswith("square") and value in ("3",):
            continue  # a square's name is text
        with pytest.raises(TypeError) as raised:
            call(tmp_path / "tables", value)
        message = str(raised.value)
        assert message.startswith(f"{name} must be"), message
        assert f"not {type(value).__name__}" in message, message
    assert not (tmp_path / "tables").exists()


def test_numpy_integers_are_whole_numbers():
    np = pytest.importorskip("numpy")
    assert surakarta.Limit(depth=np.int64(4)).depth == 4
    assert surakarta.square_name(np.uint8(7)) == "b2"
    with pytest.raises(ValueError, match="depth 65 is out of range"):
        surakarta.Limit(depth=np.int32(65))
    with pytest.raises(TypeError, match="not bool"):
        surakarta.Limit(depth=np.bool_(True))


def test_required_whole_numbers_are_not_none(tmp_path):
    with pytest.raises(TypeError, match="^pieces must be an int, 2 to 10, not NoneType$"):
        surakarta.generate_tables(tmp_path, None)
    with pytest.raises(TypeError, match="^depth must be an int, 1 to 12, not NoneType$"):
        surakarta.perft(START, None)


# The search time, in seconds: 0.001 (the CLI's --movetime 1) to 86400.


@pytest.mark.parametrize("value", [0.001, 0.5, 1, 86_400, 86_400.0])
def test_times_in_range_are_taken(value):
    assert surakarta.Limit(time=value).time == float(value)


@pytest.mark.parametrize(
    "value",
    [0, 0.0, 0.0009, -0.001, -1, 86_400.001, 86_401, 1e300, 2**2000, math.nan, math.inf, -math.inf],
    ids=lambda value: "2**2000" if value == 2**2000 else repr(value),
)
def test_times_out_of_range_are_value_errors(value):
    for call in (
        lambda: surakarta.Limit(time=value),
        lambda: surakarta.Engine(hash=1).search(START, time=value),
    ):
        with pytest.raises(ValueError, match=r"^time .* is out of range: give 0\.001 to 86400 seconds$"):
            call()


@pytest.mark.parametrize("value", [True, False, "1", b"1", 1j, [1], object()])
def test_times_of_the_wrong_type_are_type_errors(value):
    with pytest.raises(TypeError, match=f"^time must be a number .*, not {type(value).__name__}$"):
        surakarta.Limit(time=value)
    with pytest.raises(TypeError, match=f"^time must be a number .*, not {type(value).__name__}$"):
        surakarta.Engine(hash=1).search(START, time=value)


def test_a_long_number_is_shortened_in_the_message():
    with pytest.raises(ValueError) as raised:
        surakarta.Limit(nodes=10**1000)
    assert len(str(raised.value)) < 200 and "(1001 characters)" in str(raised.value)


# Paths: a str or os.PathLike, not empty, no NUL.

PATHS = [
    ("directory", lambda v: surakarta.generate_tables(v, 2)),
    ("directory", lambda v: surakarta.Tablebase(v)),
    ("tables", lambda v: surakarta.Engine(hash=1, tables=v)),
    ("eval_file", lambda v: surakarta.Engine(hash=1, eval_file=v)),
]


@pytest.mark.parametrize("name, call", PATHS)
def test_paths_of_the_wrong_type_are_type_errors(name, call):
    for value in (True, 3, 2.5, [b"x"]):
        with pytest.raises(TypeError, match=f"^{name} must be a path .*, not {type(value).__name__}$"):
            call(value)


@pytest.mark.parametrize("name, call", PATHS)
def test_empty_paths_and_nul_characters_are_value_errors(name, call):
    with pytest.raises(ValueError, match=f"^{name} is empty"):
        call("")
    with pytest.raises(ValueError, match=f"^{name} .* contains a NUL character"):
        call("tables\0x")


def test_a_network_file_that_is_a_fifo_is_refused_without_waiting(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = tmp_path / "net.sknn"
    os.mkfifo(fifo)
    code, err = run_python(
        "import surakarta\n"
        "try:\n"
        f"    surakarta.Engine(hash=1, eval_file={str(fifo)!r})\n"
        "except ValueError as e:\n"
        "    raise SystemExit('refused: ' + str(e))\n",
        timeout=20,
    )
    assert code == 1 and "refused: eval_file" in err, err


def test_a_table_file_that_is_a_fifo_is_refused_without_waiting(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "2v1.sktb")
    code, err = run_python(
        "import surakarta\n"
        "try:\n"
        f"    surakarta.Tablebase({str(tmp_path)!r})\n"
        "except surakarta.TablebaseError as e:\n"
        "    raise SystemExit('refused: ' + str(e))\n",
        timeout=20,
    )
    assert code == 1 and "refused:" in err and "2v1.sktb" in err, err


# Objects or their text.


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda v: START.after(v), "^move must be a Move or a move's text"),
        (lambda v: START.is_legal(v), "^move must be a Move or a move's text"),
        (lambda v: START.svg(v), "^move must be a Move or a move's text"),
        (lambda v: surakarta.Game().push(v), "^move must be a Move or a move's text"),
        (lambda v: surakarta.Game(rules=v), "^argument 'rules': expected a Rules or a rule set's text"),
        (lambda v: surakarta.Engine(hash=1, rules=v), "^argument 'rules': expected a Rules or a rule set's text"),
        (lambda v: START.pieces(v), "color"),
        (lambda v: surakarta.Move(v), "text"),
        (lambda v: surakarta.Rules.parse(v), "text"),
        (lambda v: surakarta.parse_square(v), "name"),
    ],
)
def test_objects_or_text_of_the_wrong_type_are_type_errors(call, words):
    for value in (3, True, 2.5, b"b2-b3"):
        with pytest.raises(TypeError, match=words):
            call(value)


# Positions: every function that takes one takes a Position, a Game (its
# current position) or position text, read in one place, and says so.

ENGINE = surakarta.Engine(hash=1)
POSITION_TAKERS = [
    ("notation", lambda v: surakarta.Position(v)),
    ("position", lambda v: surakarta.Game(v).position),
    ("position", lambda v: surakarta.perft(v, 2)),
    ("position", lambda v: ENGINE.search(v, depth=1).depth),
    ("position", lambda v: ENGINE.play(v, depth=1).move is not None),
    ("position", lambda v: ENGINE.analyse(v, depth=1)["depth"]),
    ("positions[1]", lambda v: surakarta.encode([START, v]).tolist()),
    ("positions[1]", lambda v: surakarta.legal_move_masks([START, v]).tolist()),
    ("positions[1]", lambda v: surakarta.legal_move_counts([START, v]).tolist()),
]
POSITION_IDS = [
    "Position", "Game", "perft", "search", "play", "analyse", "encode", "legal_move_masks",
    "legal_move_counts",
]
WRONG_POSITIONS = [3, True, 2.5, b"wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b", ["b2-b3"], object()]


def a_game_after_one_move():
    game = surakarta.Game()
    game.push("b2-b3")
    return game


@pytest.mark.parametrize("name, call", POSITION_TAKERS, ids=POSITION_IDS)
def test_a_position_a_game_and_text_are_taken_alike(name, call):
    game = a_game_after_one_move()
    position = game.position
    answers = [call(position), call(game), call(position.fen())]
    assert answers[0] == answers[1] == answers[2]


@pytest.mark.parametrize("name, call", POSITION_TAKERS, ids=POSITION_IDS)
def test_positions_of_the_wrong_type_are_type_errors_naming_what_is_taken(name, call):
    for value in WRONG_POSITIONS:
        words = f"{name} must be a Position, a Game or position text, not {type(value).__name__}"
        with pytest.raises(TypeError, match=f"^{re.escape(words)}$"):
            call(value)


def test_the_message_names_the_accepted_types():
    with pytest.raises(TypeError) as raised:
        surakarta.perft(3, 1)
    assert str(raised.value) == "position must be a Position, a Game or position text, not int"


def test_none_is_a_position_only_where_it_means_the_start():
    assert surakarta.Position(None) == START == surakarta.Game(None).position
    with pytest.raises(TypeError, match="^position must be .*, not NoneType$"):
        surakarta.perft(None, 1)
    with pytest.raises(TypeError, match="^position must be .*, not NoneType$"):
        ENGINE.search(None, depth=1)


@pytest.mark.parametrize("batch", [surakarta.encode, surakarta.legal_move_masks, surakarta.legal_move_counts])
def test_a_batch_is_a_sequence_of_positions(batch):
    for value in ("wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b", 3, START):
        with pytest.raises(TypeError, match=f"^positions must be a sequence of positions .*, not {type(value).__name__}$"):
            batch(value)
    game = a_game_after_one_move()
    assert batch((p for p in [START, game])).tolist() == batch([START, game.position]).tolist()


def test_a_game_is_searched_with_its_history_and_rules():
    game = surakarta.Game("b5/6/6/6/6/6 w", rules="pure")
    assert ENGINE.search(game, depth=1).best_move is None
    assert ENGINE.play(game, depth=1).move is None


def test_probes_take_a_position_a_game_or_text(tables5):
    tb = surakarta.Tablebase(tables5)
    text = "6/6/2b3/6/1ww3/6 b"
    game = surakarta.Game(text)
    for probe in (tb.probe, tb.probe_wdl, tb.probe_dtc, tb.probe_text):
        for value in (3, True, None, text.encode()):
            words = f"position must be a Position, a Game or position text, not {type(value).__name__}"
            with pytest.raises(TypeError, match=f"^{re.escape(words)}$"):
                probe(value)
        assert repr(probe(game)) == repr(probe(text)) == repr(probe(surakarta.Position(text)))
    assert surakarta.Engine(hash=1, tables=tables5).search(text, depth=1).best_move


def test_multipv_is_checked_like_every_count():
    for value in (True, 1.0, "1"):
        with pytest.raises(TypeError, match=f"^multipv must be an int, 1 to 256, not {type(value).__name__}$"):
            ENGINE.analyse(START, depth=1, multipv=value)
    for value in (0, -1, 257):
        with pytest.raises(ValueError, match=f"^multipv {value} is out of range: give 1 to 256$"):
            ENGINE.analyse(START, depth=1, multipv=value)


def test_a_callback_must_be_callable():
    with pytest.raises(TypeError, match="^callback must be callable .*, not int$"):
        surakarta.Engine(hash=1).search(START, depth=1, callback=3)
    assert surakarta.Engine(hash=1).search(START, depth=1, callback=None).depth == 1


def test_a_color_that_is_not_a_side_is_named():
    with pytest.raises(ValueError, match='^color "red" is not a side: give "black", "white", "b" or "w"$'):
        START.pieces("red")
    with pytest.raises(ValueError, match="^color"):
        START.pieces_mask("")
    assert START.pieces("b") == START.pieces("black")


def test_a_square_name_that_is_not_a_square_is_named():
    with pytest.raises(surakarta.InvalidNotationError, match="^to_square: "):
        surakarta.Move.step("b2", "b9")
    with pytest.raises(surakarta.InvalidNotationError, match="^square: "):
        START.piece_at("z1")


def test_text_errors_are_mapped_as_documented():
    with pytest.raises(surakarta.InvalidNotationError, match="^invalid position"):
        surakarta.Position("b" * 100_000)
    with pytest.raises(surakarta.InvalidNotationError):
        surakarta.Position("bbbbbb/6/6/6/6/wwwwww b\0")
    with pytest.raises(surakarta.InvalidNotationError):
        START.parse_move("b2-b3" * 10_000)
    with pytest.raises(surakarta.InvalidNotationError):
        surakarta.Rules.parse("repetitions=99999999999")
    with pytest.raises(surakarta.InvalidNotationError):
        surakarta.Rules.parse("repetitions=1")
    with pytest.raises(ValueError):  # a lone surrogate cannot be read
        surakarta.Position("\ud800")


def test_messages_say_what_the_clis_say(cli, tmp_path):
    """The CLI prints `error: --NAME VALUE is out of range: give …`; Python
    raises `NAME VALUE is out of range: give …`, the same words."""
    cases = [
        (["tb", "generate", "--pieces", "1000", "--dir", str(tmp_path / "g")],
         lambda: in_child(f"surakarta.generate_tables({str(tmp_path / 'g')!r}, {{value}})", 1000)),
        (["tb", "generate", "--pieces", "1", "--dir", str(tmp_path / "g")],
         lambda: in_child(f"surakarta.generate_tables({str(tmp_path / 'g')!r}, {{value}})", 1)),
        (["tb", "generate", "--pieces", "3", "--threads", "0", "--dir", str(tmp_path / "g")],
         lambda: surakarta.Engine(threads=0)),
        (["tb", "generate", "--pieces", "3", "--threads", "1025", "--dir", str(tmp_path / "g")],
         lambda: surakarta.Engine(threads=1025)),
        (["search", "--depth", "65"], lambda: surakarta.Limit(depth=65)),
    ]
    for args, call in cases:
        code, _, err = run_cli(cli, *args)
        assert code == 2, err
        with pytest.raises(ValueError) as raised:
            call()
        assert str(raised.value) in err, (err, str(raised.value))
