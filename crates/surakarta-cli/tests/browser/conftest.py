"""What both browser tests share: one Chromium for the whole session
(Playwright's sync API allows one running instance per process)."""

import os
import shutil

import pytest
from playwright.sync_api import sync_playwright


def find_chromium():
    """The Chromium to drive (CHROMIUM, or chromium / chromium-browser on PATH), or None."""
    given = os.environ.get("CHROMIUM")
    if given:
        return given
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="session")
def browser():
    exe = find_chromium()
    if not exe:
        pytest.skip("no Chromium (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()
