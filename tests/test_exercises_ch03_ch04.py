"""The answers of chapters 03 and 04 come from loopkit, and each listed slip is what a plausible wrong rule gives."""

import json
import math

from loopkit import BoundedDict, LRUDict, call_entry, fingerprint, read_bucket
from loopkit.teaching.collisions import calls_for_probability, prefix_bits
from loopkit.teaching.eviction_race import POLICIES, run_script
from loopkit.teaching.exercises import ch03, ch04


def call(name, **args):
    return {"name": name, "args": args}


# --- chapter 03 ---------------------------------------------------------------------------------------------------

def test_3_1_three_run_sql_lookups_are_one_action():
    assert ch03.SQL_CALLS[2] == call("run_sql", query="SELECT * FROM orders WHERE id = ?", params=[3])
    assert len({call_entry(c) for c in ch03.SQL_CALLS}) == ch03.q1.solution_value == 1
    every_argument = {json.dumps(c["args"], sort_keys=True) for c in ch03.SQL_CALLS}
    assert len(every_argument) == 3 and 3 in ch03.q1.wrong_answers  # the "every argument counts" slip


def test_3_2_five_batches_have_three_fingerprints():
    prints = {name: fingerprint(list(batch)) for name, batch in ch03.BATCHES.items()}
    assert prints["A"] == prints["B"] == prints["C"]
    assert len(set(prints.values())) == ch03.q2.solution_value == 3


def entries(batch, key=call_entry):
    return [key(c) for c in batch]


def test_3_2_each_listed_slip_is_a_wrong_rule():
    batches = ch03.BATCHES.values()
    # every batch as written differs
    assert len({json.dumps(batch) for batch in batches}) == 5 and 5 in ch03.q2.wrong_answers
    # the order of the calls counted (entries not sorted), or the description counted (every argument of bash)
    def every_argument(c):
        return call_entry(c) if c["name"] == "read_file" else json.dumps(c, sort_keys=True)

    unsorted = {tuple(entries(batch)) for batch in batches}
    described = {tuple(sorted(entries(batch, every_argument))) for batch in batches}
    assert len(unsorted) == len(described) == 4 and 4 in ch03.q2.wrong_answers

    def start_bucket(c):  # the read keyed by the bucket of its first line only
        args = c["args"]
        return read_bucket(args["path"], args["start_line"]) if c["name"] == "read_file" else call_entry(c)

    # the entries de-duplicated (D merges into A), or a read keyed by its start only (E merges into A)
    deduplicated = {tuple(sorted(set(entries(batch)))) for batch in batches}
    by_start = {tuple(sorted(entries(batch, start_bucket))) for batch in batches}
    assert len(deduplicated) == len(by_start) == 2 and 2 in ch03.q2.wrong_answers
    both = {tuple(sorted(set(entries(batch, start_bucket)))) for batch in batches}
    assert len(both) == 1 and 1 in ch03.q2.wrong_answers


def test_3_3_each_case_expects_what_call_entry_says():
    for case in ch03.q3.cases:
        call_a, call_b = case.args
        assert case.expected is (call_entry(call_a) == call_entry(call_b)), case.idea
    a, b = call("bash", command="ls"), call("bash", command="ls", timeout=5)
    assert ch03.same_action(a, b) is (call_entry(a) == call_entry(b)) is True


def test_3_3_the_wrong_functions_that_passed_before_fail_on_the_cases_added_for_them():
    fallback = ch03.q3.verify(ch03._salient_without_fallback).explanation
    assert "a tool with no salient field is keyed by all of its arguments" in fallback
    none_kept = ch03.q3.verify(ch03._salient_none_kept).explanation
    assert "a salient field whose value is None is left out of the key" in none_kept
    without_name = ch03.q3.verify(ch03._same_key_any_tool).explanation
    assert "the tool name is part of the entry" in without_name


def test_3_4_bits_and_birthday_power_come_from_the_collision_model():
    bits = prefix_bits(10)
    power = round(math.log2(calls_for_probability(0.5, bits)))
    assert (bits, power) == ch03.q4.solution_value == (40, 20)
    wrong = ch03.q4.wrong_answers
    assert (bits, bits) in wrong                                 # labels counted, birthday bound missed
    assert (bits, bits - 1) in wrong                             # "half of the labels"
    assert (bits, 2 ** power) in wrong                           # the number itself, not its power
    full = prefix_bits(12)
    assert (full, round(math.log2(calls_for_probability(0.5, full)))) in wrong  # the chapter's 12-character numbers
    assert (bits, full // 2) in wrong                            # the chapter's power kept
    for bits_per_char in (1, 2, 8):                               # a hex character read as 1, 2 or 8 bits
        assert (10 * bits_per_char, 10 * bits_per_char // 2) in wrong


# --- chapter 04 ---------------------------------------------------------------------------------------------------

def test_4_1_lru_evicts_y_and_fifo_evicts_x():
    runs = run_script(ch04.READ_BEFORE_FLOOD, 2)
    assert runs["LRUDict (LRU)"].evicted_keys == (ch04.q1.solution_value,) == ("y",)
    fifo = runs["BoundedDict (FIFO)"].evicted_keys
    assert fifo == ("x",) and fifo[0] in ch04.q1.wrong_answers  # the slip of reading LRU as FIFO
    first_example = run_script("set a 1; set b 2; set a 3; set c 4", 2)  # the chapter's first example
    assert first_example["LRUDict (LRU)"].evicted_keys == ("b",) and "b" in ch04.q1.wrong_answers


def test_4_2_fifo_keeps_one_turn_of_the_busy_thread_and_lru_all_five():
    assert ch04.flood(BoundedDict) == (ch04.q2.solution_value, ["long", "s1", "s2"]) == (1, ["long", "s1", "s2"])
    remembered, evicted = ch04.flood(LRUDict)
    assert (remembered, evicted) == (5, ["s1", "s2"]) and remembered in ch04.q2.wrong_answers  # LRU's answer


def test_4_2_the_turns_lost_with_the_eviction_are_a_listed_slip():
    lost_turns = []

    class Recording(BoundedDict):
        def __init__(self, maxsize, on_evict):
            super().__init__(maxsize, on_evict=lambda key, value: (lost_turns.append((key, value)), on_evict(key, value)))

    ch04.flood(Recording)
    assert lost_turns[0] == ("long", 4) and 4 in ch04.q2.wrong_answers  # what it had when it was evicted


def evicted_by_policy(step):
    return {name: run.evicted_keys for name, run in run_script(ch04.ONE_STEP.format(step=step), 2).items()}


#: Every one-operation blank on the keys of 4.3 and one more: set (any value), get and del of p, q, r and s.
BLANKS = [f"{verb} {key}" + (" 9" if verb == "set" else "") for key in "pqrs" for verb in ("set", "get", "del")]


def apart(step, other):
    evicted = evicted_by_policy(step)
    return evicted["cachetools.FIFOCache"] != evicted[other]


def test_4_3_one_overwrite_and_one_read_of_p_set_fifocache_apart():
    assert set(POLICIES) == {"BoundedDict (FIFO)", "LRUDict (LRU)", "cachetools.FIFOCache"}
    assert evicted_by_policy("get s") == dict.fromkeys(POLICIES, ("p",))  # a blank that changes nothing: p goes
    from_fifo = [step for step in BLANKS if apart(step, "BoundedDict (FIFO)")]
    from_lru = [step for step in BLANKS if apart(step, "LRUDict (LRU)")]
    assert (from_fifo, from_lru) == (["set p 9"], ["get p"])
    assert ch04.q3.verify((from_fifo[0], from_lru[0])).ok
    assert ch04._operations(ch04.q3.solution_value) == ch04._operations((from_fifo[0], from_lru[0]))


def test_4_3_each_listed_slip_fails_the_race():
    for first, second in ch04.q3.wrong_answers:
        assert not (apart(first, "BoundedDict (FIFO)") and apart(second, "LRUDict (LRU)")), (first, second)


def test_4_3_reads_an_operation_however_it_is_written():
    for spelling in [("set p 7", "get p"), ["SET p 1;", " get  p "], ("set p", "GET p")]:
        assert ch04.q3.verify(spelling).ok, spelling
    assert not ch04.q3.verify(("set q 7", "get p")).ok
    assert ch04.q3.verify("set p 3, get p").ok                  # the pair typed as one string, with its comma
    assert not ch04.q3.verify("set p 3 get p").ok and not ch04.q3.verify("set p 3").ok


def direct_lru_log(writes, maxsize):
    """The LRU eviction log by another road: the eviction race plays the writes as a script."""
    script = "\n".join(f"set {key} {i}" for i, key in enumerate(writes))
    return list(run_script(script, maxsize, policies=["LRUDict (LRU)"])["LRUDict (LRU)"].evicted_keys)


def test_4_4_each_case_expects_what_an_lru_dict_evicts():
    for case in ch04.q4.cases:
        assert case.expected == direct_lru_log(*case.args), case.idea
    assert ch04.lru_evictions(list("abacb"), 2) == direct_lru_log(list("abacb"), 2) == ["b", "a"]


def test_4_4_the_overwrite_case_tells_lru_from_fifo():
    overwrite = next(case for case in ch04.q4.cases if "refreshes" in case.idea)
    script = "\n".join(f"set {key} {i}" for i, key in enumerate(overwrite.args[0]))
    assert run_script(script, 2)["BoundedDict (FIFO)"].evicted_keys != tuple(overwrite.expected)


def test_4_4_accepts_the_eviction_log_as_a_tuple_but_keeps_its_order():
    def as_tuple(writes, maxsize):
        return tuple(ch04.lru_evictions(writes, maxsize))

    assert ch04.q4.verify(as_tuple).ok
    wrong_order = ch04.q4.verify(lambda writes, maxsize: tuple(sorted(ch04.lru_evictions(writes, maxsize))))
    assert wrong_order.status == "incorrect" and "in the order they happen" in wrong_order.explanation
    assert ch04.q4.verify(lambda writes, maxsize: set(ch04.lru_evictions(writes, maxsize))).status == "incorrect"
    assert ch04.q4.verify(("b",)).explanation == "This exercise wants a function, got tuple."
