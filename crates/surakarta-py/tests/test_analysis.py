"""Engine.analyse_game: a game judged as `surakarta analyse` judges it."""

import json

import pytest

import surakarta
from conftest import run_cli

START = "6/6/2w3/6/1b4/b5 b"
MOVES = ["a1-b1", "c4-c3", "b1-c2", "c3-d2", "b2xd2"]


def test_the_same_judgement_as_the_cli(cli, tables5, tmp_path):
    game = surakarta.Game(START, rules="icga")
    for m in MOVES:
        game.push_uci(m)
    engine = surakarta.Engine(hash=8, tables=tables5)
    result = engine.analyse_game(game, nodes=2000)

    record = tmp_path / "game.txt"
    record.write_text(game.record())
    code, out, err = run_cli(
        cli, "analyse", str(record), "--tb", str(tables5), "--nodes", "2000", "--json"
    )
    assert code == 0, err
    expected = json.loads(out)
    assert len(result["plies"]) == len(expected["plies"]) == len(MOVES)
    for got, want in zip(result["plies"], expected["plies"]):
        assert str(got["move"]) == want["move"]
        assert got["mark"] == want["mark"]
        assert got["exact"] == want["exact"] is True
        assert got["before"] == want["before"]
        assert (str(got["best"]) if got["best"] else None) == want["best"]
    assert result["black"] == expected["black"]
    assert "3. b2xd2" in result["record"]
    # A Record is taken as well, and gives the same plies.
    again = engine.analyse_game(surakarta.parse_records(game.record())[0], nodes=2000)
    assert [p["mark"] for p in again["plies"]] == [p["mark"] for p in result["plies"]]


def test_a_blunder_from_the_tables_is_marked():
    # Black wins with c4xc2 at once; any step instead keeps less.
    position = surakarta.Position("6/6/2b3/6/2w3/6 b")
    engine = surakarta.Engine(hash=8)
    game = surakarta.Game(position)
    game.push_uci("c4-b3")
    result = engine.analyse_game(game, depth=3)
    ply = result["plies"][0]
    assert ply["side"] == "black" and ply["mark"] == "??", ply
    assert str(ply["best"]) == "c4xc2"


def test_arguments_are_checked():
    engine = surakarta.Engine(hash=1)
    with pytest.raises(TypeError, match="game must be a Game or a Record, not str"):
        engine.analyse_game("b2-b3", depth=1)
    with pytest.raises(ValueError, match="give at least one limit"):
        engine.analyse_game(surakarta.Game())
