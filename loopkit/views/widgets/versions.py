"""Chapter 07's view: pick a scenario, move the thresholds, see the pinned and the later model side by side."""

from __future__ import annotations

import html

from loopkit.core.detector import DetectorConfig
from loopkit.core.language import N_, tr
from loopkit.teaching.versions import SCENARIOS, get, side_by_side

from ._base import View, limits_conflict, table_html

__all__ = ["version_rows", "render_versions", "version_compare"]

#: The columns the panel shows, in order (``table_html`` shows each heading in the learner's language).
COLUMNS = ("turn", N_("run"), "calls", N_("pinned"), N_("pinned runs"), N_("later"), N_("later runs"))


def version_rows(scenario: str, warn_threshold: int, hard_limit: int, tool_freq_warn: int,
                 tool_freq_hard_limit: int) -> list[dict]:
    """The side-by-side rows of ``scenario`` under the given thresholds (window sizes as the scenario's config).

    >>> [r["later"] for r in version_rows("issue_5243", 3, 5, 2, 4)]
    ['warn frequency read_file 2']
    """
    base = get(scenario).config
    config = DetectorConfig(warn_threshold=warn_threshold, hard_limit=hard_limit, window_size=base.window_size,
                            max_tracked_threads=base.max_tracked_threads, tool_freq_warn=tool_freq_warn,
                            tool_freq_hard_limit=tool_freq_hard_limit)
    return side_by_side(scenario, config)


def render_versions(scenario: str, warn_threshold: int, hard_limit: int, tool_freq_warn: int,
                    tool_freq_hard_limit: int) -> str:
    """The panel: where the scenario comes from, the rows, and how many calls run in each model; or, for a warn
    threshold above its hard limit, why the detector refuses it (in the learner's language)."""
    conflict = limits_conflict(("warn_threshold", warn_threshold, "hard_limit", hard_limit),
                               ("tool_freq_warn", tool_freq_warn, "tool_freq_hard_limit", tool_freq_hard_limit))
    if conflict:
        return conflict
    rows = version_rows(scenario, warn_threshold, hard_limit, tool_freq_warn, tool_freq_hard_limit)
    s = get(scenario)
    ran = {version: sum(row[f"{version} runs"] for row in rows) for version in ("pinned", "later")}
    counts = tr("Calls that run: {pinned} at the pinned commit, {later} in the later model.",
                pinned=ran["pinned"], later=ran["later"])
    head = f"<p><b>{html.escape(s.title)}</b> ({html.escape(s.source)}). {html.escape(counts)}</p>"
    return head + table_html(rows, COLUMNS)


def version_compare(scenario: str = "issue_5243") -> View:
    """A scenario picker and four threshold sliders, starting at the scenario's own config."""
    import ipywidgets as W

    c = get(scenario).config
    style = {"description_width": "150px"}
    layout = W.Layout(width="460px")

    def slider(value, high, label):
        return W.IntSlider(value=value, min=1, max=high, description=label, continuous_update=False,
                           style=style, layout=layout)

    controls = {
        "scenario": W.Dropdown(options=list(SCENARIOS), value=scenario, description=tr("scenario"), style=style,
                               layout=layout),
        "warn_threshold": slider(c.warn_threshold, 20, "warn_threshold"),
        "hard_limit": slider(c.hard_limit, 30, "hard_limit"),
        "tool_freq_warn": slider(c.tool_freq_warn, 60, "tool_freq_warn"),
        "tool_freq_hard_limit": slider(c.tool_freq_hard_limit, 80, "tool_freq_hard_limit"),
    }
    return View(controls, render_versions, title=tr("The pinned and the later detector, side by side"))
