"""The instructor's room view: the sample room's rows, the summary the notebook prints, and the live view."""

from __future__ import annotations

import json
import pathlib

import pytest
from html_tables import tables, text

from loopkit.teaching import room
from loopkit.views import widgets
from loopkit.views.widgets.room import misconception_answer, room_rows, room_summary

SAMPLE = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "instructor" / "sample-room"


def sample_records() -> list[dict]:
    return [json.loads(line) for path in sorted(SAMPLE.glob("*.jsonl")) for line in path.read_text().splitlines()]


def expected_rows(records: list[dict]) -> list[tuple]:
    """The sample's counts, worked out here from its lines: learners per exercise, not attempts."""
    exercises = sorted({r["exercise"] for r in records}, key=lambda e: tuple(map(int, e.split("."))))
    rows = []
    for exercise in exercises:
        mine = [r for r in records if r["exercise"] == exercise]
        slips: dict[str, set] = {}
        for r in mine:
            if r["misconception"]:
                slips.setdefault(r["misconception"], set()).add(r["learner"])
        top = sorted(slips, key=lambda label: (-len(slips[label]), int(label[1:])))[0] if slips else None
        rows.append((exercise, len({r["learner"] for r in mine}), len({r["learner"] for r in mine if r["correct"]}),
                     top, len(slips[top]) if top else 0))
    return rows


def test_the_sample_room_is_counted_by_learners():
    records = sample_records()
    counts = room.read_room(SAMPLE).counts
    got = [(c.exercise, c.answered, c.right, c.misconception, c.misconception_learners) for c in counts]
    assert got == expected_rows(records)
    # and by hand, for the notebook's reader: 2.1's slip m1 (400) was three learners', one of them right later
    assert got[2] == ("2.1", 5, 2, "m1", 3)


def test_a_misconception_is_shown_with_the_exercises_own_wrong_answer():
    assert misconception_answer("2.1", "m1") == "400"
    assert misconception_answer("2.2", "m2") == "'src/app.py:0-2'"
    assert misconception_answer("2.1", "m99") == "?" and misconception_answer("99.1", "m1") == "?"


def test_the_rows_and_the_summary_agree():
    rows = room_rows(SAMPLE)
    assert [row["most common misconception"] for row in rows] == ["m1 (2): 6", "m2 (2): 4", "m1 (3): 400",
                                                                  "m2 (1): 'src/app.py:0-2'"]
    summary = room_summary(SAMPLE).splitlines()
    assert summary[0] == "6 learners, 19 answers recorded."
    assert [line.split()[:3] for line in summary[2:]] == [[r["exercise"], str(r["answered"]), str(r["right"])]
                                                         for r in rows]


def test_the_view_reads_the_folder_again_when_refreshed(tmp_path):
    view = widgets.room_view(tmp_path)
    assert "0 learners, 0 answers recorded." in text(view.panel.value)
    room.append(tmp_path, room.Record("00000000000000aa", "2.1", False, "m1", "2026-12-02T10:00:00Z"))
    view.buttons["refresh"].click()
    shown = tables(view.panel.value)[0]
    assert shown == [{"exercise": "2.1", "answered": "1", "right": "0", "most common misconception": "m1 (1): 400"}]


def test_the_view_takes_the_hubs_setting_and_shows_a_missing_folder(tmp_path, monkeypatch):
    monkeypatch.setenv(room.ROOM_VARIABLE, str(tmp_path / "gone"))
    view = widgets.room_view()
    assert view.controls["folder"].value == str(tmp_path / "gone")
    assert "does not exist" in text(view.panel.value)
    view.controls["folder"].value = str(SAMPLE)
    assert "6 learners, 19 answers recorded." in text(view.panel.value)


def test_in_spanish_the_view_speaks_spanish(spanish):
    view = widgets.room_view(SAMPLE)
    assert view.buttons["refresh"].description == "Actualizar"
    assert "6 estudiantes, 19 respuestas registradas." in text(view.panel.value)
    assert list(tables(view.panel.value)[0][0]) == ["ejercicio", "respondieron", "acertaron", "idea errónea más común"]


@pytest.mark.parametrize("damage", ["{torn", '{"learner": "x"}'])
def test_a_damaged_line_is_named_in_the_summary(tmp_path, damage):
    (tmp_path / "00000000000000aa.jsonl").write_text(damage + "\n", encoding="utf-8")
    assert "Not counted: 00000000000000aa.jsonl:1:" in room_summary(tmp_path)


def test_the_instructors_notebook_is_one_clean_run_over_the_sample():
    """nbval compares its outputs (it lives under notebooks/, outside the chapters' own checks); this adds what
    the chapters' hygiene test would: one top-to-bottom run, no error, and the sample room read."""
    notebook = json.loads((SAMPLE.parent / "room.ipynb").read_text(encoding="utf-8"))
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    assert [cell["execution_count"] for cell in code] == list(range(1, len(code) + 1))
    assert not [o for cell in code for o in cell["outputs"] if o["output_type"] == "error"]
    assert "".join(code[0]["outputs"][0]["text"]) == "reading sample-room\n"
    assert "".join(code[1]["outputs"][0]["text"]) == room_summary(SAMPLE) + "\n"
