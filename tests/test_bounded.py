"""BoundedDict (FIFO) and LRUDict: chapter 04's sequences, the API edges, and a reference-model property."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loopkit import BoundedDict, LRUDict


def seed_sequence(cls):
    evicted = []
    d = cls(2, on_evict=lambda k, v: evicted.append((k, v)))
    d["a"] = 1
    d["b"] = 2
    d["a"] = 10
    d["c"] = 3
    return d, evicted


def test_fifo_update_does_not_refresh():
    d, evicted = seed_sequence(BoundedDict)
    assert evicted == [("a", 10)]
    assert list(d.items()) == [("b", 2), ("c", 3)]


def test_lru_update_refreshes():
    d, evicted = seed_sequence(LRUDict)
    assert evicted == [("b", 2)]
    assert list(d.items()) == [("a", 10), ("c", 3)]


def test_lru_reads_refresh_but_membership_len_and_iteration_do_not():
    d = LRUDict(2)
    d["a"], d["b"] = 1, 2
    assert "a" in d and len(d) == 2 and list(d) == ["a", "b"] and list(d.values()) == [1, 2]
    d["c"] = 3  # "a" was only looked at with `in`, len and iteration: it is still least recent
    assert list(d) == ["b", "c"]
    assert d["b"] == 2
    d["d"] = 4
    assert list(d) == ["b", "d"]
    assert d.get("b") == 2 and d.get("zzz", "dflt") == "dflt"
    d["e"] = 5
    assert list(d) == ["b", "e"]
    assert d.peek("b") == 2 and d.peek("nope", 0) == 0
    d["f"] = 6  # peek is not a use: "b" was least recent and goes
    assert list(d) == ["e", "f"]


def test_fifo_reads_never_reorder():
    d = BoundedDict(2)
    d["a"], d["b"] = 1, 2
    assert d["a"] == 1 and d.get("a") == 1
    d["c"] = 3
    assert list(d) == ["b", "c"]


@pytest.mark.parametrize("cls", [BoundedDict, LRUDict])
def test_validation(cls):
    with pytest.raises(ValueError, match="maxsize must be at least 1, got 0"):
        cls(0)
    with pytest.raises(TypeError, match="maxsize must be an int"):
        cls("3")
    with pytest.raises(TypeError, match="on_evict must be callable"):
        cls(3, on_evict="print")


@pytest.mark.parametrize("cls", [BoundedDict, LRUDict])
def test_mapping_api(cls):
    d = cls(3)
    d.update({"a": 1, "b": 2})
    assert d == {"a": 1, "b": 2}
    del d["a"]
    assert d.pop("b") == 2 and len(d) == 0
    with pytest.raises(KeyError):
        d["missing"]
    d["x"], d["y"] = 1, 2
    assert d.popitem() == ("x", 1)
    d.clear()
    assert len(d) == 0 and d.maxsize == 3
    assert repr(cls(2)) == f"{cls.__name__}(maxsize=2, {{}})"


@pytest.mark.parametrize("cls", [BoundedDict, LRUDict])
def test_a_raising_callback_leaves_the_dict_consistent(cls):
    def boom(key, value):
        raise RuntimeError(f"evicted {key}")

    d = cls(1, on_evict=boom)
    d["a"] = 1
    with pytest.raises(RuntimeError, match="evicted a"):
        d["b"] = 2
    assert list(d.items()) == [("b", 2)]


class Reference:
    """A plain list of [key, value] pairs, front = next to evict: the obvious model of each policy."""

    def __init__(self, maxsize, lru):
        self.maxsize, self.lru, self.pairs, self.evicted = maxsize, lru, [], []

    def _index(self, key):
        return next((i for i, (k, _) in enumerate(self.pairs) if k == key), None)

    def set(self, key, value):
        i = self._index(key)
        if i is not None:
            if self.lru:
                self.pairs.append([key, value])
                del self.pairs[i]
            else:
                self.pairs[i][1] = value
            return
        if len(self.pairs) == self.maxsize:
            self.evicted.append(tuple(self.pairs.pop(0)))
        self.pairs.append([key, value])

    def get(self, key):
        i = self._index(key)
        if i is None:
            return None
        pair = self.pairs[i]
        if self.lru:
            del self.pairs[i]
            self.pairs.append(pair)
        return pair[1]

    def delete(self, key):
        i = self._index(key)
        if i is not None:
            del self.pairs[i]


operations = st.lists(
    st.tuples(st.sampled_from(["set", "get", "getitem", "contains", "delete"]), st.integers(0, 6), st.integers()),
    max_size=60,
)


@pytest.mark.parametrize("cls, lru", [(BoundedDict, False), (LRUDict, True)])
@given(maxsize=st.integers(1, 5), ops=operations)
def test_matches_reference_model(cls, lru, maxsize, ops):
    evicted = []
    d = cls(maxsize, on_evict=lambda k, v: evicted.append((k, v)))
    ref = Reference(maxsize, lru)
    for op, key, value in ops:
        if op == "set":
            d[key] = value
            ref.set(key, value)
        elif op == "get":
            assert d.get(key) == ref.get(key)
        elif op == "getitem" and key in d:
            assert d[key] == ref.get(key)
        elif op == "contains":
            assert (key in d) == (ref._index(key) is not None)
        elif op == "delete" and key in d:
            del d[key]
            ref.delete(key)
        assert [list(p) for p in d.items()] == ref.pairs
        assert evicted == ref.evicted
        assert len(d) <= maxsize
