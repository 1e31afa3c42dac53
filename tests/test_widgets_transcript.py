"""transcript_replay: the render function, then the view driven through its controls."""

import pathlib

import ipywidgets as W
import pytest
from html_tables import as_text, read_view, tables, text

from loopkit.views.widgets import transcript_replay
from loopkit.views.widgets.transcript import read_transcript, render_transcript, transcript_files

DATA = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "data"
LOOP = str(DATA / "coding_loop.openai_chat.jsonl")
PROGRESS = str(DATA / "coding_progress.anthropic.json")


def test_files_are_the_transcripts_sorted():
    names = [pathlib.Path(p).name for p in transcript_files(DATA)]
    assert names == sorted(names) and "coding_loop.openai_chat.jsonl" in names
    assert all(n.endswith((".json", ".jsonl")) for n in names)
    with pytest.raises(ValueError, match="folder must be a directory"):
        transcript_files(DATA / "nope")


def test_the_reading_matches_the_command_line():
    reading = read_transcript(LOOP, 3, 5, 20)
    assert reading.summary.endswith("stopped the run at step 11 (hash layer, count 5); 9 later batches would never "
                                    "have run. Why: hash layer: the same batch 5 times in the last 20 turns "
                                    "(stops at 5).")
    assert [list(map(str, row.values())) for row in reading.decisions] == [
        ["6", "line 13", "warn", "hash", "3", "read_file"],
        ["8", "line 17", "warn", "hash", "3", "bash"],
        ["11", "line 23", "stop", "hash", "5", "read_file"],
    ]
    assert [p["peer model"] for p in reading.peers] == ["Gemini CLI", "OpenHands", "Roo Code", "Cline", "OpenCode"]
    assert all((p["warn step"], p["stop step"]) == ("-", "-") for p in reading.peers)  # none sees the shifting reads


def test_the_panel_shows_the_reading():
    panel = render_transcript(LOOP, 3, 5, 20)
    reading = read_transcript(LOOP, 3, 5, 20)
    assert tables(panel) == [as_text(reading.decisions), as_text(reading.peers)]
    assert text(panel).startswith(reading.summary + " Batches that warned or stopped")


def test_an_honest_session_and_bad_thresholds():
    reading = read_transcript(PROGRESS, 3, 5, 20)
    assert "would neither have warned nor stopped" in reading.summary and reading.decisions == []
    assert "(nothing yet)" in text(render_transcript(PROGRESS, 3, 5, 20))
    with pytest.raises(ValueError, match="hard_limit"):
        read_transcript(PROGRESS, 5, 3, 20)


def test_view_controls_drive_the_panel():
    view = transcript_replay(DATA)

    def reading():
        return read_view(view, render_transcript, read_transcript)

    assert isinstance(view.controls["path"], W.Dropdown) and isinstance(view.controls["warn"], W.BoundedIntText)
    view.controls["path"].value = LOOP
    assert "stopped the run at step 11" in reading().summary
    view.controls["window"].value = 4  # a 4-batch window never holds three of the same batch
    assert "would neither have warned nor stopped" in reading().summary
    view.controls["window"].value = 20
    view.controls["hard"].value = 2  # hard below warn: the message shows in the panel, not a traceback
    assert text(view.panel.value) == "hard_limit (2) must be >= warn_threshold (3)"


def test_in_spanish_the_view_labels_and_headings_are_spanish():
    from loopkit.core.language import set_language

    set_language("es")
    try:
        view = transcript_replay(DATA)
        view.controls["path"].value = LOOP
        panel = view.panel.value
    finally:
        set_language("en")
    assert view.children[0].value == "<b>¿Habría parado DeerFlow a este agente?</b>"
    assert [view.controls[k].description for k in ("path", "warn", "hard", "window")] == [
        "transcripción", "aviso", "límite", "ventana"]
    assert "Lotes que avisaron o pararon" in text(panel) and "Batches that warned" not in text(panel)
    assert "<th>paso</th><th>dónde</th><th>acción</th><th>capa</th><th>recuento</th><th>llamadas</th>" in panel
    assert "<th>modelo del agente</th><th>paso del aviso</th><th>paso de la parada</th>" in panel
    assert "42 mensajes, 20 lotes, 20 llamadas a herramientas" in text(panel)
