"""Hypothesis properties of the helpers: never-raise normalization, permutation invariance, multiplicity."""

import json

from hypothesis import given
from hypothesis import strategies as st

from loopkit import fingerprint, normalize_args

json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text()
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


class _Weird:
    def __init__(self, fail):
        self.fail = fail

    def __str__(self):
        if self.fail:
            raise ValueError("bad __str__")
        return "weird"


odd_objects = st.builds(_Weird, st.booleans()) | st.builds(set, st.lists(st.integers(), max_size=3)) | st.binary()
anything = json_values | odd_objects | st.lists(odd_objects | json_values, max_size=3) | st.dictionaries(
    st.integers() | st.text(max_size=3), json_values, max_size=3
)


@given(anything)
def test_normalize_never_raises_and_has_the_promised_shape(raw):
    args, fallback = normalize_args(raw)
    assert isinstance(args, dict)
    assert fallback is None or isinstance(fallback, str)
    if isinstance(raw, dict):
        assert args is raw and fallback is None


@given(json_values)
def test_normalize_json_text_round_trip(value):
    args, fallback = normalize_args(json.dumps(value))
    if isinstance(value, dict):
        assert fallback is None and json.dumps(args) == json.dumps(value)
    else:
        assert args == {} and fallback == json.dumps(json.loads(json.dumps(value)), sort_keys=True, default=str)


tool_names = st.sampled_from(["read_file", "write_file", "str_replace", "bash", "web_search", "grep", "custom", ""])
arg_dicts = st.dictionaries(
    st.sampled_from(["path", "start_line", "end_line", "content", "command", "query", "pattern", "extra"]),
    st.none() | st.integers(-5, 900) | st.text(max_size=6),
    max_size=4,
)
calls = st.builds(
    lambda name, args, as_text: {"name": name, "args": json.dumps(args) if as_text else args},
    tool_names,
    arg_dicts,
    st.booleans(),
)
batches = st.lists(calls, min_size=1, max_size=6)


@given(batches, st.randoms(use_true_random=False))
def test_fingerprint_is_invariant_under_permutation(batch, rng):
    shuffled = list(batch)
    rng.shuffle(shuffled)
    assert fingerprint(shuffled) == fingerprint(batch)


@given(batches, st.data())
def test_adding_a_duplicate_call_changes_the_fingerprint(batch, data):
    duplicate = data.draw(st.sampled_from(batch))
    assert fingerprint(batch + [duplicate]) != fingerprint(batch)


@given(batches)
def test_fingerprint_is_twelve_lowercase_hex_characters(batch):
    digest = fingerprint(batch)
    assert len(digest) == 12 and set(digest) <= set("0123456789abcdef")
