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


# -- issue 21: a tool-call-shaped object is never a silent zero --------------------------------------------------

import pathlib  # noqa: E402
import tempfile  # noqa: E402

from hypothesis import settings  # noqa: E402

from loopkit.traces.replay import report_paths  # noqa: E402

_names = st.text(alphabet="abcdefgh_", min_size=1, max_size=6)
_args = st.dictionaries(st.sampled_from(["path", "command", "x"]), st.text(max_size=4), max_size=2)
#: One tool call in each shape a format writes (built here from the formats' documented shapes, not from loopkit).
call_objects = st.one_of(
    st.builds(lambda n, a: {"type": "tool_use", "id": "t", "name": n, "input": a}, _names, _args),  # Anthropic
    st.builds(lambda n, a: {"id": "c", "type": "function", "function": {"name": n, "arguments": json.dumps(a)}},
              _names, _args),  # OpenAI Chat Completions
    st.builds(lambda n, a: {"type": "function_call", "call_id": "c", "name": n, "arguments": json.dumps(a)},
              _names, _args),  # OpenAI Responses
    st.builds(lambda n, a: {"name": n, "args": a, "id": "c"}, _names, _args),  # LangChain, Gemini CLI
    st.builds(lambda n, a: {"id": "c", "function": n, "arguments": a}, _names, _args),  # Inspect AI
)
_filler = st.sampled_from([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "ok"},
                           {"type": "human", "content": "hi"}, {"note": "x"}])
_keys = st.sampled_from(["data", "meta", "content", "message", "items", "payload", "extra", "tool_calls", "z"])


@st.composite
def files_holding_a_call(draw):
    """A file (name, text) whose records, or the document around them, hold one call-shaped object somewhere."""
    value = draw(call_objects)
    for _ in range(draw(st.integers(0, 3))):  # wrapped in objects and lists, under keys formats use and others
        value = draw(st.sampled_from(["object", "list"])) == "list" and [value] or {draw(_keys): value}
    records = draw(st.lists(_filler, max_size=3))
    where = draw(st.sampled_from(["record", "beside"]))
    if where == "record":
        record = value if isinstance(value, dict) else {draw(_keys): value}
        records.insert(draw(st.integers(0, len(records))), {**draw(st.sampled_from([{}, {"role": "user"},
                                                                                      {"role": "assistant"}])),
                                                            **record})
    container = draw(st.sampled_from(["jsonl", "array", "messages"] if where == "record" else ["messages"]))
    if container == "jsonl" and records:
        return "t.jsonl", "".join(json.dumps(r) + "\n" for r in records)
    if container == "array":
        return "t.json", json.dumps(records)
    document = {"messages": records}
    if where == "beside":
        document[draw(st.sampled_from(["meta", "info", "extra"]))] = value
    return "t.json", json.dumps(document)


@settings(max_examples=300)
@given(files_holding_a_call())
def test_a_file_holding_a_tool_call_is_never_zero_calls_with_exit_0(file):
    """Whatever the envelope: either calls are read, or the file is unusable input (exit 2) that says why."""
    name, text = file
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder, name)
        path.write_text(text)
        reports = list(report_paths([str(path)]))
    assert reports
    for report in reports:
        assert report.calls > 0 or report.exit_code == 2, (text, report.description)
