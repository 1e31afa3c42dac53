"""The replay timeline as a small SVG, for the playground that redraws it on every control change (chapter 05).

Why an SVG and not matplotlib: the playground redraws on every slider move. Drawing a new matplotlib figure and
encoding it as a PNG took about 0.4 s per change, 98% of the render, and sent about 80 KB to the page; this SVG is
a few kilobytes of text built in a few milliseconds (``benchmarks/bench_views.py`` measures both). Updating the
artists of one kept figure would still pay for the PNG encoding on every change, and ``ipympl`` would add a
dependency and a JupyterLab extension to every install path (Binder, the hub, a laptop) for one view. The chapters
still teach plotting with matplotlib: :func:`loopkit.views.plots.timeline` draws the same two panels, and this
module takes its colours from there, so both pictures say the same thing.

The drawing mirrors :func:`~loopkit.views.plots.timeline`: the hash layer on top (the batch fingerprint's count
against ``warn_threshold`` and ``hard_limit``), the frequency layer below (the ``top`` busiest tools' windowed
counts against ``tool_freq_warn`` and ``tool_freq_hard_limit``, and a shown tool's override), and a marker where
the detector warned (triangle) or stopped (cross), in the panel of the layer that decided. Every drawn element
carries ``data-`` attributes that say what it stands for, so a test reads the drawing, not the pixels.
"""

from __future__ import annotations

import html

from loopkit.core.checks import require_instance, require_int
from loopkit.core.detector import DetectorConfig
from loopkit.core.language import tr
from loopkit.teaching.replay_table import TOOL_PREFIX, config_of, tool_columns

__all__ = ["timeline_svg", "nice_ticks"]

WIDTH = 760  # the drawing's own units; the SVG scales down to its output area (width 100%)
LEFT, PLOT_WIDTH = 52, 500  # the legend sits right of the plot
PANEL_HEIGHT, TITLE_HEIGHT, GAP, BOTTOM = 150, 28, 30, 44
HEIGHT = TITLE_HEIGHT + 2 * PANEL_HEIGHT + GAP + BOTTOM


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
                 alt: str = "") -> str:
    """A :func:`loopkit.teaching.replay_table.replay` table as an inline ``<svg>`` of two panels (see the module).

    ``config`` defaults to the one the table was replayed with; ``alt`` is the text a screen reader reads (the
    SVG's ``aria-label`` and ``<title>``). Titles, axis labels and legends are in the learner's language.

    >>> from loopkit.teaching import patterns, replay_table
    >>> svg = timeline_svg(replay_table.replay(patterns.get("exact_repeat")), alt="exact_repeat")
    >>> svg.startswith("<svg") and svg.count('data-marker="stop"')
    4
    """
    from .timelines import _TOOL_COLORS, STOP_COLOR, WARN_COLOR

    missing = {"step", "hash_count", "action", "layer", "count"} - set(getattr(df, "columns", ()))
    if missing:
        raise ValueError(f"df must be a table from loopkit.teaching.replay_table.replay(); it lacks the column(s) {sorted(missing)}")
    require_instance("config", config, DetectorConfig, or_none=True)
    if config is None:
        config = config_of(df)
    require_int("top", top)
    warn_color, stop_color = _hex(WARN_COLOR), _hex(STOP_COLOR)
    steps = df["step"].tolist()
    last = steps[-1] if steps else 1
    actions, layers, counts = df["action"].tolist(), df["layer"].tolist(), df["count"].tolist()

    def decisions(panel: _Panel, layer: str) -> list[tuple[str, str, str]]:
        shown = []
        for action, color, shape in (("warn", warn_color, "^"), ("stop", stop_color, "X")):
            rows = [(s, int(c)) for s, a, lay, c in zip(steps, actions, layers, counts, strict=True) if a == action and lay == layer]
            for step, count in rows:
                panel.marker(step, count, action, color)
            if rows:
                shown.append((action, color, shape))
        return shown

    hash_counts = df["hash_count"].tolist()
    hash_top = TITLE_HEIGHT
    hash_panel = _Panel(hash_top, last, max([config.hard_limit, *hash_counts]) * 1.05)
    hash_panel.frame(tr("same batch in window"))
    hash_panel.level(config.warn_threshold, warn_color, "warn", "6 4")
    hash_panel.level(config.hard_limit, stop_color, "hard", "6 4")
    hash_panel.series(steps, hash_counts, "#6b6b6b", "hash")
    hash_legend = [(tr("hash count"), "#6b6b6b", ""),
                   (tr("warn ({limit})", limit=config.warn_threshold), warn_color, "6 4"),
                   (tr("hard ({limit})", limit=config.hard_limit), stop_color, "6 4")]
    hash_legend += decisions(hash_panel, "hash")

    shown = tool_columns(df)[:top]
    freq_top = hash_top + PANEL_HEIGHT + GAP
    tool_counts = {tool: df[TOOL_PREFIX + tool].tolist() for tool in shown}
    limits = [config.tool_freq_hard_limit, *(config.tool_freq_overrides[t][1] for t in shown
                                             if t in config.tool_freq_overrides)]
    freq_panel = _Panel(freq_top, last, max([*limits, *(c for cs in tool_counts.values() for c in cs)]) * 1.05)
    freq_panel.frame(tr("calls of a tool in window"))
    freq_panel.level(config.tool_freq_warn, warn_color, "warn", "6 4")
    freq_panel.level(config.tool_freq_hard_limit, stop_color, "hard", "6 4")
    freq_legend = []
    colors = [_hex(c) for c in _TOOL_COLORS]
    for index, tool in enumerate(shown):
        color = colors[index % len(colors)]
        freq_panel.series(steps, tool_counts[tool], color, f"tool:{tool}")
        freq_legend.append((tr("calls: {tool}", tool=tool), color, ""))
    freq_legend += [(tr("warn ({limit})", limit=config.tool_freq_warn), warn_color, "6 4"),
                    (tr("hard ({limit})", limit=config.tool_freq_hard_limit), stop_color, "6 4")]
    for tool in shown:
        if tool in config.tool_freq_overrides:
            warn, hard = config.tool_freq_overrides[tool]
            freq_panel.level(warn, warn_color, f"{tool} warn", "2 3")
            freq_panel.level(hard, stop_color, f"{tool} hard", "2 3")
            freq_legend += [(tr("{tool} warn ({limit})", tool=tool, limit=warn), warn_color, "2 3"),
                            (tr("{tool} hard ({limit})", tool=tool, limit=hard), stop_color, "2 3")]
    freq_legend += decisions(freq_panel, "frequency")

    x_ticks = nice_ticks(last, most=10)
    axis = []
    for tick in x_ticks[1:] if last > 1 else [1]:
        if tick <= last:
            x = freq_panel.x(tick)
            axis.append(f'<text data-step-tick="{tick}" x="{x}" y="{freq_top + PANEL_HEIGHT + 15}" '
                        f'text-anchor="middle" font-size="11">{tick}</text>')
    axis.append(f'<text x="{LEFT + PLOT_WIDTH / 2}" y="{HEIGHT - 8}" text-anchor="middle" font-size="12">'
                f'{html.escape(tr("batch (model turn)"))}</text>')
    heading = html.escape(title or tr("Hash layer (top) and frequency layer (bottom)"))
    label = html.escape(alt)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" '
            f'style="max-width:{WIDTH}px;height:auto;color:var(--jp-ui-font-color1, #1f1f1f)" role="img" '
            f'aria-label="{label}" font-family="sans-serif" fill="currentColor"><title>{label}</title>'
            f'<text x="{LEFT + PLOT_WIDTH / 2}" y="17" text-anchor="middle" font-size="13">{heading}</text>'
            + '<g data-panel="hash">' + "".join(hash_panel.parts + _legend(hash_legend, hash_top)) + "</g>"
            + '<g data-panel="frequency">' + "".join(freq_panel.parts + _legend(freq_legend, freq_top)) + "</g>"
            + "".join(axis)
            + "</svg>")
