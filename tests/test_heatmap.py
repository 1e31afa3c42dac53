"""The peer heatmap draws what compare() found: colours by outcome, step annotations, frames on disagreements."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from loopkit.teaching.peers import Cline, DeerFlow, RooCode, compare  # noqa: E402
from loopkit.views import plots  # noqa: E402
from loopkit.views.plots.heatmaps import OUTCOME_COLOURS, cell_text  # noqa: E402

A = {"name": "read_file", "args": {"path": "a.py"}}
B = {"name": "bash", "args": {"command": "pytest"}}


def table():
    patterns = {
        "exact repeat": ([[A]] * 6, "loop"),  # DeerFlow w3 s5, Roo s4, Cline w3 s5
        "ping-pong": ([[A], [B]] * 3, "loop"),  # DeerFlow: A at 1, 3, 5 -> w5; Roo and Cline: nothing (missed)
        "same read twice": ([[A]] * 2, "progress"),  # nobody acts
    }
    return compare(patterns, [DeerFlow(), RooCode(), Cline()])


def test_the_lazy_name_is_the_function_every_time():
    first = plots.heatmap
    assert callable(first) and plots.heatmap is first and callable(plots.heatmap)


def test_cells_are_annotated_coloured_and_framed():
    ax = plots.heatmap(table())
    texts = [t.get_text() for t in ax.texts]
    assert texts == ["w3 s5", "s4", "w3 s5", "w5", "-", "-", "-", "-", "-"]
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "exact repeat (loop)", "ping-pong (loop)", "same read twice (progress)"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["DeerFlow", "Roo Code", "Cline"]
    # the two missed loops (Roo Code and Cline on ping-pong) are framed, and nothing else
    frames = [(p.get_x(), p.get_y()) for p in ax.patches]
    assert sorted((round(x + 0.45), round(y + 0.45)) for x, y in frames) == [(1, 1), (2, 1)]
    image = ax.images[0].get_array()
    assert image.tolist() == [[2, 2, 2], [1, 0, 0], [0, 0, 0]]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["no action", "warn / feedback", "stop / block", "disagrees with the label"]
    plt.close(ax.figure)


def test_colours_match_outcomes():
    ax = plots.heatmap(table())
    cmap = ax.images[0].get_cmap()
    assert [matplotlib.colors.to_hex(cmap(i / 2)) for i in range(3)] == [
        OUTCOME_COLOURS["ok"], OUTCOME_COLOURS["warn"], OUTCOME_COLOURS["stop"]]
    plt.close(ax.figure)


def test_cell_text_and_bad_input():
    assert cell_text(3, None) == "w3" and cell_text(float("nan"), 7) == "s7"
    with pytest.raises(ValueError, match=r"lacks \['detector'"):
        plots.heatmap(table().drop(columns=["detector"]))
    with pytest.raises(ValueError, match="df is empty"):
        plots.heatmap(table().iloc[0:0])


def test_in_spanish_the_words_change_and_the_frames_do_not():
    """The frames come from the label and the action, never from the (translated) verdict text."""
    from loopkit.core.language import set_language

    set_language("es")
    try:
        ax = plots.heatmap(table())
    finally:
        set_language("en")
    assert ax.get_title() == "¿Qué detector actúa ante qué patrón?"
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "exact repeat (bucle)", "ping-pong (bucle)", "same read twice (progreso)"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "sin acción", "aviso (warn) / respuesta al modelo", "parada (stop) / bloqueo", "no coincide con la etiqueta"]
    frames = [(p.get_x(), p.get_y()) for p in ax.patches]
    assert sorted((round(x + 0.45), round(y + 0.45)) for x, y in frames) == [(1, 1), (2, 1)]
    plt.close(ax.figure)
