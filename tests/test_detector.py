"""DetectorConfig, the counting window, and the two orderings: each point of the decision semantics, pinned by a
hand-built trace. The pinned ordering is also checked step by step against upstream in test_middleware.py."""

import copy
import pickle

import pytest

from loopkit import DetectorConfig, PinnedDetector, SeverityFirstDetector, fingerprint
from loopkit.core.detector import OK, CountingWindow, Decision, tool_names
from loopkit.core.keys import read_window


def call(name, **args):
    return {"name": name, "args": args}


def read(path, line=1, end=None):
    return call("read_file", path=path, start_line=line, end_line=end if end is not None else line)


A = [call("bash", command="pytest")]
B = [call("bash", command="ls")]
BOTH = (PinnedDetector, SeverityFirstDetector)


def actions(detector, batches, scope="t"):
    return [detector.observe(batch, scope).action for batch in batches]


def pinned(**fields):
    return PinnedDetector(DetectorConfig(**fields))


def later(**fields):
    return SeverityFirstDetector(DetectorConfig(**fields))


# -- configuration ---------------------------------------------------------------------------------------------
def test_defaults_are_upstreams():
    c = DetectorConfig()
    assert (c.warn_threshold, c.hard_limit, c.window_size, c.max_tracked_threads) == (3, 5, 20, 100)
    assert (c.tool_freq_warn, c.tool_freq_hard_limit, dict(c.tool_freq_overrides)) == (30, 50, {})


@pytest.mark.parametrize(
    "fields, error, named",
    [
        ({"warn_threshold": 0}, ValueError, "warn_threshold must be at least 1, got 0"),
        ({"hard_limit": -1}, ValueError, "hard_limit must be at least 1, got -1"),
        ({"window_size": 2.5}, TypeError, "window_size must be an int, got float"),
        ({"max_tracked_threads": True}, TypeError, "max_tracked_threads must be an int, got bool"),
        ({"tool_freq_warn": 0}, ValueError, "tool_freq_warn must be at least 1"),
        ({"tool_freq_hard_limit": "9"}, TypeError, "tool_freq_hard_limit must be an int, got str"),
        ({"warn_threshold": 6}, ValueError, "hard_limit \\(5\\) must be >= warn_threshold \\(6\\)"),
        ({"tool_freq_warn": 51}, ValueError, "tool_freq_hard_limit \\(50\\) must be >= tool_freq_warn \\(51\\)"),
        ({"tool_freq_overrides": {"bash": (9, 8)}}, ValueError,
         "tool_freq_overrides\\['bash'\\]: hard \\(8\\) must be >= warn"),
        ({"tool_freq_overrides": {"": (1, 2)}}, ValueError, "tool_freq_overrides: tool names must be non-empty"),
        ({"tool_freq_overrides": {3: (1, 2)}}, TypeError, "tool_freq_overrides: tool names must be str, got int"),
        ({"tool_freq_overrides": {"bash": (0, 2)}}, ValueError,
         "tool_freq_overrides\\['bash'\\]\\[0\\] must be at least 1, got 0"),
        ({"tool_freq_overrides": {"bash": 5}}, TypeError,
         "tool_freq_overrides\\['bash'\\] must be a \\(warn, hard\\) pair"),
        ({"tool_freq_overrides": [("bash", (1, 2))]}, TypeError, "tool_freq_overrides must be a mapping"),
    ],
)
def test_validation_names_the_field(fields, error, named):
    with pytest.raises(error, match=named):
        DetectorConfig(**fields)


def test_the_old_field_name_is_gone():
    with pytest.raises(TypeError, match="max_tracked_runs"):
        DetectorConfig(max_tracked_runs=5)


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
    c = DetectorConfig(hard_limit=7, tool_freq_overrides={"bash": (60, 80)})
    for clone in (copy.copy(c), copy.deepcopy(c), pickle.loads(pickle.dumps(c))):
        assert clone == c and clone.thresholds_for("bash") == (60, 80) and clone.hard_limit == 7
    assert DetectorConfig(**c.as_dict()) == c and c.as_dict()["tool_freq_overrides"] == {"bash": (60, 80)}


@pytest.mark.parametrize("kind", BOTH)
def test_a_detector_takes_a_config_or_none_and_keeps_it(kind):
    assert kind().config == DetectorConfig()
    with pytest.raises(TypeError, match="config must be a DetectorConfig"):
        kind({"warn_threshold": 3})
    d = kind(DetectorConfig(hard_limit=9))
    with pytest.raises(AttributeError):
        d.config = DetectorConfig()  # the windows were sized from it: swapping it would leave them stale


# -- the counting window ---------------------------------------------------------------------------------------
def test_counting_window_pushes_out_the_oldest_and_keeps_exact_counts():
    w = CountingWindow(3)
    pushed_out = [w.push(x) for x in "abab" + "cc"]
    assert pushed_out == [None, None, None, "a", "b", "a"]
    assert list(w.items) == ["b", "c", "c"] and w.counts == {"b": 1, "c": 2}
    assert w.count("a") == 0


def test_tool_names_skips_unnamed_calls_and_keeps_model_order():
    assert tool_names([call("grep"), call(""), {"args": {}}, call("bash"), {"name": 7}]) == ["grep", "bash", "7"]


# -- empty and bad batches ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", BOTH)
def test_empty_batch_is_ok_and_records_nothing(kind):
    d = kind()
    assert d.observe([], "t") == OK == Decision("ok", None, None, None, None)
    assert d.scopes == [] and d.snapshot("t") is None


@pytest.mark.parametrize("kind", BOTH)
@pytest.mark.parametrize("bad, says", [(3, "got int"), ("bash", "got str"), ({"name": "bash"}, "got dict"),
                                       (["bash"], r"batch\[0\] must be a mapping with .name. and .args., got str")])
def test_bad_batches_get_clear_errors(kind, bad, says):
    with pytest.raises(TypeError, match=says):
        kind().observe(bad, "t")


# -- scopes ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", BOTH)
def test_scopes_are_independent_and_live_in_an_lru(kind):
    d = kind(DetectorConfig(max_tracked_threads=2, warn_threshold=2, hard_limit=9))
    d.observe(A, "s1")
    d.observe(A, "s2")
    d.observe(B, "s1")  # s1 is now the most recent, so s3 evicts s2
    d.observe(A, "s3")
    assert d.scopes == ["s1", "s3"]
    assert d.observe(A, "s1").action == "warn"  # s1 kept its first A
    assert d.observe(A, "s2").action == "ok"  # a fresh scope: s2's first A was forgotten


def test_eviction_is_reported_with_the_state_that_goes():
    gone = []
    d = PinnedDetector(DetectorConfig(max_tracked_threads=1), on_evict=lambda scope, state: gone.append(
        (scope, dict(state.hashes.counts))))
    d.observe(A, "t1")
    d.observe(B, "t2")
    assert gone == [("t1", {fingerprint(A): 1})]


def test_snapshot_does_not_count_as_use_and_forget_drops_one_scope():
    d = pinned(max_tracked_threads=2)
    d.observe(A, "t1")
    d.observe(A, "t2")
    d.snapshot("t1")  # a look, not a use: t1 is still least recent
    d.observe(A, "t3")
    assert d.scopes == ["t2", "t3"]
    d.forget("t2")
    assert d.scopes == ["t3"]
    d.forget_all()
    assert d.scopes == []


# -- the hash layer (both orderings) -----------------------------------------------------------------------------
@pytest.mark.parametrize("kind", BOTH)
def test_hash_layer_warns_once_then_stops(kind):
    d = kind()
    decisions = [d.observe(A, "t") for _ in range(5)]
    assert [x.action for x in decisions] == ["ok", "ok", "warn", "ok", "stop"]
    assert [x.count for x in decisions] == [None, None, 3, None, 5]
    assert decisions[2].layer == decisions[4].layer == "hash" and decisions[2].tool is None
    assert {x.fingerprint for x in decisions} == {fingerprint(A)}
    assert "final answer" in decisions[2].message and "forced stop" in decisions[4].message


@pytest.mark.parametrize("kind", BOTH)
def test_window_decay_forgets_the_warning(kind):
    d = kind(DetectorConfig(warn_threshold=2, hard_limit=3, window_size=3))
    others = [[call("bash", command=f"step {i}")] for i in range(3)]
    assert actions(d, [A, A]) == ["ok", "warn"]
    assert actions(d, others) == ["ok", "ok", "ok"]  # both A's slid out; the warned mark went with them
    assert actions(d, [A, A]) == ["ok", "warn"]
    assert d.snapshot("t")["hashes"] == [fingerprint(others[2]), fingerprint(A), fingerprint(A)]


@pytest.mark.parametrize("kind", BOTH)
def test_hash_stop_rejects_the_whole_batch(kind):
    d = kind(DetectorConfig(warn_threshold=2, hard_limit=2))
    d.observe(A, "t")
    assert d.snapshot("t")["tool_counts"] == {"bash": 1}
    assert d.observe(A, "t").action == "stop"
    assert d.snapshot("t")["tool_counts"] == {"bash": 1}  # the rejected batch was not counted per tool


# -- the frequency layer (both orderings) ------------------------------------------------------------------------
def sweep(n, start=0):
    return [[read(f"file{i}.py")] for i in range(start, start + n)]


@pytest.mark.parametrize("kind", BOTH)
def test_frequency_layer_catches_varied_arguments(kind):
    d = kind(DetectorConfig(tool_freq_warn=3, tool_freq_hard_limit=5))
    decisions = [d.observe(batch, "t") for batch in sweep(5)]
    assert [x.action for x in decisions] == ["ok", "ok", "warn", "ok", "stop"]
    assert (decisions[2].layer, decisions[2].tool, decisions[2].count) == ("frequency", "read_file", 3)
    assert (decisions[4].layer, decisions[4].tool, decisions[4].count) == ("frequency", "read_file", 5)
    assert "read_file" in decisions[2].message and "5" in decisions[4].message


@pytest.mark.parametrize("kind", BOTH)
def test_tool_window_pushes_out_old_names(kind):
    d = kind(DetectorConfig(window_size=4, tool_freq_warn=3, tool_freq_hard_limit=4))  # freq_window = 4
    for batch in [[read("a")], [read("b")], [call("bash", command="x")], [call("bash", command="y")],
                  [call("grep", pattern="p")]]:
        d.observe(batch, "t")
    assert d.snapshot("t")["tool_counts"] == {"read_file": 1, "bash": 2, "grep": 1}


@pytest.mark.parametrize("kind", BOTH)
def test_overrides_replace_the_global_thresholds_for_one_tool(kind):
    d = kind(DetectorConfig(tool_freq_warn=2, tool_freq_hard_limit=3, tool_freq_overrides={"bash": (4, 6)}))
    bash = [[call("bash", command=f"job {i}")] for i in range(6)]
    assert actions(d, bash) == ["ok", "ok", "ok", "warn", "ok", "stop"]
    assert actions(d, sweep(3)) == ["ok", "warn", "stop"]


@pytest.mark.parametrize("kind", BOTH)
def test_dropping_below_warn_and_calling_again_clears_the_mark(kind):
    d = kind(DetectorConfig(window_size=3, warn_threshold=9, hard_limit=9, tool_freq_warn=2, tool_freq_hard_limit=3))
    bash = lambda i: [call("bash", command=str(i))]  # noqa: E731
    assert actions(d, [bash(1), bash(2)]) == ["ok", "warn"]
    assert actions(d, [[read("a")], [read("b")]]) == ["ok", "warn"]  # window now: bash, read, read
    assert actions(d, [bash(3)]) == ["ok"]  # bash back at 1 (< warn): its mark is cleared
    assert actions(d, [bash(4)]) == ["warn"]


# -- where the pinned ordering and the later one part ------------------------------------------------------------
def test_the_issue_5243_batch_warns_at_pinned_and_stops_later():
    reads = [call("read_file", path=p) for p in ("a.py", "b.py", "c.py")]
    cfg = DetectorConfig(tool_freq_warn=2, tool_freq_hard_limit=3)
    early, late = PinnedDetector(cfg), SeverityFirstDetector(cfg)
    at_pinned, at_later = early.observe(reads, "t"), late.observe(reads, "t")
    assert (at_pinned.action, at_pinned.tool, at_pinned.count) == ("warn", "read_file", 2)
    assert early.snapshot("t")["tool_counts"] == {"read_file": 2}  # c.py was never counted
    assert (at_later.action, at_later.tool, at_later.count) == ("stop", "read_file", 3)


def test_a_new_hash_warning_returns_before_any_name_is_counted_at_pinned():
    cfg = DetectorConfig(warn_threshold=2, hard_limit=9, tool_freq_warn=3, tool_freq_hard_limit=5)
    early, late = PinnedDetector(cfg), SeverityFirstDetector(cfg)
    assert actions(early, [A] * 6) == ["ok", "warn", "ok", "warn", "ok", "stop"]
    assert actions(late, [A] * 5) == ["ok", "warn", "warn", "ok", "stop"]


def test_an_already_warned_hash_falls_through_to_the_frequency_layer_at_pinned():
    d = pinned(warn_threshold=2, hard_limit=9, tool_freq_warn=2, tool_freq_hard_limit=9)
    assert [(x.action, x.layer) for x in (d.observe(A, "t") for _ in range(3))] == [
        ("ok", None), ("warn", "hash"), ("warn", "frequency")]


def test_pinned_returns_at_the_first_frequency_warning_later_counts_the_rest():
    cfg = DetectorConfig(warn_threshold=9, hard_limit=9, tool_freq_warn=1, tool_freq_hard_limit=9)
    batch = [call("bash", command="a"), call("grep", pattern="b")]
    early, late = PinnedDetector(cfg), SeverityFirstDetector(cfg)
    assert early.observe(batch, "t").tool == "bash" and late.observe(batch, "t").tool == "bash"
    assert early.snapshot("t")["tool_counts"] == {"bash": 1}  # grep never counted
    assert late.snapshot("t")["tool_counts"] == {"bash": 1, "grep": 1}


def test_later_a_hard_frequency_stop_beats_a_hash_warning_of_the_same_batch():
    cfg = DetectorConfig(warn_threshold=2, hard_limit=9, tool_freq_warn=5, tool_freq_hard_limit=6)
    batch = [read("a"), read("b"), read("c")]
    early, late = PinnedDetector(cfg), SeverityFirstDetector(cfg)
    assert [early.observe(batch, "t").action for _ in range(2)] == ["ok", "warn"]  # the hash warning returns
    decision = [late.observe(batch, "t") for _ in range(2)][-1]
    assert (decision.action, decision.layer, decision.tool, decision.count) == ("stop", "frequency", "read_file", 6)


def test_later_the_hash_warning_wins_and_only_it_is_marked():
    d = later(warn_threshold=2, hard_limit=9, tool_freq_warn=2, tool_freq_hard_limit=9)
    d.observe(A, "t")
    decision = d.observe(A, "t")  # both layers cross: hash count 2, bash count 2
    assert (decision.action, decision.layer) == ("warn", "hash")
    assert d.snapshot("t")["warned_hashes"] == {fingerprint(A)} and d.snapshot("t")["warned_tools"] == set()
    decision = d.observe(B, "t")  # the unmarked frequency crossing is still pending
    assert (decision.action, decision.layer, decision.tool, decision.count) == ("warn", "frequency", "bash", 3)


def test_later_the_first_crossing_in_model_order_wins_and_later_calls_still_count():
    d = later(warn_threshold=9, hard_limit=9, tool_freq_warn=2, tool_freq_hard_limit=9)
    d.observe([call("bash", command="1"), call("grep", pattern="1")], "t")
    decision = d.observe([call("grep", pattern="2"), call("bash", command="2")], "t")
    assert (decision.action, decision.tool) == ("warn", "grep")
    assert d.snapshot("t")["tool_counts"] == {"bash": 2, "grep": 2}
    decision = d.observe([call("bash", command="3")], "t")
    assert (decision.action, decision.tool, decision.count) == ("warn", "bash", 3)


def test_later_a_burst_that_decays_within_its_batch_leaves_no_mark():
    # freq_window 3: bash crosses warn=2 at the second call, then two reads push both bash calls out.
    d = later(window_size=3, warn_threshold=9, hard_limit=9, tool_freq_warn=2, tool_freq_hard_limit=3)
    decision = d.observe([call("bash", command="1"), call("bash", command="2"), read("a"), read("b")], "t")
    assert (decision.action, decision.tool, decision.count) == ("warn", "bash", 2)
    assert d.snapshot("t")["tool_counts"] == {"bash": 1, "read_file": 2}
    assert "bash" not in d.snapshot("t")["warned_tools"]


def test_later_a_name_pushed_out_below_its_warn_limit_is_rearmed_at_once_pinned_waits_for_its_next_call():
    cfg = DetectorConfig(window_size=4, warn_threshold=9, hard_limit=9, tool_freq_warn=2, tool_freq_hard_limit=4)
    script = [[call("bash", command="1")], [call("bash", command="2")], [read("a")], [read("b")], [read("c")]]
    early, late = PinnedDetector(cfg), SeverityFirstDetector(cfg)
    for batch in script:
        early.observe(batch, "t")
        late.observe(batch, "t")
    assert early.snapshot("t")["tool_counts"]["bash"] == late.snapshot("t")["tool_counts"]["bash"] == 1
    assert "bash" in early.snapshot("t")["warned_tools"]  # below its warn limit, but not called since
    assert "bash" not in late.snapshot("t")["warned_tools"]


def test_later_read_file_is_keyed_by_its_exact_window():
    pages = [[read("big.py", start, start + 49)] for start in (1, 51, 101, 151, 1)]
    assert actions(pinned(), pages) == ["ok", "ok", "warn", "ok", "stop"]  # one 200-line bucket
    assert actions(later(), pages) == ["ok"] * 5
    assert later().observe(pages[0], "t").fingerprint == fingerprint(pages[0], read_key=read_window)


# -- the survivors of the mutation run (tools/mutants.py): severity-first marks at the decay boundary -------------
# One call per batch, each with its own arguments, so the hash layer never speaks: only the tool-name window does.
# warn at 3, stop at 5, and a window of 5 calls (freq_window is max(window_size, tool_freq_hard_limit)).
DECAY = DetectorConfig(window_size=5, warn_threshold=10, hard_limit=10, tool_freq_warn=3, tool_freq_hard_limit=5)


def severity_first_actions(names):
    detector = SeverityFirstDetector(DECAY)
    return [detector.observe([{"name": name, "args": {"n": i}}], "s").action for i, name in enumerate(names)]


def test_severity_first_unmarks_a_tool_pushed_out_to_one_below_its_warn_limit():
    # a, x, a, y, a: a's third call warns. z pushes the oldest a out: two a's are left, below 3, so a's burst has
    # decayed and the mark goes. The next a (x pushed out) brings it back to 3 in the window: a warns again.
    assert severity_first_actions("axayaza") == ["ok", "ok", "ok", "ok", "warn", "ok", "warn"]


def test_severity_first_keeps_the_mark_while_the_pushed_out_tool_is_still_at_its_warn_limit():
    # a warns at its third call; a fourth a is still marked. x fills the window; y pushes an a out, and three a's
    # are left: still at the warn limit, so the mark stays, and the next a (three again) does not warn twice.
    assert severity_first_actions("aaaaxya") == ["ok", "ok", "warn", "ok", "ok", "ok", "ok"]


# -- more survivors of the mutation run: exact limits, what a window keeps, what a look does to the LRU -------------
def test_limits_may_be_equal_and_one_below_is_refused():
    assert DetectorConfig(warn_threshold=4, hard_limit=4, tool_freq_warn=7, tool_freq_hard_limit=7,
                          tool_freq_overrides={"bash": (9, 9)}).thresholds_for("bash") == (9, 9)
    with pytest.raises(ValueError, match=r"tool_freq_overrides\['bash'\]: hard \(8\) must be >= warn \(9\)"):
        DetectorConfig(tool_freq_overrides={"bash": (9, 8)})


def test_a_window_forgets_what_left_it_entirely():
    window = CountingWindow(2)
    for item in "aab":
        window.push(item)
    window.push("c")
    assert window.counts == {"b": 1, "c": 1} and list(window.items) == ["b", "c"]


def test_looking_at_a_scope_does_not_save_it_from_eviction_but_using_it_does():
    detector = PinnedDetector(DetectorConfig(max_tracked_threads=2))
    ls = [{"name": "ls", "args": {"path": "."}}]
    detector.observe(ls, "s1")
    detector.observe(ls, "s2")
    assert detector.snapshot("s1") is not None  # a look: s1 stays the least recently used
    detector.observe(ls, "s3")
    assert detector.scopes == ["s2", "s3"]
    detector.observe(ls, "s2")  # a use: s2 becomes the most recent, so s3 goes next
    detector.observe(ls, "s4")
    assert detector.scopes == ["s2", "s4"]


def test_a_batch_fingerprint_counts_each_call_as_often_as_it_is_made():
    ls = {"name": "ls", "args": {"path": "."}}
    grep = {"name": "grep", "args": {"pattern": "x"}}
    assert fingerprint([ls, ls]) != fingerprint([ls])
    assert fingerprint([ls, ls, grep]) != fingerprint([ls, grep, grep])
    assert fingerprint([ls, grep, ls]) == fingerprint([ls, ls, grep])
