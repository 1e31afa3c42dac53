"""The replay timeline: both detector layers over the course of a run, against their thresholds (chapter 05).

What a timeline draws is data first (:func:`timeline_data`), so a test reads it without pixels, and two drawings take
it: :func:`timeline` here (matplotlib, for the chapters and ``--plot``) and the playground's SVG
(:mod:`loopkit.views.plots.svg_timelines`). The policy, in three rules:

- **The run ends at its first stop.** A replay table may go on past it (the counts of what would have followed);
  the timeline stops there and says in words how many batches it leaves out.
- **The hash panel follows the repeated batch.** It plots, after every batch, how often the batch the hash layer
  warned or stopped on is in the window (:mod:`loopkit.teaching.hash_window`), not each batch's own count, which
  zig-zags whenever a different batch comes between two repeats.
- **No panel is drawn empty.** A layer that warned or stopped gets its panel; a layer that decided nothing is left
  out, and a sentence says how close it came. When neither decided, the one that came closest to its warn
  threshold is drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

from loopkit.core.checks import require_instance, require_int
from loopkit.core.detector import DetectorConfig
from loopkit.core.language import ntr, tr
from loopkit.teaching.hash_window import counts_in_window, followed_fingerprints
from loopkit.teaching.replay_table import TOOL_PREFIX, config_of, tool_columns

from .described import describe

__all__ = ["Limit", "Marker", "Panel", "Series", "TimelineData", "timeline", "timeline_data", "timeline_description"]

# Okabe and Ito's palette, told apart by readers with every common colour-vision deficiency; each line also has a
# style or marker of its own, so no two are told apart by colour alone.
WARN_COLOR = "#e69f00"  # orange
STOP_COLOR = "#d55e00"  # vermillion
HASH_COLOR = "#000000"
#: The repeated batches' lines (up to three): colour, marker and dash of each, all different.
_REPEAT_STYLES = (("#000000", "o", "-"), ("#0072b2", "s", "--"), ("#009e73", "D", ":"))
_TOOL_STYLES = (("#0072b2", "o"), ("#009e73", "s"), ("#cc79a7", "D"), ("#56b4e9", "v"), ("#f0e442", "P"))
_TOOL_COLORS = tuple(color for color, _ in _TOOL_STYLES)  # the same colours for the playground's SVG timeline
#: Line style and end marker of the limits: (warn, hard), for the layer's own limits and for a tool's override.
_LIMIT_STYLES = {"layer": (("--", ""), ("-.", "")), "override": ((":", ""), (":", "d"))}
REQUIRED_COLUMNS = {"step", "fingerprint", "hash_count", "action", "layer", "count"}


@dataclass(frozen=True)
class Series:
    """One line: its legend label (in the learner's language), its key (``repeat:<fingerprint>`` or
    ``tool:<name>``), and its count after each drawn batch."""

    label: str
    key: str
    counts: tuple[int, ...]


@dataclass(frozen=True)
class Limit:
    """A horizontal line: ``role`` is ``"warn"`` or ``"hard"``, ``tool`` the tool of an override (else ``None``)."""

    role: str
    value: int
    label: str
    tool: str | None = None


@dataclass(frozen=True)
class Marker:
    """A decision drawn at the count it reported: ``action`` is ``"warn"`` or ``"stop"``."""

    step: int
    count: int
    action: str


@dataclass(frozen=True)
class Panel:
    """One layer's panel: ``layer`` is ``"hash"`` or ``"frequency"``."""

    layer: str
    series: tuple[Series, ...]
    limits: tuple[Limit, ...]
    markers: tuple[Marker, ...]

    @property
    def high(self) -> int:
        """The highest value the panel must show: a count or a limit."""
        return max([limit.value for limit in self.limits] + [c for s in self.series for c in s.counts] + [1])


@dataclass(frozen=True)
class TimelineData:
    """What a timeline draws: the batches up to the first stop (``steps``), one panel per layer worth drawing (hash
    first), the sentences that say what is left out (``notes``), and the whole picture in words (``description``,
    its alt text)."""

    steps: tuple[int, ...]
    panels: tuple[Panel, ...]
    notes: tuple[str, ...]
    description: str

    def panel(self, layer: str) -> Panel | None:
        """The panel of ``layer``, or ``None`` when it is not drawn."""
        return next((p for p in self.panels if p.layer == layer), None)


def _check_table(df) -> None:
    missing = REQUIRED_COLUMNS - set(getattr(df, "columns", ()))
    if missing:
        raise ValueError(f"df must be a table from loopkit.teaching.replay_table.replay(); it lacks the column(s) "
                         f"{sorted(missing)}")


def _up_to_first_stop(df):
    stops = df.index[df["action"] == "stop"]
    return df if not len(stops) else df.loc[: stops[0]]


def _markers(drawn, layer: str) -> tuple[Marker, ...]:
    rows = drawn[(drawn["layer"] == layer) & drawn["action"].isin(["warn", "stop"])]
    return tuple(Marker(int(r.step), int(r.count), r.action) for r in rows.itertuples())


def _layer_limits(warn: int, hard: int) -> tuple[Limit, ...]:
    return (Limit("warn", warn, tr("warn ({limit})", limit=warn)), Limit("hard", hard, tr("hard ({limit})", limit=hard)))


def _hash_panel(drawn, config: DetectorConfig) -> Panel:
    fingerprints = drawn["fingerprint"].tolist()
    decided = [f if layer == "hash" and action != "ok" else None
               for f, layer, action in zip(fingerprints, drawn["layer"], drawn["action"], strict=True)]
    series = []
    for fingerprint in followed_fingerprints(fingerprints, decided):
        first = int(drawn["step"].iloc[fingerprints.index(fingerprint)])
        series.append(Series(tr("repeats of batch {step}", step=first), f"repeat:{fingerprint}",
                             tuple(counts_in_window(fingerprints, fingerprint, config.window_size))))
    return Panel("hash", tuple(series), _layer_limits(config.warn_threshold, config.hard_limit),
                 _markers(drawn, "hash"))


def _frequency_panel(drawn, config: DetectorConfig, top: int) -> Panel:
    shown = tool_columns(drawn)[:top]
    series = tuple(Series(tr("calls: {tool}", tool=tool), f"tool:{tool}", tuple(drawn[TOOL_PREFIX + tool].tolist()))
                   for tool in shown)
    limits = list(_layer_limits(config.tool_freq_warn, config.tool_freq_hard_limit))
    for tool in shown:
        if tool in config.tool_freq_overrides:
            warn, hard = config.tool_freq_overrides[tool]
            limits += [Limit("warn", warn, tr("{tool} warn ({limit})", tool=tool, limit=warn), tool),
                       Limit("hard", hard, tr("{tool} hard ({limit})", tool=tool, limit=hard), tool)]
    return Panel("frequency", series, tuple(limits), _markers(drawn, "frequency"))


def _hash_closeness(panel: Panel, config: DetectorConfig) -> tuple[float, int]:
    peak = max((max(s.counts, default=0) for s in panel.series), default=0)
    return peak / config.warn_threshold, peak


def _frequency_closeness(drawn, config: DetectorConfig) -> tuple[float, int, str]:
    """How close the busiest tool came to its own warn threshold: (ratio, its peak count, the tool)."""
    best = (0.0, 0, "-")
    for tool in tool_columns(drawn):
        peak = int(drawn[TOOL_PREFIX + tool].max())
        warn, _ = config.thresholds_for(tool)
        best = max(best, (peak / warn, peak, tool), key=lambda item: item[0])
    return best


def _first(panel_markers, action: str) -> str:
    steps = [m.step for m in panel_markers if m.action == action]
    return tr("batch {step}", step=steps[0]) if steps else tr("never")


def _panel_words(panel: Panel, config: DetectorConfig, position: str) -> str:
    first_warn, first_stop = _first(panel.markers, "warn"), _first(panel.markers, "stop")
    if panel.layer == "hash":
        return tr("{position}, the hash layer: how often the repeated batch is in the window, against the warn "
                  "threshold {warn} and the hard limit {hard}; first warning: {first_warn}, first stop: "
                  "{first_stop}.", position=position, warn=config.warn_threshold, hard=config.hard_limit,
                  first_warn=first_warn, first_stop=first_stop)
    tools = ", ".join(s.key.removeprefix("tool:") for s in panel.series) or "-"
    return tr("{position}, the frequency layer: the calls of {tools} in the window, against {warn} and {hard}; "
              "first warning: {first_warn}, first stop: {first_stop}.", position=position, tools=tools,
              warn=config.tool_freq_warn, hard=config.tool_freq_hard_limit, first_warn=first_warn,
              first_stop=first_stop)


def timeline_data(df, config: DetectorConfig | None = None, *, top: int = 3) -> TimelineData:
    """What :func:`timeline` draws for a :func:`loopkit.teaching.replay_table.replay` table (see the module's rules).

    ``config`` defaults to the one the table was replayed with; ``top`` is how many of the busiest tools the
    frequency panel shows.

    >>> from loopkit.teaching import patterns, replay_table
    >>> data = timeline_data(replay_table.replay(patterns.get("edit_test_same_failure")))
    >>> [p.layer for p in data.panels], data.panels[0].series[0].counts, data.steps[-1]
    (['hash'], (0, 1, 1, 2, 2, 3, 3, 4, 4, 5), 10)
    """
    _check_table(df)
    require_instance("config", config, DetectorConfig, or_none=True)
    config = config if config is not None else config_of(df)
    require_int("top", top)
    drawn = _up_to_first_stop(df)
    hash_panel, frequency_panel = _hash_panel(drawn, config), _frequency_panel(drawn, config, top)
    hash_near, hash_peak = _hash_closeness(hash_panel, config)
    freq_near, freq_peak, busiest = _frequency_closeness(drawn, config)
    if hash_panel.markers or frequency_panel.markers:
        panels = tuple(p for p in (hash_panel, frequency_panel) if p.markers)
    else:
        panels = (hash_panel,) if hash_near >= freq_near else (frequency_panel,)
    notes = []
    if hash_panel not in panels and hash_peak <= 1:
        notes.append(tr("The hash layer is not drawn: it decided nothing here, and no batch came back."))
    elif hash_panel not in panels:
        notes.append(tr("The hash layer is not drawn: it decided nothing here. The most repeated batch reached "
                        "{peak} in the window, and the layer warns at {warn}.", peak=hash_peak,
                        warn=config.warn_threshold))
    if frequency_panel not in panels:
        notes.append(tr("The frequency layer is not drawn: it decided nothing here. The busiest tool, {tool}, "
                        "reached {peak} calls in the window, and it warns at {warn}.", tool=busiest, peak=freq_peak,
                        warn=config.thresholds_for(busiest)[0] if busiest != "-" else config.tool_freq_warn))
    later = len(df) - len(drawn)
    if later:
        notes.append(ntr("The run stopped at batch {step}, where a real run ends: the {n} later batch of this "
                         "trace is not drawn.", "The run stopped at batch {step}, where a real run ends: the {n} "
                         "later batches of this trace are not drawn.", later, step=int(drawn["step"].iloc[-1])))
    positions = (tr("Top"), tr("Bottom"))
    words = [tr("Timeline of {batches} batches.", batches=len(drawn))]
    words += [_panel_words(panel, config, position) for panel, position in zip(panels, positions, strict=False)]
    return TimelineData(tuple(int(s) for s in drawn["step"]), panels, tuple(notes), " ".join(words + notes))


def timeline_description(df, config: DetectorConfig | None = None, *, top: int = 3) -> str:
    """What :func:`timeline` draws, in words (the figure's alt text, in the learner's language): each panel, its
    limits, where each layer first warned and stopped, and what is left out."""
    return timeline_data(df, config, top=top).description


def _draw_markers(ax, markers: tuple[Marker, ...]) -> None:
    styles = {"warn": dict(marker="^", color=WARN_COLOR, markersize=9, markeredgecolor="black"),
              "stop": dict(marker="X", color=STOP_COLOR, markersize=10, markeredgecolor="black")}
    for action in ("warn", "stop"):
        chosen = [m for m in markers if m.action == action]
        if chosen:
            ax.plot([m.step for m in chosen], [m.count for m in chosen], linestyle="none", label=action, zorder=5,
                    **styles[action])


def _draw_limits(ax, limits: tuple[Limit, ...]) -> None:
    for limit in limits:
        warn_style, hard_style = _LIMIT_STYLES["layer" if limit.tool is None else "override"]
        style, marker = warn_style if limit.role == "warn" else hard_style
        ax.axhline(limit.value, color=WARN_COLOR if limit.role == "warn" else STOP_COLOR, linestyle=style,
                   marker=marker, linewidth=1.5, label=limit.label)


def timeline(df, config: DetectorConfig | None = None, *, top: int = 3, title: str | None = None):
    """Draw a :func:`loopkit.teaching.replay_table.replay` table and return the Axes ``(hash_ax, freq_ax)``; a layer
    whose panel is not drawn (see the module's rules) gets ``None``.

    The hash panel plots the repeated batch's count in its window against ``warn_threshold`` and ``hard_limit``;
    the frequency panel the windowed call counts of the ``top`` most-called tools against ``tool_freq_warn`` and
    ``tool_freq_hard_limit`` (and a shown tool's override). Markers sit where the detector warned (``^``) and
    stopped (``X``), at the count that decision reported. The run is drawn up to its first stop; the sentences of
    :attr:`TimelineData.notes` are written under the figure. Titles, labels and legends are in the learner's
    language; the markers keep the decision's action, ``warn``/``stop``.
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    data = timeline_data(df, config, top=top)
    height = 3.2 * len(data.panels) + 0.4 * len(data.notes)
    fig, axes = plt.subplots(len(data.panels), 1, sharex=True, figsize=(9, height), layout="constrained",
                             squeeze=False)
    drawn = {}
    steps = list(data.steps)
    for ax, panel in zip(axes[:, 0], data.panels, strict=True):
        drawn[panel.layer] = ax
        if panel.layer == "hash":
            for (color, marker, dash), series in zip(_REPEAT_STYLES, panel.series, strict=False):
                ax.plot(steps, list(series.counts), color=color, marker=marker if len(steps) <= 200 else None,
                        markersize=4, linestyle=dash, label=series.label)
            ax.set_ylabel(tr("same batch in window"))
        else:
            for (color, marker), series in zip(_TOOL_STYLES * (top // len(_TOOL_STYLES) + 1), panel.series,
                                               strict=False):
                ax.plot(steps, list(series.counts), color=color, marker=marker if len(steps) <= 60 else None,
                        markersize=4, label=series.label)
            ax.set_ylabel(tr("calls of a tool in window"))
        _draw_limits(ax, panel.limits)
        _draw_markers(ax, panel.markers)
        ax.set_ylim(bottom=0)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small", borderaxespad=0)
    layers = tuple(panel.layer for panel in data.panels)
    heading = {("hash", "frequency"): tr("Hash layer (top) and frequency layer (bottom)"),
               ("hash",): tr("Hash layer"), ("frequency",): tr("Frequency layer")}[layers]
    axes[0, 0].set_title(title or heading)
    axes[-1, 0].set_xlabel(tr("batch (model turn)"))
    if data.notes:
        fig.supxlabel("\n".join(data.notes), fontsize="small", ha="left", x=0.01, wrap=True)
    describe(fig, data.description)
    return drawn.get("hash"), drawn.get("frequency")
