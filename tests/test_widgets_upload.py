"""transcript_upload: the view replays an uploaded file (set the way ipywidgets 8 stores one) or a sample, and shows
what read_upload found."""

import datetime
import pathlib

import ipywidgets as W
import pytest
from html_tables import tables, text

from loopkit.core.language import set_language
from loopkit.teaching.uploads import SAMPLES, read_upload
from loopkit.views.widgets import transcript_upload
from loopkit.views.widgets.upload import chosen_file, render_reading, render_upload

DATA = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "data"
REREAD = DATA / "reread_loop.claude_code.jsonl"


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


def uploaded(data: bytes, name: str) -> tuple:
    """A FileUpload value as ipywidgets 8 keeps it once the browser sent a file: one dict per file, its bytes a
    memoryview."""
    return ({"name": name, "type": "application/octet-stream", "size": len(data), "content": memoryview(data),
             "last_modified": datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)},)


def why_rows(reading):
    return [{"step": str(w.step), "at": w.at, "action": w.action, "layer": w.layer, "count": str(w.count),
             "tool": w.tool, "calls": w.calls, "why": w.why} for w in reading.runs[0].why]


def test_an_upload_shows_its_verdict_why_lines_and_timeline():
    view = transcript_upload(DATA)
    assert isinstance(view.controls["upload"], W.FileUpload) and not view.controls["upload"].multiple
    assert "Upload a transcript, or pick a sample" in text(view.panel.value)
    data = REREAD.read_bytes()
    view.controls["upload"].value = uploaded(data, "my_session.jsonl")
    expected = read_upload(data, "my_session.jsonl")
    panel = view.panel.value
    assert text(panel).startswith(expected.runs[0].summary)
    assert tables(panel) == [why_rows(expected)]
    assert [row["action"] for row in why_rows(expected)] == ["warn", "stop"]
    # the image's alt text names the file, then says what the timeline shows (its batches, limits, first decisions)
    steps = len(expected.runs[0].steps)  # the batches the timeline draws
    assert f'<img alt="timeline of my_session.jsonl: Timeline of {steps} batches. Top, the hash layer: ' in panel
    assert 'style="max-width:100%;height:auto" src="data:image/png;base64,' in panel


def test_the_tool_map_choice_and_the_samples_drive_the_panel():
    view = transcript_upload(DATA)
    assert [label for label, _ in view.controls["sample"].options][1:] == list(SAMPLES)
    view.controls["upload"].value = uploaded(REREAD.read_bytes(), "s.jsonl")
    view.controls["tool_map"].value = "none"
    raw = read_upload(REREAD.read_bytes(), "s.jsonl", "none")
    assert text(view.panel.value).startswith(raw.runs[0].summary) and "never stopped" in raw.runs[0].summary
    view.controls["tool_map"].value = "detected"
    budget = str(DATA / "long_refactor.mini_swe_agent.traj.json")
    view.controls["sample"].value = budget
    assert view.panel.value == render_upload(view.controls["upload"].value, budget, "detected")
    assert "call budget, not a repeat" in text(view.panel.value)
    view.controls["upload"].value = uploaded(b"", "empty.jsonl")  # a new upload is shown, not the sample
    assert view.controls["sample"].value == ""
    assert text(view.panel.value) == read_upload(b"", "empty.jsonl").message


def test_the_view_says_the_file_stays_in_memory_and_forget_drops_it():
    view = transcript_upload(DATA)
    note = text(view.children[1].value)
    assert "never written to disk" in note and "8 MiB" in note
    view.controls["upload"].value = uploaded(REREAD.read_bytes(), "s.jsonl")
    [forget] = view.children[-2].children
    forget.click()
    assert view.controls["upload"].value == () and chosen_file(view.controls["upload"].value, "") is None
    assert "Upload a transcript" in text(view.panel.value)


def test_an_error_is_shown_as_its_message():
    reading = read_upload(b"\xff\xfe{", "w.json")
    assert text(render_reading(reading)) == reading.message and "style='color:#b00" in render_reading(reading)


def test_in_spanish_the_view_speaks_spanish():
    set_language("es")
    view = transcript_upload(DATA)
    view.controls["upload"].value = uploaded(REREAD.read_bytes(), "s.jsonl")
    panel = view.panel.value
    assert view.children[0].value == "<b>Reproduce tu propia transcripción</b>"
    assert "nunca se escribe en disco" in text(view.children[1].value)
    assert [view.controls[k].description for k in ("upload", "sample", "tool_map")] == [
        "Subir", "ejemplo", "mapa de herramientas"]
    assert "Lotes que avisaron o pararon, y por qué" in text(panel)
    assert list(tables(panel)[0][0])[:6] == ["paso", "dónde", "acción", "capa", "recuento", "herramienta"]


def test_the_view_has_the_controls_its_advice_names():
    view = transcript_upload(DATA)
    budgets, skip = view.controls["budgets"], view.controls["skip"]
    assert isinstance(budgets, W.Text) and budgets.description == "tool budgets"
    assert isinstance(skip, W.Checkbox) and skip.description.startswith("skip records that cannot be read")
    budget = str(DATA / "long_refactor.mini_swe_agent.traj.json")
    view.controls["sample"].value = budget
    assert "Raise it in this view's tool budgets box, as bash=WARN:HARD" in text(view.panel.value)
    budgets.value = "bash=60:80"
    assert "would neither have warned nor stopped" in text(view.panel.value)
    budgets.value = "bash=lots"
    assert text(view.panel.value).startswith("Tool budgets: 'bash=lots' is not a budget")
