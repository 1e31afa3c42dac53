"""Self-check exercises, in the style of Kaggle Learn: ``q1.check(answer)``, ``q1.hint()``, ``q1.solution()``.

Each chapter has a module here (``loopkit.teaching.exercises.ch02`` and so on) that defines its questions. Its
``__all__`` names them, the data they use and the blank ``____``, so a notebook imports them in one line and the
learner meets ``____`` only where an answer goes::

    from loopkit.teaching.exercises.ch02 import *   # q1, q2, ... and the blank

    answer = ____   # replace ____ with your answer
    q1.check(answer)

A check accepts a value, or a function that it runs against test cases. It prints a one-line verdict and a
short explanation; it never raises, so a wrong answer cannot break "Run All". An unanswered placeholder prints a
fixed "not answered yet" line.

A right answer written another way is still right: :func:`standard_form` makes a list equal to a tuple, ignores
surrounding quotes and extra spaces, reads ``"201"`` as ``201`` where a number is asked for, and, for a question
whose order does not matter, compares items in any order. A prediction is revealed by a cell that runs the real
code after the learner answers; :attr:`Question.reveal` says how that cell's output shows the answer, so a test can
check it.
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import pkgutil
import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from loopkit.core.language import MissingTranslation, tr
from loopkit.teaching import room

__all__ = ["____", "KINDS", "Case", "Question", "Verdict", "Wrong", "all_questions", "answer_regex", "as_tuple",
           "chapter_modules", "equals", "first_wrong_item", "function_cases", "is_distinctive", "letter_set",
           "printed_forms",
           "standard_form"]


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
    """The result of checking one answer: a status, a short explanation for the learner, and, for a known wrong
    answer, the label of its misconception (``"m2"``: the second wrong answer the question lists)."""

    question: str
    status: str
    explanation: str
    misconception: str | None = None

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


def _short(value: Any, width: int = 70) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


# ---------------------------------------------------------------------------------------------------------------
# One answer, many spellings


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


_QUOTES = ("'", '"', "`")
_INTEGER = re.compile(r"[+-]?\d+")


def _plain_text(text: str) -> str:
    """A typed string as meant: surrounding spaces and one pair of matching quotes dropped, and every run of
    spaces, tabs or newlines inside made one space."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in _QUOTES:
        text = text[1:-1].strip()
    return re.sub(r"\s+", " ", text)


def _items_of(text: str, like: Any) -> list[str]:
    """The items of a sequence typed as one string: ``"ok, warn"`` or ``"(40, 20)"``, and ``"ok warn"`` when no item
    of the expected answer holds a space (``"set p 3, get p"`` needs its comma)."""
    inner = _plain_text(text).strip("()[]{} ")
    if "," in inner:
        pieces = inner.split(",")
    elif all(" " not in str(item) for item in like):
        pieces = inner.split()
    else:
        pieces = [inner]
    return [piece.strip() for piece in pieces if piece.strip()]


def standard_form(answer: Any, like: Any = None, *, ordered: bool = True) -> Any:
    """One form for the usual ways of writing the same answer, shaped like the expected answer ``like``.

    - text: surrounding spaces and quotes go, and runs of spaces count as one;
    - a number asked for and written as text (``"201"``) is the number;
    - a sequence or a set asked for and typed as one string (``"ok, warn"``, ``"(40, 20)"``) is read item by item;
    - a list and a tuple are the same sequence, compared item by item in the same way;
    - a set asked for and given as a list or tuple is a set; with ``ordered=False`` a sequence's order is ignored
      (its items and how often each occurs still count).

    >>> standard_form(" 'src/app.py:0-1' ", like="src/app.py:0-1")
    'src/app.py:0-1'
    >>> standard_form(["ok", " warn"], like=("ok", "warn")), standard_form("201", like=201)
    (('ok', 'warn'), 201)
    >>> standard_form("(40, 20)", like=(40, 20)), standard_form("ok, warn", like=("ok", "warn"))
    ((40, 20), ('ok', 'warn'))
    >>> standard_form(["b", "a", "b"], like=("a", "b", "b"), ordered=False) == standard_form(("b", "b", "a"), ordered=False)
    True
    """
    if isinstance(answer, str) and isinstance(like, (list, tuple, set, frozenset)):
        return standard_form(_items_of(answer, like), like, ordered=ordered)
    if isinstance(answer, str):
        text = _plain_text(answer)
        wants_number = isinstance(like, int) and not isinstance(like, bool)
        return int(text) if wants_number and _INTEGER.fullmatch(text) else text
    if isinstance(answer, (list, tuple)):
        items = list(like) if isinstance(like, (list, tuple)) and len(like) == len(answer) else [None] * len(answer)
        if isinstance(like, (set, frozenset)):
            return frozenset(standard_form(item, next(iter(like), None)) for item in answer)
        forms = [standard_form(item, model) for item, model in zip(answer, items, strict=True)]
        return tuple(forms) if ordered else tuple(sorted(forms, key=repr))
    if isinstance(answer, (set, frozenset)):
        model = next(iter(like), None) if isinstance(like, (set, frozenset, list, tuple)) and like else None
        return frozenset(standard_form(item, model) for item in answer)
    return answer


def _kind_of(value: Any) -> str:
    """What kind of answer ``value`` is: "none", "bool", "number", "text", "set", "sequence" or its type's name."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (set, frozenset)):
        return "set"
    if isinstance(value, (list, tuple)):
        return "sequence"
    return type(value).__name__


def _kind_in_words(kind: str) -> str:
    """A kind from :func:`_kind_of` as a learner would say it, in the learner's language."""
    words = {"none": tr("None"), "bool": tr("True or False"), "number": tr("a number"), "text": tr("text"),
             "set": tr("a set"), "sequence": tr("a sequence")}
    return words.get(kind, kind)


# ---------------------------------------------------------------------------------------------------------------
# How an answer looks when it is printed (what a reveal cell shows, and what must not be on screen before)

#: How a program or a person prints the items of a sequence in one line.
SEPARATORS = (", ", ",", " ", " -> ", " → ", "/", " then ", " luego ", " y ", " and ")


def printed_forms(value: Any) -> list[str]:
    """The texts a learner would read as ``value`` printed: ``str`` and ``repr`` of it, and for a sequence or a set
    its items joined in one line (a set in any order, up to 720 orders).

    >>> printed_forms(201)
    ['201']
    >>> "ok -> warn" in printed_forms(("ok", "warn")) and "['ok', 'warn']" in printed_forms(("ok", "warn"))
    True
    """
    if isinstance(value, (list, tuple)):
        orders = [list(value)]
    elif isinstance(value, (set, frozenset)):
        orders = [list(order) for order in itertools.islice(itertools.permutations(sorted(value, key=repr)), 720)]
    else:
        return sorted({str(value), repr(value)}, key=lambda text: (-len(text), text))
    texts = set()
    for items in orders:
        texts.update({repr(tuple(items)), repr(list(items)), "{" + ", ".join(map(repr, items)) + "}"})
        texts.update(sep.join(map(str, items)) for sep in SEPARATORS)
    return sorted(texts, key=lambda text: (-len(text), text))


def answer_regex(value: Any) -> str:
    """A regular expression for ``value`` printed in any of its :func:`printed_forms`, as a whole word.

    >>> bool(re.search(answer_regex(201), "ends at 201 lines")), bool(re.search(answer_regex(201), "line 2015"))
    (True, False)
    """
    alternatives = "|".join(re.escape(text) for text in printed_forms(value))
    return rf"(?<![\w.])(?:{alternatives})(?![\w]|\.\d)"


def is_distinctive(value: Any) -> bool:
    """True when seeing ``value`` printed anywhere gives the answer away: a number of two digits or more, text of
    three characters or more, or a sequence or set whose shortest printed form has six or more. A lone ``3``,
    ``"y"`` or ``True`` is everywhere on a page and says nothing by itself.

    >>> is_distinctive(201), is_distinctive(3), is_distinctive("src/app.py:0-1"), is_distinctive(("a", "d"))
    (True, False, True, False)
    """
    if value is None or isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return abs(value) >= 10
    if isinstance(value, str):
        return len(value.strip()) >= 3
    if isinstance(value, (list, tuple, set, frozenset)):
        return bool(value) and min(len(text) for text in printed_forms(value)) >= 6
    return False


# ---------------------------------------------------------------------------------------------------------------
# Checkers

#: A checker takes the learner's answer and returns (is_correct, explanation).
Checker = Callable[[Any], "tuple[bool, str]"]


class _Unanswered(Exception):
    """Raised inside a checker when a learner's function still returns the placeholder."""


def _mismatch(given: Any, expected: Any) -> str | None:
    """What is plainly off about an answer, without giving the right one away: its kind, or its number of items."""
    if _kind_of(given) != _kind_of(expected) and not (isinstance(expected, (set, frozenset)) and
                                                     isinstance(given, (list, tuple))):
        return tr("Your answer {answer} is {given_kind}, but this exercise asks for {expected_kind}.",
                  answer=_short(given), given_kind=_kind_in_words(_kind_of(given)),
                  expected_kind=_kind_in_words(_kind_of(expected)))
    # A sequence's length is the question's (four turns, a pair); a set's size is part of its answer, so it is
    # not told.
    if isinstance(expected, (list, tuple)) and len(given) != len(expected):
        return tr("Your answer lists {given}, and the answer lists {expected}: count again.", given=len(given),
                  expected=len(expected))
    return None


def first_wrong_item(wrong: Any, reasons: Mapping[Any, str]) -> str | None:
    """Feedback on the first item of ``reasons`` (in the question's order) that is in ``wrong``, the items a learner
    put in or left out by mistake: "Look again at X:" and why X belongs in the answer or not. ``None`` when no item
    of ``reasons`` is wrong.

    >>> first_wrong_item({"c"}, {"b": "B is another command.", "c": "C is another tool."})
    'Look again at c: C is another tool.'
    """
    for item, reason in reasons.items():
        if item in wrong:
            return tr("Look again at {item}: {reason}", item=item, reason=tr(reason))
    return None


def equals(expected: Any, *, why: str, normalize: Callable[[Any], Any] | None = None,
           ordered: bool = True, item_reasons: Mapping[Any, str] | None = None) -> Checker:
    """A checker for a value answer: correct when it equals ``expected`` once both are in one form.

    The form is ``normalize(answer)`` when given, else :func:`standard_form` shaped like ``expected`` (with
    ``ordered=False`` when the order of a sequence does not matter). ``why`` is the explanation shown once the answer
    is right (in the learner's language, see :mod:`loopkit.core.language`). The question uses the same form to find the
    misconception behind a known wrong answer.

    For a set answer, ``item_reasons`` says, for each item the question offers (in its order), why it belongs in the
    answer or not: a wrong set that is none of the listed slips hears about its first wrong item
    (:func:`first_wrong_item`).
    """
    if normalize is None:
        def normalize(answer: Any) -> Any:
            return standard_form(answer, expected, ordered=ordered)

    target = normalize(expected)

    def check(answer: Any) -> tuple[bool, str]:
        if callable(answer) and not callable(expected):
            return False, tr("This exercise wants a value, not a function.")
        try:
            given = normalize(answer)
        except Exception as exc:  # the learner's value could not even be normalized
            return False, tr("Could not read your answer {answer}: {error}: {message}", answer=_short(answer),
                             error=type(exc).__name__, message=exc)
        if given == target:
            return True, tr(why)
        if item_reasons and isinstance(given, frozenset) and isinstance(target, frozenset):
            by_form = {next(iter(normalize({item})), item): item for item in item_reasons}
            wrong = {by_form[form] for form in given ^ target if form in by_form}
            found = first_wrong_item(wrong, item_reasons)
            if found:
                return False, found
        return False, _mismatch(given, target) or tr(
            "Your answer {answer} is not the expected value, nor one of the usual slips. "
            "Reread the section above the exercise, or ask for a hint.", answer=_short(answer))

    check.normalize = normalize
    check.why = why
    check.item_reasons = dict(item_reasons or {})
    return check


@dataclass(frozen=True)
class Case:
    """One test case of a function exercise: the arguments, the expected result, and the idea it tests, said so a
    learner whose function fails here knows what to rethink.

    >>> Case((200,), 0, "line 200 is the last line of bucket 0").idea
    'line 200 is the last line of bucket 0'
    """

    args: tuple
    expected: Any
    idea: str | None = None


def _as_case(case: Any) -> Case:
    if isinstance(case, Case):
        return case
    return Case(*case)


def function_cases(cases: Sequence[Any], *, why: str) -> Checker:
    """A checker for a function answer: runs ``answer(*case.args)`` for each :class:`Case` (or ``(args, expected)``
    or ``(args, expected, idea)`` tuple), in order, and reports the first input it gets wrong with that input's idea.
    A function that returns None where a value was expected is told that it may lack its ``return``.
    """
    cases = [_as_case(case) for case in cases]

    def check(answer: Any) -> tuple[bool, str]:
        if not callable(answer):
            return False, tr("This exercise wants a function, got {kind}.", kind=type(answer).__name__)
        for case in cases:
            shown = ", ".join(_short(a, 40) for a in case.args)
            idea = " " + tr("That input tests this: {idea}", idea=tr(case.idea)) if case.idea else ""
            try:
                got = answer(*case.args)
            except Exception as exc:
                return False, tr("Your function raised {error}: {message} for input ({shown}).",
                                 error=type(exc).__name__, message=exc, shown=shown) + idea
            if got is ____:
                raise _Unanswered
            if got is None and case.expected is not None:  # the work was done, and then not handed back
                return False, tr("For input ({shown}) your function returned None, expected {expected}: does it end "
                                 "with `return`? A function without `return` gives None.", shown=shown,
                                 expected=_short(case.expected, 40)) + idea
            if got != case.expected:
                return False, tr("For input ({shown}) it returned {got}, expected {expected}.", shown=shown,
                                 got=_short(got, 40), expected=_short(case.expected, 40)) + idea
        return True, tr("All {count} test cases pass.", count=len(cases)) + " " + tr(why)

    check.cases = cases
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


def _read_responses(qid: str, responses: dict, wrong_answers: tuple) -> tuple[tuple[Any, str], ...]:
    """The instructor's responses as (wrong answer, line) pairs, each checked: a listed wrong answer, one line."""
    for answer, line in responses.items():
        if not any(answer == wrong for wrong in wrong_answers):
            raise ValueError(f"exercise {qid}: a response to {answer!r}, which is not one of its wrong answers")
        if not isinstance(line, str) or not line.strip() or "\n" in line:
            raise ValueError(f"exercise {qid}: the response to {answer!r} must be one line of text, got {line!r}")
    return tuple(responses.items())


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

    ``responses`` gives, for some of the wrong answers, one line an instructor can say to the room when learners
    give it (docs/instructor.md's notes on the live exercises, written by tools/exercise_notes.py): the
    misconception tells the learner what went wrong, the response is what to do about it together.

    ``reveal`` says how the cell that reveals a prediction (tagged ``reveal`` in the chapter) shows the answer: a
    regular expression in which ``{answer}`` stands for the answer printed in any of its usual forms (see
    :meth:`shown_in`). Written in code words only, it holds in both tracks. The default, ``"{answer}"``, is the
    answer itself anywhere, which only suits an answer that :func:`is_distinctive`.
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
        reveal: str = "{answer}",
        responses: dict | None = None,
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"exercise {qid}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
        if "{answer}" not in reveal:
            raise ValueError(f"exercise {qid}: reveal must contain {{answer}}, got {reveal!r}")
        self.qid = qid
        self.title = title
        self.kind = kind
        self._checker = checker
        self.solution_value = solution
        self.misconceptions = _read_wrong(wrong)
        if not self.misconceptions:
            raise ValueError(f"exercise {qid}: give at least one wrong answer, so the tests can prove the check fails")
        self._hint = hint
        self.reveal = reveal
        self.responses = _read_responses(qid, responses or {}, self.wrong_answers)
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

    def response_to(self, answer: Any) -> str | None:
        """The instructor's one-line response to the wrong answer ``answer`` (English), or None when it has none."""
        return next((line for wrong, line in self.responses if wrong == answer), None)

    @property
    def item_reasons(self) -> dict:
        """For a set answer, why each item the question offers is in it or not (empty when the question has none)."""
        return dict(getattr(self._checker, "item_reasons", {}))

    @property
    def cases(self) -> list[Case]:
        """A function exercise's test cases, in the order they are run (empty for a value or a prediction)."""
        return list(getattr(self._checker, "cases", []))

    def reveal_regex(self, answer: Any = ____) -> re.Pattern:
        """:attr:`reveal` with ``{answer}`` filled in by ``answer`` (the solution by default), compiled with
        ``re.MULTILINE`` so that ``^`` and ``$`` anchor a line of output.

        >>> all_questions()["2.2"].reveal_regex().search("src/app.py:0-1") is not None
        True
        """
        value = self.solution_value if answer is ____ else answer
        before, _, after = self.reveal.partition("{answer}")
        return re.compile(before + answer_regex(value) + after, re.MULTILINE)

    def shown_in(self, text: str, answer: Any = ____) -> bool:
        """True when ``text`` (a cell's output, say) shows ``answer`` (the solution by default) as :attr:`reveal`
        describes."""
        return self.reveal_regex(answer).search(text) is not None

    def _normalize(self, answer: Any) -> Any:
        normalize = getattr(self._checker, "normalize", None) or as_tuple
        return normalize(answer)

    def _misconception_position(self, answer: Any) -> int | None:
        """Where ``answer`` is in the list of known wrong answers that carry an explanation (1 for the first), or
        None when it is none of them."""
        try:
            given = self._normalize(answer)
        except Exception:
            return None
        for position, (wrong, why) in enumerate(self.misconceptions, start=1):
            try:
                matches = why is not None and self._normalize(wrong) == given
            except Exception:
                continue
            if matches:
                return position
        return None

    @staticmethod
    def misconception_label(position: int) -> str:
        """The label of the ``position``-th known wrong answer (1 for the first): what the room view records.

        >>> Question.misconception_label(2)
        'm2'
        """
        return f"m{position}"

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
        position = self._misconception_position(answer)
        if position is None:
            return Verdict(self.qid, INCORRECT, explanation)
        return Verdict(self.qid, INCORRECT, tr(self.misconceptions[position - 1][1]),
                       self.misconception_label(position))

    def check(self, answer: Any = ____) -> None:
        """Print a one-line verdict and a short explanation. When a hub has turned the room view on, the verdict
        (never the answer) is also recorded for the instructor (:mod:`loopkit.teaching.room`)."""
        verdict = self.verify(answer)
        print(verdict)
        if verdict.status != UNANSWERED:
            room.record_answer(self.qid, verdict.ok, verdict.misconception)

    def hint(self) -> None:
        """Print a hint."""
        print(tr("Hint ({qid}): {hint}", qid=self.qid, hint=tr(self._hint)))

    def solution(self) -> None:
        """Print the reference solution."""
        code = tr(self._solution_code) if self._solution_code_is_prose else self._solution_code
        print(tr("Solution ({qid}):", qid=self.qid) + "\n" + code)

    def texts(self) -> list[str]:
        """Every English text this question shows a learner (or an instructor, in the notes on the exercises), so a
        test can prove each has a translation."""
        texts = [self.title, self._hint, *(why for _, why in self.misconceptions if why)]
        texts.extend(line for _, line in self.responses)
        texts.extend(case.idea for case in self.cases if case.idea)
        texts.extend(self.item_reasons.values())
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
