"""Every exercise: its solution passes its own check, its listed wrong answers fail, and a blank is 'not answered'."""

import pytest

from loopkit.exercises import ____, Question, all_questions, equals, function_cases

QUESTIONS = all_questions()


def test_questions_are_registered():
    assert QUESTIONS, "no chapter defines exercises yet"


@pytest.mark.parametrize("qid", sorted(QUESTIONS))
def test_solution_passes(qid):
    verdict = QUESTIONS[qid].verify(QUESTIONS[qid].solution_value)
    assert verdict.ok, verdict.explanation


@pytest.mark.parametrize("qid", sorted(QUESTIONS))
def test_wrong_answers_fail(qid):
    q = QUESTIONS[qid]
    for wrong in q.wrong_answers:
        verdict = q.verify(wrong)
        assert verdict.status == "incorrect", f"{qid} accepted the wrong answer {wrong!r}"


@pytest.mark.parametrize("qid", sorted(QUESTIONS))
def test_blank_is_not_answered_and_hint_and_solution_print(qid, capsys):
    q = QUESTIONS[qid]
    q.check(____)
    q.check()
    q.hint()
    q.solution()
    lines = capsys.readouterr().out.splitlines()
    expected = f"Exercise {qid} is not answered yet: replace ____ with your answer, then run the cell."
    assert lines[:2] == [expected, expected]
    assert lines[2].startswith(f"Hint ({qid}): ") and len(lines[2]) > 20
    assert lines[3] == f"Solution ({qid}):" and len(lines) > 4


def _demo(qid="test.1", checker=None, solution=3, wrong=(4,)):
    from loopkit.exercises import REGISTRY

    REGISTRY.pop(qid, None)
    q = Question(qid, "demo", checker=checker or equals(3, why="three it is"), solution=solution, hint="h", wrong=wrong)
    REGISTRY.pop(qid, None)
    return q


def test_check_prints_verdict_and_explanation(capsys):
    q = _demo()
    q.check(3)
    q.check(4)
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "Correct! (Exercise test.1)",
        "three it is",
        "Not yet (Exercise test.1). Try again, or ask for a hint.",
        "Your answer 4 is not the expected value.",
    ]


def test_function_checks_run_cases_and_report_the_failing_input():
    def double(x):
        return 2 * x

    q = _demo(checker=function_cases([((1,), 2), ((5,), 10)], why="doubling works"), solution=double)
    assert q.verify(double).ok
    assert "For input (5) it returned 6, expected 10" in q.verify(lambda x: x + 1).explanation
    assert "raised ZeroDivisionError" in q.verify(lambda x: 1 / 0).explanation
    assert "wants a function" in q.verify(7).explanation
    assert q.verify(lambda x: ____).status == "unanswered"


def test_a_question_must_list_a_wrong_answer_and_ids_are_unique():
    with pytest.raises(ValueError, match="at least one wrong answer"):
        _demo(wrong=())
    from loopkit.exercises import REGISTRY

    REGISTRY["dup.1"] = object()
    try:
        with pytest.raises(ValueError, match="defined twice"):
            Question("dup.1", "x", checker=equals(1, why=""), solution=1, hint="", wrong=(2,))
    finally:
        REGISTRY.pop("dup.1")
