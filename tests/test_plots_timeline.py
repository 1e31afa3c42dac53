"""plots.timeline: what was drawn (lines, threshold lines, marker positions), not how it looks."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from loopkit import DetectorConfig
from loopkit.teaching import patterns, replay_table
from loopkit.views import plots  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def lines(ax):
    return {line.get_label(): line for line in ax.get_lines()}


def xy(line):
    return [float(x) for x in line.get_xdata()], [float(y) for y in line.get_ydata()]


def level(line):
    """The y of a horizontal threshold line."""
    ys = set(float(y) for y in line.get_ydata())
    assert len(ys) == 1
    return ys.pop()


def test_hash_panel_draws_the_count_the_limits_and_the_decisions():
    df = replay_table.replay(patterns.get("edit_test_same_failure"))
    hash_ax, freq_ax = plots.timeline(df)
    drawn = lines(hash_ax)
    assert set(drawn) == {"hash count", "warn (3)", "hard (5)", "warn", "stop"}
    assert xy(drawn["hash count"]) == ([float(s) for s in range(1, 13)],
                                       [1, 1, 1, 2, 1, 3, 1, 4, 1, 5, 1, 6])
    assert level(drawn["warn (3)"]) == 3 and level(drawn["hard (5)"]) == 5
    assert xy(drawn["warn"]) == ([6.0], [3.0])
    assert xy(drawn["stop"]) == ([10.0, 12.0], [5.0, 6.0])
    assert "warn" not in lines(freq_ax) and "stop" not in lines(freq_ax)  # nothing decided by frequency


def test_frequency_panel_draws_top_tools_and_its_limits():
    df = replay_table.replay(patterns.get("cross_file_sweep"))
    hash_ax, freq_ax = plots.timeline(df)
    drawn = lines(freq_ax)
    assert set(drawn) == {"calls: read_file", "warn (30)", "hard (50)", "warn", "stop"}
    x, y = xy(drawn["calls: read_file"])
    assert x == [float(s) for s in range(1, 61)] and y == [float(min(s, 50)) for s in range(1, 61)]
    assert xy(drawn["warn"]) == ([30.0], [30.0])
    stops = xy(drawn["stop"])
    assert stops[0] == [float(s) for s in range(50, 61)] and set(stops[1]) == {50.0}
    assert "warn" not in lines(hash_ax)  # the hash layer never fired on an honest sweep
    assert freq_ax.get_xlabel() == "batch (model turn)"


def test_top_limits_the_tools_shown_most_called_first():
    batches = ([[{"name": "grep", "args": {"pattern": str(i)}}] for i in range(2)]
               + [[{"name": "bash", "args": {"command": str(i)}}] for i in range(4)]
               + [[{"name": "ls", "args": {"path": "."}}]])
    df = replay_table.replay(batches)
    _, freq_ax = plots.timeline(df, top=2)
    assert [k for k in lines(freq_ax) if k.startswith("calls: ")] == ["calls: bash", "calls: grep"]


def test_config_defaults_to_the_tables_and_overrides_get_their_own_lines():
    cfg = DetectorConfig(warn_threshold=2, hard_limit=4, tool_freq_overrides={"bash": (35, 45)})
    df = replay_table.replay(patterns.get("bash_pipeline"), cfg)
    hash_ax, freq_ax = plots.timeline(df)
    assert {"warn (2)", "hard (4)"} <= set(lines(hash_ax))
    drawn = lines(freq_ax)
    assert level(drawn["bash warn (35)"]) == 35 and level(drawn["bash hard (45)"]) == 45
    assert xy(drawn["warn"]) == ([35.0], [35.0])  # the override, not the global 30, decided
    # An explicit config wins over the table's (here: drawing the table against other limits).
    _, freq_ax = plots.timeline(df, DetectorConfig(tool_freq_warn=10, tool_freq_hard_limit=20))
    assert {"warn (10)", "hard (20)"} <= set(lines(freq_ax)) and "bash warn (35)" not in lines(freq_ax)


def test_one_figure_two_panels_sharing_steps():
    hash_ax, freq_ax = plots.timeline(replay_table.replay(patterns.get("exact_repeat")), title="exact repeat")
    assert hash_ax.figure is freq_ax.figure and len(hash_ax.figure.axes) == 2
    assert hash_ax.get_title() == "exact repeat"
    assert hash_ax.get_ylim()[0] == 0 and freq_ax.get_ylim()[0] == 0


def test_bad_input_is_named():
    with pytest.raises(ValueError, match=r"lacks the column\(s\) \['action'"):
        plots.timeline(replay_table.replay(patterns.get("polling")).drop(columns=["action"]))
    with pytest.raises(ValueError, match="df must be a table from loopkit.teaching.replay_table.replay"):
        plots.timeline([1, 2, 3])
    df = replay_table.replay(patterns.get("polling"))
    with pytest.raises(TypeError, match="config must be a DetectorConfig"):
        plots.timeline(df, {"warn_threshold": 3})
    with pytest.raises(ValueError, match="top must be at least 1, got 0"):
        plots.timeline(df, top=0)



def test_in_spanish_titles_axes_and_legends_are_spanish_and_the_markers_keep_the_action(spanish):
    cfg = DetectorConfig(tool_freq_overrides={"bash": (35, 45)})
    hash_ax, freq_ax = plots.timeline(replay_table.replay(patterns.get("bash_pipeline"), cfg))
    assert set(lines(hash_ax)) == {"recuento del hash", "umbral de aviso (3)", "límite estricto (5)"}
    assert set(lines(freq_ax)) == {"llamadas: bash", "umbral de aviso (30)", "límite estricto (50)",
                                   "bash: umbral de aviso (35)", "bash: límite estricto (45)", "warn"}
    assert hash_ax.get_title() == "Capa de hash (arriba) y capa de frecuencia (abajo)"
    assert (hash_ax.get_ylabel(), freq_ax.get_ylabel(), freq_ax.get_xlabel()) == (
        "mismo lote en la ventana", "llamadas por herramienta en la ventana", "lote (turno del modelo)")
    legend = [t.get_text() for t in freq_ax.get_legend().get_texts()]
    assert "bash: umbral de aviso (35)" in legend and "calls: bash" not in legend


def test_importing_the_submodule_first_does_not_shadow_the_function():
    import loopkit.views.plots.timelines  # noqa: F401  (binds the submodule as loopkit.views.plots.timelines)

    df = replay_table.replay(patterns.get("polling"))
    hash_ax, _ = plots.timeline(df)
    assert "hash count" in lines(hash_ax)


def test_lazy_exports_refuse_a_name_equal_to_its_module():
    from loopkit.core._lazy import lazy_exports

    with pytest.raises(ValueError, match=r"exported names \['timeline'\] equal their module names"):
        lazy_exports("loopkit.views.plots", {"timeline": "timeline"})
