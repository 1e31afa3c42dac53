"""loopkit/core/fast_json.py gives exactly the text of the definition, loopkit/core/normalize.py's canonical_json,
which is json.dumps(sort_keys=True, default=str), or raises what it raises: the speed-up never changes a digest."""

import importlib
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from odd_values import Hostile, Shown

from loopkit.core import fast_json, normalize

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


def test_the_c_encoder_is_in_use_here():
    """Otherwise the tests below would compare the definition with itself."""
    assert fast_json._ENCODE is not None


@given(values)
def test_the_definition_is_json_dumps(value):
    assert outcome(normalize.canonical_json, value) == outcome(lambda v: json.dumps(v, sort_keys=True, default=str),
                                                               value)


@given(values)
def test_the_fast_text_is_the_definitions(value):
    assert outcome(fast_json.canonical_json, value) == outcome(normalize.canonical_json, value)


def test_errors_come_from_the_definition():
    loop = []
    loop.append(loop)
    assert outcome(fast_json.canonical_json, loop) == ("ValueError", "Circular reference detected")
    assert outcome(fast_json.canonical_json, {"a": 1, 2: 3})[0] == "TypeError"


def test_without_the_c_encoder_the_definition_is_used(monkeypatch):
    monkeypatch.setattr(fast_json, "_ENCODE", None)
    assert fast_json.canonical_json({"b": 1, "a": "é"}) == '{"a": "\\u00e9", "b": 1}'


@pytest.mark.parametrize("module", ["loopkit.core.keys", "loopkit.core.fingerprint"])
def test_the_keys_and_fingerprints_use_the_fast_text(module):
    assert importlib.import_module(module).canonical_json is fast_json.canonical_json
