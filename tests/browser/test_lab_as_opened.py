"""JupyterLab as a learner first meets it, in each track: `make lab`'s lab, in headless Chromium at 1280x800.

- A chapter opened before it runs draws its views from the widget state it stores, as last run, never as the
  views' plain-text repr (``View(children=(HTML(value='<b>...``). JupyterLab draws a stored view only in a trusted
  notebook, so the lab here is started the way ``make lab`` starts it (binder/postBuild does the same on Binder):
  the chapters signed with ``jupyter trust``, and the track's settings folder from binder/install_lab_settings.py.
  An unsigned chapter, in the plain lab of ``lab_fixtures``, shows the repr: that is what the signing fixes.
- The Spanish track's lab speaks Spanish (jupyterlab-language-pack-es-ES): its menus are the language pack's
  translations of the English lab's menus.
- axe-core (from npm, ``make test`` installs it under .venv/node) runs on every chapter of both tracks after
  *Restart Kernel and Run All Cells*, on each code cell's outputs (the views are outputs), and finds no serious or
  critical violation there. The lab's own frame (menus, file browser, toolbars) is JupyterLab's, not the
  workbook's, and is left out. ``build/axe-report.json`` keeps what axe found, chapter by chapter.
"""

from __future__ import annotations

import html
import importlib.util
import json
import re
import subprocess

import pytest
from playwright.sync_api import expect

from labdriver import ROOT, VENV_BIN, WIDGET_MIME, ChapterPage, LabServer
from notebook_tools import all_chapters, chapter_id, chapters, track_of

pytestmark = pytest.mark.browser

BOTH_TRACKS = all_chapters()
VENV = VENV_BIN.parent
AXE = VENV / "node" / "node_modules" / "axe-core" / "axe.min.js"
AXE_REPORT = ROOT / "build" / "axe-report.json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
# A widget's repr, as ipywidgets writes it for text/plain: View(children=(HTML(value='...'), ...
WIDGET_REPR = re.compile(r"\b[A-Z]\w*\((children|value|description|layout)=")
LANGUAGE_PACK = "jupyterlab_language_pack_es_ES"


def _install_lab_settings():
    """binder/install_lab_settings.py as a module (binder/ is not a package)."""
    spec = importlib.util.spec_from_file_location("install_lab_settings", ROOT / "binder" / "install_lab_settings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LAB_SETTINGS = _install_lab_settings()


class TrackLab(LabServer):
    """``make lab TRACK=...``'s JupyterLab over a scratch copy: the track's settings folder, and every chapter
    signed with ``jupyter trust`` before a learner opens one."""

    def __init__(self, workdir, track: str) -> None:
        super().__init__(workdir)
        self.track = track

    def command(self) -> list[str]:
        return [*super().command(), f"--LabApp.app_settings_dir={LAB_SETTINGS.settings_dir(VENV, self.track)}"]

    def start(self) -> None:
        super().start()
        signed = subprocess.run(
            [str(VENV_BIN / "jupyter"), "trust", *[str(self.root / p.relative_to(ROOT)) for p in BOTH_TRACKS]],
            env=self.environment(), capture_output=True, text=True, timeout=120,
        )
        assert signed.returncode == 0, f"jupyter trust failed:\n{signed.stdout}\n{signed.stderr}"


@pytest.fixture(scope="session")
def track_lab(tmp_path_factory):
    """``track_lab(track)``: that track's lab, started on first use and stopped at the end of the session."""
    started: dict[str, TrackLab] = {}

    def _lab(track: str) -> TrackLab:
        if track not in started:
            lab = TrackLab(tmp_path_factory.mktemp(f"lab-{track}"), track)
            started[track] = lab
            lab.start()
        return started[track]

    yield _lab
    for lab in started.values():
        lab.stop()


@pytest.fixture
def page(chromium):
    """A tab at 1280x800, the laptop size the issue was measured at."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(60_000)
    tab = context.new_page()
    try:
        yield tab
    finally:
        context.close()


@pytest.fixture
def open_in(page):
    """``open_in(server, path)`` opens a chapter (a kernel starts, nothing runs); kernels are shut down after."""
    opened = []

    def _open(server, path):
        chapter = ChapterPage(page, server, path)
        opened.append(chapter)
        chapter.open()
        return chapter

    yield _open
    for chapter in opened:
        chapter.shut_down_kernels()


def stored_titles(nb: dict, cell: dict) -> list[str]:
    """The bold title of each view a cell stores, as its widget state has it (View puts it in an HTML first)."""
    models = nb["metadata"]["widgets"][WIDGET_STATE]["state"]
    titles = []
    for output in cell.get("outputs", []):
        if WIDGET_MIME not in output.get("data", {}):
            continue
        children = models[output["data"][WIDGET_MIME]["model_id"]]["state"].get("children", [])
        first = models[children[0].removeprefix("IPY_MODEL_")]["state"] if children else {}
        title = re.fullmatch(r"<b>(.*)</b>", first.get("value", ""))
        if title:
            titles.append(html.unescape(title.group(1)))
    return titles


def output_mime_types(outputs) -> list[str | None]:
    """The MIME type JupyterLab chose for each output (its data-mime-type; a widget view has none)."""
    return outputs.evaluate_all("els => els.map(e => e.getAttribute('data-mime-type'))")


# --- Views drawn before the chapter runs ------------------------------------------------------------------------

@pytest.mark.parametrize("path", BOTH_TRACKS, ids=[chapter_id(p) for p in BOTH_TRACKS])
def test_a_chapter_opened_before_it_runs_draws_its_stored_views(track_lab, open_in, path):
    chapter = open_in(track_lab(track_of(path)), path)
    stored = json.loads(path.read_text(encoding="utf-8"))
    cells = chapter.widget_cells()
    assert cells, f"{path.name} has no view"
    for index in cells:
        outputs = chapter.live_widget(index)  # a drawn view, not "Error displaying widget" nor the repr
        text = " | ".join(outputs.all_inner_texts())
        assert "text/plain" not in output_mime_types(outputs), f"{path.name} cell {index} shows text: {text[:200]}"
        assert not WIDGET_REPR.search(text), f"{path.name} cell {index} shows a widget repr: {text[:200]}"
        for title in stored_titles(stored, stored["cells"][index]):
            expect(outputs.first).to_contain_text(title)  # the view as last run: its stored title is drawn
    chapter.screenshot("-as-opened", at=cells[0])


def test_an_unsigned_chapter_shows_the_repr_instead(lab_server, open_in):
    """The plain lab of lab_fixtures signs nothing: JupyterLab then picks the view's text/plain repr. This is what
    the signing in `make lab` and binder/postBuild prevents, and it shows that the test above can fail."""
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


# --- axe-core after Run All --------------------------------------------------------------------------------------

SERIOUS = ("serious", "critical")
_AXE_ON = """
async (area) => {
  const result = await axe.run(area, {resultTypes: ['violations']});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html.slice(0, 160), impact: n.impact})),
  }));
}
"""


def axe_violations(chapter: ChapterPage) -> list[dict]:
    """axe-core's violations in what the workbook puts on the page, cell by cell: each code cell's outputs, and each
    markdown cell as rendered (its checklist, its links). Each cell is scrolled into view first: the lab skips
    painting cells off screen, and the contrast check needs them painted."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: `make test` installs axe-core from npm (package.json) under .venv/node")
    chapter.page.add_script_tag(path=str(AXE))
    found = []
    for index, cell in enumerate(chapter.cells):
        where, selector = {"code": ("output", ".jp-Cell-outputArea"),
                           "markdown": ("markdown", ".jp-MarkdownOutput")}.get(cell["cell_type"], (None, None))
        if selector is None:
            continue
        area = chapter.dom_cell(index).locator(selector)
        if area.count() == 0 or (where == "output" and area.locator(".jp-OutputArea-output").count() == 0):
            continue
        area.first.scroll_into_view_if_needed()
        for violation in area.first.evaluate(_AXE_ON):
            found.append({"cell": index, "where": where, **violation})
    return found


def record(path, violations: list[dict]) -> dict[str, int]:
    """Keep what axe found for a chapter in build/axe-report.json; return its serious and critical node counts."""
    counts = {f"{where} {impact}": sum(len(v["nodes"]) for v in violations
                                       if v["impact"] == impact and v["where"] == where)
              for where in ("output", "markdown") for impact in ("critical", "serious", "moderate", "minor")}
    report = json.loads(AXE_REPORT.read_text(encoding="utf-8")) if AXE_REPORT.exists() else {}
    report[chapter_id(path)] = {"counts": counts, "violations": violations}
    AXE_REPORT.parent.mkdir(exist_ok=True)
    AXE_REPORT.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return counts


@pytest.mark.parametrize("path", BOTH_TRACKS, ids=[chapter_id(p) for p in BOTH_TRACKS])
def test_axe_finds_no_serious_violation_in_a_chapter_after_run_all(track_lab, open_in, path):
    chapter = open_in(track_lab(track_of(path)), path)
    chapter.restart_and_run_all()
    for index in chapter.widget_cells():
        chapter.live_widget(index)
    violations = axe_violations(chapter)
    counts = record(path, violations)
    serious = [f"{v['where']} of cell {v['cell']}: {v['id']} ({v['impact']}, {len(v['nodes'])} nodes): {v['help']}; "
               f"first: {v['nodes'][0]['html']}" for v in violations if v["impact"] in SERIOUS]
    assert not serious, f"{path.name}: axe counts {counts}\n" + "\n".join(serious)


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
