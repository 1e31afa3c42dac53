"""The house rules for exercises (DESIGN.md, "A chapter", 4), checked on every chapter:

- no answer is on screen before its question;
- at least half of all exercises ask for code or for a prediction;
- every chapter has an exercise in the middle, right after the concept it tests, not only at the end;
- every known wrong answer to a value or prediction question names the misconception behind it.
"""

import itertools
import re

import pytest

from loopkit.exercises import all_questions
from notebook_tools import ROOT, TEMPLATE, all_chapters, chapter_id, exercise_headings, load, source, track_of

QUESTIONS = all_questions()
TESTS = ROOT / "tests"

#: Answers the text search cannot judge, reviewed one by one: qid -> why its text above the question is no leak.
ALLOWED_LEAKS: dict[str, str] = {}


def exercise_positions(nb: dict) -> dict[str, int]:
    """Each exercise id in a chapter, with the index of the markdown cell that opens it."""
    return {qid: index for index, qid, _ in exercise_headings(nb)}


def output_text(cell: dict) -> str:
    """What a learner reads below a code cell: printed text and plain-text results."""
    parts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            parts.append(output["text"])
        else:
            parts.append(output.get("data", {}).get("text/plain", ""))
    return "".join("".join(part) if isinstance(part, list) else part for part in parts)


SEPARATORS = (", ", ",", " ", " -> ", " → ", "/", " then ", " luego ", " y ")


def answer_patterns(answer) -> list[str] | None:
    """Regular expressions for the ways an answer can be printed, or None when the rule does not cover it."""
    if isinstance(answer, bool):
        return None
    if isinstance(answer, int):
        return [rf"(?<![\d.]){answer}(?!\d|\.\d)"] if answer >= 10 else None
    if isinstance(answer, str):
        return [rf"(?<!\w){re.escape(answer)}(?!\w)"]
    if isinstance(answer, (tuple, list)):
        orders = [list(answer)]
    elif isinstance(answer, (set, frozenset)):
        orders = [list(order) for order in itertools.permutations(sorted(answer, key=repr))][:720]
    else:
        return None
    texts = set()
    for items in orders:
        texts.update({repr(tuple(items)), repr(list(items)), "{" + ", ".join(map(repr, items)) + "}"})
        texts.update(sep.join(map(str, items)) for sep in SEPARATORS)
    return [rf"(?<!\w){re.escape(text)}(?!\w)" for text in sorted(texts)]


def leaks(path) -> dict[str, str]:
    """For each question of a chapter whose answer is printed above it, the first output line that shows it."""
    nb = load(path)
    found = {}
    for qid, index in exercise_positions(nb).items():
        question = QUESTIONS[qid]
        patterns = answer_patterns(question.solution_value) if question.kind != "function" else None
        if not patterns:
            continue
        shown = re.compile("|".join(patterns))  # one search per line, not one per way of printing the answer
        above = "\n".join(output_text(cell) for cell in nb["cells"][:index] if cell["cell_type"] == "code")
        for line in above.splitlines():
            if shown.search(line):
                found[qid] = line.strip()
                break
    return found


@pytest.mark.parametrize("path", all_chapters(), ids=chapter_id)
def test_no_answer_is_on_screen_before_its_question(path):
    shown = {qid: line for qid, line in leaks(path).items() if qid not in ALLOWED_LEAKS}
    assert not shown, f"{path.name}: answers printed above their questions: {shown}"


def test_the_leak_search_finds_printed_answers():
    nb = {"cells": [
        {"cell_type": "code", "source": "", "outputs": [{"output_type": "stream", "text": "actions: ok -> warn\n"}]},
        {"cell_type": "code", "source": "", "outputs": [{"output_type": "execute_result",
                                                          "data": {"text/plain": "frozenset({'c', 'b'})"}}]},
        {"cell_type": "markdown", "source": "### Exercise 1.1: x"},
    ]}
    assert exercise_positions(nb) == {"1.1": 2}
    above = "\n".join(output_text(c) for c in nb["cells"][:2])
    assert any(re.search(p, above) for p in answer_patterns(("ok", "warn")))
    assert any(re.search(p, above) for p in answer_patterns(frozenset("bc")))
    assert not any(re.search(p, "window 170") for p in answer_patterns(70))
    assert any(re.search(p, "window: 70 calls") for p in answer_patterns(70))
    assert answer_patterns(9) is None and answer_patterns(True) is None


def test_every_allowed_leak_names_a_question_and_a_reason():
    for qid, reason in ALLOWED_LEAKS.items():
        assert qid in QUESTIONS and len(reason) > 20, qid


def test_at_least_half_of_the_exercises_ask_for_code_or_a_prediction():
    kinds = [q.kind for q in QUESTIONS.values()]
    thinking = sum(kind in ("function", "prediction") for kind in kinds)
    assert thinking * 2 >= len(kinds), f"only {thinking} of {len(kinds)} exercises ask for code or a prediction"


@pytest.mark.parametrize("path", all_chapters(), ids=chapter_id)
def test_every_chapter_has_an_exercise_in_the_middle(path):
    """An exercise counts as mid-chapter when a teaching section (a ## heading) follows it."""
    nb = load(path)
    positions = exercise_positions(nb)
    sections = [i for i, cell in enumerate(nb["cells"])
                if cell["cell_type"] == "markdown" and source(cell).startswith("## ")
                and not re.match(TEMPLATE[track_of(path)]["closing sections"], source(cell))]
    assert any(any(s > index for s in sections) for index in positions.values()), (
        f"{path.name}: every exercise sits after the last teaching section")


@pytest.mark.parametrize("qid", sorted(QUESTIONS))
def test_every_known_wrong_answer_names_its_misconception(qid):
    question = QUESTIONS[qid]
    if question.kind == "function":
        return
    missing = [answer for answer, why in question.misconceptions if not why]
    assert not missing, f"{qid}: wrong answers without the misconception behind them: {missing}"


@pytest.mark.parametrize("path", all_chapters(), ids=chapter_id)
def test_every_exercise_heading_has_a_question_and_back(path):
    number = int(path.name[:2])
    in_chapter = {qid for qid in QUESTIONS if int(qid.split(".")[0]) == number}
    assert set(exercise_positions(load(path))) == in_chapter


@pytest.mark.parametrize("qid", sorted(QUESTIONS))
def test_every_value_answer_is_tied_to_loopkit_by_a_chapter_test(qid):
    """The chapter's test file computes the answer from loopkit and compares it with the solution (or, for an
    answer with many right values, drives the checker at its edges)."""
    question = QUESTIONS[qid]
    if question.kind == "function":
        return
    chapter, number = qid.split(".")
    name = f"ch{int(chapter):02d}.q{number}"
    tests = "".join(path.read_text(encoding="utf-8") for path in TESTS.glob(f"test_exercises_*ch{int(chapter):02d}*.py"))
    assert f"{name}.solution_value" in tests or f"{name}.verify(" in tests, f"no test ties {qid}'s answer to loopkit"
