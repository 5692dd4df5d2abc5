"""Games played to the end under each rule set."""

import random

import pytest

import surakarta

RULES = {
    "icga": surakarta.Rules.icga(),
    "pku": surakarta.Rules.pku(),
    "pure": surakarta.Rules.pure(),
    "custom": surakarta.Rules(repetitions=2, no_capture_plies=10),
}


def play_out(rules, seed, prefer_captures):
    rng = random.Random(seed)
    game = surakarta.Game(rules=rules)
    while not game.is_over():
        moves = game.legal_moves
        captures = [m for m in moves if m.is_capture]
        pick = captures if captures and prefer_captures else moves
        game.push(rng.choice(pick))
        assert len(game) < 5000
    return game


@pytest.mark.parametrize("name", list(RULES))
def test_games_end_with_a_reason(name):
    rules = RULES[name]
    for seed in range(6):
        game = play_out(rules, seed, prefer_captures=seed % 2 == 0)
        outcome = game.outcome()
        assert outcome is not None and game.legal_moves == []
        assert game.rules == rules
        assert len(game.positions) == len(game) + 1
        assert game.position == game.positions[-1]
        if rules.repetitions is None:
            assert outcome.termination != "repetition"
        if rules.no_capture_plies is None:
            assert outcome.termination != "no_capture_limit"
        if outcome.termination in ("no_pieces", "no_moves"):
            # The side to move has lost.
            loser = game.position.turn
            assert outcome.winner == ("white" if loser == "black" else "black")
        else:
            black = len(game.position.pieces("black"))
            white = len(game.position.pieces("white"))
            expected = None if black == white else "black" if black > white else "white"
            assert outcome.winner == expected
        assert outcome.result == {"black": "1-0", "white": "0-1", None: "1/2-1/2"}[outcome.winner]
        assert outcome.reason in str(outcome)
        # The game over, no move is accepted.
        with pytest.raises(surakarta.IllegalMoveError, match="the game is over"):
            game.push(game.position.legal_moves[0] if game.position.legal_moves else "a1-a2")


def test_pure_rules_end_by_no_pieces_or_moves():
    for seed in range(4):
        game = play_out(RULES["pure"], seed, prefer_captures=True)
        assert game.outcome().termination in ("no_pieces", "no_moves")


def test_custom_limits_are_reached():
    terminations = set()
    for seed in range(10):
        terminations.add(play_out(RULES["custom"], seed, prefer_captures=False).outcome().termination)
    assert terminations & {"repetition", "no_capture_limit"}


def test_push_pop_history():
    game = surakarta.Game()
    assert game.rules == surakarta.Rules.icga() and game.start == surakarta.Position()
    played = [game.push("b2-b3"), game.push("a5a4"), game.push(surakarta.Move("b3-b4"))]
    assert [str(m) for m in game.moves] == ["b2-b3", "a5-a4", "b3-b4"]
    assert game.pop() == played[-1] and len(game) == 2
    copy = game.copy()
    game.pop()
    assert len(copy) == 2 and len(game) == 1
    game.pop()
    with pytest.raises(IndexError):
        game.pop()
    assert surakarta.Game("ww3w/wb4/5w/6/6/b1w3 b", "pku").rules == surakarta.Rules.pku()
