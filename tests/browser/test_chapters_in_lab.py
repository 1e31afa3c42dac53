"""Every chapter of both tracks, once, in JupyterLab in a real (headless) Chromium, as a learner meets it.

nbval proves that each chapter's stored outputs come back from a fresh kernel. It cannot prove what the lab shows.
Each test here opens one chapter (``notebooks/NN_*.ipynb`` or its Spanish twin in ``notebooks/es/``) in `make lab`'s
JupyterLab for its track, at 1280x800 with the file browser open (a laptop), and makes every browser check on that
one page, around a single *Restart Kernel and Run All Cells* (tests/browser/checks.py has each check). A track's
chapters share one tab, as a learner keeps one lab open: the first loads the lab, each later one opens in it.

1. as opened, before the run: the views drawn from the state the chapter stores, none with ipywidgets' red
   "disconnected" icon, each saying in the track's language that it responds once the chapter runs (binder/lab.css);
2. the run: no error or stderr output, every code cell numbered 1..N;
3. every view live, no news pop-up;
4. every view fits its output area at 1280 px;
5. axe-core: no serious or critical violation in the outputs and the markdown;
6. a screenshot, and the views still live after it;
7. the views a learner drives, where the chapter has them: chapter 02's bucket explorer (both tracks), chapter 04's
   eviction race, the menus of chapters 05 and 10, chapter 10's upload (both tracks).

Screenshots land in build/screenshots/, axe's findings in build/axe-report.json, the views' widths and the time from
a control change to its result in build/view-timings.json (reported, never asserted).
"""

from __future__ import annotations

import checks
import pytest
from labdriver import ChapterPage
from notebook_tools import all_chapters, chapter_id, track_of

pytestmark = pytest.mark.browser

BOTH_TRACKS = all_chapters()   # every chapter of both tracks runs in the lab, once
# The views a learner drives, by chapter number and track: what to do on the page after the run.
DRIVEN = {
    ("02", "en"): [lambda page, tmp: checks.bucket_explorer_crosses_line_200(page, "path", "last line")],
    ("02", "es"): [lambda page, tmp: checks.bucket_explorer_crosses_line_200(page, "ruta", "última línea")],
    ("04", "en"): [lambda page, tmp: checks.eviction_race_follows_the_script_and_the_number_box(page)],
    ("05", "en"): [lambda page, tmp: checks.a_control_change_shows_its_result(page, *checks.CONTROL_CHANGES["05"])],
    ("10", "en"): [lambda page, tmp: checks.a_control_change_shows_its_result(page, *checks.CONTROL_CHANGES["10"]),
                   lambda page, tmp: checks.an_uploaded_file_is_replayed_in_the_kernel(page, "en", tmp)],
    ("10", "es"): [lambda page, tmp: checks.an_uploaded_file_is_replayed_in_the_kernel(page, "es", tmp)],
}


def test_the_lab_runs_with_the_workbook_settings(lab_server):
    """The overrides that binder/postBuild and `make` install are what the lab serves: no news pop-up."""
    settings = lab_server.get_json("/lab/api/settings/@jupyterlab/apputils-extension:notification")
    defaults = {name: spec.get("default") for name, spec in settings["schema"]["properties"].items()}
    assert defaults["fetchNews"] == "false", f"the news pop-up is on: {defaults}"
    assert defaults["checkForUpdates"] is False, f"the update check is on: {defaults}"


def test_every_chapter_has_its_views_driven_where_the_old_tests_drove_them():
    """The chapters the driven checks name exist in each track (a renamed chapter must not drop its check)."""
    numbers = {(path.name[:2], track_of(path)) for path in BOTH_TRACKS}
    assert set(DRIVEN) <= numbers, sorted(set(DRIVEN) - numbers)


# On two processes (make test's browser lane: pytest-xdist, --dist loadgroup), each track's chapters stay in one
# process, so each process starts one track's lab.
@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.xdist_group(track_of(p))) for p in BOTH_TRACKS],
                         ids=[chapter_id(p) for p in BOTH_TRACKS])
def test_a_chapter_in_the_lab(track_lab, track_tab, tmp_path, path):
    chapter = ChapterPage(track_tab(track_of(path)), track_lab(track_of(path)), path)
    try:
        chapter.open()
        checks.show_file_browser(chapter)
        checks.stored_views_are_drawn(chapter)
        checks.stored_views_do_not_look_broken(chapter, track_of(path))

        state = chapter.restart_and_run_all()
        checks.run_all_is_clean(chapter, state)
        checks.views_are_live(chapter)
        checks.views_fit_at_1280(chapter)
        checks.axe_finds_nothing_serious(chapter)
        checks.views_stay_live_after_a_screenshot(chapter)
        for drive in DRIVEN.get((path.name[:2], track_of(path)), []):
            drive(chapter, tmp_path)
    finally:
        chapter.shut_down_kernels()
