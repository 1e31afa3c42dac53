"""The lifecycle step-through: the plain state at each model call, the panel, and the live view."""

import pytest

from loopkit import widgets
from loopkit.widgets.lifecycle import lifecycle_state, render_lifecycle


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


def test_panel_and_bad_step():
    out = render_lifecycle("exact_repeat", "before_results", 3)
    assert "<td>3 of 5</td><td>warn</td><td>warned</td><td>0</td><td>0</td><td>BROKEN</td>" in out
    assert "Pairing broken: message 6 (human)" in out and "<pre>" in out
    out = render_lifecycle("cross_file_sweep", "after_results", 40)
    assert "earlier line(s)" in out and "BROKEN" not in out
    with pytest.raises(ValueError, match="step must be at least 0, got -1"):
        lifecycle_state("exact_repeat", "after_results", -1)


def test_the_view_follows_its_controls():
    view = widgets.lifecycle_stepper()
    assert view.values() == {"pattern": "exact_repeat", "placement": "after_results", "step": 3}
    assert "<td>3 of 5</td><td>warn</td>" in view.panel.value
    view.controls["placement"].value = "before_results"
    assert "BROKEN" in view.panel.value
    view.controls["step"].value = 5
    assert "<td>5 of 5</td><td>stop</td>" in view.panel.value
    view.controls["pattern"].value = "abc_cycle"
    assert view.controls["step"].max == 13 and "of 13</td>" in view.panel.value
    with pytest.raises(ValueError, match="placement must be one of"):
        widgets.lifecycle_stepper(placement="middle")
