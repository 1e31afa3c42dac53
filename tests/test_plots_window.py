"""plots.window, the sliding window drawn: what each square, the window and the count bar stand for, read back
from the SVG's own attributes and positions."""

import xml.etree.ElementTree as ET

import pytest

from loopkit import DetectorConfig
from loopkit.teaching.hash_window import edit_test_cycle, snapshot
from loopkit.views import plots
from loopkit.views.plots.svg_window import window_description, window_svg

SVG = "{http://www.w3.org/2000/svg}"


def squares(root):
    """Each drawn turn: (turn, repeat, in window, its number, action, filled?, dashed?)."""
    found = []
    for g in root.iter(f"{SVG}g"):
        if g.get("data-turn"):
            rect = g.find(f"{SVG}rect")
            number = g.find(f"{SVG}text")
            found.append((int(g.get("data-turn")), g.get("data-repeat") == "1", g.get("data-in-window") == "1",
                          number.text if number is not None else None, g.get("data-action"),
                          rect.get("fill") != "none", rect.get("stroke-dasharray") is not None))
    return found


def test_the_squares_number_the_repeats_inside_the_window_and_dash_the_one_that_slid_out():
    s = snapshot(edit_test_cycle(every=5, turns=25), turn=21)
    root = ET.fromstring(window_svg(s))
    drawn = squares(root)
    assert [turn for turn, *_ in drawn] == list(range(1, 26))
    assert [(turn, number) for turn, repeat, inside, number, *_ in drawn if repeat] == [
        (1, None), (6, "1"), (11, "2"), (16, "3"), (21, "4")]
    [first] = [square for square in drawn if square[0] == 1]
    assert first[1:] == (True, False, None, "ok", False, True)  # repeated, outside the window: unfilled, dashed
    assert all(filled == (repeat and inside) for _, repeat, inside, _, _, filled, _ in drawn)
    [window] = [r for r in root.iter(f"{SVG}rect") if r.get("data-window")]
    assert window.get("data-window") == "2-21"


def test_the_window_frame_spans_exactly_the_squares_it_holds():
    s = snapshot(edit_test_cycle(every=5, turns=25), turn=21)
    root = ET.fromstring(window_svg(s))
    [window] = [r for r in root.iter(f"{SVG}rect") if r.get("data-window")]
    left, right = float(window.get("x")), float(window.get("x")) + float(window.get("width"))
    inside = []
    for g in root.iter(f"{SVG}g"):
        if g.get("data-turn"):
            rect = g.find(f"{SVG}rect")
            middle = float(rect.get("x")) + float(rect.get("width")) / 2
            inside.append((int(g.get("data-turn")), left < middle < right))
    assert [turn for turn, held in inside if held] == list(range(2, 22))


def test_the_count_bar_stands_between_the_warn_and_the_stop_lines():
    s = snapshot(edit_test_cycle(every=5, turns=25), turn=21)
    root = ET.fromstring(window_svg(s))
    [bar] = [r for r in root.iter(f"{SVG}rect") if r.get("data-gauge")]
    levels = {line.get("data-level"): float(line.get("y1")) for line in root.iter(f"{SVG}line")
              if line.get("data-level")}
    base = float(bar.get("y")) + float(bar.get("height"))
    per_count = (base - levels["hard"]) / 5
    assert bar.get("data-count") == "4"
    assert float(bar.get("height")) == pytest.approx(4 * per_count)
    assert base - levels["warn"] == pytest.approx(3 * per_count)


def test_decisions_are_marked_on_their_turns_and_the_stop_ends_the_row():
    s = snapshot(edit_test_cycle(every=4, turns=25))
    root = ET.fromstring(window_svg(s))
    assert [(turn, action) for turn, _, _, _, action, *_ in squares(root) if action != "ok"] == [(9, "warn"),
                                                                                                 (17, "stop")]
    assert [p.get("data-mark") for p in root.iter() if p.get("data-mark")] == ["warn", "stop"]
    notes = " ".join(t.text for t in root.iter(f"{SVG}text") if t.get("data-note"))
    assert "The run stopped at turn 17: its 8 later batches are not drawn." in notes


def test_the_description_says_what_the_window_holds_and_names_itself():
    s = snapshot(edit_test_cycle(every=5, turns=25), turn=21, label="every 5th turn")
    said = window_description(s)
    assert said == ("every 5th turn: After turn 21, the hash window holds turns 2 to 21 (it keeps the last 20 "
                    "batches). The repeated batch (bash) was made at turns 1, 6, 11, 16, 21; 4 of them are in the "
                    "window, so its count is 4, against the warn threshold 3 and the hard limit 5. The decision at "
                    "turn 21: ok.")
    root = ET.fromstring(window_svg(s))
    assert root.get("role") == "img" and root.get("aria-label") == said and root.find(f"{SVG}title").text == said
    assert root.get("width") == "100%"


def test_one_row_per_snapshot_and_a_figure_that_displays_as_the_svg():
    rows = [snapshot(edit_test_cycle(every=4, turns=25)), snapshot(edit_test_cycle(every=5, turns=25), turn=21)]
    figure = plots.window(*rows)
    assert figure._repr_html_() == window_svg(*rows) and repr(figure) == "<window figure: 2 row(s)>"
    assert figure.alt == " ".join(window_description(row) for row in rows)
    assert [g.get("data-row") for g in ET.fromstring(figure.svg).iter(f"{SVG}g") if g.get("data-row")] == ["17", "21"]


def test_the_limits_follow_the_config():
    s = snapshot(edit_test_cycle(every=2, turns=20), config=DetectorConfig(warn_threshold=2, hard_limit=4))
    root = ET.fromstring(window_svg(s))
    assert {line.get("data-level"): line.get("data-value") for line in root.iter(f"{SVG}line")
            if line.get("data-level")} == {"warn": "2", "hard": "4"}
    assert s.stopped_at == 7


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="at least one snapshot"):
        window_svg()
    with pytest.raises(TypeError, match=r"snapshots\[0\] must be a WindowSnapshot"):
        window_svg("not a snapshot")


def test_the_drawing_speaks_spanish(spanish):
    svg = window_svg(snapshot(edit_test_cycle(every=5, turns=25), turn=21))
    assert "Después del turno 21" in svg and "After turn" not in svg
