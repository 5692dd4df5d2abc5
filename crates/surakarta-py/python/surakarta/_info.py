"""``InfoDict``: the type of what ``Engine.analyse`` answers; ``GameAnalysis``
(with ``PlyJudgement`` and ``SideTotals``): what ``Engine.analyse_game``
answers."""

from typing import List, Optional, TypedDict

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


class PlyJudgement(TypedDict):
    """One move of ``Engine.analyse_game``'s ``plies``: ``ply`` (from 1),
    ``side``, ``move``, ``mark`` (``"?!"``, ``"?"``, ``"??"`` or ``None``),
    ``before`` and ``after`` (the mover's evaluation as text),
    ``win_chance_before``, ``win_chance_after`` and ``loss`` (0 to 1),
    ``exact`` (the mark comes from the tables) and ``best`` (the better
    move, or ``None``). A plain ``dict`` at run time."""

    ply: int
    side: str
    move: Move
    mark: Optional[str]
    before: str
    after: str
    win_chance_before: float
    win_chance_after: float
    loss: float
    exact: bool
    best: Optional[Move]


class SideTotals(TypedDict):
    """One side's totals in ``Engine.analyse_game``'s answer: ``moves``,
    ``inaccuracies``, ``mistakes``, ``blunders`` and ``average_loss`` (0 to
    1, lower is better). A plain ``dict`` at run time."""

    moves: int
    inaccuracies: int
    mistakes: int
    blunders: int
    average_loss: float


class GameAnalysis(TypedDict):
    """What ``Engine.analyse_game`` answers: ``plies`` (a ``PlyJudgement``
    per move), ``black`` and ``white`` (``SideTotals``) and ``record`` (the
    game's record text with marks and comments). A plain ``dict`` at run
    time."""

    plies: List[PlyJudgement]
    black: SideTotals
    white: SideTotals
    record: str
