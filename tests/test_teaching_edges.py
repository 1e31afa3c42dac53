"""Edges of the teaching floor that no other test reached: each test here kills a mutant of tools/mutants.toml that
survived every test before it (its id is in the test's docstring). Expected values are worked out by hand."""

import json
import pathlib

from loopkit.core.detector import DetectorConfig
from loopkit.teaching import room
from loopkit.teaching.collisions import find_prefix_collision
from loopkit.teaching.js_bucket import BucketCase, compare
from loopkit.teaching.uploads import PLOT_STEPS, read_upload

TRANSCRIPTS = pathlib.Path(__file__).parent / "data" / "transcripts"


# -- uploads.py ---------------------------------------------------------------------------------------------------

def bash_steps(count):
    """An OpenAI-chat transcript of ``count`` batches, one different bash command each."""
    return b"".join(json.dumps({"role": "assistant", "tool_calls": [{"id": f"c{i}", "type": "function", "function": {
        "name": "bash", "arguments": json.dumps({"command": f"echo {i}"})}}]}).encode() + b"\n"
        for i in range(count))


def test_a_run_of_exactly_the_plotted_steps_is_not_cut():
    """upload-plot-cut-at-limit: a run of PLOT_STEPS batches is drawn whole; one batch more is cut. (The per-tool
    limits are raised past the run's length, or the replay would end at the 50th call's stop.)"""
    never_stops = DetectorConfig(tool_freq_warn=PLOT_STEPS + 1, tool_freq_hard_limit=PLOT_STEPS + 2)
    whole = read_upload(bash_steps(PLOT_STEPS), "whole.jsonl", config=never_stops).runs[0]
    assert len(whole.steps) == PLOT_STEPS and whole.plot_cut is False
    longer = read_upload(bash_steps(PLOT_STEPS + 1), "longer.jsonl", config=never_stops).runs[0]
    assert len(longer.steps) == PLOT_STEPS and longer.plot_cut is True


def test_each_run_of_a_file_has_only_its_own_why_lines():
    """upload-runs-share-why-lines: with a per-tool warn limit of 1, each of the two OpenHands runs warns at every
    batch (3 batches, then 1); the second run's why lines are its own one, not the first run's three as well."""
    data = (TRANSCRIPTS / "openhands_output.jsonl").read_bytes()
    reading = read_upload(data, "output.jsonl", config=DetectorConfig(tool_freq_warn=1, tool_freq_hard_limit=50))
    assert [[(line.step, line.action) for line in run.why] for run in reading.runs] == [
        [(1, "warn"), (2, "warn"), (3, "warn")], [(1, "warn")]]


# -- collisions.py ------------------------------------------------------------------------------------------------

def test_a_collision_on_the_last_allowed_try_is_found():
    """collisions-one-try-short: the first 2-character prefix collision of the numbered batches is at try 20 (the
    module's docstring), so 20 tries find it and 19 do not."""
    assert find_prefix_collision(2, max_tries=20).tries == 20
    assert find_prefix_collision(2, max_tries=19) is None


# -- js_bucket.py -------------------------------------------------------------------------------------------------

def test_a_missing_line_argument_is_shown_as_missing_not_as_null():
    """js-missing-line-shown-as-null: JavaScript reads a missing end_line (undefined) and a null one differently, so
    the comparison's end column shows "-" for a missing one and "null" for None."""
    missing, null = compare([BucketCase("no end", {"path": "a.py", "start_line": 450}),
                             BucketCase("null end", {"path": "a.py", "start_line": 450, "end_line": None})])
    assert (missing["start"], missing["end"]) == ("450", "-")
    assert (null["start"], null["end"]) == ("450", "null")
    assert missing["JavaScript"] == "a.py:2-2" and null["JavaScript"] == "a.py:0-2"


# -- room.py ------------------------------------------------------------------------------------------------------

def write(folder, learner, *answers):
    with open(folder / f"{learner}.jsonl", "a", encoding="utf-8") as file:
        for exercise, correct, misconception in answers:
            file.write(room.Record(learner, exercise, correct, misconception, "2026-12-05T10:00:00Z").to_line())


A, B = (f"{n:016x}" for n in (10, 11))


def test_a_tie_goes_to_the_misconception_listed_first_by_number_not_by_text(tmp_path):
    """room-tie-by-label-text: m2 is listed before m10, though "m10" sorts before "m2" as text."""
    write(tmp_path, A, ("3.1", False, "m10"))
    write(tmp_path, B, ("3.1", False, "m2"))
    assert room.read_room(tmp_path).counts[0].misconception == "m2"


def test_a_label_that_only_starts_like_a_misconception_is_a_damaged_line(tmp_path):
    """room-label-prefix-accepted: "m2; x" is not a label; the line is named, and left out of the counts."""
    write(tmp_path, A, ("2.1", False, "m1"))
    with open(tmp_path / f"{A}.jsonl", "a", encoding="utf-8") as file:
        file.write(json.dumps({"learner": A, "exercise": "2.1", "correct": False, "misconception": "m2; x",
                               "time": "2026-12-05T10:00:00Z"}) + "\n")
    reading = room.read_room(tmp_path)
    assert reading.records == 1 and reading.counts[0].misconception == "m1"
    assert len(reading.problems) == 1 and reading.problems[0].startswith(f"{A}.jsonl:2: misconception must be")
