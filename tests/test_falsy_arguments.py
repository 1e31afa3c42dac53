"""Raw tool-call arguments that are falsy but not ``None`` (``0``, ``0.0``, ``False``, ``[]``, ``{}``, ``""``,
``"0"``, ``"null"``, ``"[]"``): what upstream's helpers at the pinned commit make of them, recorded from the upstream
code itself (tests/data/falsy-arguments.json; tests/data/README.md says how), and loopkit does the same.

None of the 400 recorded helper vectors (tests/test_conformance.py) holds such an input, so without these a
``normalize_args`` that reads ``if not raw`` where upstream reads ``if raw is None`` would pass every test."""

import json
import pathlib

import pytest

from loopkit import fingerprint, normalize_args, stable_key

RECORDED = json.loads((pathlib.Path(__file__).parent / "data" / "falsy-arguments.json").read_text(encoding="utf-8"))
VECTORS = RECORDED["vectors"]
IDS = [json.dumps(vector["raw"]) for vector in VECTORS]


def test_the_recording_is_of_the_pinned_helpers_and_holds_every_falsy_input():
    assert RECORDED["recorded"]["commit"] == "f1f4af99bbf1cffb83a80744bf6e4a44ee8f24be"
    assert RECORDED["recorded"]["functions"] == ["_normalize_tool_call_args", "_stable_tool_key", "_hash_tool_calls"]
    raws = [vector["raw"] for vector in VECTORS]
    kinds = [(type(raw).__name__, raw) for raw in raws]   # 0, 0.0 and False are equal in Python, not in kind
    assert kinds == [("int", 0), ("float", 0.0), ("bool", False), ("list", []), ("dict", {}), ("str", ""),
                     ("str", "0"), ("str", "null"), ("str", "[]"), ("NoneType", None)]


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_normalize_matches_upstream(vector):
    assert normalize_args(vector["raw"]) == (vector["args"], vector["fallback"])


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_stable_key_matches_upstream(vector):
    for name, key in vector["keys"].items():
        assert stable_key(name, vector["args"], vector["fallback"]) == key, name


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_fingerprint_matches_upstream(vector):
    for name, digest in vector["fingerprints"].items():
        assert fingerprint([{"name": name, "args": vector["raw"]}]) == digest, name


def test_only_none_means_no_arguments():
    """The facts the recording shows, said once: ``None`` and ``{}`` are "no arguments"; every other falsy value,
    ``""`` and the JSON text ``"null"`` included, becomes a fallback text that keys the call."""
    no_arguments = [vector["raw"] for vector in VECTORS if vector["fallback"] is None]
    assert no_arguments == [{}, None]
    assert normalize_args(0) == ({}, "0") and normalize_args(False) == ({}, "false")
    assert normalize_args("") == ({}, "") and normalize_args("null") == ({}, "null")
