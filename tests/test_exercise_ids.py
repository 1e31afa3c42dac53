"""The mapping of exercise ids that changed (docs/exercise-ids.md) is true: every id in its "now" column is an
exercise the chapters and loopkit have, and no id in its "was" column is still used (unless another row gives it to
a different exercise, as a renumbering does, or the page lists it among the new exercises), in either track; and
every new exercise it lists exists."""

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


def new_ids(text: str) -> set[str]:
    """The ids the page lists between its <!-- new-ids --> markers: exercises added, some on an id given up."""
    block = re.search(r"<!-- new-ids -->\n(.*?)<!-- /new-ids -->", text, re.S)
    return set(re.findall(r"^\| (\d+\.\d+) \|", block.group(1), re.M)) if block else set()


def used_ids() -> dict[str, set[str]]:
    """Every exercise id in use: loopkit's questions, and each chapter's headings, by where."""
    used = {"loopkit.teaching.exercises": set(all_questions())}
    for path in all_chapters():
        used[path.relative_to(ROOT).as_posix()] = {qid for _, qid, _ in exercise_headings(load(path))}
    return used


def homes(qid: str, used: dict[str, set[str]]) -> list[str]:
    """Where an exercise id must be: loopkit's questions, and each chapter (either track) of its number."""
    chapter = qid.split(".")[0].zfill(2)
    return [where for where in used if where == "loopkit.teaching.exercises"
            or where.rsplit("/", 1)[-1].startswith(f"{chapter}_")]


def mapping_problems(rows: list[tuple[str, str]], used: dict[str, set[str]],
                     added: frozenset = frozenset()) -> list[str]:
    problems = []
    now = {new for _, new in rows} | set(added)
    everywhere = set.union(*used.values())
    for was, new in rows:
        missing = [where for where in homes(new, used) if new not in used[where]]
        if missing:
            problems.append(f"{was} -> {new}: {new} is not in {', '.join(missing)}")
        still = [where for where, ids in used.items() if was in ids]
        if was not in now and still:
            problems.append(f"{was} -> {new}: {was} is still used in {', '.join(still)}")
    for qid in sorted(added):
        missing = [where for where in homes(qid, used) if qid not in used[where]]
        if missing:
            problems.append(f"new exercise {qid} is not in {', '.join(missing)}")
    if len({was for was, _ in rows}) < len(rows):
        problems.append("an old id is mapped twice")
    return problems + ([] if everywhere else ["no exercise ids found at all"])


def test_the_mapping_of_changed_ids_is_true():
    text = MAPPING.read_text(encoding="utf-8")
    assert mapping_problems(mapping(text), used_ids(), frozenset(new_ids(text))) == []


def test_an_old_id_reused_by_a_new_exercise_must_be_listed_as_new():
    used = {"loopkit.teaching.exercises": {"0.1", "0.4"}, "notebooks/00_start_here.ipynb": {"0.1", "0.4"}}
    assert any("0.1 is still used" in problem for problem in mapping_problems([("0.1", "0.4")], used))
    assert mapping_problems([("0.1", "0.4")], used, frozenset({"0.1"})) == []
    assert any("new exercise 0.9 is not in" in p for p in mapping_problems([], used, frozenset({"0.9"})))


@pytest.mark.parametrize("rows, found", [
    ([("5.4", "5.9")], "5.9 is not in"),                  # a new id nobody defines
    ([("5.4", "7.1")], "5.4 is still used"),              # an old id a chapter still uses
])
def test_a_false_mapping_is_refused(rows, found):
    assert any(found in problem for problem in mapping_problems(rows, used_ids()))


def test_a_renumbering_may_give_an_old_id_to_another_exercise():
    used = {"loopkit.teaching.exercises": {"5.3", "5.4"}}
    assert mapping_problems([("5.4", "5.3"), ("5.3", "5.4")], used) == []
