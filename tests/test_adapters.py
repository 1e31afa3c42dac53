"""The transcript adapters beyond the four chat APIs: each format's sample (tests/data/transcripts/, invented
content), its batching and skipped records, malformed input located at FILE:LINE, the no-silent-zero error, and
files that hold several runs. Expected batches are read off the samples by hand (see the comments)."""

import json
import pathlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loopkit.traces.adapters import FORMATS, TraceError, batches_from_messages, iter_runs, iter_trace, load_trace

SAMPLES = pathlib.Path(__file__).resolve().parent / "data" / "transcripts"


def names(path, **kwargs):
    """Per run: the tool names of each batch."""
    result = []
    for run in iter_runs(path, **kwargs):
        result.append([[call["name"] for call in batch.calls] for batch in run])
    return result


def write(tmp_path, name, records=None, text=None):
    path = tmp_path / name
    if text is None:
        text = "".join(json.dumps(r) + "\n" for r in records) if name.endswith("jsonl") else json.dumps(records)
    path.write_text(text)
    return path


# -- every sample: detected, batched, counted ------------------------------------------------------------------------

SAMPLE_CASES = [
    # Claude Code: msg_01 spans three lines (text, Read, Grep) -> one batch; summary, snapshot and system skipped
    ("claude_code.session.jsonl", "claude-code", [[["Read", "Grep"], ["Edit"], ["Bash"], ["Write"]]],
     "13 messages, 4 batches, 5 tool calls; skipped 3 other records (1 summary, 1 file-history-snapshot, 1 system)"),
    # Codex: two shell calls in a row are one batch; an event_msg between calls does not split it
    ("codex_rollout.jsonl", "codex", [[["shell", "shell"], ["apply_patch"], ["local_shell"]]],
     "12 messages, 3 batches, 4 tool calls; skipped 5 other records (3 event_msg, 1 session_meta, 1 turn_context)"),
    ("deerflow_thread.json", "langchain", [[["ls"], ["read_file", "bash"], ["write_file"]]],
     "in a LangGraph thread state under 'values'; 10 messages, 3 batches, 4 tool calls"),
    ("langchain_dumpd.json", "langchain", [[["web_search"], ["web_fetch"]]], "7 messages, 2 batches, 2 tool calls"),
    # OpenHands: the two actions of resp-single-1 are one batch although an observation sits between them
    ("openhands_events.json", "openhands", [[["execute_bash", "str_replace_editor"], ["str_replace_editor"],
                                             ["finish"]]],
     "9 messages, 3 batches, 4 tool calls; skipped 1 other record (1 action 'change_agent_state')"),
    ("gemini_session.json", "gemini-cli", [[["read_file", "run_shell_command"], ["replace"]]],
     "5 messages, 2 batches, 3 tool calls"),
    ("inspect_log.json", "inspect-ai", [[["bash"], ["python"]], [["bash"], ["bash"], ["bash"]]],
     "7 messages, 2 batches, 2 tool calls"),
    ("inspect_log.eval", "inspect-ai", [[["bash"], ["python"]], [["bash"], ["bash"], ["bash"]]],
     "7 messages, 2 batches, 2 tool calls"),
    # SWE-agent: six steps, one with an empty action (no call)
    ("swe_agent.traj", "swe-agent", [[["bash"]] * 5], "(named by the file) in a SWE-agent trajectory"),
    # mini-swe-agent: four assistant messages, one with two fences (a format error: no call)
    ("mini_swe_agent.traj.json", "mini-swe-agent", [[["bash"]] * 3], "10 messages, 3 batches, 3 tool calls"),
    ("smolagents_steps.json", "smolagents", [[["web_search"], ["visit_webpage"], ["final_answer"]]],
     "6 messages, 3 batches, 3 tool calls"),
]


@pytest.mark.parametrize("name, fmt, expected, says", SAMPLE_CASES, ids=[c[0] for c in SAMPLE_CASES])
def test_every_sample_is_detected_and_batched(name, fmt, expected, says):
    path = SAMPLES / name
    assert names(path) == expected
    assert names(path, format=fmt) == expected
    run = next(iter_runs(path))
    list(run)
    assert run.format == fmt and says in run.describe(), run.describe()


def test_the_names_format_takes():
    assert FORMATS == ("openai-chat", "openai-responses", "anthropic", "langchain", "claude-code", "codex",
                       "openhands", "gemini-cli", "inspect-ai", "swe-agent", "mini-swe-agent", "smolagents",
                       "gemini-cli-stream", "kimi-code", "opencode", "cline")


def test_args_are_kept_as_sent_and_only_text_commands_are_translated():
    claude = load_trace(SAMPLES / "claude_code.session.jsonl")
    assert claude.batches[0][0] == {"name": "Read", "id": "toolu_01", "args": {
        "file_path": "/home/dev/notes/src/dates.py", "offset": 1, "limit": 120}}
    codex = load_trace(SAMPLES / "codex_rollout.jsonl")
    assert codex.batches[0][0]["args"] == json.dumps({"command": ["bash", "-lc", "sed -n 1,80p src/cli.py"],
                                                      "workdir": "/home/dev/notes"})  # the JSON string as written
    assert codex.batches[1][0]["args"].startswith("*** Begin Patch")  # a custom tool's free text
    openhands = load_trace(SAMPLES / "openhands_events.json")
    assert openhands.batches[0][1] == {"name": "str_replace_editor", "id": "tc_2", "args": json.dumps(
        {"command": "view", "path": "/workspace/notes/src/dates.py", "view_range": [1, 60], "security_risk": "LOW"})}
    swe = load_trace(SAMPLES / "swe_agent.traj")
    assert swe.batches[0] == [{"name": "bash", "args": {"command": "open src/dates.py 40\n"}, "id": None}]
    mini = load_trace(SAMPLES / "mini_swe_agent.traj.json")
    assert mini.batches[1] == [{"name": "bash", "id": None, "args": {
        "command": "sed -i 's/return day, month$/return day, month, year/' src/dates.py"}}]


# -- batching rules ------------------------------------------------------------------------------------------------


def claude_line(mid, block, kind="assistant"):
    return {"type": kind, "uuid": f"u-{mid}-{id(block)}", "sessionId": "s",
            "message": {"id": mid, "role": kind, "content": [block]}}


def tool_use(i, name="Bash", command="ls"):
    return {"type": "tool_use", "id": f"t{i}", "name": name, "input": {"command": command}}


def tool_result(i):
    return {"type": "user", "uuid": f"r{i}", "sessionId": "s",
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{i}", "content": ""}]}}


def test_claude_code_lines_of_one_message_are_one_batch_even_with_results_between(tmp_path):
    lines = [claude_line("m1", tool_use(1)), tool_result(1), claude_line("m1", tool_use(2, command="pwd")),
             tool_result(2), claude_line("m2", tool_use(3))]
    trace = load_trace(write(tmp_path, "s.jsonl", lines))
    assert [[c["id"] for c in b] for b in trace.batches] == [["t1", "t2"], ["t3"]]
    assert trace.where == [f"{tmp_path / 's.jsonl'}:1", f"{tmp_path / 's.jsonl'}:5"]


def test_a_user_prompt_closes_the_open_turn_and_counts(tmp_path):
    prompt = {"type": "user", "uuid": "p", "sessionId": "s", "message": {"role": "user", "content": "again"}}
    lines = [claude_line("m1", tool_use(1)), prompt, claude_line("m1", tool_use(2))]
    batches = list(iter_trace(write(tmp_path, "s.jsonl", lines)))
    assert [(b.turn, [c["id"] for c in b.calls]) for b in batches] == [(0, ["t1"]), (1, ["t2"])]


def test_gemini_log_rewriting_a_message_does_not_count_its_call_twice(tmp_path):
    call = {"id": "c1", "name": "read_file", "args": {"file_path": "a.py"}, "status": "executing"}
    lines = [{"sessionId": "s", "projectHash": "h", "startTime": "t"},
             {"id": "m1", "type": "user", "content": "go"},
             {"id": "m2", "type": "gemini", "content": "", "toolCalls": [call]},
             {"id": "m2", "type": "gemini", "content": "", "toolCalls": [dict(call, status="success")]},
             {"$set": {"lastUpdated": "t2"}}]
    trace = load_trace(write(tmp_path, "session.jsonl", lines))
    assert trace.batches == [[{"name": "read_file", "args": {"file_path": "a.py"}, "id": "c1"}]]
    assert "skipped 2 other records (2 session metadata)" in trace.describe()


def test_gemini_log_that_rewinds_is_refused_with_the_line(tmp_path):
    lines = [{"id": "m1", "type": "user", "content": "go"}, {"$rewindTo": "m1"}]
    path = write(tmp_path, "session.jsonl", lines)
    with pytest.raises(TraceError, match=rf"^{path}:2: a Gemini CLI log record that rewinds"):
        load_trace(path)


# -- malformed input says where and what was expected -----------------------------------------------------------------

MALFORMED = [
    ("s.jsonl", [claude_line("m1", {"type": "tool_use", "id": "t", "name": "Read"})], ":1: ",
     "content[0] (tool_use) has no 'input'"),
    ("r.jsonl", [{"type": "session_meta", "payload": {}},
                 {"type": "response_item", "payload": {"type": "function_call", "name": "shell", "call_id": "c"}}],
     ":2: ", "function_call has no 'arguments'"),
    ("h.json", [{"id": 1, "source": "agent", "action": "run", "args": {}, "tool_call_metadata": {
        "function_name": "execute_bash", "tool_call_id": "tc_9", "model_response": {"id": "r", "choices": [
            {"message": {"tool_calls": [{"id": "tc_1", "function": {"name": "execute_bash", "arguments": "{}"}}]}}]}}}],
     ": message index 0: ", "tool_call_id 'tc_9' is not among the model response's tool calls (ids 'tc_1')"),
    ("g.json", {"sessionId": "s", "messages": [{"id": "m", "type": "gemini", "toolCalls": [{"id": "c", "name": "x"}]}]},
     ": message index 0: ", "toolCalls[0] has no 'args'"),
    ("i.json", {"samples": [{"id": 1, "epoch": 1, "messages": [
        {"role": "assistant", "tool_calls": [{"id": "c", "function": "bash"}]}]}]},
     ": samples[0]: message index 0: ", "tool_calls[0] has no 'arguments'"),
    ("x.traj", {"trajectory": [{"action": ["ls"], "observation": ""}]}, ": step index 0: ",
     "'action' must be the command string, got list"),
    ("steps.json", [{"step_number": 1, "tool_calls": [{"id": "c", "name": "web_search"}]}], ": message index 0: ",
     "tool_calls[0].function must be an object"),
    ("d.json", [{"lc": 1, "type": "constructor", "id": ["langchain_core", "messages", "AIMessage"],
                 "kwargs": {"tool_calls": [{"name": "ls", "id": "1"}]}}], ": message index 0: ",
     "tool_calls[0] has no 'args'"),
    ("output.jsonl", [{"instance_id": "a", "history": []}, {"role": "user", "content": "x"}], ":2: ",
     "expected one run per line like line 1"),
    ("g.json", {"sessionId": "s", "messages": [{"id": "m", "type": "user", "toolCalls": [
        {"id": "c", "name": "x", "args": {}}]}]}, ": message index 0: ", "a 'user' message carries toolCalls"),
]


@pytest.mark.parametrize("name, content, where, says", MALFORMED)
def test_malformed_input_names_the_place_and_what_was_expected(tmp_path, name, content, where, says):
    path = write(tmp_path, name, content)
    with pytest.raises(TraceError) as info:
        for run in iter_runs(path):
            list(run)
    message = str(info.value)
    assert message.startswith(f"{path}{where}"), message
    assert says in message, message


# -- no silent zero ------------------------------------------------------------------------------------------------


def test_a_file_of_unknown_shape_is_an_error_that_says_what_was_found(tmp_path):
    path = write(tmp_path, "notes.jsonl", [{"kind": "note", "text": "hi"}] * 3 + [{"type": "memo"}])
    with pytest.raises(TraceError) as info:
        load_trace(path)
    message = str(info.value)
    assert message.startswith(f"{path}: no record was read as a message of any format: 4 records "
                              f"(3 with keys 'kind', 'text', 1 with type 'memo'); tried kimi-code, claude-code, "
                              f"codex, openhands, gemini-cli, gemini-cli-stream, opencode, cline, smolagents, "
                              f"swe-agent, openai-responses, langchain, inspect-ai, openai-chat, anthropic, "
                              f"mini-swe-agent."), message
    assert "--format NAME" in message


def test_a_file_of_records_a_detecting_format_only_skips_is_an_error_not_a_crash(tmp_path):
    # mini-swe-agent's "exit" message is skipped, and that format is not distinctive: no format is picked.
    path = write(tmp_path, "ended.jsonl", [{"role": "exit", "content": "Submitted"}] * 2)
    with pytest.raises(TraceError) as info:
        load_trace(path)
    message = str(info.value)
    assert message.startswith(f"{path}: no record was read as a message of any format: 2 records"), message
    assert "only records that are not messages (2 exit)" in message, message


def test_an_explicit_format_that_reads_nothing_is_an_error_naming_it(tmp_path):
    chat = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    path = write(tmp_path, "chat.json", chat)
    with pytest.raises(TraceError) as info:
        load_trace(path, format="claude-code")
    assert str(info.value).startswith(f"{path}: no record was read as a claude-code message: 2 records (1 with role "
                                      f"'user', 1 with role 'assistant'); pick another format with --format NAME "
                                      f"(one of openai-chat, openai-responses, ")
    assert "no tool calls in 2 messages" in load_trace(path).describe()  # auto: recognised chat, no calls, fine


def test_an_explicit_format_on_calls_of_another_format_is_a_located_mismatch(tmp_path):
    path = write(tmp_path, "s.jsonl", [claude_line("m1", tool_use(1))])
    with pytest.raises(TraceError, match=rf"^{path}:1: claude-code tool calls in a trace read as codex; "
                                         rf"--format claude-code reads them$"):
        load_trace(path, format="codex")


def test_only_non_message_records_of_a_format_is_an_error(tmp_path):
    path = write(tmp_path, "s.jsonl", [{"type": "summary", "summary": "x", "leafUuid": "u"}] * 2)
    with pytest.raises(TraceError, match=r"2 records \(only claude-code records that are not messages \(2 summary\)"):
        load_trace(path)


def test_recognised_messages_without_calls_are_valid_and_say_so(tmp_path):
    session = {"sessionId": "s", "projectHash": "h", "messages": [
        {"id": "m1", "type": "user", "content": "hi"}, {"id": "m2", "type": "gemini", "content": "hello"}]}
    trace = load_trace(write(tmp_path, "session.json", session))
    assert trace.batches == []
    assert trace.describe().endswith("gemini-cli (auto-detected) in a JSON object under 'messages'; 2 messages, "
                                     "no tool calls")


def test_an_empty_run_is_a_conversation_without_calls_not_an_error(tmp_path):
    runs = list(iter_runs(write(tmp_path, "output.jsonl", [{"instance_id": "a", "history": []}])))
    assert [list(run) for run in runs] == [[]]


# -- several runs in one file --------------------------------------------------------------------------------------


def test_openhands_evaluation_output_is_one_run_per_line_with_its_instance_id():
    path = SAMPLES / "openhands_output.jsonl"
    seen = []
    for run in iter_runs(path):
        batches = list(run)
        seen.append((run.index, run.label, run.meta, run.batches, run.calls, batches[0].where))
    assert seen == [
        (1, "instance_id=notes__notes-101", {"instance_id": "notes__notes-101"}, 3, 4, f"{path}:1: event index 3"),
        (2, "instance_id=notes__notes-102", {"instance_id": "notes__notes-102"}, 1, 1, f"{path}:2: event index 3")]


def test_inspect_json_and_eval_give_the_same_runs_and_metadata():
    def runs(name):
        out = []
        for run in iter_runs(SAMPLES / name):
            out.append((run.meta, [b.calls for b in run], run.label))
        return out
    from_json, from_eval = runs("inspect_log.json"), runs("inspect_log.eval")
    assert from_json == from_eval
    assert [meta for meta, _, _ in from_json] == [{"id": 1, "epoch": 1}, {"id": 2, "epoch": 1}]
    assert from_json[0][1][0] == [{"name": "bash", "args": {"cmd": "find . -name '*.py' | wc -l"}, "id": "call_1_0"}]


def test_thread_state_metadata_and_a_history_of_states(tmp_path):
    state = json.loads((SAMPLES / "deerflow_thread.json").read_text())
    run = next(iter_runs(SAMPLES / "deerflow_thread.json"))
    assert run.meta == {"checkpoint_id": "ckpt-demo-9", "thread_id": "0d6c1a52-demo-thread", "run_id": "run-demo-1"}
    older = dict(state, values={"messages": state["values"]["messages"][:4]}, checkpoint_id="ckpt-demo-4")
    runs = list(iter_runs(write(tmp_path, "history.json", [state, older])))
    assert [(run.label, len(list(run))) for run in runs] == [("thread_id=0d6c1a52-demo-thread checkpoint_id="
                                                              "ckpt-demo-9", 3),
                                                             ("thread_id=0d6c1a52-demo-thread checkpoint_id="
                                                              "ckpt-demo-4", 1)]


def test_the_one_run_api_refuses_a_second_run_and_reads_a_one_line_output(tmp_path):
    with pytest.raises(TraceError, match=r"holds more than one run \(instance_id=notes__notes-101, then "
                                         r"instance_id=notes__notes-102, \.\.\.\); .*--select KEY=VALUE or --run N"):
        load_trace(SAMPLES / "openhands_output.jsonl")
    first = (SAMPLES / "openhands_output.jsonl").read_text().splitlines()[0]
    trace = load_trace(write(tmp_path, "one.jsonl", text=first + "\n"))
    assert len(trace.batches) == 3 and trace.format == "openhands"


def test_one_run_per_line_is_streamed_line_by_line(tmp_path):
    # the second line is broken: the first run is replayed before the error is met, in the run of that line
    path = write(tmp_path, "output.jsonl", text=json.dumps({"instance_id": "a", "history": [
        {"source": "user", "action": "message", "args": {}}]}) + "\n{broken\n")
    runs = iter_runs(path)
    assert len(list(next(runs))) == 0
    broken = next(runs)
    assert broken.label == "line 2"
    with pytest.raises(TraceError, match=rf"^{path}:2: invalid JSON"):
        list(broken)


# -- properties: the same calls, whatever the envelope ------------------------------------------------------------

tool_names = st.sampled_from(["Read", "Bash", "Grep", "Write"])
arguments = st.dictionaries(st.sampled_from(["file_path", "command", "pattern"]), st.text(max_size=4), max_size=2)
turns = st.lists(st.lists(st.tuples(tool_names, arguments), min_size=1, max_size=3), max_size=5)


@given(turns)
def test_claude_code_lines_give_the_batches_of_the_anthropic_messages(batches):
    ids = iter(range(1000))
    numbered = [[(f"t{next(ids)}", n, a) for n, a in turn] for turn in batches]
    anthropic = [{"role": "assistant", "content": [{"type": "tool_use", "id": i, "name": n, "input": a}
                                                   for i, n, a in turn]} for turn in numbered]
    lines = [{"type": "assistant", "uuid": i, "message": {"id": f"msg{k}", "role": "assistant", "content": [
        {"type": "tool_use", "id": i, "name": n, "input": a}]}} for k, turn in enumerate(numbered) for i, n, a in turn]
    assert batches_from_messages(lines) == batches_from_messages(anthropic, "anthropic")


@given(turns)
def test_openhands_events_give_the_batches_of_the_openai_messages(batches):
    chat, events, ids = [], [], iter(range(1000))
    for k, turn in enumerate(batches):
        calls = [{"id": f"c{next(ids)}", "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
                 for n, a in turn]
        chat.append({"role": "assistant", "tool_calls": calls})
        response = {"id": f"resp{k}", "choices": [{"message": {"role": "assistant", "tool_calls": calls}}]}
        for call in calls:  # one action per call, each followed by its observation
            events.append({"source": "agent", "action": "run", "args": {}, "tool_call_metadata": {
                "function_name": call["function"]["name"], "tool_call_id": call["id"], "model_response": response}})
            events.append({"source": "agent", "observation": "run", "content": ""})
    assert batches_from_messages(events) == batches_from_messages(chat, "openai-chat")


# -- one run per line: steady memory -------------------------------------------------------------------------------

RUNS_PEAK = """
import resource, sys
from loopkit.traces.adapters import iter_runs
calls = 0
for run in iter_runs(sys.argv[1]):
    calls += sum(len(batch.calls) for batch in run)
print(calls, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def write_evaluation_output(path, runs):
    """``runs`` lines, each an OpenHands run of 20 actions (about 30 KB a line)."""
    with open(path, "w") as out:
        for n in range(runs):
            history = []
            for k in range(20):
                call = {"id": f"c{k}", "type": "function",
                        "function": {"name": "execute_bash", "arguments": json.dumps({"command": f"echo {n} {k}"})}}
                response = {"id": f"r{n}-{k}", "choices": [{"message": {"role": "assistant", "tool_calls": [call]}}]}
                history.append({"source": "agent", "action": "run", "args": {"command": f"echo {n} {k}"},
                                "tool_call_metadata": {"function_name": "execute_bash", "tool_call_id": f"c{k}",
                                                       "model_response": response}})
                history.append({"source": "agent", "observation": "run", "content": "x" * 1200})
            out.write(json.dumps({"instance_id": f"i{n}", "history": history}) + "\n")


def runs_peak(path):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", RUNS_PEAK, str(path)], capture_output=True, text=True, check=True,
                         timeout=300)
    calls, peak = out.stdout.split()
    return int(calls), int(peak)


def test_one_run_per_line_files_are_read_in_steady_memory(tmp_path):
    small, big = tmp_path / "small.jsonl", tmp_path / "big.jsonl"
    write_evaluation_output(small, 20)
    write_evaluation_output(big, 2000)
    assert big.stat().st_size > 50_000_000
    (small_calls, small_kb), (big_calls, big_kb) = runs_peak(small), runs_peak(big)
    assert (small_calls, big_calls) == (400, 40_000)
    # holding every run would add hundreds of MB; one line at a time adds next to nothing
    assert big_kb - small_kb < 24 * 1024, f"peak RSS grew from {small_kb} KB to {big_kb} KB"


def test_records_the_chosen_format_does_not_read_are_counted_in_the_summary(tmp_path):
    # an older Codex rollout: a header line, then bare Responses items (no envelope)
    lines = [{"id": "s1", "timestamp": "t", "instructions": None},
             {"type": "function_call", "call_id": "c", "name": "shell", "arguments": "{}"}]
    trace = load_trace(write(tmp_path, "rollout.jsonl", lines))
    assert trace.describe().endswith("openai-responses (auto-detected) in JSON Lines; 1 messages, 1 batches, "
                                     "1 tool calls; skipped 1 record of a shape openai-responses does not read "
                                     "(line 1: keys 'id', 'timestamp', 'instructions')")


# -- in Spanish: what a run says about itself ------------------------------------------------------------------------



SPANISH_SAYS = {
    "deerflow_thread.json": "langchain (detectado automáticamente) en un estado de hilo de LangGraph bajo 'values'; "
                            "10 mensajes, 3 lotes, 4 llamadas a herramientas",
    "codex_rollout.jsonl": "codex (detectado automáticamente) en JSON Lines; 12 mensajes, 3 lotes, 4 llamadas a "
                           "herramientas; se omitieron 5 registros de otro tipo (3 event_msg, 1 session_meta, "
                           "1 turn_context)",
    "openhands_events.json": "; se omitió 1 registro de otro tipo (1 action 'change_agent_state')",
    "swe_agent.traj": "swe-agent (indicado por el propio archivo) en una trayectoria de SWE-agent bajo 'trajectory'",
    "inspect_log.json": "(detectado automáticamente) en samples[0] de un registro de Inspect AI; 7 mensajes",
}


@pytest.mark.parametrize("name", [case[0] for case in SAMPLE_CASES])
def test_every_sample_describes_itself_in_spanish(spanish, name):
    """The suite runs strict, so a container or count nobody translated raises here; the data stays English."""
    run = next(iter_runs(SAMPLES / name))
    list(run)
    said = run.describe()
    assert " mensajes" in said and " messages" not in said and "auto-detected" not in said, said
    assert SPANISH_SAYS.get(name, "") in said, said


def test_the_container_stays_english_for_code(spanish):
    run = next(iter_runs(SAMPLES / "inspect_log.json"))
    list(run)
    assert run.container == "samples[0] of an Inspect AI log"
    small_talk = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "data" / "small_talk.openai_chat.json"
    assert load_trace(small_talk).describe().endswith("sin llamadas a herramientas en 3 mensajes en un array JSON; "
                                                     "nada que reproducir")


# -- the survivors of the mutation run (tools/mutants.py): calls without ids ---------------------------------------
def gemini_line(message_id, calls, kind="gemini"):
    return json.dumps({"id": message_id, "type": kind, "content": "", "toolCalls": calls}) + "\n"


def test_calls_without_ids_in_one_turn_stay_separate_calls(tmp_path):
    ls_a = {"name": "ls", "args": {"path": "a"}}
    ls_b = {"name": "ls", "args": {"path": "b"}}
    path = tmp_path / "session.jsonl"
    path.write_text(gemini_line("u1", [], "user") + gemini_line("m1", [ls_a, ls_b]))
    runs = [[batch.calls for batch in run] for run in iter_runs(path)]
    assert runs == [[[{**ls_a, "id": None}, {**ls_b, "id": None}]]]


def test_a_turn_rewritten_under_one_message_id_replaces_a_call_by_its_id_and_keeps_id_less_calls(tmp_path):
    first = {"id": "c1", "name": "read_file", "args": {"file_path": "a.py"}}
    updated = {**first, "args": {"file_path": "a.py", "limit": 10}}
    no_id = {"name": "ls", "args": {"path": "."}}
    path = tmp_path / "session.jsonl"
    path.write_text(gemini_line("u1", [], "user") + gemini_line("m1", [first]) + gemini_line("m1", [updated, no_id])
                    + gemini_line("u2", [], "user"))
    runs = [[batch.calls for batch in run] for run in iter_runs(path)]
    assert runs == [[[updated, {**no_id, "id": None}]]]


def test_a_consecutive_batch_is_located_at_its_first_call():
    samples = pathlib.Path(__file__).resolve().parent / "data" / "transcripts"
    batches = [(b.where.rsplit(":", 1)[1], [c["id"] for c in b.calls]) for run in iter_runs(samples / "codex_rollout.jsonl")
               for b in run]
    assert batches == [("7", ["call_cx1", "call_cx2"]), ("12", ["call_cx3"]), ("14", ["call_cx4"])]  # cx2 is line 8


def test_unread_records_keep_counting_the_shapes_already_kept():
    from loopkit.traces.adapters.batching import Batcher

    batcher = Batcher()
    for i in [0, 1, 2, 3, 4, 5, 0]:  # six shapes, five kept; then the first one again
        list(batcher.feed(f"t.jsonl:{i + 1}", {f"k{i}": 1}))
    assert batcher.unread_total == 7
    assert batcher.shapes() == ("2 with keys 'k0', 1 with keys 'k1', 1 with keys 'k2', 1 with keys 'k3', "
                                "1 with keys 'k4', 1 of other shapes")

def test_a_run_carries_one_frozen_counts_record_of_what_was_read(tmp_path):
    import dataclasses

    from loopkit.traces.adapters import ReadCounts, iter_runs

    path = tmp_path / "t.jsonl"
    lines = [{"role": "user", "content": "go"}, {"type": "note"},
             {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
                                                   "function": {"name": "ls", "arguments": "{}"}}]}]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines) + '{"role": "assis')
    run = next(iter_runs(path))  # read before asking for the next run
    batches = list(run)
    counts = run.counts
    assert isinstance(counts, ReadCounts) and counts.batches == len(batches) == 1
    # three whole lines (a user prompt, a note no format reads, one call) and a cut-off fourth, counted by hand
    assert (counts.format, counts.records, counts.messages, counts.calls, counts.turns, counts.unread) == (
        "openai-chat", 3, 2, 1, 1, 1)
    assert counts.cut_off == f"{path}:4" and counts.bad_records == 0
    assert (run.messages, run.batches, run.calls, run.turns, run.cut_off) == (2, 1, 1, 1, f"{path}:4")
    with pytest.raises(dataclasses.FrozenInstanceError):
        counts.calls = 0
