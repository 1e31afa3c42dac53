"""Chapter 00's repeat stepper: the plain per-turn rows, the panel, and the view driven through its controls."""

import pytest
from html_tables import as_text, tables, text

from loopkit.views import widgets
from loopkit.views.widgets.repeats import STUCK_TURNS, render_repeats, repeat_steps, turns_so_far

READ = {"name": "read_file", "args": {"path": "app.py"}}
TESTS = {"name": "bash", "args": {"command": "pytest"}}
# Chapter 00's stored output of cell 2: read_file is 749908fdbeda, bash is d8d221b7cc5a.
READ_FP, TESTS_FP = "749908fdbeda", "d8d221b7cc5a"


def test_the_stuck_run_is_chapter_00s_trace():
    assert list(STUCK_TURNS) == [READ, TESTS] * 4


def test_each_turn_says_whether_it_repeats_and_which_turn():
    rows = repeat_steps(STUCK_TURNS)
    assert [r["turn"] for r in rows] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [r["fingerprint"] for r in rows] == [READ_FP, TESTS_FP] * 4
    assert [r["seen"] for r in rows] == [1, 1, 2, 2, 3, 3, 4, 4]
    assert [r["repeats"] for r in rows] == [None, None, 1, 2, 1, 2, 1, 2]
    assert [r["tools"] for r in rows] == ["read_file", "bash"] * 4


def test_a_repeat_points_at_the_first_turn_not_the_latest():
    rows = repeat_steps([TESTS, READ, READ, READ])
    assert [r["repeats"] for r in rows] == [None, None, 2, 2]


def test_a_turn_may_be_a_batch_and_order_inside_it_does_not_count():
    rows = repeat_steps([[READ, TESTS], [TESTS, READ], [READ], [READ, TESTS, TESTS], []])
    assert [r["repeats"] for r in rows] == [None, 1, None, None, None]
    assert rows[0]["tools"] == "read_file, bash" and rows[4]["tools"] == "(no calls)"


def test_an_incidental_field_does_not_make_new_work():
    reworded = {"name": "bash", "args": {"command": "pytest", "description": "once more"}}
    assert [r["repeats"] for r in repeat_steps([TESTS, reworded])] == [None, 1]


def test_bad_turns_are_named():
    with pytest.raises(TypeError, match=r"turns\[1\] must be a tool call \(a dict\) or a list of calls, got int"):
        repeat_steps([READ, 7])
    with pytest.raises(TypeError, match="turns must be a list of turns"):
        repeat_steps(READ)


def test_the_table_so_far_says_which_turns_repeat():
    assert [row["repeats earlier work?"] for row in turns_so_far(8)] == ["no", "no"] + [
        "yes, turn 1", "yes, turn 2"] * 3
    assert [row["seen"] for row in turns_so_far(3)] == ["1x", "1x", "2x"]
    with pytest.raises(ValueError, match="turn must be at most 8, got 9"):
        turns_so_far(9)


def test_the_panel_gives_the_verdict_the_running_count_and_the_table():
    assert text(render_repeats(1)).startswith("Turn 1 of 8 (read_file): new work: this fingerprint was not seen "
                                              "before. So far 0 of 1 turns redo earlier work.")
    out = render_repeats(3)
    assert text(out).startswith("Turn 3 of 8 (read_file): repeats turn 1 (fingerprint seen 2x). "
                                "So far 1 of 3 turns redo earlier work.")
    assert tables(out) == [as_text(turns_so_far(3))]
    assert "So far 6 of 8 turns redo earlier work." in text(render_repeats(8))
    with pytest.raises(ValueError, match="turn must be at most 8, got 9"):
        render_repeats(9)


def test_the_view_follows_its_slider_and_buttons():
    view = widgets.repeat_stepper(list(STUCK_TURNS))
    slider = view.controls["turn"]

    def shown():
        assert tables(view.panel.value) == [as_text(turns_so_far(slider.value))]
        return text(view.panel.value)

    assert (slider.min, slider.max, slider.value) == (1, 8, 1)
    assert "new work" in shown()
    view.buttons["next"].click()
    view.buttons["next"].click()
    assert slider.value == 3 and "repeats turn 1" in shown()
    slider.value = 8
    view.buttons["next"].click()
    assert slider.value == 8 and "So far 6 of 8" in shown()
    view.buttons["back"].click()
    assert slider.value == 7 and shown().startswith("Turn 7 of 8 (read_file)")
    with pytest.raises(ValueError, match="at least one turn"):
        widgets.repeat_stepper([])



def test_in_spanish_the_panel_and_its_table_speak_spanish(spanish):
    out = render_repeats(3)
    assert text(out).startswith("Turno 3 de 8 (read_file): repite el turno 1 (huella vista 2 veces). "
                                "Hasta ahora, 1 de 3 turnos rehacen trabajo anterior.")
    assert text(render_repeats(1)).startswith("Turno 1 de 8 (read_file): trabajo nuevo: esta huella no se había "
                                              "visto antes.")
    repeats = "¿repite trabajo anterior?"
    assert tables(out) == [[
        {"turno": "1", "herramientas": "read_file", "huella": READ_FP, "veces": "1x", repeats: "no"},
        {"turno": "2", "herramientas": "bash", "huella": TESTS_FP, "veces": "1x", repeats: "no"},
        {"turno": "3", "herramientas": "read_file", "huella": READ_FP, "veces": "2x", repeats: "sí, el turno 1"},
    ]]
    assert repeat_steps([[]])[0]["tools"] == "(sin llamadas)"


def test_in_spanish_the_view_labels_its_slider_and_buttons(spanish):
    view = widgets.repeat_stepper()
    assert view.children[0].value == "<b>Recorre la ejecución paso a paso: ¿qué turnos rehacen trabajo anterior?</b>"
    assert view.controls["turn"].description == "turno"
    assert [b.description for b in view.buttons.values()] == ["Atrás", "Siguiente"]
    view.buttons["next"].click()
    assert view.controls["turn"].value == 2 and "Turno 2 de 8" in text(view.panel.value)
