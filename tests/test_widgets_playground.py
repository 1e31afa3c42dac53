"""The detector playground: the plain summary, the rendered panel, and the live view reacting to its controls."""

import matplotlib

matplotlib.use("Agg")

import re  # noqa: E402

import pytest  # noqa: E402
from html_tables import as_text, tables, text  # noqa: E402

from loopkit import DetectorConfig
from loopkit.views import widgets  # noqa: E402
from loopkit.views.widgets.playground import playground_summary, render_playground  # noqa: E402

DEFAULTS = dict(warn_threshold=3, hard_limit=5, window_size=20, tool_freq_warn=30, tool_freq_hard_limit=50)


def alt_text(summary) -> str:
    """The figure's alt text: what the timeline of the summary's replay shows, for its three most-called tools."""
    import html

    from loopkit.views.plots.timelines import timeline_description

    return html.escape(timeline_description(summary["table"], DetectorConfig(**DEFAULTS)))


def test_summary_under_defaults_and_changed_thresholds():
    s = playground_summary("cross_file_sweep", DetectorConfig())
    assert (s["first_warn"], s["first_stop"], s["detector"], s["label"], s["agrees"]) == (30, 50, "stop",
                                                                                        "progress", False)
    s = playground_summary("cross_file_sweep", DetectorConfig(tool_freq_warn=70, tool_freq_hard_limit=90))
    assert (s["first_warn"], s["first_stop"], s["detector"], s["agrees"]) == (None, None, "ok", True)
    s = playground_summary("abc_cycle", DetectorConfig(window_size=2))  # a window of 2 never holds 3 copies
    assert (s["first_warn"], s["first_stop"], s["detector"]) == (None, None, "ok")


def test_summary_lists_the_first_decisions_that_were_not_ok_up_to_the_stop():
    s = playground_summary("exact_repeat", DetectorConfig())
    # warned once at the third copy, stopped at the fifth: a real run ends there, so no later decision is listed
    assert [(d["step"], d["action"], d["layer"]) for d in s["decisions"]] == [(3, "warn", "hash"), (5, "stop", "hash")]
    assert len(s["table"]) == 8  # the whole replay is kept, for the timeline to say what it leaves out
    assert playground_summary("write_new_content", DetectorConfig())["decisions"] == []


def test_the_panel_shows_the_verdict_the_decisions_and_a_figure():
    out = render_playground("exact_repeat", **DEFAULTS)
    s = playground_summary("exact_repeat", DetectorConfig(**DEFAULTS))
    assert text(out).startswith(f"exact_repeat: {s['description']} (8 batches). A human calls it loop. "
                                "First warn: step 3; first stop: step 5. The detector agrees. "
                                "(frequency window: 50 calls)")
    assert tables(out) == [as_text(s["decisions"])]
    assert out.count('<svg ') == 1 and out.count(f'aria-label="{alt_text(s)}"') == 1
    assert "<img" not in out and "base64" not in out  # no PNG per change: the picture is a small SVG
    # the SVG draws this replay: one stop marker per stopped batch, at its step
    assert [int(step) for step in re.findall(r'data-marker="stop" data-step="(\d+)"', out)] == [
        d["step"] for d in s["decisions"] if d["action"] == "stop"]
    out = render_playground("write_new_content", **DEFAULTS)
    assert "First warn: never; first stop: never." in text(out) and tables(out) == []
    assert "the 3 later batches of this trace are not drawn" in text(render_playground("exact_repeat", **DEFAULTS))


@pytest.mark.parametrize("warn, hard, other", [("warn_threshold", "hard_limit", {}),
                                               ("tool_freq_warn", "tool_freq_hard_limit", {})])
def test_a_warn_threshold_above_its_hard_limit_is_explained_not_raised(warn, hard, other):
    values = {**DEFAULTS, warn: 12, hard: 9}
    with pytest.raises(ValueError):  # the config itself refuses it ...
        DetectorConfig(**values)
    out = render_playground("exact_repeat", **values)  # ... and the panel says why, and what to move
    assert text(out) == (f"{warn} (12) is above {hard} (9). The hard limit is checked first, so the detector would "
                         f"stop before it ever warned, and DetectorConfig refuses this setting. Lower {warn} to 9 or "
                         f"less, or raise {hard} to 12 or more.")
    assert "<svg" not in out and tables(out) == []
    assert "<svg" in render_playground("exact_repeat", **{**values, hard: 12})  # equal limits are allowed


def summary(view):
    """The summary for the view's current controls; the panel's table must hold exactly its decisions."""
    values = dict(view.values())
    s = playground_summary(values.pop("pattern"), DetectorConfig(**values))
    assert tables(view.panel.value) == [as_text(s["decisions"])]
    return s


def test_the_view_redraws_when_a_control_moves():
    view = widgets.detector_playground()
    assert set(view.controls) == {"pattern", *DEFAULTS}
    assert view.values() == {"pattern": "exact_repeat", **DEFAULTS}
    assert summary(view)["first_stop"] == 5
    view.controls["hard_limit"].value = 7
    assert summary(view)["first_stop"] == 7
    view.controls["pattern"].value = "polling"
    assert summary(view)["pattern"] == "polling" and not summary(view)["agrees"]
    view.controls["warn_threshold"].value = 9  # hard 7 < warn 9: explained, not raised
    assert text(view.panel.value).startswith("warn_threshold (9) is above hard_limit (7).")
    view.controls["hard_limit"].value = 9  # back in order: the replay and its picture return
    assert "data-conflict" not in view.panel.value and view.panel.value.count("<svg ") == 1


def test_unknown_pattern_is_named():
    with pytest.raises(KeyError, match="no pattern named 'nope'"):
        widgets.detector_playground("nope")



def test_in_spanish_the_panel_speaks_spanish_and_keeps_the_code_words(spanish):
    out = render_playground("exact_repeat", **DEFAULTS)
    assert text(out).startswith("exact_repeat: el mismo comando de tests, turno tras turno, sin cambiar nada (8 lotes). "
                                "Una persona lo etiqueta como loop. Primer aviso: paso 3; primera parada: paso 5. "
                                "El detector coincide. (ventana de frecuencia: 50 llamadas)")
    assert tables(out)[0][0] == {"paso": "3", "acción": "warn", "capa": "hash", "herramienta": "", "recuento": "3"}
    assert out.count(f'aria-label="{alt_text(playground_summary("exact_repeat", DetectorConfig(**DEFAULTS)))}"') == 1
    assert alt_text(playground_summary("exact_repeat", DetectorConfig(**DEFAULTS))).startswith("Línea de tiempo de 5 lotes.")
    assert ">umbral de aviso (3)<" in out  # the SVG's legend speaks Spanish too
    conflict = text(render_playground("exact_repeat", **{**DEFAULTS, "warn_threshold": 8}))
    assert conflict.startswith("warn_threshold (8) está por encima de hard_limit (5).") and "DetectorConfig" in conflict
    assert "Primer aviso: nunca; primera parada: nunca. El detector coincide." in text(
        render_playground("write_new_content", **DEFAULTS))
    assert "El detector no coincide." in text(render_playground("polling", **DEFAULTS))
    view = widgets.detector_playground()
    assert text(view.children[0].value) == "Banco de pruebas del detector"
    assert view.controls["pattern"].description == "patrón"
    assert view.controls["hard_limit"].description == "hard_limit"  # the config field's name, as the code writes it
