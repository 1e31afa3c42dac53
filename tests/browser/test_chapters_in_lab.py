"""Every chapter, run in JupyterLab in a real (headless) Chromium, as a learner runs it.

nbval proves that each chapter's stored outputs come back from a fresh kernel. It cannot prove that the lab shows
them: that the widget views render as live widgets (not "Error displaying widget: model not found"), that the
controls talk to the kernel, that nothing prints a traceback. These tests do, for whichever chapters
``notebooks/NN_*.ipynb`` and its Spanish twins ``notebooks/es/NN_*.ipynb`` hold. Screenshots land in ``build/screenshots/``.
"""

from __future__ import annotations

import re

import pytest
from notebook_tools import NOTEBOOK_DIR, all_chapters, chapter_id, chapters
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

CHAPTERS = chapters()          # the English chapters, for the tests that drive one view
BOTH_TRACKS = all_chapters()   # every chapter of both tracks runs in the lab


def chapter(number: str, track: str = "en"):
    """The chapter file ``notebooks/NN_*.ipynb`` (or its twin in ``notebooks/es/``), or a skip naming it."""
    found = [path for path in chapters(track) if path.name.startswith(f"{number}_")]
    if not found:
        pytest.skip(f"chapter {number} is not in {NOTEBOOK_DIR.name}/ ({track}) yet")
    return found[0]


def open_view(open_chapter, number: str, view: str, track: str = "en"):
    """Open chapter ``number``, Restart and Run All, and return (chapter page, cell index, live outputs) of the
    cell that shows ``widgets.<view>(...)``; fail, not skip, when the chapter exists without that view."""
    page = open_chapter(chapter(number, track))
    index = page.code_cell_index(f"{view}(")
    assert index is not None, f"chapter {number} has no cell that shows widgets.{view}(...)"
    page.restart_and_run_all()
    return page, index, page.live_widget(index)


def at_value(value: int) -> re.Pattern:
    """A slider handle's aria-valuenow (ipywidgets writes 199 as "199" or "199.0")."""
    return re.compile(rf"^{value}(\.0)?$")


def test_the_lab_runs_with_the_workbook_settings(lab_server):
    """The overrides that binder/postBuild and `make` install are what the lab serves: no news pop-up."""
    settings = lab_server.get_json("/lab/api/settings/@jupyterlab/apputils-extension:notification")
    defaults = {name: spec.get("default") for name, spec in settings["schema"]["properties"].items()}
    assert defaults["fetchNews"] == "false", f"the news pop-up is on: {defaults}"
    assert defaults["checkForUpdates"] is False, f"the update check is on: {defaults}"


@pytest.mark.parametrize("path", BOTH_TRACKS, ids=[chapter_id(p) for p in BOTH_TRACKS])
def test_chapter_restarts_and_runs_all_in_the_lab(open_chapter, path):
    page = open_chapter(path)
    state = page.restart_and_run_all()

    errors = page.error_outputs()
    assert not errors, f"{path.name}: the lab shows an error (or stderr) output:\n" + "\n---\n".join(errors)
    # A fresh kernel numbers the cells 1..N top to bottom: this is what shows that the restart happened and that
    # every code cell ran.
    expected = [f"[{n}]:" for n in range(1, len(state["prompts"]) + 1)]
    assert state["prompts"] == expected, f"{path.name}: prompts after Restart and Run All: {state['prompts']}"

    widget_cells = page.widget_cells()
    for index in widget_cells:
        page.live_widget(index)
    assert page.page.get_by_text(re.compile("Jupyter news", re.I)).count() == 0, "the news pop-up appeared"

    page.screenshot(at=widget_cells[0] if widget_cells else None)
    # Still there after the screenshot: a view that the kernel closed right away showed for a moment only.
    for index in widget_cells:
        page.live_widget(index, timeout_ms=1_000)
    assert "Error displaying widget" not in page.panel.inner_text(), f"{path.name}: a widget failed to display"


@pytest.mark.parametrize("track, path_label", [("en", "path"), ("es", "ruta")])
def test_ch02_bucket_slider_crosses_line_200(open_chapter, track, path_label):
    """The same view in both tracks: the labels speak the chapter's language, the keys are the same."""
    page, index, view = open_view(open_chapter, "02", "bucket_explorer", track)
    expect(view.locator(".widget-text .widget-label")).to_have_text(path_label)

    upper = view.locator(".widget-slider .noUi-handle-upper")
    assert upper.count() == 1, "bucket_explorer's line range should be an IntRangeSlider (two handles)"
    expect(upper).to_have_attribute("aria-valuenow", at_value(199))
    expect(view).to_contain_text("a.py:0-0")

    # Keyboard on the upper handle, one line per key: 199 -> 200 stays in bucket 0, 201 is line 1 of bucket 1.
    upper.focus()
    upper.press("ArrowRight")
    upper.press("ArrowRight")
    expect(upper).to_have_attribute("aria-valuenow", at_value(201))
    expect(view).to_contain_text("a.py:0-1")
    assert "a.py:0-0" not in view.inner_text()
    page.screenshot("-slider-at-201", at=index)

    upper.press("ArrowLeft")
    expect(upper).to_have_attribute("aria-valuenow", at_value(200))
    expect(view).to_contain_text("a.py:0-0")
    assert "a.py:0-1" not in view.inner_text()

    path_box = view.locator(".widget-text input[type='text']")
    assert path_box.count() == 1, "bucket_explorer should have one path text box"
    path_box.fill("src/agent.py")
    path_box.press("Enter")
    expect(view).to_contain_text("src/agent.py:0-0")


def _summary(view) -> dict[str, list[str]]:
    """The eviction race's first table: policy -> [keys left, keys evicted]."""
    rows = view.locator(".widget-html-content table").first.locator("tbody tr")
    return {cells[0]: cells[1:] for cells in (row.locator("td").all_inner_texts() for row in rows.all())}


def test_ch04_eviction_race_follows_the_script_and_the_slider(open_chapter):
    page, index, view = open_view(open_chapter, "04", "eviction_race")

    script = view.locator(".widget-textarea textarea")
    assert script.count() == 1, "eviction_race should have one Textarea holding the operation script"
    maxsize = view.locator(".widget-slider .noUi-handle")
    assert maxsize.count() == 1, "eviction_race should have one IntSlider for maxsize"
    expect(maxsize).to_have_attribute("aria-valuenow", at_value(2))
    before = _summary(view)

    # Room for two keys; x is overwritten before z arrives. FIFO (BoundedDict) keeps x in its first place and
    # evicts it; LRU refreshes x on the write and evicts y; cachetools' FIFOCache moves an overwritten key to the
    # back, so it evicts y too.
    script.fill("set x 1; set y 2; set x 3; set z 4")
    script.blur()
    expected = {
        "BoundedDict (FIFO)": ["y z", "x"],
        "LRUDict (LRU)": ["x z", "y"],
        "cachetools.FIFOCache": ["x z", "y"],
    }
    expect(view).to_contain_text("4 operation(s), room for 2 key(s).")
    assert _summary(view) == expected != before
    page.screenshot("-script-edited", at=index)

    # One more key of room (keyboard on the slider): nothing is evicted, each policy shows its own order.
    maxsize.focus()
    maxsize.press("ArrowRight")
    expect(view).to_contain_text("4 operation(s), room for 3 key(s).")
    assert _summary(view) == {
        "BoundedDict (FIFO)": ["x y z", "none"],
        "LRUDict (LRU)": ["y x z", "none"],
        "cachetools.FIFOCache": ["y x z", "none"],
    }
