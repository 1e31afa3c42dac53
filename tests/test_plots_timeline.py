"""plots.timeline: what was drawn (lines, threshold lines, marker positions), not how it looks."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from loopkit import DetectorConfig
from loopkit.teaching import patterns, replay_table
from loopkit.views import plots  # noqa: E402
from loopkit.views.plots.timelines import timeline_data  # noqa: E402


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


def test_the_hash_panel_follows_the_repeated_batch_and_ends_at_the_first_stop():
    df = replay_table.replay(patterns.get("edit_test_same_failure"))
    hash_ax, freq_ax = plots.timeline(df)
    assert freq_ax is None and len(hash_ax.figure.axes) == 1  # the frequency layer decided nothing: no panel
    drawn = lines(hash_ax)
    assert set(drawn) == {"repeats of batch 2", "warn (3)", "hard (5)", "warn", "stop"}
    # the test run's count after every batch, edits included: it climbs, it never zig-zags (1, 1, 1, 2, 1, 3, ...)
    assert xy(drawn["repeats of batch 2"]) == ([float(s) for s in range(1, 11)], [0, 1, 1, 2, 2, 3, 3, 4, 4, 5])
    assert level(drawn["warn (3)"]) == 3 and level(drawn["hard (5)"]) == 5
    assert xy(drawn["warn"]) == ([6.0], [3.0])
    assert xy(drawn["stop"]) == ([10.0], [5.0])  # one stop: the run ends there, batches 11 and 12 are not drawn


def test_the_repeated_count_is_the_detectors_count_wherever_that_batch_is_made():
    for name in ("edit_test_same_failure", "abc_cycle", "read_jitter", "polling"):
        df = replay_table.replay(patterns.get(name))
        data = timeline_data(df)
        for series in data.panel("hash").series:
            fingerprint = series.key.removeprefix("repeat:")
            made = [(i, count) for i, (f, count) in enumerate(zip(df["fingerprint"], df["hash_count"], strict=True))
                    if f == fingerprint and i < len(data.steps)]
            assert made and all(series.counts[i] == count for i, count in made), name


def test_a_cycle_of_three_draws_one_line_per_repeated_batch_with_its_own_style():
    hash_ax, _ = plots.timeline(replay_table.replay(patterns.get("abc_cycle")))
    repeats = [line for label, line in lines(hash_ax).items() if label.startswith("repeats of batch")]
    assert [line.get_label() for line in repeats] == ["repeats of batch 1", "repeats of batch 2", "repeats of batch 3"]
    assert len({(line.get_linestyle(), line.get_marker(), line.get_color()) for line in repeats}) == 3
    assert xy(lines(hash_ax)["stop"]) == ([13.0], [5.0])


def test_the_frequency_panel_alone_when_only_that_layer_decided():
    df = replay_table.replay(patterns.get("cross_file_sweep"))
    hash_ax, freq_ax = plots.timeline(df)
    assert hash_ax is None
    drawn = lines(freq_ax)
    assert set(drawn) == {"calls: read_file", "warn (30)", "hard (50)", "warn", "stop"}
    assert xy(drawn["calls: read_file"]) == ([float(s) for s in range(1, 51)], [float(s) for s in range(1, 51)])
    assert xy(drawn["warn"]) == ([30.0], [30.0]) and xy(drawn["stop"]) == ([50.0], [50.0])
    assert freq_ax.get_xlabel() == "batch (model turn)"


def test_both_panels_when_both_layers_decided():
    small = DetectorConfig(warn_threshold=2, hard_limit=9, tool_freq_warn=2, tool_freq_hard_limit=3)
    df = replay_table.replay([[{"name": "bash", "args": {"command": "pytest"}}]] * 6, small)
    hash_ax, freq_ax = plots.timeline(df)
    assert hash_ax.figure is freq_ax.figure and len(hash_ax.figure.axes) == 2
    assert xy(lines(hash_ax)["warn"]) == ([2.0], [2.0]) and "stop" not in lines(hash_ax)
    assert xy(lines(freq_ax)["warn"]) == ([3.0], [2.0]) and xy(lines(freq_ax)["stop"]) == ([4.0], [3.0])
    assert hash_ax.get_title() == "Hash layer (top) and frequency layer (bottom)"


def test_when_neither_layer_decided_the_closer_one_is_drawn():
    hash_ax, freq_ax = plots.timeline(replay_table.replay(patterns.get("write_new_content")))
    assert freq_ax is None and hash_ax.get_title() == "Hash layer"  # a count of 1 of 3 beats 8 writes of 30
    raised = DetectorConfig(tool_freq_warn=45, tool_freq_hard_limit=60)  # the pipeline's 40 calls come near 45
    hash_ax, freq_ax = plots.timeline(replay_table.replay(patterns.get("bash_pipeline"), raised))
    assert hash_ax is None and freq_ax.get_title() == "Frequency layer"


def test_what_is_left_out_is_said_in_words():
    data = timeline_data(replay_table.replay(patterns.get("edit_test_same_failure")))
    assert data.steps == tuple(range(1, 11))
    assert data.notes == (
        "The frequency layer is not drawn: it decided nothing here. The busiest tool, str_replace, reached 5 calls "
        "in the window, and it warns at 30.",
        "The run stopped at batch 10, where a real run ends: the 2 later batches of this trace are not drawn.")
    assert data.description.endswith(" ".join(data.notes))
    sweep = timeline_data(replay_table.replay(patterns.get("cross_file_sweep")))
    assert sweep.notes[0] == "The hash layer is not drawn: it decided nothing here, and no batch came back."
    whole = timeline_data(replay_table.replay(patterns.get("exact_repeat"), until_stop=True))
    assert not any("later" in note for note in whole.notes)  # a replay that ended at its stop leaves nothing out


def test_top_limits_the_tools_shown_most_called_first():
    batches = ([[{"name": "grep", "args": {"pattern": str(i)}}] for i in range(2)]
               + [[{"name": "bash", "args": {"command": str(i)}}] for i in range(4)]
               + [[{"name": "ls", "args": {"path": "."}}]])
    df = replay_table.replay(batches, DetectorConfig(tool_freq_warn=4, tool_freq_hard_limit=9))
    _, freq_ax = plots.timeline(df, top=2)
    assert [k for k in lines(freq_ax) if k.startswith("calls: ")] == ["calls: bash", "calls: grep"]


def test_config_defaults_to_the_tables_and_overrides_get_their_own_lines():
    cfg = DetectorConfig(warn_threshold=2, hard_limit=4, tool_freq_overrides={"bash": (35, 45)})
    df = replay_table.replay(patterns.get("bash_pipeline"), cfg)
    _, freq_ax = plots.timeline(df)
    drawn = lines(freq_ax)
    assert level(drawn["bash warn (35)"]) == 35 and level(drawn["bash hard (45)"]) == 45
    assert xy(drawn["warn"]) == ([35.0], [35.0])  # the override, not the global 30, decided
    # An explicit config wins over the table's (here: drawing the table against other limits).
    _, freq_ax = plots.timeline(df, DetectorConfig(tool_freq_warn=10, tool_freq_hard_limit=20))
    assert {"warn (10)", "hard (20)"} <= set(lines(freq_ax)) and "bash warn (35)" not in lines(freq_ax)


def test_a_given_title_and_axes_from_zero():
    hash_ax, _ = plots.timeline(replay_table.replay(patterns.get("exact_repeat")), title="exact repeat")
    assert hash_ax.get_title() == "exact repeat" and hash_ax.get_ylim()[0] == 0


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
    _, freq_ax = plots.timeline(replay_table.replay(patterns.get("bash_pipeline"), cfg))
    assert set(lines(freq_ax)) == {"llamadas: bash", "umbral de aviso (30)", "límite estricto (50)",
                                   "bash: umbral de aviso (35)", "bash: límite estricto (45)", "warn"}
    assert freq_ax.get_title() == "Capa de frecuencia"
    assert (freq_ax.get_ylabel(), freq_ax.get_xlabel()) == ("llamadas por herramienta en la ventana",
                                                            "lote (turno del modelo)")
    legend = [t.get_text() for t in freq_ax.get_legend().get_texts()]
    assert "bash: umbral de aviso (35)" in legend and "calls: bash" not in legend
    hash_ax, _ = plots.timeline(replay_table.replay(patterns.get("edit_test_same_failure")))
    assert "repeticiones del lote 2" in lines(hash_ax) and hash_ax.get_title() == "Capa de hash"


def test_importing_the_submodule_first_does_not_shadow_the_function():
    import loopkit.views.plots.timelines  # noqa: F401  (binds the submodule as loopkit.views.plots.timelines)

    df = replay_table.replay(patterns.get("polling"))
    hash_ax, _ = plots.timeline(df)
    assert "repeats of batch 1" in lines(hash_ax)


def test_lazy_exports_refuse_a_name_equal_to_its_module():
    from loopkit.core._lazy import lazy_exports

    with pytest.raises(ValueError, match=r"exported names \['timeline'\] equal their module names"):
        lazy_exports("loopkit.views.plots", {"timeline": "timeline"})
