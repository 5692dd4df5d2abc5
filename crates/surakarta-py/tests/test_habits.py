"""What a python-chess user types first: fen(), copy(), is_game_over(),
Move.from_uci()/uci(), text in legal_moves, legal_moves.count(), push_uci(),
move_stack, peek(), iterating a Game, engine.play() and engine.analyse(),
repr(Engine()), print(position)."""

import collections.abc
import copy
import random

import pytest

import surakarta

OVER = "b5/6/6/6/6/6 w"


def test_fen_reads_and_writes_the_notation():
    start = surakarta.Position()
    assert start.fen() == surakarta.STARTING_POSITION
    after = start.after("b2-b3")
    assert surakarta.Position(after.fen()) == after
    game = surakarta.Game()
    game.push("b2-b3")
    assert game.fen() == after.fen()


def test_print_position_draws_the_board(capsys):
    start = surakarta.Position()
    print(start)
    drawn = capsys.readouterr().out
    assert drawn == start.board()
    assert drawn.splitlines()[0] == "6  w  w  w  w  w  w"
    assert repr(start) == f"Position('{surakarta.STARTING_POSITION}')"
    game = surakarta.Game()
    game.push("b2-b3")
    assert str(game) == str(game.position)


def test_copy():
    position = surakarta.Position().after("b2-b3")
    assert position.copy() == position == copy.copy(position) == copy.deepcopy(position)
    game = surakarta.Game()
    game.push("b2-b3")
    for twin in (game.copy(), copy.copy(game), copy.deepcopy(game)):
        twin.push(twin.legal_moves[0])
        assert len(twin) == 2 and len(game) == 1


def test_is_game_over():
    assert not surakarta.Position().is_game_over()
    assert surakarta.Position(OVER).is_game_over()
    assert not surakarta.Game().is_game_over()
    assert surakarta.Game(OVER).is_game_over()


def test_move_from_uci_and_uci():
    for text in ("b2-b3", "b2xe5"):
        move = surakarta.Move.from_uci(text)
        assert move == surakarta.Move(text) and move.uci() == text == str(move)
    with pytest.raises(surakarta.InvalidNotationError, match="parse_move"):
        surakarta.Move.from_uci("b2b3")
    with pytest.raises(surakarta.InvalidNotationError):
        surakarta.Move.from_uci("e2-e9")


@pytest.mark.parametrize("source", ["position", "game"])
def test_text_in_legal_moves(source):
    start = surakarta.Position()
    moves = start.legal_moves if source == "position" else surakarta.Game().legal_moves
    assert isinstance(moves, collections.abc.Sequence) and len(moves) == 16
    assert "b2-b3" in moves and "b2b3" in moves and surakarta.Move("b2-b3") in moves
    assert "b2xb3" not in moves and "a1-a2" not in moves and "a1a2" not in moves
    assert 7 not in moves and None not in moves
    with pytest.raises(surakarta.InvalidNotationError):
        "b2-b9" in moves
    assert moves == list(moves) and moves[0] in moves


def test_text_in_captures():
    position = surakarta.Position("ww1w2/5w/3bww/6/1w2b1/b3bb b")
    captures = position.captures
    assert captures and all(str(m) in captures for m in captures)
    assert all(str(m).replace("x", "") in captures for m in captures)
    steps = [m for m in position.legal_moves if not m.is_capture]
    assert all(str(m) not in captures for m in steps)


def test_iterating_a_game_gives_its_moves():
    game = surakarta.Game()
    assert list(game) == []
    for text in ("b2-b3", "b5-b4", "a2-a3"):
        game.push(text)
    assert list(game) == game.moves == [surakarta.Move(t) for t in ("b2-b3", "b5-b4", "a2-a3")]
    assert [str(m) for m in game] == ["b2-b3", "b5-b4", "a2-a3"]


def test_engine_repr():
    assert repr(surakarta.Engine()) == "Engine(threads=1, hash=64, tables=None, rules='icga', eval='nnue')"


def test_engine_repr_names_its_tables(tables5):
    engine = surakarta.Engine(threads=2, hash=8, tables=str(tables5), rules="pure")
    assert repr(engine) == f"Engine(threads=2, hash=8, tables='{tables5}', rules='pure', eval='nnue')"
    tables = surakarta.Tablebase(tables5)
    assert f"tables='{tables5}'" in repr(surakarta.Engine(hash=1, tables=tables))


@pytest.mark.parametrize("source", ["position", "game"])
def test_legal_moves_behave_like_python_chess(source):
    start = surakarta.Position()
    moves = start.legal_moves if source == "position" else surakarta.Game().legal_moves
    assert moves.count() == len(moves) == 16 and bool(moves)
    assert isinstance(moves, surakarta.MoveList)
    assert [str(m) for m in moves] == [str(m) for m in iter(moves)]
    assert all(isinstance(m, surakarta.Move) for m in moves)
    assert repr(moves).startswith("<MoveList (a2-a3, ") and repr(moves).endswith(")>")
    # python-chess's count() takes no argument; a list's count(x) still works.
    assert moves.count("b2-b3") == moves.count(surakarta.Move("b2-b3")) == 1
    assert moves.count("a1-a2") == 0 and moves.count(None) == 0
    assert moves.index("b2b3") == [str(m) for m in moves].index("b2-b3")
    with pytest.raises(ValueError):
        moves.index("a1-a2")
    # Still a sequence: indexing, slicing, reversed, random.choice, equality.
    assert moves[0] == list(moves)[0] and moves[-1] == list(moves)[-1]
    assert isinstance(moves[:3], surakarta.MoveList) and len(moves[:3]) == 3
    assert list(reversed(moves)) == list(moves)[::-1]
    assert random.Random(1).choice(moves) in moves
    assert moves == list(moves) and moves != list(moves)[1:] and moves != tuple(moves)
    with pytest.raises(TypeError):
        hash(moves)


def test_legal_moves_of_a_game_that_is_over_are_empty():
    moves = surakarta.Game(OVER).legal_moves
    assert moves.count() == 0 and not moves and list(moves) == [] and repr(moves) == "<MoveList ()>"
    assert "b2-b3" not in moves


def test_push_uci_plays_text_and_returns_the_move():
    game = surakarta.Game()
    move = game.push_uci("b2-b3")
    assert move == surakarta.Move("b2-b3") and game.moves == [move]
    assert game.push_uci("b5b4") == surakarta.Move("b5-b4")  # no separator: the position tells
    with pytest.raises(surakarta.IllegalMoveError):
        game.push_uci("a1-a2")
    with pytest.raises(surakarta.InvalidNotationError):
        game.push_uci("b2-b9")
    with pytest.raises(ValueError):  # both are ValueErrors, as python-chess's
        game.push_uci("nonsense")
    with pytest.raises(TypeError, match="^uci must be a move's text \\(str\\), not Move$"):
        game.push_uci(surakarta.Move("a2-a3"))
    assert len(game) == 2
    with pytest.raises(surakarta.IllegalMoveError):
        surakarta.Game(OVER).push_uci("a1-a2")


def test_parse_uci_names_a_legal_move_without_playing_it():
    game = surakarta.Game()
    assert game.parse_uci("b2b3") == surakarta.Move("b2-b3") == surakarta.Position().parse_uci("b2b3")
    assert len(game) == 0
    with pytest.raises(surakarta.IllegalMoveError):
        game.parse_uci("a1-a2")


def test_move_stack_and_peek():
    game = surakarta.Game()
    assert game.move_stack == []
    with pytest.raises(IndexError):
        game.peek()
    for text in ("b2-b3", "b5-b4"):
        game.push(text)
    assert game.move_stack == game.moves == [surakarta.Move("b2-b3"), surakarta.Move("b5-b4")]
    assert game.peek() == surakarta.Move("b5-b4") and len(game) == 2  # peek leaves it
    assert game.pop() == surakarta.Move("b5-b4") and game.peek() == surakarta.Move("b2-b3")
    stack = game.move_stack
    stack.append(surakarta.Move("a5-a4"))  # a copy: the game is unchanged
    assert len(game.move_stack) == 1


def test_games_compare_by_rules_start_and_moves():
    a, b = surakarta.Game(), surakarta.Game()
    assert a == b and a != surakarta.Game(rules="pure") and a != "game"
    a.push("b2-b3")
    assert a != b
    b.push("b2-b3")
    assert a == b == a.copy()


def test_engine_play_answers_like_python_chess():
    engine = surakarta.Engine(hash=1)
    game = surakarta.Game()
    result = engine.play(game, surakarta.Limit(depth=3))
    assert result.move in game.legal_moves
    pv = result.info["pv"]
    assert result.info["depth"] == 3 and pv[0] == result.move
    assert result.ponder == (pv[1] if len(pv) > 1 else None)
    if result.ponder is not None:
        assert result.ponder in game.position.after(result.move).legal_moves
    assert repr(result).startswith(f"<PlayResult (move={result.move}, ponder={result.ponder}, info={{")
    same = surakarta.Engine(hash=1).search(game, depth=3)  # a fresh engine, as play's
    assert same.best_move == result.move and same.pv == pv
    # As python-chess: push what play answers.
    game.push(engine.play(game, depth=2).move)
    assert len(game) == 1


def test_engine_play_in_a_game_that_is_over():
    result = surakarta.Engine(hash=1).play(surakarta.Game(OVER), depth=1)
    assert result.move is None and result.ponder is None


def test_engine_analyse_answers_an_info_dictionary():
    engine = surakarta.Engine(hash=1)
    info = engine.analyse(surakarta.Position(), surakarta.Limit(depth=3))
    assert type(info) is dict
    assert {"score", "pv", "depth", "seldepth", "nodes", "nps", "time", "hashfull", "tbhits"} <= set(info)
    assert "multipv" not in info
    assert isinstance(info["score"], surakarta.Score) and info["score"].kind == "cp"
    assert info["depth"] == 3 and info["nodes"] > 0 and info["pv"] and info["time"] >= 0
    assert info["pv"][0] in surakarta.Position().legal_moves
    search = surakarta.Engine(hash=1).search(surakarta.Position(), depth=3)  # a fresh engine
    assert info["pv"] == search.pv and str(info["score"]) == str(search.score)


def test_engine_analyse_with_multipv_answers_a_list():
    engine = surakarta.Engine(hash=1)
    lines = engine.analyse(surakarta.Game(), depth=2, multipv=1)
    assert isinstance(lines, list) and len(lines) == 1
    assert lines[0]["multipv"] == 1 and lines[0]["depth"] == 2 and lines[0]["pv"]
    # Several lines: best first, each with its own move, score and line.
    position = surakarta.Position()
    lines = engine.analyse(position, depth=3, multipv=4)
    assert [line["multipv"] for line in lines] == [1, 2, 3, 4]
    firsts = [line["pv"][0] for line in lines]
    assert len(set(firsts)) == 4 and all(m in position.legal_moves for m in firsts)
    scores = [line["score"].value for line in lines]
    assert all(line["score"].kind == "cp" for line in lines)
    assert scores == sorted(scores, reverse=True), scores
    # More lines than moves: one per move.
    few = surakarta.Position("6/6/1wb3/6/6/6 b")
    lines = engine.analyse(few, depth=2, multipv=256)
    assert sorted(str(line["pv"][0]) for line in lines) == sorted(str(m) for m in few.legal_moves)
    # And the next search is one line again.
    assert "multipv" not in engine.analyse(position, depth=2)


def test_play_and_analyse_take_what_search_takes():
    engine = surakarta.Engine(hash=1)
    start = surakarta.Position()
    for method in (engine.play, engine.analyse):
        with pytest.raises(TypeError, match=r"takes no movetime: give time=SECONDS"):
            method(start, movetime=500)
        with pytest.raises(TypeError, match="unexpected keyword argument 'root_moves'"):
            method(start, depth=1, root_moves=[])
        with pytest.raises(TypeError, match="^the limit must be a Limit"):
            method(start, 4)
        with pytest.raises(ValueError, match="^give a Limit or the keywords"):
            method(start, surakarta.Limit(depth=1), depth=1)
        with pytest.raises(ValueError, match="^give at least one limit"):
            method(start)
        seen = []
        method(start, depth=2, callback=lambda info: seen.append(info.depth))
        assert seen == [1, 2]
