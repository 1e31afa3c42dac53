"""transcript_replay: the render function, then the view driven through its controls."""

import pathlib

import ipywidgets as W
import pytest

from loopkit.widgets import transcript_replay
from loopkit.widgets.transcript import render_transcript, transcript_files

DATA = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "data"
LOOP = str(DATA / "coding_loop.openai_chat.jsonl")
PROGRESS = str(DATA / "coding_progress.anthropic.json")


def rows(panel, heading):
    """The body cells of the table that follows ``heading``."""
    table = panel.split(heading, 1)[1].split("</table>", 1)[0]
    return [[cell.split("</td>")[0] for cell in row.split("<td>")[1:]] for row in table.split("<tr>")[2:]]


def test_files_are_the_transcripts_sorted():
    names = [pathlib.Path(p).name for p in transcript_files(DATA)]
    assert names == sorted(names) and "coding_loop.openai_chat.jsonl" in names
    assert all(n.endswith((".json", ".jsonl")) for n in names)
    with pytest.raises(ValueError, match="folder must be a directory"):
        transcript_files(DATA / "nope")


def test_render_matches_the_command_line():
    panel = render_transcript(LOOP, 3, 5, 20)
    assert "stopped the run at step 11 (hash layer, count 5); 9 later batches would never have run." in panel
    assert rows(panel, "Batches that warned or stopped") == [
        ["6", "line 13", "warn", "hash", "3", "read_file"],
        ["8", "line 17", "warn", "hash", "3", "bash"],
        ["11", "line 23", "stop", "hash", "5", "read_file"],
    ]
    peers = rows(panel, "The peer models on the same trace")
    assert [p[0] for p in peers] == ["Gemini CLI", "OpenHands", "Roo Code", "Cline", "OpenCode"]
    assert all(p[1:] == ["-", "-"] for p in peers)  # none of them notices the shifting reads


def test_render_honest_session_and_bad_thresholds():
    panel = render_transcript(PROGRESS, 3, 5, 20)
    assert "would neither have warned nor stopped" in panel and "(nothing yet)" in panel
    with pytest.raises(ValueError, match="hard_limit"):
        render_transcript(PROGRESS, 5, 3, 20)


def test_view_controls_drive_the_panel():
    view = transcript_replay(DATA)
    assert isinstance(view.controls["path"], W.Dropdown) and isinstance(view.controls["warn"], W.IntSlider)
    view.controls["path"].value = LOOP
    assert "stopped the run at step 11" in view.panel.value
    view.controls["window"].value = 4  # a 4-batch window never holds three of the same batch
    assert "would neither have warned nor stopped" in view.panel.value
    view.controls["window"].value = 20
    view.controls["hard"].value = 2  # hard below warn: the message shows in the panel, not a traceback
    assert "hard_limit (2) must be &gt;= warn_threshold (3)" in view.panel.value
