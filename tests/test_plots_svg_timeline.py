"""plots.timeline_svg, the playground's picture: what was drawn, read back through its own axes.

Each check maps a drawn coordinate back to a value with the axis ticks that the SVG itself draws, so a wrong scale,
a swapped series or a marker at the wrong step fails, whatever the data attributes say.
"""

import xml.etree.ElementTree as ET

import pytest

from loopkit import DetectorConfig
from loopkit.core.language import set_language
from loopkit.teaching import patterns, replay_table
from loopkit.views.plots.svg_timelines import nice_ticks, timeline_svg
from loopkit.views.plots.timelines import timeline_data

SVG = "{http://www.w3.org/2000/svg}"


def drawing(df, config=None, **kwargs):
    return ET.fromstring(timeline_svg(df, config, alt="a timeline", **kwargs))


def panel(root, layer):
    """The ``<g>`` of one panel ("hash" or "frequency")."""
    [found] = [g for g in root.iter(f"{SVG}g") if g.get("data-panel") == layer]
    return found


def count_of(group):
    """A function from a drawn y to the count it stands for, read off the panel's lowest and highest tick."""
    ticks = [(int(t.get("data-tick")), float(t.get("y")) - 4) for t in group.iter(f"{SVG}text") if t.get("data-tick")]
    (v0, y0), (v1, y1) = ticks[0], ticks[-1]
    return lambda y: v0 + (y - y0) * (v1 - v0) / (y1 - y0)


def step_of(root):
    ticks = [(int(t.get("data-step-tick")), float(t.get("x"))) for t in root.iter(f"{SVG}text")
             if t.get("data-step-tick")]
    (s0, x0), (s1, x1) = ticks[0], ticks[-1]
    return lambda x: s0 + (x - x0) * (s1 - s0) / (x1 - x0)


def series(root, name):
    [line] = [p for p in root.iter(f"{SVG}polyline") if p.get("data-series") == name]
    return [tuple(map(float, point.split(","))) for point in line.get("points").split()]


def levels(root):
    return {(line.get("data-level"), round(float(line.get("y1")), 1)) for line in root.iter(f"{SVG}line")
            if line.get("data-level")}


def marker_points(root, action):
    """Where each marker is drawn: a triangle's centre line, a cross's centre."""
    found = []
    for g in root.iter(f"{SVG}g"):
        if g.get("data-marker") == action:
            shape = g[0]
            if shape.tag == f"{SVG}polygon":
                xs, ys = zip(*(map(float, p.split(",")) for p in shape.get("points").split()))
                found.append((xs[0], (ys[0] + 6)))
            else:
                start = shape.get("d")[1:].split("L")[0]
                x, y = map(float, start.split(","))
                found.append((x + 5, y + 5))
    return found


def markers(root, action):
    return [(int(g.get("data-step")), int(g.get("data-count"))) for g in root.iter(f"{SVG}g")
            if g.get("data-marker") == action]


def panels(root):
    return [g.get("data-panel") for g in root.iter(f"{SVG}g") if g.get("data-panel")]


def test_the_hash_panel_draws_the_repeated_batchs_count_its_limits_and_the_decisions():
    df = replay_table.replay(patterns.get("edit_test_same_failure"))
    data = timeline_data(df)
    root = drawing(df)
    assert panels(root) == ["hash"]  # the frequency layer decided nothing: no empty panel
    top = panel(root, "hash")
    hash_count = count_of(top)
    step = step_of(root)
    [repeated] = data.panel("hash").series
    points = series(top, repeated.key)
    assert [round(step(x)) for x, _ in points] == list(range(1, 11))  # up to the first stop, not past it
    assert [round(hash_count(y), 1) for _, y in points] == [0, 1, 1, 2, 2, 3, 3, 4, 4, 5]  # no zig-zag
    assert {(role, round(hash_count(y), 1)) for role, y in levels(top)} == {("warn", 3), ("hard", 5)}
    for action in ("warn", "stop"):
        drawn = [(round(step(x)), round(hash_count(y), 1)) for x, y in marker_points(top, action)]
        assert drawn == markers(top, action)
    assert markers(top, "warn") == [(6, 3)] and markers(top, "stop") == [(10, 5)]  # one stop, not two


def test_the_notes_under_the_panels_say_what_is_left_out():
    df = replay_table.replay(patterns.get("edit_test_same_failure"))
    root = drawing(df)
    written = " ".join(t.text for t in sorted((t for t in root.iter(f"{SVG}text") if t.get("data-note")),
                                              key=lambda t: int(t.get("data-note"))))
    assert written == " ".join(timeline_data(df).notes)
    assert "the 2 later batches of this trace are not drawn" in written


def test_the_frequency_panel_draws_the_busiest_tools_and_its_own_limits():
    df = replay_table.replay(patterns.get("cross_file_sweep"), DetectorConfig(tool_freq_warn=20, tool_freq_hard_limit=40))
    root = drawing(df)
    assert panels(root) == ["frequency"]
    bottom = panel(root, "frequency")
    tool_count = count_of(bottom)
    points = series(bottom, "tool:read_file")
    assert [round(tool_count(y), 1) for _, y in points] == list(range(1, 41))
    assert {(role, round(tool_count(y), 1)) for role, y in levels(bottom)} == {("warn", 20), ("hard", 40)}
    assert markers(bottom, "warn") == [(20, 20)] and markers(bottom, "stop") == [(40, 40)]
    assert [round(tool_count(y), 1) for _, y in marker_points(bottom, "warn")] == [20]
    legend = [g.get("data-legend") for g in root.iter(f"{SVG}g") if g.get("data-legend")]
    assert {"calls: read_file", "warn (20)", "hard (40)"} <= set(legend)


def test_two_panels_when_both_layers_decided_share_one_step_axis():
    small = DetectorConfig(warn_threshold=2, hard_limit=9, tool_freq_warn=2, tool_freq_hard_limit=3)
    root = drawing(replay_table.replay([[{"name": "bash", "args": {"command": "pytest"}}]] * 6, small))
    assert panels(root) == ["hash", "frequency"]
    assert markers(panel(root, "hash"), "warn") == [(2, 2)]
    assert markers(panel(root, "frequency"), "stop") == [(4, 3)]


def test_an_override_of_a_shown_tool_gets_its_own_lines():
    config = DetectorConfig(tool_freq_overrides={"bash": (35, 90)})
    bottom = panel(drawing(replay_table.replay(patterns.get("bash_pipeline"), config)), "frequency")
    tool_count = count_of(bottom)
    assert {(role, round(tool_count(y), 1)) for role, y in levels(bottom)} == {
        ("warn", 30), ("hard", 50), ("bash warn", 35), ("bash hard", 90)}


def test_the_svg_scales_to_its_output_area_and_names_itself():
    svg = timeline_svg(replay_table.replay(patterns.get("exact_repeat")), alt="timeline of exact_repeat")
    root = ET.fromstring(svg)
    assert root.get("width") == "100%" and root.get("viewBox").startswith("0 0 ")
    assert root.get("role") == "img" and root.get("aria-label") == "timeline of exact_repeat"
    assert root.find(f"{SVG}title").text == "timeline of exact_repeat"


def test_labels_speak_the_learners_language():
    set_language("es")
    try:
        svg = timeline_svg(replay_table.replay(patterns.get("exact_repeat")))
    finally:
        set_language("en")
    assert ">umbral de aviso (3)<" in svg and ">lote (turno del modelo)<" in svg  # as plots.timeline's legend
    assert ">warn (3)<" not in svg


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="lacks the column"):
        timeline_svg({"step": [1]})


@pytest.mark.parametrize("high", [0, 1, 5, 7, 12, 49, 50, 51, 130, 999])
def test_ticks_cover_the_values_in_round_steps(high):
    ticks = nice_ticks(high)
    step = ticks[1] - ticks[0]
    assert ticks[0] == 0 and ticks[-1] >= high and len(ticks) <= 7
    assert ticks == list(range(0, ticks[-1] + 1, step)) and str(step).strip("0") in ("1", "2", "5")
    assert ticks[-1] - step < max(high, 1)  # no empty step on top
