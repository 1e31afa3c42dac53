"""The fast serialization path gives exactly what json.dumps(sort_keys=True, default=str) gives, or raises what
it raises; the benchmark's speedups must never change a digest."""

import json

from hypothesis import given
from hypothesis import strategies as st
from odd_values import Hostile, Shown

from loopkit import canonical_json

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text()


odd = st.builds(Shown) | st.builds(Hostile) | st.binary(max_size=4) | st.builds(set, st.lists(st.integers(), max_size=2))
keys = st.text(max_size=4) | st.integers() | st.none() | st.booleans() | st.floats(allow_nan=False)
values = st.recursive(scalars | odd, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                      | st.dictionaries(keys, inner, max_size=4), max_leaves=20)


def outcome(fn, value):
    try:
        return "ok", fn(value)
    except Exception as exc:  # the same exception type and text
        return type(exc).__name__, str(exc)


@given(values)
def test_canonical_json_matches_json_dumps_exactly(value):
    expected = outcome(lambda v: json.dumps(v, sort_keys=True, default=str), value)
    assert outcome(canonical_json, value) == expected


def test_errors_come_from_the_full_encoder():
    loop = []
    loop.append(loop)
    assert outcome(canonical_json, loop) == ("ValueError", "Circular reference detected")
    assert outcome(canonical_json, {"a": 1, 2: 3})[0] == "TypeError"
