"""The course's shape: which cells of which chapter a learner, or a room, runs; read from notebooks/course.toml and
from the chapters' own headings.

notebooks/course.toml declares the course once (its header comments give the schema): the core course, the deep
dives, what learners take home, and the workshop plans. The time model (tools/chapter_times.py), the plans
(tools/plans.py), the maps in the README and in chapter 00, and the tests all read it through this module.

**Where a cell lies.** A chapter is read into *parts*: a code cell, or the text of a markdown cell from one heading
to the next (a heading may open a section anywhere in a markdown cell; a heading inside a fenced code block is not
one). Each part has a place:

- ``title``: the title cell, and anything before the first ``##`` heading;
- ``deep dive``: a section whose heading starts with ``Deep dive:``, up to the next heading of the same or a higher
  level;
- ``checklist``: the ``## Checklist`` section;
- ``core``: everything else. A chapter's *core path* is its title and core parts.

The tools read the English chapters; a Spanish twin has the same cells in the same order (tools/tracks.py), so a
path's cells are the same in both tracks, and a Spanish heading is found in the twin's cell at the same place.

**Paths.** A path is a list of cells run in a fresh kernel, in both tracks. A chapter's core path is all its title
and core cells. Any other path is the title cell, the setup cell (the chapter's first code cell, which sets the
language) and the cells of some sections: one deep dive, the checklist, or the ``##`` sections a plan slot names.
``all_paths()`` lists every path the workbook offers.
"""

from __future__ import annotations

import functools
import json
import pathlib
import re
import tomllib
from dataclasses import dataclass
from typing import Literal

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
COURSE_FILE = NOTEBOOKS / "course.toml"
FOLDERS = {"en": NOTEBOOKS, "es": NOTEBOOKS / "es"}
CHAPTER_NAME = re.compile(r"^(\d\d)_[a-z0-9_]+\.ipynb$")
HEADING = re.compile(r"^(#{1,6}) (.*)$")
FENCE = re.compile(r"^\s*(```|~~~)")

DEEP_DIVE_PREFIX = {"en": "Deep dive:", "es": "A fondo:"}
CHECKLIST = re.compile(r"^Checklist\b")

Place = Literal["title", "core", "deep dive", "checklist"]
ON_CORE_PATH: frozenset[str] = frozenset({"title", "core"})


def _text(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


# --- the course file ------------------------------------------------------------------------------------------------

@functools.cache
def course() -> dict:
    """notebooks/course.toml, parsed (see its header for what each key means)."""
    with COURSE_FILE.open("rb") as handle:
        return tomllib.load(handle)


def declared_chapters() -> list[dict]:
    """The course file's chapters, in its order: the core course first, then the chapters that are deep dives."""
    return course()["chapter"]


def core_course() -> list[str]:
    """The chapters of the core course, in order (their core paths are the core course)."""
    return [entry["number"] for entry in declared_chapters() if entry.get("core", True)]


def declared(number: str) -> dict:
    """One chapter's entry in the course file. Raises KeyError naming a chapter the file does not declare."""
    for entry in declared_chapters():
        if entry["number"] == number:
            return entry
    raise KeyError(f"notebooks/course.toml declares no chapter {number!r}")


# --- chapters and their parts ---------------------------------------------------------------------------------------

def chapter_files(track: str = "en") -> dict[str, pathlib.Path]:
    """Every chapter notebook of a track, by its number."""
    return {path.name[:2]: path for path in sorted(FOLDERS[track].glob("*.ipynb")) if CHAPTER_NAME.match(path.name)}


@functools.cache
def _cells(path: pathlib.Path, stamp: float) -> tuple[dict, ...]:
    return tuple(json.loads(path.read_text(encoding="utf-8"))["cells"])


def cells_of(number: str, track: str = "en") -> list[dict]:
    """The cells of a chapter notebook (read once per change of the file)."""
    path = chapter_files(track)[number]
    return list(_cells(path, path.stat().st_mtime))


def outside_core(heading: str) -> Place | None:
    """The place a heading opens outside the core path, or None for a heading on it.

    >>> outside_core("Deep dive: what 12 hex characters hold"), outside_core("Checklist: back to the source")
    ('deep dive', 'checklist')
    >>> outside_core("The hash layer goes first") is None
    True
    """
    if CHECKLIST.match(heading):
        return "checklist"
    if heading.startswith(DEEP_DIVE_PREFIX["en"]):
        return "deep dive"
    return None


@dataclass(frozen=True)
class Part:
    """A code cell, or the text of a markdown cell from one heading to the next, and where it lies: ``headings`` are
    the open headings, outermost first (the title's first), ``place`` the part of the chapter it belongs to."""

    cell: int
    kind: Literal["markdown", "code"]
    text: str
    headings: tuple[str, ...]
    place: Place

    @property
    def section(self) -> str:
        """The ``##`` section it lies in, or the title for a part before the first ``##`` heading."""
        return self.headings[1] if len(self.headings) > 1 else (self.headings[0] if self.headings else "")


def _pieces(text: str) -> list[str]:
    """A markdown cell's text cut before each heading line (outside fenced code)."""
    pieces, current, fenced = [], [], False
    for line in text.splitlines(keepends=True):
        if FENCE.match(line):
            fenced = not fenced
        if not fenced and HEADING.match(line.rstrip("\n")) and current:
            pieces.append("".join(current))
            current = []
        current.append(line)
    if current or not pieces:
        pieces.append("".join(current))
    return pieces


def parts(cells: list[dict]) -> list[Part]:
    """A chapter's parts, in order (see the module's docstring)."""
    found: list[Part] = []
    open_headings: list[tuple[int, str]] = []
    outside: tuple[int, Place] | None = None   # the level and place of the section outside the core we are in

    def place() -> Place:
        if outside is not None:
            return outside[1]
        return "core" if any(level > 1 for level, _ in open_headings) else "title"

    for index, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            kind: Literal["markdown", "code"] = "code"
            found.append(Part(index, kind, _text(cell), tuple(t for _, t in open_headings), place()))
            continue
        for piece in _pieces(_text(cell)):
            heading = HEADING.match(piece.split("\n", 1)[0])
            if heading:
                level, title = len(heading.group(1)), heading.group(2).strip()
                open_headings = [(lvl, name) for lvl, name in open_headings if lvl < level] + [(level, title)]
                if outside is not None and level <= outside[0]:
                    outside = None
                opened = outside_core(title) if level > 1 else None
                if outside is None and opened is not None:
                    outside = (level, opened)
            found.append(Part(index, "markdown", piece, tuple(t for _, t in open_headings), place()))
    return found


@dataclass(frozen=True)
class Section:
    """A ``##`` section of a chapter (or its title, ``level`` 1), or a section outside the core path at a deeper
    level: its heading, its place, and the cells that lie in it, wholly or in part."""

    heading: str
    level: int
    place: Place
    cells: tuple[int, ...]


def sections(cells: list[dict]) -> list[Section]:
    """The title, every ``##`` section, and every deeper section that leaves the core path inside a core ``##``
    section (``level`` 3 stands for any deeper level), in order."""
    found: dict[tuple[int, str], tuple[Place, list[int]]] = {}

    def add(key: tuple[int, str], part: Part) -> None:
        place, cells_in = found.setdefault(key, (part.place, []))
        if part.cell not in cells_in:
            cells_in.append(part.cell)

    for part in parts(cells):
        if len(part.headings) <= 1:
            add((1, part.headings[0] if part.headings else ""), part)
            continue
        add((2, part.section), part)
        if part.place == "deep dive" and found[(2, part.section)][0] == "core":
            add((3, next(h for h in part.headings[2:] if outside_core(h))), part)
    return [Section(heading, level, place, tuple(cells_in)) for (level, heading), (place, cells_in) in found.items()]


def setup_cell(cells: list[dict]) -> int:
    """The chapter's setup cell: its first code cell. Raises ValueError for a chapter without code."""
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "code":
            return index
    raise ValueError("a chapter needs a code cell that sets its language")


def core_path(cells: list[dict]) -> tuple[int, ...]:
    """The cells of the chapter's core path: every cell with a part in its title or on its core."""
    return tuple(sorted({part.cell for part in parts(cells) if part.place in ON_CORE_PATH}))


def section_path(cells: list[dict], chosen: list[Section]) -> tuple[int, ...]:
    """The title cell, the setup cell and the cells of ``chosen`` sections, in order."""
    return tuple(sorted({0, setup_cell(cells)} | {cell for section in chosen for cell in section.cells}))


def named_sections(number: str, headings: tuple[str, ...] | list[str]) -> list[Section]:
    """The ``##`` sections of chapter ``number`` (English) with these headings. Raises ValueError naming a heading
    the chapter does not have."""
    by_heading = {s.heading: s for s in sections(cells_of(number)) if s.level == 2}
    missing = [heading for heading in headings if heading not in by_heading]
    if missing:
        raise ValueError(f"chapter {number} has no section headed {missing[0]!r}")
    return [by_heading[heading] for heading in headings]


def deep_dives(cells: list[dict]) -> list[Section]:
    """The chapter's sections outside its core path, other than the checklist, in order."""
    return [s for s in sections(cells) if s.place == "deep dive"]


def checklists(cells: list[dict]) -> list[Section]:
    return [s for s in sections(cells) if s.place == "checklist"]


def heading_in(track: str, number: str, heading: str) -> str:
    """The twin's heading of ``track`` for chapter ``number``'s English heading ``heading`` (its text, without the
    #s): the heading at the same place in the same cell. Raises ValueError when English has no such heading."""
    english = cells_of(number)
    for index, cell in enumerate(english):
        if cell["cell_type"] != "markdown":
            continue
        titles = [HEADING.match(p.split("\n", 1)[0]) for p in _pieces(_text(cell))]
        titles = [m.group(2).strip() for m in titles if m]
        if heading in titles:
            if track == "en":
                return heading
            there = [HEADING.match(p.split("\n", 1)[0]) for p in _pieces(_text(cells_of(number, track)[index]))]
            return [m.group(2).strip() for m in there if m][titles.index(heading)]
    raise ValueError(f"chapter {number} has no heading {heading!r}")


# --- every path the workbook offers -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Path:
    """A list of cells of one chapter that a learner or a room runs in a fresh kernel, and what offers it."""

    name: str
    chapter: str
    cells: tuple[int, ...]
    slug: str = ""   # a short name for a test id: "core", "deep-dive-2", "checklist", "3-hour-slot-8"


def chapter_paths(number: str) -> list[Path]:
    """A chapter's own paths: its core path, each deep dive alone, its checklist alone."""
    cells = cells_of(number)
    found = [Path(f"chapter {number}'s core path", number, core_path(cells), "core")]
    found += [Path(f"chapter {number}'s deep dive {d.heading!r}", number, section_path(cells, [d]), f"deep-dive-{n}")
              for n, d in enumerate(deep_dives(cells), start=1)]
    found += [Path(f"chapter {number}'s checklist", number, section_path(cells, [c]), "checklist")
              for c in checklists(cells)]
    return found


def plan_paths() -> list[Path]:
    """Each slot of each workshop plan that runs a chapter: its core path, or the title, setup and sections it
    names."""
    found = []
    for plan in course()["plan"]:
        for position, slot in enumerate(plan["slot"], start=1):
            number = slot.get("chapter")
            if number is None:
                continue
            named = slot.get("sections", [])
            cells = cells_of(number)
            chosen = section_path(cells, named_sections(number, named)) if named else core_path(cells)
            what = f"sections {'; '.join(named)}" if named else "core path"
            found.append(Path(f"the {plan['name']} plan's slot {position} (chapter {number}, {what})", number, chosen,
                              f"{plan['name']}-slot-{position}"))
    return found


def all_paths() -> list[Path]:
    """Every path: the core course (each of its chapters' core path), every chapter's own paths (the deep-dive
    chapters' too), and every plan slot's."""
    found = [Path(f"the core course, chapter {number}", number, core_path(cells_of(number)), "core")
             for number in core_course()]
    for number in chapter_files():
        found += chapter_paths(number)
    return found + plan_paths()
