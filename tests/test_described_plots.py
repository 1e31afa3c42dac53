"""Plots a reader who cannot see them can still read: each figure says what it shows (its alt text), and no two of
its lines are told apart by colour alone.

JupyterLab shows a matplotlib figure as an ``<img>`` without alt text; ``loopkit.views.plots.described`` keeps a
description on the figure and, in an IPython kernel, displays such a figure as ``<img alt="...">``. The browser
test (tests/browser/test_chapters_in_lab.py) checks the result with axe-core in JupyterLab.
"""

from __future__ import annotations

import base64
import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from loopkit import DetectorConfig  # noqa: E402
from loopkit.teaching import peers, replay_table  # noqa: E402
from loopkit.teaching.patterns import PATTERNS, get  # noqa: E402
from loopkit.views.plots import heatmap, timeline  # noqa: E402
from loopkit.views.plots.described import describe, description, img_html  # noqa: E402
from loopkit.views.plots.heatmaps import heatmap_description  # noqa: E402
from loopkit.views.plots.timelines import timeline_description  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_the_timelines_description_says_where_each_layer_first_warned_and_stopped():
    small = DetectorConfig(warn_threshold=2, hard_limit=9, tool_freq_warn=2, tool_freq_hard_limit=3)
    df = replay_table.replay([[{"name": "bash", "args": {"command": "pytest"}}]] * 6, small)
    said = timeline_description(df)
    top, bottom = said.split(" Bottom, ")
    assert top.startswith("Timeline of 4 batches.") and "warn threshold 2 and the hard limit 9" in top
    assert top.endswith("first warning: batch 2, first stop: never.")
    assert bottom.startswith("the frequency layer: the calls of bash in the window, against 2 and 3; first warning: "
                             "batch 3, first stop: batch 4.")
    assert bottom.endswith("the 2 later batches of this trace are not drawn.")


def test_the_timelines_description_in_spanish(spanish):
    df = replay_table.replay([[{"name": "bash", "args": {"command": "pytest"}}]] * 2,
                             DetectorConfig(warn_threshold=1, hard_limit=2))
    said = timeline_description(df)
    assert said.startswith("Línea de tiempo de 2 lotes.") and "primer aviso: lote 1, primera parada: lote 2" in said


def test_a_drawn_timeline_carries_its_description():
    config = DetectorConfig()
    df = replay_table.replay(get("edit_test_same_failure").batches, config)
    hash_ax, freq_ax = timeline(df, config)
    assert freq_ax is None and description(hash_ax.figure) == timeline_description(df, config)


def test_no_two_lines_of_a_timeline_differ_by_colour_alone():
    config = DetectorConfig(warn_threshold=2, tool_freq_overrides={"bash": (2, 8)})
    for name in ("edit_test_same_failure", "abc_cycle"):
        axes = [ax for ax in timeline(replay_table.replay(get(name).batches, config), config) if ax is not None]
        assert axes
        for ax in axes:
            looks = [(line.get_linestyle(), line.get_marker()) for line in ax.lines]
            assert len(set(looks)) == len(looks), f"two lines share a style and marker: {looks}"


def test_the_heatmaps_description_counts_the_framed_cells_per_detector():
    table = peers.compare(PATTERNS)
    ax = heatmap(table)
    said = description(ax.figure)
    assert said == heatmap_description(table)
    framed = {}  # the black frames the heatmap draws on disagreeing cells, counted per column (detector)
    detectors = list(dict.fromkeys(table["detector"]))
    for patch in ax.patches:
        framed[detectors[round(patch.get_x() + 0.45)]] = framed.get(detectors[round(patch.get_x() + 0.45)], 0) + 1
    counts = dict(re.findall(r"([A-Za-z][\w ]*?) (\d+)(?:,|\.$)", said.split(": ", 1)[1]))
    assert {name: int(n) for name, n in counts.items() if int(n)} == framed


def test_a_described_figure_is_displayed_with_its_alt_text():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    plain = plt.figure(figsize=(2, 1))
    described = describe(plt.figure(figsize=(2, 1)), 'a "quoted" description')
    html_of = {name: shell.display_formatter.format(fig)[0].get("text/html")
               for name, fig in (("plain", plain), ("described", described))}
    assert html_of["plain"] is None, "a figure without a description is displayed as before"
    assert html_of["described"] == img_html(described, alt='a "quoted" description')
    match = re.fullmatch(r'<img alt="a &quot;quoted&quot; description" src="data:image/png;base64,([^"]+)"/>',
                         html_of["described"])
    assert match and base64.b64decode(match.group(1)).startswith(b"\x89PNG")
