"""The operation-script language and the three-policy race, with expectations worked out by hand."""

import cachetools
import pytest
from hypothesis import given
from hypothesis import strategies as st

from loopkit.teaching.eviction_race import POLICIES, Op, parse_script, race_steps, race_table, run_script, step_rows

FIFO, LRU, CT = "BoundedDict (FIFO)", "LRUDict (LRU)", "cachetools.FIFOCache"
SEED = "set a 1; set b 2; set a 3; set c 4"
# Room for three: a, b, c in; overwrite a; read b; then d and e arrive.
THREE_WAY = "set a 1\nset b 2\nset c 3\nset a 4\nget b\nset d 5\nset e 6"


def test_installed_cachetools_is_the_pinned_version():
    assert cachetools.__version__ == "8.0.2"


def test_cachetools_fifocache_moves_an_overwritten_key_to_the_back():
    evicted = []

    class Recording(cachetools.FIFOCache):
        def popitem(self):
            pair = super().popitem()
            evicted.append(pair)
            return pair

    cache = Recording(maxsize=2)
    cache["a"], cache["b"] = 1, 2
    cache["a"] = 3  # an overwrite: FIFOCache treats it as a fresh insertion
    assert list(cache) == ["a", "b"]  # iteration still shows dict order, not eviction order
    cache["c"] = 4
    assert evicted == [("b", 2)] and dict(cache) == {"a": 3, "c": 4}
    _ = cache["a"]  # a read does not refresh
    cache["d"] = 5
    assert evicted == [("b", 2), ("a", 3)]


def test_parse_script_syntax():
    ops = parse_script("set a 1; get a\n  \n# a comment\nDEL a   # trailing comment\nset b x;")
    assert ops == [
        Op("set", "a", "1", line=1, position=1),
        Op("get", "a", None, line=1, position=2),
        Op("del", "a", None, line=4, position=1),
        Op("set", "b", "x", line=5, position=1),
    ]
    assert [str(op) for op in ops] == ["set a 1", "get a", "del a", "set b x"]
    assert parse_script("") == [] and parse_script(" ; ;\n") == []


@pytest.mark.parametrize(
    "script, message",
    [
        ("set a 1\nput b 2", "line 2: expected \"set KEY VALUE\", \"get KEY\" or \"del KEY\", got 'put b 2'"),
        ("set a", "line 1: expected \"set KEY VALUE\" (3 words), got 'set a'"),
        ("set a 1 2", "line 1: expected \"set KEY VALUE\" (3 words), got 'set a 1 2'"),
        ("set a 1\n\nget", "line 3: expected \"get KEY\" (2 words), got 'get'"),
        ("set a 1; del a b", "line 1, operation 2: expected \"del KEY\" (2 words), got 'del a b'"),
    ],
)
def test_malformed_operations_name_the_line_and_what_was_expected(script, message):
    with pytest.raises(ValueError) as info:
        parse_script(script)
    assert str(info.value) == message


def test_parse_script_rejects_a_non_string():
    with pytest.raises(TypeError, match="script must be a str"):
        parse_script(["set a 1"])


def test_seed_sequence_fifo_evicts_a_lru_evicts_b():
    runs = run_script(SEED, maxsize=2)
    assert runs[FIFO].items == (("b", "2"), ("c", "4")) and runs[FIFO].evicted == (("a", "3"),)
    assert runs[LRU].items == (("a", "3"), ("c", "4")) and runs[LRU].evicted == (("b", "2"),)
    assert runs[CT].items == (("a", "3"), ("c", "4")) and runs[CT].evicted == (("b", "2"),)


def test_all_three_policies_disagree_on_one_sequence():
    runs = run_script(THREE_WAY, maxsize=3)
    assert {name: (run.keys, run.evicted_keys) for name, run in runs.items()} == {
        FIFO: (("c", "d", "e"), ("a", "b")),
        LRU: (("b", "d", "e"), ("c", "a")),
        CT: (("a", "d", "e"), ("b", "c")),
    }


def test_steps_record_the_order_after_each_operation():
    steps = run_script(THREE_WAY, maxsize=3)[CT].steps
    assert [step.keys for step in steps] == [
        ("a",), ("a", "b"), ("a", "b", "c"), ("b", "c", "a"), ("b", "c", "a"), ("c", "a", "d"), ("a", "d", "e"),
    ]
    assert [step.evicted for step in steps] == [(), (), (), (), (), ("b",), ("c",)]
    lru = run_script(THREE_WAY, maxsize=3)[LRU].steps
    assert lru[4].keys == ("c", "a", "b")  # the read of b refreshed it


def test_deletion_is_not_an_eviction_and_missing_keys_are_harmless():
    runs = run_script("set a 1; set b 2; del a; del zz; get zz; set c 3", maxsize=2)
    for run in runs.values():
        assert run.keys == ("b", "c") and run.evicted == ()


def test_maxsize_and_policy_names_are_validated():
    for bad in (0, -1):
        with pytest.raises(ValueError, match=f"maxsize must be at least 1, got {bad}"):
            run_script(SEED, bad)
    for bad in (2.5, True, "2"):
        with pytest.raises(TypeError, match="maxsize must be an int"):
            run_script(SEED, bad)
    with pytest.raises(ValueError, match="policies: unknown \\['LFU'\\]"):
        run_script(SEED, 2, policies=["LFU"])
    assert list(run_script(SEED, 2, policies=[LRU])) == [LRU]


def test_race_table():
    table = race_table(THREE_WAY, 3)
    assert list(table.index) == [FIFO, LRU, CT] and table.index.name == "policy"
    assert table.to_dict(orient="list") == {
        "keys, next to evict first": ["c d e", "b d e", "a d e"],
        "evicted": ["a b", "c a", "b c"],
    }
    assert race_table("get a", 1).loc[FIFO].tolist() == ["-", "-"]


def test_race_steps_and_step_rows():
    rows = step_rows(SEED, 2)
    assert rows[-1] == {"#": 4, "operation": "set c 4", FIFO: "b c  (evicts a)", LRU: "a c  (evicts b)",
                        CT: "a c  (evicts b)"}
    assert rows[2][FIFO] == "a b" and rows[2][LRU] == "b a"
    frame = race_steps(SEED, 2)
    assert list(frame.columns) == ["operation", FIFO, LRU, CT] and list(frame.index) == [1, 2, 3, 4]


class Reference:
    """A list of [key, value] pairs, front = next to evict, with one switch per policy difference."""

    def __init__(self, maxsize, refresh_on_write, refresh_on_read):
        self.maxsize, self.write, self.read = maxsize, refresh_on_write, refresh_on_read
        self.pairs, self.evicted = [], []

    def _find(self, key):
        return next((i for i, pair in enumerate(self.pairs) if pair[0] == key), None)

    def apply(self, verb, key, value):
        i = self._find(key)
        if verb == "set":
            if i is None:
                if len(self.pairs) == self.maxsize:
                    self.evicted.append(tuple(self.pairs.pop(0)))
                self.pairs.append([key, value])
            elif self.write:
                self.pairs.pop(i)
                self.pairs.append([key, value])
            else:
                self.pairs[i][1] = value
        elif verb == "get" and i is not None and self.read:
            self.pairs.append(self.pairs.pop(i))
        elif verb == "del" and i is not None:
            self.pairs.pop(i)


REFERENCES = {FIFO: (False, False), LRU: (True, True), CT: (True, False)}
operations = st.lists(
    st.tuples(st.sampled_from(["set", "get", "del"]), st.sampled_from("abcdef"), st.integers(0, 9)), max_size=40
)


@given(maxsize=st.integers(1, 4), ops=operations)
def test_every_policy_matches_its_reference_model(maxsize, ops):
    script = "\n".join(f"{verb} {key} {value}" if verb == "set" else f"{verb} {key}" for verb, key, value in ops)
    runs = run_script(script, maxsize)
    assert list(runs) == list(POLICIES)
    for name, (write, read) in REFERENCES.items():
        ref = Reference(maxsize, write, read)
        for verb, key, value in ops:
            ref.apply(verb, key, str(value))
        assert [list(pair) for pair in runs[name].items] == ref.pairs, name
        assert list(runs[name].evicted) == ref.evicted, name



def test_the_tables_speak_spanish_and_keep_the_policy_names(spanish):
    table = race_table(THREE_WAY, 3)
    assert list(table.index) == [FIFO, LRU, CT] and table.index.name == "política"
    assert table.to_dict(orient="list") == {"claves, en orden de expulsión": ["c d e", "b d e", "a d e"],
                                            "expulsadas": ["a b", "c a", "b c"]}
    frame = race_steps(SEED, 2)
    assert list(frame.columns) == ["operación", FIFO, LRU, CT] and frame.index.name == "#"
    assert frame.loc[4].tolist() == ["set c 4", "b c  (expulsa a)", "a c  (expulsa b)", "a c  (expulsa b)"]
    assert step_rows(SEED, 2)[-1]["operation"] == "set c 4"  # the rows' keys stay English: code reads them
