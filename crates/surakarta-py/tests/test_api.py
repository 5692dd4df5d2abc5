"""Every public name has a docstring; the stubs name every public name."""

import inspect
import pathlib

import surakarta

STUBS = pathlib.Path(surakarta.__file__).with_name("__init__.pyi")


def public_names():
    for name in surakarta.__all__:
        obj = getattr(surakarta, name)
        yield name, obj
        if inspect.isclass(obj):
            for attr in dir(obj):
                inherited = dir(OSError) + dir(list) + dir(dict)
                if not attr.startswith("_") and attr not in inherited:
                    yield f"{name}.{attr}", getattr(obj, attr)


def test_docstrings_everywhere():
    missing = []
    for name, obj in public_names():
        if isinstance(obj, (str, list)):
            continue  # constants, documented in __init__.py
        if not (getattr(obj, "__doc__", None) or "").strip():
            missing.append(name)
    assert missing == []


def test_stubs_name_everything():
    stubs = STUBS.read_text()
    assert (STUBS.parent / "py.typed").exists()
    for name, _ in public_names():
        last = name.split(".")[-1]
        assert last in stubs, name


def test_the_typing_check_runs():
    """tests/typing_check.py, which CI checks with mypy --strict, also runs:
    every call it makes with the stubs' types exists and works."""
    import typing_check

    typing_check.main()
