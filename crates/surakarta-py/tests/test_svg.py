"""The SVG picture is the one `surakarta show --svg` draws."""

import pytest

import surakarta
from conftest import run_cli


@pytest.mark.parametrize(
    "text,move",
    [
        ("wwwwww/wwwwww/6/6/bbbbbb/bbbbbb b", None),
        ("ww3w/wb4/5w/6/6/b1w3 b", None),
        ("ww3w/wb4/5w/6/6/b1w3 b", "b5xb6"),
        ("ww3w/wb4/5w/6/6/b1w3 b", "b5-c4"),
    ],
)
def test_svg_matches_the_cli(cli, tmp_path, text, move):
    out = tmp_path / "board.svg"
    args = ["show", text, "--svg", str(out), "--no-color"]
    if move:
        args += ["--move", move]
    code, _, err = run_cli(cli, *args)
    assert code == 0, err
    position = surakarta.Position(text)
    assert position.svg(move) == out.read_text()
    if move is None:
        assert position._repr_svg_() == out.read_text()
