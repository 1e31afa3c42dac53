"""The reference answers of chapter 08 follow from what the probe runs and what its claims observe."""

import dataclasses
import hashlib
import json

from loopkit import BoundedDict, LRUDict, call_entry, probe, upstream
from loopkit.exercises import ch08

# What each statement of exercise 8.1 needs the probe to have run: upstream's definitions by name, or more.
STATEMENT_NEEDS = {
    "a": {"_hash_tool_calls"},                       # loopkit's fingerprint against upstream's hash
    "b": {"LoopDetectionMiddleware"},                # the middleware class and its hooks
    "c": {"BoundedDict"},                            # upstream's dict, updated in place
    "d": {"a sandbox"},                              # not a definition in either file
    "e": {"a model provider"},
}


def test_8_1_the_probe_proves_the_statements_about_the_definitions_it_runs():
    run = {name for info in upstream.FILES.values() for name in info["names"]}
    proven = {letter for letter, needs in STATEMENT_NEEDS.items() if needs <= run}
    assert proven == ch08.q1.solution_value
    claims = {claim.name for claim in probe.CLAIMS}
    assert {"digest equality", "insertion-order eviction"} <= claims  # a and c are each checked by a claim


def fingerprint_in_call_order(calls):
    """Written here independently of the notebook: loopkit's entries, hashed without sorting them first."""
    entries = [call_entry(call) for call in calls]
    return hashlib.md5(json.dumps(entries, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()[:12]


def disagreeing_letters(copy, batches=100):
    rows = probe.claim_rows(copy, batches=batches)
    return {letter for letter, row in zip(ch08.CLAIM_LETTERS, rows, strict=True) if not row["agree"]}


def test_8_2_only_the_claims_on_shuffled_and_generated_batches_catch_an_unsorted_fingerprint():
    copy = dataclasses.replace(probe.LOOPKIT_HELPERS, label="unsorted", fingerprint=fingerprint_in_call_order)
    assert disagreeing_letters(copy) == ch08.q2.solution_value
    # the same on the probe's full batch count, and the letters name the claims in the probe's order
    assert disagreeing_letters(copy, batches=probe.BATCHES) == ch08.q2.solution_value
    assert [c.name for c in probe.CLAIMS][3::3] == ["permutation invariance", "digest equality"]


def test_8_2_an_lru_copy_is_caught_by_the_eviction_claim_alone():
    copy = dataclasses.replace(probe.LOOPKIT_HELPERS, label="lru", bounded_dict=LRUDict)
    assert disagreeing_letters(copy) == {"f"}


def test_8_3_the_read_moving_dict_evicts_in_insertion_order_but_moves_what_it_reads():
    d = ch08.ReadMovesDict(2)
    d["a"], d["b"] = 1, 2
    d["a"] = 10
    assert list(d) == ["a", "b"]  # an update keeps its place, as in BoundedDict
    d.get("a")
    d["c"] = 3
    assert list(d) == ["a", "c"]  # the read moved "a" to the back, so "b" was evicted


def test_8_3_the_probes_own_eviction_claim_lets_the_read_moving_dict_pass():
    eviction = next(claim for claim in probe.CLAIMS if claim.name == "insertion-order eviction")
    suspect = dataclasses.replace(probe.LOOPKIT_HELPERS, label="suspect", bounded_dict=ch08.ReadMovesDict)
    assert eviction.observe(suspect, []) == eviction.observe(probe.LOOPKIT_HELPERS, [])
    assert ch08.q3.verify(ch08._the_probes_own_claim).status == "incorrect"


def test_8_3_the_reference_claim_separates_every_policy():
    assert ch08.keeps_upstream_order(BoundedDict) is True
    for other in (LRUDict, ch08.ReadMovesDict, ch08._cachetools_fifo):
        assert ch08.keeps_upstream_order(other) is False, other
