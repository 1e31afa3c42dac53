"""The reference answers of chapter 07 agree with what the two models do on the question's data, and the other
model's answer is a listed misconception."""

from loopkit import DetectorConfig, PinnedMiddleware, RunScopedMiddleware
from loopkit.exercises import ch07

TEST = [{"name": "bash", "args": {"command": "pytest"}}]


def decide_7_1(middleware_class):
    batch = [{"name": name, "args": {"command": c}} for name, c in
             (("bash", "ls"), ("bash", "pwd"), ("grep", "x"), ("bash", "cat"))]
    d = middleware_class(DetectorConfig(tool_freq_warn=2, tool_freq_hard_limit=3)).after_model(batch, "t", "r")
    return d.action, d.tool, d.count


def test_7_1_the_later_model_stops_the_batch():
    assert decide_7_1(RunScopedMiddleware) == ch07.q1.solution_value


def test_7_1_the_pinned_answer_is_a_listed_misconception():
    pinned = decide_7_1(PinnedMiddleware)
    assert pinned != ch07.q1.solution_value and "f1f4af99" in ch07.q1.verify(pinned).explanation


def stops_in_seven_turns(middleware):
    stopped = 0
    for turn in range(1, 8):
        middleware.before_agent("thread", f"turn-{turn}")
        stopped += middleware.after_model(TEST, "thread", f"turn-{turn}").action == "stop"
        middleware.after_agent("thread", f"turn-{turn}")
    return stopped


def test_7_2_seven_turns_of_a_reused_agent():
    assert stops_in_seven_turns(PinnedMiddleware()) == ch07.q2.solution_value


def test_7_2_the_run_scoped_answer_is_a_listed_misconception():
    later = stops_in_seven_turns(RunScopedMiddleware())
    assert later != ch07.q2.solution_value and "PR #5344" in ch07.q2.verify(later).explanation


def test_7_3_scope_key_names_the_state_each_middleware_uses():
    for thread, run in (("t1", "r1"), (None, "r2"), ("", None), (7, "r3")):
        pinned, later = PinnedMiddleware(), RunScopedMiddleware()
        assert ch07.scope_key("pinned", thread, run) == pinned.scope(thread, run)
        assert ch07.scope_key("run-scoped", thread, run) == later.scope(thread, run)


def test_7_3_every_hidden_case_is_what_the_middlewares_use():
    check = ch07.q3.verify(lambda version, thread_id, run_id: (
        PinnedMiddleware() if version == "pinned" else RunScopedMiddleware()).scope(thread_id, run_id))
    assert check.ok, check.explanation
