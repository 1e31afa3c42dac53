"""Chapter 08 exercises: what a check of the helpers proves, what the probe's claims catch, and writing a claim."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass
from typing import Any

from loopkit.core.bounded import BoundedDict, LRUDict
from loopkit.core.keys import BUCKET_SIZE, _as_line

from . import Case, Question, ____, equals, function_cases, letter_set

__all__ = ["____", "q1", "q2", "q3"]


def statement_numbers(answer: Any) -> frozenset:
    """Exercise 8.1's answer as a set of statement numbers: ``{2, 5}``, ``[5, 2]``, ``{"2", "5"}`` and ``"2, 5"``
    are the same answer.

    >>> statement_numbers("5, 2") == statement_numbers([2, "5"]) == frozenset({2, 5})
    True
    """
    if isinstance(answer, str):
        items = re.split(r"[\s,{}()\[\]]+", answer)
    elif isinstance(answer, (list, tuple, set, frozenset)):
        items = list(answer)
    else:
        raise TypeError(f"give the statement numbers as a set, such as {{1, 3}}, got {type(answer).__name__}")
    numbers = set()
    for item in items:
        text = str(item).strip().strip("'\"")
        if text and not text.isdigit():
            raise ValueError(f"the statements are numbered 1 to 6, and {item!r} is not one of their numbers")
        if text:
            numbers.add(int(text))
    return frozenset(numbers)


# Exercise 8.1's statements are numbered: the probe's claims have the letters a to g.
q1 = Question(
    "8.1",
    "What does the probe's all-agree table prove?",
    kind="value",
    checker=equals(
        frozenset({2, 5}),
        normalize=statement_numbers,
        why="Agreement carries loopkit's result over to upstream, for the four pinned definitions on the claims' own "
        "inputs: loopkit's BoundedDict keeps b and c after that script (2), and loopkit's fingerprint keeps every "
        "shuffled batch's digest (5). The middleware, the sandbox, your provider and later commits are not run.",
        item_reasons={
            1: "statement 1 is about when the middleware warns, the lifecycle level: the probe runs four definitions, "
            "never the middleware and its hooks.",
            2: "statement 2 is the eviction claim's own script on upstream's BoundedDict: loopkit keeps b and c, and "
            "agreement carries that over to upstream.",
            3: "statement 3 is about a later commit: the probe refuses any file that is not the pinned one.",
            4: "statement 4 is about your model provider, a level the probe never reaches: it makes its own inputs.",
            5: "statement 5 is the permutation-invariance claim's own inputs on upstream's _hash_tool_calls: loopkit "
            "keeps every shuffled digest, and agreement carries that over to upstream.",
            6: "statement 6 is about the middleware and the sandbox, two levels after the helpers: the probe runs "
            "neither.",
        },
    ),
    solution={2, 5},
    hint="Two questions for each statement: is it about one of the four definitions the probe runs, at the pinned "
    "commit, on inputs a claim uses? And what does loopkit give on those inputs (chapters 03 and 04)?",
    wrong={
        frozenset({5}): "2 is proven too: the eviction claim runs upstream's own BoundedDict on exactly that script. "
        "BoundedDict keeps an updated key in its place, so inserting c evicts a, the oldest insertion: loopkit keeps "
        "b and c, and agreement means upstream's dict does the same.",
        frozenset({2}): "5 is proven too: loopkit's fingerprint sorts the entries, so every shuffled batch keeps its "
        "digest on loopkit's side of the permutation-invariance claim. Agreement means upstream's _hash_tool_calls "
        "keeps every one of them too.",
        frozenset({1, 2, 5}): "1 is about the middleware: when it counts a batch and warns is the middleware "
        "lifecycle level. The probe runs four definitions, never the class and its hooks; chapter 05's recorded "
        "scripts are the evidence for that, not the probe.",
        frozenset({2, 3, 5}): "The probe refuses any file whose sha256 is not the pinned one: it compares the pinned "
        "commit f1f4af99 and nothing after it. Chapter 07 showed a later change to the read key (PR #5486 keys "
        "read_file by its exact lines).",
        frozenset({2, 4, 5}): "The probe feeds the helpers arguments it makes itself, some line numbers as text "
        "(\"40\", \"x\"). What your provider sends is the provider level of the evidence table, which the probe "
        "does not reach.",
        frozenset({2, 5, 6}): "Stripping a stopped call is the middleware's job and running a call is the sandbox's: "
        "two levels after the helpers, and the probe runs neither.",
        frozenset({1, 2, 4, 5}): "1 and 4 sound like claims (a shuffled batch, read_file line numbers), but they are "
        "about the middleware and about your provider: levels the probe never reaches. A claim proves only what the "
        "four definitions do on its own inputs.",
        frozenset({1, 5}): "1 sounds like 5, but it is about when the middleware warns, a level the probe never runs. "
        "And 2 is proven: loopkit's BoundedDict keeps b and c after that very script, and agreement means "
        "upstream's does too.",
        frozenset({1, 2, 3, 4, 5, 6}): "Agreement on the helpers says nothing about the levels after them, nor "
        "about other commits: no middleware, sandbox or provider runs in the probe, and only the pinned files do.",
        frozenset(): "Agreement proves what the four pinned definitions do on the claims' inputs, and two of the "
        "statements are exactly that: find the claim whose inputs each one describes.",
    },
    # No cell reveals 8.1: its answer is an argument, not an output. Printed on a line of its own it would leak.
    reveal=r"^{answer}$",
)

# Exercise 8.2's claims, lettered in the order the probe runs them (probe.CLAIMS).
CLAIM_LETTERS = "abcdefg"


def read_bucket_in_given_order(path: Any, start_line: Any = None, end_line: Any = None) -> str:
    """Exercise 8.2's broken copy of :func:`loopkit.read_bucket`: the two ends are read and clamped the same way,
    but not sorted, so a reversed read keeps its order.

    >>> read_bucket_in_given_order("a.py", 401, 5), read_bucket_in_given_order("a.py", 5, 401)
    ('a.py:2-0', 'a.py:0-2')
    """
    start = _as_line(start_line, 1)  # read as read_bucket reads them (keys.py), so the sort is the one difference
    end = _as_line(end_line, start)
    return f"{path}:{(max(start, 1) - 1) // BUCKET_SIZE}-{(max(end, 1) - 1) // BUCKET_SIZE}"


q2 = Question(
    "8.2",
    "Which claims catch a copy whose read key does not sort the two ends?",
    kind="prediction",
    checker=equals(
        frozenset("g"),
        normalize=letter_set,
        why="Only digest equality sees it: some generated batches hold a reversed read across buckets, keyed 2-0 by "
        "the copy and 0-2 by loopkit. The read-bucket claim's one reversed read, 200-1, stays inside bucket 0, and "
        "the other claims compare the copy with itself or never key a read.",
        item_reasons={
            "a": "claim a, normalization, never keys a read_file call, so a broken read key cannot change it.",
            "b": "claim b's only reversed read, 200-1, has both ends in bucket 0: sorting them changes nothing.",
            "c": "claim c, changed writes, never keys a read_file call.",
            "d": "claim d, permutation invariance, compares the copy with itself: it still sorts a batch's calls.",
            "e": "claim e, multiplicity, compares the copy with itself: it still counts every call.",
            "f": "claim f, eviction, runs the bounded dict and never keys a read.",
            "g": "claim g, digest equality, compares the copy with loopkit on generated batches, and some hold a read "
            "reversed across buckets.",
        },
    ),
    solution={"g"},
    solution_code='answer = {"g"}   # digest equality, alone',
    hint="For each claim ask: does it key a read_file call with loopkit's key on one side and the copy's on the "
    "other, and is one of its reads reversed across a bucket boundary?",
    wrong={
        frozenset("bg"): "Claim b reads 1-199, 200-1, 201, 150-250 and unusable numbers. Its only reversed read, "
        "200-1, has both ends in bucket 0, so sorting them changes nothing: b agrees. A claim catches only what its "
        "inputs exercise.",
        frozenset("b"): "b agrees: its only reversed read, 200-1, stays inside bucket 0. The mistake shows in g: some "
        "generated batches hold a read whose ends lie in different buckets, given in reverse (401 back to 5, say), "
        "and their digests differ from loopkit's.",
        frozenset(): "Some generated batches hold a reversed read across buckets (401 back to 5, say): the copy keys "
        "it 2-0 where loopkit keys it 0-2, so their digests differ, and digest equality catches it.",
        frozenset("dg"): "A shuffled batch gets the same entries from the copy as the batch itself: the copy still "
        "sorts the calls of a batch, and only the two ends inside one read keep their order. Permutation invariance "
        "compares the copy with itself, and it agrees.",
        frozenset("bdeg"): "Permutation invariance and multiplicity compare the copy with itself (a shuffled batch "
        "with the batch, a batch with one more call): the copy is still order-free and still counts every call, so "
        "both agree. And b's only reversed read, 200-1, stays in bucket 0.",
        frozenset(CLAIM_LETTERS): "Normalization, changed writes and eviction never key a read_file call, so a broken "
        "read key cannot change them.",
    },
    reveal=r"^disagree = {answer}$",
)


def keeps_upstream_order(make_dict):
    d = make_dict(2)
    d["a"] = 1
    d["b"] = 2
    d["a"] = 10  # an update: upstream's BoundedDict keeps "a" where it was
    d.get("a")  # a read: upstream's BoundedDict keeps "a" where it was again
    d["c"] = 3  # full: the oldest insertion goes
    return list(d) == ["b", "c"]


def _the_probes_own_claim(make_dict):
    d = make_dict(2)
    d["a"], d["b"] = 1, 2
    d["a"] = 10  # separates LRU and cachetools.FIFOCache, which move an updated key; no read, though
    d["c"] = 3
    return list(d) == ["b", "c"]


def _reads_only(make_dict):
    d = make_dict(2)
    d["a"], d["b"] = 1, 2
    d.get("a")  # separates LRU, but cachetools.FIFOCache does not move on a read
    d["c"] = 3
    return list(d) == ["b", "c"]


def _no_update_no_read(make_dict):
    d = make_dict(2)
    d["a"], d["b"], d["c"] = 1, 2, 3  # every policy evicts "a" here
    return list(d) == ["b", "c"]


def _touches_the_newer_key(make_dict):
    d = make_dict(2)
    d["a"], d["b"] = 1, 2
    d.get("a")
    d["b"] = 20  # the read moved "a" behind "b" in an LRU dict, and this update moves "b" back behind "a"
    d["c"] = 3
    return list(d) == ["b", "c"]


def _is_a_bounded_dict(make_dict):
    return isinstance(make_dict(2), BoundedDict)


def _is_exactly_a_bounded_dict(make_dict):
    return type(make_dict(2)) is BoundedDict


class ReadMovesDict(BoundedDict):
    """Exercise 8.3's hidden suspect: FIFO on writes, like BoundedDict, but a read moves the key to the back."""

    _refresh_on_read = True


class InsertionOrderDict(MutableMapping):
    """Exercise 8.3's look-alike: written from scratch on a plain dict, not a BoundedDict, yet evicting as upstream's
    does. A plain dict keeps insertion order, an update keeps a key's place and a read never moves it.

    >>> d = InsertionOrderDict(2)
    >>> d["a"] = 1; d["b"] = 2; d["a"] = 10; d.get("a"); d["c"] = 3
    10
    >>> list(d)
    ['b', 'c']
    """

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._data: dict = {}

    def __setitem__(self, key: Any, value: Any) -> None:
        if key not in self._data and len(self._data) >= self.maxsize:
            del self._data[next(iter(self._data))]  # the oldest insertion
        self._data[key] = value

    def __getitem__(self, key: Any) -> Any:
        return self._data[key]

    def __delitem__(self, key: Any) -> None:
        del self._data[key]

    def __iter__(self) -> Iterator:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


def _cachetools_fifo(maxsize):
    import cachetools  # a runtime dependency of the workbook, not of ``import loopkit``

    return cachetools.FIFOCache(maxsize)


@dataclass(frozen=True)
class Suspect:
    """One dict policy that exercise 8.3 runs a claim on: ``make(maxsize)`` builds an empty dict. It is shown by its
    name, so the check's feedback names the policy a claim got wrong.

    >>> Suspect("BoundedDict", BoundedDict)
    BoundedDict
    """

    name: str
    make: Callable[[int], Any]

    def __call__(self, maxsize: int) -> Any:
        return self.make(maxsize)

    def __repr__(self) -> str:
        return self.name


SUSPECTS = (Suspect("BoundedDict", BoundedDict), Suspect("LRUDict", LRUDict),
            Suspect("cachetools.FIFOCache", _cachetools_fifo), Suspect("ReadMovesDict", ReadMovesDict),
            Suspect("InsertionOrderDict", InsertionOrderDict))

q3 = Question(
    "8.3",
    "Write keeps_upstream_order(make_dict): a claim that tells upstream's BoundedDict from every other policy here",
    kind="function",
    checker=function_cases(
        [
            Case((SUSPECTS[0],), True, "upstream's own policy must pass: BoundedDict evicts the oldest insertion, and "
                 "neither an update nor a read moves a key"),
            Case((SUSPECTS[1],), False, "LRUDict moves a key to the back whenever it is read or updated: the last key "
                 "your script touches before the insert that evicts must be the oldest insertion"),
            Case((SUSPECTS[2],), False, "cachetools.FIFOCache moves a key to the back when it is set again, though "
                 "not when it is read: your script must set the oldest insertion again, after the other key was last "
                 "set"),
            Case((SUSPECTS[3],), False, "this dict moves a key to the back when it is read, though not when it is "
                 "set again: your script must read the oldest insertion (d[key] or d.get(key)) after the other key "
                 "was last inserted or read; the probe's own eviction claim has no read"),
            Case((SUSPECTS[4],), True, "a dict written from scratch that evicts exactly as BoundedDict does must pass "
                 "too: judge what the dict does, not which class it is"),
        ],
        why="A claim catches only what its inputs exercise: without an update, a dict that moves updated keys looks "
        "like upstream's; without a read, so does one that moves the keys it reads. The probe's own eviction claim "
        "has no read in it.",
    ),
    solution=keeps_upstream_order,
    hint="Find a script for room 2 where BoundedDict keeps other keys than LRUDict and cachetools.FIFOCache (the "
    "eviction race shows them), and that also does the one thing the probe's own claim never does.",
    wrong=[_the_probes_own_claim, _reads_only, _no_update_no_read, _touches_the_newer_key, _is_a_bounded_dict,
           _is_exactly_a_bounded_dict, lambda make_dict: make_dict is BoundedDict],
)

QUESTIONS = (q1, q2, q3)
