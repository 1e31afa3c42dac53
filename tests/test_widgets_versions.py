"""Chapter 07's side-by-side view: the plain rows, and the live view reacting to its controls."""

import pytest
from html_tables import as_text, read_view, tables, text

from loopkit.views import widgets
from loopkit.views.widgets.versions import COLUMNS, render_versions, version_rows


def test_rows_follow_the_thresholds():
    assert [r["later"] for r in version_rows("issue_5243", 3, 5, 2, 3)] == ["stop frequency read_file 3"]
    assert [r["later"] for r in version_rows("issue_5243", 3, 5, 2, 4)] == ["warn frequency read_file 2"]
    assert [r["pinned"] for r in version_rows("issue_5343", 2, 3, 30, 50)] == ["ok", "warn hash 2", "stop hash 3",
                                                                               "stop hash 4", "stop hash 5"]


def test_panel_names_the_source_counts_calls_that_run_and_shows_the_rows():
    out = render_versions("issue_5343", 3, 5, 30, 50)
    assert "(issue #5343, fixed by PR #5344). Calls that run: 4 at the pinned commit, 5 in the later" in text(out)
    assert tables(out) == [as_text(version_rows("issue_5343", 3, 5, 30, 50), COLUMNS)]


def test_the_view_starts_at_the_scenarios_config_and_redraws():
    view = widgets.version_compare()
    assert view.values() == {"scenario": "issue_5243", "warn_threshold": 3, "hard_limit": 5, "tool_freq_warn": 2,
                             "tool_freq_hard_limit": 3}

    def later():
        return [row["later"] for row in read_view(view, render_versions, version_rows)]

    assert later() == ["stop frequency read_file 3"]
    view.controls["tool_freq_hard_limit"].value = 4
    assert later() == ["warn frequency read_file 2"]
    view.controls["tool_freq_warn"].value = 9  # hard 4 < warn 9: explained, not raised
    assert text(view.panel.value).startswith("tool_freq_warn (9) is above tool_freq_hard_limit (4).")
    assert "raise tool_freq_hard_limit to 9 or more" in text(view.panel.value) and tables(view.panel.value) == []
    view.controls["tool_freq_hard_limit"].value = 9
    assert tables(view.panel.value) and "data-conflict" not in view.panel.value  # back in order: the rows return



def test_the_view_speaks_spanish_and_its_cells_keep_the_decisions(spanish):
    out = render_versions("issue_5343", 3, 5, 30, 50)
    assert text(out).startswith("un agente reutilizado, una llamada por turno del usuario (issue #5343, corregido "
                                "por el PR #5344). Llamadas que se ejecutan: 4 en el commit fijado, 5 en el modelo "
                                "posterior.")
    first = tables(out)[0][0]
    assert first == {"turno": "1", "ejecución": "turn-1", "llamadas": "1", "fijado": "ok", "se ejecutan (fijado)": "1",
                     "posterior": "ok", "se ejecutan (posterior)": "1"}
    view = widgets.version_compare()
    assert view.children[0].value == "<b>El detector del commit fijado y el posterior, lado a lado</b>"
    assert view.controls["scenario"].description == "escenario"
    assert view.controls["scenario"].value == "issue_5243"  # the options stay the scenarios' names
