"""Legal moves per second from Python: the package's calls against a
pure-Python generator written the obvious way (docs/benchmarks.md, "Python").

Run from a virtual environment where the package is installed:

    python crates/surakarta-py/benchmarks/movegen_speed.py [POSITIONS]

It builds POSITIONS (default 20,000) positions by random play from the start,
checks that the pure-Python generator finds the same moves as the package on
every one (and the same perft counts from the start), then times three ways
of counting the legal moves of all of them:

- pure Python: `PurePosition.legal_moves` below, one position at a time;
- the package per position: `len(Position.legal_moves)` in a Python loop;
- the package's batch API: one `legal_move_counts` call (and one
  `legal_move_masks` call, which also fills a (N, 36, 36) mask array).
"""

import random
import sys
import time

import surakarta

# --- a pure-Python generator (docs/rules.md), kept out of the package ---

STEPS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]


def circuit_path(k):
    """The 24 squares of a circuit in path order (k = 1 small, 2 large): up
    file k, east along rank 5-k, down file 5-k, west along rank k; an arc
    joins positions 5-6, 11-12, 17-18 and 23-0."""
    far = 5 - k
    path = [0] * 24
    for t in range(6):
        path[t] = 6 * t + k
        path[6 + t] = 6 * far + t
        path[12 + t] = 6 * (5 - t) + far
        path[18 + t] = 6 * k + (5 - t)
    return path


CIRCUITS = [circuit_path(1), circuit_path(2)]


class PurePosition:
    """A position as two Python sets of squares (0 = a1 … 35 = f6)."""

    def __init__(self, us, them):
        self.us = set(us)
        self.them = set(them)

    def steps(self):
        moves = []
        occupied = self.us | self.them
        for sq in self.us:
            f, r = sq % 6, sq // 6
            for df, dr in STEPS:
                nf, nr = f + df, r + dr
                if 0 <= nf < 6 and 0 <= nr < 6 and 6 * nr + nf not in occupied:
                    moves.append((sq, 6 * nr + nf))
        return moves

    def captures(self):
        targets = set()
        for path in CIRCUITS:
            for start, sq in enumerate(path):
                if sq not in self.us:
                    continue
                for direction in (1, -1):
                    arcs = 0
                    i = start
                    for _ in range(24):
                        # Passing from position i to the next crosses an arc
                        # when it leaves the end of a segment.
                        if direction == 1 and i % 6 == 5 or direction == -1 and i % 6 == 0:
                            arcs += 1
                        i = (i + direction) % 24
                        point = path[i]
                        if point == sq:
                            continue  # the starting point counts as empty
                        if point in self.them:
                            if arcs:
                                targets.add((sq, point))
                            break
                        if point in self.us:
                            break
        return list(targets)

    def legal_moves(self):
        return self.captures() + self.steps()


def pure_of(position):
    turn = position.turn
    other = "white" if turn == "black" else "black"
    return PurePosition(position.pieces(turn), position.pieces(other))


def pure_perft(p, depth):
    if depth == 0:
        return 1
    total = 0
    for frm, to in p.legal_moves():
        us = set(p.us)
        us.discard(frm)
        us.add(to)
        them = set(p.them)
        them.discard(to)
        total += 1 if depth == 1 else pure_perft(PurePosition(them, us), depth - 1)
    return total


# --- the benchmark ---


def random_positions(n, seed=1):
    rng = random.Random(seed)
    positions = []
    while len(positions) < n:
        game = surakarta.Game(rules=surakarta.Rules.pure())
        for _ in range(rng.randrange(1, 80)):
            if game.is_over():
                break
            game.push(rng.choice(game.legal_moves))
        if not game.is_over():
            positions.append(game.position)
    return positions


def rate(label, moves, seconds, positions):
    print(
        f"{label:34} {seconds * 1e3:9.1f} ms  {positions / seconds:12,.0f} positions/s"
        f"  {moves / seconds:14,.0f} moves/s"
    )
    return moves / seconds


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    positions = random_positions(n)
    pures = [pure_of(p) for p in positions]
    for p, q in zip(positions, pures):
        want = sorted((m.from_square, m.to_square) for m in p.legal_moves)
        assert sorted(q.legal_moves()) == want, str(p)
    start = surakarta.Position()
    for depth in (1, 2, 3, 4):
        assert pure_perft(pure_of(start), depth) == surakarta.perft(start, depth)
    print(f"{n} positions; the pure-Python generator agrees with the package on all")

    # The first batch call imports NumPy (a one-time cost of ~0.1-0.4 s):
    # warm up, then take the best of three runs of each package call.
    surakarta.legal_move_counts(positions[:10])

    def best(f):
        times = []
        for _ in range(3):
            t = time.perf_counter()
            result = f()
            times.append(time.perf_counter() - t)
        return result, min(times)

    t = time.perf_counter()
    total = sum(len(q.legal_moves()) for q in pures)
    pure = rate("pure Python, per position", total, time.perf_counter() - t, n)

    total2, seconds = best(lambda: sum(len(p.legal_moves) for p in positions))
    per = rate("package, per position (loop)", total2, seconds, n)

    counts, seconds = best(lambda: surakarta.legal_move_counts(positions))
    batch = rate("package, legal_move_counts (batch)", int(counts.sum()), seconds, n)

    masks, seconds = best(lambda: surakarta.legal_move_masks(positions))
    masked = rate("package, legal_move_masks (batch)", int(masks.sum()), seconds, n)

    assert total == total2 == int(counts.sum()) == int(masks.sum())
    print(f"batch / pure Python: {batch / pure:.0f}x (counts), {masked / pure:.0f}x (masks);"
          f" per-position calls / pure Python: {per / pure:.0f}x")


if __name__ == "__main__":
    main()
