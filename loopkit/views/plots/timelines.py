"""The replay timeline: both detector layers over the course of a trace, against their thresholds (chapter 05)."""

from __future__ import annotations

from loopkit.core.checks import require_instance, require_int
from loopkit.core.detector import DetectorConfig
from loopkit.core.language import tr
from loopkit.teaching.replay_table import TOOL_PREFIX, config_of, tool_columns

__all__ = ["timeline"]

WARN_COLOR = "tab:orange"
STOP_COLOR = "tab:red"
_TOOL_COLORS = ("tab:blue", "tab:green", "tab:purple", "tab:brown", "tab:pink", "tab:olive", "tab:cyan")


def _markers(ax, rows, y, action: str) -> None:
    if len(rows):
        style = {"warn": dict(marker="^", color=WARN_COLOR, markersize=9),
                 "stop": dict(marker="X", color=STOP_COLOR, markersize=10)}[action]
        ax.plot(rows["step"].tolist(), y, linestyle="none", label=action, zorder=5, **style)


def _limit_lines(ax, warn: int, hard: int, tool: str | None = None, style: str = "--") -> None:
    """A line at the warn threshold and one at the hard limit; a tool's own override names the tool."""
    if tool is None:
        labels = tr("warn ({limit})", limit=warn), tr("hard ({limit})", limit=hard)
    else:
        labels = tr("{tool} warn ({limit})", tool=tool, limit=warn), tr("{tool} hard ({limit})", tool=tool, limit=hard)
    ax.axhline(warn, color=WARN_COLOR, linestyle=style, linewidth=1, label=labels[0])
    ax.axhline(hard, color=STOP_COLOR, linestyle=style, linewidth=1, label=labels[1])


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

    hash_ax.plot(steps, df["hash_count"].tolist(), color="tab:gray", marker="." if len(df) <= 200 else None,
                 label=tr("hash count"))
    _limit_lines(hash_ax, config.warn_threshold, config.hard_limit)
    hash_rows = df[df["layer"] == "hash"]
    for action in ("warn", "stop"):
        rows = hash_rows[hash_rows["action"] == action]
        _markers(hash_ax, rows, rows["count"].tolist(), action)
    hash_ax.set_ylabel(tr("same batch in window"))
    hash_ax.set_title(title or tr("Hash layer (top) and frequency layer (bottom)"))

    shown = tool_columns(df)[:top]
    for color, tool in zip(_TOOL_COLORS * (top // len(_TOOL_COLORS) + 1), shown, strict=False):  # more colours than tools
        freq_ax.plot(steps, df[TOOL_PREFIX + tool].tolist(), color=color, label=tr("calls: {tool}", tool=tool))
    _limit_lines(freq_ax, config.tool_freq_warn, config.tool_freq_hard_limit)
    for tool in shown:
        if tool in config.tool_freq_overrides:
            warn, hard = config.tool_freq_overrides[tool]
            _limit_lines(freq_ax, warn, hard, tool=tool, style=":")
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
    return hash_ax, freq_ax
