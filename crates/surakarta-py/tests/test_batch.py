"""The NumPy batch helpers agree with the per-position API."""

import numpy as np

import surakarta
from conftest import random_positions


def test_encode_and_masks_agree_with_positions():
    texts = random_positions(300, 12, seed=11) + [surakarta.Position().fen()]
    positions = [surakarta.Position(t) for t in texts]
    planes = surakarta.encode(positions)
    masks = surakarta.legal_move_masks(texts)  # notation works too
    counts = surakarta.legal_move_counts(positions)
    assert planes.shape == (len(texts), 2, 6, 6) and planes.dtype == np.uint8
    assert masks.shape == (len(texts), 36, 36) and masks.dtype == np.bool_
    assert counts.shape == (len(texts),)
    flat = planes.reshape(len(texts), 2, 36)
    for i, p in enumerate(positions):
        us = p.turn
        them = "white" if us == "black" else "black"
        assert set(np.flatnonzero(flat[i, 0])) == p.pieces(us)
        assert set(np.flatnonzero(flat[i, 1])) == p.pieces(them)
        expected = {(m.from_square, m.to_square) for m in p.legal_moves}
        assert set(zip(*np.nonzero(masks[i]))) == expected
        assert counts[i] == len(p.legal_moves)


def test_empty_batch():
    assert surakarta.encode([]).shape == (0, 2, 6, 6)
    assert surakarta.legal_move_masks([]).shape == (0, 36, 36)
