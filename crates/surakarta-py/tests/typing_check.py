"""The whole public API used with the types the stubs promise.

Not a pytest module (its name does not start with ``test_``): CI checks it
with ``mypy --strict`` against the installed package, so a stub that drifts
from what the package does (a wrong type, a missing name) fails there. It
also runs: ``python typing_check.py`` calls everything once (generating
3-piece tables in a temporary directory).

The ``# type: ignore[...]`` lines are calls the stubs must refuse: under
``--strict`` an ignore that is not needed is itself an error.
"""

import copy
import os
import pathlib
import tempfile
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Set

import numpy as np
import numpy.typing as npt

import surakarta
from surakarta import (
    Engine,
    Game,
    InfoDict,
    Limit,
    Move,
    MoveList,
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
)


def constants() -> None:
    black: str = surakarta.BLACK
    white: str = surakarta.WHITE
    squares: List[int] = surakarta.SQUARES
    start: str = surakarta.STARTING_POSITION
    names: List[str] = surakarta.__all__
    assert black != white and len(squares) == 36 and start and names


def squares_and_moves() -> None:
    name: str = surakarta.square_name(7)
    also: str = surakarta.square_name("b2")
    index: int = surakarta.parse_square("b2")
    move = Move("b2-b3")
    parsed: Move = Move.from_uci("b2xe5")
    text: str = move.uci()
    step: Move = Move.step(7, "b3")
    capture: Move = Move.capture("b2", 28)
    origin: int = move.from_square
    target: int = move.to_square
    is_capture: bool = parsed.is_capture
    same: bool = move == step
    hashed: int = hash(capture)
    assert name == also and index == origin and target and text and same and hashed
    assert is_capture


def positions() -> Position:
    start = Position()
    position = Position(surakarta.STARTING_POSITION)
    moves: MoveList = position.legal_moves
    as_sequence: Sequence[Move] = moves
    found: bool = "b2-b3" in moves and Move("b2-b3") in as_sequence
    number: int = moves.count() + len(moves) + moves.count("b2-b3") + moves.index("b2b3")
    first: Move = moves[0]
    some: MoveList = moves[:3]
    listed: List[Move] = list(moves)
    assert number and first in some and bool(moves) and listed == moves
    captures: MoveList = position.captures
    turn: str = position.turn
    halfmoves: int = position.halfmoves
    fullmoves: int = position.fullmoves
    zobrist: int = position.zobrist
    black: Set[int] = position.pieces("black")
    mask: int = position.pieces_mask(surakarta.WHITE)
    on_b2: Optional[str] = position.piece_at("b2")
    on_a1: Optional[str] = position.piece_at(0)
    move: Move = position.parse_move("b2b3")
    assert position.parse_uci("b2-b3") == move
    assert Position(Game()) == Position(start) == start
    legal: bool = position.is_legal("b2-b3") and position.is_legal(move)
    after: Position = position.after(move).after("b5-b4")
    outcome: Optional[Outcome] = after.outcome()
    over: bool = after.is_game_over()
    images: Dict[str, Position] = after.symmetries()
    board: str = after.board()
    drawn: str = str(after)
    svg: str = after.svg()
    marked: str = after.svg("a2-a3")
    jupyter: str = after._repr_svg_()
    fen: str = after.fen()
    twin: Position = after.copy()
    copied: Position = copy.copy(after)
    deep: Position = copy.deepcopy(after)
    count: int = surakarta.perft(start, 2) + surakarta.perft(fen, 1) + surakarta.perft(Game(), 1)
    assert found and legal and not over and outcome is None and not captures
    assert turn and halfmoves == 0 and fullmoves and zobrist and black and mask
    assert on_b2 and on_a1 and images and board and drawn and svg and marked and jupyter
    assert twin == copied == deep and count
    return after


def rules_and_games() -> Game:
    icga: Rules = Rules.icga()
    pku: Rules = Rules.pku()
    pure: Rules = Rules.pure()
    custom = Rules(repetitions=3, no_capture_plies=50)
    parsed: Rules = Rules.parse("icga")
    repetitions: Optional[int] = custom.repetitions
    plies: Optional[int] = custom.no_capture_plies
    name: Optional[str] = icga.name
    assert icga == parsed != pku != pure and repetitions and plies and name

    game = Game()
    also = Game(Position(), rules="pure")
    from_text = Game("b5/6/6/6/6/6 w", rules=pure)
    pushed: Move = game.push("b2-b3")
    game.push(Move("b5-b4"))
    popped: Move = game.pop()
    game.push(popped)
    uci: Move = game.push_uci("a2a3")
    last: Move = game.peek()
    stack: List[Move] = game.move_stack
    parsed_uci: Move = game.parse_uci("c5c4")
    assert uci == last == stack[-1] and parsed_uci
    assert game.pop() == uci
    from_game = Game(game)
    rules: Rules = game.rules
    start: Position = game.start
    now: Position = game.position
    moves: List[Move] = game.moves
    every: List[Position] = game.positions
    seen: int = game.repetitions
    legal: MoveList = game.legal_moves
    turn: str = game.turn
    fen: str = game.fen()
    outcome: Optional[Outcome] = from_text.outcome()
    over: bool = game.is_over() or game.is_game_over()
    twin: Game = game.copy()
    copied: Game = copy.copy(game)
    deep: Game = copy.deepcopy(game)
    length: int = len(game)
    played: Iterator[Move] = iter(game)
    listed: List[Move] = list(game)
    drawn: str = str(game)
    assert pushed and rules and start and now and moves and every and seen and legal
    assert turn and fen and not over and len(twin) == len(copied) == len(deep) == length
    assert next(played) == listed[0] and drawn and len(also) == 0 and len(from_game) == 0
    if outcome is not None:
        winner: Optional[str] = outcome.winner
        termination: str = outcome.termination
        reason: str = outcome.reason
        result: str = outcome.result
        assert winner and termination and reason and result
    return game


def tables(directory: "os.PathLike[str]") -> Tablebase:
    written: List[str] = surakarta.generate_tables(directory, 3)
    tb = Tablebase(directory)
    also = Tablebase(os.fspath(directory))
    materials: List[str] = tb.materials()
    probe: Probe = tb.probe("6/6/2b3/6/1ww3/6 b")
    wdl: str = probe.wdl
    dtc: Optional[int] = probe.dtc
    best: Optional[Move] = probe.best_move
    line: List[Move] = probe.line
    wdl_only: str = tb.probe_wdl(Position("6/6/2b3/6/1ww3/6 b"))
    dtc_only: Optional[int] = tb.probe_dtc(Game("6/6/2b3/6/1ww3/6 b"))
    text: str = tb.probe_text("6/6/2b3/6/1ww3/6 b")
    assert written and materials and wdl == wdl_only and dtc == dtc_only and text
    assert best is None or best in line or not line
    assert also.materials() == materials
    return tb


def refused(call: Callable[[], object]) -> None:
    """Checks that a call the stubs refuse raises TypeError when run."""
    try:
        call()
    except TypeError:
        return
    raise AssertionError("a refused call was accepted")


def searches(position: Position, game: Game, tb: Tablebase, directory: pathlib.Path) -> None:
    def on_info(info: SearchInfo) -> None:
        depth: int = info.depth
        seldepth: int = info.seldepth
        score: Score = info.score
        nodes: int = info.nodes
        nps: int = info.nps
        seconds: float = info.time
        pv: List[Move] = info.pv
        hashfull: int = info.hashfull
        tb_hits: int = info.tb_hits
        assert depth and seldepth >= 0 and score and nodes and nps >= 0 and seconds >= 0
        assert pv is not None and hashfull >= 0 and tb_hits >= 0

    engine = Engine()
    with_tables = Engine(threads=1, hash=8, tables=tb, rules=Rules.icga())
    with_directory = Engine(hash=1, tables=directory, rules="pure")
    leveled = Engine(hash=1, level=3, level_seed=9)
    assert leveled.play(Position(), depth=4).move is not None
    judged = Game()
    judged.push_uci("b2-b3")
    review = leveled.analyse_game(judged, depth=2)
    first: surakarta.PlyJudgement = review["plies"][0]
    totals: surakarta.SideTotals = review["black"]
    assert first["move"] in Position().legal_moves and totals["moves"] == 1
    assert isinstance(review["record"], str) and first["mark"] in (None, "?!", "?", "??")
    with_text = Engine(tables=os.fspath(directory))
    limit = Limit(time=0.5, depth=3, nodes=100_000)
    seconds: Optional[float] = limit.time
    depth: Optional[int] = limit.depth
    nodes: Optional[int] = limit.nodes
    result: SearchResult = engine.search(position, Limit(depth=2), callback=on_info)
    by_keywords: SearchResult = with_tables.search(game, time=0.2, nodes=50_000)
    by_text: SearchResult = with_directory.search(surakarta.STARTING_POSITION, depth=1)
    best: Optional[Move] = result.best_move
    score: Score = result.score
    kind: str = score.kind
    value: int = score.value
    text: str = score.text
    pv: List[Move] = result.pv
    figures: List[int] = [
        result.depth,
        result.seldepth,
        result.nodes,
        result.nps,
        result.tb_hits,
        result.tb_errors,
    ]
    took: float = result.time
    rules: Rules = engine.rules
    shown: str = repr(engine)
    engine.new_game()
    assert seconds and depth and nodes and best and kind and text and pv and figures
    assert took >= 0 and rules and shown and repr(with_text) and by_keywords and by_text and value is not None

    played: PlayResult = engine.play(game, Limit(depth=2))
    move: Optional[Move] = played.move
    ponder: Optional[Move] = played.ponder
    played_info: InfoDict = played.info
    info: InfoDict = engine.analyse(position, Limit(depth=2))
    info_score: Score = info["score"]
    info_pv: List[Move] = info["pv"]
    info_depth: int = info["depth"]
    info_nodes: int = info.get("nodes", 0)
    lines: List[InfoDict] = engine.analyse(game, depth=1, multipv=1)
    assert move and (ponder is None or ponder) and played_info and info_score and info_pv
    assert info_depth == 2 and info_nodes and lines[0]["multipv"] == 1

    # What the stubs must refuse.
    refused(lambda: engine.search(position, movetime=500))  # type: ignore[call-arg]
    refused(lambda: engine.search(position, 4))  # type: ignore[arg-type]
    refused(lambda: Limit(time="1"))  # type: ignore[arg-type]
    refused(lambda: engine.play(position, 4))  # type: ignore[arg-type]
    refused(lambda: tb.probe(4))  # type: ignore[arg-type]


def records(game: Game, directory: pathlib.Path) -> None:
    text: str = game.record({"Event": "Club", "Black": "Ann"})
    again: Game = Game.from_record(text)
    assert again == game and Game.from_record(game.record()) == game
    path = directory / "games.txt"
    path.write_text(text + "\n" + Game().record())
    read: List[Record] = surakarta.read_records(path)
    parsed: List[Record] = surakarta.parse_records(text)
    record = parsed[0]
    tags: Dict[str, str] = record.tags
    headers: Dict[str, str] = record.headers
    rules: Rules = record.rules
    start: Position = record.start
    moves: List[Move] = record.moves
    mainline: List[Move] = record.mainline_moves()
    result: str = record.result
    replayed: Game = record.game()
    written: str = str(record)
    made: Record = Record.from_game(game, tags={"Site": "Home"})
    assert len(read) == 2 and read[0] == record and tags["Event"] == headers["Event"] == "Club"
    assert rules and start and moves == mainline and result and replayed == game
    assert written == text and made.tags["Site"] == "Home"
    assert surakarta.read_records(os.fspath(path)) == read


def batches(game: Game) -> None:
    every: List[Position] = game.positions
    planes: npt.NDArray[np.uint8] = surakarta.encode(every)
    masks: npt.NDArray[np.bool_] = surakarta.legal_move_masks([p.fen() for p in every])
    with_a_game: npt.NDArray[np.uint8] = surakarta.encode([game, *every])
    assert with_a_game.shape[0] == len(every) + 1
    counts: npt.NDArray[np.uint32] = surakarta.legal_move_counts(every)
    assert planes.shape[0] == masks.shape[0] == counts.shape[0]


def errors() -> None:
    try:
        Position("not a position")
    except surakarta.InvalidNotationError as e:
        as_value_error: ValueError = e
        assert as_value_error
    try:
        Game().push("a1-a2")
    except surakarta.IllegalMoveError as e:
        assert isinstance(e, ValueError)
    try:
        Tablebase("/nonexistent")
    except surakarta.MissingTableError as e:
        as_tablebase_error: surakarta.TablebaseError = e
        assert as_tablebase_error
    except surakarta.TablebaseError as e:
        as_os_error: OSError = e
        assert as_os_error


def main() -> None:
    constants()
    squares_and_moves()
    position = positions()
    game = rules_and_games()
    with tempfile.TemporaryDirectory() as directory:
        tb = tables(pathlib.Path(directory))
        searches(position, game, tb, pathlib.Path(directory))
        records(game, pathlib.Path(directory))
    batches(game)
    errors()


if __name__ == "__main__":
    main()
