"""Chapter 00's repeat stepper: walk through an agent's turns and see which ones redo earlier work.

A turn repeats earlier work when the fingerprint of its tool calls was already seen in an earlier turn of the run.
Control: ``turn`` (a number box, 1 to the number of turns). Buttons (``view.buttons``): ``back`` and ``next`` move
the turn by one. The panel shows the verdict for the current turn, the running count, and the turns so far,
in the learner's language (:func:`loopkit.core.language.tr`); the rows of :func:`repeat_steps` keep English keys.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from loopkit.core.checks import require_int
from loopkit.core.fingerprint import fingerprint
from loopkit.core.language import N_, tr

from ._base import View, number_box, table_html

__all__ = ["turns_so_far", "STUCK_TURNS", "repeat_steps", "render_repeats", "repeat_stepper"]

#: Chapter 00's stuck agent: it reads app.py and runs pytest, four times over, one call per turn.
STUCK_TURNS = (
    {"name": "read_file", "args": {"path": "app.py"}},
    {"name": "bash", "args": {"command": "pytest"}},
) * 4


def _batch(turn: object, index: int) -> list:
    if isinstance(turn, Mapping):
        return [turn]
    if isinstance(turn, Sequence) and not isinstance(turn, (str, bytes)):
        return list(turn)
    raise TypeError(f"turns[{index}] must be a tool call (a dict) or a list of calls, got {type(turn).__name__}")


def repeat_steps(turns: Sequence) -> list[dict]:
    """One row per turn: its tools, its fingerprint, how often that fingerprint has been seen so far, and which
    earlier turn it repeats (``None`` for new work). A turn is one call (a dict) or a batch (a list of calls).

    >>> [(row["turn"], row["seen"], row["repeats"]) for row in repeat_steps(STUCK_TURNS[:3])]
    [(1, 1, None), (2, 1, None), (3, 2, 1)]
    """
    if isinstance(turns, (str, bytes, Mapping)) or not isinstance(turns, Sequence):
        raise TypeError(f"turns must be a list of turns (calls or batches of calls), got {type(turns).__name__}")
    first_turn: dict[str, int] = {}
    seen: dict[str, int] = {}
    rows = []
    for number, turn in enumerate(turns, start=1):
        calls = _batch(turn, number - 1)
        digest = fingerprint(calls)
        seen[digest] = seen.get(digest, 0) + 1
        first_turn.setdefault(digest, number)
        repeats = first_turn[digest] if seen[digest] > 1 else None
        tools = ", ".join(str(call.get("name", "")) for call in calls) or tr("(no calls)")
        rows.append({"turn": number, N_("tools"): tools, "fingerprint": digest, N_("seen"): seen[digest],
                     "repeats": repeats})
    return rows


def turns_so_far(turn: int, turns: Sequence = STUCK_TURNS) -> list[dict]:
    """The table the panel shows at turn ``turn`` (1-based): one row per turn up to it, saying what it repeats.

    >>> [row["repeats earlier work?"] for row in turns_so_far(3)]
    ['no', 'no', 'yes, turn 1']
    """
    rows = repeat_steps(turns)
    require_int("turn", turn, at_most=max(len(rows), 1))
    return [
        {"turn": row["turn"], "tools": row["tools"], "fingerprint": row["fingerprint"], "seen": f"{row['seen']}x",
         N_("repeats earlier work?"): tr("no") if row["repeats"] is None
         else tr("yes, turn {turn}", turn=row["repeats"])}
        for row in rows[:turn]
    ]


def render_repeats(turn: int, turns: Sequence = STUCK_TURNS) -> str:
    """The panel's HTML for turn ``turn`` (1-based): the verdict, the running count, and :func:`turns_so_far`."""
    rows = repeat_steps(turns)
    if not rows:
        return f"<i>{tr('No turns to step through.')}</i>"
    shown = turns_so_far(turn, turns)
    current = rows[turn - 1]
    redone = sum(row["repeats"] is not None for row in rows[:turn])
    if current["repeats"] is None:
        verdict = tr("<b>new work</b>: this fingerprint was not seen before")
    else:
        verdict = tr("<b>repeats turn {turn}</b> (fingerprint seen {seen}x)", turn=current["repeats"],
                     seen=current["seen"])
    heading = tr("Turn {turn} of {count} ({tools}): {verdict}.", turn=turn, count=len(rows),
                 tools=html.escape(current["tools"]), verdict=verdict)
    running = tr("So far {redone} of {turn} turns redo earlier work.", redone=redone, turn=turn)
    return f"<p>{heading}<br>{running}</p>" + table_html(shown)


def repeat_stepper(turns: Sequence = STUCK_TURNS) -> View:
    """A turn number with Back and Next buttons over ``turns``; the panel says whether each turn repeats."""
    import ipywidgets as W

    count = len(repeat_steps(turns))
    if count == 0:
        raise ValueError("turns must hold at least one turn")
    slider = number_box(1, 1, count, tr("turn"))
    buttons = {"back": W.Button(description=tr("Back")), "next": W.Button(description=tr("Next"))}
    view = View({"turn": slider}, lambda turn: render_repeats(turn, turns),
                title=tr("Step through the run: which turns redo earlier work?"), buttons=list(buttons.values()))
    view.buttons = buttons
    buttons["back"].on_click(lambda _: setattr(slider, "value", max(slider.min, slider.value - 1)))
    buttons["next"].on_click(lambda _: setattr(slider, "value", min(slider.max, slider.value + 1)))
    view.add_class("loopkit-repeat-stepper")
    view.panel.add_class("loopkit-panel")
    return view
