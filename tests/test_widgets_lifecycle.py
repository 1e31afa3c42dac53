"""The lifecycle step-through: the plain state at each model call, the panel, and the live view."""

import pytest
from html_tables import as_text, read_view, tables, text

from loopkit.views import widgets
from loopkit.views.widgets.lifecycle import (
    SHOWN_LINES,
    lifecycle_facts,
    lifecycle_state,
    message_lines,
    render_lifecycle,
)


def roles(state):
    return [m["type"] for m in state["messages"]]


def test_state_before_during_and_after_the_run():
    s = lifecycle_state("exact_repeat", "after_results", 0)
    assert (s["step"], s["steps"], roles(s), s["action"], s["outcome"]) == (0, 5, ["human"], None, "not started")
    s = lifecycle_state("exact_repeat", "after_results", 3)  # the warning is queued, not yet in the list
    assert (s["action"], s["outcome"], s["pending"], s["delivered"]) == ("warn", "warned", 1, 0)
    assert roles(s) == ["human"] + ["ai", "tool"] * 3
    s = lifecycle_state("exact_repeat", "after_results", 4)  # delivered after the results, before call 4
    assert roles(s) == ["human"] + ["ai", "tool"] * 3 + ["human", "ai", "tool"]
    assert (s["pending"], s["delivered"], s["pairing"]) == (0, 1, None)
    s = lifecycle_state("exact_repeat", "after_results", 99)  # clamped to the stop
    assert (s["step"], s["action"], s["status"]) == (5, "stop", "stopped")
    assert roles(s)[-1] == "ai" and s["messages"][-1]["tool_calls"] == []


def test_before_results_breaks_pairing_at_the_warning():
    s = lifecycle_state("exact_repeat", "before_results", 3)
    assert roles(s)[-3:] == ["ai", "human", "tool"] and s["pending"] == 0
    assert s["pairing"] == "message 6 (human) comes before the result of call_3, requested by message 5"
    assert lifecycle_state("exact_repeat", "before_results", 2)["pairing"] is None


def test_a_script_that_runs_out_ends_with_the_answer():
    s = lifecycle_state("write_new_content", "after_results", 99)
    assert (s["steps"], s["status"], s["action"], s["outcome"]) == (9, "answered", None, "final answer")


def test_the_facts_row_and_the_message_lines():
    facts = lifecycle_facts(lifecycle_state("exact_repeat", "before_results", 3))
    assert facts == [{"model call": "3 of 5", "detector": "warn", "what happened": "warned",
                      "warnings delivered": 0, "warnings queued": 0, "pairing": "BROKEN"}]
    lines = message_lines(lifecycle_state("cross_file_sweep", "after_results", 40))
    assert len(lines) == 1 + SHOWN_LINES and lines[0].endswith("earlier line(s)")
    assert lifecycle_facts(lifecycle_state("cross_file_sweep", "after_results", 40))[0]["pairing"] == "ok"
    with pytest.raises(ValueError, match="step must be at least 0, got -1"):
        lifecycle_state("exact_repeat", "after_results", -1)


def test_the_panel_shows_the_facts_the_broken_pairing_and_the_messages():
    panel = render_lifecycle("exact_repeat", "before_results", 3)
    state = lifecycle_state("exact_repeat", "before_results", 3)
    assert tables(panel) == [as_text(lifecycle_facts(state))]
    assert f"Pairing broken: {state['pairing']}" in text(panel)
    assert " ".join(" ".join(message_lines(state)).split()) in text(panel)
    assert "Pairing broken" not in text(render_lifecycle("exact_repeat", "after_results", 3))


def facts(view):
    """The facts row for the view's current controls; the panel must show exactly what the plain functions build."""
    return lifecycle_facts(read_view(view, render_lifecycle, lifecycle_state))[0]


def test_the_view_follows_its_controls():
    view = widgets.lifecycle_stepper()
    assert view.values() == {"pattern": "exact_repeat", "placement": "after_results", "step": 3}
    assert (facts(view)["model call"], facts(view)["detector"]) == ("3 of 5", "warn")
    view.controls["placement"].value = "before_results"
    assert facts(view)["pairing"] == "BROKEN"
    view.controls["step"].value = 5
    assert (facts(view)["model call"], facts(view)["detector"]) == ("5 of 5", "stop")
    view.controls["pattern"].value = "abc_cycle"
    assert view.controls["step"].max == 13 and facts(view)["model call"].endswith("of 13")
    with pytest.raises(ValueError, match="placement must be one of"):
        widgets.lifecycle_stepper(placement="middle")



def test_in_spanish_the_stepper_speaks_spanish_and_keeps_the_code_words(spanish):
    s = lifecycle_state("exact_repeat", "before_results", 0)
    assert s["outcome"] == "sin empezar" and s["messages"][0]["content"] == "Tarea para el guion exact_repeat."
    panel = render_lifecycle("exact_repeat", "before_results", 3)
    assert tables(panel) == [[{"llamada al modelo": "3 de 5", "detector": "warn", "qué pasó": "con aviso",
                               "avisos entregados": "0", "avisos en cola": "0", "emparejamiento": "ROTO"}]]
    assert ("Emparejamiento roto: el mensaje 6 (human) llega antes del resultado de call_3, pedido por el mensaje 5"
            in text(panel))
    # 1 task + 40 x (request, result) + the warning of call 30 = 82 lines, 18 shown
    assert message_lines(lifecycle_state("cross_file_sweep", "after_results", 40))[0] == "... 64 línea(s) anterior(es)"
    view = widgets.lifecycle_stepper()
    assert text(view.children[0].value) == "El ciclo de vida, paso a paso"
    assert [c.description for c in view.controls.values()] == ["patrón", "el aviso va", "llamada al modelo"]
    assert view.controls["placement"].options == ("after_results", "before_results")  # values the code passes
