"""LoopDetector and DetectorConfig: each point of the decision semantics, pinned by a hand-built trace."""

import threading

import pytest

from loopkit import DetectorConfig, EarlyReturnLoopDetector, LoopDetector, fingerprint


def call(name, **args):
    return {"name": name, "args": args}


def read(path, line=1):
    return call("read_file", path=path, start_line=line)


A = [call("bash", command="pytest")]
B = [call("bash", command="ls")]


def actions(detector, batches, **scope):
    return [detector.observe(batch, **scope).action for batch in batches]


# -- configuration ---------------------------------------------------------------------------------------------
def test_defaults_are_upstreams():
    c = DetectorConfig()
    assert (c.warn_threshold, c.hard_limit, c.window_size, c.max_tracked_runs) == (3, 5, 20, 100)
    assert (c.tool_freq_warn, c.tool_freq_hard_limit, dict(c.tool_freq_overrides)) == (30, 50, {})


@pytest.mark.parametrize(
    "fields, named",
    [
        ({"warn_threshold": 0}, "warn_threshold"),
        ({"hard_limit": -1}, "hard_limit"),
        ({"window_size": 2.5}, "window_size"),
        ({"max_tracked_runs": True}, "max_tracked_runs"),
        ({"tool_freq_warn": 0}, "tool_freq_warn"),
        ({"tool_freq_hard_limit": "9"}, "tool_freq_hard_limit"),
        ({"warn_threshold": 6}, "hard_limit \\(5\\) must be >= warn_threshold \\(6\\)"),
        ({"tool_freq_warn": 51}, "tool_freq_hard_limit \\(50\\) must be >= tool_freq_warn \\(51\\)"),
        ({"tool_freq_overrides": {"bash": (9, 8)}}, "tool_freq_overrides\\['bash'\\]: hard \\(8\\) must be >= warn"),
        ({"tool_freq_overrides": {"": (1, 2)}}, "tool_freq_overrides: tool names must be non-empty"),
        ({"tool_freq_overrides": {3: (1, 2)}}, "tool_freq_overrides: tool names must be non-empty"),
        ({"tool_freq_overrides": {"bash": (0, 2)}}, "tool_freq_overrides\\['bash'\\]: warn and hard must be ints"),
        ({"tool_freq_overrides": {"bash": 5}}, "tool_freq_overrides\\['bash'\\] must be a \\(warn, hard\\) pair"),
        ({"tool_freq_overrides": [("bash", (1, 2))]}, "tool_freq_overrides must be a mapping"),
    ],
)
def test_validation_names_the_field(fields, named):
    with pytest.raises(ValueError, match=named):
        DetectorConfig(**fields)


def test_freq_window_covers_every_hard_limit():
    assert DetectorConfig(window_size=20, tool_freq_hard_limit=10, tool_freq_warn=5).freq_window == 20
    assert DetectorConfig(tool_freq_hard_limit=50).freq_window == 50
    assert DetectorConfig(tool_freq_overrides={"bash": (60, 120), "grep": (2, 3)}).freq_window == 120


def test_config_is_frozen_and_overrides_are_read_only():
    c = DetectorConfig(tool_freq_overrides={"bash": [4, 6]})
    with pytest.raises(AttributeError):
        c.hard_limit = 9
    with pytest.raises(TypeError):
        c.tool_freq_overrides["grep"] = (1, 2)
    assert c.thresholds_for("bash") == (4, 6) and c.thresholds_for("grep") == (30, 50)
    assert hash(c) == hash(DetectorConfig(tool_freq_overrides={"bash": (4, 6)}))


def test_config_survives_copy_and_pickle():
    import copy
    import pickle

    c = DetectorConfig(hard_limit=7, tool_freq_overrides={"bash": (60, 80)})
    for clone in (copy.copy(c), copy.deepcopy(c), pickle.loads(pickle.dumps(c))):
        assert clone == c and clone.thresholds_for("bash") == (60, 80) and clone.hard_limit == 7
    assert DetectorConfig(**c.as_dict()) == c and c.as_dict()["tool_freq_overrides"] == {"bash": (60, 80)}


def test_constructor_fields_override_a_config_and_unknown_fields_are_named():
    d = LoopDetector(DetectorConfig(hard_limit=9), warn_threshold=4)
    assert (d.config.warn_threshold, d.config.hard_limit) == (4, 9)
    with pytest.raises(TypeError, match="unknown DetectorConfig field\\(s\\) \\['warn'\\]"):
        LoopDetector(warn=3)
    with pytest.raises(TypeError, match="config must be a DetectorConfig"):
        LoopDetector({"warn_threshold": 3})
    with pytest.raises(AttributeError):
        d.config = DetectorConfig()  # the windows were sized from it: swapping it would leave them stale


# -- 1. empty batches --------------------------------------------------------------------------------------------
def test_empty_batch_is_ok_and_records_nothing():
    d = LoopDetector()
    decision = d.observe([])
    assert (decision.action, decision.layer, decision.count) == ("ok", None, 0)
    assert d.scopes == [] and d.snapshot() is None


def test_bad_batches_get_clear_errors():
    d = LoopDetector()
    with pytest.raises(TypeError, match="expects an iterable of tool-call mappings, got int"):
        d.observe(3)
    with pytest.raises(TypeError, match="call 0 must be a mapping"):
        d.observe(["bash"])


# -- 2. scopes ---------------------------------------------------------------------------------------------------
def test_scopes_are_independent():
    d = LoopDetector(warn_threshold=2, hard_limit=3)
    assert actions(d, [A, A], run_id="r1") == ["ok", "warn"]
    assert actions(d, [A], run_id="r2") == ["ok"]
    assert actions(d, [A], thread_id="t2", run_id="r1") == ["ok"]
    assert d.observe(A, run_id="r1").action == "stop"


def test_scopes_live_in_an_lru_and_eviction_drops_their_state():
    d = LoopDetector(max_tracked_runs=2, warn_threshold=2, hard_limit=9)
    d.observe(A, run_id="r1")
    d.observe(A, run_id="r2")
    d.observe(B, run_id="r1")  # r1 is now the most recent, so r3 evicts r2
    d.observe(A, run_id="r3")
    assert d.scopes == [("default", "r1"), ("default", "r3")]
    assert d.observe(A, run_id="r1").action == "warn"  # r1 kept its first A
    assert d.observe(A, run_id="r2").action == "ok"  # a fresh scope: r2's first A was forgotten
    assert d.scopes == [("default", "r1"), ("default", "r2")]  # and r3, now least recent, made room


def test_reset_by_thread_and_reset_all():
    d = LoopDetector(warn_threshold=1, hard_limit=1)
    d.observe(A, thread_id="t1", run_id="a")
    d.observe(A, thread_id="t1", run_id="b")
    d.observe(A, thread_id="t2", run_id="c")
    d.reset("t1")
    assert d.scopes == [("t2", "c")]
    assert set(d.stop_reasons) == {"a", "b", "c"}  # a thread reset keeps stop reasons
    d.reset()
    assert d.scopes == [] and d.stop_reasons == {}


# -- 3. hash layer -----------------------------------------------------------------------------------------------
def test_hash_layer_warns_once_then_stops():
    d = LoopDetector()
    decisions = [d.observe(A) for _ in range(5)]
    assert [x.action for x in decisions] == ["ok", "ok", "warn", "ok", "stop"]
    assert [x.count for x in decisions] == [1, 2, 3, 4, 5]
    assert decisions[2].layer == decisions[4].layer == "hash" and decisions[2].tool is None
    assert decisions[0].fingerprint == fingerprint(A)
    assert "wrap up" in decisions[2].message and "final answer" in decisions[4].message


def test_window_decay_forgets_the_warning():
    d = LoopDetector(warn_threshold=2, hard_limit=3, window_size=3)
    others = [[call("bash", command=f"step {i}")] for i in range(3)]
    assert actions(d, [A, A]) == ["ok", "warn"]
    assert actions(d, others) == ["ok", "ok", "ok"]  # both A's slid out; the warned mark went with them
    assert actions(d, [A, A]) == ["ok", "warn"]
    assert d.snapshot()["hashes"] == [fingerprint(others[2]), fingerprint(A), fingerprint(A)]


def test_hash_stop_rejects_the_whole_batch():
    d = LoopDetector(warn_threshold=1, hard_limit=2)
    d.observe(A)
    assert d.snapshot()["tool_counts"] == {"bash": 1}
    assert d.observe(A).action == "stop"
    assert d.snapshot()["tool_counts"] == {"bash": 1}  # the rejected batch was not counted per tool


# -- 4. frequency layer ------------------------------------------------------------------------------------------
def sweep(n, start=0):
    return [[read(f"file{i}.py")] for i in range(start, start + n)]


def test_frequency_layer_catches_varied_arguments():
    d = LoopDetector(tool_freq_warn=3, tool_freq_hard_limit=5)
    decisions = [d.observe(batch) for batch in sweep(5)]
    assert [x.action for x in decisions] == ["ok", "ok", "warn", "ok", "stop"]
    assert (decisions[2].layer, decisions[2].tool, decisions[2].count) == ("frequency", "read_file", 3)
    assert (decisions[4].layer, decisions[4].tool, decisions[4].count) == ("frequency", "read_file", 5)


def test_empty_names_are_not_counted_per_tool():
    d = LoopDetector(tool_freq_warn=1, tool_freq_hard_limit=1, warn_threshold=9, hard_limit=9)
    assert d.observe([call("", q=1), {"args": {}}]).action == "ok"
    assert d.snapshot()["tool_counts"] == {}


def test_tool_window_evictions_decrement_counts():
    d = LoopDetector(window_size=4, tool_freq_warn=3, tool_freq_hard_limit=4)  # freq_window = 4
    for batch in [[read("a")], [read("b")], [call("bash", command="x")], [call("bash", command="y")],
                  [call("grep", pattern="p")]]:
        d.observe(batch)
    assert d.snapshot()["tool_counts"] == {"read_file": 1, "bash": 2, "grep": 1}


def test_overrides_replace_the_global_thresholds_for_one_tool():
    d = LoopDetector(tool_freq_warn=2, tool_freq_hard_limit=3, tool_freq_overrides={"bash": (4, 6)})
    bash = [[call("bash", command=f"job {i}")] for i in range(6)]
    assert actions(d, bash) == ["ok", "ok", "ok", "warn", "ok", "stop"]
    assert actions(d, sweep(3)) == ["ok", "warn", "stop"]


def test_hard_frequency_stop_beats_a_pending_hash_warning():
    d = LoopDetector(warn_threshold=2, hard_limit=9, tool_freq_warn=5, tool_freq_hard_limit=6)
    batch = [read("a", 1), read("b", 1), read("c", 1)]
    assert d.observe(batch).action == "ok"  # read_file: 3
    decision = d.observe(batch)  # hash count 2 would warn, but read_file reaches 6 inside the batch
    assert (decision.action, decision.layer, decision.tool, decision.count) == ("stop", "frequency", "read_file", 6)


def test_first_crossing_in_model_order_wins_and_later_calls_still_count():
    d = LoopDetector(warn_threshold=9, hard_limit=9, tool_freq_warn=2, tool_freq_hard_limit=9)
    d.observe([call("bash", command="1"), call("grep", pattern="1")])
    decision = d.observe([call("grep", pattern="2"), call("bash", command="2")])
    assert (decision.action, decision.tool) == ("warn", "grep")
    assert d.snapshot()["tool_counts"] == {"bash": 2, "grep": 2}
    decision = d.observe([call("bash", command="3")])
    assert (decision.action, decision.tool, decision.count) == ("warn", "bash", 3)  # bash crossed too; warns later


def test_dropping_below_warn_clears_the_mark_so_a_later_burst_warns_again():
    d = LoopDetector(window_size=3, warn_threshold=9, hard_limit=9, tool_freq_warn=2, tool_freq_hard_limit=3)
    bash = lambda i: [call("bash", command=str(i))]  # noqa: E731
    assert actions(d, [bash(1), bash(2)]) == ["ok", "warn"]
    assert actions(d, [[read("a")], [read("b")]]) == ["ok", "warn"]  # window now: bash, read, read
    assert actions(d, [bash(3)]) == ["ok"]  # bash back at 1 (< warn): its mark is cleared
    assert actions(d, [bash(4)]) == ["warn"]


# -- 5. selection ------------------------------------------------------------------------------------------------
def test_hash_candidate_wins_and_only_it_is_marked():
    d = LoopDetector(warn_threshold=2, hard_limit=9, tool_freq_warn=2, tool_freq_hard_limit=9)
    d.observe(A)
    decision = d.observe(A)  # both layers cross: hash count 2, bash count 2
    assert (decision.action, decision.layer) == ("warn", "hash")
    state = d.snapshot()
    assert state["warned_hashes"] == {fingerprint(A)} and state["warned_tools"] == set()
    decision = d.observe(B)  # the unmarked frequency crossing is still pending
    assert (decision.action, decision.layer, decision.tool, decision.count) == ("warn", "frequency", "bash", 3)


def test_a_burst_that_decays_within_the_batch_warns_but_leaves_no_stale_mark():
    # freq_window 3: bash crosses warn=2 at the second call, then two reads push both bash calls out.
    d = LoopDetector(window_size=3, warn_threshold=9, hard_limit=9, tool_freq_warn=2, tool_freq_hard_limit=3)
    decision = d.observe([call("bash", command="1"), call("bash", command="2"), read("a"), read("b")])
    assert (decision.action, decision.tool, decision.count) == ("warn", "bash", 2)
    assert d.snapshot()["tool_counts"] == {"bash": 1, "read_file": 2}
    assert "bash" not in d.snapshot()["warned_tools"]


def test_nothing_chosen_is_ok_with_the_hash_count():
    d = LoopDetector()
    d.observe(A)
    decision = d.observe(A)
    assert (decision.action, decision.layer, decision.count, decision.message) == ("ok", None, 2, None)


# -- 6. stop reasons ---------------------------------------------------------------------------------------------
def test_stop_reason_is_recorded_per_run_and_consumed_once():
    d = LoopDetector(warn_threshold=1, hard_limit=1)
    d.observe(A, run_id="r1")
    assert d.consume_stop_reason("r1") == "loop_capped"
    assert d.consume_stop_reason("r1") is None
    assert d.consume_stop_reason("never") is None


def test_stop_reasons_are_fifo_bounded_at_1000():
    d = LoopDetector(warn_threshold=1, hard_limit=1)
    for i in range(1001):
        d.observe(A, run_id=i)
    reasons = d.stop_reasons
    assert len(reasons) == 1000 and 0 not in reasons and 1000 in reasons


# -- 7. one lock -------------------------------------------------------------------------------------------------
def test_eight_threads_leave_exact_counts():
    d = LoopDetector(warn_threshold=10**6, hard_limit=10**6, window_size=10**6,
                     tool_freq_warn=10**6, tool_freq_hard_limit=10**6)
    barrier = threading.Barrier(8)

    def worker(i):
        barrier.wait()
        for j in range(500):
            d.observe([call("bash", command=str(j % 7)), call(f"tool{i}", q=j)])

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    state = d.snapshot()
    assert len(state["hashes"]) == 4000
    assert state["tool_counts"] == {"bash": 4000, **{f"tool{i}": 500 for i in range(8)}}
    assert sum(state["hash_counts"].values()) == 4000


# -- the earlier ordering ----------------------------------------------------------------------------------------
def test_early_return_ordering_skips_counting_and_decides_differently():
    cfg = DetectorConfig(warn_threshold=2, hard_limit=9, tool_freq_warn=3, tool_freq_hard_limit=5)
    trace = [A] * 6
    # current: batch 2 warns (hash) but still counts bash, so bash warns at 3 and stops at 5
    assert actions(LoopDetector(cfg), trace[:5]) == ["ok", "warn", "warn", "ok", "stop"]
    # early return: batch 2's bash call is never counted, so every frequency decision comes one batch later
    assert actions(EarlyReturnLoopDetector(cfg), trace) == ["ok", "warn", "ok", "warn", "ok", "stop"]


def test_early_return_returns_at_the_first_frequency_warning():
    cfg = DetectorConfig(warn_threshold=9, hard_limit=9, tool_freq_warn=1, tool_freq_hard_limit=9)
    batch = [call("bash", command="a"), call("grep", pattern="b")]
    early, current = EarlyReturnLoopDetector(cfg), LoopDetector(cfg)
    assert early.observe(batch).tool == "bash" and current.observe(batch).tool == "bash"
    assert early.snapshot()["tool_counts"] == {"bash": 1}  # grep never counted
    assert current.snapshot()["tool_counts"] == {"bash": 1, "grep": 1}
