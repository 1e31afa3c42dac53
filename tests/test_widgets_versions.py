"""Chapter 07's side-by-side view: the plain rows, and the live view reacting to its controls."""

from loopkit import widgets
from loopkit.widgets.versions import render_versions, version_rows


def test_rows_follow_the_thresholds():
    assert [r["later"] for r in version_rows("issue_5243", 3, 5, 2, 3)] == ["stop frequency read_file 3"]
    assert [r["later"] for r in version_rows("issue_5243", 3, 5, 2, 4)] == ["warn frequency read_file 2"]
    assert [r["pinned"] for r in version_rows("issue_5343", 2, 3, 30, 50)] == ["ok", "warn hash 2", "stop hash 3",
                                                                               "stop hash 4", "stop hash 5"]


def test_panel_names_the_source_and_counts_calls_that_run():
    out = render_versions("issue_5343", 3, 5, 30, 50)
    assert "(issue #5343, fixed by PR #5344)" in out and "Calls that run: 4 at the pinned commit, 5 in the later" in out
    assert out.count("<tr>") == 1 + 5


def test_the_view_starts_at_the_scenarios_config_and_redraws():
    view = widgets.version_compare()
    assert view.values() == {"scenario": "issue_5243", "warn_threshold": 3, "hard_limit": 5, "tool_freq_warn": 2,
                             "tool_freq_hard_limit": 3}
    assert "Calls that run: 3 at the pinned commit, 0 in the later model." in view.panel.value
    view.controls["tool_freq_hard_limit"].value = 4
    assert "Calls that run: 3 at the pinned commit, 3 in the later model." in view.panel.value
    view.controls["tool_freq_warn"].value = 9  # hard 4 < warn 9: shown, not raised
    assert "must be &gt;= tool_freq_warn" in view.panel.value
