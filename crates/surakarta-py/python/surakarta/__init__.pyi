"""Type stubs for the ``surakarta`` package (docs/python.md)."""

import os
from typing import (
    Any,
    Callable,
    ClassVar,
    Dict,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Set,
    TypedDict,
    Union,
    overload,
)

import numpy as np
import numpy.typing as npt

BLACK: str
WHITE: str
SQUARES: List[int]
STARTING_POSITION: str

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

Square = Union[int, str]
MoveLike = Union["Move", str]
#: What every function that takes a position takes: a ``Position``, a
#: ``Game`` (its current position; the whole game in a search) or position text.
PositionLike = Union["Position", "Game", str]
RulesLike = Union["Rules", str]
Path = Union[str, "os.PathLike[str]"]

class InvalidNotationError(ValueError):
    """Text that is not a valid position, move, square or rule set."""

class IllegalMoveError(ValueError):
    """A well-formed move that cannot be played here (or a game that is over)."""

class TablebaseError(OSError):
    """A table file or directory that cannot be used; the message names it."""

class MissingTableError(TablebaseError):
    """A position whose class has no table; the message names the file looked for."""

class Move:
    """A step (``b2-c3``) or a capture (``b2xe5``)."""

    def __init__(self, text: str) -> None:
        """Reads ``b2-c3`` or ``b2xe5``; ``b2c3`` needs ``Position.parse_move``."""
    @staticmethod
    def from_uci(text: str) -> "Move":
        """The same as ``Move(text)``: the engine protocol's ``b2-c3`` or ``b2xe5``."""
    def uci(self) -> str:
        """The engine protocol's text, the same as ``str(move)``."""
    @staticmethod
    def step(from_square: Square, to_square: Square) -> "Move":
        """A step from one square to a neighbouring one."""
    @staticmethod
    def capture(from_square: Square, to_square: Square) -> "Move":
        """A capture from one square to another along a circuit."""
    @property
    def from_square(self) -> int:
        """The origin square's index (0 = a1 … 35 = f6)."""
    @property
    def to_square(self) -> int:
        """The target square's index."""
    @property
    def is_capture(self) -> bool:
        """Whether the move is a capture."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class MoveList(Sequence[Move]):
    """The legal moves, as python-chess's ``legal_moves``: ``count()``,
    ``len()``, ``bool()``, iteration, ``in`` with a ``Move`` or its text
    (``"b2-b3"``, ``"b2b3"``); also a fixed sequence (indexing, slicing)."""

    def __init__(self, moves: Iterable[Move] = ()) -> None: ...
    def count(self, value: object = ...) -> int:
        """The number of moves; with a move (or its text), 0 or 1."""
    def index(self, value: object, start: int = 0, stop: int = ...) -> int:
        """Where the move (a ``Move`` or its text) is; ``ValueError`` if absent."""
    def __contains__(self, item: object) -> bool:
        """Whether the move (a ``Move`` or its text) is in the list."""
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __iter__(self) -> Iterator[Move]: ...
    def __reversed__(self) -> Iterator[Move]: ...
    @overload
    def __getitem__(self, index: int) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> "MoveList": ...
    def __eq__(self, other: object) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]

class Position:
    """An immutable position; ``fen()`` is its notation, ``str()`` draws the board."""

    def __init__(self, notation: Optional[PositionLike] = None) -> None:
        """The position in ``notation`` (or a ``Position``, or a ``Game``'s
        current position), or the start position."""
    @property
    def legal_moves(self) -> MoveList:
        """The legal moves."""
    @property
    def captures(self) -> MoveList:
        """The legal captures."""
    def fen(self) -> str:
        """The notation (docs/notation.md), which ``Position(text)`` reads."""
    def copy(self) -> "Position":
        """The same position (positions are immutable)."""
    def __copy__(self) -> "Position": ...
    def __deepcopy__(self, memo: Any) -> "Position": ...
    def is_game_over(self) -> bool:
        """Whether a side has no pieces or no moves (the pure rules)."""
    @property
    def turn(self) -> str:
        """The side to move: ``"black"`` or ``"white"``."""
    @property
    def halfmoves(self) -> int:
        """Plies since the last capture."""
    @property
    def fullmoves(self) -> int:
        """The move number."""
    @property
    def zobrist(self) -> int:
        """The Zobrist hash."""
    def pieces(self, color: str) -> Set[int]:
        """The squares of a side's pieces."""
    def pieces_mask(self, color: str) -> int:
        """A side's pieces as a 36-bit integer (bit i = square i)."""
    def piece_at(self, square: Square) -> Optional[str]:
        """The side on ``square``, or ``None``."""
    def parse_move(self, text: str) -> Move:
        """The legal move ``text`` names (``b2-c3``, ``b2xe5`` or ``b2c3``)."""
    def parse_uci(self, text: str) -> Move:
        """The same as ``parse_move`` (python-chess's ``Board.parse_uci``)."""
    def is_legal(self, move: MoveLike) -> bool:
        """Whether ``move`` is legal here."""
    def after(self, move: MoveLike) -> "Position":
        """The position after ``move``; ``IllegalMoveError`` if it is illegal."""
    def outcome(self) -> Optional["Outcome"]:
        """How the game has ended here under the pure rules, or ``None``."""
    def symmetries(self) -> Dict[str, "Position"]:
        """The position under each of the 8 board symmetries, by name."""
    def board(self) -> str:
        """The board as text, with the files and ranks named."""
    def svg(self, move: Optional[MoveLike] = None) -> str:
        """The board as SVG (``surakarta show --svg``), with ``move`` marked."""
    def _repr_svg_(self) -> str:
        """The SVG picture, for Jupyter."""
    def __str__(self) -> str:
        """The board as ``board()`` draws it, without the last newline."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Rules:
    """A rule set: when a game ends besides no pieces or no moves."""

    def __init__(
        self, repetitions: Optional[int] = None, no_capture_plies: Optional[int] = None
    ) -> None:
        """Custom limits: ``repetitions`` at least 2, ``no_capture_plies`` at
        least 1 (``None``: no such limit)."""
    @staticmethod
    def icga() -> "Rules":
        """Threefold repetition, 50 plies without a capture."""
    @staticmethod
    def pku() -> "Rules":
        """The PKU rules."""
    @staticmethod
    def pure() -> "Rules":
        """No repetition or no-capture limit."""
    @staticmethod
    def parse(text: str) -> "Rules":
        """The CLI's ``--rules`` text."""
    @property
    def repetitions(self) -> Optional[int]:
        """Occurrences of a position that end the game."""
    @property
    def no_capture_plies(self) -> Optional[int]:
        """Plies without a capture that end the game."""
    @property
    def name(self) -> Optional[str]:
        """``"icga"``, ``"pku"`` or ``"pure"`` for a preset."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Outcome:
    """How a game ended."""

    @property
    def winner(self) -> Optional[str]:
        """``"black"``, ``"white"`` or ``None`` for a draw."""
    @property
    def termination(self) -> str:
        """``"no_pieces"``, ``"no_moves"``, ``"repetition"`` or ``"no_capture_limit"``."""
    @property
    def reason(self) -> str:
        """Why the game ended, in words."""
    @property
    def result(self) -> str:
        """``"1-0"``, ``"0-1"`` or ``"1/2-1/2"``."""

class Game:
    """A game: start position, moves, rules."""

    def __init__(
        self, position: Optional[PositionLike] = None, rules: Optional[RulesLike] = None
    ) -> None:
        """A game from ``position`` (default the start) under ``rules`` (default ICGA)."""
    def push(self, move: MoveLike) -> Move:
        """Plays ``move``; ``IllegalMoveError`` if illegal or the game is over."""
    def push_uci(self, uci: str) -> Move:
        """Plays the move written ``uci`` (``b2-b3``, ``b2xe5``, ``b2b3``) and
        returns it (python-chess's ``Board.push_uci``)."""
    def parse_uci(self, text: str) -> Move:
        """The legal move ``text`` names, not played (``Board.parse_uci``)."""
    def peek(self) -> Move:
        """The last move played; ``IndexError`` at the start."""
    def pop(self) -> Move:
        """Takes back the last move; ``IndexError`` at the start."""
    @property
    def rules(self) -> Rules:
        """The rules."""
    @property
    def start(self) -> Position:
        """The start position."""
    @property
    def position(self) -> Position:
        """The current position."""
    @property
    def moves(self) -> List[Move]:
        """The moves played."""
    @property
    def move_stack(self) -> List[Move]:
        """The moves played (python-chess's ``Board.move_stack``)."""
    @property
    def positions(self) -> List[Position]:
        """Every position, the start first."""
    @property
    def repetitions(self) -> int:
        """How often the current position has occurred."""
    @property
    def legal_moves(self) -> MoveList:
        """The legal moves now."""
    @property
    def turn(self) -> str:
        """The side to move: ``"black"`` or ``"white"``."""
    def fen(self) -> str:
        """The current position's notation."""
    def outcome(self) -> Optional[Outcome]:
        """How the game has ended, or ``None``."""
    def is_over(self) -> bool:
        """Whether the game has ended."""
    def is_game_over(self) -> bool:
        """Whether the game has ended (the same as ``is_over``)."""
    def record(self, tags: Optional[Mapping[str, str]] = None) -> str:
        """The game as a record's text, the ``tags`` given first."""
    @staticmethod
    def from_record(text: str) -> "Game":
        """The game of a record's text holding exactly one game."""
    def copy(self) -> "Game":
        """A copy of the game."""
    def __eq__(self, other: object) -> bool:
        """Whether ``other`` has the same rules, start and moves."""
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __copy__(self) -> "Game": ...
    def __deepcopy__(self, memo: Any) -> "Game": ...
    def __len__(self) -> int:
        """The number of moves played."""
    def __iter__(self) -> Iterator[Move]:
        """The moves played, in order."""
    def __str__(self) -> str:
        """The current position's board."""

class Probe:
    """A tablebase answer."""

    wdl: str
    dtc: Optional[int]
    best_move: Optional[Move]
    line: List[Move]
    exact: bool
    cutoff: Optional[str]

class Tablebase:
    """Endgame tables read from a directory of ``*.sktb`` files."""

    def __init__(self, directory: Path) -> None:
        """Opens the tables in ``directory`` (read into memory)."""
    def materials(self) -> List[str]:
        """The classes held, as ``"4v1"``."""
    def probe(self, position: PositionLike) -> Probe:
        """Value, best move and conversion line."""
    def probe_wdl(self, position: PositionLike) -> str:
        """``"win"``, ``"draw"`` or ``"loss"``."""
    def probe_dtc(self, position: PositionLike) -> Optional[int]:
        """Plies to the conversion, ``None`` for a draw."""
    def probe_text(self, position: PositionLike) -> str:
        """The value as the CLI prints it (``"win in 3"``)."""

class Score:
    """A score for the side to move."""

    kind: str
    value: int
    text: str

class SearchInfo:
    """One finished iteration of a search."""

    depth: int
    seldepth: int
    score: Score
    nodes: int
    nps: int
    time: float
    pv: List[Move]
    hashfull: int
    tb_hits: int
    partial: bool

class SearchResult:
    """What a search found."""

    best_move: Optional[Move]
    score: Score
    pv: List[Move]
    depth: int
    partial: bool
    seldepth: int
    nodes: int
    nps: int
    time: float
    tb_hits: int
    tb_errors: int

class PlyJudgement(TypedDict):
    """One move of ``Engine.analyse_game``'s ``"plies"``."""

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
    tables: Optional[str]
    cutoff: Optional[str]

class SideTotals(TypedDict):
    """One side's totals in ``Engine.analyse_game``'s answer."""

    moves: int
    inaccuracies: int
    mistakes: int
    blunders: int
    average_loss: float

class GameAnalysis(TypedDict):
    """What ``Engine.analyse_game`` answers."""

    plies: List[PlyJudgement]
    black: SideTotals
    white: SideTotals
    record: str

class InfoDict(TypedDict, total=False):
    """What ``Engine.analyse`` answers, as python-chess's ``InfoDict``."""

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

class PlayResult:
    """What ``Engine.play`` answers, as python-chess's ``PlayResult``."""

    @property
    def move(self) -> Optional[Move]:
        """The move to play, or ``None`` if the game is over."""
    @property
    def ponder(self) -> Optional[Move]:
        """The reply the engine expects, or ``None``."""
    @property
    def info(self) -> InfoDict:
        """The last iteration, as ``Engine.analyse`` gives it."""

class Limit:
    """A search limit: ``time`` seconds, ``depth`` plies, ``nodes`` (at least one)."""

    def __init__(
        self,
        time: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
    ) -> None:
        """``ValueError`` for a time outside 0.001 to 86400 seconds, a depth outside
        1 to 64, nodes below 1; ``TypeError`` for a value that is not a number
        (a ``bool`` included)."""
    @property
    def time(self) -> Optional[float]:
        """Seconds to think."""
    @property
    def depth(self) -> Optional[int]:
        """Plies to search."""
    @property
    def nodes(self) -> Optional[int]:
        """Nodes to search (about)."""
    def __eq__(self, other: object) -> bool: ...

class Engine:
    """The search engine."""

    def __init__(
        self,
        threads: int = 1,
        hash: int = 64,
        tables: Union[Tablebase, Path, None] = None,
        rules: Optional[RulesLike] = None,
        eval: Optional[str] = None,
        eval_file: Optional[Path] = None,
        level: Optional[int] = None,
        level_seed: Optional[int] = None,
        parameters: Optional[str] = None,
    ) -> None:
        """A new engine. ``eval`` is ``"classic"``, ``"paper"``, ``"nnue"``
        (the embedded network, the default) or ``"default"``; ``eval_file`` a network
        file (``.sknn``) to use instead of the embedded one. ``threads`` is 1 to
        1024, ``hash`` 1 to 65536 MiB, ``level`` 1 to 11 (weaker, human-like moves
        below 10, chosen by ``level_seed``; ``None`` is the full engine)
        (``ValueError`` outside, ``TypeError`` for a value that is not an ``int``).
        ``parameters`` are search parameters other than the shipped ones,
        ``"lmr-min-depth=3,aspiration-base=20"`` (the names of ``surakarta tune
        --list``; ``ValueError`` for an unknown name or a value out of range)."""
    def search(
        self,
        position: PositionLike,
        limit: Optional[Limit] = None,
        *,
        time: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        callback: Optional[Callable[[SearchInfo], object]] = None,
    ) -> SearchResult:
        """Searches within ``limit``, or ``time`` seconds, ``depth`` plies, ``nodes``."""
    def play(
        self,
        position: PositionLike,
        limit: Optional[Limit] = None,
        *,
        time: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        callback: Optional[Callable[[SearchInfo], object]] = None,
    ) -> PlayResult:
        """The move to play, as python-chess's ``engine.play``."""
    @overload
    def analyse(
        self,
        position: PositionLike,
        limit: Optional[Limit] = None,
        *,
        multipv: None = None,
        time: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        callback: Optional[Callable[[SearchInfo], object]] = None,
    ) -> InfoDict:
        """One info dictionary, as python-chess's ``engine.analyse``."""
    @overload
    def analyse(
        self,
        position: PositionLike,
        limit: Optional[Limit] = None,
        *,
        multipv: int,
        time: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        callback: Optional[Callable[[SearchInfo], object]] = None,
    ) -> List[InfoDict]:
        """A list of info dictionaries, one per line, best first."""
    def analyse_game(
        self,
        game: Union[Game, Record],
        limit: Optional[Limit] = None,
        *,
        time: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
    ) -> GameAnalysis:
        """Every move of ``game`` judged as ``surakarta analyse`` judges it: marks
        ``"?!"``, ``"?"``, ``"??"`` from the drop of the mover's win chance, exact
        ones from the engine's tables, the better move, each side's totals, and the
        annotated record."""
    def new_game(self) -> None:
        """Clears what the engine learnt."""
    @property
    def rules(self) -> Rules:
        """The rules for positions searched without a ``Game``."""

class Record:
    """One game of a record file, as python-chess's ``chess.pgn.Game``."""

    @staticmethod
    def from_game(game: Game, tags: Optional[Mapping[str, str]] = None) -> "Record":
        """The record of ``game``, the ``tags`` given first."""
    @property
    def tags(self) -> Dict[str, str]:
        """Every tag, in the record's order."""
    @property
    def headers(self) -> Dict[str, str]:
        """The tags (python-chess's ``headers``)."""
    @property
    def rules(self) -> Rules:
        """The rule set."""
    @property
    def start(self) -> Position:
        """The start position."""
    @property
    def moves(self) -> List[Move]:
        """The moves."""
    def mainline_moves(self) -> List[Move]:
        """The moves (python-chess's ``mainline_moves()``)."""
    @property
    def result(self) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` or ``"*"``."""
    def game(self) -> Game:
        """The game, its moves replayed."""
    def __str__(self) -> str:
        """The record's text."""
    def __eq__(self, other: object) -> bool: ...

def read_records(path: Path) -> List[Record]:
    """The records of a file of game records (a regular file, at most 16 MiB)."""

def parse_records(text: str) -> List[Record]:
    """The records in ``text``."""

def perft(position: PositionLike, depth: int) -> int:
    """Move sequences of ``depth`` plies (1 to 12, as ``surakarta perft``)."""

def square_name(square: Square) -> str:
    """``0`` → ``"a1"``."""

def parse_square(name: str) -> int:
    """``"a1"`` → ``0``."""

def generate_tables(directory: Path, pieces: int) -> List[str]:
    """Generates every table with 2 to ``pieces`` pieces into ``directory``
    (``pieces`` 2 to 10, as ``surakarta tb generate --pieces``)."""

def encode(positions: Sequence[PositionLike]) -> npt.NDArray[np.uint8]:
    """Planes of shape ``(N, 2, 6, 6)``: side to move, other side."""

def legal_move_masks(positions: Sequence[PositionLike]) -> npt.NDArray[np.bool_]:
    """Masks of shape ``(N, 36, 36)``: ``[n, from, to]``."""

def legal_move_counts(positions: Sequence[PositionLike]) -> npt.NDArray[np.uint32]:
    """Legal move counts, shape ``(N,)``."""
