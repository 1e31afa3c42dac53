"""Every exercise: its solution passes its own check, its listed wrong answers fail, and a blank is 'not answered'."""

import pytest

from loopkit.exercises import KINDS, ____, Question, all_questions, as_tuple, equals, function_cases

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


def _demo(checker=None, solution=3, wrong=None, kind="value"):
    wrong = {4: "Four is what you get when you count the fence posts, not the gaps."} if wrong is None else wrong
    return Question("test.1", "demo", kind=kind, checker=checker or equals(3, why="three it is"), solution=solution,
                    hint="h", wrong=wrong)


def test_check_prints_verdict_and_the_misconception_behind_a_known_wrong_answer(capsys):
    q = _demo()
    q.check(3)
    q.check(4)
    q.check(5)
    out = capsys.readouterr().out.splitlines()
    assert out[:4] == [
        "Correct! (Exercise test.1)",
        "three it is",
        "Not yet (Exercise test.1). Try again, or ask for a hint.",
        "Four is what you get when you count the fence posts, not the gaps.",
    ]
    assert out[4] == out[2] and out[5].startswith("Your answer 5 is not the expected value, nor one of the usual slips")


def test_misconceptions_are_found_after_normalizing():
    q = _demo(checker=equals(("a", "b"), why="", normalize=as_tuple), solution=("a", "b"),
              wrong={("b", "a"): "Order matters here."})
    assert q.verify(["b", "a"]).explanation == "Order matters here."
    assert q.verify(["a", "b"]).ok


def test_function_checks_run_cases_and_report_the_failing_input():
    def double(x):
        return 2 * x

    q = _demo(checker=function_cases([((1,), 2), ((5,), 10)], why="doubling works"), solution=double,
              wrong=[lambda x: x + 1], kind="function")
    assert q.verify(double).ok
    assert "For input (5) it returned 6, expected 10" in q.verify(lambda x: x + 1).explanation
    assert "raised ZeroDivisionError" in q.verify(lambda x: 1 / 0).explanation
    assert "wants a function" in q.verify(7).explanation
    assert q.verify(lambda x: ____).status == "unanswered"


def test_a_question_needs_a_kind_and_a_wrong_answer():
    with pytest.raises(ValueError, match="at least one wrong answer"):
        _demo(wrong={})
    with pytest.raises(ValueError, match="kind must be one of value, prediction, function"):
        _demo(kind="guess")


def test_every_question_says_what_kind_it_is():
    assert {q.kind for q in QUESTIONS.values()} <= set(KINDS)


def test_question_ids_are_unique_across_chapters(monkeypatch):
    import types

    import loopkit.exercises as exercises

    first = types.SimpleNamespace(__name__="ch98", QUESTIONS=(_demo(),))
    second = types.SimpleNamespace(__name__="ch99", QUESTIONS=(_demo(),))
    monkeypatch.setattr(exercises, "chapter_modules", lambda: [first, second])
    with pytest.raises(ValueError, match="'test.1' is defined twice"):
        exercises.all_questions()
