"""The mapping of exercise ids that changed (docs/exercise-ids.md) is true: every id in its "now" column is an
exercise the chapters and loopkit have, and no id in its "was" column is still used (unless another row gives it to
a different exercise, as a renumbering does), in either track."""

from __future__ import annotations

import re

import pytest
from notebook_tools import ROOT, all_chapters, exercise_headings, load

from loopkit.teaching.exercises import all_questions

MAPPING = ROOT / "docs" / "exercise-ids.md"
ROW = re.compile(r"^\| (\d+\.\d+) \| (\d+\.\d+) \| (.+) \|$", re.M)


def mapping(text: str) -> list[tuple[str, str]]:
    """The (was, now) rows between the page's <!-- exercise-ids --> markers."""
    block = re.search(r"<!-- exercise-ids -->\n(.*?)<!-- /exercise-ids -->", text, re.S)
    assert block, "docs/exercise-ids.md has no <!-- exercise-ids --> block"
    return [(was, now) for was, now, _ in ROW.findall(block.group(1))]


def used_ids() -> dict[str, set[str]]:
    """Every exercise id in use: loopkit's questions, and each chapter's headings, by where."""
    used = {"loopkit.teaching.exercises": set(all_questions())}
    for path in all_chapters():
        used[path.relative_to(ROOT).as_posix()] = {qid for _, qid, _ in exercise_headings(load(path))}
    return used


def mapping_problems(rows: list[tuple[str, str]], used: dict[str, set[str]]) -> list[str]:
    problems = []
    now = {new for _, new in rows}
    everywhere = set.union(*used.values())
    for was, new in rows:
        missing = [where for where, ids in used.items() if new not in ids]
        if missing:
            problems.append(f"{was} -> {new}: {new} is not in {', '.join(missing)}")
        still = [where for where, ids in used.items() if was in ids]
        if was not in now and still:
            problems.append(f"{was} -> {new}: {was} is still used in {', '.join(still)}")
    if len({was for was, _ in rows}) < len(rows):
        problems.append("an old id is mapped twice")
    return problems + ([] if everywhere else ["no exercise ids found at all"])


def test_the_mapping_of_changed_ids_is_true():
    assert mapping_problems(mapping(MAPPING.read_text(encoding="utf-8")), used_ids()) == []


@pytest.mark.parametrize("rows, found", [
    ([("5.4", "5.9")], "5.9 is not in"),                  # a new id nobody defines
    ([("5.4", "7.1")], "5.4 is still used"),              # an old id a chapter still uses
])
def test_a_false_mapping_is_refused(rows, found):
    assert any(found in problem for problem in mapping_problems(rows, used_ids()))


def test_a_renumbering_may_give_an_old_id_to_another_exercise():
    used = {"x": {"5.3", "5.4"}}
    assert mapping_problems([("5.4", "5.3"), ("5.3", "5.4")], used) == []
