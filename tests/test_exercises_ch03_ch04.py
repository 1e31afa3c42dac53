"""The reference answers of chapters 03 and 04 agree with loopkit on the data the notebooks show."""

import json
import math

from loopkit import BoundedDict, LRUDict, call_entry, fingerprint
from loopkit.collisions import expected_tries, prefix_bits
from loopkit.exercises import ch03, ch04
from loopkit.eviction_race import run_script


def call(name, **args):
    return {"name": name, "args": args}


def test_3_1_five_batches_have_three_fingerprints():
    prints = {name: fingerprint(list(batch)) for name, batch in ch03.BATCHES.items()}
    assert prints["A"] == prints["B"] == prints["C"]
    assert len(set(prints.values())) == ch03.q2.solution_value == 3
    # the slips: every batch as written differs; de-duplicating the entries would merge D into A
    assert len({json.dumps(batch) for batch in ch03.BATCHES.values()}) == 5 and 5 in ch03.q2.wrong_answers
    deduplicated = {tuple(sorted(set(call_entry(c) for c in batch))) for batch in ch03.BATCHES.values()}
    assert len(deduplicated) == 2 and 2 in ch03.q2.wrong_answers


def test_3_1_batches_match_the_table_in_the_chapter():
    read = call("read_file", path="a.py", start_line=1, end_line=50)
    tests = call("bash", command="pytest")
    assert ch03.BATCHES["A"] == (read, tests)
    assert ch03.BATCHES["D"] == (read, tests, tests)
    assert ch03.BATCHES["E"][0] == call("read_file", path="a.py", start_line=150, end_line=250)


def test_3_2_solution_is_entry_equality():
    a, b = call("bash", command="ls"), call("bash", command="ls", timeout=5)
    assert ch03.same_action(a, b) is (call_entry(a) == call_entry(b)) is True


def test_3_3_bits_and_birthday_power_come_from_the_collision_model():
    bits = prefix_bits(10)
    assert (bits, round(math.log2(expected_tries(bits)))) == ch03.q4.solution_value == (40, 20)
    assert (bits, bits) in ch03.q4.wrong_answers  # labels counted, birthday bound missed


def test_3_4_run_sql_calls_collapse_to_one_action():
    assert ch03.SQL_CALLS[2] == call("run_sql", query="SELECT * FROM orders WHERE id = ?", params=[3])
    assert len({call_entry(c) for c in ch03.SQL_CALLS}) == ch03.q1.solution_value == 1
    every_argument = {json.dumps(c["args"], sort_keys=True) for c in ch03.SQL_CALLS}
    assert len(every_argument) == 3 and 3 in ch03.q1.wrong_answers  # the "every argument counts" slip


def test_4_1_lru_evicts_y_and_fifo_evicts_x():
    runs = run_script(ch04.READ_BEFORE_FLOOD, 2)
    assert runs["LRUDict (LRU)"].evicted_keys == (ch04.q1.solution_value,) == ("y",)
    fifo = runs["BoundedDict (FIFO)"].evicted_keys
    assert fifo == ("x",) and fifo[0] in ch04.q1.wrong_answers  # the slip of reading LRU as FIFO


def test_4_2_fifocache_keeps_p_r_while_the_other_two_keep_q_r():
    runs = run_script(ch04.OVERWRITE_THEN_READ, 2)
    assert runs["cachetools.FIFOCache"].keys == ch04.q3.solution_value == ("p", "r")
    others = runs["BoundedDict (FIFO)"].keys
    assert others == runs["LRUDict (LRU)"].keys == ("q", "r") and others in ch04.q3.wrong_answers


def test_4_4_fifo_keeps_one_turn_of_the_busy_thread_and_lru_all_five():
    assert ch04.flood(BoundedDict) == (ch04.q2.solution_value, ["long", "s1", "s2"]) == (1, ["long", "s1", "s2"])
    remembered, evicted = ch04.flood(LRUDict)
    assert (remembered, evicted) == (5, ["s1", "s2"]) and remembered in ch04.q2.wrong_answers  # LRU's answer


def test_4_3_solution_matches_an_lru_dict_directly():
    evicted = []
    d = LRUDict(2, on_evict=lambda k, v: evicted.append(k))
    for i, key in enumerate("abacb"):
        d[key] = i
    assert ch04.lru_evictions(list("abacb"), 2) == evicted == ["b", "a"]


def test_4_3_accepts_the_eviction_log_as_a_tuple_but_keeps_its_order():
    def as_tuple(writes, maxsize):
        return tuple(ch04.lru_evictions(writes, maxsize))

    assert ch04.q4.verify(as_tuple).ok
    assert ch04.q4.verify(lambda writes, maxsize: ("b",)).explanation == (
        "For input (['a', 'b', 'c', 'd'], 2) it returned ['b'], expected ['a', 'b']."
    )
    assert ch04.q4.verify(lambda writes, maxsize: {"b"}).status == "incorrect"  # a set has no order
    assert ch04.q4.verify(("b",)).explanation == "This exercise wants a function, got tuple."
