"""The middleware hook by hook: the pinned class step by step against 200 scripts recorded from upstream at
f1f4af99 (tests/data/middleware-vectors.json.gz, copied from the shared conformance set), then one test per
behaviour of the later run-scoped contract (PRs #5245 and #5344)."""

import gzip
import json
import pathlib

import pytest

from loopkit import DetectorConfig, PinnedMiddleware, RunScopedMiddleware, fingerprint
from loopkit.core.middleware import (
    MAX_PENDING_WARNINGS,
    STOP_REASON_CAPACITY,
    RunIdAnchors,
    Runtime,
    merge_warnings,
    middleware_for,
    pinned_run_id,
    thread_key,
)
from loopkit.teaching.conformance import config_of, load_scripts, play_step, replay_script

DATA = pathlib.Path(__file__).parent / "data" / "middleware-vectors.json.gz"
RECORDED = json.load(gzip.open(DATA, "rt"))
SCRIPTS = RECORDED["vectors"]


def test_the_recording_is_whole_and_is_of_the_pinned_commit():
    assert RECORDED["commit"] == "f1f4af99bbf1cffb83a80744bf6e4a44ee8f24be"
    assert len(SCRIPTS) == 200
    kinds = RECORDED["step_kinds"]
    assert sum(len(s["steps"]) for s in SCRIPTS) == 26899
    assert all(kinds[k] > 100 for k in ("warn:hash", "warn:frequency", "stop:hash", "stop:frequency", "inject:1"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda s: f"seed{s['seed']}")
def test_pinned_middleware_does_what_upstream_did_at_every_step(script):
    rows = replay_script(script)
    assert len(rows) == sum("expect" in step for step in script["steps"])
    for row in rows:
        assert row["same"], f"step {row['step']} ({row['op']}): upstream {row['upstream']}, loopkit {row['loopkit']}"


def test_the_later_model_does_not_pass_the_pinned_recording():
    """The two versions really differ on the recorded scripts (else the comparison chapter would show nothing)."""
    differs = [script["seed"] for script in SCRIPTS[:40]
               if not all(row["same"] for row in replay_script(script, RunScopedMiddleware(config_of(script))))]
    assert len(differs) >= 20


def test_load_scripts_reads_the_file_and_rejects_another_shape(tmp_path):
    assert [s["seed"] for s in load_scripts(DATA)] == [s["seed"] for s in SCRIPTS]
    other = tmp_path / "other.json.gz"
    with gzip.open(other, "wt") as handle:
        json.dump([1, 2], handle)
    with pytest.raises(ValueError, match="other.json.gz: expected an object with a 'vectors' list"):
        load_scripts(other)


def test_play_step_names_an_unknown_hook():
    with pytest.raises(ValueError, match="unknown hook 'before_model'"):
        play_step(PinnedMiddleware(), {"op": "before_model", "thread": "t", "run": "r"})


# -- pinned: one test per hook behaviour (the recording covers them together; these name each one) --------------
PYTEST = [{"name": "bash", "args": {"command": "pytest"}}]
LS = [{"name": "bash", "args": {"command": "ls"}}]


def tight(kind=PinnedMiddleware, **fields):
    return kind(DetectorConfig(**{"warn_threshold": 2, "hard_limit": 3, **fields}))


def test_pinned_state_is_per_thread_so_runs_of_one_thread_share_a_budget():
    m = tight()
    assert m.after_model(PYTEST, "t1", "r1").action == "ok"
    assert m.after_model(PYTEST, "t1", "r2").action == "warn"
    assert m.after_model(PYTEST, "t2", "r1").action == "ok"
    assert m.detector.scopes == ["t1", "t2"]


def test_a_missing_or_empty_thread_id_is_the_default_thread():
    m = tight()
    m.after_model(PYTEST, None, "r1")
    assert m.after_model(PYTEST, "", "r1").action == "warn"
    assert m.detector.scopes == ["default"] and thread_key(0) == "default" and thread_key(7) == "7"


def test_a_warning_waits_for_the_next_model_call_of_its_own_run():
    m = tight()
    m.after_model(PYTEST, "t1", "r1")
    warning = m.after_model(PYTEST, "t1", "r1")
    assert m.wrap_model_call("t1", "r2") == []  # another run of the thread gets nothing
    assert m.wrap_model_call("t1", "r1") == [warning]
    assert m.wrap_model_call("t1", "r1") == []  # drained


def test_queued_warnings_merge_by_text_and_keep_the_newest_four():
    m = PinnedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=9, tool_freq_warn=1, tool_freq_hard_limit=99))
    tools = [f"tool{i}" for i in range(6)]
    for tool in tools:  # each first call of a new tool warns (count 1 >= 1)
        assert m.after_model([{"name": tool, "args": {"q": 1}}], "t", "r").tool == tool
    queued = m.wrap_model_call("t", "r")
    assert [w.tool for w in queued] == tools[-MAX_PENDING_WARNINGS:]
    a, b = [{"name": "x", "args": {"q": "a"}}], [{"name": "y", "args": {"q": "b"}}]
    m2 = PinnedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=9, tool_freq_warn=50, tool_freq_hard_limit=99))
    for batch in (a, a, b, b):  # two different hashes warn; their texts are the same
        m2.after_model(batch, "t", "r")
    merged = m2.wrap_model_call("t", "r")
    assert [(w.layer, w.fingerprint) for w in merged] == [("hash", fingerprint(a))]  # the first of the two


def test_merge_warnings_keeps_order_and_the_first_of_each_text():
    m = tight(tool_freq_warn=1, warn_threshold=9, hard_limit=9, tool_freq_hard_limit=9)
    w1 = m.after_model([{"name": "a", "args": {}}], "t", "r")
    w2 = m.after_model([{"name": "b", "args": {}}], "t", "r")
    again = m.after_model([{"name": "c", "args": {}}], "t", "r")
    same_text = type(w1)("warn", "frequency", "a", 1, "other-print", w1.message)
    assert merge_warnings([w1, w2, same_text, again]) == [w1, w2, again]


def test_before_agent_drops_the_threads_other_runs_warnings_only():
    m = tight()
    for thread, run in (("t1", "old"), ("t1", "old"), ("t2", "x"), ("t2", "x")):
        m.after_model(PYTEST, thread, run)
    m.after_model(LS, "t1", "new")
    m.after_model(LS, "t1", "new")
    m.before_agent("t1", "new")
    assert sorted(m.pending) == [("t1", "new"), ("t2", "x")]


def test_after_agent_drops_the_runs_own_warning():
    m = tight()
    m.after_model(PYTEST, "t1", "r1")
    m.after_model(PYTEST, "t1", "r1")
    m.after_agent("t1", "r1")
    assert m.pending == {} and m.wrap_model_call("t1", "r1") == []


def test_evicting_a_thread_drops_its_queued_warnings():
    m = tight(max_tracked_threads=1)
    m.after_model(PYTEST, "t1", "r1")
    m.after_model(PYTEST, "t1", "r1")
    m.after_model(PYTEST, "t2", "r1")  # t1's state is evicted, and its warning with it
    assert m.pending == {} and m.detector.scopes == ["t2"]


def test_pending_warnings_are_capped_at_twice_the_tracked_threads_least_recently_queued_first():
    m = PinnedMiddleware(DetectorConfig(max_tracked_threads=1, tool_freq_warn=1, tool_freq_hard_limit=99))
    assert m.pending_key_capacity == 2
    warn = iter(range(100))  # each call of a new tool warns (count 1 >= 1), so every call queues a warning

    def queue(run):
        assert m.after_model([{"name": f"tool{next(warn)}", "args": {}}], "t", run).action == "warn"

    queue("r1")
    queue("r2")
    queue("r1")  # r1 is touched again: r2 is now the least recently queued-to key
    queue("r3")
    assert list(m.pending) == [("t", "r1"), ("t", "r3")]
    queue("r3")  # queuing to a key already held never drops another
    assert list(m.pending) == [("t", "r1"), ("t", "r3")]
    assert [w.tool for w in m.wrap_model_call("t", "r1")] == ["tool0", "tool2"]
    queue("r4")  # r1 was drained, so two keys fit again
    assert list(m.pending) == [("t", "r3"), ("t", "r4")]


def test_the_pending_cap_counts_keys_across_threads_and_spares_the_key_just_queued():
    m = PinnedMiddleware(DetectorConfig(max_tracked_threads=2, tool_freq_warn=1, tool_freq_hard_limit=99))
    for i, (thread, run) in enumerate([("a", 1), ("b", 1), ("a", 2), ("b", 2), ("a", 3)]):
        m.after_model([{"name": f"tool{i}", "args": {}}], thread, run)
    assert m.pending_key_capacity == 4 and list(m.pending) == [("b", 1), ("a", 2), ("b", 2), ("a", 3)]


def test_a_stop_records_the_stop_reason_for_the_run_read_once():
    m = tight()
    for _ in range(3):
        decision = m.after_model(PYTEST, "t1", "r1")
    assert decision.action == "stop" and m.stop_reasons == {"r1": "loop_capped"}
    assert m.consume_stop_reason("r1") == "loop_capped" and m.consume_stop_reason("r1") is None


def test_a_run_id_of_none_is_a_key_of_its_own():
    m = tight()
    for _ in range(3):
        m.after_model(PYTEST, "t1", None)
    assert m.consume_stop_reason("None") is None and m.consume_stop_reason(None) == "loop_capped"


def test_stop_reasons_are_fifo_and_bounded():
    m = PinnedMiddleware(DetectorConfig(warn_threshold=1, hard_limit=1))
    for run in range(STOP_REASON_CAPACITY + 1):
        m.after_model(PYTEST, "t", run)
    reasons = m.stop_reasons
    assert len(reasons) == STOP_REASON_CAPACITY and 0 not in reasons and next(iter(reasons)) == 1


def test_pinned_reset_of_a_thread_keeps_stop_reasons_reset_of_all_drops_them():
    m = tight()
    for _ in range(3):
        m.after_model(PYTEST, "t1", "r1")
    m.after_model(LS, "t2", "r2")
    m.after_model(LS, "t2", "r2")
    m.reset("t1")
    assert m.detector.scopes == ["t2"] and m.stop_reasons == {"r1": "loop_capped"} and ("t2", "r2") in m.pending
    m.reset()
    assert m.detector.scopes == [] and m.stop_reasons == {} and m.pending == {}


def test_the_pinned_run_id_is_read_by_presence():
    runtime = object()
    assert pinned_run_id({"run_id": "r9"}, runtime) == "r9"
    assert pinned_run_id({"run_id": None}, runtime) is None
    assert pinned_run_id({}, runtime) == pinned_run_id(None, runtime) == str(id(runtime))


# -- the later contract ------------------------------------------------------------------------------------------
def test_issue_5343_a_reused_agent_no_longer_counts_earlier_turns():
    pinned, scoped = PinnedMiddleware(), RunScopedMiddleware()
    early, late = [], []
    for turn in range(1, 6):  # the same call once per turn, each turn a fresh run id
        for m, out in ((pinned, early), (scoped, late)):
            m.before_agent("thread", f"turn-{turn}")
            out.append(m.after_model(PYTEST, "thread", f"turn-{turn}").action)
            m.after_agent("thread", f"turn-{turn}")
    assert early == ["ok", "ok", "warn", "ok", "stop"]
    assert late == ["ok"] * 5


def test_re_entries_of_one_run_share_its_budget():
    m = tight(RunScopedMiddleware)
    m.before_agent("t", "r")
    m.after_model(PYTEST, "t", "r")
    m.after_agent("t", "r")
    m.before_agent("t", "r")  # a hidden goal continuation enters the graph again with the same run id
    assert m.after_model(PYTEST, "t", "r").action == "warn"


def test_later_before_agent_keeps_a_sibling_runs_warning():
    m = tight(RunScopedMiddleware)
    m.after_model(PYTEST, "t", "sibling")
    m.after_model(PYTEST, "t", "sibling")
    m.before_agent("t", "new")
    assert [w.layer for w in m.wrap_model_call("t", "sibling")] == ["hash"]


def test_later_lru_evicts_one_whole_run_scope():
    m = tight(RunScopedMiddleware, max_tracked_threads=2)
    m.after_model(PYTEST, "t", "r1")
    m.after_model(PYTEST, "t", "r2")
    m.after_model(PYTEST, "t", "r1")  # r1 warns and is now the most recent
    m.after_model(PYTEST, "t", "r3")
    assert m.detector.scopes == [("t", "r1"), ("t", "r3")]
    assert ("t", "r1") in m.pending


def test_later_reset_of_a_thread_clears_its_scopes_and_unconsumed_stop_reasons_only():
    m = tight(RunScopedMiddleware)
    for _ in range(3):
        m.after_model(PYTEST, "t1", "a")
        m.after_model(PYTEST, "t2", "b")
    m.reset("t1")
    assert m.detector.scopes == [("t2", "b")] and m.stop_reasons == {"b": "loop_capped"}
    assert m.consume_stop_reason("a") is None and m.consume_stop_reason("b") == "loop_capped"
    m.after_model(PYTEST, "t2", "c")
    m.reset()
    assert m.detector.scopes == [] and m.pending == {} and m.stop_reasons == {}


def test_later_middleware_decides_severity_first():
    reads = [{"name": "read_file", "args": {"path": p}} for p in ("a.py", "b.py", "c.py")]
    cfg = DetectorConfig(tool_freq_warn=2, tool_freq_hard_limit=3)
    assert PinnedMiddleware(cfg).after_model(reads, "t", "r").action == "warn"
    assert RunScopedMiddleware(cfg).after_model(reads, "t", "r").action == "stop"


def test_run_id_anchors_follow_one_invocation_and_are_released():
    anchors = RunIdAnchors(maxsize=2)
    control_a, control_b = object(), object()
    a = anchors.run_id(Runtime({}, control=control_a))
    assert anchors.run_id(Runtime(None, control=control_a)) == a != anchors.run_id(Runtime({}, control=control_b))
    assert anchors.run_id(Runtime({"run_id": "given"}, control=control_a)) == "given"
    anchors.release(Runtime({}, control=control_a))
    assert anchors.run_id(Runtime({}, control=control_a)) != a  # a new invocation on the same control: a new id
    b = anchors.run_id(Runtime({}, control=control_b))  # control_b is now the most recently used
    anchors.run_id(Runtime({}, control=object()))  # the map is bounded: the least recently used anchor goes
    assert len(anchors) == 2 and anchors.run_id(Runtime({}, control=control_b)) == b


def test_middleware_for_names_the_versions():
    assert type(middleware_for("pinned")) is PinnedMiddleware
    assert type(middleware_for("run-scoped", DetectorConfig(hard_limit=9))) is RunScopedMiddleware
    with pytest.raises(ValueError, match="'pinned', 'run-scoped'"):
        middleware_for("latest")


# -- the survivors of the mutation run (tools/mutants.py): a missing thread id and eviction, run-scoped ------------
def test_later_a_missing_or_empty_thread_id_is_the_default_thread_for_state_warnings_and_reset():
    m = tight(RunScopedMiddleware)
    assert m.after_model(PYTEST, None, "r").action == "ok"
    assert m.after_model(PYTEST, "", "r").action == "warn"  # None and "" are one thread: the count went on
    assert m.detector.scopes == [("default", "r")] and list(m.pending) == [("default", "r")]
    assert m.snapshot(None, "r") == m.snapshot("default", "r") is not None
    m.reset("default")
    assert m.detector.scopes == [] and m.pending == {}


def test_later_evicting_a_run_scope_drops_its_own_queued_warnings_and_no_others():
    m = tight(RunScopedMiddleware, max_tracked_threads=2)
    for run in ("r1", "r2"):  # each run warns once and leaves its warning queued
        m.after_model(PYTEST, "t", run)
        m.after_model(PYTEST, "t", run)
    assert list(m.pending) == [("t", "r1"), ("t", "r2")]
    m.after_model(LS, "t", "r3")  # a third scope: r1, the least recently used, is evicted
    assert m.detector.scopes == [("t", "r2"), ("t", "r3")]
    assert list(m.pending) == [("t", "r2")]  # r1's warning went with its scope; r2's, of the same thread, stays
    assert m.wrap_model_call("t", "r1") == []


def test_pinned_evicting_a_thread_keeps_the_other_threads_warnings():
    m = tight(max_tracked_threads=1)
    m.after_model(PYTEST, "t1", "r")
    m.after_model(PYTEST, "t1", "r")
    m.after_model(PYTEST, "t2", "r")  # t1 is evicted with its queued warning
    m.after_model(PYTEST, "t2", "r")
    assert list(m.pending) == [("t2", "r")]
    m.after_model(PYTEST, "t3", "r")  # evicts t2
    assert m.pending == {}


def test_the_stop_reasons_kept_are_upstreams_thousand():
    assert STOP_REASON_CAPACITY == 1000  # upstream's BoundedDict(1000) of stop reasons, loop_detection_middleware.py


def test_repeated_texts_take_one_place_in_the_queue_so_they_cannot_crowd_out_another_warning():
    m = PinnedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=5, tool_freq_warn=2, tool_freq_hard_limit=100))
    m.after_model([{"name": "grep", "args": {"pattern": "a"}}], "t", "r")
    assert m.after_model([{"name": "grep", "args": {"pattern": "b"}}], "t", "r").layer == "frequency"
    for tool in ("t1", "t2", "t3", "t4"):  # four different batches, each repeated once: four hash warnings, one text
        m.after_model([{"name": tool, "args": {}}], "t", "r")
        assert m.after_model([{"name": tool, "args": {}}], "t", "r").layer == "hash"
    assert [w.layer for w in m.pending[("t", "r")]] == ["frequency", "hash"]
    assert [w.layer for w in m.wrap_model_call("t", "r")] == ["frequency", "hash"]
