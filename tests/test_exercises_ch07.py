"""The reference answers of chapter 07 agree with what the two models do on the question's data, and each listed slip
is what the other model, or a plausible wrong rule, gives on the same data."""

from loopkit import DetectorConfig, PinnedMiddleware, RunScopedMiddleware
from loopkit.teaching import versions
from loopkit.teaching.exercises import ch07

TEST = [{"name": "bash", "args": {"command": "pytest"}}]
BATCH_7_1 = [{"name": name, "args": {"command": c}} for name, c in
             (("bash", "ls"), ("bash", "pwd"), ("grep", "x"), ("bash", "cat"))]
CONFIG_7_1 = DetectorConfig(tool_freq_warn=2, tool_freq_hard_limit=3)


def decide_7_1(middleware):
    d = middleware.after_model(BATCH_7_1, "t", "r")
    return d.action, d.tool, d.count


def test_7_1_the_later_model_stops_the_batch():
    assert decide_7_1(RunScopedMiddleware(CONFIG_7_1)) == ch07.q1.solution_value


def test_7_1_the_pinned_answer_is_a_listed_misconception():
    pinned = decide_7_1(PinnedMiddleware(CONFIG_7_1))
    assert pinned != ch07.q1.solution_value and "f1f4af99" in ch07.q1.verify(pinned).explanation


def test_7_1_the_other_slips_are_what_a_wrong_rule_gives():
    action, tool, _ = ch07.q1.solution_value
    position = 1 + max(i for i, call in enumerate(BATCH_7_1) if call["name"] == tool)   # counting batch positions
    assert (action, tool, position) in ch07.q1.wrong_answers
    hash_layer_only = DetectorConfig(tool_freq_warn=100, tool_freq_hard_limit=200)      # counting repeats, not names
    assert decide_7_1(RunScopedMiddleware(hash_layer_only)) in ch07.q1.wrong_answers
    stop = RunScopedMiddleware(CONFIG_7_1).after_model(BATCH_7_1, "t", "r")
    assert (stop.action, stop.layer, stop.count) in ch07.q1.wrong_answers                # the layer for the tool
    assert (action, tool, CONFIG_7_1.tool_freq_warn) in ch07.q1.wrong_answers          # a stop at the warn count
    issue = versions.get("issue_5243")                                                  # the issue's batch, copied
    [later] = versions.play(issue, RunScopedMiddleware(issue.config))
    assert (later.action, later.tool, later.count) in ch07.q1.wrong_answers


def actions_in_seven_turns(middleware, *, reset_after_stop=False):
    actions = []
    for turn in range(1, 8):
        middleware.before_agent("thread", f"turn-{turn}")
        actions.append(middleware.after_model(TEST, "thread", f"turn-{turn}").action)
        middleware.after_agent("thread", f"turn-{turn}")
        if reset_after_stop and actions[-1] == "stop":
            middleware.reset("thread")
    return actions


def test_7_2_seven_turns_of_a_reused_agent():
    assert actions_in_seven_turns(PinnedMiddleware()).count("stop") == ch07.q2.solution_value


def test_7_2_the_run_scoped_answer_is_a_listed_misconception():
    later = actions_in_seven_turns(RunScopedMiddleware()).count("stop")
    assert later != ch07.q2.solution_value and "PR #5344" in ch07.q2.verify(later).explanation


def test_7_2_the_other_slips_are_what_a_wrong_rule_gives():
    wrong = ch07.q2.wrong_answers
    assert actions_in_seven_turns(PinnedMiddleware(), reset_after_stop=True).count("stop") in wrong  # a stop empties
    five_repeats = DetectorConfig(hard_limit=DetectorConfig().hard_limit + 1)  # "5" read as repeats, not occurrences
    assert actions_in_seven_turns(PinnedMiddleware(five_repeats)).count("stop") in wrong
    flagged = actions_in_seven_turns(PinnedMiddleware())
    assert len(flagged) - flagged.count("ok") in wrong                                     # a warning read as a stop


def test_7_3_scope_key_names_the_state_each_middleware_uses():
    for thread, run in (("t1", "r1"), (None, "r2"), ("", None), (7, "r3")):
        pinned, later = PinnedMiddleware(), RunScopedMiddleware()
        assert ch07.scope_key("pinned", thread, run) == pinned.scope(thread, run)
        assert ch07.scope_key("run-scoped", thread, run) == later.scope(thread, run)


def test_7_3_every_hidden_case_is_what_the_middlewares_use():
    for case in ch07.q3.cases:
        version, thread, run = case.args
        middleware = PinnedMiddleware() if version == "pinned" else RunScopedMiddleware()
        assert middleware.scope(thread, run) == case.expected, case.idea
    check = ch07.q3.verify(lambda version, thread_id, run_id: (
        PinnedMiddleware() if version == "pinned" else RunScopedMiddleware()).scope(thread_id, run_id))
    assert check.ok, check.explanation


def test_7_3_each_wrong_function_fails_on_its_own_idea():
    """The wrong functions fail on different cases, each with the idea it missed, not all on the first case."""
    ideas = [ch07.q3.verify(wrong).explanation.split("That input tests this: ")[1] for wrong in ch07.q3.wrong_answers]
    assert len(set(ideas)) >= 6, ideas
