"""``MoveList``: a list of moves in which ``in`` also takes a move's text."""

from typing import List

from ._surakarta import Move, _move_text


class MoveList(List[Move]):
    """A list of ``Move`` (``Position.legal_moves``, ``Position.captures``,
    ``Game.legal_moves``) in which ``in`` also takes text: ``"b2-b3" in
    position.legal_moves``, and ``"b2b3"`` (no separator) for the move from
    b2 to b3 whichever its kind. Text that is not a move at all raises
    ``InvalidNotationError``."""

    __slots__ = ()

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            origin, target, capture = _move_text(item)
            return any(
                m.from_square == origin
                and m.to_square == target
                and (capture is None or m.is_capture == capture)
                for m in self
            )
        return list.__contains__(self, item)
