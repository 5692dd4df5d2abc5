"""Every ```python example of docs/python.md, run in order in one namespace."""

import pathlib
import re

DOC = pathlib.Path(__file__).resolve().parents[3] / "docs" / "python.md"


def blocks():
    return re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def test_the_tour_has_examples():
    assert len(blocks()) >= 5


def test_the_tour_runs(capsys):
    namespace = {"__name__": "docs_python"}
    for i, code in enumerate(blocks()):
        exec(compile(code, f"{DOC.name} example {i + 1}", "exec"), namespace)
