"""transcript_replay: the render function, then the view driven through its controls."""

import pathlib

import ipywidgets as W
import pytest
from html_tables import as_text, read_view, tables, text

from loopkit.views.widgets import transcript_replay
from loopkit.views.widgets.transcript import parse_overrides, read_transcript, render_transcript, transcript_files

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

    assert isinstance(view.controls["path"], W.Dropdown) and isinstance(view.controls["warn"], W.IntSlider)
    view.controls["path"].value = LOOP
    assert "stopped the run at step 11" in reading().summary
    view.controls["window"].value = 4  # a 4-batch window never holds three of the same batch
    assert "would neither have warned nor stopped" in reading().summary
    view.controls["window"].value = 20
    view.controls["hard"].value = 2  # hard below warn: explained in the panel, not a traceback
    assert text(view.panel.value).startswith("warn (3) is above hard (2). The hard limit is checked first")
    assert "Lower warn to 2 or less, or raise hard to 3 or more." in text(view.panel.value)


def test_every_option_the_panel_names_is_a_control():
    """The summary may tell the learner to use --override or --tool-map: the view has both, and they do that."""
    view = transcript_replay(DATA)
    for path in transcript_files(DATA):
        view.controls["path"].value = path
        for flag, control in (("--override", "override"), ("--tool-map", "tool_map")):
            if flag in text(view.panel.value):
                assert control in view.controls, f"{path}: the panel names {flag}, the view has no {control} control"


def test_the_override_box_does_what_the_command_line_option_does():
    refactor = str(DATA / "long_refactor.mini_swe_agent.traj.json")
    view = transcript_replay(DATA)
    view.controls["path"].value = refactor
    before = read_view(view, render_transcript, read_transcript)
    assert "--override bash=WARN:HARD" in before.summary and "stopped the run at step 50" in before.summary
    assert "the override box" in text(view.panel.value)  # the text says where the option is
    view.controls["override"].value = "bash=80:120"  # chapter 10's own --override bash=80:120
    after = read_view(view, render_transcript, read_transcript)
    assert "would neither have warned nor stopped" in after.summary and after.decisions == []
    view.controls["override"].value = "bash=8:4"
    assert text(view.panel.value).startswith("bash warn (8) is above bash hard (4).")
    view.controls["override"].value = "bash=80"
    assert "TOOL=WARN:HARD" in text(view.panel.value) and "It cannot read bash=80." in text(view.panel.value)
    view.controls["override"].value = ""
    assert read_view(view, render_transcript, read_transcript) == before
    assert parse_overrides("bash=80:120, ls=5:9") == {"bash": (80, 120), "ls": (5, 9)}
    with pytest.raises(ValueError, match="expected TOOL=WARN:HARD"):
        parse_overrides("bash=a:b")


def test_the_tool_map_menu_does_what_the_command_line_option_does():
    reread = str(DATA / "reread_loop.claude_code.jsonl")
    view = transcript_replay(DATA)
    view.controls["path"].value = reread
    assert view.controls["tool_map"].value == "detected"  # the command's default: the format's own preset
    mapped = read_view(view, render_transcript, read_transcript).summary
    assert "mapped to DeerFlow's by the claude-code preset" in mapped and "stopped the run at step 7" in mapped
    view.controls["tool_map"].value = "none"  # --tool-map none
    as_written = read_view(view, render_transcript, read_transcript).summary
    assert "--tool-map claude-code maps its read" in as_written and "never stopped" in as_written
    view.controls["tool_map"].value = "claude-code"
    assert read_view(view, render_transcript, read_transcript).summary == mapped


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
    decisions, peers = tables(panel)
    assert list(decisions[0]) == ["paso", "dónde", "acción", "capa", "recuento", "llamadas"]
    assert list(peers[0]) == ["modelo del agente", "paso del aviso", "paso de la parada"]
    assert "42 mensajes, 20 lotes, 20 llamadas a herramientas" in text(panel)
