"""Chapters 00 and 01: each reference answer is computed from loopkit, and each listed slip is what a plausible
wrong model of the rule gives."""

import pathlib

from loopkit import DetectorConfig, PinnedMiddleware, call_entry, fingerprint, load_trace, normalize_args
from loopkit.teaching.exercises import ch00, ch01
from loopkit.traces.replay import replay_batches

#: Chapter 00's stuck session, the transcript exercise 0.1 asks about.
STUCK_SESSION = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "data" / "stuck_task.openai_chat.json"


def repeat_turns(trace, same=lambda a, b: fingerprint([a]) == fingerprint([b])):
    """The turns (from 1) whose call, by ``same``, matches an earlier call of the trace."""
    return [turn for turn, call in enumerate(trace, start=1) if any(same(call, earlier) for earlier in trace[:turn - 1])]


def first_step(action, config=None):
    """The step at which the pinned detector, with ``config``, first takes ``action`` on the stuck session."""
    steps = replay_batches(load_trace(STUCK_SESSION).batches, PinnedMiddleware(config))
    return next(step.step for step in steps if step.decision.action == action)


def occurrence_steps(calls):
    """The steps (from 1) of the stuck session whose batch is exactly ``calls``."""
    batches = load_trace(STUCK_SESSION).batches
    return [step for step, batch in enumerate(batches, start=1) if fingerprint(batch) == fingerprint(calls)]


def test_0_1_the_detector_stops_the_stuck_session_at_step_9():
    assert first_step("stop") == ch00.q1.solution_value == 9
    assert first_step("warn") == 6 and 6 in ch00.q1.wrong_answers               # the warning taken for the stop
    batches = load_trace(STUCK_SESSION).batches
    tests, read = batches[0], batches[1]
    assert [call["name"] for call in tests + read] == ["bash", "read_file"]
    assert occurrence_steps(tests)[:5] == [1, 4, 6, 8, 9]                         # the hint's steps
    # the slips: five repeats after the first (a 6th occurrence), the read's 5th time, one occurrence short
    assert first_step("stop", DetectorConfig(hard_limit=6)) == 11 and 11 in ch00.q1.wrong_answers
    assert occurrence_steps(read)[4] == 12 and 12 in ch00.q1.wrong_answers
    assert first_step("stop", DetectorConfig(hard_limit=4)) == 8 and 8 in ch00.q1.wrong_answers
    assert len(batches) == 12 and 5 in ch00.q1.wrong_answers                    # the 5th step, not the 5th time


def test_0_1_each_slip_gets_its_own_explanation():
    explanations = {answer: ch00.q1.verify(answer).explanation for answer in ch00.q1.wrong_answers}
    assert len(set(explanations.values())) == len(explanations)
    assert all("not the expected value" not in text for text in explanations.values())
    assert ch00.q1.verify("9").ok and ch00.q1.verify(9).ok


def test_0_4_three_of_the_six_calls_repeat_earlier_work():
    assert repeat_turns(ch00.TRACE) == [3, 4, 5]
    assert ch00.q4.solution_value == len(repeat_turns(ch00.TRACE)) == 3
    # the slips: every turn whose call occurs twice, the calls that get repeated, back-to-back repeats only
    fps = [fingerprint([call]) for call in ch00.TRACE]
    assert sum(fps.count(fp) > 1 for fp in fps) == 5
    assert len({fp for fp in fps if fps.count(fp) > 1}) == 2
    assert sum(a == b for a, b in zip(fps, fps[1:])) == 1
    assert {5, 2, 1, 6} == set(ch00.q4.wrong_answers)


def test_0_2_first_repeat_is_turn_5_and_the_same_tool_model_says_3():
    assert repeat_turns(ch00.TRACE_2)[0] == ch00.q2.solution_value == 5
    same_tool = repeat_turns(ch00.TRACE_2, same=lambda a, b: a["name"] == b["name"])
    assert same_tool[0] == 3 and 3 in ch00.q2.wrong_answers
    assert repeat_turns(ch00.TRACE_2)[-1] == 6 and 6 in ch00.q2.wrong_answers


def test_0_3_candidates_a_and_d_share_the_fingerprint_of_the_tests_call():
    target = fingerprint([ch00.TESTS_CALL])
    assert target == "d8d221b7cc5a"  # chapter 00's stuck run, turn 2
    same = {letter for letter, call in ch00.CANDIDATES.items() if fingerprint([call]) == target}
    assert same == ch00.q3.solution_value == {"A", "D"}


def test_0_3_slips_are_what_simpler_notions_of_the_same_call_give():
    def matching(same):
        return "".join(sorted(x for x, call in ch00.CANDIDATES.items() if same(call, ch00.TESTS_CALL)))

    assert matching(lambda a, b: a == b) == ""                                            # identical calls only
    assert matching(lambda a, b: a["name"] == b["name"]) == "ABD"                        # the tool name only
    assert matching(lambda a, b: a["args"]["command"] == b["args"]["command"]) == "ACD"  # the command only
    for slip in ("", "ABD", "ACD"):
        verdict = ch00.q3.verify(slip)
        assert verdict.status == "incorrect" and "not the expected value" not in verdict.explanation, slip


def test_0_3_accepts_the_letters_in_any_spelling():
    for answer in ("AD", "DA", "a, d", ["A", "D"], ("d", "a"), {"A", "D"}, frozenset("ad")):
        assert ch00.q3.verify(answer).ok, answer
    for answer in ("A", "ABD", ["A", "B", "D"], set()):
        assert ch00.q3.verify(answer).status == "incorrect", answer
    assert "Could not read your answer 4" in ch00.q3.verify(4).explanation


def test_1_1_fallback_of_a_json_array_is_the_array_written_out_again():
    args, fallback = normalize_args("[1,2,3]")
    assert (args, fallback) == ({}, "[1, 2, 3]") and ch01.q1.solution_value == fallback
    assert ch01.q1.verify("[1,2,3]").status == "incorrect"  # the raw text: re-serialization missed
    assert "serialized again" in ch01.q1.verify("[1,2,3]").explanation
    assert "first element of the pair" in ch01.q1.verify("{}").explanation


def test_1_2_is_fallback_agrees_with_normalize_args_on_the_chapter_shapes():
    for raw in ({"path": "a"}, '{"path": "a"}', "[1]", '"a.py"', "{oops", None, "null", ""):
        assert ch01.is_fallback(raw) is (normalize_args(raw)[1] is not None)
    assert ch01.q2.verify(lambda raw: bool(normalize_args(raw)[1])).status == "incorrect"  # "" is a fallback too


def test_1_3_a_cut_off_read_is_keyed_by_its_text_not_its_bucket():
    entry = call_entry({"name": "read_file", "args": ch01.CUT_OFF})
    assert entry == ch01.q3.solution_value == 'read_file:{"path": "a.py", "start_line": 1'
    # the slip "the key of the call its author meant" is what the parsed version gives
    meant = call_entry({"name": "read_file", "args": ch01.CUT_OFF + "}"})
    assert meant == "read_file:a.py:0-0" and meant in ch01.q3.wrong_answers
    assert call_entry({"name": "read_file", "args": None}) in ch01.q3.wrong_answers


def test_1_4_only_empty_dicts_share_the_entry_of_no_arguments():
    none_entry = call_entry({"name": "read_file", "args": None})
    same = {x for x, raw in ch01.EMPTY_ARGS.items() if call_entry({"name": "read_file", "args": raw}) == none_entry}
    assert same == ch01.q4.solution_value == {"B", "C"}
    # the slips: "null is None" adds A, "empty means no arguments" adds D or E
    assert json_null_is_none_slip() == {"A", "B", "C"}
    for slip in ("ABC", "BCD", "BCE"):
        assert "not the expected value" not in ch01.q4.verify(slip).explanation


def json_null_is_none_slip():
    """The letters a model gives that parses 'null' to None and then treats None as no arguments."""
    import json

    def parsed_or_raw(raw):
        try:
            return json.loads(raw) if isinstance(raw, str) else raw
        except ValueError:
            return raw

    return {x for x, raw in ch01.EMPTY_ARGS.items() if parsed_or_raw(raw) in (None, {})}
