"""What a python-chess user types first: fen(), copy(), is_game_over(),
Move.from_uci()/uci(), text in legal_moves, iterating a Game, repr(Engine()),
print(position)."""

import copy

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
    assert isinstance(moves, list) and len(moves) == 16
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
