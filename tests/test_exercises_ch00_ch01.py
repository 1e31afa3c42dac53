"""Chapters 00 and 01: the reference answers agree with loopkit, and the checks accept every fair way to write them."""

from loopkit import fingerprint, normalize_args
from loopkit.exercises import ch00, ch01


def test_0_2_first_repeat_is_turn_5():
    first_seen = {}
    repeats = [turn for turn, call in enumerate(ch00.TRACE_2, start=1) if first_seen.setdefault(call, turn) != turn]
    assert repeats == [5, 6] and ch00.q2.solution_value == 5


def test_0_3_candidates_a_and_d_share_the_fingerprint_of_the_tests_call():
    target = fingerprint([ch00.TESTS_CALL])
    assert target == "d8d221b7cc5a"  # chapter 00's stuck run, turn 2
    same = {letter for letter, call in ch00.CANDIDATES.items() if fingerprint([call]) == target}
    assert same == ch00.q3.solution_value == {"A", "D"}


def test_0_3_accepts_the_letters_in_any_spelling():
    for answer in ("AD", "DA", "a, d", ["A", "D"], ("d", "a"), {"A", "D"}, frozenset("ad")):
        assert ch00.q3.verify(answer).ok, answer
    for answer in ("A", "ABD", ["A", "B", "D"], set()):
        assert ch00.q3.verify(answer).status == "incorrect", answer
    assert "Could not read your answer 4" in ch00.q3.verify(4).explanation


def test_1_1_accepts_the_pair_as_a_tuple_or_a_list():
    assert normalize_args("[1,2,3]") == ({}, "[1, 2, 3]")
    assert ch01.q1.verify(({}, "[1, 2, 3]")).ok
    assert ch01.q1.verify([{}, "[1, 2, 3]"]).ok
    assert ch01.q1.verify([{}, "[1,2,3]"]).status == "incorrect"
    assert ch01.q1.verify('({}, "[1, 2, 3]")').status == "incorrect"  # the text of the pair is not the pair
