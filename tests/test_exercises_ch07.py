"""The reference answers of chapter 07 agree with what the two models do on the question's data."""

from loopkit import DetectorConfig, PinnedMiddleware, RunScopedMiddleware
from loopkit.exercises import ch07


def test_7_1_the_later_model_stops_the_batch_the_pinned_one_warns_on():
    batch = [{"name": name, "args": {"command": c}} for name, c in
             (("bash", "ls"), ("bash", "pwd"), ("grep", "x"), ("bash", "cat"))]
    cfg = DetectorConfig(tool_freq_warn=2, tool_freq_hard_limit=3)
    later = RunScopedMiddleware(cfg).after_model(batch, "t", "r")
    pinned = PinnedMiddleware(cfg).after_model(batch, "t", "r")
    assert (later.action, later.tool, later.count) == ch07.q1.solution_value
    assert (pinned.action, pinned.tool, pinned.count) in ch07.q1.wrong_answers


def test_7_2_seven_turns_of_a_reused_agent():
    test = [{"name": "bash", "args": {"command": "pytest"}}]
    pinned, later = PinnedMiddleware(), RunScopedMiddleware()
    stopped = {"pinned": 0, "later": 0}
    for turn in range(1, 8):
        for name, m in (("pinned", pinned), ("later", later)):
            m.before_agent("thread", f"turn-{turn}")
            stopped[name] += m.after_model(test, "thread", f"turn-{turn}").action == "stop"
            m.after_agent("thread", f"turn-{turn}")
    assert stopped["pinned"] == ch07.q2.solution_value and stopped["later"] == 0


def test_7_3_scope_key_names_the_state_each_middleware_uses():
    for thread, run in (("t1", "r1"), (None, "r2"), ("", None), (7, "r3")):
        pinned, later = PinnedMiddleware(), RunScopedMiddleware()
        assert ch07.scope_key("pinned", thread, run) == pinned.scope(thread, run)
        assert ch07.scope_key("run-scoped", thread, run) == later.scope(thread, run)
