"""The reference answers of chapters 03 and 04 agree with loopkit on the data the notebooks show."""

from loopkit import LRUDict, call_entry, fingerprint
from loopkit.exercises import ch03, ch04
from loopkit.eviction_race import run_script


def call(name, **args):
    return {"name": name, "args": args}


def test_3_1_five_batches_have_three_fingerprints():
    read = call("read_file", path="a.py", start_line=1, end_line=50)
    tests = call("bash", command="pytest")
    batches = {
        "A": [read, tests],
        "B": [tests, call("read_file", path="a.py", start_line=20, end_line=80)],
        "C": [read, call("bash", command="pytest", description="again")],
        "D": [read, tests, tests],
        "E": [call("read_file", path="a.py", start_line=150, end_line=250), tests],
    }
    prints = {name: fingerprint(batch) for name, batch in batches.items()}
    assert prints["A"] == prints["B"] == prints["C"]
    assert len({prints["A"], prints["D"], prints["E"]}) == 3
    assert ch03.q1.solution_value == 3


def test_3_2_solution_is_entry_equality():
    a, b = call("bash", command="ls"), call("bash", command="ls", timeout=5)
    assert ch03.same_action(a, b) is (call_entry(a) == call_entry(b)) is True


def test_3_4_run_sql_calls_collapse_to_one_action():
    calls = [call("run_sql", query="SELECT * FROM orders WHERE id = ?", params=[n]) for n in (1, 2, 3)]
    assert len({call_entry(c) for c in calls}) == ch03.q4.solution_value == 1


def test_4_1_and_4_2_agree_with_the_policies():
    runs = run_script("set x 1; set y 2; get x; set z 3", 2)
    assert runs["LRUDict (LRU)"].evicted_keys == (ch04.q1.solution_value,)
    assert runs["BoundedDict (FIFO)"].evicted_keys == ("x",)  # the wrong answer it mentions
    runs = run_script("set x 1; set y 2; set x 3; get y; set z 4", 2)
    assert runs["cachetools.FIFOCache"].keys == ch04.q2.solution_value
    assert runs["BoundedDict (FIFO)"].keys == runs["LRUDict (LRU)"].keys == ("y", "z")


def test_4_3_solution_matches_an_lru_dict_directly():
    evicted = []
    d = LRUDict(2, on_evict=lambda k, v: evicted.append(k))
    for i, key in enumerate("abacb"):
        d[key] = i
    assert ch04.lru_evictions(list("abacb"), 2) == evicted == ["b", "a"]


def test_4_3_accepts_the_eviction_log_as_a_tuple_but_keeps_its_order():
    def as_tuple(writes, maxsize):
        return tuple(ch04.lru_evictions(writes, maxsize))

    assert ch04.q3.verify(as_tuple).ok
    assert ch04.q3.verify(lambda writes, maxsize: ("b",)).explanation == (
        "For input (['a', 'b', 'c', 'd'], 2) it returned ['b'], expected ['a', 'b']."
    )
    assert ch04.q3.verify(lambda writes, maxsize: {"b"}).status == "incorrect"  # a set has no order
    assert ch04.q3.verify(("b",)).explanation == "This exercise wants a function, got tuple."
