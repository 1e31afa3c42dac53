"""The instructor guide's two workshop plans, built on the chapter times of tools/chapter_times.py.

A plan is a list of slots: a launch buffer, chapters (each along its core path), a break, a wrap-up.
A chapter's minutes always come from the time model, never from this file, so a plan cannot promise a chapter in
less time than the model gives it. Rendering checks two promises: the slots fit the plan's length, and every
chapter a taught chapter builds on is taught too (PREREQUISITES), never left to self-study.

docs/instructor.md holds each rendered table between ``<!-- plan:NAME -->`` and ``<!-- /plan:NAME -->``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Which chapters each chapter builds on (the chapters its title cell lists under "Prerequisites").
PREREQUISITES = {
    "00": [],
    "01": ["00"],
    "02": ["01"],
    "03": ["01", "02"],
    "04": ["00"],
    "05": ["02", "03", "04"],
    "06": ["04", "05"],
    "07": ["05", "06"],
    "08": ["03", "04"],
    "09": ["03", "04"],
    "10": ["03", "05", "06"],
}

@dataclass(frozen=True)
class Slot:
    """One row of a plan: a chapter, taught along its core path, or a fixed-length item (``minutes``)."""

    label: str
    note: str
    chapter: str | None = None
    minutes: int = 0


@dataclass(frozen=True)
class Plan:
    name: str
    length: int
    slots: tuple[Slot, ...]


def launch(minutes: int, note: str) -> Slot:
    return Slot("launch buffer", note, minutes=minutes)


def pause(minutes: int, note: str = "") -> Slot:
    return Slot("break", note, minutes=minutes)


CORE_PATH = ("00", "01", "02", "03", "04", "05", "06")
"""The workbook's core path: these chapters' core paths, from a tool call to a stop and whose budget it is."""

PLANS = (
    Plan("90-minute", 90, (
        launch(10, "Open the pinned Binder link together; a first launch can take 5-10 minutes. Whoever is still "
                   "waiting follows on the projector and switches to the hub or a laptop at the break."),
        Slot("00 Start here", "Run `loopkit.check_setup()` together; live: 0.1.", "00"),
        Slot("01 Normalization", "The argument shapes table; live: 1.1.", "01"),
        Slot("02 Read buckets", "Predict, then drag the bucket slider across line 200; live: 2.1.", "02"),
        pause(5, "Anyone whose launch failed switches to the fallback now."),
        Slot("03 Fingerprints", "Build batches with the batch widget (shuffle, duplicate); live: 3.1.", "03"),
        Slot("wrap-up", "Questions. Homework, in order: the core paths of 04, 05 and 06, then the optional "
                        "sections.", minutes=5),
    )),
    Plan("3-hour", 180, (
        launch(10, "Open the pinned Binder link together; a first launch can take 5-10 minutes."),
        Slot("00 Start here", "Run `loopkit.check_setup()` together; live: 0.1.", "00"),
        Slot("01 Normalization", "The argument shapes table; live: 1.1.", "01"),
        Slot("02 Read buckets", "Predict, then drag the bucket slider across line 200; live: 2.1.", "02"),
        Slot("03 Fingerprints", "Build batches with the batch widget (shuffle, duplicate); live: 3.1.", "03"),
        pause(10, "Anyone whose launch failed switches to the fallback now."),
        Slot("04 FIFO vs LRU", "Edit the eviction-race script live; live: 4.2.", "04"),
        Slot("05 The detector", "Predict, then run; live: 5.1 and 5.2.", "05"),
        Slot("06 Lifecycle", "Step through a run with the lifecycle stepper; live: 6.2 and 6.3.", "06"),
        Slot("wrap-up", "Questions. Homework: chapters 07-10 and the optional sections.", minutes=5),
    )),
)


def slot_minutes(slot: Slot, times: dict) -> int:
    return slot.minutes if slot.chapter is None else times[slot.chapter].core


def check_plan(plan: Plan, times: dict) -> None:
    """Raise ValueError when a plan overruns its length, or teaches a chapter without what it builds on."""
    used = sum(slot_minutes(slot, times) for slot in plan.slots)
    if used > plan.length:
        raise ValueError(f"the {plan.name} plan needs {used} min, more than its {plan.length}")
    taught = {slot.chapter for slot in plan.slots if slot.chapter}
    for chapter in sorted(taught):
        missing = [need for need in PREREQUISITES[chapter] if need not in taught]
        if missing:
            raise ValueError(f"the {plan.name} plan teaches chapter {chapter} but leaves {missing} to self-study")
    if not any(slot.label == "launch buffer" for slot in plan.slots) or not any(
            slot.label == "break" for slot in plan.slots):
        raise ValueError(f"the {plan.name} plan needs a launch buffer and a break")


def render_table(plan: Plan, times: dict) -> str:
    """The plan as a markdown table: start time, what, minutes, what to do."""
    check_plan(plan, times)
    rows = ["| start | what | min | what to do |", "|---|---|---|---|"]
    clock = 0
    for slot in plan.slots:
        minutes = slot_minutes(slot, times)
        what = slot.label if slot.chapter is None else f"{slot.label} (core path)"
        rows.append(f"| {clock // 60}:{clock % 60:02d} | {what} | {minutes} | {slot.note} |")
        clock += minutes
    rows.append(f"| {clock // 60}:{clock % 60:02d} | end | | {plan.length - clock} min to spare. |")
    return "\n".join(rows)


def render_plans(text: str, times: dict) -> str:
    """``text`` (the instructor guide) with each plan's table rendered between its markers."""
    for plan in PLANS:
        start, end = f"<!-- plan:{plan.name} -->", f"<!-- /plan:{plan.name} -->"
        pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
        if not pattern.search(text):
            raise ValueError(f"docs/instructor.md has no {start} ... {end} markers")
        table = render_table(plan, times)
        text = pattern.sub(lambda _: f"{start}\n{table}\n{end}", text)
    return text
