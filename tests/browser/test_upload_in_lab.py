"""Chapter 10's upload view in JupyterLab in Chromium: a file chosen through the real FileUpload control reaches the
kernel, is replayed in memory, and the panel shows its verdict and why lines; an unreadable one shows its message.

The expected texts come from :func:`loopkit.teaching.uploads.read_upload` on the same bytes, in this process: the
test checks that the browser's path (file dialog, websocket, the widget's value) delivers the bytes and the name
unchanged, not the replay itself (tests/test_uploads.py does that).
"""

from __future__ import annotations

import pathlib

import pytest
from notebook_tools import NOTEBOOK_DIR
from playwright.sync_api import expect

from loopkit.core.language import set_language
from loopkit.teaching.uploads import read_upload

pytestmark = pytest.mark.browser

DATA = NOTEBOOK_DIR / "data"


def choose(lab, button, path: pathlib.Path) -> None:
    """Click the upload button and pick ``path`` in the file dialog it opens, as a learner does (ipywidgets 8 keeps
    its file input out of the page, so the dialog is the only way in)."""
    with lab.page.expect_file_chooser() as chooser:
        button.click()
    chooser.value.set_files(str(path))


def upload_view(open_chapter, chapter: pathlib.Path):
    lab = open_chapter(chapter)
    index = lab.code_cell_index("transcript_upload(")
    assert index is not None, f"{chapter.name} has no cell that shows widgets.transcript_upload(...)"
    lab.restart_and_run_all()
    return lab, index, lab.live_widget(index)


@pytest.mark.parametrize("chapter, language", [("10_capstone.ipynb", "en"), ("es/10_proyecto_final.ipynb", "es")])
def test_a_file_uploaded_through_the_control_is_replayed_in_the_kernel(open_chapter, tmp_path, chapter, language):
    lab, index, view = upload_view(open_chapter, NOTEBOOK_DIR / chapter)
    mine = tmp_path / "my_session.jsonl"
    mine.write_bytes((DATA / "reread_loop.claude_code.jsonl").read_bytes())
    set_language(language)
    try:
        expected = read_upload(mine.read_bytes(), mine.name)
        bad = read_upload(b"# my notes\n", "notes.md")
    finally:
        set_language("en")

    button = view.locator(".widget-upload")
    assert button.count() == 1, "the upload view should hold one FileUpload control"
    choose(lab, button, mine)
    panel = view.locator(".loopkit-panel")
    expect(panel).to_contain_text(expected.runs[0].summary, timeout=60_000)
    for line in expected.runs[0].why:
        expect(panel).to_contain_text(line.why)
    expect(panel.locator("img")).to_have_count(1)  # the timeline
    lab.screenshot("-upload", at=index)

    notes = tmp_path / "notes.md"
    notes.write_bytes(b"# my notes\n")
    choose(lab, button, notes)
    expect(panel).to_contain_text(bad.message, timeout=60_000)
    expect(panel.locator("img")).to_have_count(0)
