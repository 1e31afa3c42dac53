"""How long each chapter takes a learner, computed from the chapter itself, and every place that states it.

The model (this workbook's own estimate, from the rates below):

- prose: 150 words a minute of technical prose (markdown cells, headings included);
- a demonstration code cell: 0.75 minute to read, run and look at its output (the cell that only sets the
  chapter's language, ``set_language("en")``, is setup and costs nothing);
- a widget: 4 minutes to play with (on top of its cell);
- an exercise: 3 minutes for a value or a prediction, 7.5 for a function; the cells under an exercise heading are
  part of the exercise, not demonstrations.

A chapter marks a section as optional with a heading that ends in "(optional)"; the section runs to the next
heading of the same or a higher level. The chapter's *core path* leaves its optional sections out.

Teaching and exercise minutes are each rounded up to 5, for the whole chapter and for its core path. Every place that states a time reads it from here:
the chapter's title cell, the README's map, chapter 00's map and the instructor guide's two plans, and in the
Spanish track each twin's title cell, its chapter 00's map and the map in docs/es/README.md (a twin states its
English chapter's times).

    python tools/chapter_times.py           # print the table
    python tools/chapter_times.py --write   # rewrite the stated times where they differ
    python tools/chapter_times.py --check   # exit 1 and name each place that differs
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import re
import sys
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
CHAPTER_NAME = re.compile(r"^(\d\d)_[a-z0-9_]+\.ipynb$")

WORDS_PER_MINUTE = 150
CODE_CELL_MINUTES = 0.75
WIDGET_MINUTES = 4
EXERCISE_MINUTES = {"value": 3, "prediction": 3, "function": 7.5}

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
HEADING = re.compile(r"^(#{1,6}) (.*)$")
EXERCISE_HEADING = re.compile(r"^### Exercise (\d+\.\d+):")
#: The time line of a chapter's title cell, in each track's words; a Spanish twin states its English chapter's
#: times (the twins have the same cells and exercises, so the plans apply to both tracks).
TIME_LINES = {
    "en": (re.compile(r"Time: \d+ min \(teaching \d+, exercises \d+; core path \d+\)"),
           "Time: {total} min (teaching {teaching}, exercises {exercises}; core path {core})"),
    "es": (re.compile(r"Tiempo: \d+ min \(enseñanza \d+, ejercicios \d+; ruta básica \d+\)"),
           "Tiempo: {total} min (enseñanza {teaching}, ejercicios {exercises}; ruta básica {core})"),
}
SPANISH = NOTEBOOKS / "es"


@dataclass(frozen=True)
class ChapterTime:
    """One chapter's minutes: teaching and exercises (each rounded up to 5), and the core path."""

    number: str
    teaching: int
    exercises: int
    core: int

    @property
    def total(self) -> int:
        return self.teaching + self.exercises

    def title_line(self, track: str = "en") -> str:
        return TIME_LINES[track][1].format(total=self.total, teaching=self.teaching, exercises=self.exercises,
                                           core=self.core)


def round_up(minutes: float) -> int:
    """Minutes rounded up to a multiple of 5 (nothing stays nothing)."""
    return 5 * math.ceil(minutes / 5 - 1e-9)


def _text(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _has_widget(cell: dict) -> bool:
    return any(WIDGET_MIME in output.get("data", {}) for output in cell.get("outputs", []))


def _sets_language_only(code: str) -> bool:
    """True for the setup cell that only picks the chapter's language (import, call and comments)."""
    lines = [line.split("#")[0].strip() for line in code.splitlines()]
    return all(not line or line == "from loopkit import set_language" or line.startswith("set_language(")
               for line in lines)


def exercise_kinds() -> dict[str, str]:
    """The kind of every exercise, by id, from loopkit's exercise modules."""
    sys.path.insert(0, str(ROOT))
    from loopkit.teaching.exercises import all_questions

    return {qid: question.kind for qid, question in all_questions().items()}


def cell_costs(cells: list[dict], kinds: dict[str, str]) -> list[tuple[str, float, bool]]:
    """Each cell's share of the chapter: (what it counts as, minutes, whether it lies in an optional section)."""
    costs = []
    optional_level = None   # the heading level of the optional section we are in, if any
    in_exercise = False
    for cell in cells:
        text = _text(cell)
        first_line = text.split("\n", 1)[0]
        heading = HEADING.match(first_line) if cell["cell_type"] == "markdown" else None
        if heading:
            level = len(heading.group(1))
            if optional_level is not None and level <= optional_level:
                optional_level = None
            if optional_level is None and heading.group(2).rstrip().endswith("(optional)"):
                optional_level = level
            exercise = EXERCISE_HEADING.match(text)
            in_exercise = bool(exercise)
            if exercise:
                qid = exercise.group(1)
                if qid not in kinds:
                    raise ValueError(f"exercise {qid} has a heading but no question in loopkit.teaching.exercises")
                costs.append(("exercises", EXERCISE_MINUTES[kinds[qid]], optional_level is not None))
        optional = optional_level is not None
        if cell["cell_type"] == "markdown":
            costs.append(("teaching", len(text.split()) / WORDS_PER_MINUTE, optional))
        elif text.strip() and not in_exercise and not _sets_language_only(text):
            costs.append(("teaching", CODE_CELL_MINUTES, optional))
        if _has_widget(cell):
            costs.append(("teaching", WIDGET_MINUTES, optional))
    return costs


def chapter_time(path: pathlib.Path, kinds: dict[str, str]) -> ChapterTime:
    """The model's minutes for one chapter notebook."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    costs = cell_costs(cells, kinds)
    teaching = sum(minutes for what, minutes, _ in costs if what == "teaching")
    exercises = sum(minutes for what, minutes, _ in costs if what == "exercises")
    core_teaching = sum(minutes for what, minutes, optional in costs if what == "teaching" and not optional)
    core_exercises = sum(minutes for what, minutes, optional in costs if what == "exercises" and not optional)
    core = round_up(core_teaching) + round_up(core_exercises)
    return ChapterTime(path.name[:2], round_up(teaching), round_up(exercises), core)


def chapters(folder: pathlib.Path = NOTEBOOKS) -> list[pathlib.Path]:
    return sorted(p for p in folder.glob("*.ipynb") if CHAPTER_NAME.match(p.name))


def all_times() -> dict[str, ChapterTime]:
    kinds = exercise_kinds()
    return {path.name[:2]: chapter_time(path, kinds) for path in chapters()}


# --- the places that state the times -------------------------------------------------------------------------

MAP_ROW = re.compile(r"^(\| (\d\d) \| \[[^\]]+\]\([^)]+\) \| .+? \| )(\d+) min( \| )(\d+) min \|$", re.M)


def _fix_map(text: str, times: dict[str, ChapterTime]) -> str:
    """A chapter map's rows with each chapter's total and core minutes."""
    def row(match: re.Match) -> str:
        time = times[match.group(2)]
        return f"{match.group(1)}{time.total} min{match.group(4)}{time.core} min |"

    return MAP_ROW.sub(row, text)


def _fix_title(text: str, time: ChapterTime, track: str = "en") -> str:
    return TIME_LINES[track][0].sub(time.title_line(track), text, count=1)


def _rewrite_notebook(path: pathlib.Path, change) -> bool:
    """Apply ``change`` to the markdown cells of a notebook; write it back if anything changed."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    changed = False
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        old = _text(cell)
        new = change(old)
        if new != old:
            cell["source"] = new.splitlines(keepends=True)
            changed = True
    if changed:
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return changed


def stale_places(times: dict[str, ChapterTime], write: bool = False) -> list[str]:
    """Every place whose stated time differs from the model (rewritten when ``write``)."""
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    from plans import render_plans  # tools/plans.py: the instructor plans, built on these times

    stale = []
    for track, folder in (("en", NOTEBOOKS), ("es", SPANISH)):
        for path in chapters(folder):
            time = times[path.name[:2]]
            first = json.loads(path.read_text(encoding="utf-8"))["cells"][0]
            if _fix_title(_text(first), time, track) != _text(first):
                stale.append(f"{path.relative_to(NOTEBOOKS)}: title cell")
                if write:
                    _rewrite_notebook(path, lambda text, time=time, track=track: _fix_title(text, time, track)
                                      if text.startswith("# ") else text)
    for start in (NOTEBOOKS / "00_start_here.ipynb", *chapters(SPANISH)[:1]):
        if any(_fix_map(_text(c), times) != _text(c) for c in json.loads(start.read_text(encoding="utf-8"))["cells"]):
            stale.append(f"{start.relative_to(NOTEBOOKS)}: chapter map")
            if write:
                _rewrite_notebook(start, lambda text: _fix_map(text, times))
    for page in (ROOT / "README.md", ROOT / "docs" / "es" / "README.md"):
        if not page.exists():
            continue
        stated = page.read_text(encoding="utf-8")
        if _fix_map(stated, times) != stated:
            stale.append(f"{page.relative_to(ROOT)}: chapter map")
            if write:
                page.write_text(_fix_map(stated, times), encoding="utf-8")
    guide = ROOT / "docs" / "instructor.md"
    stated = guide.read_text(encoding="utf-8")
    try:
        rendered = render_plans(stated, times)
    except ValueError as problem:   # a plan that overruns, or teaches a chapter without its prerequisites
        return stale + [f"docs/instructor.md: cannot render the plans: {problem}"]
    if rendered != stated:
        stale.append("docs/instructor.md: plans")
        if write:
            guide.write_text(rendered, encoding="utf-8")
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite the stated times where they differ")
    parser.add_argument("--check", action="store_true", help="exit 1 when a stated time differs from the model")
    args = parser.parse_args(argv)
    times = all_times()
    for time in times.values():
        print(f"{time.number}  {time.title_line()}")
    print(f"all chapters: {sum(t.total for t in times.values())} min, core paths {sum(t.core for t in times.values())}")
    stale = stale_places(times, write=args.write)
    for place in stale:
        print(("rewrote " if args.write else "differs: ") + place)
    return 1 if (stale and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
