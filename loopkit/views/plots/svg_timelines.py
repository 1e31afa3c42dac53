"""The replay timeline as a small SVG, for the playground that redraws it on every control change (chapter 05).

Why an SVG and not matplotlib: the playground redraws on every slider move. Drawing a new matplotlib figure and
encoding it as a PNG took about 0.4 s per change, 98% of the render, and sent about 80 KB to the page; this SVG is
a few kilobytes of text built in a few milliseconds (``benchmarks/bench_views.py`` measures both). Updating the
artists of one kept figure would still pay for the PNG encoding on every change, and ``ipympl`` would add a
dependency and a JupyterLab extension to every install path (Binder, the hub, a laptop) for one view. The chapters
still teach plotting with matplotlib: :func:`loopkit.views.plots.timeline` draws the same panels from the same data
(:func:`~loopkit.views.plots.timelines.timeline_data`), and this module takes its colours from there, so both
pictures say the same thing.

The drawing follows that data: the run up to its first stop, the hash panel (the repeated batch's count against
``warn_threshold`` and ``hard_limit``) and the frequency panel (the ``top`` busiest tools' windowed counts against
``tool_freq_warn`` and ``tool_freq_hard_limit``, and a shown tool's override), each only when it is worth drawing,
a marker where the detector warned (triangle) or stopped (cross), and under the panels, in words, what is left out.
Every drawn element carries ``data-`` attributes that say what it stands for, so a test reads the drawing, not the
pixels.
"""

from __future__ import annotations

import html
import textwrap

from loopkit.core.detector import DetectorConfig
from loopkit.core.language import tr

__all__ = ["timeline_svg", "nice_ticks"]

WIDTH = 760  # the drawing's own units; the SVG scales down to its output area (width 100%)
LEFT, PLOT_WIDTH = 52, 500  # the legend sits right of the plot
PANEL_HEIGHT, TITLE_HEIGHT, GAP, BOTTOM = 150, 28, 30, 44
NOTE_LINE, NOTE_WIDTH = 15, 110  # a note's line height, and its characters per line


#: A hard limit's dash pattern (dash-dot) differs from its warn threshold's ("6 4"; a tool's own "2 3"), so the two
#: lines are told apart without their colours.
HARD_DASH = "10 3 2 3"
OVERRIDE_HARD_DASH = "2 3 6 3"
#: The repeated batches' lines, as matplotlib's line styles in :data:`~loopkit.views.plots.timelines._REPEAT_STYLES`.
SERIES_DASHES = {"": "", "-": "", "--": "7 4", ":": "2 3"}


def nice_ticks(high: float, most: int = 6) -> list[int]:
    """Integer ticks from 0 to at least ``high``, a step of 1, 2 or 5 times a power of ten, at most ``most`` + 1.

    >>> nice_ticks(5), nice_ticks(50), nice_ticks(0)
    ([0, 1, 2, 3, 4, 5], [0, 10, 20, 30, 40, 50], [0, 1])
    """
    high = max(1, high)
    step, scale = 1, 1
    while -(-high // step) > most:
        for factor in (2, 5, 10):
            step = factor * scale
            if -(-high // step) <= most:
                break
        scale *= 10
    return list(range(0, int(-(-high // step)) * step + 1, step))


def _hex(color: str) -> str:
    """A matplotlib colour name (``"tab:orange"``) as the ``#rrggbb`` an SVG understands."""
    from matplotlib.colors import to_hex

    return to_hex(color)


class _Panel:
    """One plot area: maps (step, count) to drawing units, and collects its elements."""

    def __init__(self, top: float, last_step: int, high: float) -> None:
        self.top = top
        self.last_step = max(last_step, 1)
        self.ticks = nice_ticks(high)
        self.parts: list[str] = []

    def x(self, step: float) -> float:
        if self.last_step == 1:
            return round(LEFT + PLOT_WIDTH / 2, 1)
        return round(LEFT + PLOT_WIDTH * (step - 1) / (self.last_step - 1), 1)

    def y(self, count: float) -> float:
        return round(self.top + PANEL_HEIGHT * (1 - count / self.ticks[-1]), 1)

    def frame(self, ylabel: str) -> None:
        self.parts.append(f'<rect x="{LEFT}" y="{self.top}" width="{PLOT_WIDTH}" height="{PANEL_HEIGHT}" '
                          'fill="none" stroke="currentColor" stroke-opacity="0.5"/>')
        for tick in self.ticks:
            y = self.y(tick)
            self.parts.append(f'<text data-tick="{tick}" x="{LEFT - 6}" y="{y + 4}" text-anchor="end" '
                              f'font-size="11">{tick}</text>')
            self.parts.append(f'<line x1="{LEFT - 3}" x2="{LEFT}" y1="{y}" y2="{y}" stroke="currentColor"/>')
        middle = self.top + PANEL_HEIGHT / 2
        self.parts.append(f'<text x="14" y="{middle}" font-size="11" text-anchor="middle" '
                          f'transform="rotate(-90 14 {middle})">{html.escape(ylabel)}</text>')

    def series(self, steps: list[int], counts: list[int], color: str, name: str, dash: str = "") -> None:
        points = " ".join(f"{self.x(s)},{self.y(c)}" for s, c in zip(steps, counts, strict=True))
        self.parts.append(f'<polyline data-series="{html.escape(name)}" points="{points}" fill="none" '
                          f'stroke="{color}" stroke-width="1.6"{dash}/>')

    def level(self, value: int, color: str, role: str, dash: str) -> None:
        y = self.y(value)
        self.parts.append(f'<line data-level="{html.escape(role)}" data-value="{value}" x1="{LEFT}" '
                          f'x2="{LEFT + PLOT_WIDTH}" y1="{y}" y2="{y}" stroke="{color}" stroke-dasharray="{dash}"/>')

    def marker(self, step: int, count: int, action: str, color: str) -> None:
        x, y = self.x(step), self.y(count)
        if action == "warn":  # a triangle, as matplotlib's "^"
            shape = (f'<polygon points="{x},{y - 6} {x - 5.5},{y + 4} {x + 5.5},{y + 4}" fill="{color}"/>')
        else:  # a cross, as matplotlib's "X"
            shape = (f'<path d="M{x - 5},{y - 5}L{x + 5},{y + 5}M{x - 5},{y + 5}L{x + 5},{y - 5}" '
                     f'stroke="{color}" stroke-width="3"/>')
        self.parts.append(f'<g data-marker="{action}" data-step="{step}" data-count="{count}">{shape}</g>')


def _legend(entries: list[tuple[str, str, str]], top: float) -> list[str]:
    """Legend rows right of a panel: (label, colour, dash pattern, or "^"/"X" for a marker)."""
    parts = []
    x = LEFT + PLOT_WIDTH + 14
    for row, (label, color, dash) in enumerate(entries):
        y = top + 10 + 17 * row
        if dash in ("^", "X"):
            sample = (f'<polygon points="{x + 11},{y - 6} {x + 6},{y + 3} {x + 16},{y + 3}" fill="{color}"/>'
                      if dash == "^" else
                      f'<path d="M{x + 7},{y - 5}L{x + 15},{y + 3}M{x + 7},{y + 3}L{x + 15},{y - 5}" '
                      f'stroke="{color}" stroke-width="2.5"/>')
        else:
            sample = (f'<line x1="{x}" x2="{x + 22}" y1="{y - 1}" y2="{y - 1}" stroke="{color}" stroke-width="1.6" '
                      f'stroke-dasharray="{dash}"/>')
        parts.append(f'<g data-legend="{html.escape(label)}">{sample}'
                     f'<text x="{x + 28}" y="{y + 3}" font-size="11">{html.escape(label)}</text></g>')
    return parts


def timeline_svg(df, config: DetectorConfig | None = None, *, top: int = 3, title: str | None = None,
                 alt: str | None = None) -> str:
    """A :func:`loopkit.teaching.replay_table.replay` table as an inline ``<svg>`` (see the module).

    ``config`` defaults to the one the table was replayed with; ``alt`` is the text a screen reader reads (the
    SVG's ``aria-label`` and ``<title>``), by default the drawing's own description
    (:attr:`~loopkit.views.plots.timelines.TimelineData.description`). Titles, axis labels, legends and notes are
    in the learner's language.

    >>> from loopkit.teaching import patterns, replay_table
    >>> svg = timeline_svg(replay_table.replay(patterns.get("exact_repeat")), alt="exact_repeat")
    >>> svg.startswith("<svg") and svg.count('data-marker="stop"'), svg.count("data-panel=")
    (1, 1)
    """
    from .timelines import _REPEAT_STYLES, _TOOL_COLORS, STOP_COLOR, WARN_COLOR, timeline_data

    data = timeline_data(df, config, top=top)
    warn_color, stop_color = _hex(WARN_COLOR), _hex(STOP_COLOR)
    steps = list(data.steps)
    last = steps[-1] if steps else 1
    groups, top_y, bottom_panel = [], TITLE_HEIGHT, None
    for panel in data.panels:
        drawn = _Panel(top_y, last, panel.high * 1.05)
        drawn.frame(tr("same batch in window") if panel.layer == "hash" else tr("calls of a tool in window"))
        legend = []
        # the first repeated batch's line is grey, not black, so it shows on the lab's dark theme too
        colors = (["#6b6b6b", *(_hex(color) for color, _, _ in _REPEAT_STYLES[1:])] if panel.layer == "hash"
                  else [_hex(c) for c in _TOOL_COLORS])
        dashes = [dash for _, _, dash in _REPEAT_STYLES] if panel.layer == "hash" else [""]
        for index, series in enumerate(panel.series):
            color, dash = colors[index % len(colors)], SERIES_DASHES[dashes[index % len(dashes)]]
            drawn.series(steps, list(series.counts), color, series.key, f' stroke-dasharray="{dash}"' if dash else "")
            legend.append((series.label, color, dash))
        for limit in panel.limits:
            color = warn_color if limit.role == "warn" else stop_color
            if limit.tool is None:
                dash = "6 4" if limit.role == "warn" else HARD_DASH
            else:
                dash = "2 3" if limit.role == "warn" else OVERRIDE_HARD_DASH
            drawn.level(limit.value, color, limit.role if limit.tool is None else f"{limit.tool} {limit.role}", dash)
            legend.append((limit.label, color, dash))
        for action, color, shape in (("warn", warn_color, "^"), ("stop", stop_color, "X")):
            chosen = [m for m in panel.markers if m.action == action]
            for marker in chosen:
                drawn.marker(marker.step, marker.count, action, color)
            if chosen:
                legend.append((action, color, shape))
        groups.append(f'<g data-panel="{panel.layer}">' + "".join(drawn.parts + _legend(legend, top_y)) + "</g>")
        bottom_panel = drawn
        top_y += PANEL_HEIGHT + GAP
    axis_y = top_y - GAP
    assert bottom_panel is not None, "timeline_data draws at least one panel"
    axis = []
    for tick in nice_ticks(last, most=10)[1:] if last > 1 else [1]:
        if tick <= last:
            axis.append(f'<text data-step-tick="{tick}" x="{bottom_panel.x(tick)}" y="{axis_y + 15}" '
                        f'text-anchor="middle" font-size="11">{tick}</text>')
    axis.append(f'<text x="{LEFT + PLOT_WIDTH / 2}" y="{axis_y + 32}" text-anchor="middle" font-size="12">'
                f'{html.escape(tr("batch (model turn)"))}</text>')
    note_lines = [line for note in data.notes for line in textwrap.wrap(note, NOTE_WIDTH)]
    notes = "".join(f'<text data-note="{index}" x="{LEFT - 40}" y="{axis_y + BOTTOM + 8 + NOTE_LINE * index}" '
                    f'font-size="11">{html.escape(line)}</text>' for index, line in enumerate(note_lines))
    height = axis_y + BOTTOM + NOTE_LINE * len(note_lines) + (8 if note_lines else 0)
    layers = tuple(panel.layer for panel in data.panels)
    heading = html.escape(title or {("hash", "frequency"): tr("Hash layer (top) and frequency layer (bottom)"),
                                    ("hash",): tr("Hash layer"), ("frequency",): tr("Frequency layer")}[layers])
    label = html.escape(data.description if alt is None else alt)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="100%" '
            f'style="max-width:{WIDTH}px;height:auto;color:var(--jp-ui-font-color1, #1f1f1f)" role="img" '
            f'aria-label="{label}" font-family="sans-serif" fill="currentColor"><title>{label}</title>'
            f'<text x="{LEFT + PLOT_WIDTH / 2}" y="17" text-anchor="middle" font-size="13">{heading}</text>'
            + "".join(groups) + "".join(axis) + notes + "</svg>")
