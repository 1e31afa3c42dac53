"""Fixtures for the browser tests: one headless Chromium for the whole session, a plain JupyterLab server, and each
track's JupyterLab as `make lab` starts it (``track_lab``).

(Not named conftest.py: pytest's --doctest-modules would then import two modules called ``conftest``. The root
conftest.py registers this module as a plugin, so every browser test module shares one server and one Chromium.)

The browser is Debian's Chromium (``/usr/bin/chromium``, or the path in ``LOOPKIT_CHROMIUM``). Playwright never
downloads a browser here. A machine without Chromium fails these tests with the install command: a missing
browser is never a pass. To run the rest of the suite without them, deselect them on purpose:
``make test-quick`` (``pytest -m "not browser and not binder"``).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess

import pytest
from labdriver import ROOT, VENV_BIN, ChapterPage, LabServer
from notebook_tools import all_chapters

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


def _install_lab_settings():
    """binder/install_lab_settings.py as a module (binder/ is not a package)."""
    spec = importlib.util.spec_from_file_location("install_lab_settings", ROOT / "binder" / "install_lab_settings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LAB_SETTINGS = _install_lab_settings()


class TrackLab(LabServer):
    """``make lab TRACK=...``'s JupyterLab over a scratch copy: the track's settings folder, and every chapter
    signed with ``jupyter trust`` before a learner opens one (JupyterLab draws stored views only in a trusted
    notebook)."""

    def __init__(self, workdir, track: str) -> None:
        super().__init__(workdir)
        self.track = track

    def command(self) -> list[str]:
        settings = LAB_SETTINGS.settings_dir(VENV_BIN.parent, self.track)
        return [*super().command(), f"--LabApp.app_settings_dir={settings}"]

    def start(self) -> None:
        super().start()
        chapters = [str(self.root / path.relative_to(ROOT)) for path in all_chapters()]
        signed = subprocess.run([str(VENV_BIN / "jupyter"), "trust", *chapters], env=self.environment(),
                                capture_output=True, text=True, timeout=120)
        assert signed.returncode == 0, f"jupyter trust failed:\n{signed.stdout}\n{signed.stderr}"


@pytest.fixture(scope="session")
def track_lab(tmp_path_factory):
    """``track_lab(track)``: that track's lab, started on first use and stopped at the end of the session."""
    started: dict[str, TrackLab] = {}

    def _lab(track: str) -> TrackLab:
        if track not in started:
            lab = TrackLab(tmp_path_factory.mktemp(f"lab-{track}"), track)
            try:
                lab.start()
            except BaseException:
                lab.stop()  # a lab that never answered (or was never signed) is not kept: the next test starts anew
                raise
            started[track] = lab
        return started[track]

    yield _lab
    for lab in started.values():
        lab.stop()


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


@pytest.fixture(scope="session")
def laptop(chromium):
    """One browser profile at 1280x800 (the laptop size the issues were measured at) for every chapter: its tabs
    share the HTTP cache, so JupyterLab's scripts are fetched and compiled once, not once per chapter."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(60_000)
    try:
        yield context
    finally:
        context.close()


@pytest.fixture
def laptop_page(laptop):
    """A new tab of the laptop profile, closed after the test."""
    tab = laptop.new_page()
    try:
        yield tab
    finally:
        tab.close()


@pytest.fixture(scope="session")
def track_tab(laptop):
    """``track_tab(track)``: one tab of the laptop profile for all of that track's chapters, as a learner keeps one
    lab open and opens chapter after chapter in it. The first chapter loads the lab; each later one opens in it
    (ChapterPage.open), which spares Chromium about 5 CPU seconds of starting JupyterLab per chapter."""
    tabs: dict[str, object] = {}

    def _tab(track: str):
        if track not in tabs or tabs[track].is_closed():
            tabs[track] = laptop.new_page()
        return tabs[track]

    yield _tab
    for tab in tabs.values():
        if not tab.is_closed():
            tab.close()


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
