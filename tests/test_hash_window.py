"""loopkit.teaching.hash_window: the hash window after each turn, and the repeated batch's count in it.

Every expected count here is worked out by hand from the trace (the turns the repeated batch was made at, and the
window's span), and the counts the snapshot reports are checked against the detector's own state.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loopkit import DetectorConfig, PinnedMiddleware
from loopkit.teaching import patterns
from loopkit.teaching.hash_window import (
    counts_in_window,
    edit_test_cycle,
    followed_fingerprints,
    snapshot,
)


def test_a_test_run_every_4th_turn_stops_at_its_5th_run():
    s = snapshot(edit_test_cycle(every=4, turns=25))
    assert s.hits == [1, 5, 9, 13, 17] and s.stopped_at == 17 and s.turn == 17
    assert s.window == (1, 17) and s.in_window == [1, 5, 9, 13, 17] and s.count == 5 and s.action == "stop"
    assert s.counts == (1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5)
    assert s.later == 8  # turns 18-25 are never made by a real run
    assert [t.occurrence for t in s.turns if t.repeat] == [1, 2, 3, 4, 5]


def test_every_5th_turn_the_oldest_run_slides_out_before_the_5th_comes():
    s = snapshot(edit_test_cycle(every=5, turns=25), turn=21)
    assert s.window == (2, 21)  # the last 20 batches
    assert s.hits == [1, 6, 11, 16, 21] and s.in_window == [6, 11, 16, 21] and s.count == 4
    assert s.stopped_at is None and s.later == 0 and s.action == "ok"
    first = s.turns[0]
    assert first.repeat and not first.in_window and first.occurrence is None  # made, but slid out: not counted
    assert [t.occurrence for t in s.turns if t.in_window and t.repeat] == [1, 2, 3, 4]
    assert max(s.counts) == 4  # never 5: this run is never stopped


def test_the_counts_are_the_detectors_own():
    trace = patterns.get("abc_cycle").batches
    s = snapshot(trace)
    middleware = PinnedMiddleware()
    for turn, batch in zip(s.turns, trace, strict=False):
        middleware.after_model(batch, "t", "r")
        state = middleware.snapshot("t", "r")
        assert s.counts[turn.turn - 1] == state["hash_counts"].get(s.fingerprint, 0)


def test_a_smaller_window_holds_fewer_batches():
    s = snapshot(edit_test_cycle(every=2, turns=12), turn=9, config=DetectorConfig(window_size=4))
    assert s.window == (6, 9) and s.in_window == [7, 9] and s.count == 2
    assert [t.turn for t in s.turns if t.in_window] == [6, 7, 8, 9]


def test_counts_in_window_follows_one_fingerprint_and_skips_empty_batches():
    assert counts_in_window(["t", "e1", "t", "e2", "t"], "t", window_size=20) == [1, 1, 2, 2, 3]
    assert counts_in_window(["t", "e1", "e2", "t"], "t", window_size=3) == [1, 1, 1, 1]  # the first t slid out
    assert counts_in_window(["t", None, "t"], "t", window_size=2) == [1, 1, 2]  # an empty batch is not in the window


@given(st.lists(st.sampled_from(["a", "b", "c", None]), max_size=40), st.integers(1, 12))
def test_counts_in_window_matches_a_window_of_the_last_keyed_batches(fingerprints, window_size):
    counts = counts_in_window(fingerprints, "a", window_size)
    for index in range(len(fingerprints)):
        keyed = [f for f in fingerprints[: index + 1] if f is not None][-window_size:]
        assert counts[index] == keyed.count("a")


def test_the_followed_fingerprint_is_the_one_the_hash_layer_decided_on():
    assert followed_fingerprints(["e1", "t", "e2", "t"], [None, None, None, "t"]) == ["t"]
    assert followed_fingerprints(["b", "a", "b", "a", "a"], [None, None, None, "a", "a"]) == ["a"]  # not the first seen
    assert followed_fingerprints(["a", "b", "b", "a"], [None, None, "b", "a"]) == ["b", "a"]  # order of decisions
    assert followed_fingerprints(["a", "b", "b", "a"], [None] * 4) == ["a"]  # no decision: most often, first seen
    assert followed_fingerprints([None, None], [None, None]) == []
    assert followed_fingerprints(list("abcd"), list("abcd"), most=2) == ["a", "b"]


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="turn must be at most 17, got 18"):
        snapshot(edit_test_cycle(every=4, turns=25), turn=18)
    with pytest.raises(ValueError, match="batches must hold at least one batch"):
        snapshot([])
    with pytest.raises(TypeError, match="config must be a DetectorConfig"):
        snapshot(edit_test_cycle(every=4, turns=5), config={"window_size": 3})
    with pytest.raises(ValueError, match="every must be at least 1, got 0"):
        edit_test_cycle(every=0, turns=5)
