"""How long each chapter takes a learner, computed from the chapter itself, and every place that states it.

The model is this workbook's own estimate. Each term has a rate, and a reason for it:

- **prose**: 150 words a minute of markdown, headings included. Technical prose read with care runs well below
  the 200-250 words a minute of everyday reading, since a learner rereads the sentence that states a rule. The
  course map (between ``<!-- course-map -->`` markers, in chapter 00) is looked up, not read, and costs nothing;
  it also states chapter 00's own time, which could otherwise never settle.
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
  chapter teaches, charged where the chapter teaches it (below). Its defining prose is already counted at reading
  speed; the half minute is the pause a new word needs, about one more reading of a short paragraph.

The rates were chosen for the reasons above and then checked against careful per-chapter estimates: the table in
docs/time-model.md, where a test keeps every stated time within 15% of its estimate.

**The core path.** A chapter's *core path* is its title, its setup cell and its core sections; its deep dives (a
section whose heading starts with "Deep dive:", up to the next heading of the same or a higher level) and its
``## Checklist`` are outside it (tools/course.py reads the headings). The **core course** is the core paths of the chapters
notebooks/course.toml lists as core, in its order; their stated core-path minutes add up to at most its ``limit``
(120). Only English chapters are read: a twin states its English chapter's times.

**Where a new idea is charged.** A glossary term costs its half minute in the section of its chapter where the term
first appears after the title cell (its first mention in prose, by any of the words of its bold name, whole-word
at the start and in any case), whether that is on the core path or in a deep dive; a term the chapter never mentions
past its title is charged to the title, on the core path. The glossary names the chapter, the chapter's prose names
the section.

**The minute a cell is reached** (``minute_reached``): the minutes of the chapter's core path from its first cell
up to and including that cell, unrounded, so the learner has run it and read what it shows. Chapter 00 tags the
cells that show the whole game (the detector's warn and stop on a looping agent, and an honest session left alone)
with the course file's ``whole_game.tag``; a test keeps each within ``whole_game.within`` minutes (15).

A chapter states its total rounded up to 5 minutes, and its exercises rounded up to 5; teaching is the rest. Its
core path is rounded up to 5 too. Rounding once keeps each stated time within 5 minutes of the model.

**Live delivery.** A workshop plan (tools/plans.py) runs a chapter's core path live. Code cells and widgets are
typed along or run along with the instructor, which is slower than running them alone: ``LIVE_FACTOR`` (1.3)
multiplies them, the figure issue 24 gives from Software Carpentry instructors' reports (this workbook has not
measured it). Prose is spoken at about its reading pace, exercises keep their minutes, and each plan's slack
(tools/plans.py) absorbs questions and a learner who is stuck.

Every place that states a time reads it from here: the chapter's title cell, the course map (the README's, chapter
00's map cell, and in Spanish docs/es/README.md's and the Spanish chapter 00's, each between ``<!-- course-map -->``
markers: the core course first, then the deep dives), the plans in both instructor guides, and the rates and
estimate table of docs/time-model.md; and in the Spanish track each twin's title cell (it states its English
chapter's times).

    python tools/chapter_times.py           # print the table
    python tools/chapter_times.py --write   # rewrite the stated times where they differ
    python tools/chapter_times.py --check   # exit 1 and name each place that differs
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from dataclasses import dataclass
from typing import Literal

import course
from course import ON_CORE_PATH, Place

ROOT = course.ROOT
NOTEBOOKS = course.NOTEBOOKS
GLOSSARY = ROOT / "docs" / "glossary.md"
#: The page that states the model's rates and its estimate table.
TIME_MODEL_PAGE = ROOT / "docs" / "time-model.md"

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
EXERCISE_HEADING = re.compile(r"^### Exercise (\d+\.\d+):")
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

Term = Literal["prose", "code", "output", "source", "widget", "exercise", "upstream", "new idea"]


@dataclass(frozen=True)
class Cost:
    """One term of the model, for one part of a chapter or one idea: its minutes, and where it lies: the place
    (tools/course.py), the open headings (outermost first) and the cell."""

    term: Term
    minutes: float
    place: Place = "core"
    headings: tuple[str, ...] = ()
    cell: int = 0

    @property
    def on_core_path(self) -> bool:
        return self.place in ON_CORE_PATH

    @property
    def part(self) -> Literal["teaching", "exercises"]:
        return "exercises" if self.term == "exercise" else "teaching"

    @property
    def live_minutes(self) -> float:
        """The minutes this term takes when a room does it along with the instructor."""
        return self.minutes * (LIVE_FACTOR if self.term in LIVE_TERMS else 1)


@dataclass(frozen=True)
class Section:
    """A chapter's title or one of its ``##`` sections: its place and its live minutes (what a plan slot costs)."""

    heading: str
    place: Place
    live: float

    @property
    def on_core_path(self) -> bool:
        return self.place in ON_CORE_PATH


@dataclass(frozen=True)
class ChapterTime:
    """One chapter's stated minutes: teaching and exercises (they add up to the total), its core path, and its core
    path delivered live (what a workshop plan gives it). ``sections`` are its title and ``##`` sections in order,
    for a plan that teaches only some of them; ``deep_dives`` each deep dive's heading and stated minutes."""

    number: str
    teaching: int
    exercises: int
    core: int
    live: int
    sections: tuple[Section, ...] = ()
    deep_dives: tuple[tuple[str, int], ...] = ()

    def live_minutes(self, headings: tuple[str, ...]) -> int:
        """The live minutes of the title cell and the sections ``headings``, rounded up to 5 (a plan that teaches
        part of a chapter still opens it with its title cell).

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
            sections: tuple[Section, ...] = (), deep_dives: tuple[tuple[str, int], ...] = ()) -> ChapterTime:
    """The stated times from the model's minutes: the total and the exercises rounded up, teaching the rest.

    >>> rounded("05", teaching=44.2, exercises=16.5, core=40.1, live=47.3).title_line()
    'Time: 65 min (teaching 45, exercises 20; core path 45)'
    """
    total, exercise_minutes = round_up(teaching + exercises), round_up(exercises)
    return ChapterTime(number, total - exercise_minutes, exercise_minutes, round_up(core), round_up(live), sections,
                       deep_dives)


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


def idea_words(term: str) -> list[str]:
    """The words a glossary term's bold name gives, each of which names it in the prose.

    >>> idea_words("False positive / false negative"), idea_words("`freq_window`"), idea_words("Run, thread")
    (['False positive', 'false negative'], ['freq_window'], ['Run', 'thread'])
    """
    return [word for word in re.split(r"\s*/\s*|,\s*", term.replace("`", "").strip()) if word]


def taught_in(parts: list[course.Part], term: str) -> course.Part:
    """The part of a chapter that teaches ``term``: the first markdown part after the title cell that names it
    (any of its words, whole-word at the start, in any case), or the title's first part when none does."""
    words = re.compile("|".join(rf"(?<!\w){re.escape(word)}" for word in idea_words(term)), re.I)
    for part in parts:
        if part.kind == "markdown" and part.cell > 0 and words.search(part.text):
            return part
    return parts[0]


def cell_costs(cells: list[dict], kinds: dict[str, str]) -> list[Cost]:
    """The model's terms for each part of a chapter (tools/course.py), in order."""
    costs: list[Cost] = []
    in_exercise = False
    linked: set[str] = set()   # the checklist's links counted so far: a file linked twice is read once
    for part in course.parts(cells):
        def cost(term: Term, minutes: float, part: course.Part = part) -> None:
            costs.append(Cost(term, minutes, part.place, part.headings, part.cell))

        cell = cells[part.cell]
        if part.kind == "markdown":
            if course.HEADING.match(part.text.split("\n", 1)[0]):
                exercise = EXERCISE_HEADING.match(part.text)
                in_exercise = bool(exercise)
                if exercise:
                    qid = exercise.group(1)
                    if qid not in kinds:
                        raise ValueError(f"exercise {qid} has a heading but no question in loopkit.teaching.exercises")
                    cost("exercise", EXERCISE_MINUTES[kinds[qid]])
            cost("prose", len(MAP_BLOCK.sub("", part.text).split()) / WORDS_PER_MINUTE)
            if part.place == "checklist":
                links = upstream_links(part.text) - linked
                linked |= links
                for link in sorted(links):
                    cost("upstream", _upstream_minutes(link))
            continue
        if part.text.strip() and not in_exercise and not _sets_language_only(part.text):
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
    """The chapter's terms: its parts', and a first contact with each idea it teaches, where it teaches it."""
    costs = cell_costs(cells, kinds)
    every = course.parts(cells)
    for term in ideas:
        part = taught_in(every, term)
        costs.append(Cost("new idea", NEW_IDEA_MINUTES, part.place, part.headings, part.cell))
    return costs


def _deep_dive_of(cost: Cost) -> str | None:
    """The outermost deep-dive heading a cost lies under, if any."""
    return next((h for h in cost.headings[1:] if course.outside_core(h) == "deep dive"), None)


def time_of(number: str, costs: list[Cost]) -> ChapterTime:
    """A chapter's stated times from its terms."""
    core = [cost for cost in costs if cost.on_core_path]
    dives: dict[str, float] = {}
    for cost in costs:
        heading = _deep_dive_of(cost)
        if heading is not None and cost.place == "deep dive":
            dives[heading] = dives.get(heading, 0.0) + cost.minutes
    return rounded(number, teaching=sum(c.minutes for c in costs if c.part == "teaching"),
                   exercises=sum(c.minutes for c in costs if c.part == "exercises"),
                   core=sum(c.minutes for c in core), live=sum(c.live_minutes for c in core),
                   sections=sections_of(costs),
                   deep_dives=tuple((heading, round_up(minutes)) for heading, minutes in dives.items()))


def sections_of(costs: list[Cost]) -> tuple[Section, ...]:
    """The chapter's title and ``##`` sections, in order, each with its place (that of its heading) and its live
    minutes."""
    found: dict[str, list] = {}
    for cost in sorted(costs, key=lambda c: c.cell):
        heading = cost.headings[1] if len(cost.headings) > 1 else (cost.headings[0] if cost.headings else "")
        entry = found.setdefault(heading, [cost.place, 0.0])
        entry[1] += cost.live_minutes
    return tuple(Section(heading, place, live) for heading, (place, live) in found.items())


def minute_reached(costs: list[Cost], cell: int) -> float:
    """The minute, along the chapter's core path, at which a learner has run cell ``cell`` and read what it shows:
    the core path's minutes from its first cell up to and including that one, unrounded.

    >>> minute_reached([Cost("prose", 2.0, cell=0), Cost("code", 0.75, cell=1), Cost("code", 5, "deep dive", cell=2),
    ...                 Cost("code", 0.75, cell=3)], 3)
    3.5
    """
    return sum(c.minutes for c in costs if c.on_core_path and c.cell <= cell)


def costs_of(number: str, kinds: dict[str, str], ideas: dict[str, list[str]]) -> list[Cost]:
    return chapter_costs(course.cells_of(number), kinds, ideas.get(number, []))


def chapter_time(number: str, kinds: dict[str, str], ideas: dict[str, list[str]] | None = None) -> ChapterTime:
    """The model's minutes for one chapter (its English notebook)."""
    if ideas is None:
        ideas = taught_ideas(GLOSSARY.read_text(encoding="utf-8"))
    return time_of(number, costs_of(number, kinds, ideas))


def all_times() -> dict[str, ChapterTime]:
    kinds = exercise_kinds()
    ideas = taught_ideas(GLOSSARY.read_text(encoding="utf-8"))
    return {number: chapter_time(number, kinds, ideas) for number in course.chapter_files()}


def core_course_minutes(times: dict[str, ChapterTime]) -> int:
    """The core course's minutes: the sum of its chapters' stated core-path minutes."""
    return sum(times[number].core for number in course.core_course())


def whole_game_minutes() -> dict[int, float]:
    """Each cell the course file's whole-game chapter tags as the whole game, with the minute it is reached along
    that chapter's core path (None for a tagged cell that is not on the core path)."""
    game = course.course()["whole_game"]
    costs = costs_of(game["chapter"], exercise_kinds(), taught_ideas(GLOSSARY.read_text(encoding="utf-8")))
    cells = course.cells_of(game["chapter"])
    on_path = set(course.core_path(cells))
    return {index: (minute_reached(costs, index) if index in on_path else None)
            for index, cell in enumerate(cells) if game["tag"] in cell.get("metadata", {}).get("tags", [])}


# --- the course map: the core course first, then the deep dives ------------------------------------------------

MAP_BLOCK = re.compile(r"(<!-- course-map -->\n).*?(<!-- /course-map -->)", re.S)
MAP_WORDS = {
    "en": {
        "core": "**The core course**, {total} min: the core path of each chapter below, in this order. A chapter's "
                "core path leaves out its deep dives and its closing checklist; its title cell states both times.",
        "core header": "| # | chapter | what you learn | core path | whole chapter |",
        "total": "| | **the core course** | | **{total} min** | |",
        "dives": "**Deep dives**, each on its own: it runs from a fresh kernel, and its first line says what it "
                 "assumes.",
        "dives header": "| # | deep dive | time |",
        "whole": "the whole chapter",
    },
    "es": {
        "core": "**El curso básico**, {total} min: la ruta básica de cada capítulo, en este orden. La ruta básica de "
                "un capítulo deja fuera sus secciones «A fondo» y su lista de comprobación final; la celda del "
                "título da los dos tiempos.",
        "core header": "| # | capítulo | qué aprendes | ruta básica | capítulo entero |",
        "total": "| | **el curso básico** | | **{total} min** | |",
        "dives": "**A fondo**, cada sección por su cuenta: se ejecuta desde un kernel nuevo, y su primera línea dice "
                 "qué supone.",
        "dives header": "| # | a fondo | tiempo |",
        "whole": "el capítulo entero",
    },
}
DEEP_DIVE_LABEL = re.compile(r"^(?:Deep dive|A fondo):\s*")


def anchor(heading: str) -> str:
    """The link fragment JupyterLab gives a heading (its text without markup, spaces as hyphens), with its brackets
    escaped so that a Markdown link can hold it.

    >>> anchor("Deep dive: a `BoundedDict` (later)")
    'Deep-dive:-a-BoundedDict-%28later%29'
    """
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    text = text.replace("`", "").replace("**", "").replace("*", "")
    return text.replace(" ", "-").replace("(", "%28").replace(")", "%29").replace('"', "%22")


def chapter_title(number: str, track: str) -> str:
    """A chapter's title as its title cell gives it, without its number: ``The detector``."""
    first = course._text(course.cells_of(number, track)[0]).split("\n", 1)[0]
    return re.sub(r"^#\s*\d\d\s*·\s*", "", first).strip()


def render_map(times: dict[str, ChapterTime], track: str, base: str) -> str:
    """The course map in ``track``'s words, its links starting with ``base`` (the chapters' folder as seen from the
    page)."""
    words = MAP_WORDS[track]
    files = course.chapter_files(track)

    def link(number: str, fragment: str = "") -> str:
        return base + files[number].name + (f"#{fragment}" if fragment else "")

    total = core_course_minutes(times)
    rows = [words["core"].format(total=total), "", words["core header"], "|---|---|---|---|---|"]
    for number in course.core_course():
        what = course.declared(number)["what"][track]
        rows.append(f"| {number} | [{chapter_title(number, track)}]({link(number)}) | {what} | "
                    f"{times[number].core} min | {times[number].total} min |")
    rows += [words["total"].format(total=total), "", words["dives"], "", words["dives header"], "|---|---|---|"]
    whole = {entry["number"] for entry in course.declared_chapters() if not entry.get("core", True)}
    for number in files:
        title = chapter_title(number, track)
        if number in whole:
            what = course.declared(number)["what"][track]
            rows.append(f"| {number} | [{title}]({link(number)}) ({words['whole']}): {what} | "
                        f"{times[number].total} min |")
        for heading, minutes in times[number].deep_dives:
            there = course.heading_in(track, number, heading)
            label = DEEP_DIVE_LABEL.sub("", there)
            rows.append(f"| {number} | [{title}]({link(number)}): [{label}]({link(number, anchor(there))}) | "
                        f"{minutes} min |")
    return "\n".join(rows)


#: Each page that holds the map: its track, and the chapters' folder as its links see it.
MAP_PAGES = {ROOT / "README.md": ("en", "notebooks/"), ROOT / "docs" / "es" / "README.md": ("es", "../../notebooks/es/")}


def _fix_map(text: str, map_text: str) -> str:
    return MAP_BLOCK.sub(lambda m: f"{m.group(1)}{map_text}\n{m.group(2)}", text)


# --- the estimate table and the rates (docs/time-model.md) ----------------------------------------------------------

#: A row of the estimate table: chapter (or "all"), stated minutes, the estimate's range, how.
ESTIMATE_ROW = re.compile(r"^(\| (\d\d|all) \| )(\d+)( min \| (\d+)[–-](\d+) min \| .+ \|)$", re.M)
#: How far a stated time may lie from the middle of its careful estimate.
ESTIMATE_TOLERANCE = 0.15


def estimates(text: str) -> dict[str, tuple[int, int, int]]:
    """The estimate table: chapter (or "all") -> (stated minutes, low estimate, high estimate)."""
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
    """The model's rates as docs/time-model.md states them (between ``<!-- time-model -->`` markers)."""
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
        ("meets a new idea (a term the glossary says the chapter teaches), where the chapter first names it",
         f"{_number(NEW_IDEA_MINUTES)} each"),
        ("types a code cell or plays with a widget along with the room (live)", f"× {_number(LIVE_FACTOR)}"),
    ]
    return "\n".join(["| a learner who | minutes |", "|---|---|"] + [f"| {what} | {rate} |" for what, rate in rows])


TIME_MODEL_BLOCK = re.compile(r"(<!-- time-model -->).*?(<!-- /time-model -->)", re.S)


def _fix_time_model(text: str) -> str:
    return TIME_MODEL_BLOCK.sub(lambda m: f"{m.group(1)}\n{rates_table()}\n{m.group(2)}", text)


def _fix_title(text: str, time: ChapterTime, track: str = "en") -> str:
    return TIME_LINES[track][0].sub(time.title_line(track), text, count=1)


def _rewrite_notebook(path, change) -> bool:
    """Apply ``change`` to the markdown cells of a notebook, in place (each keeps its id); write it back if anything
    changed."""
    import json

    nb = json.loads(path.read_text(encoding="utf-8"))
    changed = False
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        old = course._text(cell)
        new = change(old)
        if new != old:
            cell["source"] = new.splitlines(keepends=True)
            changed = True
    if changed:
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return changed


def _stale_titles(times: dict[str, ChapterTime], write: bool) -> list[str]:
    """Each chapter's title cell, in both tracks, whose time line differs from the model."""
    stale = []
    for track in course.FOLDERS:
        for number, path in course.chapter_files(track).items():
            time = times[number]
            first = course._text(course.cells_of(number, track)[0])
            if _fix_title(first, time, track) != first:
                stale.append(f"{path.relative_to(NOTEBOOKS)}: title cell")
                if write:
                    _rewrite_notebook(path, lambda text, time=time, track=track: _fix_title(text, time, track)
                                      if text.startswith("# ") else text)
    return stale


def _stale_maps(times: dict[str, ChapterTime], write: bool) -> list[str]:
    """Each place that shows the course map (chapter 00 of each track, the two READMEs) and differs from it."""
    stale = []
    for track in course.FOLDERS:
        start = course.chapter_files(track)["00"]
        map_text = render_map(times, track, "")
        cells = [course._text(c) for c in course.cells_of("00", track) if c["cell_type"] == "markdown"]
        if not any(MAP_BLOCK.search(text) for text in cells):
            stale.append(f"{start.relative_to(NOTEBOOKS)}: no cell with <!-- course-map --> markers")
        elif any(_fix_map(text, map_text) != text for text in cells):
            stale.append(f"{start.relative_to(NOTEBOOKS)}: course map")
            if write:
                _rewrite_notebook(start, lambda text, map_text=map_text: _fix_map(text, map_text))
    for page, (track, base) in MAP_PAGES.items():
        stated = page.read_text(encoding="utf-8")
        if not MAP_BLOCK.search(stated):
            stale.append(f"{page.relative_to(ROOT)}: no <!-- course-map --> ... <!-- /course-map --> block")
        elif _fix_map(stated, render_map(times, track, base)) != stated:
            stale.append(f"{page.relative_to(ROOT)}: course map")
            if write:
                page.write_text(_fix_map(stated, render_map(times, track, base)), encoding="utf-8")
    return stale


def _stale_time_model(times: dict[str, ChapterTime], write: bool) -> list[str]:
    """docs/time-model.md's estimate table and rates, where they differ from the model."""
    stale = []
    stated = TIME_MODEL_PAGE.read_text(encoding="utf-8")
    if not TIME_MODEL_BLOCK.search(stated):
        stale.append("docs/time-model.md: no <!-- time-model --> ... <!-- /time-model --> block")
    for place, fix in (("estimate table", lambda text: _fix_estimates(text, times)), ("rates", _fix_time_model)):
        if fix(stated) != stated:
            stale.append(f"docs/time-model.md: {place}")
            if write:
                stated = fix(stated)
                TIME_MODEL_PAGE.write_text(stated, encoding="utf-8")
    return stale


def _stale_plans(times: dict[str, ChapterTime], write: bool) -> list[str]:
    """Each instructor guide whose outcomes or plans differ from tools/plans.py's rendering."""
    from plans import GUIDES, render_plans  # tools/plans.py: the instructor plans, built on these times

    stale = []
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


def stale_places(times: dict[str, ChapterTime], write: bool = False) -> list[str]:
    """Every place whose stated time, map or plan differs from the model (rewritten when ``write``)."""
    return [place for stale in (_stale_titles, _stale_maps, _stale_time_model, _stale_plans)
            for place in stale(times, write)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite the stated times, maps and plans where they "
                                                             "differ")
    parser.add_argument("--check", action="store_true", help="exit 1 when a stated time, map or plan differs from the "
                                                             "model")
    args = parser.parse_args(argv)
    times = all_times()
    for time in times.values():
        print(f"{time.number}  {time.title_line()}")
    limit = course.course()["limit"]
    core = core_course_minutes(times)
    print(f"all chapters: {sum(t.total for t in times.values())} min; the core course "
          f"({', '.join(course.core_course())}): {core} min, at most {limit}")
    for cell, minute in whole_game_minutes().items():
        print(f"chapter {course.course()['whole_game']['chapter']}: cell {cell} (whole game) reached at minute "
              f"{'-' if minute is None else f'{minute:.1f}'}")
    stale = stale_places(times, write=args.write)
    for place in stale:
        print(("rewrote " if args.write else "differs: ") + place)
    if core > limit:   # a rule for the chapters, which tests/test_chapter_map.py enforces; not a stale place
        print(f"note: the core course takes {core} min, more than its limit of {limit}", file=sys.stderr)
    return 1 if (stale and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
