"""Fixtures for the browser tests: one JupyterLab server and one headless Chromium for the whole session.

(Not named conftest.py: pytest's --doctest-modules would then import two modules called ``conftest``. The root
conftest.py registers this module as a plugin, so every browser test module shares one server and one Chromium.)

The browser is Debian's Chromium (``/usr/bin/chromium``, or the path in ``LOOPKIT_CHROMIUM``). Playwright never
downloads a browser here. A machine without Chromium fails these tests with the install command: a missing
browser is never a pass. To run the rest of the suite without them, deselect them on purpose:
``make test-quick`` (``pytest -m "not browser and not binder"``).
"""

from __future__ import annotations

import os
import shutil

import pytest
from labdriver import ChapterPage, LabServer

DEFAULT_CHROMIUM = "/usr/bin/chromium"


def chromium_executable() -> str:
    wanted = os.environ.get("LOOPKIT_CHROMIUM") or DEFAULT_CHROMIUM
    if os.access(wanted, os.X_OK):
        return wanted
    found = None if os.environ.get("LOOPKIT_CHROMIUM") else shutil.which("chromium")
    if found:
        return found
    pytest.fail(
        f"Chromium not found at {wanted}. The browser test drives Debian's Chromium; install it with\n"
        "    sudo apt-get update && sudo apt-get install -y chromium\n"
        "or point LOOPKIT_CHROMIUM at a Chromium/Chrome binary. To run the suite without the browser test,\n"
        "deselect it explicitly: make test-quick",
        pytrace=False,
    )


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory):
    server = LabServer(tmp_path_factory.mktemp("lab"))
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def chromium():
    executable = chromium_executable()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(60_000)
    tab = context.new_page()
    try:
        yield tab
    finally:
        context.close()


@pytest.fixture
def open_chapter(page, lab_server):
    """``open_chapter(path)`` opens a chapter in the lab; its kernels are shut down when the test ends."""
    opened = []

    def _open(path):
        chapter = ChapterPage(page, lab_server, path)
        opened.append(chapter)
        chapter.open()
        return chapter

    yield _open
    for chapter in opened:
        chapter.shut_down_kernels()
