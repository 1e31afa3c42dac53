"""The detector playground: the plain summary, the rendered panel, and the live view reacting to its controls."""

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from loopkit import DetectorConfig, widgets  # noqa: E402
from loopkit.widgets.playground import playground_summary, render_playground  # noqa: E402

DEFAULTS = dict(warn_threshold=3, hard_limit=5, window_size=20, tool_freq_warn=30, tool_freq_hard_limit=50)


def test_summary_under_defaults_and_changed_thresholds():
    s = playground_summary("cross_file_sweep", DetectorConfig())
    assert (s["first_warn"], s["first_stop"], s["detector"], s["label"], s["agrees"]) == (30, 50, "stop",
                                                                                        "progress", False)
    s = playground_summary("cross_file_sweep", DetectorConfig(tool_freq_warn=70, tool_freq_hard_limit=90))
    assert (s["first_warn"], s["first_stop"], s["detector"], s["agrees"]) == (None, None, "ok", True)
    s = playground_summary("abc_cycle", DetectorConfig(window_size=2))  # a window of 2 never holds 3 copies
    assert (s["first_warn"], s["first_stop"], s["detector"]) == (None, None, "ok")


def test_render_shows_the_verdict_the_decisions_and_a_figure():
    out = render_playground("exact_repeat", **DEFAULTS)
    assert "<b>exact_repeat</b>" in out and "A human calls it <b>loop</b>" in out
    assert "First warn: step 3; first stop: step 5." in out and "The detector agrees." in out
    assert "frequency window: 50 calls" in out
    assert "<td>3</td><td>warn</td><td>hash</td>" in out and "<td>5</td><td>stop</td><td>hash</td>" in out
    assert out.count('<img alt="timeline of exact_repeat" src="data:image/png;base64,') == 1
    out = render_playground("write_new_content", **DEFAULTS)
    assert "First warn: step never; first stop: step never." in out and "<i>(nothing yet)</i>" in out


def test_bad_thresholds_are_a_value_error_the_view_shows():
    with pytest.raises(ValueError, match="hard_limit \\(2\\) must be >= warn_threshold \\(3\\)"):
        render_playground("exact_repeat", **{**DEFAULTS, "hard_limit": 2})


def test_the_view_redraws_when_a_control_moves():
    view = widgets.detector_playground()
    assert set(view.controls) == {"pattern", *DEFAULTS}
    assert view.values() == {"pattern": "exact_repeat", **DEFAULTS}
    assert "first stop: step 5." in view.panel.value
    view.controls["hard_limit"].value = 7
    assert "first stop: step 7." in view.panel.value
    view.controls["pattern"].value = "polling"
    assert "<b>polling</b>" in view.panel.value and "The detector disagrees." in view.panel.value
    view.controls["warn_threshold"].value = 9  # hard 7 < warn 9: shown, not raised
    assert "must be &gt;= warn_threshold" in view.panel.value and "<img" not in view.panel.value


def test_unknown_pattern_is_named():
    with pytest.raises(KeyError, match="no pattern named 'nope'"):
        widgets.detector_playground("nope")
