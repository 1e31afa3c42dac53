"""The simulated agent loop: warning placement and draining, stops that strip calls, run scopes, end of run."""

import pytest

from loopkit import LoopDetector
from loopkit.lifecycle import AgentLoop, Run, check_pairing, format_messages


def call(name, **args):
    return {"name": name, "args": args}


A = [call("bash", command="pytest")]
B = [call("bash", command="ls")]


def roles(messages):
    return [m["role"] for m in messages]


def test_a_clean_run_pairs_every_call_with_its_result_and_answers():
    loop = AgentLoop()
    run = loop.run([A, [call("read_file", path="a.py"), call("grep", pattern="x")]], task="go")
    assert run.status == "answered" and run.actions == ["ok", "ok"]
    assert roles(run.messages) == ["user", "assistant", "tool", "assistant", "tool", "tool", "assistant"]
    second = run.messages[3]
    assert [r["id"] for r in second["tool_calls"]] == ["call_2", "call_3"]
    assert [r["function"]["name"] for r in second["tool_calls"]] == ["read_file", "grep"]
    assert second["tool_calls"][0]["function"]["arguments"] == '{"path": "a.py"}'
    assert [m["tool_call_id"] for m in run.messages[4:6]] == ["call_2", "call_3"]
    assert run.messages[0] == {"role": "user", "content": "go"}
    assert "tool_calls" not in run.messages[-1] and run.messages[-1]["content"]
    assert check_pairing(run.messages) is None


def test_warning_is_queued_then_appended_after_the_results_at_the_next_model_call():
    loop = AgentLoop(LoopDetector(warn_threshold=2, hard_limit=9))
    run = loop.start([A, A, B])
    loop.step(run)
    step = loop.step(run)  # second A: warn
    assert step.decision.action == "warn" and step.outcome == "warned"
    assert roles(run.messages) == ["user", "assistant", "tool", "assistant", "tool"]  # not inserted yet
    assert loop.pending == {("default", "default"): [step.decision.message]}
    assert step.pending_after == (step.decision.message,)
    step = loop.step(run)  # the next model call: delivered first, then the model's turn
    assert step.delivered == (run.steps[1].decision.message,)
    assert roles(run.messages) == ["user", "assistant", "tool", "assistant", "tool", "user", "assistant", "tool"]
    assert run.messages[5]["content"] == run.steps[1].decision.message
    assert loop.pending == {} and step.pending_after == ()
    assert check_pairing(run.messages) is None


def test_placing_the_warning_before_the_results_breaks_pairing():
    loop = AgentLoop(LoopDetector(warn_threshold=2, hard_limit=9), placement="before_results")
    run = loop.run([A, A])
    assert roles(run.messages) == ["user", "assistant", "tool", "assistant", "user", "tool", "assistant"]
    assert check_pairing(run.messages) == "message 4 (user) comes before the result of call_2, requested by message 3"
    assert loop.pending == {}


def test_a_stop_strips_the_calls_appends_the_stop_text_and_records_the_reason():
    detector = LoopDetector(warn_threshold=2, hard_limit=3)
    loop = AgentLoop(detector)
    run = loop.run([A, A, A, A], run_id="r7")
    assert run.actions == ["ok", "warn", "stop"] and run.status == "stopped"
    last = run.messages[-1]
    assert last["role"] == "assistant" and "tool_calls" not in last
    assert last["content"] == run.steps[-1].decision.message and "final answer" in last["content"]
    assert run.steps[-1].outcome == "stopped: 1 call(s) stripped"
    assert roles(run.messages).count("tool") == 2  # the stopped turn's call never ran
    assert check_pairing(run.messages) is None
    assert detector.stop_reasons == {"r7": "loop_capped"}
    assert detector.consume_stop_reason("r7") == "loop_capped" and detector.consume_stop_reason("r7") is None
    with pytest.raises(ValueError, match="run 'r7' is over \\(stopped\\)"):
        loop.step(run)


def test_a_multi_call_stop_strips_every_call():
    loop = AgentLoop(LoopDetector(warn_threshold=1, hard_limit=1))
    run = loop.run([[call("grep", pattern="a"), call("grep", pattern="b")]])
    assert roles(run.messages) == ["user", "assistant"] and run.steps[0].outcome == "stopped: 2 call(s) stripped"


def test_end_of_run_drops_only_its_own_pending_warnings():
    loop = AgentLoop(LoopDetector(warn_threshold=2, hard_limit=9))
    mine = loop.start([A, A, A], thread_id="t1", run_id="r1")
    other = loop.start([B, B, B], thread_id="t2", run_id="r9")
    for run in (mine, mine, other, other):
        loop.step(run)
    assert set(loop.pending) == {("t1", "r1"), ("t2", "r9")}
    dropped = loop.finish(mine)
    assert len(dropped) == 1 and mine.status == "ended"
    assert set(loop.pending) == {("t2", "r9")}
    step = loop.step(other)
    assert len(step.delivered) == 1  # the other run still gets its warning


def test_turn_limit_ends_the_run_and_drops_its_queued_warning():
    loop = AgentLoop(LoopDetector(warn_threshold=2, hard_limit=9))
    run = loop.run([A] * 5, run_id="r1", max_turns=2)
    assert run.status == "turn_limit" and run.actions == ["ok", "warn"]
    assert loop.pending == {}
    nxt = loop.run([B], run_id="r2")  # the next run in the thread starts clean
    assert nxt.steps[0].delivered == ()


def test_a_fresh_run_id_starts_a_fresh_budget_but_the_same_run_id_carries_it():
    loop = AgentLoop(LoopDetector())  # warn 3, hard 5
    first = loop.run([A] * 4, run_id="r1")
    assert first.actions == ["ok", "ok", "warn", "ok"] and first.status == "answered"
    fresh = loop.run([A] * 4, run_id="r2")
    assert fresh.actions == ["ok", "ok", "warn", "ok"]  # the same four calls again, not caught
    again = loop.run([A] * 4, run_id="r1")
    assert again.actions == ["stop"]  # r1 already had four in its window
    assert fresh.messages is first.messages  # one thread, one conversation
    # r1: task, 4 x (call, result), the warning delivered before turn 4, the answer = 11 messages
    assert (first.first_message, fresh.first_message, again.first_message) == (0, 11, 22)
    assert roles(again.own_messages) == ["user", "assistant"]


def test_threads_have_their_own_conversations():
    loop = AgentLoop()
    a = loop.run([A], thread_id="t1")
    b = loop.run([A], thread_id="t2")
    assert a.messages is loop.messages("t1") and b.messages is loop.messages("t2") and a.messages is not b.messages


def test_tools_answer_through_the_given_functions():
    loop = AgentLoop(tools={"bash": lambda args: f"$ {args['command']}\n1 failed"})
    run = loop.run([A, [call("grep", pattern="x")]])
    assert run.messages[2]["content"] == "$ pytest\n1 failed"
    assert run.messages[4]["content"] == 'grep done: {"pattern": "x"}'


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="placement must be one of"):
        AgentLoop(placement="middle")
    with pytest.raises(TypeError, match="detector must be a LoopDetector"):
        AgentLoop("detector")
    with pytest.raises(TypeError, match="tools must map a tool name"):
        AgentLoop(tools={"bash": "not callable"})
    loop = AgentLoop()
    with pytest.raises(TypeError, match=r"batches\[0\] is a single call"):
        loop.start(A)
    with pytest.raises(TypeError, match="task must be a string"):
        loop.start([A], task=None)
    with pytest.raises(ValueError, match="max_turns must be an int >= 1"):
        loop.run([A], max_turns=0)
    with pytest.raises(TypeError, match="run must be a Run"):
        loop.step("r1")



def test_openai_string_arguments_pass_through_as_sent():
    # what load_trace gives for an openai-chat or Responses transcript: the arguments are a JSON string
    loop = AgentLoop(LoopDetector())
    run = loop.run([[{"name": "bash", "args": '{"command": "ls"}', "id": "call_9"}]])
    request = run.messages[1]["tool_calls"][0]
    assert request["function"] == {"name": "bash", "arguments": '{"command": "ls"}'}
    assert run.messages[2]["content"] == 'bash done: {"command": "ls"}'  # the tool reads the parsed arguments
    # a dict is encoded once; text that is not a JSON object is passed through and answered as sent
    run = loop.run([[call("grep", pattern="x")], [{"name": "bash", "args": "ls -la"}]], run_id="r2")
    assert run.own_messages[1]["tool_calls"][0]["function"]["arguments"] == '{"pattern": "x"}'
    assert run.own_messages[3]["tool_calls"][0]["function"]["arguments"] == "ls -la"
    assert run.own_messages[4]["content"] == "bash done: ls -la"


def test_a_tool_function_gets_the_parsed_arguments():
    loop = AgentLoop(tools={"bash": lambda args: f"$ {args['command']}"})
    assert loop.run([[{"name": "bash", "args": '{"command": "make"}'}]]).messages[2]["content"] == "$ make"


def test_arguments_json_cannot_hold_are_answered_not_raised():
    loop = AgentLoop(LoopDetector())
    run = loop.run([[call("bash", command="ls", env={1})]])
    assert run.status == "answered" and check_pairing(run.messages) is None
    assert run.messages[2]["content"] == 'bash done: {"command": "ls", "env": "{1}"}'


@pytest.mark.parametrize("script, says", [
    ([["bash"]], r"script turn 1, call 0 must be a mapping with 'name' and 'args', got str"),
    ([A, [A[0], 42]], r"script turn 2, call 1 must be a mapping with 'name' and 'args', got int"),
    ([[{"name": 7, "args": {}}]], r"script turn 1, call 0 needs a string 'name', got int"),
])
def test_bad_calls_are_named_before_anything_changes(script, says):
    detector = LoopDetector()
    loop = AgentLoop(detector)
    with pytest.raises(TypeError, match=says):
        loop.run(script)
    assert loop.messages() == [] and detector.scopes == [] and loop.pending == {}

# -- check_pairing -----------------------------------------------------------------------------------------------
def asks(*ids, index_content=""):
    return {"role": "assistant", "content": index_content, "tool_calls": [{"id": i} for i in ids]}


def result(i):
    return {"role": "tool", "tool_call_id": i, "content": "ok"}


@pytest.mark.parametrize("messages, expected", [
    ([{"role": "user", "content": "q"}, asks("a", "b"), result("b"), result("a")], None),  # any order of results
    ([asks("a", "b"), result("a"), {"role": "user", "content": "w"}, result("b")],
     "message 2 (user) comes before the result of b, requested by message 0"),
    ([asks("a", "b"), asks("c")], "message 1 (assistant) comes before the results of a, b, requested by message 0"),
    ([{"role": "user", "content": "q"}, result("a")],
     "message 1 (tool) answers a, which no open assistant message requested"),
    ([asks("a"), result("a"), result("a")], "message 2 (tool) answers a, which no open assistant message requested"),
    ([asks("a", "b"), result("a")], "b of message 0 never got a result"),
    ([{"role": "assistant", "content": "final"}], None),
    ([asks(7), result(7)], "message 0 (assistant): tool call 0 has id 7; expected a non-empty string id"),
    ([{"role": "assistant", "tool_calls": [{"type": "function"}]}],
     "message 0 (assistant): tool call 0 has id None; expected a non-empty string id"),
    ([asks("a", ""), result("a")], "message 0 (assistant): tool call 1 has id ''; expected a non-empty string id"),
    ([{"role": "assistant", "tool_calls": ["c1"]}],
     "message 0 (assistant): tool call 0 is a str; expected a mapping with an 'id'"),
])
def test_check_pairing_reports_the_first_violation(messages, expected):
    assert check_pairing(messages) == expected


def test_check_pairing_rejects_what_is_not_a_message_list():
    with pytest.raises(TypeError, match="messages must be a list"):
        check_pairing(3)
    with pytest.raises(TypeError, match=r"messages\[1\] must be a mapping with a 'role'"):
        check_pairing([{"role": "user"}, {"content": "x"}])


def test_format_messages_lists_one_line_per_message_and_per_call():
    loop = AgentLoop(LoopDetector(warn_threshold=1, hard_limit=2))
    run = loop.run([[call("grep", pattern="x"), call("bash", command="ls")]], task="find it")
    text = format_messages(run.messages, width=200)
    lines = text.splitlines()
    assert lines[0] == " 0 user       find it"
    assert lines[1] == ' 1 assistant  -> call_1 grep {"pattern": "x"}'
    assert lines[2] == '              -> call_2 bash {"command": "ls"}'
    assert lines[3] == ' 2 tool       call_1: grep done: {"pattern": "x"}'
    assert lines[5].startswith(" 4 user       Loop warning:")
    assert format_messages(run.messages, start=5).splitlines()[0].startswith(" 5 assistant  Here is my answer")
    assert all(len(line) <= 14 + 20 for line in format_messages(run.messages, width=20).splitlines())


def test_run_object_is_what_start_returns():
    run = AgentLoop().start([A])
    assert isinstance(run, Run) and run.status == "running" and not run.done and run.steps == []


# -- invariants over random scripts ------------------------------------------------------------------------------
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

tool_calls = st.builds(lambda name, arg: {"name": name, "args": {"command": arg}},
                       st.sampled_from(["bash", "grep", "read_file"]), st.sampled_from(["a", "b"]))
scripts = st.lists(st.lists(tool_calls, min_size=1, max_size=3), max_size=12)


@settings(max_examples=60)
@given(scripts, st.integers(1, 4), st.integers(0, 3))
def test_queued_placement_always_pairs_and_eager_placement_breaks_exactly_on_warnings(script, warn, extra):
    cfg = dict(warn_threshold=warn, hard_limit=warn + extra, tool_freq_warn=warn + 1, tool_freq_hard_limit=warn + 4)
    queued = AgentLoop(LoopDetector(**cfg)).run(script)
    eager = AgentLoop(LoopDetector(**cfg), placement="before_results").run(script)
    assert check_pairing(queued.messages) is None
    assert queued.actions == eager.actions  # placement never changes a decision
    warned = "warn" in queued.actions
    assert (check_pairing(eager.messages) is not None) == warned
    delivered = sum(len(s.delivered) for s in queued.steps)
    assert delivered == queued.actions.count("warn")  # every warning reaches the model: the next call drains it
    assert queued.status in ("answered", "stopped") and (queued.status == "stopped") == ("stop" in queued.actions)


def test_exercise_6_4_takes_none_written_as_text():
    from loopkit.exercises.ch06 import q4

    assert q4.verify(None).ok and q4.verify("None").ok and q4.verify(" none ").ok
    assert not q4.verify("loop_capped").ok and not q4.verify("nothing").ok
