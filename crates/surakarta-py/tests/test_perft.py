"""Perft counts from the shared reference (shared/reference/perft.txt,
outside the repository: the numbers are copied here)."""

import pytest

import surakarta

# position ; depth count ; ... (the reference's format), to depths that are quick.
REFERENCE = [
    ("wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b", {1: 16, 2: 256, 3: 5382, 4: 111122, 5: 2572484}),
    ("ww3w/wb4/5w/6/6/b1w3 b", {1: 10, 2: 187, 3: 1828, 4: 39753}),
    ("ww1w2/5w/3bww/6/1w2b1/b3bb b", {1: 21, 2: 628, 3: 12978, 4: 393702}),
]


@pytest.mark.parametrize("text,counts", REFERENCE)
def test_perft_matches_reference(text, counts):
    position = surakarta.Position(text)
    for depth, count in counts.items():
        assert surakarta.perft(position, depth) == count, (text, depth)
    # A position's notation is accepted in place of a Position.
    assert surakarta.perft(text, 1) == counts[1]


def test_perft_depths_are_the_clis_and_legal_moves():
    start = surakarta.Position()
    for depth in (0, 13):  # `surakarta perft` takes 1 to 12
        with pytest.raises(ValueError, match=f"depth {depth} is out of range: give 1 to 12"):
            surakarta.perft(start, depth)
    assert len(start.legal_moves) == surakarta.perft(start, 1)
    assert sum(surakarta.perft(start.after(m), 2) for m in start.legal_moves) == 5382
