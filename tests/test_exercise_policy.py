"""The house rules for exercises (DESIGN.md, "A chapter", 4), checked on every chapter of both tracks:

- no answer is on screen before the learner acts: not in any stored output or stored view of the chapter, not in
  the markdown just above a question, not in the first markdown cell after it;
- every prediction has one reveal cell, after its check, committed without output (the root conftest.py checks
  what it prints under nbval);
- at least half of all exercises ask for code or for a prediction;
- every chapter has an exercise in the middle, right after the concept it tests, not only at the end;
- every value or prediction question lists at least three likely wrong answers, each with the misconception
  behind it, and accepts its right answer written another way;
- every case of a function exercise names the idea it tests.
"""

import html
import re

import pytest
from notebook_tools import (
    ROOT,
    TEMPLATE,
    all_chapters,
    chapter_id,
    exercise_headings,
    exercise_sections,
    is_reveal,
    load,
    printed_text,
    source,
    track_of,
)

from loopkit.teaching.exercises import Question, all_questions, answer_regex, equals, is_distinctive

QUESTIONS = all_questions()
TESTS = ROOT / "tests"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

#: Texts the search cannot judge, reviewed one by one: (qid, a piece of the line) -> why it gives nothing away.
ALLOWED_LEAKS: dict[tuple[str, str], str] = {}


def exercise_positions(nb: dict) -> dict[str, int]:
    """Each exercise id in a chapter, with the index of the markdown cell that opens it."""
    return {qid: index for index, qid, _ in exercise_headings(nb)}


def _joined(text) -> str:
    return "".join(text) if isinstance(text, list) else (text or "")


def output_text(cell: dict) -> str:
    """What a learner reads below a code cell: each output's printed or plain text, and HTML results as text."""
    parts = []
    for output in cell.get("outputs", []):
        parts.append(printed_text([output]))
        if "text/html" in output.get("data", {}):
            parts.append(html.unescape(re.sub(r"<[^>]+>", " ", _joined(output["data"]["text/html"]))))
    return "\n".join(parts)


def _strings(value):
    """Every string inside a widget model's state: values, labels, options, HTML, and references to other models."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, (dict, list)):
        for item in value.values() if isinstance(value, dict) else value:
            yield from _strings(item)


def stored_view_text(nb: dict, cell: dict) -> str:
    """What the stored widget state draws for the views a cell displays, before anything runs."""
    models = nb.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    todo = [output["data"][WIDGET_VIEW]["model_id"] for output in cell.get("outputs", [])
            if WIDGET_VIEW in output.get("data", {})]
    seen, texts = set(), []
    while todo:
        model_id = todo.pop()
        if model_id in seen or model_id not in models:
            continue
        seen.add(model_id)
        for text in _strings(models[model_id].get("state", {})):
            if text.startswith("IPY_MODEL_"):  # a container names its children this way
                todo.append(text.removeprefix("IPY_MODEL_"))
            else:
                texts.append(html.unescape(re.sub(r"<[^>]+>", " ", text)))
    return "\n".join(texts)


def leak_patterns(qid: str) -> list[re.Pattern]:
    """How a question's answer would look on screen: the answer itself, when it is distinctive enough to search for
    anywhere, and the way its reveal cell prints it."""
    question = QUESTIONS[qid]
    if question.kind == "function":
        return []
    patterns = []
    if is_distinctive(question.solution_value):
        patterns.append(re.compile(answer_regex(question.solution_value)))
    if question.reveal != "{answer}":
        patterns.append(question.reveal_regex())
    return patterns


def neighbouring_markdown(nb: dict, heading: int) -> list[tuple[str, str]]:
    """The markdown a learner reads around a question before answering: the markdown cell above its heading, the
    heading cell itself, and the first markdown cell after it."""
    cells = nb["cells"]
    above = next((i for i in range(heading - 1, -1, -1) if cells[i]["cell_type"] == "markdown"), None)
    after = next((i for i in range(heading + 1, len(cells)) if cells[i]["cell_type"] == "markdown"), None)
    return [(f"markdown cell {i}", source(cells[i])) for i in (above, heading, after) if i is not None]


def screen_texts(nb: dict, heading: int) -> list[tuple[str, str]]:
    """Everything on screen that must not show one question's answer, as (where, text) pairs: every stored output,
    the stored state of every view above the question (a view below it is the learner's to play with after the
    reveal), and the markdown around the question."""
    code = [(i, cell) for i, cell in enumerate(nb["cells"]) if cell["cell_type"] == "code"]
    texts = [(f"output of cell {i}", output_text(cell)) for i, cell in code]
    texts += [(f"the stored view of cell {i}", stored_view_text(nb, cell)) for i, cell in code if i < heading]
    return texts + neighbouring_markdown(nb, heading)


def leaks(nb: dict) -> dict[str, str]:
    """For each question of a chapter whose answer is on screen before the learner acts, where and the line."""
    found = {}
    for qid, heading in exercise_positions(nb).items():
        patterns = leak_patterns(qid)
        for where, text in screen_texts(nb, heading) if patterns else []:
            line = next((line for line in text.splitlines() if any(p.search(line) for p in patterns)
                         and not any(q == qid and piece in line for q, piece in ALLOWED_LEAKS)), None)
            if line is not None:
                found[qid] = f"{where}: {line.strip()}"
                break
    return found


@pytest.mark.parametrize("path", all_chapters(), ids=chapter_id)
def test_no_answer_is_on_screen_before_the_learner_acts(path):
    shown = leaks(load(path))
    assert not shown, f"{path.name}: answers on screen before the learner acts: {shown}"


def test_the_leak_search_finds_answers_in_outputs_views_and_markdown():
    state = {"box": {"state": {"children": ["IPY_MODEL_label"]}}, "label": {"state": {"value": "<b>key src/app.py:0-1</b>"}}}
    view = {"output_type": "display_data", "data": {WIDGET_VIEW: {"model_id": "box"}, "text/plain": "VBox()"}}
    nb = {"metadata": {"widgets": {WIDGET_STATE: {"state": state}}},
          "cells": [
              {"cell_type": "code", "source": "", "outputs": [view]},
              {"cell_type": "markdown", "source": "### Exercise 2.2: a reversed range"},
              {"cell_type": "code", "source": "", "outputs": []},
          ]}
    assert leaks(nb) == {"2.2": "the stored view of cell 0: key src/app.py:0-1"}
    nb["cells"] = [nb["cells"][1], nb["cells"][2], nb["cells"][0]]     # the same view after the question
    assert leaks(nb) == {}
    nb["cells"].insert(0, {"cell_type": "markdown", "source": "## Buckets"})
    nb["cells"][2]["outputs"] = [{"output_type": "stream", "text": ["lines 400-150 -> ", "src/app.py:0-1\n"]}]
    assert leaks(nb) == {"2.2": "output of cell 2: lines 400-150 -> src/app.py:0-1"}
    nb["cells"][2]["outputs"] = []
    nb["cells"].append({"cell_type": "markdown", "source": "So the key is `src/app.py:0-1`."})
    assert leaks(nb) == {"2.2": "markdown cell 4: So the key is `src/app.py:0-1`."}


def test_the_leak_search_reads_short_answers_only_as_their_reveal_prints_them(monkeypatch):
    short = Question("0.9", "how many repeats?", kind="prediction", solution=3, hint="h", reveal=r"^repeats: {answer}$",
                     checker=equals(3, why="w"), wrong={2: "a", 4: "b", 6: "c"})
    monkeypatch.setitem(QUESTIONS, "0.9", short)
    nb = {"cells": [{"cell_type": "markdown", "source": "### Exercise 0.9: repeats"},
                    {"cell_type": "code", "source": "", "outputs": [{"output_type": "stream",
                                                                     "text": "turn 3: bash\n3 calls\n"}]}]}
    assert leaks(nb) == {}
    nb["cells"][1]["outputs"][0]["text"] += "repeats: 3\n"
    assert leaks(nb) == {"0.9": "output of cell 1: repeats: 3"}


def test_every_allowed_leak_names_a_question_and_a_reason():
    for (qid, piece), reason in ALLOWED_LEAKS.items():
        assert qid in QUESTIONS and piece and len(reason) > 20, qid


@pytest.mark.parametrize("path", all_chapters(), ids=chapter_id)
def test_every_prediction_has_one_reveal_cell_after_its_check(path):
    nb = load(path)
    cells = nb["cells"]
    sections = exercise_sections(nb)
    for qid, span in sections.items():
        reveals = [i for i in span if is_reveal(cells[i])]
        checks = [i for i in span if cells[i]["cell_type"] == "code" and re.search(r"\bq\d+\.check\(", source(cells[i]))]
        kind = QUESTIONS[qid].kind
        if kind == "prediction":
            assert len(reveals) == 1, f"{path.name}: prediction {qid} needs one cell tagged reveal, has {len(reveals)}"
        elif kind == "function":
            assert not reveals, f"{path.name}: function exercise {qid} has a reveal cell"
        assert len(reveals) <= 1, f"{path.name}: exercise {qid} has {len(reveals)} reveal cells"
        assert all(checks and r > checks[0] for r in reveals), f"{path.name}: {qid}'s reveal comes before its check"
    homeless = [i for i, cell in enumerate(cells)
                if is_reveal(cell) and not any(i in span for span in sections.values())]
    assert not homeless, f"{path.name}: reveal cells outside any exercise: {homeless}"


@pytest.mark.parametrize("qid", sorted(q.qid for q in QUESTIONS.values() if q.kind != "function"))
def test_a_short_answer_says_how_its_reveal_prints_it(qid):
    """A lone 3 or "y" is everywhere on a page: such an answer's reveal pattern must say what surrounds it."""
    question = QUESTIONS[qid]
    if not is_distinctive(question.solution_value):
        assert question.reveal != "{answer}", f"{qid}: the answer {question.solution_value!r} needs a reveal pattern"


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


@pytest.mark.parametrize("qid", sorted(q.qid for q in QUESTIONS.values() if q.kind != "function"))
def test_every_value_or_prediction_lists_three_misconceptions(qid):
    question = QUESTIONS[qid]
    missing = [answer for answer, why in question.misconceptions if not why]
    assert not missing, f"{qid}: wrong answers without the misconception behind them: {missing}"
    assert len(question.misconceptions) >= 3, f"{qid}: only {len(question.misconceptions)} likely wrong answers"


def respellings(answer) -> list:
    """The same answer as a learner might type it another way: a list for a tuple or a set, quotes and spaces
    around text, a number as text, a set's items in another order."""
    if isinstance(answer, str):
        return [f"  {answer} ", f"'{answer}'", f'"{answer}"']
    if isinstance(answer, bool) or answer is None:
        return []
    if isinstance(answer, int):
        return [str(answer), f" {answer} "]
    if isinstance(answer, tuple):
        return [list(answer)]
    if isinstance(answer, (set, frozenset)):
        items = sorted(answer, key=repr)
        return [items, tuple(reversed(items)), set(items)]
    return []


@pytest.mark.parametrize("qid", sorted(q.qid for q in QUESTIONS.values() if q.kind != "function"))
def test_a_right_answer_written_another_way_is_accepted(qid):
    question = QUESTIONS[qid]
    for spelling in respellings(question.solution_value):
        verdict = question.verify(spelling)
        assert verdict.ok, f"{qid}: the right answer written as {spelling!r} was refused: {verdict.explanation}"


@pytest.mark.parametrize("qid", sorted(q.qid for q in QUESTIONS.values() if q.kind == "function"))
def test_every_case_of_a_function_exercise_names_its_idea(qid):
    cases = QUESTIONS[qid].cases
    assert cases, f"{qid}: no test cases"
    unnamed = [case.args for case in cases if not case.idea]
    assert not unnamed, f"{qid}: cases that do not say what idea they test: {unnamed}"


@pytest.mark.parametrize("qid", sorted(q.qid for q in QUESTIONS.values() if q.kind == "function"))
def test_every_known_wrong_function_fails_on_a_named_idea(qid):
    question = QUESTIONS[qid]
    for wrong in question.wrong_answers:
        verdict = question.verify(wrong)
        assert verdict.status == "incorrect", f"{qid} accepted a known-wrong function"
        assert question.cases and any(c.idea and c.idea in verdict.explanation for c in question.cases), (
            f"{qid}: a wrong function's feedback names no idea: {verdict.explanation}")


@pytest.mark.parametrize("path", all_chapters(), ids=chapter_id)
def test_every_exercise_heading_has_a_question_and_back(path):
    number = int(path.name[:2])
    in_chapter = {qid for qid in QUESTIONS if int(qid.split(".")[0]) == number}
    assert set(exercise_positions(load(path))) == in_chapter


@pytest.mark.parametrize("qid", sorted(q.qid for q in QUESTIONS.values() if q.kind != "function"))
def test_every_value_answer_is_tied_to_loopkit_by_a_chapter_test(qid):
    """The chapter's test file computes the answer from loopkit and compares it with the solution (or, for an
    answer with many right values, drives the checker at its edges)."""
    chapter, number = qid.split(".")
    name = f"ch{int(chapter):02d}.q{number}"
    tests = "".join(path.read_text(encoding="utf-8") for path in TESTS.glob(f"test_exercises_*ch{int(chapter):02d}*.py"))
    assert f"{name}.solution_value" in tests or f"{name}.verify(" in tests, f"no test ties {qid}'s answer to loopkit"
