"""The room view's recording and counting (loopkit/teaching/room.py), and how check() uses it.

Off unless LOOPKIT_ROOM names a folder; when on, one line per checked answer in the learner's own file of that
folder, with no answer text in it; a failure to record never stops check() from giving feedback.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import pathlib

import pytest

from loopkit.core.language import set_language
from loopkit.teaching import room
from loopkit.teaching.exercises import all_questions

Q22 = all_questions()["2.2"]  # prediction: solution "src/app.py:0-1"; known slips "src/app.py:1-0" (m1), ...
Q21 = all_questions()["2.1"]  # prediction: solution 401; known slips 400 (m1), 399 (m2), ...
DISTINCTIVE = "zebra-quartz-answer-7731"  # no known slip: a wrong answer with no misconception


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A learner's home of their own, nothing reported yet in this 'kernel', and the room off."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.delenv(room.ROOM_VARIABLE, raising=False)
    monkeypatch.setattr(room, "_reported", set())
    return folder


@pytest.fixture
def shared(tmp_path, home, monkeypatch):
    """The room turned on: LOOPKIT_ROOM names an empty shared folder."""
    folder = tmp_path / "room"
    folder.mkdir()
    monkeypatch.setenv(room.ROOM_VARIABLE, str(folder))
    return folder


def lines_in(folder: pathlib.Path) -> list[dict]:
    return [json.loads(line) for path in sorted(folder.glob("*.jsonl"))
            for line in path.read_text(encoding="utf-8").splitlines()]


def every_byte(folder: pathlib.Path) -> str:
    return "".join(path.read_text(encoding="utf-8") for path in folder.rglob("*") if path.is_file())


# -- off by default ---------------------------------------------------------------------------------------------


def test_without_the_setting_check_writes_nothing_anywhere(home, tmp_path, monkeypatch, capsys):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    Q22.check("src/app.py:0-1")
    Q22.check("src/app.py:1-0")
    Q21.check(400)
    assert list(home.iterdir()) == [] and list(work.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "work"]
    printed = capsys.readouterr().out
    assert "room" not in printed.lower() and printed.count("Exercise 2.") == 3


def test_an_empty_setting_is_off_too(home, monkeypatch, capsys):
    monkeypatch.setenv(room.ROOM_VARIABLE, "")
    Q21.check(401)
    assert list(home.iterdir()) == []
    assert room.room_folder() is None


# -- what a record holds ----------------------------------------------------------------------------------------


def test_each_check_appends_one_record_with_the_five_fields(shared, capsys):
    Q22.check("src/app.py:0-1")
    Q22.check("src/app.py:1-0")  # the first known slip
    Q21.check(399)  # the second known slip
    Q22.check(DISTINCTIVE)  # wrong, and no known slip
    records = lines_in(shared)
    assert [sorted(r) for r in records] == [["correct", "exercise", "learner", "misconception", "time"]] * 4
    assert [(r["exercise"], r["correct"], r["misconception"]) for r in records] == [
        ("2.2", True, None), ("2.2", False, "m1"), ("2.1", False, "m2"), ("2.2", False, None)]
    assert len({r["learner"] for r in records}) == 1
    assert all(r["time"].endswith("Z") and r["time"][:2] == "20" for r in records)
    assert "room" not in capsys.readouterr().out.lower()  # nothing to report when all went well


def test_no_record_holds_the_answers_text(shared):
    Q22.check(DISTINCTIVE)
    Q22.check("src/app.py:1-0")
    Q22.check("  'src/app.py:0-1' ")
    text = every_byte(shared)
    for answer in (DISTINCTIVE, "zebra", "src/app.py", "1-0", "0-1"):
        assert answer not in text, f"{answer!r} is in the room's files:\n{text}"


def test_an_unanswered_check_is_not_recorded(shared):
    Q22.check()
    assert lines_in(shared) == []


def test_the_learner_id_is_random_kept_in_the_home_and_stable(shared, home, monkeypatch):
    Q21.check(401)
    kept = (home / ".loopkit" / "room-id").read_text(encoding="utf-8").strip()
    monkeypatch.setattr(room, "_learner_ids", {})  # a new kernel: the id is read back, not made again
    Q21.check(400)
    ids = {r["learner"] for r in lines_in(shared)}
    assert ids == {kept} and [p.name for p in shared.iterdir()] == [f"{kept}.jsonl"]
    assert os.environ.get("USER", "nobody") not in kept and len(kept) == 16 and int(kept, 16) >= 0


def test_two_homes_get_two_ids(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    assert room.learner_id(first) != room.learner_id(second)
    assert room.learner_id(first) == room.learner_id(first)


def test_a_damaged_id_file_is_an_error_naming_the_file(tmp_path):
    (tmp_path / ".loopkit").mkdir()
    (tmp_path / ".loopkit" / "room-id").write_text("alice\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"room-id.*16 hex digits"):
        room.learner_id(tmp_path)


# -- a failure to record never breaks check() -------------------------------------------------------------------


def test_a_missing_room_folder_is_reported_once_and_check_still_answers(home, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(room.ROOM_VARIABLE, str(tmp_path / "no-such-folder"))
    Q21.check(400)
    Q21.check(401)
    printed = capsys.readouterr().out
    assert "Not yet (Exercise 2.1)" in printed and "Correct! (Exercise 2.1)" in printed
    assert printed.count("not recorded") == 1, printed
    assert "no-such-folder" in printed


def test_a_recorder_that_raises_anything_does_not_break_check(shared, monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(room, "append", broken)
    Q21.check(401)
    Q21.check(400)
    printed = capsys.readouterr().out
    assert "Correct! (Exercise 2.1)" in printed and "Not yet (Exercise 2.1)" in printed
    assert printed.count("disk on fire") == 1


def test_the_report_speaks_the_learners_language(home, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(room.ROOM_VARIABLE, str(tmp_path / "no-such-folder"))
    set_language("es")
    try:
        Q21.check(401)
    finally:
        set_language("en")
    printed = capsys.readouterr().out
    assert "¡Correcto!" in printed and "no se registró" in printed


def test_a_relative_setting_is_refused_with_the_reason(home, monkeypatch, capsys):
    monkeypatch.setenv(room.ROOM_VARIABLE, "room")
    Q21.check(401)
    printed = capsys.readouterr().out
    assert "Correct!" in printed and "absolute path" in printed and "not recorded" in printed


def test_a_full_file_stops_recording_and_says_so_once(shared, monkeypatch, capsys):
    monkeypatch.setattr(room, "MAX_FILE_BYTES", 400)
    for _ in range(10):
        Q21.check(400)
    sizes = [p.stat().st_size for p in shared.glob("*.jsonl")]
    assert len(sizes) == 1 and 0 < sizes[0] <= 400
    assert 1 <= len(lines_in(shared)) < 10
    assert capsys.readouterr().out.count("full") == 1


# -- concurrency ------------------------------------------------------------------------------------------------


def _append_many(folder: str, learner: str, exercise: str, count: int, start: multiprocessing.Event) -> None:
    start.wait()
    for n in range(count):
        record = room.Record(learner, exercise, n % 3 == 0, None if n % 3 == 0 else f"m{n % 3}",
                             "2026-12-02T10:00:00Z")
        assert room.append(pathlib.Path(folder), record)


def test_processes_appending_at_once_lose_and_tear_no_line(tmp_path):
    context = multiprocessing.get_context("fork")
    start = context.Event()
    # eight processes, four learners: two kernels of each learner write to that learner's one file at once
    plan = [(f"{n % 4:016x}", f"5.{n}", 150) for n in range(8)]
    workers = [context.Process(target=_append_many, args=(str(tmp_path), learner, exercise, count, start))
               for learner, exercise, count in plan]
    for worker in workers:
        worker.start()
    start.set()
    for worker in workers:
        worker.join(timeout=120)
    assert [worker.exitcode for worker in workers] == [0] * 8
    reading = room.read_room(tmp_path)
    assert reading.problems == ()
    assert reading.records == 8 * 150 and reading.learners == 4
    by_exercise = {count.exercise: count for count in reading.counts}
    assert sorted(by_exercise) == [f"5.{n}" for n in range(8)]
    assert all(by_exercise[f"5.{n}"].answered == 1 and by_exercise[f"5.{n}"].right == 1 for n in range(8))
    assert [len(p.read_text().splitlines()) for p in sorted(tmp_path.glob("*.jsonl"))] == [300] * 4


# -- counting ---------------------------------------------------------------------------------------------------


def write(folder: pathlib.Path, learner: str, *rows: tuple) -> None:
    with open(folder / f"{learner}.jsonl", "a", encoding="utf-8") as file:
        for exercise, correct, misconception in rows:
            file.write(json.dumps({"learner": learner, "exercise": exercise, "correct": correct,
                                   "misconception": misconception, "time": "2026-12-02T10:00:00Z"}) + "\n")


A, B, C, D = (f"{n:016x}" for n in (10, 11, 12, 13))


def test_counts_per_exercise_count_learners_not_attempts(tmp_path):
    write(tmp_path, A, ("2.1", False, "m1"), ("2.1", False, "m1"), ("2.1", False, "m1"), ("2.1", True, None))
    write(tmp_path, B, ("2.1", False, "m2"), ("10.2", True, None))
    write(tmp_path, C, ("2.1", False, "m2"), ("2.2", False, None))
    write(tmp_path, D, ("2.2", True, None), ("2.2", False, "m3"))
    reading = room.read_room(tmp_path)
    rows = [(c.exercise, c.answered, c.right, c.misconception, c.misconception_learners) for c in reading.counts]
    # A tried m1 three times, but m2 was two learners' slip: learners count, not attempts; 10.2 sorts after 2.2
    assert rows == [("2.1", 3, 1, "m2", 2), ("2.2", 2, 1, "m3", 1), ("10.2", 1, 1, None, 0)]
    assert (reading.learners, reading.records, reading.problems) == (4, 10, ())


def test_a_tie_between_misconceptions_goes_to_the_first_listed(tmp_path):
    write(tmp_path, A, ("3.1", False, "m3"))
    write(tmp_path, B, ("3.1", False, "m2"))
    assert room.read_room(tmp_path).counts[0].misconception == "m2"


def test_an_empty_room_counts_nothing(tmp_path):
    reading = room.read_room(tmp_path)
    assert (reading.counts, reading.learners, reading.records, reading.problems) == ((), 0, 0, ())


def test_a_damaged_line_is_named_by_file_and_line_and_the_rest_still_counts(tmp_path):
    write(tmp_path, A, ("2.1", True, None))
    with open(tmp_path / f"{A}.jsonl", "a", encoding="utf-8") as file:
        file.write("{not json\n")
        file.write(json.dumps({"learner": A, "exercise": "2.1", "correct": "yes"}) + "\n")
    write(tmp_path, A, ("2.2", True, None))
    (tmp_path / "notes.txt").write_text("the instructor's own notes are not read\n", encoding="utf-8")
    reading = room.read_room(tmp_path)
    assert reading.records == 2 and [c.exercise for c in reading.counts] == ["2.1", "2.2"]
    assert len(reading.problems) == 2
    assert reading.problems[0].startswith(f"{A}.jsonl:2:") and reading.problems[1].startswith(f"{A}.jsonl:3:")


def test_a_file_past_the_cap_is_read_only_up_to_it(tmp_path, monkeypatch):
    monkeypatch.setattr(room, "MAX_FILE_BYTES", 1000)
    write(tmp_path, A, *[("2.1", True, None)] * 40)
    reading = room.read_room(tmp_path)
    assert 0 < reading.records < 40
    assert any("larger than" in problem for problem in reading.problems)


def test_a_missing_room_folder_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="no-such-room"):
        room.read_room(tmp_path / "no-such-room")


def test_the_table_lists_every_exercise_in_order(tmp_path):
    write(tmp_path, A, ("2.1", False, "m1"), ("0.1", True, None))
    table = room.format_table(room.read_room(tmp_path))
    lines = table.splitlines()
    assert lines[0].split() == ["exercise", "answered", "right", "most", "common", "misconception"]
    assert lines[1].split() == ["0.1", "1", "1", "-"]
    assert lines[2].split()[:4] == ["2.1", "1", "0", "m1"]


def test_a_new_file_is_readable_by_the_instructor_whatever_the_learners_umask(tmp_path):
    before = os.umask(0o077)
    try:
        room.append(tmp_path, room.Record(A, "2.1", True, None, "2026-12-02T10:00:00Z"))
    finally:
        os.umask(before)
    assert (tmp_path / f"{A}.jsonl").stat().st_mode & 0o777 == 0o644


def test_a_folder_the_reader_may_not_list_is_an_error_not_an_empty_room(tmp_path, monkeypatch):
    """As a learner sees the instructor's folder (mode 1733: writable, not listable). The tests run as root here,
    who lists every folder, so the refusal is the one the operating system gives, raised for this folder."""
    write(tmp_path, A, ("2.1", True, None))
    real_iterdir = pathlib.Path.iterdir

    def refusing(path):
        if path == tmp_path:
            raise PermissionError(13, "Permission denied", str(path))
        return real_iterdir(path)

    monkeypatch.setattr(pathlib.Path, "iterdir", refusing)
    with pytest.raises(PermissionError, match="cannot list the room's folder .* only its owner"):
        room.read_room(tmp_path)


def test_a_file_the_reader_may_not_open_is_named_and_the_rest_still_counts(tmp_path, monkeypatch):
    write(tmp_path, A, ("2.1", True, None))
    write(tmp_path, B, ("2.1", False, "m1"))
    real_open = open

    def refusing(path, *args, **kwargs):
        if str(path).endswith(f"{B}.jsonl"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", refusing)
    reading = room.read_room(tmp_path)
    assert reading.records == 1 and reading.counts[0].answered == 1
    assert reading.problems == (f"{B}.jsonl: cannot be read (Permission denied)",)
