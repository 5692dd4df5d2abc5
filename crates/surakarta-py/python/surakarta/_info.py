"""``InfoDict``: the type of what ``Engine.analyse`` answers."""

from typing import List, TypedDict

from ._surakarta import Move, Score


class InfoDict(TypedDict, total=False):
    """What ``Engine.analyse`` answers (one per line with ``multipv``), as
    python-chess's ``InfoDict``: ``score`` (a ``Score`` for the side to
    move), ``pv``, ``depth``, ``seldepth``, ``nodes``, ``nps``, ``time``
    (seconds), ``hashfull`` (per mille), ``tbhits``; ``multipv`` (the line's
    number, 1 for the best) when lines were asked for, ``lowerbound``
    (``True``) when the last iteration was stopped early. A plain ``dict``
    at run time."""

    score: Score
    pv: List[Move]
    depth: int
    seldepth: int
    nodes: int
    nps: int
    time: float
    hashfull: int
    tbhits: int
    multipv: int
    lowerbound: bool
