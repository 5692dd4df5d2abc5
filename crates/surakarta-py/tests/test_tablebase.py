"""Tablebase answers agree with `surakarta tb probe --json` on 5-piece tables;
missing and damaged files raise exceptions naming them."""

import json

import pytest

import surakarta
from conftest import random_positions, run_cli


def probe_with_cli(cli, directory, texts):
    code, out, err = run_cli(cli, "tb", "probe", "--dir", str(directory), "--json", stdin="\n".join(texts) + "\n")
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def test_probes_match_the_cli(cli, tables5):
    texts = random_positions(400, 5, seed=5)
    tb = surakarta.Tablebase(tables5)
    assert len(tb.materials()) == 10  # 1v1 to 4v1
    for text, expected in zip(texts, probe_with_cli(cli, tables5, texts)):
        answer = tb.probe(text)
        assert answer.wdl == expected["wdl"] == tb.probe_wdl(text), text
        assert answer.dtc == expected["dtc"] == tb.probe_dtc(text), text
        best = None if answer.best_move is None else str(answer.best_move)
        assert best == expected["best_move"], text
        assert [str(m) for m in answer.line] == expected["line"], text
        assert surakarta.Position(text).is_legal(answer.best_move) if answer.best_move else True


def test_missing_class_names_the_file(tables_copy):
    (tables_copy / "3v2.sktb").unlink()
    tb = surakarta.Tablebase(tables_copy)
    with pytest.raises(surakarta.MissingTableError, match="3v2.sktb"):
        tb.probe("6/6/1bbb2/6/1ww3/6 b")
    with pytest.raises(OSError, match="no table for material 3v2"):
        tb.probe_wdl("6/6/1bbb2/6/1ww3/6 b")


def test_damaged_header_names_the_file(tables_copy):
    path = tables_copy / "2v2.sktb"
    data = bytearray(path.read_bytes())
    data[0] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(surakarta.TablebaseError, match="2v2.sktb"):
        surakarta.Tablebase(tables_copy)


def test_damaged_payload_names_the_file(tables_copy):
    path = tables_copy / "3v1.sktb"
    data = bytearray(path.read_bytes())
    data[-10] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(surakarta.TablebaseError, match="3v1.sktb"):
        tb = surakarta.Tablebase(tables_copy)
        for text in random_positions(200, 4, seed=1):
            p = surakarta.Position(text)
            if len(p.pieces(p.turn)) == 3 and len(p.pieces("white" if p.turn == "black" else "black")) == 1:
                tb.probe(p)


def test_too_many_pieces(tables5):
    tb = surakarta.Tablebase(tables5)
    with pytest.raises(surakarta.MissingTableError):
        tb.probe(surakarta.Position())


def test_a_games_rules_and_history_cut_the_tables_value_off(tables5):
    # 48 plies of the ICGA's 50 without a capture: Black's win in 3 under
    # the pure rules is not the game's (the limit ends it first, White has
    # more pieces).
    tb = surakarta.Tablebase(tables5)
    near = surakarta.Game("w5/6/6/6/6/b4w b 48 1", rules="icga")
    answer = tb.probe(near)
    assert (answer.wdl, answer.dtc, answer.exact) == ("win", 3, False)
    assert "no-capture limit" in answer.cutoff
    far = tb.probe(surakarta.Game("w5/6/6/6/6/b4w b 0 1", rules="icga"))
    assert (far.exact, far.cutoff) == (True, None)
    # A position alone is judged under the pure rules the tables follow.
    assert tb.probe("w5/6/6/6/6/b4w b 48 1").exact

    near.push_uci("a1-b1")
    near.push_uci("f1-e1")
    result = surakarta.Engine(hash=8, tables=tables5).analyse_game(near, depth=4)
    first = result["plies"][0]
    assert first["exact"] is False, first
    assert first["tables"] == "tables: win in 3", first
    assert "no-capture limit" in first["cutoff"], first
    assert first["before"].startswith("loss"), first
