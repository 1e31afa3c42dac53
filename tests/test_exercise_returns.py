"""A learner who forgets ``return`` writes a function that does the work and gives back ``None``. Every function
exercise refuses it, and says so in the learner's language: the feedback names the missing ``return``, instead of
only "it returned None"."""

import pytest

from loopkit.teaching.exercises import INCORRECT, all_questions, function_cases

FUNCTION_EXERCISES = {qid: q for qid, q in all_questions().items() if q.kind == "function"}


def forgetting_return(solution):
    """The solution's work, with its last line's ``return`` forgotten: the result is computed, then dropped."""
    def answer(*args):
        solution(*args)
    return answer


def test_there_are_function_exercises():
    assert len(FUNCTION_EXERCISES) >= 10


@pytest.mark.parametrize("qid", sorted(FUNCTION_EXERCISES))
def test_a_function_without_return_is_refused_in_english(qid):
    question = FUNCTION_EXERCISES[qid]
    verdict = question.verify(forgetting_return(question.solution_value))
    assert verdict.status == INCORRECT
    assert "returned None" in verdict.explanation and "`return`" in verdict.explanation, verdict.explanation


@pytest.mark.parametrize("qid", sorted(FUNCTION_EXERCISES))
def test_a_function_without_return_is_refused_in_spanish(qid, spanish):
    question = FUNCTION_EXERCISES[qid]
    verdict = question.verify(forgetting_return(question.solution_value))
    assert verdict.status == INCORRECT
    assert "devolvió None" in verdict.explanation and "`return`" in verdict.explanation, verdict.explanation


def test_a_case_that_expects_none_is_not_told_about_return():
    """None is a right answer where a case expects it; the hint about ``return`` is for the case that does not."""
    check = function_cases([((0,), None), ((1,), 1)], why="")
    ok, said = check(lambda n: None)
    assert not ok and said.startswith("For input (1) your function returned None, expected 1")
    ok, said = check(lambda n: n or None)
    assert ok
    ok, said = check(lambda n: 2)
    assert not ok and "`return`" not in said
