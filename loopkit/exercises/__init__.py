"""Self-check exercises, in the style of Kaggle Learn: ``q1.check(answer)``, ``q1.hint()``, ``q1.solution()``.

Each chapter has a module here (``loopkit.exercises.ch02`` and so on) that defines its questions. In a notebook::

    from loopkit.exercises import ____
    from loopkit.exercises.ch02 import q1, q2, q3

    answer = ____   # replace ____ with your answer
    q1.check(answer)

A check accepts a value, or a function that it runs against test cases. It prints a one-line verdict and a
short explanation; it never raises, so a wrong answer cannot break "Run All". An unanswered placeholder prints a
fixed "not answered yet" line.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["____", "Question", "Verdict", "REGISTRY", "all_questions", "as_tuple", "equals", "function_cases",
           "letter_set"]


class _Placeholder:
    """The blank a learner replaces with an answer. It equals nothing but itself."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "____"

    def __bool__(self) -> bool:
        return False


#: The placeholder: ``answer = ____`` means "not answered yet".
____ = _Placeholder()

CORRECT, INCORRECT, UNANSWERED = "correct", "incorrect", "unanswered"


@dataclass(frozen=True)
class Verdict:
    """The result of checking one answer: a status, and a short explanation for the learner."""

    question: str
    status: str
    explanation: str

    @property
    def ok(self) -> bool:
        return self.status == CORRECT

    def headline(self) -> str:
        if self.status == CORRECT:
            return f"Correct! (Exercise {self.question})"
        if self.status == UNANSWERED:
            return f"Exercise {self.question} is not answered yet: replace ____ with your answer, then run the cell."
        return f"Not yet (Exercise {self.question}). Try again, or ask for a hint."

    def __str__(self) -> str:
        return self.headline() if self.status == UNANSWERED else f"{self.headline()}\n{self.explanation}"


#: A checker takes the learner's answer and returns (is_correct, explanation).
Checker = Callable[[Any], "tuple[bool, str]"]


class _Unanswered(Exception):
    """Raised inside a checker when a learner's function still returns the placeholder."""


def _short(value: Any, width: int = 70) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def as_tuple(answer: Any) -> Any:
    """Normalizer: a sequence written as a list or as a tuple is the same answer (other values pass through).

    >>> as_tuple([1, "a"]), as_tuple(("ok", "warn")), as_tuple("ok")
    ((1, 'a'), ('ok', 'warn'), 'ok')
    """
    return tuple(answer) if isinstance(answer, (list, tuple)) else answer


def letter_set(answer: Any) -> frozenset:
    """Normalizer for multiple-choice answers: the set of lower-case letters in "AD", "a, d", ["A", "D"], {"a", "d"}.

    >>> sorted(letter_set(["A", "d"])) == sorted(letter_set("a, D")) == ["a", "d"]
    True
    """
    if isinstance(answer, str):
        text = answer
    elif isinstance(answer, (list, tuple, set, frozenset)):
        text = "".join(str(item) for item in answer)
    else:
        raise TypeError(f"give the letters as a string or a set, got {type(answer).__name__}")
    return frozenset(ch for ch in text.lower() if ch.isalpha())


def equals(expected: Any, *, why: str, normalize: Callable[[Any], Any] | None = None) -> Checker:
    """A checker for a value answer: correct when it equals ``expected`` (after ``normalize``, if given).

    ``why`` is the explanation shown once the answer is right.
    """

    def check(answer: Any) -> tuple[bool, str]:
        if callable(answer) and not callable(expected):
            return False, "This exercise wants a value, not a function."
        try:
            given = normalize(answer) if normalize else answer
        except Exception as exc:  # the learner's value could not even be normalized
            return False, f"Could not read your answer {_short(answer)}: {type(exc).__name__}: {exc}"
        if given == expected:
            return True, why
        return False, f"Your answer {_short(answer)} is not the expected value."

    return check


def function_cases(cases: Sequence[tuple[tuple, Any]], *, why: str) -> Checker:
    """A checker for a function answer: runs ``answer(*args)`` for each ``(args, expected)`` case."""

    def check(answer: Any) -> tuple[bool, str]:
        if not callable(answer):
            return False, f"This exercise wants a function, got {type(answer).__name__}."
        for args, expected in cases:
            shown = ", ".join(_short(a, 40) for a in args)
            try:
                got = answer(*args)
            except Exception as exc:
                return False, f"Your function raised {type(exc).__name__}: {exc} for input ({shown})."
            if got is ____:
                raise _Unanswered
            if got != expected:
                return False, f"For input ({shown}) it returned {_short(got, 40)}, expected {_short(expected, 40)}."
        return True, f"All {len(cases)} test cases pass. {why}"

    return check


#: Every question defined by a chapter module, by its id ("2.1" and so on).
REGISTRY: dict[str, "Question"] = {}


class Question:
    """One self-check exercise.

    ``solution`` is the reference answer (a value or a function); ``wrong`` lists plausible wrong answers, which
    the test suite proves the check rejects.
    """

    def __init__(
        self,
        qid: str,
        title: str,
        *,
        checker: Checker,
        solution: Any,
        hint: str,
        wrong: Iterable[Any],
        solution_code: str | None = None,
    ) -> None:
        if qid in REGISTRY:
            raise ValueError(f"exercise id {qid!r} is defined twice")
        self.qid = qid
        self.title = title
        self._checker = checker
        self.solution_value = solution
        self.wrong_answers = tuple(wrong)
        if not self.wrong_answers:
            raise ValueError(f"exercise {qid}: give at least one wrong answer, so the tests can prove the check fails")
        self._hint = hint
        if solution_code is None:
            if callable(solution):
                solution_code = textwrap.dedent(inspect.getsource(solution))
            else:
                solution_code = f"answer = {solution!r}"
        self._solution_code = solution_code.strip()
        REGISTRY[qid] = self

    def verify(self, answer: Any = ____) -> Verdict:
        """Judge ``answer`` without printing: the plain function behind :meth:`check`."""
        if answer is ____:
            return Verdict(self.qid, UNANSWERED, "")
        try:
            ok, explanation = self._checker(answer)
        except _Unanswered:
            return Verdict(self.qid, UNANSWERED, "")
        except Exception as exc:  # a checker must never break "Run All"
            return Verdict(self.qid, INCORRECT, f"Could not check that answer: {type(exc).__name__}: {exc}")
        return Verdict(self.qid, CORRECT if ok else INCORRECT, explanation)

    def check(self, answer: Any = ____) -> None:
        """Print a one-line verdict and a short explanation."""
        print(self.verify(answer))

    def hint(self) -> None:
        """Print a hint."""
        print(f"Hint ({self.qid}): {self._hint}")

    def solution(self) -> None:
        """Print the reference solution."""
        print(f"Solution ({self.qid}):\n{self._solution_code}")

    def __repr__(self) -> str:
        return f"<Exercise {self.qid}: {self.title}>"


def all_questions() -> dict[str, Question]:
    """Import every chapter module and return all questions by id."""
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("ch"):
            importlib.import_module(f"{__name__}.{info.name}")
    return dict(REGISTRY)
