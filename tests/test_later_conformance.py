"""The later middleware against what the later class did: every step of the 100 scripts in
tests/data/later-middleware-vectors.json.gz and every key in tests/data/later-key-vectors.json, both recorded from
deer-flow's loop_detection_middleware.py as read in the public fork ucan-ai/deer-flow at 711035d2 (the first copied
from the shared conformance set). Then one test per way the earlier model of the later version disagreed with them,
each showing that the recording catches it, and unit tests for what the recording leaves out."""

import collections
import gzip
import json
import pathlib

import pytest

from loopkit import Decision, DetectorConfig, PinnedMiddleware, RunScopedMiddleware, SeverityFirstDetector, fingerprint
from loopkit.core import keys
from loopkit.core.middleware import LATER_SOURCE, JournalEvent, RunIdAnchors, Runtime
from loopkit.teaching.conformance import ModelCallFailed, config_of, play_step, replay_script

DATA = pathlib.Path(__file__).parent / "data"
with gzip.open(DATA / "later-middleware-vectors.json.gz", "rt", encoding="utf-8") as recording:
    RECORDED = json.load(recording)
SCRIPTS = RECORDED["vectors"]
KEY_VECTORS = json.loads((DATA / "later-key-vectors.json").read_text(encoding="utf-8"))
FORK_COMMIT = "711035d2d1c04737fa632bbb5f2bcb7828b4b682"


def agreement(middleware_class):
    """Play every script through a fresh ``middleware_class``: scripts and steps agreeing, by family, and the
    first step of each script that did not."""
    scripts = collections.Counter()
    families = collections.Counter()
    steps = agreeing_steps = 0
    first_misses = []
    for script in SCRIPTS:
        rows = replay_script(script, middleware_class(config_of(script)))
        steps += len(rows)
        agreeing_steps += sum(row["same"] for row in rows)
        misses = [row for row in rows if not row["same"]]
        scripts[not misses] += 1
        families[script["family"], not misses] += 1
        if misses:
            first_misses.append((script["seed"], script["family"], misses[0]))
    return {"scripts": scripts[True], "steps": agreeing_steps, "of_steps": steps, "first_misses": first_misses,
            "families": {family: families[family, True] for family, _ in families}}


def disagreeing_families(middleware_class):
    """How many scripts of each family go wrong somewhere with ``middleware_class``."""
    found = agreement(middleware_class)
    totals = collections.Counter(script["family"] for script in SCRIPTS)
    return {family: totals[family] - found["families"].get(family, 0) for family in totals
            if totals[family] - found["families"].get(family, 0)}


# -- the recording ---------------------------------------------------------------------------------------------------
def test_the_recording_is_whole_and_is_of_the_fork_commit_the_model_names():
    assert RECORDED["commit"] == FORK_COMMIT == LATER_SOURCE[1] and LATER_SOURCE[0] == "ucan-ai/deer-flow"
    assert KEY_VECTORS["source"] == f"ucan-ai/deer-flow@{FORK_COMMIT}" and KEY_VECTORS["path"] == LATER_SOURCE[2]
    assert len(SCRIPTS) == 100 == len({script["seed"] for script in SCRIPTS})
    assert collections.Counter(script["family"] for script in SCRIPTS) == {
        "core": 40, "keys": 27, "anchors": 20, "failures": 13}
    assert sum("expect" in step for script in SCRIPTS for step in script["steps"]) == 10477
    assert (len(KEY_VECTORS["stable_key"]), len(KEY_VECTORS["fingerprint"])) == (535, 200)


def test_run_scoped_middleware_does_what_the_later_class_did_at_every_step_of_every_script():
    found = agreement(RunScopedMiddleware)
    summary = (f"later vectors: {found['scripts']}/{len(SCRIPTS)} scripts and {found['steps']}/{found['of_steps']} "
               f"steps agree (by family: {found['families']})")
    print(summary)
    assert found["of_steps"] == 10477
    assert found["scripts"] == len(SCRIPTS) and found["steps"] == found["of_steps"], (
        summary + "; first disagreements: " + "; ".join(
            f"seed {seed} ({family}) step {row['step']} {row['op']}: "
            f"upstream {row['upstream']}, loopkit {row['loopkit']}" for seed, family, row in found["first_misses"][:5]))


@pytest.mark.parametrize("vector", KEY_VECTORS["stable_key"], ids=lambda v: f"{v['name']}:{str(v['args'])[:30]}")
def test_the_later_key_is_the_later_class_key_to_the_character(vector):
    assert keys.later_stable_key(vector["name"], vector["args"], vector["fallback"]) == vector["key"]


@pytest.mark.parametrize("vector", KEY_VECTORS["fingerprint"], ids=lambda v: v["fingerprint"])
def test_the_later_batch_fingerprint_is_the_later_class_fingerprint(vector):
    later_detector = SeverityFirstDetector()
    assert later_detector.observe(vector["calls"], "scope").fingerprint == vector["fingerprint"]


# -- the four ways the earlier model of the later version disagreed, each caught by a recording ---------------------
class WarningsLostOnFailure(RunScopedMiddleware):
    """The earlier model: a model call that raised lost the warnings it had drained."""

    def _restore(self, thread, run_id, warnings):
        pass


def test_class_1_a_failed_model_call_gets_its_warnings_back_and_the_recording_needs_it():
    """PR #5433: without the restore, most of the scripts whose model calls fail go wrong."""
    assert disagreeing_families(WarningsLostOnFailure) == {"failures": 10}


class ThousandAnchors(RunScopedMiddleware):
    """The earlier model: ``RunIdAnchors`` kept 1,000 anchored run ids, whatever ``max_tracked_threads`` was."""

    def __init__(self, config=None):
        super().__init__(config)
        self.anchors = RunIdAnchors(1000)


def test_class_2_the_anchored_ids_are_bounded_at_twice_the_tracked_threads_and_the_recording_needs_it():
    assert RunScopedMiddleware(DetectorConfig(max_tracked_threads=1)).anchors.maxsize == 2
    assert RunScopedMiddleware(DetectorConfig(max_tracked_threads=100)).anchors.maxsize == 200
    assert disagreeing_families(ThousandAnchors) == {"anchors": 4}


class SalientKeyDetector(SeverityFirstDetector):
    call_key = staticmethod(keys.stable_key)  # the pinned key's salient fields, with the later read window


class SalientKeys(RunScopedMiddleware):
    """The earlier model: tools other than read_file, write_file and str_replace keyed by their salient fields."""

    detector_class = SalientKeyDetector


def test_class_3_other_tools_are_keyed_by_all_their_arguments_and_the_recording_needs_it():
    pages = [[{"name": "web_search", "args": {"query": "loop", "page": page}}] for page in (1, 2, 3)]
    cfg = DetectorConfig(warn_threshold=2, hard_limit=3)
    for middleware, expected in ((RunScopedMiddleware(cfg), ["ok", "ok", "ok"]),
                                 (SalientKeys(cfg), ["ok", "warn", "stop"])):
        assert [middleware.after_model(page, "t", "r").action for page in pages] == expected
    assert disagreeing_families(SalientKeys) == {"keys": 7}


def closed_window(path, start_line=None, end_line=None):
    """The earlier model's window: a missing or unusable end line is the start line."""
    lo, hi = keys._line_range(start_line, end_line)
    return f"{path}:{lo}-{hi}"


class ClosedWindowDetector(SeverityFirstDetector):
    read_key = staticmethod(closed_window)


class ClosedWindows(RunScopedMiddleware):
    detector_class = ClosedWindowDetector


def test_class_4_a_read_without_a_usable_end_is_open_ended_and_only_the_key_recording_shows_it():
    assert keys.read_window("a.py") == "a.py:1-end" != keys.read_window("a.py", 1, 1) == "a.py:1-1"
    assert keys.read_window("a.py", 5, "x") == keys.read_window("a.py", 5, None) == "a.py:5-end"
    wrong = [v for v in KEY_VECTORS["stable_key"]
             if keys.later_stable_key(v["name"], v["args"], v["fallback"], read_key=closed_window) != v["key"]]
    assert len(wrong) >= 100
    # The middleware recording alone cannot tell the two apart: no recorded decision turns on it.
    assert disagreeing_families(ClosedWindows) == {}


# -- what the recordings leave out: the execution-info tier, the runtime wrapper as anchor, the journal -------------
PYTEST = [{"name": "bash", "args": {"command": "pytest"}}]


def test_the_run_id_tiers_context_then_execution_info_then_the_control_anchor():
    anchors, control = RunIdAnchors(maxsize=4), object()
    assert anchors.run_id(Runtime({"run_id": None}, execution_run_id="e-1", control=control)) is None
    assert anchors.run_id(Runtime({}, execution_run_id=42, control=control)) == "42"
    assert anchors.run_id(Runtime({}, execution_run_id=None, control=control)).startswith("invocation-")
    assert len(anchors) == 1  # the two given ids were never anchored


def test_an_execution_info_run_id_is_shared_by_every_wrapper_and_is_never_anchored_or_released():
    m = RunScopedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=3))
    actions = [m.after_model(PYTEST, "t", Runtime({}, execution_run_id="run-9")).action for _ in range(3)]
    assert actions == ["ok", "warn", "stop"] and len(m.anchors) == 0
    assert m.consume_stop_reason("run-9") == "loop_capped"


def test_without_a_control_object_each_runtime_wrapper_is_its_own_anchor():
    m = RunScopedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=3))
    one_wrapper = Runtime({})
    assert [m.after_model(PYTEST, "t", one_wrapper).action for _ in range(3)] == ["ok", "warn", "stop"]
    fresh_wrappers = [m.after_model(PYTEST, "u", Runtime({})).action for _ in range(3)]
    assert fresh_wrappers == ["ok", "ok", "ok"]  # LangGraph builds a new wrapper per node: a fresh budget each time


def test_after_agent_releases_the_anchor_so_the_next_invocation_on_the_control_starts_afresh():
    m = RunScopedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=9))
    control = object()
    assert [m.after_model(PYTEST, "t", Runtime({}, control=control)).action for _ in range(2)] == ["ok", "warn"]
    m.after_agent("t", Runtime({}, control=control))
    assert len(m.anchors) == 0 and m.pending == {}
    assert m.after_model(PYTEST, "t", Runtime({}, control=control)).action == "ok"


def test_reset_of_everything_forgets_the_anchors_reset_of_a_thread_keeps_them():
    m = RunScopedMiddleware()
    m.after_model(PYTEST, "t", Runtime({}, control=object()))
    m.reset("t")
    assert len(m.anchors) == 1
    m.reset()
    assert len(m.anchors) == 0


def test_a_batch_without_calls_reads_no_run_id():
    m = RunScopedMiddleware()
    assert m.after_model([], "t", Runtime({}, control=object())).action == "ok" and len(m.anchors) == 0


def test_reset_compares_the_thread_id_as_given():
    m = RunScopedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=9))
    m.after_model(PYTEST, 7, "r")
    m.reset(7)  # the state is kept under the text "7"; upstream compares 7 with it and finds nothing
    assert m.detector.scopes == [("7", "r")]
    m.reset("7")
    assert m.detector.scopes == []


def failing_model(warnings):
    raise ModelCallFailed(f"the model failed with {len(warnings)} warnings on its request")


@pytest.mark.parametrize("version, kept", [(PinnedMiddleware, False), (RunScopedMiddleware, True)])
def test_a_model_call_that_raises_loses_its_warnings_at_the_pin_and_keeps_them_later(version, kept):
    m = version(DetectorConfig(warn_threshold=2, hard_limit=9))
    for _ in range(2):
        m.after_model(PYTEST, "t", "r")
    with pytest.raises(ModelCallFailed, match="1 warnings"):
        m.wrap_model_call("t", "r", failing_model)
    retry = m.wrap_model_call("t", "r")
    assert [w.layer for w in retry] == (["hash"] if kept else [])


def test_restored_warnings_go_to_the_front_and_the_queue_keeps_four():
    m = RunScopedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=99))
    for _ in range(2):
        m.after_model(PYTEST, "t", "r")
    queued_meanwhile = [Decision("warn", "frequency", f"tool{i}", 9, None, f"w{i}") for i in range(4)]

    def model_that_fails_after_four_more_warnings_were_queued(warnings):
        for warning in queued_meanwhile:  # as a concurrent after_model of the same run would
            m._queue("t", "r", warning)
        raise ModelCallFailed("503")

    with pytest.raises(ModelCallFailed):
        m.wrap_model_call("t", "r", model_that_fails_after_four_more_warnings_were_queued)
    assert [w.layer for w in m.pending[("t", "r")]] == ["hash", "frequency", "frequency", "frequency"]
    assert [w.message for w in m.pending[("t", "r")]][1:] == ["w0", "w1", "w2"]  # the newest, w3, is trimmed


def test_touching_a_pending_key_drops_the_least_recently_touched_others_beyond_twice_the_tracked_threads():
    m = RunScopedMiddleware(DetectorConfig(max_tracked_threads=1, warn_threshold=2, hard_limit=9))
    for stale in ("r0", "r1"):  # keys whose scopes are gone but whose warnings stayed, as after a failed call
        m._pending[("t", stale)] = [Decision("warn", "hash", None, 2, None, "stale")]
    for _ in range(2):
        m.after_model(PYTEST, "t", "r2")
    assert list(m.pending) == [("t", "r1"), ("t", "r2")]  # at most max(1, 2 * 1) keys: r0 went first
    m._pending[("t", "r3")] = [Decision("warn", "hash", None, 2, None, "stale")]
    with pytest.raises(ModelCallFailed):
        m.wrap_model_call("t", "r2", failing_model)
    assert list(m.pending) == [("t", "r3"), ("t", "r2")]  # the restore touched r2 and pruned r1


def test_the_journal_records_warnings_and_stops_without_arguments():
    cfg = DetectorConfig(warn_threshold=2, hard_limit=3, tool_freq_warn=2, tool_freq_hard_limit=4,
                         tool_freq_overrides={"grep": (2, 3)})
    m = RunScopedMiddleware(cfg)
    for _ in range(3):
        m.after_model(PYTEST, "t", "r")
    m.after_model([{"name": "grep", "args": {"pattern": p}} for p in "ab"], "t", "r2")
    m.after_model([{"name": "grep", "args": {"pattern": "c"}}], "t", "r2")
    assert m.journal == [JournalEvent("warn", "identical_call_set", ("bash",), 2, 2),
                         JournalEvent("hard_stop", "identical_call_set", ("bash",), 3, 3),
                         JournalEvent("warn", "tool_frequency", ("grep",), 2, 2),
                         JournalEvent("hard_stop", "tool_frequency", ("grep",), 3, 3)]
    assert "pytest" not in repr(m.journal)


def test_release_policy_parameters_name_the_settings():
    cfg = DetectorConfig(warn_threshold=4, tool_freq_overrides={"bash": (60, 80)})
    assert RunScopedMiddleware(cfg).release_policy_parameters() == {
        "warn_threshold": 4, "hard_limit": 5, "window_size": 20, "max_tracked_threads": 100, "tool_freq_warn": 30,
        "tool_freq_hard_limit": 50, "tool_freq_overrides": {"bash": (60, 80)}}


def test_a_recorded_anchor_step_needs_the_scripts_runtimes():
    step = {"op": "after_model", "thread": "t", "anchor": "c1", "calls": PYTEST}
    with pytest.raises(ValueError, match="needs the script's ScriptRuntimes"):
        play_step(RunScopedMiddleware(), step)


def test_the_later_fingerprint_hashes_as_the_pinned_one_over_its_own_keys():
    calls = [{"name": "bash", "args": {"command": "ls"}}]
    assert fingerprint(calls, key=keys.later_stable_key) == fingerprint(calls)  # one salient field: one key
    described = [{"name": "web_search", "args": {"query": "x", "page": 2}}]
    assert fingerprint(described, key=keys.later_stable_key) != fingerprint(described)
