"""The instructor guides' workshop plans, built from notebooks/course.toml on the chapter times of
tools/chapter_times.py, and the rules that keep them honest in a room.

A plan is a list of slots: a launch buffer, chapters (each along its core path, or only some of its sections), a
break, slack, hands-on replay and a wrap-up. The plans, the outcomes they promise and what each chapter builds on
are data in notebooks/course.toml (its header gives the schema); this module reads them. A chapter's minutes always
come from the time model, as delivered live (``ChapterTime.live``: chapter_times.LIVE_FACTOR on the cells a room types
along), never from the data, so a plan cannot give a chapter less time than the model does. A section slot costs its
sections and the chapter's title cell.

``check_plan`` refuses a plan that breaks one of these rules, and its error names the plan and the rule:

- **fits its length**: the slots add up to no more than the plan's minutes;
- **prerequisites taught**: every chapter a taught chapter builds on is taught too, at least in part, never left to
  self-study;
- **launch buffer and break**: a first Binder launch takes 5-10 minutes, and the break is when whoever is still
  waiting switches to the fallback;
- **slack**: the slots named slack add up to at least ``SLACK_SHARE`` (15%) of the teaching time (the chapters and
  the hands-on replay), besides the breaks, the launch buffer and the wrap-up. It is there for questions, for a room
  that types along slower than the model's live factor says, and for a learner who is stuck;
- **promises kept**: every outcome the plan promises (the guide's "What learners take home") is reached by its slots:
  each chapter's core path or section the outcome needs is taught, and the hands-on replay when it needs one; and a
  plan promises at least ``MIN_OUTCOMES`` (3);
- **live exercises taught**: each exercise a slot does live lies in that slot's cells;
- **lifecycle and hands-on replay**: a plan of ``LONG_PLAN`` minutes (3 hours) or more teaches chapter
  ``LIFECYCLE`` (where the warning goes, what a stop does) and holds at least ``REPLAY_MINUTES`` (10) of hands-on
  replay: each learner replays their own transcript in chapter 10's upload view, or a sample one.

One more rule is a test, not a refusal, so that the plans can be rendered while chapter 00 is being rebuilt:
``whole_game_problem`` says why a plan does not show the **whole game** (every cell the course file tags as it: the
detector's warn and stop on a looping agent, and an honest session left alone) with a prediction done live in the
same section before it; tests/test_plans.py requires it of every plan.

The guides hold each plan between ``<!-- plan:NAME -->`` and ``<!-- /plan:NAME -->``, and the outcomes between
``<!-- outcomes -->`` and ``<!-- /outcomes -->``: docs/instructor.md in English, docs/es/notas-ejercicios.md in
Spanish. ``python tools/chapter_times.py --write`` renders them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

import course

ROOT = course.ROOT
GUIDES = {"en": ROOT / "docs" / "instructor.md", "es": ROOT / "docs" / "es" / "notas-ejercicios.md"}

SLACK_SHARE = 0.15
REPLAY_MINUTES = 10
LONG_PLAN = 180
MIN_OUTCOMES = 3
#: The chapter that teaches the lifecycle: where a warning goes, what a stop does.
LIFECYCLE = "06"

Kind = Literal["launch buffer", "chapter", "break", "slack", "replay", "wrap-up"]
KINDS = ("launch buffer", "chapter", "break", "slack", "replay", "wrap-up")
#: The slots whose minutes are teaching time, which the slack is measured against.
TEACHING_KINDS = frozenset({"chapter", "replay"})


@dataclass(frozen=True)
class Text:
    """A sentence of the guides, in both tracks' languages."""

    en: str
    es: str

    def __call__(self, language: str) -> str:
        return getattr(self, language)


NO_TEXT = Text("", "")


@dataclass(frozen=True)
class Slot:
    """One row of a plan. A chapter slot teaches the chapter's core path, or only ``sections`` (their ``##``
    headings, in English); every other slot lasts ``minutes``. ``live`` names the exercises done together. A replay
    slot names the chapter and section where the room works (``chapter`` and ``sections``)."""

    kind: Kind
    note: Text = NO_TEXT
    chapter: str | None = None
    sections: tuple[str, ...] = ()
    minutes: int = 0
    live: tuple[str, ...] = ()


@dataclass(frozen=True)
class Need:
    """What an outcome needs a plan to teach: a chapter's core path (``section`` None), one of its sections, or
    (``chapter`` None) the hands-on replay."""

    chapter: str | None
    section: str | None = None


@dataclass(frozen=True)
class Outcome:
    text: Text
    needs: tuple[Need, ...]


@dataclass(frozen=True)
class Plan:
    name: str
    length: int
    promises: tuple[int, ...]
    slots: tuple[Slot, ...]
    title: Text = NO_TEXT

    def live_exercises(self) -> tuple[str, ...]:
        """The exercises this plan does together, in its order."""
        return tuple(qid for slot in self.slots for qid in slot.live)


def chapter(number: str, note: Text = NO_TEXT, *, live: tuple[str, ...] = (), sections: tuple[str, ...] = ()) -> Slot:
    return Slot("chapter", note, chapter=number, sections=sections, live=live)


def slack(minutes: int, note: Text = NO_TEXT) -> Slot:
    return Slot("slack", note, minutes=minutes)


def wrap_up(minutes: int, note: Text = NO_TEXT) -> Slot:
    return Slot("wrap-up", note, minutes=minutes)


HANDS_ON_REPLAY = Need(None)


# --- reading the course file ---------------------------------------------------------------------------------------

def _text(value, where: str, notes: dict) -> Text:
    """A ``{en, es}`` table, or the name of a shared note, as a Text. Raises ValueError naming ``where``."""
    if isinstance(value, str):
        if value not in notes:
            raise ValueError(f"notebooks/course.toml: {where} names the note {value!r}, which [notes] lacks")
        value = notes[value]
    if not isinstance(value, dict) or set(value) != {"en", "es"}:
        raise ValueError(f"notebooks/course.toml: {where} needs en and es, got {value!r}")
    return Text(value["en"], value["es"])


def read_slot(data: dict, where: str, notes: dict) -> Slot:
    """One ``[[plan.slot]]`` table as a Slot. Raises ValueError naming the slot and what is wrong with it."""
    kind = data.get("kind")
    if kind not in KINDS:
        raise ValueError(f"notebooks/course.toml: {where} has kind {kind!r}; expected one of {', '.join(KINDS)}")
    minutes = data.get("minutes", 0)
    if (kind == "chapter") == ("minutes" in data):
        raise ValueError(f"notebooks/course.toml: {where}: a chapter slot takes its minutes from the time model, "
                         "every other slot states them")
    if kind in ("chapter", "replay") and "chapter" not in data:
        raise ValueError(f"notebooks/course.toml: {where}: a {kind} slot names its chapter")
    note = _text(data["note"], where, notes) if "note" in data else NO_TEXT
    return Slot(kind, note, chapter=data.get("chapter"), sections=tuple(data.get("sections", ())), minutes=minutes,
                live=tuple(data.get("live", ())))


def read_plans(data: dict) -> tuple[Plan, ...]:
    notes = data.get("notes", {})
    plans = []
    for entry in data["plan"]:
        name = entry["name"]
        slots = tuple(read_slot(slot, f"the {name} plan's slot {position}", notes)
                      for position, slot in enumerate(entry["slot"], start=1))
        plans.append(Plan(name, entry["length"], tuple(entry["promises"]), slots,
                          _text(entry["title"], f"the {name} plan's title", notes)))
    return tuple(plans)


def read_outcomes(data: dict) -> dict[int, Outcome]:
    outcomes = {}
    for number, entry in enumerate(data["outcome"], start=1):
        needs = [Need(chapter) for chapter in entry.get("core", ())]
        needs += [Need(chapter, heading) for chapter, heading in entry.get("sections", ())]
        if entry.get("replay"):
            needs.append(HANDS_ON_REPLAY)
        outcomes[number] = Outcome(_text(entry["text"], f"outcome {number}", {}), tuple(needs))
    return outcomes


PLANS = read_plans(course.course())
OUTCOMES = read_outcomes(course.course())
#: Which chapters each chapter builds on (the chapters its title cell lists as prerequisites).
PREREQUISITES = {entry["number"]: list(entry.get("builds_on", ())) for entry in course.declared_chapters()}


# --- the rules -----------------------------------------------------------------------------------------------------

def slot_minutes(slot: Slot, times: dict) -> int:
    """A chapter slot's live minutes from the time model; any other slot's own minutes."""
    if slot.kind != "chapter":
        return slot.minutes
    time = times[slot.chapter]
    return time.live_minutes(slot.sections) if slot.sections else time.live


def slot_cells(slot: Slot) -> tuple[int, ...]:
    """The cells of its chapter a slot runs: the core path, or the title, setup and named sections (none for a slot
    without a chapter). Raises ValueError naming a section the chapter lacks."""
    if slot.chapter is None:
        return ()
    cells = course.cells_of(slot.chapter)
    if not slot.sections:
        return course.core_path(cells)
    return course.section_path(cells, course.named_sections(slot.chapter, slot.sections))


def exercise_cell(number: str, qid: str) -> int | None:
    """The cell of chapter ``number`` that opens exercise ``qid`` (its heading), or None."""
    for index, cell in enumerate(course.cells_of(number)):
        if cell["cell_type"] == "markdown" and course._text(cell).startswith(f"### Exercise {qid}:"):
            return index
    return None


def _reaches(plan: Plan, need: Need, times: dict) -> bool:
    if need.chapter is None:
        return any(slot.kind == "replay" for slot in plan.slots)
    for slot in plan.slots:
        if slot.kind != "chapter" or slot.chapter != need.chapter:
            continue
        if not slot.sections:   # the core path: every section on it
            if need.section is None or any(s.heading == need.section and s.on_core_path
                                           for s in times[need.chapter].sections):
                return True
        elif need.section in slot.sections:
            return True
    return False


def _describe(need: Need) -> str:
    if need.chapter is None:
        return "the hands-on replay"
    return f"chapter {need.chapter}'s core path" if need.section is None else f"chapter {need.chapter}'s {need.section!r}"


def whole_game_problem(plan: Plan, kinds: dict[str, str]) -> str | None:
    """Why ``plan`` does not show the whole game with a live prediction on it, or None when it does."""
    game = course.course()["whole_game"]
    cells = course.cells_of(game["chapter"])
    tagged = [i for i, cell in enumerate(cells) if game["tag"] in cell.get("metadata", {}).get("tags", [])]
    if not tagged:
        return f"chapter {game['chapter']} has no cell tagged {game['tag']!r}"
    slots = [slot for slot in plan.slots if slot.kind == "chapter" and slot.chapter == game["chapter"]]
    shown = {cell for slot in slots for cell in slot_cells(slot)}
    if not set(tagged) <= shown:
        return f"its slots of chapter {game['chapter']} leave out the whole game (cells {sorted(set(tagged) - shown)})"
    where = {part.cell: part.section for part in course.parts(cells)}
    sections = {where[cell] for cell in tagged}
    predictions = [qid for slot in slots for qid in slot.live if kinds.get(qid) == "prediction"
                   and where.get(exercise_cell(game["chapter"], qid) or -1) in sections
                   and (exercise_cell(game["chapter"], qid) or 0) < min(tagged)]
    if not predictions:
        return (f"no prediction is done live before the whole game, in its section "
                f"({', '.join(repr(s) for s in sorted(sections))})")
    return None


Broken = list[tuple[str, str]]   # (rule, what breaks it)


def _time_rules(plan: Plan, minutes: list[int]) -> Broken:
    """Fits its length; holds its slack; a long plan holds its hands-on replay."""
    found = []
    used = sum(minutes)
    if used > plan.length:
        found.append(("fits its length", f"its slots need {used} min, more than its {plan.length}"))
    spent = {kind: sum(m for slot, m in zip(plan.slots, minutes, strict=True) if slot.kind == kind) for kind in KINDS}
    teaching = sum(spent[kind] for kind in TEACHING_KINDS)
    needed = math.ceil(SLACK_SHARE * teaching - 1e-9)
    if spent["slack"] < needed:
        found.append(("slack", f"it holds {spent['slack']} min of slack, less than {SLACK_SHARE:.0%} of its "
                               f"{teaching} min of teaching ({needed} min)"))
    if plan.length >= LONG_PLAN and spent["replay"] < REPLAY_MINUTES:
        found.append(("lifecycle and hands-on replay", f"it runs {plan.length} min but holds {spent['replay']} min of "
                                                       f"hands-on replay of a learner's own transcript, less than "
                                                       f"{REPLAY_MINUTES}"))
    return found


def _teaching_rules(plan: Plan) -> Broken:
    """Prerequisites taught; a launch buffer and a break; a long plan teaches the lifecycle."""
    found = []
    taught = {slot.chapter for slot in plan.slots if slot.kind == "chapter"}
    for number in sorted(taught):
        missing = [need for need in PREREQUISITES[number] if need not in taught]
        if missing:
            found.append(("prerequisites taught", f"it teaches chapter {number} but leaves {missing} to self-study"))
    for kind in ("launch buffer", "break"):
        if not any(slot.kind == kind for slot in plan.slots):
            found.append(("launch buffer and break", f"it has no {kind}"))
    if plan.length >= LONG_PLAN and LIFECYCLE not in taught:
        found.append(("lifecycle and hands-on replay", f"it runs {plan.length} min but does not teach chapter "
                                                       f"{LIFECYCLE}, the lifecycle"))
    return found


def _promise_rules(plan: Plan, times: dict, outcomes: dict[int, Outcome]) -> Broken:
    """At least ``MIN_OUTCOMES`` promised, and each reached by the plan's slots."""
    found = []
    if len(plan.promises) < MIN_OUTCOMES:
        found.append(("promises kept", f"it promises {len(plan.promises)} outcomes, fewer than {MIN_OUTCOMES}"))
    for number in plan.promises:
        if number not in outcomes:
            found.append(("promises kept", f"it promises outcome {number}, which the guide does not list"))
            continue
        found += [("promises kept", f"it promises outcome {number} but does not teach {_describe(need)}")
                  for need in outcomes[number].needs if not _reaches(plan, need, times)]
    return found


def _live_rules(plan: Plan, cells: list[tuple[int, ...]]) -> Broken:
    """Each exercise a slot does live lies in the cells that slot teaches."""
    return [("live exercises taught", f"its chapter {slot.chapter} slot does exercise {qid} live, which is not in "
                                      "the cells it teaches")
            for slot, taught in zip(plan.slots, cells, strict=True) for qid in slot.live
            if (exercise_cell(slot.chapter, qid) if slot.chapter else None) not in taught]


def problems(plan: Plan, times: dict, outcomes: dict[int, Outcome] = OUTCOMES) -> list[str]:
    """Every rule ``plan`` breaks, each as a sentence naming the plan and the rule (empty when it keeps them all)."""
    try:
        minutes = [slot_minutes(slot, times) for slot in plan.slots]
        cells = [slot_cells(slot) for slot in plan.slots]
    except ValueError as unknown:   # a section its chapter does not have
        found: Broken = [("known sections", str(unknown))]
    else:
        found = (_time_rules(plan, minutes) + _teaching_rules(plan) + _promise_rules(plan, times, outcomes)
                 + _live_rules(plan, cells))
    return [f"the {plan.name} plan breaks rule {rule!r}: {detail}" for rule, detail in found]


def check_plan(plan: Plan, times: dict, outcomes: dict[int, Outcome] = OUTCOMES) -> None:
    """Raise ValueError naming the plan and each rule it breaks (see the module's docstring)."""
    found = problems(plan, times, outcomes)
    if found:
        raise ValueError("; ".join(found))


# --- rendering -----------------------------------------------------------------------------------------------------

WORDS = {
    "en": {"header": "| start | what | min | what to do |", "end": "end", "spare": "{n} min unplanned.",
           "core path": "core path", "live": "live", "and": "and",
           "kinds": {"launch buffer": "launch buffer", "break": "break", "slack": "slack",
                     "replay": "hands-on replay", "wrap-up": "wrap-up"},
           "summary": "Teaching {teaching} min, **slack {slack} min** ({share}% of the teaching time), breaks "
                      "{breaks} min, launch buffer {launch} min, wrap-up {wrap} min. It reaches {reaches} of "
                      "[what learners take home](#what-learners-take-home){rest}.",
           "outcome": "outcome", "outcomes": "outcomes", "rest": "; the others are homework"},
    "es": {"header": "| inicio | qué | min | qué hacer |", "end": "fin", "spare": "{n} min sin asignar.",
           "core path": "ruta básica", "live": "en directo", "and": "y",
           "kinds": {"launch buffer": "margen de arranque", "break": "pausa", "slack": "holgura",
                     "replay": "práctica de reproducción", "wrap-up": "cierre"},
           "summary": "Enseñanza {teaching} min, **holgura {slack} min** (el {share} % del tiempo de enseñanza), "
                      "pausas {breaks} min, margen de arranque {launch} min, cierre {wrap} min. Alcanza {reaches} "
                      "de [lo que se llevan los participantes](#lo-que-se-llevan-los-participantes){rest}.",
           "outcome": "el resultado", "outcomes": "los resultados", "rest": "; los demás quedan para casa"},
}


def _chapter_words(number: str, sections: tuple[str, ...], language: str) -> tuple[str, list[str]]:
    """The chapter's label (``05 The detector``) and its sections' headings, in ``language``."""
    first = course._text(course.cells_of(number, language)[0]).split("\n", 1)[0]
    label = first.lstrip("# ").replace(" · ", " ", 1)
    return label, [course.heading_in(language, number, heading) for heading in sections]


def _listed(items: list[str], language: str) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {WORDS[language]['and']} {items[-1]}"


def render_table(plan: Plan, times: dict, language: str = "en") -> str:
    """The plan as a markdown table (start time, what, minutes, what to do), after a line that sums it up."""
    check_plan(plan, times)
    words = WORDS[language]
    rows = [words["header"], "|---|---|---|---|"]
    clock = 0
    for slot in plan.slots:
        minutes = slot_minutes(slot, times)
        if slot.kind == "chapter":
            label, headings = _chapter_words(slot.chapter, slot.sections, language)
            what = f"{label} ({words['core path']})" if not slot.sections else f"{label}: {'; '.join(headings)}"
        else:
            what = words["kinds"][slot.kind]
        note = slot.note(language)
        if slot.live:
            note = f"{note.rstrip('.')}; {words['live']}: {_listed(list(slot.live), language)}."
        rows.append(f"| {clock // 60}:{clock % 60:02d} | {what} | {minutes} | {note} |")
        clock += minutes
    spare = words["spare"].format(n=plan.length - clock) if plan.length > clock else ""
    rows.append(f"| {clock // 60}:{clock % 60:02d} | {words['end']} | | {spare} |")
    return "\n".join(rows)


def summary(plan: Plan, times: dict, language: str = "en") -> str:
    """One sentence: the plan's teaching, slack, breaks and buffer in minutes, and the outcomes it reaches."""
    words = WORDS[language]

    def total(*kinds: str) -> int:
        return sum(slot_minutes(slot, times) for slot in plan.slots if slot.kind in kinds)

    teaching = total(*TEACHING_KINDS)
    numbers = [str(n) for n in plan.promises]
    reaches = f"{words['outcome'] if len(numbers) == 1 else words['outcomes']} {_listed(numbers, language)}"
    rest = words["rest"] if set(plan.promises) != set(OUTCOMES) else ""
    return words["summary"].format(teaching=teaching, slack=total("slack"), share=round(100 * total("slack") / teaching),
                                   breaks=total("break"), launch=total("launch buffer"), wrap=total("wrap-up"),
                                   reaches=reaches, rest=rest)


def render_outcomes(language: str = "en") -> str:
    return "\n".join(f"{number}. {outcome.text(language)}" for number, outcome in OUTCOMES.items())


def _replace_block(text: str, name: str, body: str, where: str) -> str:
    start, end = f"<!-- {name} -->", f"<!-- /{name} -->"
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise ValueError(f"{where} has no {start} ... {end} markers")
    return pattern.sub(lambda _: f"{start}\n{body}\n{end}", text)


def render_plans(text: str, times: dict, language: str = "en") -> str:
    """``text`` (a guide) with its outcomes and each plan rendered between their markers."""
    where = GUIDES[language].relative_to(ROOT).as_posix()
    text = _replace_block(text, "outcomes", render_outcomes(language), where)
    for plan in PLANS:
        body = summary(plan, times, language) + "\n\n" + render_table(plan, times, language)
        text = _replace_block(text, f"plan:{plan.name}", body, where)
    return text
