"""What the hub test's learners answer with ``check()`` for the room view, and what the instructor's view must then
show, worked out from those answers alone (never from loopkit's counting). tools/hub_rehearsal.py uses it too.

Learner ``number`` (0, 1, 2 ...) answers below chapter 00 and chapter 05, in the chapter's own kernel, as a learner
types it: ``answer = ...`` then the chapter's ``qN.check(answer)``. Some answers are right, some a wrong answer the
exercise lists (a known misconception, recorded by its label ``mN``), some a wrong answer no exercise lists, and
some learners correct themselves after a slip.
"""

from __future__ import annotations

import collections
import dataclasses
import re

from loopkit.teaching.exercises import Question, all_questions, ch00, ch05

CHAPTER_00 = "loopkit/notebooks/00_start_here.ipynb"
CHAPTER_05 = "loopkit/notebooks/05_detector.ipynb"
ROOM_NOTEBOOK = "loopkit/notebooks/instructor/room.ipynb"
UNLISTED = "zebra-quartz-unlisted"  # a wrong answer that no exercise lists: wrong, with no known misconception
#: One row of the instructor notebook's printed table: exercise, answered, right, then "mN (learners): ..." or "-".
ROOM_ROW = re.compile(r"^(\d+\.\d+) +(\d+) +(\d+) +(?:(m\d+) \((\d+)\).*|-)$", re.M)


@dataclasses.dataclass(frozen=True)
class Answer:
    """One answer a learner submits with ``check()``, and what is expected of it: right or wrong, and the label of
    the exercise's listed wrong answer it is (``m2``: the second one listed), if any."""

    exercise: str
    value: object
    correct: bool
    misconception: str | None


def right(qid: str) -> Answer:
    return Answer(qid, all_questions()[qid].solution_value, True, None)


def slip(qid: str, position: int) -> Answer:
    value, why = all_questions()[qid].misconceptions[position - 1]
    assert why, f"{qid}: wrong answer {position} has no misconception"
    return Answer(qid, value, False, f"m{position}")


def unlisted(qid: str) -> Answer:
    return Answer(qid, UNLISTED, False, None)


def answers_of(number: int) -> dict[str, list[Answer]]:
    """What learner ``number`` answers below each chapter, in order: every fourth learner gives 0.1's first listed
    slip, then the right answer; others a second slip, or the right answer at once; 0.2, 5.1 and (for the first six
    learners only) 5.2 the same way, with a wrong answer no exercise lists for some."""
    first = ([slip("0.1", 1), right("0.1")] if number % 4 == 0 else
             [slip("0.1", 2)] if number % 4 == 1 else [right("0.1")])
    first += ([unlisted("0.2")] if number % 5 == 0 else [slip("0.2", 2)] if number % 5 in (1, 2) else [right("0.2")])
    fifth = [slip("5.1", 3)] if number % 3 == 0 else [slip("5.1", 1)] if number in (1, 4) else [right("5.1")]
    if number < 6:
        fifth.append(right("5.2") if number % 2 == 0 else slip("5.2", 2))
    return {CHAPTER_00: first, CHAPTER_05: fifth}


def answer_code(answer: Answer) -> str:
    """The cell a learner types below the chapter: the answer, then the chapter's own ``qN.check``."""
    module = {"0": ch00, "5": ch05}[answer.exercise.split(".")[0]]
    name = next(n for n, v in vars(module).items() if isinstance(v, Question) and v.qid == answer.exercise)
    return f"answer = {answer.value!r}\n{name}.check(answer)"


def verdict_problem(answer: Answer, stdout: str) -> str | None:
    """What is wrong with the feedback a learner's answer cell printed, or None: the verdict must be the expected
    one, and the room view must not have reported a failure to record."""
    verdict = "Correct!" if answer.correct else "Not yet"
    if f"{verdict} (Exercise {answer.exercise})" not in stdout or "Room view" in stdout:
        return f"answered {answer} and read: {stdout!r}"
    return None


def submitted(learners: int) -> int:
    """How many answers ``learners`` learners submit in all."""
    return sum(len(answers) for number in range(learners) for answers in answers_of(number).values())


def expected_room(learners: int) -> list[tuple]:
    """What the room view must show after ``learners`` learners answered: per exercise, in order, the learners who
    answered, those right at least once, the misconception the most learners gave (a tie: the first listed) and how
    many gave it."""
    answered, right_once = collections.defaultdict(set), collections.defaultdict(set)
    slips = collections.defaultdict(lambda: collections.defaultdict(set))
    for number in range(learners):
        for answers in answers_of(number).values():
            for answer in answers:
                answered[answer.exercise].add(number)
                if answer.correct:
                    right_once[answer.exercise].add(number)
                if answer.misconception:
                    slips[answer.exercise][answer.misconception].add(number)
    rows = []
    for exercise in sorted(answered, key=lambda qid: [int(part) for part in qid.split(".")]):
        ranked = sorted(slips[exercise].items(), key=lambda item: (-len(item[1]), int(item[0][1:])))
        top = ranked[0] if ranked else (None, set())
        rows.append((exercise, len(answered[exercise]), len(right_once[exercise]), top[0], len(top[1])))
    return rows


def shown_rows(summary: str) -> list[tuple]:
    """The rows of the instructor notebook's printed table, in the form of :func:`expected_room`."""
    return [(m[0], int(m[1]), int(m[2]), m[3] or None, int(m[4] or 0)) for m in ROOM_ROW.findall(summary)]
