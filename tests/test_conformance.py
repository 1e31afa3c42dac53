"""Every upstream result in tests/data/helper-vectors.json, and every step of the 50 pending-warning cap scripts in
tests/data/middleware-cap-vectors.json.gz (both copied from the shared conformance set, recorded at f1f4af99)."""

import gzip
import json
import pathlib

import pytest

from loopkit import PinnedMiddleware, fingerprint, normalize_args, stable_key
from loopkit.teaching.conformance import config_of, replay_script

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


# -- the pending-warning key cap: 50 scripts recorded to exercise it (tests/data/middleware-cap-vectors.json.gz) --
CAP_DATA = pathlib.Path(__file__).parent / "data" / "middleware-cap-vectors.json.gz"
CAP_RECORDED = json.load(gzip.open(CAP_DATA, "rt"))
CAP_SCRIPTS = CAP_RECORDED["vectors"]


def test_the_cap_recording_is_whole_and_is_of_the_pinned_commit():
    assert CAP_RECORDED["commit"] == "f1f4af99bbf1cffb83a80744bf6e4a44ee8f24be"
    assert len(CAP_SCRIPTS) == 50 == len({s["seed"] for s in CAP_SCRIPTS})
    assert {s["config"]["max_tracked_threads"] for s in CAP_SCRIPTS} <= {1, 2, 3}
    assert CAP_RECORDED["step_kinds"]["inject:1"] > 100


@pytest.mark.parametrize("script", CAP_SCRIPTS, ids=lambda s: f"cap-seed{s['seed']}")
def test_pinned_middleware_keeps_upstreams_pending_warning_cap_at_every_step(script):
    rows = replay_script(script)
    assert len(rows) == sum("expect" in step for step in script["steps"])
    for row in rows:
        assert row["same"], f"step {row['step']} ({row['op']}): upstream {row['upstream']}, loopkit {row['loopkit']}"


def test_the_cap_scripts_need_the_cap():
    """Without the cap (the later model's queue has none) at least a third of the scripts go wrong somewhere: the
    recording really exercises it."""
    class Uncapped(PinnedMiddleware):
        pending_key_capacity = property(lambda self: 10**9)

    wrong = [s["seed"] for s in CAP_SCRIPTS
             if not all(row["same"] for row in replay_script(s, Uncapped(config_of(s))))]
    assert len(wrong) >= len(CAP_SCRIPTS) // 3
