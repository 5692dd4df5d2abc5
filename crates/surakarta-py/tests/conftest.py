"""Shared fixtures: the CLI binary (for comparisons) and 5-piece tables."""

import os
import pathlib
import random
import shutil
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


def _find_cli():
    """The `surakarta` binary: $SURAKARTA_CLI, else the workspace's target/."""
    given = os.environ.get("SURAKARTA_CLI")
    if given:
        return given
    for profile in ("release", "debug"):
        path = REPO / "target" / profile / "surakarta"
        if path.exists():
            return str(path)
    return None


@pytest.fixture(scope="session")
def cli():
    """Path of the CLI; skips (fails under CI) when it is not built."""
    path = _find_cli()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("the surakarta CLI is not built (set SURAKARTA_CLI)")
        pytest.skip("the surakarta CLI is not built (cargo build --release)")
    return path


def run_cli(cli, *args, stdin=None):
    """Runs the CLI; returns (exit code, stdout, stderr)."""
    done = subprocess.run(
        [cli, *args], input=stdin, capture_output=True, text=True, timeout=600
    )
    return done.returncode, done.stdout, done.stderr


@pytest.fixture(scope="session")
def tables5(cli, tmp_path_factory):
    """A directory of every table up to 5 pieces, written by the CLI."""
    directory = tmp_path_factory.mktemp("tables5")
    code, _, err = run_cli(cli, "tb", "generate", "--pieces", "5", "--dir", str(directory))
    assert code == 0, err
    return directory


@pytest.fixture()
def tables_copy(tables5, tmp_path):
    """A copy of the 5-piece tables that a test may damage."""
    directory = tmp_path / "tables"
    shutil.copytree(tables5, directory)
    return directory


def notation(black, white, turn):
    """The notation of a position with pieces on the given square indices."""
    rows = []
    for rank in range(5, -1, -1):
        row, empty = "", 0
        for file in range(6):
            sq = 6 * rank + file
            piece = "b" if sq in black else "w" if sq in white else None
            if piece is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += piece
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows) + " " + turn


def random_positions(count, max_pieces, seed):
    """Random legal positions with 1 to `max_pieces - 1` pieces a side."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        total = rng.randint(2, max_pieces)
        squares = rng.sample(range(36), total)
        cut = rng.randint(1, total - 1)
        out.append(notation(set(squares[:cut]), set(squares[cut:]), rng.choice("bw")))
    return out
