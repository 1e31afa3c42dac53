"""The simulated agent loop: the middleware's hooks in the framework's order, where warnings land, what a stop
does to the assistant message, run scopes and the end of a run."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loopkit import DetectorConfig, PinnedMiddleware, RunScopedMiddleware
from loopkit.teaching.agent_loop import WARNING_NAME, AgentLoop, AgentRun, append_text
from loopkit.teaching.conversation import check_pairing, format_messages


def call(name, **args):
    return {"name": name, "args": args}


A = [call("bash", command="pytest")]
B = [call("bash", command="ls")]


def pinned(**fields):
    return PinnedMiddleware(DetectorConfig(**fields))


def kinds(messages):
    return [m.get("name", m["type"]) if m["type"] == "human" else m["type"] for m in messages]


def test_a_clean_run_pairs_every_call_with_its_result_and_answers():
    loop = AgentLoop()
    run = loop.run([A, [call("read_file", path="a.py"), call("grep", pattern="x")]], task="go")
    assert run.status == "answered" and run.actions == ["ok", "ok"]
    assert kinds(run.messages) == ["human", "ai", "tool", "ai", "tool", "tool", "ai"]
    second = run.messages[3]
    assert [(r["id"], r["name"], r["args"]) for r in second["tool_calls"]] == [
        ("call_2", "read_file", {"path": "a.py"}), ("call_3", "grep", {"pattern": "x"})]
    assert second["additional_kwargs"]["tool_calls"][0]["function"] == {"name": "read_file",
                                                                       "arguments": '{"path": "a.py"}'}
    assert second["response_metadata"] == {"finish_reason": "tool_calls"}
    assert [m["tool_call_id"] for m in run.messages[4:6]] == ["call_2", "call_3"]
    assert run.messages[0] == {"type": "human", "content": "go"}
    assert run.messages[-1]["tool_calls"] == [] and run.messages[-1]["content"]
    assert check_pairing(run.messages) is None


def test_a_warning_is_queued_then_appended_after_the_results_at_the_next_model_call():
    loop = AgentLoop(pinned(warn_threshold=2, hard_limit=9))
    run = loop.start([A, A, B])
    loop.step(run)
    step = loop.step(run)  # second A: warn
    assert step.decision.action == "warn" and step.outcome == "warned"
    assert kinds(run.messages) == ["human", "ai", "tool", "ai", "tool"]  # not in the conversation yet
    assert loop.middleware.pending == {("default", "default"): [step.decision]}
    assert step.pending_after == (step.decision,)
    step = loop.step(run)  # the next model call: wrap_model_call delivers it first, then the model's turn
    assert step.delivered == (run.steps[1].decision,)
    assert kinds(run.messages) == ["human", "ai", "tool", "ai", "tool", WARNING_NAME, "ai", "tool"]
    assert run.messages[5] == {"type": "human", "name": "loop_warning", "content": run.steps[1].decision.message}
    assert loop.middleware.pending == {} and step.pending_after == ()
    assert check_pairing(run.messages) is None


def test_several_warnings_for_one_model_call_become_one_message():
    loop = AgentLoop(pinned(warn_threshold=9, hard_limit=9, tool_freq_warn=1, tool_freq_hard_limit=9),
                     placement="after_results")
    run = loop.start([[call("grep", pattern="a")], [call("ls", path=".")], [call("bash", command="x")]])
    loop.step(run)
    # grep warned (count 1 >= 1); put a second warning in the queue before the next model call
    loop.middleware.after_model([call("find", path=".")], "default", "default")
    step = loop.step(run)
    assert [w.tool for w in step.delivered] == ["grep", "find"]
    warning = run.messages[3]
    assert warning["name"] == "loop_warning" and warning["content"].count("[loop detected]") == 2


def test_placing_the_warning_before_the_results_breaks_pairing():
    loop = AgentLoop(pinned(warn_threshold=2, hard_limit=9), placement="before_results")
    run = loop.run([A, A])
    assert kinds(run.messages) == ["human", "ai", "tool", "ai", WARNING_NAME, "tool", "ai"]
    assert check_pairing(run.messages) == "message 4 (human) comes before the result of call_2, requested by message 3"
    assert loop.middleware.pending == {}


def test_a_stop_strips_every_trace_of_the_calls_and_records_the_reason():
    middleware = pinned(warn_threshold=2, hard_limit=3)
    loop = AgentLoop(middleware)
    run = loop.run([A, A, A, A], run_id="r7")
    assert run.actions == ["ok", "warn", "stop"] and run.status == "stopped"
    last = run.messages[-1]
    assert last["type"] == "ai" and last["tool_calls"] == [] and "tool_calls" not in last["additional_kwargs"]
    assert last["response_metadata"]["finish_reason"] == "stop"
    assert last["content"] == "\n\n" + run.steps[-1].decision.message  # appended to the empty content
    assert run.steps[-1].outcome == "stopped: 1 call(s) stripped"
    assert kinds(run.messages).count("tool") == 2  # the stopped turn's call never ran
    assert check_pairing(run.messages) is None
    assert run.context == {"thread_id": "default", "run_id": "r7", "stop_reason": "loop_capped"}
    assert middleware.consume_stop_reason("r7") == "loop_capped" and middleware.consume_stop_reason("r7") is None
    with pytest.raises(ValueError, match="run 'r7' is over \\(stopped\\)"):
        loop.step(run)


def test_a_stop_keeps_other_additional_kwargs_and_drops_a_function_call():
    loop = AgentLoop(pinned(warn_threshold=1, hard_limit=1))
    run = loop.start([[call("grep", pattern="a"), call("grep", pattern="b")]])
    original = loop._assistant_message  # the message a provider integration would have built, plus extras

    def with_extras(calls):
        message = original(calls)
        message["additional_kwargs"].update(function_call={"name": "grep"}, refusal=None)
        return message

    loop._assistant_message = with_extras
    step = loop.step(run)
    assert step.outcome == "stopped: 2 call(s) stripped" and kinds(run.messages) == ["human", "ai"]
    assert run.messages[1]["additional_kwargs"] == {"refusal": None}


def test_append_text_follows_the_content_shape():
    blocks = [{"type": "thinking", "thinking": "hmm"}]
    assert append_text("done", "STOP") == "done\n\nSTOP"
    assert append_text(None, "STOP") == "STOP"
    assert append_text(blocks, "STOP") == [*blocks, {"type": "text", "text": "\n\nSTOP"}] and len(blocks) == 1


def test_end_of_run_drops_only_its_own_pending_warnings():
    loop = AgentLoop(pinned(warn_threshold=2, hard_limit=9))
    mine = loop.start([A, A, A], thread_id="t1", run_id="r1")
    other = loop.start([B, B, B], thread_id="t2", run_id="r9")
    for run in (mine, mine, other, other):
        loop.step(run)
    assert set(loop.middleware.pending) == {("t1", "r1"), ("t2", "r9")}
    dropped = loop.finish(mine)
    assert [w.action for w in dropped] == ["warn"] and mine.status == "ended"
    assert set(loop.middleware.pending) == {("t2", "r9")}
    assert len(loop.step(other).delivered) == 1  # the other run still gets its warning


def test_turn_limit_ends_the_run_and_drops_its_queued_warning():
    loop = AgentLoop(pinned(warn_threshold=2, hard_limit=9))
    run = loop.run([A] * 5, run_id="r1", max_turns=2)
    assert run.status == "turn_limit" and run.actions == ["ok", "warn"]
    assert loop.middleware.pending == {}
    assert loop.run([B], run_id="r2").steps[0].delivered == ()  # the next run in the thread starts clean


def test_pinned_runs_of_one_thread_share_a_budget_run_scoped_ones_do_not():
    early, late = AgentLoop(PinnedMiddleware()), AgentLoop(RunScopedMiddleware())
    for loop in (early, late):
        assert loop.run([A] * 4, run_id="r1").actions == ["ok", "ok", "warn", "ok"]
    assert early.run([A] * 4, run_id="r2").actions == ["stop"]  # the thread's window already holds four
    assert late.run([A] * 4, run_id="r2").actions == ["ok", "ok", "warn", "ok"]
    assert late.run([A] * 4, run_id="r1").actions == ["stop"]  # r1 kept its own four


def test_a_run_drops_the_threads_stale_warnings_at_pinned_only():
    early, late = AgentLoop(pinned(warn_threshold=2, hard_limit=9)), AgentLoop(
        RunScopedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=9)))
    for loop in (early, late):
        old = loop.start([A, A], run_id="old")
        loop.step(old)
        loop.step(old)  # a warning is queued for "old", and old never ends (a crashed run)
        loop.start([B], run_id="new")  # before_agent of the new run
    assert early.middleware.pending == {}
    assert list(late.middleware.pending) == [("default", "old")]


def test_threads_have_their_own_conversations():
    loop = AgentLoop()
    a = loop.run([A], thread_id="t1")
    b = loop.run([A], thread_id="t2")
    assert a.messages is loop.messages("t1") and b.messages is loop.messages("t2") and a.messages is not b.messages


def test_tools_answer_through_the_given_functions_with_parsed_arguments():
    loop = AgentLoop(tools={"bash": lambda args: f"$ {args['command']}"})
    run = loop.run([A, [call("grep", pattern="x")], [{"name": "bash", "args": '{"command": "make"}'}]])
    assert [m["content"] for m in run.messages if m["type"] == "tool"] == [
        "$ pytest", 'grep done: {"pattern": "x"}', "$ make"]


def test_string_arguments_pass_through_as_sent():
    run = AgentLoop().run([[{"name": "bash", "args": '{"command": "ls"}'}], [{"name": "bash", "args": "ls -la"}]])
    first, second = run.messages[1], run.messages[3]
    assert first["tool_calls"][0]["args"] == '{"command": "ls"}'
    assert first["additional_kwargs"]["tool_calls"][0]["function"]["arguments"] == '{"command": "ls"}'
    assert second["additional_kwargs"]["tool_calls"][0]["function"]["arguments"] == "ls -la"
    assert run.messages[4]["content"] == "bash done: ls -la"


def test_arguments_json_cannot_hold_are_answered_not_raised():
    run = AgentLoop().run([[call("bash", command="ls", env={1})]])
    assert run.status == "answered" and check_pairing(run.messages) is None
    assert run.messages[2]["content"] == 'bash done: {"command": "ls", "env": "{1}"}'


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="placement must be one of"):
        AgentLoop(placement="middle")
    with pytest.raises(TypeError, match="middleware must be a PinnedMiddleware or RunScopedMiddleware, got str"):
        AgentLoop("middleware")
    with pytest.raises(TypeError, match="tools must map a tool name"):
        AgentLoop(tools={"bash": "not callable"})
    loop = AgentLoop()
    with pytest.raises(TypeError, match=r"script\[0\] is a single call"):
        loop.start(A)
    with pytest.raises(TypeError, match="task must be a string"):
        loop.start([A], task=None)
    with pytest.raises(ValueError, match="max_turns must be at least 1, got 0"):
        loop.run([A], max_turns=0)
    with pytest.raises(TypeError, match="run must be an AgentRun"):
        loop.step("r1")


@pytest.mark.parametrize("script, says", [
    ([["bash"]], r"script\[0\]\[0\] must be a mapping with 'name' and 'args', got str"),
    ([A, [A[0], 42]], r"script\[1\]\[1\] must be a mapping with 'name' and 'args', got int"),
    ([[{"name": 7, "args": {}}]], r"script\[0\]\[0\]\['name'\] must be a str, got int"),
])
def test_bad_calls_are_named_before_anything_changes(script, says):
    loop = AgentLoop()
    with pytest.raises(TypeError, match=says):
        loop.run(script)
    assert loop.messages() == [] and loop.middleware.detector.scopes == [] and loop.middleware.pending == {}


def test_run_object_is_what_start_returns():
    run = AgentLoop().start([A])
    assert isinstance(run, AgentRun) and run.status == "running" and not run.done and run.steps == []


# -- check_pairing and format_messages ---------------------------------------------------------------------------
def asks(*ids):
    return {"role": "assistant", "content": "", "tool_calls": [{"id": i} for i in ids]}


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
    ([asks("a", ""), result("a")], "message 0 (assistant): tool call 1 has id ''; expected a non-empty string id"),
    ([{"role": "assistant", "tool_calls": ["c1"]}],
     "message 0 (assistant): tool call 0 is a str; expected a mapping with an 'id'"),
    ([{"type": "ai", "tool_calls": [{"id": "c"}]}, {"type": "human", "content": "w"}],
     "message 1 (human) comes before the result of c, requested by message 0"),
    ([{"type": "ai", "tool_calls": []}, {"type": "tool", "tool_call_id": "c"}],
     "message 1 (tool) answers c, which no open assistant message requested"),
])
def test_check_pairing_reports_the_first_violation(messages, expected):
    assert check_pairing(messages) == expected


def test_check_pairing_rejects_what_is_not_a_message_list():
    with pytest.raises(TypeError, match="messages must be a list"):
        check_pairing(3)
    with pytest.raises(TypeError, match=r"messages\[1\] must be a mapping with a 'role' or 'type'"):
        check_pairing([{"role": "user"}, {"content": "x"}])


def test_format_messages_lists_one_line_per_message_and_per_call():
    loop = AgentLoop(pinned(warn_threshold=1, hard_limit=2))
    run = loop.run([[call("grep", pattern="x"), call("bash", command="ls")]], task="find it")
    lines = format_messages(run.messages, width=200).splitlines()
    assert lines[0] == " 0 human      find it"
    assert lines[1] == ' 1 ai         -> call_1 grep {"pattern": "x"}'
    assert lines[2] == '              -> call_2 bash {"command": "ls"}'
    assert lines[3] == ' 2 tool       call_1: grep done: {"pattern": "x"}'
    assert lines[5].startswith(" 4 human:loop_warning [loop detected]")
    assert format_messages(run.messages, start=5).splitlines()[0].startswith(" 5 ai         Here is my answer")
    assert format_messages([asks("c1")]).startswith(" 0 assistant  -> c1 None")
    assert all(len(line) <= 22 + 20 for line in format_messages(run.messages, width=20).splitlines())


# -- invariants over random scripts ------------------------------------------------------------------------------
tool_calls = st.builds(lambda name, arg: {"name": name, "args": {"command": arg}},
                       st.sampled_from(["bash", "grep", "read_file"]), st.sampled_from(["a", "b"]))
scripts = st.lists(st.lists(tool_calls, min_size=1, max_size=3), max_size=12)


@settings(max_examples=60)
@given(scripts, st.integers(1, 4), st.integers(0, 3), st.sampled_from([PinnedMiddleware, RunScopedMiddleware]))
def test_queued_placement_always_pairs_and_eager_placement_breaks_exactly_on_warnings(script, warn, extra, kind):
    cfg = DetectorConfig(warn_threshold=warn, hard_limit=warn + extra, tool_freq_warn=warn + 1,
                         tool_freq_hard_limit=warn + 4)
    queued = AgentLoop(kind(cfg)).run(script)
    eager = AgentLoop(kind(cfg), placement="before_results").run(script)
    assert check_pairing(queued.messages) is None
    assert queued.actions == eager.actions  # placement never changes a decision
    assert (check_pairing(eager.messages) is not None) == ("warn" in queued.actions)
    delivered = sum(len(s.delivered) for s in queued.steps)
    assert delivered == queued.actions.count("warn")  # every warning reaches the model: the next call drains it
    assert queued.status in ("answered", "stopped") and (queued.status == "stopped") == ("stop" in queued.actions)



def test_in_spanish_the_simulated_talk_is_spanish_and_the_middlewares_texts_are_not(spanish):
    loop = AgentLoop(pinned(warn_threshold=2, hard_limit=3))
    run = loop.run([A] * 4, run_id="r1")
    assert run.messages[0]["content"] == "Por favor, arregla el test que falla."
    assert [s.outcome for s in run.steps] == ["herramientas ejecutadas", "con aviso",
                                              "parada: 1 llamada(s) eliminada(s)"]
    assert (run.actions, run.status) == (["ok", "warn", "stop"], "stopped")  # code words stay
    assert run.messages[5]["content"] == run.steps[1].decision.message  # the middleware's warning, as it writes it
    assert run.messages[5]["content"].startswith("[loop detected]")
    assert loop.run([A], thread_id="t2", task="go").steps[-1].outcome == "respuesta final"
    assert loop.messages("t2")[-1]["content"] == "Esta es mi respuesta, basada en lo que devolvieron las herramientas."


def test_in_spanish_check_pairing_reports_in_spanish(spanish):
    assert check_pairing([asks("c1"), {"role": "user", "content": "!"}]) == (
        "el mensaje 1 (user) llega antes del resultado de c1, pedido por el mensaje 0")
    assert check_pairing([asks("a", "b"), asks("c")]) == (
        "el mensaje 1 (assistant) llega antes de los resultados de a, b, pedidos por el mensaje 0")
    assert check_pairing([asks("a", "b"), result("a")]) == "nunca llegó un resultado para b del mensaje 0"
    assert check_pairing([result("c7")]) == (
        "el mensaje 0 (tool) responde a c7, que ningún mensaje abierto del asistente pidió")
    assert check_pairing([asks(7), result(7)]) == (
        "mensaje 0 (assistant): la llamada a herramienta 0 tiene el id 7; se esperaba un id de tipo cadena no vacía")
    assert check_pairing([{"role": "assistant", "tool_calls": ["c1"]}]) == (
        "mensaje 0 (assistant): la llamada a herramienta 0 es un str; se esperaba un mapping con un 'id'")
