"""The hub test's room plan without a hub: twenty learners' answers checked in this process, each with a home of
their own, then the instructor's summary and the rehearsal's comparison (tools/hub_rehearsal.py --room).

The hub test (tests/test_hub.py, marker hub) does the same through real kernels on a real JupyterHub; this one runs
in every quick test run, so a change that breaks the plan or the comparison shows up at once.
"""

from __future__ import annotations

import dataclasses
import sys

import pytest
from hub import room_plan
from notebook_tools import ROOT

from loopkit.teaching import room
from loopkit.teaching.exercises import ch00, ch05
from loopkit.views.widgets.room import room_summary

sys.path.insert(0, str(ROOT / "tools"))
import hub_rehearsal  # noqa: E402  (tools/hub_rehearsal.py)

LEARNERS = 20


@pytest.fixture
def answered_room(tmp_path, monkeypatch, capsys):
    """A room folder after twenty learners typed the plan's answers, each in their own home and kernel."""
    folder = tmp_path / "room"
    folder.mkdir()
    monkeypatch.setenv(room.ROOM_VARIABLE, str(folder))
    namespaces = {room_plan.CHAPTER_00: vars(ch00), room_plan.CHAPTER_05: vars(ch05)}
    for number in range(LEARNERS):
        home = tmp_path / f"home{number:02d}"
        home.mkdir()
        monkeypatch.setenv("HOME", str(home))
        monkeypatch.setattr(room, "_learner_ids", {})
        for chapter, answers in room_plan.answers_of(number).items():
            for answer in answers:
                exec(room_plan.answer_code(answer), dict(namespaces[chapter]))
                assert room_plan.verdict_problem(answer, capsys.readouterr().out) is None
    return folder


@dataclasses.dataclass
class Cell:
    stdout: str
    errors: list = dataclasses.field(default_factory=list)


class Instructor:
    """Stands in for a learner's server: 'runs' the instructor's notebook by printing its summary cell."""

    def __init__(self, folder):
        self.folder = folder

    def run_notebook(self, path):
        assert path == room_plan.ROOM_NOTEBOOK
        return "session", [Cell(f"reading {self.folder}\n"), Cell(room_summary(self.folder) + "\n")]

    def shut_down(self, session):
        pass


def test_the_plan_sends_every_kind_of_answer():
    answers = [a for n in range(LEARNERS) for chapter in room_plan.answers_of(n).values() for a in chapter]
    assert {a.correct for a in answers} == {True, False}
    assert any(a.misconception for a in answers) and any(not a.correct and not a.misconception for a in answers)
    assert room_plan.submitted(LEARNERS) == len(answers) == 71


def test_the_summary_shows_what_the_learners_sent(answered_room):
    summary = room_summary(answered_room)
    assert summary.splitlines()[0] == f"{LEARNERS} learners, {room_plan.submitted(LEARNERS)} answers recorded."
    assert room_plan.shown_rows(summary) == room_plan.expected_room(LEARNERS)
    assert room_plan.UNLISTED not in "".join(p.read_text() for p in answered_room.iterdir())


def test_the_rehearsal_says_the_counts_agree(answered_room, capsys):
    assert hub_rehearsal.check_room(Instructor(answered_room), LEARNERS)
    assert "room view: the counts agree" in capsys.readouterr().out


def test_the_rehearsal_says_when_they_differ(answered_room, capsys):
    room.append(answered_room, room.Record("00000000000000ff", "0.2", True, None, "2026-12-02T09:00:00Z"))
    assert not hub_rehearsal.check_room(Instructor(answered_room), LEARNERS)
    assert "the counts DIFFER" in capsys.readouterr().out
