"""JupyterLab as a learner first meets it, in each track: `make lab`'s lab, in headless Chromium at 1280x800.

The lab of each track (``track_lab`` in lab_fixtures.py) is started the way ``make lab`` starts it (binder/postBuild
does the same on Binder): the chapters signed with ``jupyter trust``, and the track's settings folder from
binder/install_lab_settings.py. Every chapter opened in it draws its stored views before it runs; that check, and
axe-core's after the run, are made on each chapter's one page in test_chapters_in_lab.py. Here, what needs no run:

- An unsigned chapter, in the plain lab of ``lab_fixtures``, shows the views' plain-text repr
  (``View(children=(HTML(value='<b>...``): that is what the signing fixes, and it shows that the check can fail.
- The Spanish track's lab speaks Spanish (jupyterlab-language-pack-es-ES): its menus are the language pack's
  translations of the English lab's menus.
"""

from __future__ import annotations

import json
import re

import pytest
from checks import WIDGET_REPR, output_mime_types
from labdriver import ROOT, ChapterPage
from notebook_tools import chapters
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LANGUAGE_PACK = "jupyterlab_language_pack_es_ES"


@pytest.fixture
def open_in(laptop_page):
    """``open_in(server, path)`` opens a chapter (a kernel starts, nothing runs); kernels are shut down after."""
    opened = []

    def _open(server, path):
        chapter = ChapterPage(laptop_page, server, path)
        opened.append(chapter)
        chapter.open()
        return chapter

    yield _open
    for chapter in opened:
        chapter.shut_down_kernels()


def test_an_unsigned_chapter_shows_the_repr_instead(lab_server, open_in):
    """The plain lab of lab_fixtures signs nothing: JupyterLab then picks the view's text/plain repr. This is what
    the signing in `make lab` and binder/postBuild prevents, and it shows that the check of the stored
    views (checks.stored_views_are_drawn, in test_chapters_in_lab.py) can fail."""
    path = chapters("en")[2]
    chapter = open_in(lab_server, path)
    index = chapter.widget_cells()[0]
    outputs = chapter.dom_cell(index).locator(".jp-OutputArea-output")
    expect(outputs.first).to_contain_text("children=")
    assert output_mime_types(outputs) == ["text/plain"]
    assert WIDGET_REPR.search(outputs.first.inner_text())


# --- The lab's language ----------------------------------------------------------------------------------------

def menu_labels(page) -> list[str]:
    return [label.strip() for label in page.locator("#jp-top-panel .lm-MenuBar-item").all_inner_texts()]


def spanish_catalog() -> dict[str, list[str]]:
    """The language pack's own JupyterLab catalog (msgid, with its context before \\x04, -> translations)."""
    import importlib.resources

    folder = importlib.resources.files(LANGUAGE_PACK) / "locale" / "es_ES" / "LC_MESSAGES"
    return json.loads((folder / "jupyterlab.json").read_text(encoding="utf-8"))


def effective_settings(lab, plugin: str) -> dict:
    """A plugin's settings as the lab applies them: its schema's defaults (with the overrides folded in by the
    server), then the user's own settings on top."""
    answer = lab.get_json(f"/lab/api/settings/{plugin}")
    defaults = {name: spec.get("default") for name, spec in answer["schema"]["properties"].items()}
    return {**defaults, **answer["settings"]}


def test_each_track_lab_has_the_workbook_settings(track_lab):
    """What the settings folders of binder/install_lab_settings.py give each track's lab."""
    for track, locale in (("en", "en"), ("es", "es_ES")):
        lab = track_lab(track)
        translation = effective_settings(lab, "@jupyterlab/translation-extension:plugin")
        assert translation["locale"] == locale, (track, translation)
        # Off on purpose (binder/install_lab_settings.py): on, opening a chapter marks it modified and the next save
        # drops the stored state of its views.
        widgets = effective_settings(lab, "@jupyter-widgets/jupyterlab-manager:plugin")
        assert widgets["saveState"] is False, (track, widgets)
        news = effective_settings(lab, "@jupyterlab/apputils-extension:notification")
        assert (news["fetchNews"], news["checkForUpdates"]) == ("false", False), (track, news)


def test_the_spanish_lab_menus_are_spanish(track_lab, open_in):
    english = open_in(track_lab("en"), chapters("en")[0])
    english_menus = menu_labels(english.page)
    assert english.page.evaluate("document.documentElement.lang") == "en"

    spanish = open_in(track_lab("es"), chapters("es")[0])
    spanish_menus = menu_labels(spanish.page)
    catalog = spanish_catalog()
    expected = [catalog.get(f"menu\x04{label}", [label])[0] for label in english_menus]
    translated = [label for label in english_menus if f"menu\x04{label}" in catalog]
    assert {"File", "Edit", "View", "Settings", "Help"} <= set(translated), english_menus
    assert spanish_menus == expected, f"English {english_menus}, Spanish {spanish_menus}"
    assert spanish.page.evaluate("document.documentElement.lang") == "es-ES"
    spanish.screenshot("-spanish-lab")


def test_the_english_labs_language_menu_offers_spanish_as_the_readme_says(track_lab, open_in):
    """What a Binder learner of the Spanish track does (README, "JupyterLab's own language on Binder"): Binder's
    lab is the English track's, and its Settings > Language menu has the Spanish entry the README names."""
    chapter = open_in(track_lab("en"), chapters("es")[0])
    page = chapter.page
    page.locator("#jp-top-panel .lm-MenuBar-item", has_text=re.compile(r"^\s*Settings\s*$")).click()
    page.locator(".lm-Menu-item", has_text=re.compile(r"^\s*Language\s*$")).hover()
    entries = page.locator(".lm-Menu-item .lm-Menu-itemLabel")
    expect(entries.filter(has_text="Español")).to_have_count(1)
    spanish = entries.filter(has_text="Español").inner_text().strip()
    readme = re.sub(r"\s+", " ", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert f"*Settings > Language > {spanish}*" in readme, f"the README should name the menu entry {spanish!r}"
