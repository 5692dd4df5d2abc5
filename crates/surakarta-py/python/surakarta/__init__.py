"""The board game Surakarta: rules, endgame tablebases and a search engine.

A thin Python layer over the Rust workspace ``surakarta``: every rule,
probe and search runs in Rust. Squares are indices ``0`` (a1) to ``35``
(f6), ``6 * rank + file``; sides are ``"black"`` and ``"white"``. The tour
is in docs/python.md.
"""

from ._surakarta import (
    Engine,
    Game,
    IllegalMoveError,
    InvalidNotationError,
    Limit,
    MissingTableError,
    Move,
    Outcome,
    PlayResult,
    Position,
    Probe,
    Record,
    Rules,
    Score,
    SearchInfo,
    SearchResult,
    Tablebase,
    TablebaseError,
    encode,
    generate_tables,
    legal_move_counts,
    legal_move_masks,
    parse_records,
    parse_square,
    perft,
    read_records,
    square_name,
)
from ._info import GameAnalysis, InfoDict, PlyJudgement, SideTotals
from ._movelist import MoveList

#: The side that moves first.
BLACK = "black"
#: The other side.
WHITE = "white"
#: Every square index, a1 (0) to f6 (35).
SQUARES = list(range(36))
#: The start position's notation.
STARTING_POSITION = "wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b 0 1"

__all__ = [
    "BLACK",
    "WHITE",
    "SQUARES",
    "STARTING_POSITION",
    "Engine",
    "Game",
    "GameAnalysis",
    "IllegalMoveError",
    "InfoDict",
    "InvalidNotationError",
    "Limit",
    "MissingTableError",
    "Move",
    "MoveList",
    "Outcome",
    "PlayResult",
    "PlyJudgement",
    "Position",
    "Probe",
    "Record",
    "Rules",
    "Score",
    "SearchInfo",
    "SearchResult",
    "SideTotals",
    "Tablebase",
    "TablebaseError",
    "encode",
    "generate_tables",
    "legal_move_counts",
    "legal_move_masks",
    "parse_records",
    "parse_square",
    "perft",
    "read_records",
    "square_name",
]
