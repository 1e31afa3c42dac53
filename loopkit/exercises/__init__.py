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

from ..language import MissingTranslation, tr

__all__ = ["____", "KINDS", "Question", "Verdict", "Wrong", "all_questions", "as_tuple", "chapter_modules", "equals",
           "function_cases", "letter_set"]


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
            return tr("Correct! (Exercise {qid})", qid=self.question)
        if self.status == UNANSWERED:
            return tr("Exercise {qid} is not answered yet: replace ____ with your answer, then run the cell.",
                      qid=self.question)
        return tr("Not yet (Exercise {qid}). Try again, or ask for a hint.", qid=self.question)

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

    ``why`` is the explanation shown once the answer is right (in the learner's language, see
    :mod:`loopkit.language`). The question uses the same ``normalize`` to find the misconception behind a known
    wrong answer.
    """

    def check(answer: Any) -> tuple[bool, str]:
        if callable(answer) and not callable(expected):
            return False, tr("This exercise wants a value, not a function.")
        try:
            given = normalize(answer) if normalize else answer
        except Exception as exc:  # the learner's value could not even be normalized
            return False, tr("Could not read your answer {answer}: {error}: {message}", answer=_short(answer),
                             error=type(exc).__name__, message=exc)
        if given == expected:
            return True, tr(why)
        return False, tr("Your answer {answer} is not the expected value, nor one of the usual slips. "
                         "Reread the section above the exercise, or ask for a hint.", answer=_short(answer))

    check.normalize = normalize
    check.why = why
    return check


def function_cases(cases: Sequence[tuple[tuple, Any]], *, why: str) -> Checker:
    """A checker for a function answer: runs ``answer(*args)`` for each ``(args, expected)`` case."""

    def check(answer: Any) -> tuple[bool, str]:
        if not callable(answer):
            return False, tr("This exercise wants a function, got {kind}.", kind=type(answer).__name__)
        for args, expected in cases:
            shown = ", ".join(_short(a, 40) for a in args)
            try:
                got = answer(*args)
            except Exception as exc:
                return False, tr("Your function raised {error}: {message} for input ({shown}).",
                                 error=type(exc).__name__, message=exc, shown=shown)
            if got is ____:
                raise _Unanswered
            if got != expected:
                return False, tr("For input ({shown}) it returned {got}, expected {expected}.", shown=shown,
                                 got=_short(got, 40), expected=_short(expected, 40))
        return True, tr("All {count} test cases pass.", count=len(cases)) + " " + tr(why)

    check.why = why
    return check


KINDS = ("value", "prediction", "function")
"""What an exercise asks for: a value worked out from the chapter, a prediction written down before the cell that
reveals it runs, or a function checked against cases the learner cannot see."""


@dataclass(frozen=True)
class Wrong:
    """A known wrong answer that cannot be a dict key (a list of batches, say), with the misconception behind it."""

    answer: Any
    why: str


def _read_wrong(wrong: Any) -> tuple[tuple[Any, str | None], ...]:
    """The known wrong answers as (answer, misconception) pairs; a function exercise lists wrong functions only."""
    if isinstance(wrong, dict):
        return tuple(wrong.items())
    return tuple((item.answer, item.why) if isinstance(item, Wrong) else (item, None) for item in wrong)


class Question:
    """One self-check exercise.

    ``kind`` is one of :data:`KINDS`. ``solution`` is the reference answer (a value or a function). ``wrong`` lists
    the likely wrong answers: for a value or prediction, a dict from each wrong answer to the misconception behind
    it (or a list of :class:`Wrong`), which :meth:`check` prints when a learner gives that answer; for a function,
    known-wrong functions. The tests prove that the solution passes and every wrong answer fails.
    """

    def __init__(
        self,
        qid: str,
        title: str,
        *,
        kind: str,
        checker: Checker,
        solution: Any,
        hint: str,
        wrong: Any,
        solution_code: str | None = None,
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"exercise {qid}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
        self.qid = qid
        self.title = title
        self.kind = kind
        self._checker = checker
        self.solution_value = solution
        self.misconceptions = _read_wrong(wrong)
        if not self.misconceptions:
            raise ValueError(f"exercise {qid}: give at least one wrong answer, so the tests can prove the check fails")
        self._hint = hint
        # A solution written out by hand may carry comments in English; one read from the function's source or
        # from repr(solution) is code only, and is shown as it is in every language.
        self._solution_code_is_prose = solution_code is not None
        if solution_code is None:
            if callable(solution):
                solution_code = textwrap.dedent(inspect.getsource(solution))
            else:
                solution_code = f"answer = {solution!r}"
        self._solution_code = solution_code.strip()

    @property
    def wrong_answers(self) -> tuple:
        """The known wrong answers, without their explanations."""
        return tuple(answer for answer, _ in self.misconceptions)

    def _misconception_for(self, answer: Any) -> str | None:
        """The explanation listed for ``answer``, when it is one of the known wrong answers."""
        normalize = getattr(self._checker, "normalize", None) or as_tuple
        try:
            given = normalize(answer)
        except Exception:
            return None
        for wrong, why in self.misconceptions:
            try:
                matches = why is not None and normalize(wrong) == given
            except Exception:
                continue
            if matches:
                return tr(why)
        return None

    def verify(self, answer: Any = ____) -> Verdict:
        """Judge ``answer`` without printing: the plain function behind :meth:`check`."""
        if answer is ____:
            return Verdict(self.qid, UNANSWERED, "")
        try:
            ok, explanation = self._checker(answer)
        except _Unanswered:
            return Verdict(self.qid, UNANSWERED, "")
        except MissingTranslation:  # only in strict mode (the tests): a text nobody translated
            raise
        except Exception as exc:  # a checker must never break "Run All"
            return Verdict(self.qid, INCORRECT, tr("Could not check that answer: {error}: {message}",
                                                   error=type(exc).__name__, message=exc))
        if ok:
            return Verdict(self.qid, CORRECT, explanation)
        return Verdict(self.qid, INCORRECT, self._misconception_for(answer) or explanation)

    def check(self, answer: Any = ____) -> None:
        """Print a one-line verdict and a short explanation."""
        print(self.verify(answer))

    def hint(self) -> None:
        """Print a hint."""
        print(tr("Hint ({qid}): {hint}", qid=self.qid, hint=tr(self._hint)))

    def solution(self) -> None:
        """Print the reference solution."""
        code = tr(self._solution_code) if self._solution_code_is_prose else self._solution_code
        print(tr("Solution ({qid}):", qid=self.qid) + "\n" + code)

    def texts(self) -> list[str]:
        """Every English text this question shows a learner, so a test can prove each has a translation."""
        texts = [self.title, self._hint, *(why for _, why in self.misconceptions if why)]
        if getattr(self._checker, "why", None):
            texts.append(self._checker.why)
        if self._solution_code_is_prose:
            texts.append(self._solution_code)
        return texts

    def __repr__(self) -> str:
        return f"<Exercise {self.qid} ({self.kind}): {tr(self.title)}>"


def chapter_modules() -> list:
    """The chapter modules of this package (``ch00``, ``ch01``, ...), imported, in order."""
    names = sorted(info.name for info in pkgutil.iter_modules(__path__) if info.name.startswith("ch"))
    return [importlib.import_module(f"{__name__}.{name}") for name in names]


def all_questions() -> dict[str, Question]:
    """Every question, by id, read from each chapter module's ``QUESTIONS`` tuple.

    >>> all_questions()["2.1"].qid
    '2.1'
    """
    found: dict[str, Question] = {}
    for module in chapter_modules():
        for question in module.QUESTIONS:
            if question.qid in found:
                raise ValueError(f"exercise id {question.qid!r} is defined twice (again in {module.__name__})")
            found[question.qid] = question
    return found
