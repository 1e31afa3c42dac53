"""make site: the workbook as a static site of both tracks, readable without a kernel.

    .venv/bin/python tools/site_build.py            # build/site/en/, build/site/es/ and build/site/index.html

Sphinx, with MyST-NB reading the chapters and sphinx-book-theme laying them out (docs/architecture.md says why this
tool), builds one site per track from sources this script writes into build/site-src/<track>/ (never committed):

- the pages in the course's own order (notebooks/course.toml, through tools/course.py): the core course's chapters,
  then the deep dives (a page that lists the deep-dive sections of the core chapters by anchor, then the chapters
  that are deep dives as a whole), then the glossary, the learner setup, the instructor guide and the notes on the
  exercises;
- each chapter with its outputs as committed, and its views drawn from the widget state it stores by
  @jupyter-widgets/html-manager's standalone embed.js, from npm (package.json, installed under .venv/node), served
  with the site: no script comes from a CDN;
- each reveal cell with the output it prints when the chapter runs: a copy of the chapter is run in a fresh kernel
  (two at a time), and only the reveal cells' outputs are taken into the committed chapter, collapsed under "Show the
  answer";
- each exercise closed by a box naming its launch (Binder, or `make lab`), with its hint and its solution behind a
  click, as loopkit prints them (``q.hint()``, ``q.solution()``), in the track's language;
- each view followed by a line saying that it responds only in a running chapter, with the launch link;
- on every page, a link to the same page in the other track (``hreflang``).

The reveals' outputs are kept in build/site-src/reveals/ by the hash of the chapter and of loopkit, so a second build
runs only the chapters that changed (all of them after a change to loopkit).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import hashlib
import html
import io
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass

TOOLS = pathlib.Path(__file__).resolve().parent
ROOT = TOOLS.parent
sys.path.insert(0, str(TOOLS))
sys.path.insert(0, str(ROOT / "tests"))

import course  # noqa: E402
from notebook_tools import exercise_sections, is_reveal  # noqa: E402
from notebook_tools import source as cell_text  # noqa: E402

SOURCES = ROOT / "build" / "site-src"
SITE = ROOT / "build" / "site"
REVEALS = SOURCES / "reveals"
WIDGETS_DIST = ROOT / ".venv" / "node" / "node_modules" / "@jupyter-widgets" / "html-manager" / "dist"
TRACKS = ("en", "es")
REPOSITORY = "https://github.com/loopkit-workbook/loopkit"
BINDER = "https://mybinder.org/v2/gh/loopkit-workbook/loopkit/main?labpath="
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

#: The reference pages, English and Spanish (paths under docs/): each pair are twins.
REFERENCE = [("glossary.md", "es/glosario.md"), ("learner-setup.md", "es/preparacion.md"),
             ("instructor.md", "es/notas-ejercicios.md"), ("exercise-notes.md", "es/notas-por-ejercicio.md")]

#: What the site itself says, in each track's language.
WORDS = {
    "en": {
        "title": "The loopkit workbook",
        "language": "English",
        "intro": "How DeerFlow's loop detector recognises an agent that repeats its tool calls, and where that "
                 "recognition stops being evidence, in chapters you can read here and run in JupyterLab. Start with "
                 "the core course (about two hours), in order; the deep dives each say what they assume.",
        "run": "Every page here can be read without installing anything. To run the chapters, [open the workbook on "
               "Binder]({url}) (no install), or clone it and run `make lab` on your machine.",
        "core": "Core course",
        "deep dives": "Deep dives",
        "reference": "For learners and instructors",
        "deep dives title": "The deep dives of the core chapters",
        "deep dives intro": "The deep dives of the core course's chapters, each after its chapter's key takeaways. "
                            "Each says in its first line what it assumes, and runs on its own from a fresh "
                            "kernel. The chapters after them are deep dives as a whole.",
        "chapter": "Chapter {number}",
        "show answer": "Show the answer",
        "hide answer": "Hide the answer",
        "hint": "Hint",
        "solution": "Solution",
        "launch": "To check your answer, run this chapter: [open it on Binder]({url}), or run `make lab` in your "
                  "copy of the workbook.",
        "stored view": "Stored view, as the chapter was last run: it responds only in a running chapter "
                       "([open it on Binder]({url}), or `make lab`).",
        "switch": "Español",
        "switch label": "Lee esta página en español",
        "make lab": "make lab",
    },
    "es": {
        "title": "El cuaderno de trabajo loopkit",
        "language": "Español",
        "intro": "Cómo reconoce el detector de bucles de DeerFlow a un agente que repite sus llamadas a "
                 "herramientas, y dónde deja ese reconocimiento de ser evidencia, en capítulos que puedes leer aquí "
                 "y ejecutar en JupyterLab. Empieza por el curso básico (unas dos horas), en orden; cada sección a "
                 "fondo dice qué supone.",
        "run": "Cada página se puede leer aquí sin instalar nada. Para ejecutar los capítulos, [abre el cuaderno en "
               "Binder]({url}) (sin instalar nada), o clónalo y ejecuta `make lab TRACK=es` en tu equipo.",
        "core": "Curso básico",
        "deep dives": "A fondo",
        "reference": "Para estudiantes e instructores",
        "deep dives title": "Las secciones a fondo de los capítulos básicos",
        "deep dives intro": "Las secciones a fondo de los capítulos del curso básico, cada una tras las ideas clave "
                            "de su capítulo. Cada una dice en su primera línea qué supone, y se ejecuta sola desde "
                            "un kernel nuevo. Los capítulos que siguen son a fondo enteros.",
        "chapter": "Capítulo {number}",
        "show answer": "Mostrar la respuesta",
        "hide answer": "Ocultar la respuesta",
        "hint": "Pista",
        "solution": "Solución",
        "launch": "Para comprobar tu respuesta, ejecuta este capítulo: [ábrelo en Binder]({url}), o ejecuta "
                  "`make lab TRACK=es` en tu copia del cuaderno.",
        "stored view": "Vista guardada, tal como quedó en la última ejecución: responde solo con el capítulo en "
                       "marcha ([ábrelo en Binder]({url}), o `make lab TRACK=es`).",
        "switch": "English",
        "switch label": "Read this page in English",
        "make lab": "make lab TRACK=es",
    },
}


class SiteError(Exception):
    """A source the site cannot be built from: a missing twin, a reveal with no output."""


def other(track: str) -> str:
    return "es" if track == "en" else "en"


# --- the pages, in order ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Page:
    """One page of a track's site: its name in the site (``05_detector``, ``glosario``), the committed file it is
    made from (None for a page the site writes itself), the part of the site it is listed in, and what it is in
    either track (``key``: the chapter's number, the English guide's file name, or the generated page's name), which
    pairs it with its twin."""

    name: str
    source: pathlib.Path | None
    part: str   # "home", "core", "deep dives" or "reference"
    key: str
    chapter: str | None = None


def chapter_pages(track: str) -> list[Page]:
    """The chapters in the course's order: the core course's, then those that are deep dives as a whole."""
    files = course.chapter_files(track)
    found = []
    for entry in course.declared_chapters():
        number = entry["number"]
        if number not in files:
            raise SiteError(f"notebooks/course.toml declares chapter {number}, but the {track} track has no "
                            f"{number}_*.ipynb")
        path = files[number]
        found.append(Page(path.stem, path, "core" if entry.get("core", True) else "deep dives", number, number))
    return found


def pages(track: str) -> list[Page]:
    """Every page of a track's site, in the order of its table of contents (the index page first)."""
    chapters = chapter_pages(track)
    column = 0 if track == "en" else 1
    reference = [Page(pathlib.Path(pair[column]).stem, ROOT / "docs" / pair[column], "reference", pair[0])
                 for pair in REFERENCE]
    missing = [page.source.relative_to(ROOT).as_posix() for page in reference if not page.source.exists()]
    if missing:
        raise SiteError(f"the site's guides are missing: {', '.join(missing)} (tools/site_build.py, REFERENCE)")
    return ([Page("index", None, "home", "index")]
            + [page for page in chapters if page.part == "core"]
            + [Page(deep_dives_name(track), None, "deep dives", "deep dives")]
            + [page for page in chapters if page.part == "deep dives"]
            + reference)


def deep_dives_name(track: str) -> str:
    return {"en": "deep-dives", "es": "a-fondo"}[track]


def twins(first: list[Page], second: list[Page]) -> dict[str, str]:
    """Each page of one track (``first``) with its twin in the other (``second``): the page that is the same
    chapter, guide or generated page (the same ``key``), in the same place of the order. Raises SiteError naming a
    page without a twin, or twins in different places."""
    theirs = {page.key: page for page in second}
    alone = [page for page in first if page.key not in theirs]
    alone += [page for page in second if page.key not in {mine.key for mine in first}]
    if alone:
        raise SiteError("no twin in the other track for " + ", ".join(
            f"{page.name!r} ({page.source.relative_to(ROOT) if page.source else 'written by the site'})"
            for page in alone))
    for mine, twin in zip(first, second, strict=True):
        if mine.key != twin.key:
            raise SiteError(f"the tracks list their pages in different orders: {mine.name!r} where the other track "
                            f"has {twin.name!r}")
    return {page.name: theirs[page.key].name for page in first}


def twin_map() -> dict[str, dict[str, str]]:
    """For each track, its pages' twins in the other track, by page name."""
    english, spanish = pages("en"), pages("es")
    return {"en": twins(english, spanish), "es": twins(spanish, english)}


def launch_url(page: Page) -> str:
    """The Binder link that opens this page's chapter in JupyterLab (the README's form)."""
    assert page.source is not None
    return BINDER + urllib.parse.quote(page.source.relative_to(ROOT).as_posix(), safe="")


# --- the reveals' outputs ---------------------------------------------------------------------------------------------

def _run_for_reveals(path_text: str) -> dict[str, list]:
    """Run a copy of a chapter in a fresh kernel; the outputs of its reveal cells, by cell index."""
    import nbformat
    from run_notebooks import execute

    path = pathlib.Path(path_text)
    nb = nbformat.read(path, as_version=4)
    execute(nb, path.parent)
    return {str(index): [dict(output) for output in cell.outputs]
            for index, cell in enumerate(nb.cells) if is_reveal(cell)}


def loopkit_stamp() -> bytes:
    """A digest of loopkit's code and texts: a reveal prints what loopkit computes, in the words of its catalogs."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "loopkit").rglob("*")):
        if path.suffix in (".py", ".po", ".json") and path.is_file():
            digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.digest()


def reveal_outputs(paths: list[pathlib.Path], jobs: int = 2) -> dict[pathlib.Path, dict[int, list]]:
    """For each chapter, its reveal cells' outputs (by cell index) when it runs top to bottom: from
    build/site-src/reveals/ when neither the chapter nor loopkit changed, else from a run (``jobs`` kernels at a time)."""
    REVEALS.mkdir(parents=True, exist_ok=True)
    code = loopkit_stamp()
    found: dict[pathlib.Path, dict[int, list]] = {}
    to_run = {}
    for path in paths:
        if not any(is_reveal(cell) for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]):
            found[path] = {}
            continue
        kept = REVEALS / f"{hashlib.sha256(path.read_bytes() + code).hexdigest()[:16]}.json"
        if kept.exists():
            found[path] = {int(k): v for k, v in json.loads(kept.read_text(encoding="utf-8")).items()}
        else:
            to_run[path] = kept
    if to_run:
        with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
            runs = {path: pool.submit(_run_for_reveals, str(path)) for path in to_run}
            for path, run in runs.items():
                outputs = run.result()
                to_run[path].write_text(json.dumps(outputs, ensure_ascii=False), encoding="utf-8")
                found[path] = {int(k): v for k, v in outputs.items()}
    return found


# --- a chapter's source for the site ----------------------------------------------------------------------------------

def _markdown_cell(text: str) -> dict:
    import nbformat

    return nbformat.v4.new_markdown_cell(text)


def exercise_box(qid: str, track: str, url: str) -> str:
    """The box that closes an exercise on the site: its launch, then its hint and its solution behind a click, as
    loopkit prints them (``q.hint()``, ``q.solution()``) in the track's language."""
    from loopkit.core.language import current_language, set_language
    from loopkit.teaching.exercises import all_questions

    question = all_questions()[qid]
    was = current_language()
    set_language(track)
    try:
        printed = {}
        for what, say in (("hint", question.hint), ("solution", question.solution)):
            with contextlib.redirect_stdout(io.StringIO()) as out:
                say()
            printed[what] = out.getvalue().strip()
    finally:
        set_language(was)
    words = WORDS[track]
    launch = words["launch"].format(url=url)
    return (f'<div class="loopkit-exercise-box">\n\n{launch}\n\n'
            f'<details class="loopkit-hint"><summary>{words["hint"]} ({qid})</summary>\n'
            f'<pre>{html.escape(printed["hint"])}</pre>\n</details>\n'
            f'<details class="loopkit-solution"><summary>{words["solution"]} ({qid})</summary>\n'
            f'<pre>{html.escape(printed["solution"])}</pre>\n</details>\n\n</div>')


def chapter_source(page: Page, track: str, reveals: dict[int, list], site_names: dict[pathlib.Path, str]) -> dict:
    """The chapter as the site shows it (see the module's docstring); the committed file is not changed."""
    assert page.source is not None
    nb = json.loads(page.source.read_text(encoding="utf-8"))
    cells = nb["cells"]
    words = WORDS[track]
    url = launch_url(page)
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "markdown":
            cell["source"] = site_markdown(cell_text(cell), page.source, site_names)
        if not is_reveal(cell):
            continue
        outputs = reveals.get(index)
        if not outputs:
            raise SiteError(f"{page.source.relative_to(ROOT)}: reveal cell {index} printed nothing when the chapter "
                            "ran, so the site would have no answer to show")
        cell["outputs"] = outputs
        cell["metadata"].setdefault("tags", []).append("hide-output")
        cell["metadata"]["mystnb"] = {"code_prompt_show": words["show answer"], "code_prompt_hide": words["hide answer"]}
    # Inserted from the end, so that the indices still to visit stay right.
    inserts: list[tuple[int, str]] = []
    for qid, span in exercise_sections(nb).items():
        inserts.append((span.stop, exercise_box(qid, track, url)))
    for index, cell in enumerate(cells):
        if any(WIDGET_VIEW in output.get("data", {}) for output in cell.get("outputs", [])):
            inserts.append((index + 1, f'<div class="loopkit-stored-view">\n\n{words["stored view"].format(url=url)}'
                                       "\n\n</div>"))
    for position, text in sorted(inserts, key=lambda item: item[0], reverse=True):
        cells.insert(position, _markdown_cell(text))
    return nb


# --- links ------------------------------------------------------------------------------------------------------------

LINK = re.compile(r"(?<!!)(\]\()([^)\s]+)(\))")
REMOTE_IMAGE = re.compile(r"!\[([^\]]*)\]\((https?://[^)\s]+)\)")


def site_link(target: str, source: pathlib.Path, site_names: dict[pathlib.Path, str]) -> str:
    """Where a relative link of a committed file points on the site: the page made from its target (with its
    anchor), or the file on GitHub when the site has no page for it. Absolute links and anchors stay."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target):
        return target
    path_part, hash_mark, anchor = target.partition("#")
    anchor = site_anchor(anchor)
    if not path_part:
        return hash_mark + anchor
    resolved = (source.parent / urllib.parse.unquote(path_part)).resolve()
    if resolved in site_names:
        return site_names[resolved] + hash_mark + anchor
    try:
        relative = resolved.relative_to(ROOT).as_posix()
    except ValueError:
        return target
    kind = "tree" if resolved.is_dir() else "blob"
    return f"{REPOSITORY}/{kind}/main/{relative}" + hash_mark + anchor


def site_anchor(anchor: str) -> str:
    """A heading's anchor as the site spells it (GitHub's way, as MyST makes them here): JupyterLab's anchors keep
    the heading's case and punctuation and join its words with "-".

    >>> site_anchor("Deep-dive:-a-call-budget,-not-a-loop"), site_anchor("deep-dive-a-call-budget-not-a-loop")
    ('deep-dive-a-call-budget-not-a-loop', 'deep-dive-a-call-budget-not-a-loop')
    """
    from myst_parser.slugs import github_slugify

    return github_slugify(anchor.replace("-", " ")) if anchor else anchor


def site_markdown(text: str, source: pathlib.Path, site_names: dict[pathlib.Path, str]) -> str:
    """Markdown of a committed file with its links pointed at the site (:func:`site_link`), and each image from
    the network (the Binder badge) replaced by its words: the site loads nothing from elsewhere."""
    text = REMOTE_IMAGE.sub(lambda m: m.group(1), text)
    return LINK.sub(lambda m: m.group(1) + site_link(m.group(2), source, site_names) + m.group(3), text)


# --- the generated pages ----------------------------------------------------------------------------------------------

def index_page(track: str, ordered: list[Page]) -> str:
    words = WORDS[track]
    start = next(page for page in ordered if page.chapter)
    parts = [f"# {words['title']}\n\n{words['intro']}\n\n{words['run'].format(url=launch_url(start))}\n"]
    for part in ("core", "deep dives", "reference"):
        names = "\n".join(page.name for page in ordered if page.part == part
                          or (part == "deep dives" and page.name == deep_dives_name(track)))
        parts.append(f"```{{toctree}}\n:caption: {words[part]}\n:maxdepth: 1\n\n{names}\n```\n")
    return "\n".join(parts)


def deep_dives_page(track: str, chapters: list[Page]) -> str:
    from myst_parser.slugs import github_slugify

    words = WORDS[track]
    lines = [f"# {words['deep dives title']}\n", words["deep dives intro"], ""]
    for page in chapters:
        if page.part != "core":
            continue
        assert page.chapter is not None
        dives = course.deep_dives(course.cells_of(page.chapter))
        if not dives:
            continue
        title = words["chapter"].format(number=page.chapter)
        lines.append(f"## {title}\n")
        for dive in dives:
            heading = course.heading_in(track, page.chapter, dive.heading)
            lines.append(f"- [{heading}]({page.name}.ipynb#{github_slugify(heading)})")
        lines.append("")
    return "\n".join(lines)


# --- Sphinx -----------------------------------------------------------------------------------------------------------

def sphinx_config(track: str) -> dict:
    """The settings of a track's Sphinx build (build/site-src/<track>/conf.py takes them from here)."""
    words = WORDS[track]
    return {
        "project": words["title"],
        "html_title": words["title"],
        "language": track,
        "extensions": ["myst_nb", "site_build"],
        "exclude_patterns": ["_build", "reveals"],
        "html_theme": "sphinx_book_theme",
        "html_static_path": ["_static"],
        "templates_path": ["_templates"],
        "html_css_files": ["loopkit-site.css"],
        "html_favicon": "_static/loopkit.svg",
        "html_copy_source": False,
        "html_show_sourcelink": False,
        "html_theme_options": {
            "home_page_in_toc": True,
            "use_download_button": False,
            "article_header_end": ["language-switch.html", "article-header-buttons.html"],
            "show_toc_level": 2,
        },
        "nb_execution_mode": "off",
        # The stored views, drawn by the widget manager served with the site (package.json pins it): its standalone
        # build knows ipywidgets' own controls, the only views the chapters have, and needs no RequireJS.
        "nb_ipywidgets_js": {"widgets/embed.js": {}},
        "myst_heading_anchors": 3,
        "myst_heading_slug_func": "github",
        "myst_enable_extensions": ["colon_fence"],
        # Sphinx loads MathJax, from a CDN by default, on a page with maths. The chapters have none to typeset; a page
        # that had some would ask for this file, which the site does not have, and the browser test would say so.
        "mathjax_path": "no-mathjax-on-this-site.js",
        "suppress_warnings": ["mystnb.unknown_mime_type", "myst.header"],
        # the light theme to start with (a first visit has no stored choice, and the theme logs an error without one)
        "html_context": {"default_mode": "light", "loopkit_twins": twin_map()[track], "loopkit_other": other(track),
                         "loopkit_switch": words["switch"], "loopkit_switch_label": words["switch label"]},
    }


LANGUAGE_SWITCH = """\
{%- set twin = loopkit_twins.get(pagename) %}
{%- if twin %}
<a class="btn btn-sm loopkit-language-switch" href="../{{ loopkit_other }}/{{ twin }}.html" hreflang="{{ loopkit_other }}"
   lang="{{ loopkit_other }}" title="{{ loopkit_switch_label }}">{{ loopkit_switch }}</a>
{%- endif %}
"""

# The theme's search button (pydata-sphinx-theme's search-button-field.html, replaced here by name) is named
# "Search" by an aria-label while it shows "Search Ctrl+K": axe-core counts that as a serious violation
# (label-content-name-mismatch). Without the aria-label, its name is the words it shows. The classes are those the
# theme's script looks for.
SEARCH_BUTTON = """\
<button class="btn search-button-field search-button__button pst-js-only" title="{{ _('Search') }}"
        data-bs-placement="bottom" data-bs-toggle="tooltip">
  <i class="fa-solid fa-magnifying-glass" aria-hidden="true"></i>
  <span class="search-button__default-text">{{ _('Search') }}</span>
  <span class="search-button__kbd-shortcut"><kbd class="kbd-shortcut__modifier">Ctrl</kbd>+<kbd
    class="kbd-shortcut__modifier">K</kbd></span>
</button>
"""

SITE_CSS = """\
/* make site's additions (tools/site_build.py). A wide output scrolls inside its own box, never the page. */
.cell_output, .output, .cell_output pre, .loopkit-exercise-box pre { max-width: 100%; overflow-x: auto; }
.cell_output .widget-subarea, .cell_output .jupyter-widgets { max-width: 100%; overflow-x: auto; }
/* a long name in running text or in a heading breaks at a phone's width rather than widening the page */
.bd-article { overflow-wrap: anywhere; }
.bd-article code.literal, .bd-article code.literal .pre { white-space: pre-wrap; overflow-wrap: anywhere; }
.bd-article table { display: block; max-width: 100%; overflow-x: auto; }
.loopkit-exercise-box { border-left: 4px solid #0072B2; padding: 0.25rem 1rem; margin: 1rem 0; }
.loopkit-exercise-box pre { white-space: pre-wrap; }
.loopkit-exercise-box summary { cursor: pointer; font-weight: 600; }
.loopkit-stored-view { font-style: italic; }
/* the language switch beside the theme's buttons, not above them */
.bd-header-article .header-article-items__end { display: flex; flex-wrap: nowrap; align-items: center; }
.loopkit-language-switch { font-weight: 600; white-space: nowrap; }
"""


def setup(app) -> dict:
    """Sphinx's hook for the site's own extension: the summary of a collapsed output (a reveal) is named by its
    visible words, in the page's language, rather than MyST-NB's English "Toggle hidden content"."""
    from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput

    def visit(self, node) -> None:
        classes = " ".join(node["classes"])
        self.body.append(f'<details class="admonition hide {classes}">\n<summary>\n'
                         f'<p class="collapsed admonition-title">{html.escape(node["prompt_show"])}</p>\n'
                         f'<p class="expanded admonition-title">{html.escape(node["prompt_hide"])}</p>\n'
                         "</summary>\n")

    app.add_node(HideCodeCellNode, override=True, html=(visit, depart_HideCellInput))
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def write_sources(track: str, reveals: dict[pathlib.Path, dict[int, list]]) -> pathlib.Path:
    """build/site-src/<track>/: every page's source, conf.py, the theme's additions and the widget manager."""
    folder = SOURCES / track
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "_templates").mkdir(parents=True)
    (folder / "_static" / "widgets").mkdir(parents=True)
    ordered = pages(track)
    site_names = {page.source.resolve(): page.name + page.source.suffix for page in ordered if page.source}
    for page in ordered:
        if page.name == "index":
            text = index_page(track, ordered)
        elif page.source is None:
            text = deep_dives_page(track, ordered)
        elif page.source.suffix == ".ipynb":
            nb = chapter_source(page, track, reveals.get(page.source, {}), site_names)
            (folder / page.source.name).write_text(json.dumps(nb, ensure_ascii=False, indent=1), encoding="utf-8")
            continue
        else:
            text = site_markdown(page.source.read_text(encoding="utf-8"), page.source, site_names)
        (folder / (page.name + ".md")).write_text(text, encoding="utf-8")
    (folder / "conf.py").write_text(
        "# Written by tools/site_build.py (make site): the settings are there.\n"
        f"import sys\nsys.path.insert(0, {str(TOOLS)!r})\n"
        f"from site_build import sphinx_config\nglobals().update(sphinx_config({track!r}))\n", encoding="utf-8")
    (folder / "_templates" / "language-switch.html").write_text(LANGUAGE_SWITCH, encoding="utf-8")
    (folder / "_templates" / "search-button-field.html").write_text(SEARCH_BUTTON, encoding="utf-8")
    (folder / "_static" / "loopkit-site.css").write_text(SITE_CSS, encoding="utf-8")
    (folder / "_static" / "loopkit.svg").write_text(ICON, encoding="utf-8")
    copy_widget_manager(folder / "_static" / "widgets")
    return folder


def copy_widget_manager(into: pathlib.Path) -> None:
    """@jupyter-widgets/html-manager's standalone bundle and the fonts it loads beside it, in the formats browsers of
    this decade ask for (WOFF2, WOFF): the package's EOT, TTF and SVG copies (3.4 MB) serve older ones only."""
    if not (WIDGETS_DIST / "embed.js").exists():
        raise SiteError(f"{WIDGETS_DIST / 'embed.js'} is missing: `make site` installs @jupyter-widgets/html-manager "
                        "from npm (package.json) under .venv/node; it needs Node.js and npm")
    for path in WIDGETS_DIST.iterdir():
        if path.name == "embed.js" or path.suffix in (".woff", ".woff2"):
            shutil.copy2(path, into / path.name)


#: The site's icon (without one, the browser asks the server for /favicon.ico and logs its 404 as an error).
ICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="6" fill="none" '
        'stroke="#0072B2" stroke-width="3"/></svg>\n')

ROOT_PAGE = """\
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>The loopkit workbook</title>
<link rel="icon" href="data:,">
<meta http-equiv="refresh" content="0; url=en/index.html">
<link rel="alternate" hreflang="en" href="en/index.html">
<link rel="alternate" hreflang="es" href="es/index.html">
</head>
<body>
<main>
<h1>The loopkit workbook</h1>
<p><a href="en/index.html" hreflang="en">Read it in English</a></p>
<p lang="es"><a href="es/index.html" hreflang="es">Léelo en español</a></p>
</main>
</body>
</html>
"""


def sphinx_build(track: str, source: pathlib.Path) -> None:
    out = SITE / track
    # -W: a warning (a link to a page or heading the site does not have, say) fails the build, after all are listed
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-E", "-W", "--keep-going", str(source), str(out)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise SiteError(f"sphinx-build of the {track} track failed:\n{done.stdout}\n{done.stderr}")
    if done.stderr.strip():
        print(done.stderr.strip(), file=sys.stderr)
    # The themes' source maps serve only a developer's tools; a reader's browser never asks for them.
    for source_map in out.rglob("*.map"):
        source_map.unlink()


def build(jobs: int = 2) -> pathlib.Path:
    """The whole site, in build/site/; returns that folder."""
    started = time.perf_counter()
    chapters = [page.source for track in TRACKS for page in chapter_pages(track) if page.source]
    reveals = reveal_outputs(chapters, jobs)
    print(f"reveals: {sum(len(v) for v in reveals.values())} outputs ({time.perf_counter() - started:.0f} s)")
    if SITE.exists():
        shutil.rmtree(SITE)
    for track in TRACKS:
        sphinx_build(track, write_sources(track, reveals))
        print(f"{track}: build/site/{track}/ ({time.perf_counter() - started:.0f} s)")
    (SITE / "index.html").write_text(ROOT_PAGE, encoding="utf-8")
    (SITE / ".nojekyll").write_text("", encoding="utf-8")  # GitHub Pages: serve _static/ as it is
    return SITE


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                        help="chapters run at a time for the reveals' outputs (default 2)")
    args = parser.parse_args(argv)
    try:
        site = build(args.jobs)
    except SiteError as error:
        print(f"make site: {error}", file=sys.stderr)
        return 1
    size = sum(path.stat().st_size for path in site.rglob("*") if path.is_file())
    print(f"built {site.relative_to(ROOT)}/: {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
