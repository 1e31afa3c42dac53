"""The peer-detector heatmap (chapter 10): which detector acts on which pattern, and when."""

from __future__ import annotations

from loopkit.core.language import N_, tr
from loopkit.teaching.peers import disagrees

from .described import describe

__all__ = ["heatmap", "cell_text", "heatmap_description"]

#: Colours of the three outcomes: nothing, a warning (or feedback), a stop (or a block that waits for a human).
#: Okabe and Ito's orange and vermillion, told apart with every common colour-vision deficiency; each cell also
#: says its outcome in text (``w3 s5``), and black text on each keeps a contrast of at least 5:1.
OUTCOME_COLOURS = {"ok": "#eeeeee", "warn": "#e69f00", "stop": "#d55e00"}
#: The default title, said in the learner's language when the figure is drawn.
TITLE = N_("Which detector acts on which pattern?")


def cell_text(warn_step, stop_step) -> str:
    """The compact annotation of one cell: ``w`` warn step, ``s`` stop step, ``-`` when the detector never acted.

    >>> cell_text(3, 5), cell_text(None, 4), cell_text(None, None)
    ('w3 s5', 's4', '-')
    """
    parts = [f"{letter}{int(step)}" for letter, step in (("w", warn_step), ("s", stop_step))
             if step is not None and step == step]  # step == step is False for NaN/NA
    return " ".join(parts) or "-"


def _missing(value) -> bool:
    import pandas as pd

    return value is None or bool(pd.isna(value))


def _row_label(pattern: str, label) -> str:
    """A row's tick label: the pattern's name and its human label, ``"polling (progress)"``, in the learner's words."""
    if _missing(label):
        return pattern
    words = {"loop": tr("loop"), "progress": tr("progress")}
    return f"{pattern} ({words.get(label, label)})"


def heatmap_description(df) -> str:
    """What :func:`heatmap` draws, in words (the figure's alt text, in the learner's language): its size and the
    cells that disagree with the human label."""
    patterns, detectors = list(dict.fromkeys(df["pattern"])), list(dict.fromkeys(df["detector"]))
    wrong = dict.fromkeys(detectors, 0)
    for row in df.itertuples(index=False):
        wrong[row.detector] += disagrees(None if _missing(row.label) else row.label, row.action)
    size = tr("Grid of {patterns} patterns (rows) by {detectors} detectors (columns); each cell gives the batch where "
              "the detector first warned (w) and stopped (s).", patterns=len(patterns), detectors=len(detectors))
    if not any(wrong.values()):
        return f"{size} {tr('Every detector agrees with the human label.')}"
    counts = ", ".join(f"{detector} {count}" for detector, count in wrong.items())
    return f"{size} {tr('Patterns where a detector disagrees with the human label: {counts}.', counts=counts)}"


def heatmap(df, *, ax=None, title: str | None = TITLE):
    """Draw :func:`loopkit.teaching.peers.compare`'s table as a grid: one row per pattern (labelled with the human verdict),
    one column per detector, coloured by outcome and annotated with the first warn and stop steps. Cells where the
    detector disagrees with the human label (a missed loop, or a false alarm on progress) get a black frame.

    Returns the matplotlib Axes.
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch, Rectangle

    needed = {"pattern", "label", "detector", "warn_step", "stop_step", "action"}
    missing = needed - set(getattr(df, "columns", ()))
    if missing:
        raise ValueError(f"df must be the table loopkit.teaching.peers.compare() returns; it lacks {sorted(missing)}")
    if df.empty:
        raise ValueError("df is empty: compare() at least one pattern with at least one detector")
    patterns = list(dict.fromkeys(df["pattern"]))
    detectors = list(dict.fromkeys(df["detector"]))
    order = {"ok": 0, "warn": 1, "stop": 2}
    grid = [[0] * len(detectors) for _ in patterns]
    labels = {}
    if ax is None:
        _, ax = plt.subplots(figsize=(1.3 * len(detectors) + 3.2, 0.42 * len(patterns) + 1.6))
    for row in df.itertuples(index=False):
        i, j = patterns.index(row.pattern), detectors.index(row.detector)
        grid[i][j] = order[row.action]
        labels[row.pattern] = row.label
        ax.text(j, i, cell_text(None if _missing(row.warn_step) else row.warn_step,
                                None if _missing(row.stop_step) else row.stop_step),
                ha="center", va="center", fontsize=8)
        if disagrees(None if _missing(row.label) else row.label, row.action):
            ax.add_patch(Rectangle((j - 0.45, i - 0.45), 0.9, 0.9, fill=False, edgecolor="black", linewidth=2,
                                   zorder=5))
    colours = ListedColormap([OUTCOME_COLOURS[k] for k in ("ok", "warn", "stop")])
    ax.imshow(grid, cmap=colours, vmin=0, vmax=2, aspect="auto")
    ax.set_xticks(range(len(detectors)), detectors, rotation=30, ha="right")
    ax.set_yticks(range(len(patterns)), [_row_label(p, labels.get(p)) for p in patterns])
    ax.set_xticks([x + 0.5 for x in range(len(detectors) - 1)], minor=True)
    ax.set_yticks([y + 0.5 for y in range(len(patterns) - 1)], minor=True)
    ax.grid(which="minor", color="white", linewidth=1.5)
    ax.tick_params(which="minor", length=0)
    handles = [Patch(color=OUTCOME_COLOURS[k], label=text) for k, text in
               (("ok", tr("no action")), ("warn", tr("warn / feedback")), ("stop", tr("stop / block")))]
    handles.append(Patch(facecolor="white", edgecolor="black", linewidth=2, label=tr("disagrees with the label")))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8,
              title=tr("w = warn step, s = stop step"), title_fontsize=8)
    if title:
        ax.set_title(tr(TITLE) if title is TITLE else title)
    describe(ax.figure, heatmap_description(df))
    return ax
