"""Chapter 05's window view: step through a run and watch the hash layer's window slide over it.

Controls: ``trace`` (a menu: a test run every 4th or every 5th turn with edits between, or a pattern of chapter 05),
``turn`` (a number box) and ``window_size`` (a number box). The panel says, in the learner's language, which turns
the window holds after that turn and how often the repeated batch is among them, then draws the row of squares and
the count bar of :mod:`loopkit.views.plots.svg_window`. A turn past the run's first stop shows the stop, and says so.
"""

from __future__ import annotations

import html

from loopkit.core.detector import DetectorConfig
from loopkit.core.language import N_, tr
from loopkit.teaching import hash_window
from loopkit.teaching.patterns import PATTERNS

from ._base import View, number_box

__all__ = ["WINDOW_TRACES", "render_window", "window_at", "window_rows", "window_stepper"]

#: The view's runs, by the menu's value: chapter 05's two edit-and-test cycles, then the pattern library.
WINDOW_TRACES: dict[str, list] = {
    N_("test every 4th turn"): hash_window.edit_test_cycle(every=4, turns=25),
    N_("test every 5th turn"): hash_window.edit_test_cycle(every=5, turns=25),
    **{name: pattern.batches for name, pattern in PATTERNS.items()},
}


def window_at(trace: str, turn: int, window_size: int) -> hash_window.WindowSnapshot:
    """The snapshot the view draws: ``trace`` (a key of :data:`WINDOW_TRACES`) replayed under the default thresholds
    and ``window_size``, after ``turn``, or after the run's last turn when ``turn`` is past it (its first stop).

    >>> window_at("test every 5th turn", 21, 20).in_window
    [6, 11, 16, 21]
    """
    if trace not in WINDOW_TRACES:
        raise ValueError(f"trace must be one of {', '.join(WINDOW_TRACES)}; got {trace!r}")
    batches = WINDOW_TRACES[trace]
    last = hash_window.snapshot(batches, config=DetectorConfig(window_size=window_size)).turn
    return hash_window.snapshot(batches, min(turn, last), DetectorConfig(window_size=window_size))


def window_rows(trace: str, turn: int, window_size: int) -> list[dict]:
    """One row per turn the window holds after ``turn`` (see :func:`window_at`): the turn, its tools, and, for the
    repeated batch, its number among the repeats in the window (the last one's number is the count).

    >>> [row["repeat #"] for row in window_rows("test every 4th turn", 9, 20) if row["repeat #"]]
    [1, 2, 3]
    """
    snapshot = window_at(trace, turn, window_size)
    return [{"turn": t.turn, "tools": t.tools, "repeat #": t.occurrence or "", "action": t.action}
            for t in snapshot.turns if t.in_window]


def render_window(trace: str, turn: int, window_size: int) -> str:
    """The panel: what the window holds after the chosen turn, in words, then the drawing."""
    from ..plots.svg_window import window_description, window_svg

    snapshot = window_at(trace, turn, window_size)
    notes = []
    if snapshot.turn < turn:
        notes.append(tr("This run ends at turn {last}, so the view shows turn {last}.", last=snapshot.turn))
    text = window_description(snapshot)
    parts = [f"<p>{html.escape(note)}</p>" for note in notes] + [f"<p>{html.escape(text)}</p>"]
    return "".join(parts) + window_svg(snapshot, alt=text)


def window_stepper(trace: str = "test every 5th turn", turn: int = 21, window_size: int = 20) -> View:
    """A run menu and number boxes for the turn and the window's size; the panel draws the window after that turn."""
    import ipywidgets as W

    if trace not in WINDOW_TRACES:
        window_at(trace, turn, window_size)  # raises the ValueError that lists the runs
    style = {"description_width": "120px"}
    controls = {
        "trace": W.Dropdown(options=[(name if name in PATTERNS else tr(name), name) for name in WINDOW_TRACES],
                            value=trace, description=tr("run"), style=style,
                            layout=W.Layout(width="28em")),
        "turn": number_box(turn, 1, max(len(batches) for batches in WINDOW_TRACES.values()), tr("turn"), style=style),
        # "window_size" is not translated: it names the config field, a word of the code.
        "window_size": number_box(window_size, 1, 40, "window_size", style=style),
    }
    view = View(controls, render_window, title=tr("The hash window, turn by turn"))
    view.add_class("loopkit-window-stepper")
    view.panel.add_class("loopkit-panel")
    return view
