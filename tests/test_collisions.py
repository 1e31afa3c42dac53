"""Birthday-bound numbers and the prefix-collision search, checked against hand arithmetic and plain hashlib."""

import hashlib
import json
import math

import pytest

from loopkit import fingerprint
from loopkit.teaching.collisions import (
    birthday_rows,
    calls_for_probability,
    collision_probability,
    expected_match_tries,
    expected_tries,
    find_prefix_collision,
    match_tries_for_probability,
    numbered_batches,
    prefix_bits,
)


def md5_of_bash_echo(i):
    """The fingerprint of [bash "echo i"], computed from the policy with hashlib alone."""
    entries = ['bash:{"command": "echo %d"}' % i]
    return hashlib.md5(json.dumps(entries).encode()).hexdigest()[:12]


def test_bits_per_prefix():
    assert [prefix_bits(n) for n in (1, 6, 12)] == [4, 24, 48]
    for bad, says in ((0, "at least 1, got 0"), (13, "at most 12, got 13")):
        with pytest.raises(ValueError, match=f"hex_chars must be {says}"):
            prefix_bits(bad)
    for bad in (2.0, True, "6"):
        with pytest.raises(TypeError, match="hex_chars must be an int"):
            prefix_bits(bad)


def test_birthday_numbers_for_twelve_hex_characters():
    # sqrt(2 ln 2) = 1.17741..., so the 50 % point is 1.17741 * 2**24 = 19,753,662.3
    assert calls_for_probability(0.5, 48) == pytest.approx(19_753_662.3, abs=1)
    # sqrt(pi / 2) = 1.25331..., so the mean first collision is at 1.25331 * 2**24 = 21,027,121.6
    assert expected_tries(48) == pytest.approx(21_027_121.6, abs=1)
    assert expected_tries(24) == pytest.approx(5_133.57, abs=0.01)
    # 1,000 batches: 1000 * 999 / 2**49 = 1.7746e-9
    assert collision_probability(1_000, 48) == pytest.approx(1.7746e-9, rel=1e-4)
    assert collision_probability(0, 48) == collision_probability(1, 48) == 0.0
    assert collision_probability(2**20, 24) == pytest.approx(1.0)


def test_birthday_rows():
    rows = birthday_rows([6, 12], batches=1_000)
    assert [(r["hex chars"], r["bits"], r["labels"], r["batches for 50 %"]) for r in rows] == [
        (6, 24, 16_777_216, 4_823),
        (12, 48, 281_474_976_710_656, 19_753_662),
    ]
    # 1,000 batches among 2**24 labels: 1 - exp(-999000 / 2**25) = 0.02933
    assert rows[0]["P(collision), 1,000 batches"] == pytest.approx(0.02933, abs=1e-5)


@pytest.mark.parametrize(
    "call, arg, error, message",
    [
        (collision_probability, (-1, 48), ValueError, "n must be at least 0, got -1"),
        (collision_probability, (10, 0), ValueError, "bits must be at least 1, got 0"),
        (calls_for_probability, (1.0, 48), ValueError, "p must be less than 1, got 1.0"),
        (calls_for_probability, (0, 48), ValueError, "p must be more than 0, got 0"),
        (expected_tries, ("48",), TypeError, "bits must be an int, got str"),
    ],
)
def test_bad_arguments_are_named(call, arg, error, message):
    with pytest.raises(error, match=message):
        call(*arg)


def test_numbered_batches_are_the_fixed_enumeration():
    batches = numbered_batches()
    assert [next(batches) for _ in range(2)] == [
        [{"name": "bash", "args": {"command": "echo 0"}}],
        [{"name": "bash", "args": {"command": "echo 1"}}],
    ]
    assert next(numbered_batches("web_search", "query", "q{i}")) == [{"name": "web_search", "args": {"query": "q0"}}]


@pytest.mark.parametrize("hex_chars", [2, 4, 6])
def test_search_finds_the_first_prefix_collision_of_the_enumeration(hex_chars):
    hit = find_prefix_collision(hex_chars)
    # The reference: hash echo 0, echo 1, ... with hashlib and stop at the first repeated prefix.
    seen = {}
    for i in range(10**6):
        prefix = md5_of_bash_echo(i)[:hex_chars]
        if prefix in seen:
            break
        seen[prefix] = i
    first, second = seen[prefix], i
    assert hit.tries == second + 1
    assert hit.first == [{"name": "bash", "args": {"command": f"echo {first}"}}]
    assert hit.second == [{"name": "bash", "args": {"command": f"echo {second}"}}]
    assert hit.first_fingerprint == md5_of_bash_echo(first) and hit.second_fingerprint == md5_of_bash_echo(second)
    assert hit.prefix == prefix and hit.first_fingerprint != hit.second_fingerprint


def test_six_hex_collision_is_deterministic_and_far_below_the_full_fingerprint():
    a, b = find_prefix_collision(6), find_prefix_collision(6)
    assert a == b
    assert a.tries < 50_000  # the birthday bound for 24 bits is about 5,000; 12 hex would need ~21 million
    assert fingerprint(a.first)[:6] == fingerprint(a.second)[:6] and fingerprint(a.first) != fingerprint(a.second)


def test_repeats_of_the_same_action_are_not_collisions():
    call = {"name": "bash", "args": {"command": "ls", "description": "first"}}
    same_action = {"name": "bash", "args": '{"command": "ls", "description": "again"}'}
    # Same entries, so the same full fingerprint: a repeat, which the search must skip rather than report.
    assert find_prefix_collision(12, [[call], [same_action], [call], [call, call]]) is None
    others = [[{"name": str(i)}] for i in range(40)]
    hit = find_prefix_collision(1, [[call], [same_action], [call, call]] + others)
    assert (hit.first, hit.second) != ([call], [same_action])


def test_search_gives_up_after_max_tries_or_when_the_batches_run_out():
    assert find_prefix_collision(12, max_tries=1_000) is None
    assert find_prefix_collision(6, [[{"name": "a"}], [{"name": "b"}]]) is None
    with pytest.raises(ValueError, match="max_tries must be at least 1, got 0"):
        find_prefix_collision(6, max_tries=0)
    with pytest.raises(ValueError, match="hex_chars"):
        find_prefix_collision(13)


def test_expected_tries_matches_the_formula():
    assert expected_tries(16) == pytest.approx(math.sqrt(math.pi / 2) * 256)


def test_matching_a_given_fingerprint_takes_about_two_to_the_bits_tries():
    # one given label among 2**48: each try hits with chance 2**-48, so the mean wait is 2**48 tries
    assert expected_match_tries(48) == 2**48 == 281_474_976_710_656
    assert expected_match_tries(4) == 16
    # 50 %: n = ln 2 / -ln(1 - 2**-48) = 0.693147... * 2**48 = 195,103,586,505,167 (to within a few tries)
    assert match_tries_for_probability(0.5, 48) == pytest.approx(195_103_586_505_167, abs=10)
    # 4 bits, 50 %: ln 2 / -ln(15/16) = 10.74
    assert match_tries_for_probability(0.5, 4) == pytest.approx(10.740, abs=1e-3)
    # far more work than finding *some* pair: 2**48 / (sqrt(pi / 2) * 2**24) = 2**24 / 1.25331 = 13,386,281.6
    assert expected_match_tries(48) / expected_tries(48) == pytest.approx(13_386_281.6, abs=1)


@pytest.mark.parametrize(
    "call, args, error, message",
    [
        (expected_match_tries, (0,), ValueError, "bits must be at least 1, got 0"),
        (match_tries_for_probability, (1.0, 48), ValueError, "p must be less than 1, got 1.0"),
        (match_tries_for_probability, (0.5, True), TypeError, "bits must be an int, got bool"),
    ],
)
def test_match_numbers_refuse_bad_arguments(call, args, error, message):
    with pytest.raises(error, match=message):
        call(*args)



def test_birthday_rows_are_headed_in_spanish(spanish):
    row = birthday_rows([6], batches=1_000)[0]
    assert list(row) == ["dígitos hex", "bits", "etiquetas", "lotes al 50 %", "intentos medios",
                         "P(colisión), 1,000 lotes"]
    assert row["lotes al 50 %"] == 4_823 and row["P(colisión), 1,000 lotes"] == pytest.approx(0.02933, abs=1e-5)
