"""Chapter 08 exercises: what a check of the helpers proves, what the probe's claims catch, and writing a claim."""

from loopkit.bounded import BoundedDict, LRUDict

from . import Question, equals, function_cases, letter_set

q1 = Question(
    "8.1",
    "What does the probe's all-agree table prove?",
    kind="value",
    checker=equals(
        frozenset("ac"),
        normalize=letter_set,
        why="The probe runs the pinned helpers and the pinned BoundedDict; no hook, sandbox or provider is involved.",
    ),
    solution={"a", "c"},
    solution_code='answer = {"a", "c"}',
    hint="The probe extracts four definitions and calls them directly. Which statements need anything more?",
    wrong={
        frozenset("a"): "c is proven too: the probe runs upstream's BoundedDict itself (the insertion-order eviction "
        "claim), not only the three hashing helpers.",
        frozenset("abc"): "b is about the middleware class and its hooks. The probe never runs them: it extracts "
        "four definitions, and the class with the hooks is not one of them.",
        frozenset("ace"): "The probe feeds the helpers its own generated arguments, in every shape. What your model "
        "provider actually sends is the provider level of the evidence table, which the probe does not reach.",
        frozenset("abcde"): "Agreement on helpers says nothing about the levels after them: no middleware, sandbox "
        "or provider runs in the probe.",
    },
)

# Exercise 8.2's claims, lettered in the order the probe runs them (probe.CLAIMS).
CLAIM_LETTERS = "abcdefg"

q2 = Question(
    "8.2",
    "Which claims catch a copy that hashes the calls in the order given?",
    kind="prediction",
    checker=equals(
        frozenset("dg"),
        normalize=letter_set,
        why="Only the claims that hash batches of several differently ordered calls can see the order: permutation "
        "invariance (a shuffled batch) and digest equality (the generated batches as they come).",
    ),
    solution={"d", "g"},
    solution_code='answer = {"d", "g"}   # permutation invariance and digest equality',
    hint="For each claim ask: does it call the fingerprint at all, and on batches where the order of the calls "
    "could differ from the sorted order?",
    wrong={
        frozenset(): "The entries and the hash are the same, but the copy joins the entries in the order given, "
        "and that order goes into the digest. Some claims must see it.",
        frozenset("d"): "Digest equality catches it too: the copy hashes each generated batch in its own order, so "
        "every batch of two different calls that are not already sorted gets another digest than loopkit's.",
        frozenset("g"): "Permutation invariance is the claim written for exactly this: a shuffled batch must keep "
        "its digest, and with the copy it often does not.",
        frozenset("deg"): "Multiplicity still holds for the copy: repeating a call adds an entry, and a longer list "
        "hashes differently whatever its order.",
        frozenset("cdg"): "The changed-write claim hashes batches of one call; with one call there is no order to "
        "get wrong.",
        frozenset(CLAIM_LETTERS): "Normalization, read buckets and eviction never call the fingerprint, so a broken "
        "fingerprint cannot change them.",
    },
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


def _cachetools_fifo(maxsize):
    import cachetools  # a runtime dependency of the workbook, not of ``import loopkit``

    return cachetools.FIFOCache(maxsize)


def _bounded_dict_by_another_name(maxsize):
    return BoundedDict(maxsize)


class ReadMovesDict(BoundedDict):
    """Exercise 8.3's hidden suspect: FIFO on writes, like BoundedDict, but a read moves the key to the back."""

    _refresh_on_read = True


q3 = Question(
    "8.3",
    "Write keeps_upstream_order(make_dict): a claim that tells upstream's BoundedDict from every other policy here",
    kind="function",
    checker=function_cases(
        [
            ((BoundedDict,), True),
            ((LRUDict,), False),
            ((_cachetools_fifo,), False),
            ((ReadMovesDict,), False),
            ((_bounded_dict_by_another_name,), True),
        ],
        why="A claim catches only what its inputs exercise: without an update, a dict that moves updated keys looks "
        "like upstream's; without a read, so does one that moves the keys it reads. The probe's own eviction claim "
        "has no read in it.",
    ),
    solution=keeps_upstream_order,
    hint="Find a script for room 2 where BoundedDict keeps other keys than LRUDict and cachetools.FIFOCache (the "
    "eviction race shows them), and that also does the one thing the probe's own claim never does.",
    wrong=[_the_probes_own_claim, _reads_only, _no_update_no_read, lambda make_dict: make_dict is BoundedDict],
)

QUESTIONS = (q1, q2, q3)
