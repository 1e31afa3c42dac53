"""The pattern library: the fourteen traces the issue names (plus extras), deterministic, well-formed, and each
shaped the way its description says (checked against the keys the detector will compare)."""

from collections import Counter

import pytest

from loopkit import PinnedMiddleware, call_entry, fingerprint
from loopkit.teaching import patterns

REQUIRED = [
    "exact_repeat", "read_jitter", "sequential_paging", "edit_test_same_failure", "abc_cycle", "cross_file_sweep",
    "write_new_content", "write_same_content", "retry_changing_flags", "reordered_batch", "identical_in_batch",
    "polling", "read_bash_interleaved", "read_burst",
]


def fingerprints(name):
    return [fingerprint(batch) for batch in patterns.get(name).batches]


def test_the_fourteen_named_patterns_come_first_in_issue_order():
    assert patterns.names()[:14] == REQUIRED
    assert len(patterns.names()) >= 14


@pytest.mark.parametrize("name", patterns.names())
def test_each_pattern_is_well_formed(name):
    p = patterns.get(name)
    assert p.name == name and p.label in ("loop", "progress")
    assert p.description and "\n" not in p.description and len(p.description) <= 90
    batches = p.batches
    assert batches and all(isinstance(b, list) and b for b in batches)
    for batch in batches:
        for call in batch:
            assert set(call) == {"name", "args"} and isinstance(call["name"], str) and isinstance(call["args"], dict)


@pytest.mark.parametrize("name", patterns.names())
def test_batches_are_deterministic_and_fresh_copies(name):
    p = patterns.get(name)
    first, second = p.batches, p.batches
    assert first == second
    first[0][0]["args"]["poisoned"] = True
    first[0].append({"name": "x", "args": {}})
    assert p.batches == second  # mutating one copy leaves the library alone
    objects = [id(call) for batch in second for call in batch]
    assert len(objects) == len(set(objects)), "a call dict is shared between positions in the trace"


def test_unknown_names_are_named_in_the_error():
    with pytest.raises(KeyError, match="no pattern named 'nope'; expected one of exact_repeat, read_jitter"):
        patterns.get("nope")


# Each shape, checked through fingerprints and call entries (what the detector compares), with counts by hand.
def test_exact_repeat_and_read_jitter_are_one_fingerprint():
    for name in ("exact_repeat", "read_jitter", "write_same_content", "polling", "reordered_batch"):
        assert len(set(fingerprints(name))) == 1, name
    jitter = patterns.get("read_jitter").batches
    assert len({(c["args"]["start_line"], c["args"]["end_line"]) for [c] in jitter}) == 8  # the raw ranges differ


def test_paging_puts_four_pages_in_each_bucket():
    entries = [call_entry(c) for [c] in patterns.get("sequential_paging").batches]
    assert Counter(entries) == {"read_file:docs/manual.md:0-0": 4, "read_file:docs/manual.md:1-1": 4,
                                "read_file:docs/manual.md:2-2": 4}


def test_edit_test_cycle_repeats_only_the_test():
    fps = fingerprints("edit_test_same_failure")
    assert len(fps) == 12 and len(set(fps[0::2])) == 6 and len(set(fps[1::2])) == 1


def test_abc_cycle_has_period_three():
    fps = fingerprints("abc_cycle")
    assert len(fps) == 18 and len(set(fps)) == 3
    assert all(fps[i] == fps[i % 3] for i in range(18))


def test_progress_traces_never_repeat_a_fingerprint():
    for name in ("cross_file_sweep", "write_new_content", "retry_changing_flags", "read_bash_interleaved",
                 "bash_pipeline"):
        fps = fingerprints(name)
        assert len(set(fps)) == len(fps), name
    assert len(patterns.get("cross_file_sweep")) == 60
    assert len(patterns.get("read_bash_interleaved")) == 80


def test_reordered_batch_really_changes_the_order():
    orders = [tuple(c["name"] for c in batch) for batch in patterns.get("reordered_batch").batches]
    assert len(set(orders)) == 3


def test_the_in_batch_patterns():
    stutter = patterns.get("identical_in_batch").batches[0]
    assert len(stutter) == 5 and len({call_entry(c) for c in stutter}) == 1
    [burst] = patterns.get("read_burst").batches
    assert len(burst) == 60 and len({c["args"]["path"] for c in burst}) == 60


@pytest.mark.parametrize("name, expected", [
    ("exact_repeat", ["ok", "ok", "warn", "ok", "stop"]),
    ("retry_changing_flags", ["ok"] * 8),
    ("read_burst", ["warn"]),  # pinned: the 30th read warns and returns; reads 31-60 are never counted
])
def test_a_few_verdicts_under_the_defaults(name, expected):
    m = PinnedMiddleware()
    got = [m.after_model(b, "t", "r").action for b in patterns.get(name).batches]
    assert got[: len(expected)] == expected



def test_in_spanish_the_description_is_spanish_and_the_code_words_are_not(spanish):
    p = patterns.get("polling")
    assert p.description == "esperar a una ejecución de CI consultando su estado en cada turno"
    assert p.summary == "waiting for a CI run by checking its status every turn"  # the English source line
    assert (p.name, p.label) == ("polling", "progress")
    untranslated = [n for n in patterns.names() if patterns.get(n).description == patterns.get(n).summary]
    assert not untranslated, f"descriptions still in English: {untranslated}"
