"""Unit tests for normalize_args, read_bucket, stable_key and fingerprint, with expectations written by hand
from the policy (not computed by the code under test)."""

import hashlib
import json

import pytest
from odd_values import Hostile, Shown

from loopkit import call_entry, fingerprint, normalize_args, read_bucket, stable_key


@pytest.mark.parametrize(
    "raw, expected",
    [
        ({"path": "a"}, ({"path": "a"}, None)),
        ('{"path": "a"}', ({"path": "a"}, None)),
        ("[1, 2]", ({}, "[1, 2]")),
        ('"text"', ({}, '"text"')),
        ("42", ({}, "42")),
        ("null", ({}, "null")),
        ("{not json", ({}, "{not json")),
        ("", ({}, "")),
        (None, ({}, None)),
        (7, ({}, "7")),
        (True, ({}, "true")),
        ([{"b": 1, "a": 2}], ({}, '[{"a": 2, "b": 1}]')),
        (("x", None), ({}, '["x", null]')),
        (Shown(), ({}, '"odd!"')),
    ],
)
def test_normalize_shapes(raw, expected):
    assert normalize_args(raw) == expected


def test_normalize_returns_the_same_dict_object():
    raw = {"path": "a"}
    assert normalize_args(raw)[0] is raw


def test_normalize_survives_what_default_str_cannot_fix():
    circular = []
    circular.append(circular)
    for raw in (circular, [{1: "a", "b": 2}], [Hostile()], "[" * 100_000):
        args, fallback = normalize_args(raw)
        assert args == {} and isinstance(fallback, str)


@pytest.mark.parametrize(
    "start, end, expected",
    [
        (1, 199, "a:0-0"),
        (200, 1, "a:0-0"),
        (201, None, "a:1-1"),
        (None, None, "a:0-0"),
        (150, 250, "a:0-1"),
        (0, -5, "a:0-0"),
        (400, 401, "a:1-2"),
        ("201", "399", "a:1-1"),
        ("ten", 450, "a:0-2"),
        (450, "ten", "a:2-2"),
        (float("inf"), 10, "a:0-0"),
        (3.9, None, "a:0-0"),
    ],
)
def test_read_bucket(start, end, expected):
    assert read_bucket("a", start, end) == expected


def test_read_bucket_size_is_a_parameter_and_is_validated():
    assert read_bucket("a", 1, 100, bucket_size=50) == "a:0-1"
    with pytest.raises(ValueError, match="bucket_size"):
        read_bucket("a", 1, 2, bucket_size=0)


def test_stable_key_rules():
    assert stable_key("read_file", {"path": "a.py", "start_line": 5, "end_line": 30}) == "a.py:0-0"
    assert stable_key("read_file", {"start_line": 5}) == ":0-0"
    assert stable_key("read_file", {}, "raw text") == "raw text"
    assert stable_key("write_file", {"path": "a", "content": "x"}) == '{"content": "x", "path": "a"}'
    assert stable_key("str_replace", {}, "fb") == "fb"
    assert stable_key("bash", {"command": "ls", "description": "list"}) == '{"command": "ls"}'
    assert stable_key("bash", {"command": None, "timeout": 5}) == '{"command": null, "timeout": 5}'
    assert stable_key("bash", {"timeout": 5}, "fb") == "fb"
    assert stable_key("grep", {"pattern": "x", "glob": "*.py", "path": "src"}) == (
        '{"glob": "*.py", "path": "src", "pattern": "x"}'
    )


def test_changed_write_is_new_but_identical_write_repeats():
    first = {"name": "write_file", "args": {"path": "a", "content": "v1"}}
    changed = {"name": "write_file", "args": {"path": "a", "content": "v2"}}
    assert fingerprint([first]) != fingerprint([changed])
    assert fingerprint([first]) == fingerprint([dict(first)])


def test_fingerprint_is_md5_of_sorted_entries():
    calls = [{"name": "bash", "args": {"command": "ls"}}, {"name": "read_file", "args": '{"path": "a", "start_line": 1}'}]
    entries = sorted(['bash:{"command": "ls"}', "read_file:a:0-0"])
    expected = hashlib.md5(json.dumps(entries).encode()).hexdigest()[:12]
    assert fingerprint(calls) == expected
    assert fingerprint(reversed(calls)) == expected


def test_fingerprint_ignores_ids_and_missing_fields_default():
    assert fingerprint([{"name": "x", "args": {"q": 1}, "id": "1"}]) == fingerprint([{"name": "x", "args": {"q": 1}}])
    assert call_entry({}) == ":{}"


def test_openai_and_anthropic_shapes_share_a_fingerprint():
    openai = {"name": "web_search", "args": '{"query": "loop", "max_results": 3}', "id": "call_1"}
    anthropic = {"name": "web_search", "args": {"max_results": 3, "query": "loop"}, "id": "toolu_1"}
    assert fingerprint([openai]) == fingerprint([anthropic])


@pytest.mark.parametrize("calls, fragment", [(5, "got int"), (None, "got NoneType")])
def test_fingerprint_rejects_non_iterables(calls, fragment):
    with pytest.raises(TypeError, match=fragment):
        fingerprint(calls)


def test_fingerprint_names_the_bad_call():
    with pytest.raises(TypeError, match=r"^calls\[1\] must be a mapping with 'name' and 'args', got str$"):
        fingerprint([{"name": "a"}, "read_file"])
    with pytest.raises(TypeError, match=r"^calls must be a list of tool calls, got dict$"):
        fingerprint({"name": "a", "args": {}})  # one call is not a batch


def test_fingerprint_explains_unkeyable_arguments():
    with pytest.raises(TypeError, match=r"calls\[0\] has arguments that cannot be keyed"):
        fingerprint([{"name": "write_file", "args": {1: "a", "b": 2}}])


# -- a survivor of the mutation run (tools/mutants.py): JSON that is not an object keys by its value, not its text --
def test_json_that_is_not_an_object_keys_by_its_value_not_by_its_spacing():
    assert normalize_args("[1,2]") == ({}, "[1, 2]") == normalize_args("[1, 2]")
    assert normalize_args('"ls"') == ({}, '"ls"')
    spaced, tight = ({"name": "bash", "args": text} for text in ("[1, 2]", "[1,2]"))
    assert fingerprint([spaced]) == fingerprint([tight])
