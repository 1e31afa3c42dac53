"""Settings for every pytest run from the repository root, notebooks included.

A missing translation is an error in the tests (a learner gets the English text instead): the nbval kernels
inherit this variable, so a Spanish chapter that shows an untranslated loopkit text fails. See loopkit/language.py.

A cell tagged ``reveal`` shows the answer to a prediction. It is committed without output, so nbval has nothing to
compare it with; instead, once nbval has run it, :func:`pytest_runtest_call` checks what it printed: it must show
the answer loopkit holds for its exercise (``Question.shown_in``), and none of the exercise's known wrong answers in
its place.
"""

import os
import pathlib
import sys

import pytest

os.environ["LOOPKIT_STRICT_TRANSLATIONS"] = "1"

# tests/test_reveal_check.py runs this file's reveal check on small notebooks of its own.
pytest_plugins = ["pytester"]

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "tests"))


def reveal_problem(nb: dict, cell: dict, printed: str) -> str | None:
    """Why a reveal cell's output fails its exercise, or None when it shows the answer and nothing else."""
    from loopkit.exercises import all_questions
    from notebook_tools import exercise_of_cell

    index = next(i for i, c in enumerate(nb["cells"]) if c is cell)
    qid = exercise_of_cell(nb, index)
    if qid is None:
        return f"cell {index} is tagged reveal but lies in no exercise's section"
    question = all_questions()[qid]
    if not question.shown_in(printed):
        return (f"exercise {qid}'s reveal cell {index} does not show the answer {question.solution_value!r} as "
                f"{question.reveal!r} says; it printed:\n{printed}")
    answer = question._normalize(question.solution_value)
    shown_wrong = [wrong for wrong in question.wrong_answers
                   if question._normalize(wrong) != answer and question.shown_in(printed, wrong)]
    if shown_wrong:
        return f"exercise {qid}'s reveal cell {index} also shows wrong answers as the answer: {shown_wrong!r}"
    return None


def printed_text(outputs: list) -> str:
    """What a list of nbformat outputs shows as text: streams and plain-text results."""
    parts = []
    for output in outputs:
        text = output.get("text") if output.get("output_type") == "stream" else output.get("data", {}).get(
            "text/plain", "")
        parts.append("".join(text) if isinstance(text, list) else (text or ""))
    return "".join(parts)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    result = yield
    cell = getattr(item, "cell", None)
    if cell is not None and "reveal" in cell.get("metadata", {}).get("tags", []):
        # nbval (pinned 0.11.0) keeps the outputs it received for a cell in ``test_outputs``.
        problem = reveal_problem(item.parent.nb, cell, printed_text(item.test_outputs or []))
        if problem:
            raise AssertionError(f"{item.parent.path.name}: {problem}")
    return result
