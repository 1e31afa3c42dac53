"""How long each chapter takes a learner, computed from the chapter itself, and every place that states it.

The model is this workbook's own estimate. Each term has a rate, and a reason for it:

- **prose**: 150 words a minute of markdown, headings included. Technical prose read with care runs well below
  the 200-250 words a minute of everyday reading, since a learner rereads the sentence that states a rule.
- **a demonstration cell**: 0.75 minute to read its code (at most 15 lines), run it and take in the first
  ``OUTPUT_LINES_FREE`` (5) lines of what it prints. The cell that only sets the chapter's language
  (``set_language("en")``) is setup and costs nothing.
- **printed output, by its lines**: beyond those 5 lines, 10 lines a minute, since the prose above a cell makes a
  claim and the learner checks each printed line or table row against it (about 6 seconds a line). A table is
  counted by the rows JupyterLab shows (its HTML ``<tr>``), not by its text form, which pandas wraps into column
  blocks; all of one cell's outputs are read as one.
- **printed source code**: 5 lines a minute, every line of it. An output that defines a function or class
  (a line starting with ``def``, ``class`` or ``function``) is code the chapter asks the learner to follow, line
  by line, as a reviewer does; careful code review runs at a few hundred lines an hour, and 300 an hour is
  5 a minute.
- **a widget**: 4 minutes to play with, on top of its cell.
- **an exercise**: 3 minutes for a value or a prediction, 7.5 for a function; the cells under an exercise
  heading are part of the exercise, not demonstrations.
- **the checklist's upstream reading**: each distinct upstream file a closing checklist links costs 2 minutes,
  each issue or pull request 2.5. The checklist names what to find, so a file is searched for a function name,
  not read whole; an issue or PR has no function name to search for, so the learner reads its description or
  review thread in part. A file linked twice (two line anchors) is one file.
- **the first contact with a new idea**: half a minute for each term the glossary (``docs/glossary.md``) says the
  chapter teaches, charged to its core path. Its defining prose is already counted at reading speed; the half
  minute is the pause a new word needs, about one more reading of a short paragraph.

The rates were chosen for the reasons above and then checked against careful per-chapter estimates: the table in
docs/instructor.md ("How long things take"), where a test keeps every stated time within 15% of its estimate.

A chapter marks a section as outside its core path with a heading that starts with "Deep dive:" (or, the older
convention, ends in "(optional)"); the section runs to the next heading of the same or a higher level. The chapter's
*core path* leaves those sections out.

A chapter states its total rounded up to 5 minutes, and its exercises rounded up to 5; teaching is the rest. Its
core path is rounded up to 5 too. Rounding once keeps each stated time within 5 minutes of the model.

**Live delivery.** A workshop plan (tools/plans.py) runs a chapter's core path live. Code cells and widgets are
typed along or run along with the instructor, which is slower than running them alone: ``LIVE_FACTOR`` (1.3)
multiplies them, the figure issue 24 gives from Software Carpentry instructors' reports (this workbook has not
measured it). Prose is spoken at about its reading pace, exercises keep their minutes, and each plan's slack
(tools/plans.py) absorbs questions and a learner who is stuck.

Every place that states a time reads it from here: the chapter's title cell, the README's map, chapter 00's map,
the instructor guide's plans and estimate table, and in the Spanish track each twin's title cell, its chapter
00's map and the map in docs/es/README.md (a twin states its English chapter's times).

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
from typing import Literal

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
GLOSSARY = ROOT / "docs" / "glossary.md"
CHAPTER_NAME = re.compile(r"^(\d\d)_[a-z0-9_]+\.ipynb$")

WORDS_PER_MINUTE = 150
CODE_CELL_MINUTES = 0.75
OUTPUT_LINES_FREE = 5
OUTPUT_LINES_PER_MINUTE = 10
SOURCE_LINES_PER_MINUTE = 5
WIDGET_MINUTES = 4
EXERCISE_MINUTES = {"value": 3, "prediction": 3, "function": 7.5}
UPSTREAM_FILE_MINUTES = 2
UPSTREAM_THREAD_MINUTES = 2.5
NEW_IDEA_MINUTES = 0.5
LIVE_FACTOR = 1.3
#: The terms a room types along or runs along with the instructor: the ones ``LIVE_FACTOR`` slows.
LIVE_TERMS = frozenset({"code", "widget"})

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
HEADING = re.compile(r"^(#{1,6}) (.*)$")
EXERCISE_HEADING = re.compile(r"^### Exercise (\d+\.\d+):")
CHECKLIST_HEADING = re.compile(r"^## Checklist\b.*$", re.M)
#: A link to a file, an issue or a pull request on GitHub; the line anchor is left out, so two anchors in one file
#: are one file.
UPSTREAM_LINK = re.compile(r"\]\((https://github\.com/[^/\s)]+/[^/\s)]+/(blob|tree|issues|pull)/[^)#\s]+)")
#: A printed line that opens a definition: the output is source code.
DEFINITION = re.compile(r"^\s*(?:async def|def|class|function) ", re.M)
#: A glossary entry: its bold term, and the chapters in brackets (the first is where the term is taught).
GLOSSARY_ENTRY = re.compile(r"^\*\*(.+?)\*\*[^(\n]*\((\d\d)\b", re.M)
#: The time line of a chapter's title cell, in each track's words; a Spanish twin states its English chapter's
#: times (the twins have the same cells and exercises, so the plans apply to both tracks).
TIME_LINES = {
    "en": (re.compile(r"Time: \d+ min \(teaching \d+, exercises \d+; core path \d+\)"),
           "Time: {total} min (teaching {teaching}, exercises {exercises}; core path {core})"),
    "es": (re.compile(r"Tiempo: \d+ min \(enseñanza \d+, ejercicios \d+; ruta básica \d+\)"),
           "Tiempo: {total} min (enseñanza {teaching}, ejercicios {exercises}; ruta básica {core})"),
}
SPANISH = NOTEBOOKS / "es"

Term = Literal["prose", "code", "output", "source", "widget", "exercise", "upstream", "new idea"]


@dataclass(frozen=True)
class Cost:
    """One term of the model, for one cell or one idea: its minutes, and where in the chapter it lies.

    ``headings`` are the headings of the sections the cell lies in, outermost first, so that a plan can take one
    section of a chapter (tools/plans.py).
    """

    term: Term
    minutes: float
    optional: bool
    headings: tuple[str, ...] = ()

    @property
    def part(self) -> Literal["teaching", "exercises"]:
        return "exercises" if self.term == "exercise" else "teaching"

    @property
    def live_minutes(self) -> float:
        """The minutes this term takes when a room does it along with the instructor."""
        return self.minutes * (LIVE_FACTOR if self.term in LIVE_TERMS else 1)


@dataclass(frozen=True)
class Section:
    """One ``##`` section of a chapter (or its title cell, with the chapter's new ideas), and its live minutes."""

    heading: str
    optional: bool
    live: float


@dataclass(frozen=True)
class ChapterTime:
    """One chapter's stated minutes: teaching and exercises (they add up to the total), its core path, and its core
    path delivered live (what a workshop plan gives it). ``sections`` are its title and ``##`` sections in order,
    for a plan that teaches only some of them."""

    number: str
    teaching: int
    exercises: int
    core: int
    live: int
    sections: tuple[Section, ...] = ()

    def live_minutes(self, headings: tuple[str, ...]) -> int:
        """The live minutes of the title cell and the sections ``headings``, rounded up to 5 (a plan that teaches
        part of a chapter still opens it with its title cell and meets its new ideas).

        Raises ValueError naming a heading the chapter does not have.
        """
        known = {section.heading for section in self.sections}
        missing = [heading for heading in headings if heading not in known]
        if missing:
            raise ValueError(f"chapter {self.number} has no section headed {missing[0]!r}")
        title = self.sections[0].heading
        return round_up(sum(s.live for s in self.sections if s.heading == title or s.heading in headings))

    @property
    def total(self) -> int:
        return self.teaching + self.exercises

    def title_line(self, track: str = "en") -> str:
        return TIME_LINES[track][1].format(total=self.total, teaching=self.teaching, exercises=self.exercises,
                                           core=self.core)


def round_up(minutes: float) -> int:
    """Minutes rounded up to a multiple of 5 (nothing stays nothing)."""
    return 5 * math.ceil(minutes / 5 - 1e-9)


def rounded(number: str, *, teaching: float, exercises: float, core: float, live: float,
            sections: tuple[Section, ...] = ()) -> ChapterTime:
    """The stated times from the model's minutes: the total and the exercises rounded up, teaching the rest.

    >>> rounded("05", teaching=44.2, exercises=16.5, core=40.1, live=47.3).title_line()
    'Time: 65 min (teaching 45, exercises 20; core path 45)'
    """
    total, exercise_minutes = round_up(teaching + exercises), round_up(exercises)
    return ChapterTime(number, total - exercise_minutes, exercise_minutes, round_up(core), round_up(live), sections)


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


def _output_text(output: dict) -> str:
    data = output.get("data", {})
    text = output.get("text", data.get("text/plain", ""))
    return "".join(text) if isinstance(text, list) else text


def printed_lines(cell: dict) -> tuple[int, int]:
    """What a code cell's outputs give the learner to read: (lines of output, lines of printed source code).

    A table counts the rows JupyterLab shows; a widget or a figure counts nothing here (a widget has its own term).
    """
    output_lines = source_lines = 0
    for output in cell.get("outputs", []):
        data = output.get("data", {})
        html = data.get("text/html", "")
        html = "".join(html) if isinstance(html, list) else html
        if WIDGET_MIME in data or "image/png" in data:
            continue
        if "<table" in html:
            output_lines += html.count("<tr")
            continue
        text = _output_text(output)
        if DEFINITION.search(text):
            source_lines += len(text.splitlines())
        else:
            output_lines += len(text.splitlines())
    return output_lines, source_lines


def upstream_links(text: str) -> set[str]:
    """The upstream files, issues and pull requests a checklist's text links, each once (without line anchors)."""
    return {match.group(1) for match in UPSTREAM_LINK.finditer(text)}


def _upstream_minutes(link: str) -> float:
    return UPSTREAM_THREAD_MINUTES if re.search(r"/(issues|pull)/", link) else UPSTREAM_FILE_MINUTES


def exercise_kinds() -> dict[str, str]:
    """The kind of every exercise, by id, from loopkit's exercise modules."""
    sys.path.insert(0, str(ROOT))
    from loopkit.teaching.exercises import all_questions

    return {qid: question.kind for qid, question in all_questions().items()}


def taught_ideas(glossary: str) -> dict[str, list[str]]:
    """The glossary's terms by the chapter that teaches them (the first chapter in each entry's brackets).

    >>> taught_ideas("**Bucket**, read bucket (02). Lines 1-200.")
    {'02': ['Bucket']}
    """
    ideas: dict[str, list[str]] = {}
    for match in GLOSSARY_ENTRY.finditer(glossary):
        ideas.setdefault(match.group(2), []).append(match.group(1))
    return ideas


def outside_core(title: str) -> bool:
    """True for a heading that opens a section outside the chapter's core path.

    >>> outside_core("Deep dive: what 12 hex characters hold"), outside_core("Practice (optional)")
    (True, True)
    >>> outside_core("The hash layer goes first")
    False
    """
    return title.startswith("Deep dive:") or title.endswith("(optional)")


def cell_costs(cells: list[dict], kinds: dict[str, str]) -> list[Cost]:
    """Each cell's terms of the model, in the order of the cells."""
    costs = []
    optional_level = None   # the heading level of the optional section we are in, if any
    in_exercise = in_checklist = False
    open_headings: list[tuple[int, str]] = []
    linked: set[str] = set()   # the checklist's links counted so far: a file linked twice is read once
    for cell in cells:
        text = _text(cell)
        first_line = text.split("\n", 1)[0]
        heading = HEADING.match(first_line) if cell["cell_type"] == "markdown" else None
        if heading:
            level, title = len(heading.group(1)), heading.group(2).rstrip()
            open_headings = [(lvl, name) for lvl, name in open_headings if lvl < level] + [(level, title)]
            if optional_level is not None and level <= optional_level:
                optional_level = None
            if optional_level is None and outside_core(title):
                optional_level = level
            if level <= 2:
                in_checklist = False
            exercise = EXERCISE_HEADING.match(text)
            in_exercise = bool(exercise)
        else:
            exercise = None
        optional = optional_level is not None
        where = tuple(name for _, name in open_headings)

        def cost(term: Term, minutes: float) -> None:
            costs.append(Cost(term, minutes, optional, where))

        if exercise:
            qid = exercise.group(1)
            if qid not in kinds:
                raise ValueError(f"exercise {qid} has a heading but no question in loopkit.teaching.exercises")
            cost("exercise", EXERCISE_MINUTES[kinds[qid]])
        if cell["cell_type"] == "markdown":
            cost("prose", len(text.split()) / WORDS_PER_MINUTE)
            checklist = CHECKLIST_HEADING.search(text)
            if checklist:
                in_checklist = True
                if checklist.group(0).rstrip().endswith("(optional)"):
                    optional = True   # a checklist that opens mid-cell is optional by its own heading
            if in_checklist:
                links = upstream_links(text[checklist.start():] if checklist else text) - linked
                linked |= links
                for link in sorted(links):
                    costs.append(Cost("upstream", _upstream_minutes(link), optional, where))
        elif text.strip() and not in_exercise and not _sets_language_only(text):
            cost("code", CODE_CELL_MINUTES)
            output_lines, source_lines = printed_lines(cell)
            if output_lines > OUTPUT_LINES_FREE:
                cost("output", (output_lines - OUTPUT_LINES_FREE) / OUTPUT_LINES_PER_MINUTE)
            if source_lines:
                cost("source", source_lines / SOURCE_LINES_PER_MINUTE)
        if _has_widget(cell):
            cost("widget", WIDGET_MINUTES)
    return costs


def chapter_costs(cells: list[dict], kinds: dict[str, str], ideas: list[str]) -> list[Cost]:
    """The chapter's terms: its cells', and a first contact with each idea it teaches (on its core path)."""
    title = _text(cells[0]).split("\n", 1)[0].lstrip("# ").rstrip() if cells else ""
    return cell_costs(cells, kinds) + [Cost("new idea", NEW_IDEA_MINUTES, False, (title,)) for _ in ideas]


def time_of(number: str, costs: list[Cost]) -> ChapterTime:
    """A chapter's stated times from its terms."""
    core = [cost for cost in costs if not cost.optional]
    return rounded(number, teaching=sum(c.minutes for c in costs if c.part == "teaching"),
                   exercises=sum(c.minutes for c in costs if c.part == "exercises"),
                   core=sum(c.minutes for c in core), live=sum(c.live_minutes for c in core),
                   sections=sections_of(costs))


def sections_of(costs: list[Cost]) -> tuple[Section, ...]:
    """The chapter's title and ``##`` sections, in order, each with its live minutes."""
    found: dict[str, list] = {}
    for cost in costs:
        heading = cost.headings[1] if len(cost.headings) > 1 else (cost.headings[0] if cost.headings else "")
        entry = found.setdefault(heading, [cost.optional, 0.0])
        entry[1] += cost.live_minutes
    return tuple(Section(heading, optional, live) for heading, (optional, live) in found.items())


def costs_of(path: pathlib.Path, kinds: dict[str, str], ideas: dict[str, list[str]]) -> list[Cost]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return chapter_costs(cells, kinds, ideas.get(path.name[:2], []))


def chapter_time(path: pathlib.Path, kinds: dict[str, str], ideas: dict[str, list[str]] | None = None) -> ChapterTime:
    """The model's minutes for one chapter notebook."""
    if ideas is None:
        ideas = taught_ideas(GLOSSARY.read_text(encoding="utf-8"))
    return time_of(path.name[:2], costs_of(path, kinds, ideas))


def chapters(folder: pathlib.Path = NOTEBOOKS) -> list[pathlib.Path]:
    return sorted(p for p in folder.glob("*.ipynb") if CHAPTER_NAME.match(p.name))


def all_times() -> dict[str, ChapterTime]:
    kinds = exercise_kinds()
    ideas = taught_ideas(GLOSSARY.read_text(encoding="utf-8"))
    return {path.name[:2]: chapter_time(path, kinds, ideas) for path in chapters()}


# --- the places that state the times -------------------------------------------------------------------------

MAP_ROW = re.compile(r"^(\| (\d\d) \| \[[^\]]+\]\([^)]+\) \| .+? \| )(\d+) min( \| )(\d+) min \|$", re.M)


def _fix_map(text: str, times: dict[str, ChapterTime]) -> str:
    """A chapter map's rows with each chapter's total and core minutes."""
    def row(match: re.Match) -> str:
        time = times[match.group(2)]
        return f"{match.group(1)}{time.total} min{match.group(4)}{time.core} min |"

    return MAP_ROW.sub(row, text)


#: A row of the instructor guide's estimate table: chapter (or "all"), stated minutes, the estimate's range, how.
ESTIMATE_ROW = re.compile(r"^(\| (\d\d|all) \| )(\d+)( min \| (\d+)[–-](\d+) min \| .+ \|)$", re.M)
#: How far a stated time may lie from the middle of its careful estimate.
ESTIMATE_TOLERANCE = 0.15


def estimates(text: str) -> dict[str, tuple[int, int, int]]:
    """The guide's estimate table: chapter (or "all") -> (stated minutes, low estimate, high estimate)."""
    return {m.group(2): (int(m.group(3)), int(m.group(5)), int(m.group(6))) for m in ESTIMATE_ROW.finditer(text)}


def _fix_estimates(text: str, times: dict[str, ChapterTime]) -> str:
    """The estimate table with each row's stated minutes from the model (the estimates themselves are by hand)."""
    def row(match: re.Match) -> str:
        number = match.group(2)
        stated = sum(t.total for t in times.values()) if number == "all" else times[number].total
        return f"{match.group(1)}{stated}{match.group(4)}"

    return ESTIMATE_ROW.sub(row, text)


def _number(minutes: float) -> str:
    return f"{minutes:g}"


def rates_table() -> str:
    """The model's rates as the instructor guide states them (between ``<!-- time-model -->`` markers)."""
    rows = [
        ("reads prose", f"1 per {WORDS_PER_MINUTE} words"),
        (f"runs a demonstration cell (its code, the run, the first {OUTPUT_LINES_FREE} lines it prints)",
         _number(CODE_CELL_MINUTES)),
        (f"reads printed output beyond those {OUTPUT_LINES_FREE} lines", f"1 per {OUTPUT_LINES_PER_MINUTE} lines "
         "or table rows"),
        ("reads printed source code", f"1 per {SOURCE_LINES_PER_MINUTE} lines"),
        ("plays with a widget", _number(WIDGET_MINUTES)),
        ("does an exercise", f"{_number(EXERCISE_MINUTES['value'])} for a value or a prediction, "
         f"{_number(EXERCISE_MINUTES['function'])} for a function"),
        ("follows a closing checklist upstream", f"{_number(UPSTREAM_FILE_MINUTES)} per linked file, "
         f"{_number(UPSTREAM_THREAD_MINUTES)} per linked issue or PR"),
        ("meets a new idea (a term the glossary says the chapter teaches)", f"{_number(NEW_IDEA_MINUTES)} each"),
        ("types a code cell or plays with a widget along with the room (live)", f"× {_number(LIVE_FACTOR)}"),
    ]
    return "\n".join(["| a learner who | minutes |", "|---|---|"] + [f"| {what} | {rate} |" for what, rate in rows])


def _fix_time_model(text: str) -> str:
    return TIME_MODEL_BLOCK.sub(lambda m: f"{m.group(1)}\n{rates_table()}\n{m.group(2)}", text)


TIME_MODEL_BLOCK = re.compile(r"(<!-- time-model -->).*?(<!-- /time-model -->)", re.S)


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
    from plans import GUIDES, render_plans  # tools/plans.py: the instructor plans, built on these times

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
    if not TIME_MODEL_BLOCK.search(stated):
        stale.append("docs/instructor.md: no <!-- time-model --> ... <!-- /time-model --> block")
    for place, fix in (("estimate table", lambda text: _fix_estimates(text, times)), ("time model", _fix_time_model)):
        if fix(stated) != stated:
            stale.append(f"docs/instructor.md: {place}")
            if write:
                stated = fix(stated)
                guide.write_text(stated, encoding="utf-8")
    for language, page in GUIDES.items():
        stated = page.read_text(encoding="utf-8")
        try:
            rendered = render_plans(stated, times, language)
        except ValueError as problem:   # a plan that breaks one of the rules of tools/plans.py
            stale.append(f"{page.relative_to(ROOT)}: cannot render the plans: {problem}")
            continue
        if rendered != stated:
            stale.append(f"{page.relative_to(ROOT)}: plans")
            if write:
                page.write_text(rendered, encoding="utf-8")
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
