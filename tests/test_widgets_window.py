"""The window view: the plain rows and panel, and the view driven through its controls."""

import pytest
from html_tables import text

from loopkit.teaching.hash_window import snapshot
from loopkit.views import widgets
from loopkit.views.plots.svg_window import window_description
from loopkit.views.widgets.window import WINDOW_TRACES, render_window, window_at, window_rows


def repeats(rows):
    return [(row["turn"], row["repeat #"]) for row in rows if row["repeat #"]]


def test_the_rows_are_the_turns_the_window_holds_with_the_repeats_numbered():
    rows = window_rows("test every 5th turn", 21, 20)
    assert [row["turn"] for row in rows] == list(range(2, 22))
    assert repeats(rows) == [(6, 1), (11, 2), (16, 3), (21, 4)]
    assert rows[0]["tools"] == "str_replace" and rows[-1]["tools"] == "bash"


def test_a_turn_past_the_stop_shows_the_stop_and_says_so():
    assert window_at("test every 4th turn", 25, 20).turn == 17
    panel = render_window("test every 4th turn", 25, 20)
    assert text(panel).startswith("This run ends at turn 17, so the view shows turn 17.")
    assert 'data-window="1-17"' in panel


def test_the_panel_says_in_words_what_it_draws():
    panel = render_window("test every 5th turn", 21, 20)
    said = window_description(snapshot(WINDOW_TRACES["test every 5th turn"], 21))
    assert text(panel).startswith(said) and panel.count("<svg ") == 1 and f'aria-label="{said}"' in panel


def test_the_view_redraws_when_a_control_moves():
    view = widgets.window_stepper()
    assert view.values() == {"trace": "test every 5th turn", "turn": 21, "window_size": 20}
    assert 'data-window="2-21"' in view.panel.value and 'data-count="4"' in view.panel.value
    view.controls["turn"].value = 16
    assert repeats(window_rows(**view.values())) == [(1, 1), (6, 2), (11, 3), (16, 4)]
    assert 'data-window="1-16"' in view.panel.value
    view.controls["window_size"].value = 10  # a shorter window: turns 7-16 hold two runs of the test
    assert repeats(window_rows(**view.values())) == [(11, 1), (16, 2)]
    assert 'data-window="7-16"' in view.panel.value and 'data-count="2"' in view.panel.value
    view.controls["trace"].value = "exact_repeat"
    assert text(view.panel.value).startswith("This run ends at turn 5")
    assert repeats(window_rows(**view.values())) == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]


def test_an_unknown_run_is_named():
    with pytest.raises(ValueError, match="trace must be one of test every 4th turn, test every 5th turn"):
        widgets.window_stepper("nope")


def test_in_spanish_the_menu_and_panel_speak_spanish(spanish):
    view = widgets.window_stepper()
    labels = [label for label, _ in view.controls["trace"].options]
    assert labels[:2] == ["test cada 4 turnos", "test cada 5 turnos"] and "exact_repeat" in labels
    assert text(view.panel.value).startswith("Después del turno 21")
    assert view.controls["window_size"].description == "window_size"
