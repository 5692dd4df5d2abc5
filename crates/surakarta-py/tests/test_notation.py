"""Notation round trips: positions, moves, squares, rules."""

import random

import pytest

import surakarta
from conftest import random_positions


def playout_positions(seed, plies=80):
    rng = random.Random(seed)
    game = surakarta.Game(rules=surakarta.Rules.pure())
    for _ in range(plies):
        if game.is_over():
            break
        game.push(rng.choice(game.legal_moves))
    return game.positions


def test_positions_round_trip():
    for seed in range(5):
        for p in playout_positions(seed):
            text = p.fen()
            again = surakarta.Position(text)
            assert again == p and again.fen() == text and hash(again) == hash(p)
            assert again.zobrist == p.zobrist
            assert eval(repr(p), {"Position": surakarta.Position}) == p


def test_random_positions_round_trip():
    for text in random_positions(200, 8, seed=3):
        p = surakarta.Position(text)
        assert surakarta.Position(p.fen()) == p
        black, white = p.pieces("black"), p.pieces("white")
        assert p.pieces_mask("black") == sum(1 << s for s in black)
        assert p.pieces_mask("white") == sum(1 << s for s in white)
        for s in range(36):
            expected = "black" if s in black else "white" if s in white else None
            assert p.piece_at(s) == expected == p.piece_at(surakarta.square_name(s))


def test_moves_round_trip():
    for p in playout_positions(7):
        for m in p.legal_moves:
            text = str(m)
            assert surakarta.Move(text) == m
            assert p.parse_move(text) == m
            assert p.parse_move(text.replace("-", "").replace("x", "")) == m
            assert ("x" in text) == m.is_capture
            assert surakarta.square_name(m.from_square) == text[:2]
            assert surakarta.square_name(m.to_square) == text[3:]
            assert p.is_legal(m) and p.is_legal(text)
            kind = surakarta.Move.capture if m.is_capture else surakarta.Move.step
            assert kind(m.from_square, m.to_square) == m
            assert kind(text[:2], text[3:]) == m
            assert repr(m) == f"Move('{text}')"
        assert {m for m in p.captures} == {m for m in p.legal_moves if m.is_capture}


def test_squares_round_trip():
    for s in range(36):
        assert surakarta.parse_square(surakarta.square_name(s)) == s
    assert surakarta.square_name(0) == "a1" and surakarta.square_name(35) == "f6"
    assert surakarta.SQUARES == list(range(36))


@pytest.mark.parametrize("text", ["icga", "pku", "pure"])
def test_rules_round_trip(text):
    rules = surakarta.Rules.parse(text)
    assert rules == getattr(surakarta.Rules, text)()
    assert rules.name == text
    assert surakarta.Rules.parse(str(rules)) == rules
    custom = surakarta.Rules(repetitions=rules.repetitions, no_capture_plies=rules.no_capture_plies)
    assert custom == rules


def test_symmetries():
    p = surakarta.Position("ww3w/wb4/5w/6/6/b1w3 b")
    images = p.symmetries()
    assert list(images)[0] == "id" and images["id"] == p and len(images) == 8
    for image in images.values():
        assert surakarta.perft(image, 3) == surakarta.perft(p, 3)
        assert len(image.pieces("white")) == len(p.pieces("white"))


def test_board_text():
    board = surakarta.Position().board()
    lines = board.splitlines()
    assert lines[0] == "6  w  w  w  w  w  w"
    assert lines[5] == "1  b  b  b  b  b  b"
    assert lines[6] == "   a  b  c  d  e  f"
