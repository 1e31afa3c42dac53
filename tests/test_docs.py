"""The workshop kit in docs/ stays true to the workbook: live exercises that exist, a hub link
that opens chapter 00, a glossary with the chapters' terms, and links that resolve; and the maps of the code
(docs/architecture.md, tests/README.md) name paths that exist, templated ones expanded, and the mypy settings
pyproject.toml has."""

from __future__ import annotations

import pathlib
import re
import subprocess
import tomllib
import urllib.parse

import pytest
from notebook_tools import ROOT, chapters, exercise_headings, load, source

DOCS = ROOT / "docs"
README = (ROOT / "README.md").read_text(encoding="utf-8")
INSTRUCTOR = (DOCS / "instructor.md").read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    """The body of the markdown section whose heading line is ``heading``, up to the next heading of any level."""
    match = re.search(rf"^{re.escape(heading)}\n(.*?)(?=^#|\Z)", text, re.M | re.S)
    assert match, f"no section {heading!r}"
    return match.group(1)


def table_rows(text: str) -> list[list[str]]:
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in text.splitlines()
            if line.startswith("|")]
    return rows[2:]  # without the header and the |---| line


def chapter_map() -> dict[str, str]:
    """Chapter number -> title, from the README's chapter map."""
    rows = table_rows(section(README, "## Chapter map"))
    return {row[0]: re.sub(r"\[(.*?)\]\(.*?\)", r"\1", row[1]) for row in rows}


def notebook_exercises() -> dict[str, str]:
    """Exercise id -> title, from the chapters that exist."""
    return {qid: title for path in chapters() for _, qid, title in exercise_headings(load(path))}


def test_live_exercises_exist_with_these_titles():
    """(The plans' start times and minutes are rendered from the time model: tests/test_chapter_map.py.)"""
    existing = notebook_exercises()
    live = table_rows(section(INSTRUCTOR, "## Exercises to do live"))
    assert len(live) >= 9
    ids_in_schedules = set()
    for heading in ("## The 90-minute plan", "## The 3-hour plan"):
        for row in table_rows(section(INSTRUCTOR, heading)):
            done_live = re.search(r"live: ([^;]*)", row[3])
            if done_live:
                ids_in_schedules |= set(re.findall(r"\b\d+\.\d+\b", done_live.group(1)))
    assert ids_in_schedules, "the schedules name no live exercises"
    table_ids = set()
    for row in live:
        qid, title = row[0].split(" ", 1)
        table_ids.add(qid)
        chapter = qid.split(".")[0].zfill(2)
        if any(p.name.startswith(f"{chapter}_") for p in chapters()):
            assert existing.get(qid) == title, f"live exercise {qid} {title!r}: the chapter has {existing.get(qid)!r}"
    assert ids_in_schedules <= table_ids, f"the schedules do live exercises the table lacks: {ids_in_schedules - table_ids}"


def test_nbgitpuller_link_opens_chapter_00_in_jupyterlab():
    hub = (DOCS / "jupyterhub.md").read_text(encoding="utf-8")
    link = re.search(r"```text\n(https://\S+)\n```", hub).group(1)
    parsed = urllib.parse.urlsplit(link)
    assert parsed.path == "/hub/user-redirect/git-pull"
    query = urllib.parse.parse_qs(parsed.query)
    assert set(query) == {"repo", "branch", "urlpath"}
    owner, repo = re.search(r"mybinder\.org/v2/gh/([^/]+)/([^/]+)/", README).groups()
    assert query["repo"] == [f"https://github.com/{owner}/{repo}"], "the hub link and the Binder badge disagree"
    # The urlpath is relative to the learner's home, so it names the clone's folder (the repository's name).
    urlpath = query["urlpath"][0]
    assert urlpath == f"lab/tree/{repo}/notebooks/00_start_here.ipynb?autodecode"
    assert (ROOT / urlpath.split("?")[0].removeprefix(f"lab/tree/{repo}/")).exists()


def test_the_spanish_hub_link_differs_only_in_opening_the_spanish_chapter_00():
    hub = (DOCS / "jupyterhub.md").read_text(encoding="utf-8")
    english, spanish = re.findall(r"```text\n(https://\S+)\n```", hub)[:2]
    en, es = (urllib.parse.parse_qs(urllib.parse.urlsplit(link).query) for link in (english, spanish))
    assert {k: v for k, v in es.items() if k != "urlpath"} == {k: v for k, v in en.items() if k != "urlpath"}
    assert es["urlpath"] == [en["urlpath"][0].replace("notebooks/00_start_here", "notebooks/es/00_empieza_aqui")]
    assert (ROOT / "notebooks" / "es" / "00_empieza_aqui.ipynb").exists()


def test_readme_opens_with_the_spanish_section_and_its_binder_badge():
    top = "\n".join(README.splitlines()[:8])
    assert "**En español:**" in top and "](docs/es/README.md)" in top, "no Spanish lines at the top of the README"
    badge = re.search(r"\(https://mybinder\.org/v2/gh/[^/]+/[^/]+/main\?labpath=([^)]+)\)", top.split("**En español:**")[1])
    assert badge and urllib.parse.unquote(badge.group(1)) == "notebooks/es/00_empieza_aqui.ipynb"
    assert (ROOT / urllib.parse.unquote(badge.group(1))).exists()


def test_readme_pins_a_workshop_link_to_a_release_tag():
    binder = section(README, "## Binder and workshops")
    badge = re.search(r"https://mybinder\.org/v2/gh/[^/]+/[^/]+/main\?labpath=notebooks%2F00_start_here\.ipynb", README)
    assert badge, "the README has no Binder launch link to chapter 00"
    pinned = badge.group(0).replace("/main?", "/v0.1.0?")
    assert pinned in binder, "the README does not show the launch link pinned to a release tag"
    assert re.search(r"first launch time", binder, re.I) and re.search(r"\d+\s*[–-]\s*\d+\s*minutes", binder)
    for page in ("instructor.md", "learner-setup.md", "jupyterhub.md", "glossary.md"):
        assert f"docs/{page}" in binder, f"the README does not point at docs/{page}"


def test_glossary_defines_the_chapters_terms_in_order():
    glossary = (DOCS / "glossary.md").read_text(encoding="utf-8")
    terms = re.findall(r"^\*\*(.+?)\*\*", glossary, re.M)
    plain = [term.strip("`").lower() for term in terms]
    assert plain == sorted(plain), "glossary terms are not in alphabetical order"
    lowered = [t.lower() for t in terms]
    for needed in ("fingerprint", "bucket", "salient field", "window", "scope", "fifo", "lru", "batch",
                   "fallback key", "stable key", "hard limit", "warn threshold", "override", "stop reason"):
        assert any(t.startswith(needed) for t in lowered), f"the glossary lacks {needed!r}"


@pytest.mark.parametrize("page", sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")))
def test_relative_links_in_docs_resolve(page):
    text = (DOCS / page).read_text(encoding="utf-8")
    folder = (DOCS / page).parent
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        assert (folder / target).exists(), f"docs/{page} links to {target}, which does not exist"


#: The terms issue 15 fixed for the Spanish track, with the English term the glossary must show beside each.
SPANISH_TERMS = {
    "huella": "fingerprint",
    "bloque de lectura": "read bucket",
    "rango de líneas": "line range",
    "normalización": "normalization",
    "multiplicidad": "multiplicity",
    "expulsión por inserción": "insertion-order eviction",
    "detector de bucles": "loop detector",
    "aviso": "warning",
    "parada forzada": "forced stop",
    "ventana deslizante": "sliding window",
    "commit fijado": "pinned commit",
}

#: Renderings the Spanish track does not use, and the term it uses instead.
NOT_OUR_TERMS = {
    "cubeta": "bloque de lectura",
    "huella digital": "huella",
    "advertencia": "aviso",
    "ventana móvil": "ventana deslizante",
    "ventana corrediza": "ventana deslizante",
    "detector de ciclos": "detector de bucles",
    "commit anclado": "commit fijado",
    "desalojo": "expulsión",
}


def test_the_spanish_glossary_lists_each_term_with_its_english_name():
    glossary = (DOCS / "es" / "glosario.md").read_text(encoding="utf-8")
    entries = re.findall(r"^\*\*(.+?)\*\* \(([^)]*)\)", glossary, re.M)
    plain = [term.strip("`").lower() for term, _ in entries]
    assert plain == sorted(plain, key=lambda t: t.replace("á", "a").replace("é", "e").replace("í", "i")
                           .replace("ó", "o").replace("ú", "u")), "the Spanish terms are not in alphabetical order"
    for spanish, english in SPANISH_TERMS.items():
        beside = [note for term, note in entries if term.lower().startswith(spanish)]
        assert beside, f"docs/es/glosario.md has no entry for {spanish!r}"
        assert english in beside[0].lower(), f"{spanish!r} should show the English term {english!r} beside it"


@pytest.mark.parametrize("path", chapters("es") + sorted((DOCS / "es").glob("*.md")), ids=lambda p: p.name)
def test_the_spanish_track_uses_its_own_terms(path):
    if path.suffix == ".ipynb":
        text = "\n".join(source(c) for c in load(path)["cells"] if c["cell_type"] == "markdown")
    else:
        text = path.read_text(encoding="utf-8")
    prose = re.sub(r"`[^`]*`", "", text).lower()
    found = {word: ours for word, ours in NOT_OUR_TERMS.items() if re.search(rf"\b{word}", prose)}
    assert not found, f"{path.name} says {sorted(found)}; the glossary's terms are {found}"


# -- the maps: docs/architecture.md and tests/README.md name paths, templated ones too, that must exist -----------

MAPS = ("docs/architecture.md", "tests/README.md")
TRACKED_TOP = {name.split("/")[0] for name in subprocess.run(
    ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.splitlines()}


def named_paths(text: str) -> list[str]:
    """The repository paths a page names in backticks: those whose first part is a tracked top-level file or folder
    (``loopkit/core/keys.py``, ``tools/mutants.py``, ``pyproject.toml``). A ``file::test`` name counts as its file;
    a command (a backticked text with a space outside a ``<placeholder>``) does not."""
    found = []
    for token in re.findall(r"`([^`\n]+)`", text):
        path = token.split("::")[0]
        if " " in re.sub(r"<[^>]*>", "", path) or path.split("/")[0] not in TRACKED_TOP:
            continue
        found.append(path)
    return found


def expanded(path: str) -> list[pathlib.Path]:
    """The files and folders a named path stands for: itself, or for a templated path (``<language>``, ``chNN``)
    everything that fits it, each ``<placeholder>`` one name and ``NN`` two digits."""
    pattern = re.sub(r"<[^>]*>", "*", path).replace("NN", "[0-9][0-9]")
    return sorted(ROOT.glob(pattern)) if pattern != path else [ROOT / path] if (ROOT / path).exists() else []


def test_a_templated_path_is_expanded():
    assert expanded("loopkit/core/locales/<language>/LC_MESSAGES/loopkit.po") == [
        ROOT / "loopkit/core/locales/es/LC_MESSAGES/loopkit.po"]
    assert ROOT / "loopkit/teaching/exercises/ch02.py" in expanded("loopkit/teaching/exercises/chNN.py")
    assert expanded("loopkit/core/locales/<language>/<module>.toml") == []
    assert named_paths("run `make lint`, read `loopkit/views/widgets/<view>.py` and `tests/test_x.py::test_y`") == [
        "loopkit/views/widgets/<view>.py", "tests/test_x.py"]


@pytest.mark.parametrize("page", MAPS)
def test_the_maps_name_paths_that_exist(page):
    paths = named_paths((ROOT / page).read_text(encoding="utf-8"))
    assert len(paths) >= 5
    missing = [path for path in paths if not expanded(path)]
    assert not missing, f"{page} names paths that nothing in the checkout fits: {missing}"


def test_tests_readme_describes_the_mypy_overrides_that_pyproject_has():
    """Each loopkit module that pyproject.toml's mypy settings treat differently is the one tests/README.md's mypy
    paragraph names (as `teaching/exercises` or `loopkit.teaching.exercises`), and it names no other."""
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert "exclude" not in mypy, "pyproject.toml leaves modules out of mypy: name them in tests/README.md"
    overridden = {module.removesuffix(".*") for override in mypy.get("overrides", [])
                  for module in override["module"] if module.startswith("loopkit")}
    paragraph = re.search(r"^- \*\*mypy\*\*(.*?)(?=^\S|^- |\Z)", (ROOT / "tests" / "README.md").read_text(
        encoding="utf-8"), re.M | re.S).group(1)
    named = {"loopkit." + name.removeprefix("loopkit.").removeprefix("loopkit/").replace("/", ".")
             for name in re.findall(r"`((?:loopkit[./])?(?:core|traces|teaching|views|cli)\b[a-z_./]*)`", paragraph)}
    assert named == overridden
