"""Every upstream result in tests/data/helper-vectors.json (copied from the shared conformance set)."""

import json
import pathlib

import pytest

from loopkit import fingerprint, normalize_args, stable_key

VECTORS = json.loads((pathlib.Path(__file__).parent / "data" / "helper-vectors.json").read_text(encoding="utf-8"))


def test_vector_file_is_complete():
    assert {k: len(v) for k, v in VECTORS.items()} == {"normalize": 400, "stable_key": 400, "fingerprint": 400}


@pytest.mark.parametrize("vector", VECTORS["normalize"], ids=lambda v: repr(v["raw"])[:40])
def test_normalize_matches_upstream(vector):
    assert normalize_args(vector["raw"]) == (vector["args"], vector["fallback"])


@pytest.mark.parametrize("vector", VECTORS["stable_key"], ids=lambda v: f"{v['name']}:{str(v['args'])[:30]}")
def test_stable_key_matches_upstream(vector):
    assert stable_key(vector["name"], vector["args"], vector["fallback"]) == vector["key"]


@pytest.mark.parametrize("vector", VECTORS["fingerprint"], ids=lambda v: v["fingerprint"])
def test_fingerprint_matches_upstream(vector):
    assert fingerprint(vector["calls"]) == vector["fingerprint"]
