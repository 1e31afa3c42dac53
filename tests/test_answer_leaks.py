"""No answer in the checking code (issue 31, part 6): the code a learner sees around a question must not give its
answer away. For each value or prediction exercise, in both tracks, the search reads the source of:

- its own cells (from its heading to the next heading: the check cell, and the reveal cell a learner runs after
  answering, whose *code* is on screen before);
- the code cells above its heading in the same ``##`` section,

and looks for:

- **the answer itself**: the answer in any of its printed forms when it is distinctive enough to search for
  anywhere (``loopkit.teaching.exercises.is_distinctive``), and any literal in the code that the question's own
  check accepts as right (a tuple, a list or a set of two items or more; a number when it is distinctive), so an
  answer written another way is found too;
- **a bracket**: for a distinctive numeric answer, a ``range(a, b)`` or a pair ``(a, b)`` of numbers that holds the
  answer and is narrow, at most ``max(BRACKET_SLACK, 10%)`` of the answer wide: ``range(397, 404)`` tells a learner
  the answer of 2.1 is one of seven lines. (The stored outputs, views and markdown around a question are searched
  by tests/test_exercise_policy.py.)
"""

from __future__ import annotations

import ast
import contextlib
import re
import sys

import pytest
from notebook_tools import ROOT, all_chapters, chapter_id, exercise_sections, load, source

from loopkit.teaching.exercises import ____, all_questions, answer_regex, is_distinctive

sys.path.insert(0, str(ROOT / "tools"))
import course  # noqa: E402

QUESTIONS = all_questions()
#: How close a bracket must be to give a numeric answer away: its width at most this, or 10% of the answer.
BRACKET_SLACK = 10
BRACKET_SHARE = 0.10

#: Code the search cannot judge, reviewed one by one: (qid, a piece of the line) -> why it gives nothing away.
ALLOWED: dict[tuple[str, str], str] = {}


def searched_cells(nb: dict, qid: str, span: range) -> list[int]:
    """The code cells the search reads for one question: its own, and those above its heading in its section."""
    cells = nb["cells"]
    own = [i for i in span if cells[i]["cell_type"] == "code"]
    section = next((s.cells for s in course.sections(cells) if s.level == 2 and span.start in s.cells), ())
    above = [i for i in section if i < span.start and cells[i]["cell_type"] == "code"]
    return sorted(set(above) | set(own))


def nodes(code: str) -> list[ast.AST]:
    """Every node of a cell's code (none for a cell that is not plain Python)."""
    try:
        return list(ast.walk(ast.parse(code)))
    except SyntaxError:
        return []


def literals(code: str) -> list[tuple[object, str]]:
    """Every literal in a cell's code (numbers, texts, and tuples, lists and sets of them), with its source text."""
    found = []
    for node in nodes(code):
        if isinstance(node, (ast.Constant, ast.Tuple, ast.List, ast.Set, ast.UnaryOp)):
            try:
                found.append((ast.literal_eval(node), ast.get_source_segment(code, node) or ""))
            except ValueError:
                continue
    return found


def brackets(code: str) -> list[tuple[float, float, str]]:
    """Every ``range(a, b[, step])`` and every pair of numbers in a cell's code, as (low, high, text); a range's high
    end is excluded, so it counts as ``b - 1``."""
    found = []
    for node in nodes(code):
        pair = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range" \
                and len(node.args) >= 2:
            try:
                low, high = ast.literal_eval(node.args[0]), ast.literal_eval(node.args[1])
                pair = (low, high - 1)
            except (ValueError, TypeError):
                pass
        elif isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) == 2:
            with contextlib.suppress(ValueError):
                pair = tuple(ast.literal_eval(node))
        if pair and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in pair):
            found.append((min(pair), max(pair), ast.get_source_segment(code, node) or ""))
    return found


def _shows_answer(question, value) -> bool:
    """True when the question's check accepts ``value`` and ``value`` says something on its own: a collection of two
    or more items, or a distinctive number. (A text is left to the printed-forms search: a check that reads letters
    out of any text, as a multiple-choice one does, would accept a text that only happens to hold them.)"""
    if isinstance(value, (tuple, list, set, frozenset)):
        telling = len(value) >= 2
    else:
        telling = isinstance(value, (int, float)) and not isinstance(value, bool) and is_distinctive(value)
    return telling and question.verify(value).ok


def leaks_in(nb: dict) -> dict[str, list[str]]:
    """For each question of a chapter whose checking code gives its answer away, where and what."""
    found: dict[str, list[str]] = {}
    for qid, span in exercise_sections(nb).items():
        question = QUESTIONS[qid]
        if question.kind == "function":
            continue
        answer = question.solution_value
        pattern = re.compile(answer_regex(answer)) if is_distinctive(answer) else None
        numeric = isinstance(answer, (int, float)) and not isinstance(answer, bool) and is_distinctive(answer)
        for index in searched_cells(nb, qid, span):
            code = source(nb["cells"][index])
            hits = []
            if pattern and pattern.search(code):
                hits.append(f"the answer {pattern.search(code).group(0)!r}")
            hits += [f"{text!r}, which the check accepts" for value, text in literals(code)
                     if value is not ____ and _shows_answer(question, value)]
            if numeric:
                close = max(BRACKET_SLACK, BRACKET_SHARE * abs(answer))
                hits += [f"{text!r}, which brackets the answer" for low, high, text in brackets(code)
                         if low <= answer <= high and high - low <= close]
            hits = [hit for hit in hits if not any(q == qid and piece in hit for q, piece in ALLOWED)]
            found.setdefault(qid, []).extend(f"cell {index}: {hit}" for hit in dict.fromkeys(hits))
    return {qid: hits for qid, hits in found.items() if hits}


@pytest.mark.parametrize("path", all_chapters(), ids=chapter_id)
def test_no_checking_code_gives_the_answer_away(path):
    found = leaks_in(load(path))
    assert not found, f"{path.name}: the code around these questions gives the answer away: {found}"


def _chapter(*code_cells: str, qid: str = "2.1") -> dict:
    """A made-up chapter: a section, a code cell above the question, the question, its check and its reveal."""
    def cell(kind, text, tags=()):
        return {"cell_type": kind, "source": text, "metadata": {"tags": list(tags)}, "outputs": []}
    above, check, reveal = code_cells
    return {"cells": [cell("markdown", "# 02 · T"), cell("code", 'set_language("en")'), cell("markdown", "## A"),
                      cell("code", above), cell("markdown", f"### Exercise {qid}: q"), cell("code", check),
                      cell("code", reveal, ("reveal",)), cell("markdown", "## B"), cell("code", "range(400, 402)")]}


def test_the_search_finds_a_close_bracket_of_a_numeric_answer_and_not_a_wide_one():
    answer = QUESTIONS["2.1"].solution_value
    assert isinstance(answer, int) and is_distinctive(answer)
    close = _chapter("x = 1", "q1.check(____)", f"for end in range({answer - 4}, {answer + 3}):\n    print(end)")
    assert leaks_in(close) == {"2.1": [f"cell 6: 'range({answer - 4}, {answer + 3})', which brackets the answer"]}
    wide = _chapter("x = 1", "q1.check(____)", f"first = next(e for e in range({answer - 51}, 1000) if e)")
    assert leaks_in(wide) == {}, "a range as wide as the file is no hint (and cell 8 lies in the next section)"
    pair = _chapter(f"lines = ({answer - 1}, {answer + 1})", "q1.check(____)", "")
    assert leaks_in(pair) == {"2.1": [f"cell 3: '({answer - 1}, {answer + 1})', which brackets the answer"]}


def test_the_search_finds_an_answer_the_check_accepts_however_it_is_written():
    question = QUESTIONS["5.4"]
    answer = question.solution_value
    assert isinstance(answer, tuple) and question.verify(list(answer)).ok
    listed = _chapter("x = 1", "q4.check(____)", f"for override in [(30, 50), {list(answer)!r}]:\n    print(override)",
                      qid="5.4")
    assert leaks_in(listed) == {"5.4": [f"cell 6: {str(list(answer))!r}, which the check accepts"]}
    wrong_only = _chapter("cfg = (30, 50)", "q4.check(____)", "for override in [(30, 50), (80, 60)]:\n    pass",
                          qid="5.4")
    assert leaks_in(wrong_only) == {}, "wrong answers in the checking code give nothing away"


def test_every_allowed_piece_names_a_question_and_a_reason():
    for (qid, piece), reason in ALLOWED.items():
        assert qid in QUESTIONS and piece and len(reason) > 20, qid
