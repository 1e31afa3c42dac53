"""Chapter 05's playground: pick a pattern, move the thresholds, watch where the detector warns and stops.

The timeline is drawn as a small SVG (:func:`loopkit.views.plots.svg_timelines.timeline_svg`), not as a new
matplotlib PNG per change: that module's docstring says why. A warn threshold above its hard limit is explained in
the panel, in the learner's language (:func:`~loopkit.views.widgets._base.limits_conflict`), instead of an error.
"""

from __future__ import annotations

import html

from loopkit.core.detector import DetectorConfig
from loopkit.core.language import N_, tr
from loopkit.teaching.patterns import PATTERNS, get

from ._base import View, limits_conflict, number_box, table_html

__all__ = ["DECISIONS_SHOWN", "playground_summary", "render_playground", "detector_playground"]

#: How many warn or stop decisions the panel lists.
DECISIONS_SHOWN = 6


def playground_summary(pattern: str, config: DetectorConfig) -> dict:
    """Replay ``pattern`` under ``config``: the first warn and stop steps, the verdict, the human label, and the
    first :data:`DECISIONS_SHOWN` decisions that were not ``ok`` up to the first stop, where a real run ends
    (``decisions``, one row each). ``table`` is the whole replay, past the stop too, for the timeline to say what
    it leaves out.

    >>> s = playground_summary("polling", DetectorConfig(warn_threshold=4, hard_limit=8))
    >>> s["first_warn"], s["first_stop"], s["detector"], s["label"], s["agrees"]
    (4, 8, 'stop', 'progress', False)
    """
    from loopkit.teaching import replay_table

    p = get(pattern)
    df = replay_table.replay(p.batches, config)
    first_warn, first_stop = replay_table.first_steps(df)
    said = replay_table.verdict(df)
    run = df if first_stop is None else df[df["step"] <= first_stop]
    decided = run[run["action"] != "ok"].head(DECISIONS_SHOWN)
    decisions = [{"step": r.step, N_("action"): r.action, N_("layer"): r.layer, "tool": r.tool or "",
                  N_("count"): r.count} for r in decided.itertuples()]
    return {"pattern": p.name, "description": p.description, "label": p.label, "batches": len(df),
            "first_warn": first_warn, "first_stop": first_stop, "detector": said,
            "agrees": (said != "ok") == (p.label == "loop"), "decisions": decisions, "table": df}


def render_playground(pattern: str, warn_threshold: int, hard_limit: int, window_size: int, tool_freq_warn: int,
                      tool_freq_hard_limit: int) -> str:
    """The panel: a one-line verdict, the first decisions as a table, and the timeline figure (its prose in the
    learner's language; the pattern's name and label, and the decisions, are code words)."""
    from ..plots.svg_timelines import timeline_svg

    conflict = limits_conflict(("warn_threshold", warn_threshold, "hard_limit", hard_limit),
                               ("tool_freq_warn", tool_freq_warn, "tool_freq_hard_limit", tool_freq_hard_limit))
    if conflict:
        return conflict
    config = DetectorConfig(warn_threshold=warn_threshold, hard_limit=hard_limit, window_size=window_size,
                            tool_freq_warn=tool_freq_warn, tool_freq_hard_limit=tool_freq_hard_limit)
    s = playground_summary(pattern, config)
    never = tr("never")
    first_warn = tr("step {step}", step=s["first_warn"]) if s["first_warn"] else never
    first_stop = tr("step {step}", step=s["first_stop"]) if s["first_stop"] else never
    story = tr("{description} ({batches} batches). A human calls it <b>{label}</b>. First warn: {first_warn}; "
               "first stop: {first_stop}.", description=html.escape(s["description"]), batches=s["batches"],
               label=s["label"], first_warn=first_warn, first_stop=first_stop)
    agreement = tr("The detector agrees.") if s["agrees"] else tr("The detector disagrees.")
    window = tr("(frequency window: {calls} calls)", calls=config.freq_window)
    verdict = f"<p><b>{html.escape(s['pattern'])}</b>: {story} {agreement} {window}</p>"
    # the drawing's alt text is its own description (plots.timelines.timeline_description), computed once
    picture = timeline_svg(s["table"], config, title=tr("{pattern} under these thresholds", pattern=s["pattern"]))
    return verdict + table_html(s["decisions"], ["step", "action", "layer", "tool", "count"]) + picture


def detector_playground(pattern: str = "exact_repeat") -> View:
    """Number boxes for the five thresholds (starting at upstream's defaults) and a pattern picker; every change replays
    the pattern and redraws the timeline."""
    import ipywidgets as W

    if pattern not in PATTERNS:
        get(pattern)  # raises the KeyError that lists the names
    c = DetectorConfig()
    style = {"description_width": "150px"}
    layout = W.Layout(width="460px")

    def slider(value, low, high, label):
        return number_box(value, low, high, label, continuous_update=False,
                           style=style, layout=layout)

    controls = {
        "pattern": W.Dropdown(options=list(PATTERNS), value=pattern, description=tr("pattern"), style=style,
                              layout=layout),
        "warn_threshold": slider(c.warn_threshold, 1, 20, "warn_threshold"),
        "hard_limit": slider(c.hard_limit, 1, 30, "hard_limit"),
        "window_size": slider(c.window_size, 1, 60, "window_size"),
        "tool_freq_warn": slider(c.tool_freq_warn, 1, 120, "tool_freq_warn"),
        "tool_freq_hard_limit": slider(c.tool_freq_hard_limit, 1, 150, "tool_freq_hard_limit"),
    }
    return View(controls, render_playground, title=tr("Detector playground"))
