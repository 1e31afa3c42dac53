"""The replay timeline: both detector layers over the course of a trace, against their thresholds (chapter 05)."""

from __future__ import annotations

from loopkit.core.checks import require_instance, require_int
from loopkit.core.detector import DetectorConfig
from loopkit.core.language import tr
from loopkit.teaching.replay_table import TOOL_PREFIX, config_of, tool_columns

from .described import describe

__all__ = ["timeline", "timeline_description"]

# Okabe and Ito's palette, told apart by readers with every common colour-vision deficiency; each line also has a
# style or marker of its own, so no two are told apart by colour alone.
WARN_COLOR = "#e69f00"  # orange
STOP_COLOR = "#d55e00"  # vermillion
HASH_COLOR = "#000000"
_TOOL_STYLES = (("#0072b2", "o"), ("#009e73", "s"), ("#cc79a7", "D"), ("#56b4e9", "v"), ("#f0e442", "P"))
_TOOL_COLORS = tuple(color for color, _ in _TOOL_STYLES)  # the same colours for the playground's SVG timeline
#: Line style and end marker of the limits: (warn, hard), for the layer's own limits and for a tool's override.
_LIMIT_STYLES = {"layer": (("--", ""), ("-.", "")), "override": ((":", ""), (":", "d"))}


def _markers(ax, rows, y, action: str) -> None:
    if len(rows):
        style = {"warn": dict(marker="^", color=WARN_COLOR, markersize=9, markeredgecolor="black"),
                 "stop": dict(marker="X", color=STOP_COLOR, markersize=10, markeredgecolor="black")}[action]
        ax.plot(rows["step"].tolist(), y, linestyle="none", label=action, zorder=5, **style)


def _limit_lines(ax, warn: int, hard: int, tool: str | None = None) -> None:
    """A line at the warn threshold and one at the hard limit; a tool's own override names the tool."""
    if tool is None:
        labels = tr("warn ({limit})", limit=warn), tr("hard ({limit})", limit=hard)
    else:
        labels = tr("{tool} warn ({limit})", tool=tool, limit=warn), tr("{tool} hard ({limit})", tool=tool, limit=hard)
    (warn_style, warn_marker), (hard_style, hard_marker) = _LIMIT_STYLES["layer" if tool is None else "override"]
    ax.axhline(warn, color=WARN_COLOR, linestyle=warn_style, marker=warn_marker, linewidth=1.5, label=labels[0])
    ax.axhline(hard, color=STOP_COLOR, linestyle=hard_style, marker=hard_marker, linewidth=1.5, label=labels[1])


def _first_step(df, layer: str, action: str) -> str:
    rows = df[(df["layer"] == layer) & (df["action"] == action)]
    return tr("batch {step}", step=int(rows["step"].iloc[0])) if len(rows) else tr("never")


def timeline_description(df, config: DetectorConfig, tools) -> str:
    """What :func:`timeline` draws, in words (the figure's alt text, in the learner's language): each panel, its
    limits, and where each layer first warned and stopped."""
    hash_part = tr("Timeline of {batches} batches. Top, the hash layer: how often the same batch is in the window, "
                   "against the warn threshold {warn} and the hard limit {hard}; first warning: {first_warn}, first "
                   "stop: {first_stop}.", batches=len(df), warn=config.warn_threshold, hard=config.hard_limit,
                   first_warn=_first_step(df, "hash", "warn"), first_stop=_first_step(df, "hash", "stop"))
    freq_part = tr("Bottom, the frequency layer: the calls of {tools} in the window, against {warn} and {hard}; "
                   "first warning: {first_warn}, first stop: {first_stop}.", tools=", ".join(tools) or "-",
                   warn=config.tool_freq_warn, hard=config.tool_freq_hard_limit,
                   first_warn=_first_step(df, "frequency", "warn"), first_stop=_first_step(df, "frequency", "stop"))
    return f"{hash_part} {freq_part}"


def timeline(df, config: DetectorConfig | None = None, *, top: int = 3, title: str | None = None):
    """Draw a :func:`loopkit.teaching.replay_table.replay` table as two panels and return their Axes ``(hash_ax, freq_ax)``.

    The top panel is the hash layer: the batch fingerprint's count in its window against ``warn_threshold`` and
    ``hard_limit``. The bottom panel is the frequency layer: the windowed call counts of the ``top`` most-called
    tools against ``tool_freq_warn`` and ``tool_freq_hard_limit`` (and a shown tool's override, if it has one).
    Markers sit where the detector warned (``^``) and stopped (``X``), in the panel of the layer that decided,
    at the count that decision reported. ``config`` defaults to the one the table was replayed with. Titles, axis
    labels and legends are in the learner's language; the markers keep the decision's action, ``warn``/``stop``.
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    missing = {"step", "hash_count", "action", "layer", "count"} - set(getattr(df, "columns", ()))
    if missing:
        raise ValueError(f"df must be a table from loopkit.teaching.replay_table.replay(); it lacks the column(s) {sorted(missing)}")
    require_instance("config", config, DetectorConfig, or_none=True)
    config = config if config is not None else config_of(df)
    require_int("top", top)

    fig, (hash_ax, freq_ax) = plt.subplots(2, 1, sharex=True, figsize=(9, 5.5), layout="constrained")
    steps = df["step"].tolist()

    hash_ax.plot(steps, df["hash_count"].tolist(), color=HASH_COLOR, marker="." if len(df) <= 200 else None,
                 label=tr("hash count"))
    _limit_lines(hash_ax, config.warn_threshold, config.hard_limit)
    hash_rows = df[df["layer"] == "hash"]
    for action in ("warn", "stop"):
        rows = hash_rows[hash_rows["action"] == action]
        _markers(hash_ax, rows, rows["count"].tolist(), action)
    hash_ax.set_ylabel(tr("same batch in window"))
    hash_ax.set_title(title or tr("Hash layer (top) and frequency layer (bottom)"))

    shown = tool_columns(df)[:top]
    for (color, marker), tool in zip(_TOOL_STYLES * (top // len(_TOOL_STYLES) + 1), shown, strict=False):
        freq_ax.plot(steps, df[TOOL_PREFIX + tool].tolist(), color=color, marker=marker if len(df) <= 60 else None,
                     markersize=4, label=tr("calls: {tool}", tool=tool))
    _limit_lines(freq_ax, config.tool_freq_warn, config.tool_freq_hard_limit)
    for tool in shown:
        if tool in config.tool_freq_overrides:
            warn, hard = config.tool_freq_overrides[tool]
            _limit_lines(freq_ax, warn, hard, tool=tool)
    freq_rows = df[df["layer"] == "frequency"]
    for action in ("warn", "stop"):
        rows = freq_rows[freq_rows["action"] == action]
        _markers(freq_ax, rows, rows["count"].tolist(), action)
    freq_ax.set_ylabel(tr("calls of a tool in window"))
    freq_ax.set_xlabel(tr("batch (model turn)"))

    for ax in (hash_ax, freq_ax):
        ax.set_ylim(bottom=0)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", borderaxespad=0)
    describe(fig, timeline_description(df, config, shown))
    return hash_ax, freq_ax
