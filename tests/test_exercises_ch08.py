"""The reference answers of chapter 08 follow from what the probe runs and what its claims observe, and each listed
slip is what a plausible wrong belief gives on the same claims."""

import dataclasses
import hashlib
import itertools
import json
from functools import partial

import pytest

from loopkit import BoundedDict, LRUDict, call_entry, fingerprint, stable_key
from loopkit.core import upstream
from loopkit import read_bucket
from loopkit.teaching import probe
from loopkit.teaching.exercises import ch08

CLAIMS = {claim.english_name: claim for claim in probe.CLAIMS}

# What each numbered statement of exercise 8.1 needs the probe to have run: upstream's definitions by name, or a
# level the probe never reaches.
STATEMENT_NEEDS = {
    1: {"LoopDetectionMiddleware"},               # the middleware class and its hooks
    2: {"BoundedDict"},                           # upstream's dict, on the eviction claim's own script
    3: {"a commit after f1f4af99"},               # the probe refuses every file but the pinned ones
    4: {"a model provider"},
    5: {"_hash_tool_calls"},                      # upstream's hash, on the shuffled generated batches
    6: {"LoopDetectionMiddleware", "a sandbox"},  # stripping a stopped call, then running calls
}


def final_dict_of_the_eviction_claim(make_dict):
    """The dict the eviction claim ends with, on its own script, for the policy ``make_dict``."""
    made = []

    def recording(maxsize):
        made.append(make_dict(maxsize))
        return made[-1]

    CLAIMS["insertion-order eviction"].observe(dataclasses.replace(probe.LOOPKIT_HELPERS, bounded_dict=recording), [])
    return made[0]


def keeps_every_shuffled_digest(helpers, batches):
    """True when ``helpers`` give every shuffled batch of the permutation claim its batch's digest."""
    always_kept = dataclasses.replace(helpers, fingerprint=lambda calls: "one digest for every batch")
    claim = CLAIMS["permutation invariance"]
    return claim.observe(helpers, batches) == claim.observe(always_kept, batches)


def test_8_1_the_probe_proves_the_statements_about_the_definitions_it_runs_on_the_claims_inputs():
    run = {name for info in upstream.FILES.values() for name in info["names"]}
    proven = {number for number, needs in STATEMENT_NEEDS.items() if needs <= run}
    assert proven == ch08.q1.solution_value
    # what agreement carries over to upstream: loopkit's own results on those claims' inputs
    assert list(final_dict_of_the_eviction_claim(BoundedDict)) == ["b", "c"]                 # statement 2: no "a"
    assert keeps_every_shuffled_digest(probe.LOOPKIT_HELPERS, probe.generated_batches(probe.BATCHES))  # statement 5
    path = next(iter(upstream.FILES))
    with pytest.raises(probe.HashMismatch):                                                    # statement 3: no later file
        probe.verify_sha256(path, b"# the same file, one commit later\n", upstream.FILES[path]["sha256"])


def test_8_1_the_slips_are_what_a_wrong_belief_about_loopkit_gives():
    # believing BoundedDict moves an updated key, as an LRU dict does: then "a" would survive, and 2 would be false
    assert "a" in final_dict_of_the_eviction_claim(LRUDict)
    assert frozenset({5}) in ch08.q1.wrong_answers
    # believing the fingerprint keeps the calls' order: then shuffled batches lose their digest, and 5 would be false
    in_call_order = dataclasses.replace(probe.LOOPKIT_HELPERS, fingerprint=fingerprint_in_call_order)
    assert not keeps_every_shuffled_digest(in_call_order, probe.generated_batches(100))
    assert frozenset({2}) in ch08.q1.wrong_answers
    # each statement outside the probe's reach, added to the answer, is a listed slip of its own
    for number in set(STATEMENT_NEEDS) - ch08.q1.solution_value:
        assert ch08.q1.solution_value | {number} in ch08.q1.wrong_answers, number


def test_8_1_accepts_the_statement_numbers_however_they_are_written():
    for spelling in ({2, 5}, [5, 2], ("2", "5"), "2, 5", "{5, 2}"):
        assert ch08.q1.verify(spelling).ok, spelling
    assert "not one of their numbers" in ch08.q1.verify("b, e").explanation


def fingerprint_in_call_order(calls):
    """Written here independently of the chapter: loopkit's entries, hashed without sorting them first."""
    entries = [call_entry(call) for call in calls]
    return hashlib.md5(json.dumps(entries, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()[:12]


def disagreeing_letters(copy, batches=100):
    rows = probe.claim_rows(copy, batches=batches)
    return {letter for letter, row in zip(ch08.CLAIM_LETTERS, rows, strict=True) if not row["agree"]}


def copy_with_read_key(read_key):
    return dataclasses.replace(probe.LOOPKIT_HELPERS, label="copy", stable_key=partial(stable_key, read_key=read_key),
                               fingerprint=partial(fingerprint, read_key=read_key))


#: The line numbers the probe's generated read_file calls draw their ends from (loopkit/teaching/probe/generated.py).
GENERATED_LINES = [None, 1, 5, 150, 199, 200, 201, 399, 401, 0, -3, "40", "x", 12.5]


def test_8_2_the_broken_read_key_differs_from_read_bucket_only_in_the_order_of_the_ends():
    for start, end in itertools.product(GENERATED_LINES, repeat=2):
        path, buckets = read_bucket("a.py", start, end).rsplit(":", 1)
        broken_path, broken = ch08.read_bucket_in_given_order("a.py", start, end).rsplit(":", 1)
        assert broken_path == path and sorted(broken.split("-"), key=int) == buckets.split("-"), (start, end)
    assert ch08.read_bucket_in_given_order("a.py", 401, 5) != read_bucket("a.py", 401, 5)


def test_8_2_only_digest_equality_catches_a_read_key_that_does_not_sort_the_ends():
    copy = copy_with_read_key(ch08.read_bucket_in_given_order)
    assert disagreeing_letters(copy) == ch08.q2.solution_value
    assert disagreeing_letters(copy, batches=probe.BATCHES) == ch08.q2.solution_value
    assert [c.english_name for c in probe.CLAIMS][1::5] == ["read buckets", "digest equality"]  # the letters b, g


def test_8_2_the_slips_are_what_a_plausible_wrong_belief_gives():
    # "the read-bucket claim catches a read-bucket mistake": its one reversed read stays inside bucket 0
    assert ch08.read_bucket_in_given_order("a.py", 200, 1) == read_bucket("a.py", 200, 1)
    assert frozenset("bg") in ch08.q2.wrong_answers and frozenset("b") in ch08.q2.wrong_answers
    # the answer for a fingerprint that forgets to sort the calls, the mistake of the chapter before this copy
    unsorted_calls = dataclasses.replace(probe.LOOPKIT_HELPERS, label="copy", fingerprint=fingerprint_in_call_order)
    assert frozenset(disagreeing_letters(unsorted_calls)) in ch08.q2.wrong_answers
    # an LRU copy, the chapter's worked example, is caught by the eviction claim alone: no claim about keys
    lru = dataclasses.replace(probe.LOOPKIT_HELPERS, label="lru", bounded_dict=LRUDict)
    assert disagreeing_letters(lru) == {"f"}


# ------------------------------------------------------------------------------------------------------ 8.3

#: The steps of the short scripts below: set or read "a" or "b" (each script then inserts "c", which evicts).
STEPS = [("set", key) for key in "ab"] + [("get", key) for key in "ab"]


def keys_after(make_dict, script):
    d = make_dict(2)
    for value, (op, key) in enumerate(script):
        if op == "set":
            d[key] = value
        else:
            d.get(key)
    d["c"] = "last"
    return list(d)


def evicts_as_bounded_dict(make_dict):
    """Computed without the reference claim: the policy keeps the same keys as BoundedDict after every short
    script."""
    scripts = [script for n in range(5) for script in itertools.product(STEPS, repeat=n)]
    return all(keys_after(make_dict, script) == keys_after(BoundedDict, script) for script in scripts)


def test_8_3_each_hidden_case_expects_what_the_policy_does():
    assert [case.args[0] for case in ch08.q3.cases] == list(ch08.SUSPECTS)
    for case in ch08.q3.cases:
        assert case.expected == evicts_as_bounded_dict(case.args[0]), case.args[0]


def test_8_3_the_read_moving_dict_evicts_in_insertion_order_but_moves_what_it_reads():
    d = ch08.ReadMovesDict(2)
    d["a"], d["b"] = 1, 2
    d["a"] = 10
    assert list(d) == ["a", "b"]  # an update keeps its place, as in BoundedDict
    d.get("a")
    d["c"] = 3
    assert list(d) == ["a", "c"]  # the read moved "a" to the back, so "b" was evicted


def test_8_3_the_probes_own_eviction_claim_lets_the_read_moving_dict_pass():
    eviction = CLAIMS["insertion-order eviction"]
    suspect = dataclasses.replace(probe.LOOPKIT_HELPERS, label="suspect", bounded_dict=ch08.ReadMovesDict)
    assert eviction.observe(suspect, []) == eviction.observe(probe.LOOPKIT_HELPERS, [])
    assert ch08.q3.verify(ch08._the_probes_own_claim).status == "incorrect"


def test_8_3_the_look_alike_is_no_bounded_dict_yet_evicts_as_one():
    assert not isinstance(ch08.InsertionOrderDict(2), BoundedDict)
    assert evicts_as_bounded_dict(ch08.InsertionOrderDict)


def test_8_3_the_reference_claim_separates_every_policy():
    for suspect in ch08.SUSPECTS:
        assert ch08.keeps_upstream_order(suspect) is evicts_as_bounded_dict(suspect), suspect
