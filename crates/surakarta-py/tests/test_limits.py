"""Search limits: `Limit(time=SECONDS, depth=PLIES, nodes=N)`, the same as
keywords, and absurd values refused with a ValueError that says why."""

import math
import time

import pytest

import surakarta

START = surakarta.Position()


def test_a_limit_object_and_keywords_search_alike():
    engine = surakarta.Engine(threads=1, hash=8)
    by_object = engine.search(START, surakarta.Limit(depth=3))
    engine.new_game()
    by_keyword = engine.search(START, depth=3)
    assert by_object.depth == by_keyword.depth == 3
    assert by_object.pv == by_keyword.pv and by_object.nodes == by_keyword.nodes


def test_time_is_in_seconds():
    engine = surakarta.Engine(hash=8)
    for limit in (surakarta.Limit(time=0.2), None):
        started = time.monotonic()
        if limit is None:
            result = engine.search(START, time=0.2)
        else:
            result = engine.search(START, limit)
        assert result.best_move is not None
        assert time.monotonic() - started < 5


def test_limit_fields_and_repr():
    limit = surakarta.Limit(time=0.5, depth=3, nodes=1000)
    assert (limit.time, limit.depth, limit.nodes) == (0.5, 3, 1000)
    assert repr(limit) == "Limit(time=0.5, depth=3, nodes=1000)"
    assert repr(surakarta.Limit(depth=4)) == "Limit(depth=4)"
    assert surakarta.Limit(depth=4) == surakarta.Limit(depth=4) != surakarta.Limit(depth=5)
    assert surakarta.Limit(time=2).time == 2.0


def test_movetime_is_refused_with_the_new_names():
    with pytest.raises(TypeError, match=r"time=SECONDS.*milliseconds"):
        surakarta.Engine(hash=1).search(START, movetime=500)


def test_other_unknown_keywords_are_type_errors():
    with pytest.raises(TypeError, match="unexpected keyword argument 'dept'"):
        surakarta.Engine(hash=1).search(START, dept=3)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"time": -1.0}, "time -1.0"),
        ({"time": math.nan}, "time nan"),
        ({"time": math.inf}, "time inf"),
        ({"time": 0}, "time 0"),
        ({"time": 0.0005}, "time 0.0005"),
        ({"time": 86_401}, "give 0.001 to 86400 seconds"),
        ({"time": 1e300}, "give 0.001 to 86400 seconds"),
        ({"depth": 0}, "depth 0"),
        ({"depth": 65}, "depth 65"),
        ({"depth": -3}, "depth -3"),
        ({"nodes": 0}, "nodes 0"),
        ({"nodes": -5}, "nodes -5"),
        ({"nodes": 2**70}, "nodes"),
        ({}, "at least one"),
    ],
)
def test_absurd_limits_are_refused(kwargs, words):
    with pytest.raises(ValueError, match=words):
        surakarta.Limit(**kwargs)
    with pytest.raises(ValueError, match=words):
        surakarta.Engine(hash=1).search(START, **kwargs)


def test_a_millisecond_to_a_day():
    assert surakarta.Limit(time=86_400).time == 86_400.0
    assert surakarta.Limit(time=0.001).time == 0.001


def test_limit_and_keywords_together_are_refused():
    with pytest.raises(ValueError, match="not both"):
        surakarta.Engine(hash=1).search(START, surakarta.Limit(depth=2), depth=3)


def test_a_number_where_the_limit_goes_says_what_to_write():
    with pytest.raises(TypeError, match=r"Limit\(depth=4\)"):
        surakarta.Engine(hash=1).search(START, 4)
