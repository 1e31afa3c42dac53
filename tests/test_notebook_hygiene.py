"""The committed notebooks are products: executed once, top to bottom, and built from the chapter template.

nbval silently skips a code cell with no stored execution, so these checks are what make nbval strict.
"""

import ast
import re
import sys

import pytest
from notebook_tools import (
    ROOT,
    TEMPLATE,
    all_chapters,
    chapter_id,
    chapters,
    code_cells,
    imported_modules,
    is_reveal,
    load,
    source,
    tags,
    track_of,
)

import loopkit

CHAPTERS = all_chapters()  # both tracks: the Spanish twins are products too
IDS = [chapter_id(p) for p in CHAPTERS]


def test_the_foundation_chapters_exist():
    names = {p.name for p in chapters("en")}
    expected = {"00_start_here.ipynb", "01_normalization.ipynb", "02_read_buckets.ipynb", "03_fingerprints.ipynb",
                "04_fifo_vs_lru.ipynb"}
    assert expected <= names, f"missing chapters: {sorted(expected - names)}"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_every_code_cell_was_executed_once_in_order(path):
    """One top-to-bottom run: the n-th code cell holds execution count n. A reveal cell ran too (its count is
    taken), but it is stored as not yet run, so the learner runs it after answering (tools/run_notebooks.py)."""
    cells = code_cells(load(path))
    counts = [cell.get("execution_count") for cell in cells]
    expected = [None if is_reveal(cell) else n for n, cell in enumerate(cells, start=1)]
    assert counts == expected, f"{path.name}: not one top-to-bottom run (None: a reveal cell): {counts}"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_reveal_cells_are_committed_without_their_output(path):
    for cell in code_cells(load(path)):
        if is_reveal(cell):
            assert not cell.get("outputs"), f"{path.name}: a reveal cell shows its answer before the learner acts:\n{source(cell)}"
            assert "nbval-ignore-output" not in tags(cell), f"{path.name}: a reveal cell must stay checked:\n{source(cell)}"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_no_stored_errors_and_no_empty_code_cells(path):
    nb = load(path)
    for cell in code_cells(nb):
        for output in cell.get("outputs", []):
            assert output["output_type"] != "error", f"{path.name}: stored error in\n{source(cell)}"
            assert output.get("name") != "stderr", f"{path.name}: stored stderr (a warning?) in\n{source(cell)}"
    empty = [c for c in nb["cells"] if c["cell_type"] == "code" and not source(c).strip()]
    assert not empty, f"{path.name}: {len(empty)} empty code cell(s)"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_ignore_output_only_on_widget_views(path):
    for cell in code_cells(load(path)):
        if "nbval-ignore-output" in tags(cell):
            assert "widgets." in source(cell), (
                f"{path.name}: nbval-ignore-output is for widget views only, but it hides\n{source(cell)}"
            )
        assert not tags(cell) & {"nbval-skip", "raises-exception"}, f"{path.name}: a cell opts out of checking"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_each_widget_view_follows_a_checked_plain_cell(path):
    cells = code_cells(load(path))
    for i, cell in enumerate(cells):
        if "nbval-ignore-output" in tags(cell):
            assert i > 0 and "nbval-ignore-output" not in tags(cells[i - 1]) and cells[i - 1].get("outputs"), (
                f"{path.name}: the widget view\n{source(cell)}\nmust come right after a plain cell with output"
            )


DEEP_DIVE_ASSUMES = {"en": "*Assumes:*", "es": "*Supone:*"}


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_chapter_template(path):
    nb, words = load(path), TEMPLATE[track_of(path)]
    title = source(nb["cells"][0])
    assert nb["cells"][0]["cell_type"] == "markdown" and title.startswith("# "), f"{path.name}: no title cell"
    assert re.search(words["time line"], title), f"{path.name}: no time line"
    for needed in words["title words"]:
        if needed in ("Prerequisites", "Requisitos previos") and DEEP_DIVE_ASSUMES[track_of(path)] in title:
            continue  # a chapter that is a deep dive as a whole says in one line what it assumes (issue 31)
        assert needed.lower() in title.lower(), f"{path.name}: title cell lacks {needed!r}"
    markdown = "\n".join(source(c) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert words["takeaways"] in markdown, f"{path.name}: no key takeaways"
    assert words["checklist"] in markdown.lower(), f"{path.name}: no checklist back to the source"
    exercises = re.findall(rf"^### {words['exercise']} \d+\.\d+: ", markdown, re.M)
    assert len(exercises) >= 3, f"{path.name}: < 3 exercises"
    assert any("widgets." in source(c) for c in code_cells(nb)), f"{path.name}: no interactive view"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_committed_exercises_hold_placeholders_and_say_not_answered(path):
    for cell in code_cells(load(path)):
        code = source(cell)
        if re.search(r"\bq\d+\.check\(", code):
            assert "____" in code, f"{path.name}: an exercise cell holds an answer instead of ____:\n{code}"
            # nbformat stores a stream's text as a list of lines on disk; source() joins either form.
            text = "".join(source({"source": o.get("text", "")}) for o in cell.get("outputs", []))
            unanswered = TEMPLATE[track_of(path)]["unanswered"]
            assert unanswered in text, f"{path.name}: unanswered check did not say so:\n{code}"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_code_cells_are_small(path):
    for cell in code_cells(load(path)):
        lines = source(cell).strip().splitlines()
        assert len(lines) <= 15, f"{path.name}: a code cell has {len(lines)} lines (max 15):\n{source(cell)}"


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_notebooks_do_not_redefine_loopkit_helpers(path):
    public = set(loopkit.__all__)
    for cell in code_cells(load(path)):
        code = "\n".join(l for l in source(cell).splitlines() if not l.lstrip().startswith(("%", "!")))
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                assert node.name not in public, f"{path.name} redefines loopkit.{node.name}; call loopkit instead"


def _binder_requirements():
    names = set()
    for line in (ROOT / "binder" / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            names.add(re.split(r"[=<>!~\[ ]", line)[0].lower().replace("-", "_"))
    return names


# Import names that differ from their distribution names.
IMPORT_TO_DIST = {"IPython": "ipykernel", "ipywidgets": "ipywidgets", "matplotlib": "matplotlib"}


@pytest.mark.parametrize("path", CHAPTERS, ids=IDS)
def test_every_notebook_import_is_provided_by_binder(path):
    provided = _binder_requirements()
    for cell in code_cells(load(path)):
        for module in imported_modules(source(cell)):
            if module == "loopkit" or module in sys.stdlib_module_names:
                continue
            dist = IMPORT_TO_DIST.get(module, module).lower().replace("-", "_")
            assert dist in provided, f"{path.name} imports {module!r}, which binder/requirements.txt does not provide"
