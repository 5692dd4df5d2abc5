"""``MoveList``: the legal moves of a position or a game, in the manner of
python-chess's ``LegalMoveGenerator``."""

from typing import Callable, Iterable, Iterator, List, Sequence, Union, overload

from ._surakarta import Move, _move_text

_NOTHING = object()


def _matcher(item: object) -> Callable[[Move], bool]:
    """Whether a move is ``item``: a ``Move``, or a move's text (``"b2-b3"``,
    ``"b2xe5"``, or ``"b2b3"`` for the move from b2 to b3 whichever its
    kind). Text that is not a move raises ``InvalidNotationError``."""
    if isinstance(item, str):
        origin, target, capture = _move_text(item)
        return lambda m: (
            m.from_square == origin
            and m.to_square == target
            and (capture is None or m.is_capture == capture)
        )
    return lambda m: m == item


class MoveList(Sequence[Move]):
    """The moves of ``Position.legal_moves``, ``Position.captures`` and
    ``Game.legal_moves``, as python-chess's ``board.legal_moves``:
    ``count()`` and ``len()`` give their number, ``bool()`` whether there
    is any, ``in`` takes a ``Move`` or a move's text (``"b2-b3" in
    position.legal_moves``; ``"b2b3"`` without the separator for the move
    from b2 to b3 whichever its kind), iterating gives them. Unlike
    python-chess's, it is also a sequence, fixed when it is made: indexing,
    slicing and ``random.choice`` work, and it equals a list of the same
    moves in the same order."""

    __slots__ = ("_moves",)

    def __init__(self, moves: Iterable[Move] = ()) -> None:
        self._moves: List[Move] = list(moves)

    def count(self, value: object = _NOTHING) -> int:
        """The number of moves (python-chess's ``legal_moves.count()``); with
        a ``Move`` or a move's text, how many of the moves it is (0 or 1)."""
        if value is _NOTHING:
            return len(self._moves)
        matches = _matcher(value)
        return sum(1 for m in self._moves if matches(m))

    def index(self, value: object, start: int = 0, stop: int = 2**63 - 1) -> int:
        """Where the move (a ``Move`` or its text) is in the list;
        ``ValueError`` if it is not there."""
        matches = _matcher(value)
        for i in range(*slice(start, stop).indices(len(self._moves))):
            if matches(self._moves[i]):
                return i
        raise ValueError(f"{value!r} is not in the moves")

    def __contains__(self, item: object) -> bool:
        matches = _matcher(item)
        return any(matches(m) for m in self._moves)

    def __len__(self) -> int:
        return len(self._moves)

    def __bool__(self) -> bool:
        return bool(self._moves)

    def __iter__(self) -> Iterator[Move]:
        return iter(self._moves)

    def __reversed__(self) -> Iterator[Move]:
        return reversed(self._moves)

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> "MoveList": ...

    def __getitem__(self, index: Union[int, slice]) -> Union[Move, "MoveList"]:
        if isinstance(index, slice):
            return MoveList(self._moves[index])
        return self._moves[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MoveList):
            return self._moves == other._moves
        if isinstance(other, list):
            return self._moves == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<MoveList ({', '.join(str(m) for m in self._moves)})>"
