"""The hash layer's sliding window, drawn: the batches of a run as a row of squares, the window over the last
``window_size`` of them, the repeated batch's squares numbered inside it, and beside the row a bar of its count
against the warn and stop lines (chapter 05).

The data is a :class:`loopkit.teaching.hash_window.WindowSnapshot`. One drawing serves both the chapter's static
figure (:func:`window`, which the notebook displays) and the window view, which redraws it on every change, so it is
a small SVG built as text (the reason is the playground's: ``svg_timelines``). Colours are Okabe and Ito's, and
nothing is told by colour alone: a repeat inside the window is filled and numbered, one that slid out is dashed, and
the two limit lines differ in dash as well as colour. Every element carries ``data-`` attributes that say what it
stands for, so a test reads the drawing.
"""

from __future__ import annotations

import html
import textwrap

from loopkit.core.checks import require_instance
from loopkit.core.language import ntr, tr
from loopkit.teaching.hash_window import WindowSnapshot

from .svg_timelines import HARD_DASH, _hex

__all__ = ["WindowFigure", "window", "window_description", "window_svg"]

WIDTH, LEFT, TAPE_WIDTH = 760, 16, 560
GAUGE_LEFT, GAUGE_HEIGHT, GAUGE_WIDTH = 600, 60, 26  # the count bar: its x, its scale's height, its width
TAPE_TOP, CELL_HEIGHT, LINE = 58, 24, 14            # the row of squares: its top and height; a line of text
NOTE_WIDTH = 88                                     # characters per line of the notes under the squares
REPEAT_COLOR = "#0072b2"   # Okabe-Ito blue: the repeated batch


def _turn_list(turns: list[int]) -> str:
    return ", ".join(str(turn) for turn in turns) or "-"


def window_description(snapshot: WindowSnapshot) -> str:
    """What :func:`window_svg` draws for ``snapshot``, in words (its alt text, in the learner's language).

    >>> from loopkit.teaching.hash_window import edit_test_cycle, snapshot
    >>> window_description(snapshot(edit_test_cycle(every=5, turns=12), turn=11))[:72]
    'After turn 11, the hash window holds turns 1 to 11 (it keeps the last 20'
    """
    require_instance("snapshot", snapshot, WindowSnapshot)
    s = snapshot
    first, last = s.window
    words = [tr("After turn {turn}, the hash window holds turns {first} to {last} (it keeps the last {size} "
                "batches).", turn=s.turn, first=first, last=last, size=s.window_size)]
    if s.fingerprint is None:
        words.append(tr("No batch of this run made a call."))
    else:
        words.append(tr("The repeated batch ({tools}) was made at turns {hits}; {count} of them are in the window, so "
                        "its count is {count}, against the warn threshold {warn} and the hard limit {hard}. The "
                        "decision at turn {turn}: {action}.", tools=s.tools, hits=_turn_list(s.hits), count=s.count,
                        warn=s.warn_threshold, hard=s.hard_limit, turn=s.turn, action=s.action))
    if s.later:
        words.append(ntr("The run stopped at turn {step}, where a real run ends: the {n} later batch of this trace "
                         "is not drawn.", "The run stopped at turn {step}, where a real run ends: the {n} later "
                         "batches of this trace are not drawn.", s.later, step=s.stopped_at))
    text = " ".join(words)
    return f"{s.label}: {text}" if s.label else text


def _cell(x: float, width: float, y: float, turn, fill: str, stroke: str, dash: str, number: str) -> str:
    attributes = (f'data-turn="{turn.turn}" data-repeat="{int(turn.repeat)}" data-in-window="{int(turn.in_window)}" '
                  f'data-action="{turn.action}"' + (f' data-occurrence="{turn.occurrence}"' if turn.occurrence else ""))
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    label = (f'<text x="{x + width / 2}" y="{y + CELL_HEIGHT / 2 + 4}" text-anchor="middle" font-size="11" '
             f'fill="#ffffff">{number}</text>') if number else ""
    return (f'<g {attributes}><rect x="{x + 1}" y="{y}" width="{max(width - 2, 1)}" height="{CELL_HEIGHT}" '
            f'fill="{fill}" stroke="{stroke}"{dashed}/>{label}</g>')


def _decision_mark(x: float, y: float, action: str, warn_color: str, stop_color: str) -> str:
    if action == "warn":  # a triangle, as the timeline's
        return (f'<polygon data-mark="warn" points="{x},{y - 9} {x - 5},{y} {x + 5},{y}" fill="{warn_color}"/>')
    return (f'<path data-mark="stop" d="M{x - 4.5},{y - 9}L{x + 4.5},{y}M{x - 4.5},{y}L{x + 4.5},{y - 9}" '
            f'stroke="{stop_color}" stroke-width="2.6"/>')


def _gauge(snapshot: WindowSnapshot, base: float, warn_color: str, stop_color: str) -> list[str]:
    """The count bar, standing on ``base``: its height is the repeated batch's count in the window, beside the warn
    and stop lines."""
    s = snapshot
    unit = GAUGE_HEIGHT / max(s.hard_limit, s.count)   # pixels per count: the higher of the two fills the scale
    height = unit * s.count
    parts = [f'<rect data-gauge="count" data-count="{s.count}" x="{GAUGE_LEFT}" y="{base - height}" '
             f'width="{GAUGE_WIDTH}" height="{height}" fill="{REPEAT_COLOR}"/>',
             f'<line x1="{GAUGE_LEFT - 4}" x2="{GAUGE_LEFT + GAUGE_WIDTH + 4}" y1="{base}" y2="{base}" '
             'stroke="currentColor"/>',
             f'<text x="{GAUGE_LEFT + GAUGE_WIDTH / 2}" y="{base + 14}" text-anchor="middle" font-size="11">'
             f'{html.escape(tr("count {count}", count=s.count))}</text>']
    for role, value, color, dash in (("warn", s.warn_threshold, warn_color, "6 4"),
                                     ("hard", s.hard_limit, stop_color, HARD_DASH)):
        y = base - unit * value
        label = tr("warn ({limit})", limit=value) if role == "warn" else tr("hard ({limit})", limit=value)
        parts.append(f'<line data-level="{role}" data-value="{value}" x1="{GAUGE_LEFT - 8}" '
                     f'x2="{GAUGE_LEFT + GAUGE_WIDTH + 8}" y1="{y}" y2="{y}" stroke="{color}" stroke-width="2" '
                     f'stroke-dasharray="{dash}"/>')
        parts.append(f'<text x="{GAUGE_LEFT + GAUGE_WIDTH + 12}" y="{y + 4}" font-size="11">{html.escape(label)}</text>')
    return parts


def _notes(snapshot: WindowSnapshot) -> list[str]:
    """The lines written under the squares: the key to the drawing, and the batches after a stop."""
    notes = [tr("Filled and numbered: the repeated batch inside the window. Dashed: the repeated batch, slid out. "
                "Triangle: warn; cross: stop.")]
    if snapshot.later:
        notes.append(ntr("The run stopped at turn {step}: its {n} later batch is not drawn.",
                         "The run stopped at turn {step}: its {n} later batches are not drawn.",
                         snapshot.later, step=snapshot.stopped_at))
    return [line for note in notes for line in textwrap.wrap(note, NOTE_WIDTH)]


def _row_height(snapshot: WindowSnapshot) -> float:
    return TAPE_TOP + CELL_HEIGHT + 26 + LINE * len(_notes(snapshot))


def _row(snapshot: WindowSnapshot) -> str:
    from .timelines import STOP_COLOR, WARN_COLOR

    s = snapshot
    warn_color, stop_color = _hex(WARN_COLOR), _hex(STOP_COLOR)
    width = min(24.0, TAPE_WIDTH / max(len(s.turns), 1))
    first, last = s.window
    parts = [f'<text x="{LEFT}" y="16" font-size="13" font-weight="bold">'
             f'{html.escape(s.label or tr("The hash window after turn {turn}", turn=s.turn))}</text>']
    x_of = {turn.turn: LEFT + width * index for index, turn in enumerate(s.turns)}
    left, right = x_of[first], x_of[last] + width
    held = tr("window, at most the last {size} batches: turns {first} to {last}", size=s.window_size, first=first,
              last=last)
    parts.append(f'<text x="{left}" y="34" font-size="11">{html.escape(held)}</text>')
    parts.append(f'<rect data-window="{first}-{last}" x="{left - 1}" y="{TAPE_TOP - 4}" width="{right - left + 2}" '
                 f'height="{CELL_HEIGHT + 8}" fill="currentColor" fill-opacity="0.08" stroke="currentColor" '
                 'stroke-width="2"/>')
    every = 1 if len(s.turns) <= 30 else 5
    for turn in s.turns:
        x = x_of[turn.turn]
        if turn.repeat and turn.in_window:
            parts.append(_cell(x, width, TAPE_TOP, turn, REPEAT_COLOR, REPEAT_COLOR, "", str(turn.occurrence)))
        elif turn.repeat:  # the repeated batch, slid out of the window: dashed, unfilled, not counted
            parts.append(_cell(x, width, TAPE_TOP, turn, "none", REPEAT_COLOR, "3 2", ""))
        else:
            parts.append(_cell(x, width, TAPE_TOP, turn, "none", "currentColor", "", ""))
        if turn.action in ("warn", "stop"):
            parts.append(_decision_mark(x + width / 2, TAPE_TOP - 7, turn.action, warn_color, stop_color))
        if turn.turn % every == 0 or turn.turn == 1:
            parts.append(f'<text data-turn-label="{turn.turn}" x="{x + width / 2}" y="{TAPE_TOP + CELL_HEIGHT + 14}" '
                         f'text-anchor="middle" font-size="10">{turn.turn}</text>')
    parts += _gauge(s, TAPE_TOP + CELL_HEIGHT, warn_color, stop_color)
    for index, line in enumerate(_notes(s)):
        parts.append(f'<text data-note="{index}" x="{LEFT}" y="{TAPE_TOP + CELL_HEIGHT + 34 + LINE * index}" '
                     f'font-size="11">{html.escape(line)}</text>')
    return "".join(parts)


def window_svg(*snapshots: WindowSnapshot, alt: str | None = None) -> str:
    """One row per snapshot, top to bottom, as an inline ``<svg>``; ``alt`` (default: each row's
    :func:`window_description`) is what a screen reader reads (the SVG's ``aria-label`` and ``<title>``).

    >>> from loopkit.teaching.hash_window import edit_test_cycle, snapshot
    >>> svg = window_svg(snapshot(edit_test_cycle(every=4, turns=20)))
    >>> svg.count('data-repeat="1" data-in-window="1"'), 'data-window="1-17"' in svg
    (5, True)
    """
    if not snapshots:
        raise ValueError("window_svg needs at least one snapshot")
    for index, snapshot in enumerate(snapshots):
        require_instance(f"snapshots[{index}]", snapshot, WindowSnapshot)
    rows, top = [], 0.0
    for snapshot in snapshots:
        rows.append(f'<g data-row="{snapshot.turn}" transform="translate(0 {top})">{_row(snapshot)}</g>')
        top += _row_height(snapshot) + 18
    label = html.escape(alt if alt is not None else " ".join(window_description(s) for s in snapshots))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {top}" width="100%" '
            f'style="max-width:{WIDTH}px;height:auto;color:var(--jp-ui-font-color1, #1f1f1f)" role="img" '
            f'aria-label="{label}" font-family="sans-serif" fill="currentColor"><title>{label}</title>'
            + "".join(rows) + "</svg>")


class WindowFigure:
    """The window figure as a notebook displays it: the SVG of :func:`window_svg`, and a one-line text form.

    ``alt`` is its description; ``svg`` its drawing."""

    def __init__(self, *snapshots: WindowSnapshot) -> None:
        self.svg = window_svg(*snapshots)
        self.alt = " ".join(window_description(s) for s in snapshots)
        self._rows = len(snapshots)

    def _repr_html_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"<window figure: {self._rows} row(s)>"


def window(*snapshots: WindowSnapshot) -> WindowFigure:
    """The chapter's window figure: one row per snapshot (see the module); display it by leaving it last in a cell.

    >>> from loopkit.teaching.hash_window import edit_test_cycle, snapshot
    >>> window(snapshot(edit_test_cycle(every=5, turns=25), turn=21))
    <window figure: 1 row(s)>
    """
    return WindowFigure(*snapshots)
