"""Every path the workbook offers runs: exactly its cells, in a fresh kernel, in both tracks (tools/course.py says
what a path is, notebooks/course.toml declares the course and the plans).

The paths: the core course (each of its chapters' core path), each chapter's core path, each slot of each workshop
plan (the title, the setup cell and only the sections it names), each deep dive alone and each checklist alone
(the title, the setup cell and the section). Reveal cells run; placeholders stay unanswered (an unanswered check
prints "not answered yet" and does not raise). A failure names the chapter's own cell number.

Two paths that run the same code cells of the same chapter are run once: each pytest item is one distinct list of cells in
one track, named by the first path that offers it, and its failure names every path that does. Marked ``paths``
(pyproject.toml) so that a lane of the suite can take them; pytest-xdist spreads the items over its workers.
"""

from __future__ import annotations

import sys

import nbformat
import pytest
from kernels import AsyncIpcKernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from notebook_tools import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import course  # noqa: E402

pytestmark = pytest.mark.paths

#: How long one cell may run before the path fails (the slowest chapter cell takes a few seconds).
CELL_TIMEOUT = 300


def code_cells(path: course.Path) -> tuple[int, ...]:
    """The cells of a path that run: its code cells (markdown runs nothing, so two paths that differ only in their
    markdown run the same)."""
    cells = course.cells_of(path.chapter)
    return tuple(index for index in path.cells if cells[index]["cell_type"] == "code")


def distinct_paths() -> dict[tuple[str, str, tuple[int, ...]], list[str]]:
    """Each distinct (track, chapter, code cells), with the names of the paths that run exactly those cells."""
    found: dict[tuple[str, str, tuple[int, ...]], list[str]] = {}
    for track in course.FOLDERS:
        for path in course.all_paths():
            found.setdefault((track, path.chapter, code_cells(path)), []).append(path.name)
    return found


try:
    PATHS = distinct_paths()
    SLUGS = {(track, path.chapter, code_cells(path)): f"{track}-{path.chapter}-{path.slug}"
             for track in course.FOLDERS for path in reversed(course.all_paths())}   # the first path names it
except ValueError as unknown:   # a plan slot that names a section its chapter lacks: one item fails and says so
    PATHS = {("en", "", ()): [str(unknown)]}
    SLUGS = {("en", "", ()): "notebooks-course-toml"}


def path_notebook(track: str, number: str, cells: tuple[int, ...]) -> nbformat.NotebookNode:
    """A notebook of only ``cells`` of the chapter (code cells), outputs cleared, each cell's number kept in its
    metadata."""
    nb = nbformat.read(course.chapter_files(track)[number], as_version=4)
    kept = []
    for index in cells:
        cell = nb.cells[index]
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
        cell.metadata["path_cell"] = index
        kept.append(cell)
    nb.cells = kept
    return nb


def run_path(track: str, number: str, cells: tuple[int, ...]) -> str | None:
    """Run a path in a fresh kernel; None when every cell runs, else the chapter's cell number and the error."""
    nb = path_notebook(track, number, cells)
    folder = course.chapter_files(track)[number].parent
    # "immediate": the kernel is thrown away after the path, so a graceful shutdown only costs time (half a second)
    # over ipc, not TCP: two workers starting kernels at once could be handed the same free port (tests/kernels.py)
    client = NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3", record_timing=False,
                            shutdown_kernel="immediate", resources={"metadata": {"path": str(folder)}},
                            kernel_manager_class=AsyncIpcKernelManager)
    try:
        client.execute()
    except CellExecutionError as error:
        failed = next((cell for cell in nb.cells if cell.cell_type == "code"
                       and any(out.get("output_type") == "error" for out in cell.get("outputs", []))), None)
        where = f"cell {failed.metadata['path_cell']}" if failed is not None else "a cell"
        last = next((out for out in failed.outputs if out.get("output_type") == "error"), {}) if failed else {}
        return f"{where}: {last.get('ename', type(error).__name__)}: {last.get('evalue', error)}"
    return None


@pytest.mark.parametrize("key", list(PATHS), ids=[SLUGS[key] for key in PATHS])
def test_the_path_runs_in_a_fresh_kernel(key):
    track, number, cells = key
    assert cells, f"notebooks/course.toml names a path that cannot be built: {PATHS[key][0]}"
    problem = run_path(track, number, cells)
    chapter = course.chapter_files(track)[number].relative_to(course.NOTEBOOKS).as_posix()
    assert problem is None, f"{'; '.join(PATHS[key])} ({track} track, {chapter}) fails at {problem}"


# --- what a path is ---------------------------------------------------------------------------------------------


def md(text: str) -> dict:
    return {"cell_type": "markdown", "source": text}


def code(text: str, tags: tuple[str, ...] = ()) -> dict:
    return {"cell_type": "code", "source": text, "metadata": {"tags": list(tags)}, "outputs": []}


CHAPTER = [
    md("# 09 · A chapter\n\nTime: ..."),                        # 0 title
    code('set_language("en")'),                                 # 1 setup
    md("## First idea"),                                         # 2
    code("x = 1"),                                               # 3
    md("### Exercise 9.1: a value"),                             # 4
    code("q1.check(____)"),                                      # 5
    md("## Key takeaways\n\n- one\n\n## Deep dive: more\n\n*Assumes:* x."),   # 6: two sections in one cell
    code("import y"),                                            # 7
    md("```\n# not a heading\n```"),                             # 8
    code("y.z()"),                                               # 9
    md("## Checklist: back to the source\n\n- [ ] read"),       # 10
    code("import z"),                                            # 11
]


def test_the_core_path_leaves_out_deep_dives_and_the_checklist():
    assert course.core_path(CHAPTER) == (0, 1, 2, 3, 4, 5, 6)
    places = {part.cell: part.place for part in course.parts(CHAPTER) if part.kind == "code"}
    assert places == {1: "title", 3: "core", 5: "core", 7: "deep dive", 9: "deep dive", 11: "checklist"}


def test_a_deep_dive_or_a_checklist_alone_is_the_title_the_setup_and_its_section():
    dive, = course.deep_dives(CHAPTER)
    assert dive.heading == "Deep dive: more"
    assert course.section_path(CHAPTER, [dive]) == (0, 1, 6, 7, 8, 9), "a fenced '# ...' line opens no section"
    checklist, = course.checklists(CHAPTER)
    assert course.section_path(CHAPTER, [checklist]) == (0, 1, 10, 11)


def test_every_chapter_has_its_paths_and_every_plan_slot_with_a_chapter_is_one():
    names = [name for names in PATHS.values() for name in names]
    for number in course.chapter_files():
        assert f"chapter {number}'s core path" in names
    for number in course.core_course():
        assert f"the core course, chapter {number}" in names
    slots = sum(1 for plan in course.course()["plan"] for slot in plan["slot"] if "chapter" in slot)
    assert sum(1 for name in names if "plan's slot" in name) == 2 * slots   # both tracks
    assert all(key[2] and key[2][0] == course.setup_cell(course.cells_of(key[1])) for key in PATHS), \
        "every path starts with its chapter's setup cell"


def test_a_path_that_uses_a_name_its_cells_never_define_fails_and_says_where(tmp_path, monkeypatch):
    """The runner itself: a broken path is reported with its chapter's cell number and the error."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# 99 · Broken"), nbformat.v4.new_code_cell("x = 1"),
                nbformat.v4.new_markdown_cell("## A"), nbformat.v4.new_code_cell("import math"),
                nbformat.v4.new_markdown_cell("## B"), nbformat.v4.new_code_cell("print(math.pi)")]
    nbformat.write(nb, tmp_path / "99_broken.ipynb")
    monkeypatch.setitem(course.FOLDERS, "en", tmp_path)
    assert run_path("en", "99", (0, 1, 2, 3, 4, 5)) is None
    assert run_path("en", "99", (0, 1, 4, 5)) == "cell 5: NameError: name 'math' is not defined"
