"""The formats of issue 34 that carry tool calls: OpenHands V1 events, Kimi Code wire logs, Cline's UI export, Gemini
CLI's stream-json lines and OpenCode's event lines; and Aider's chat history, refused with a reason. Each sample in
tests/data/transcripts/ is written by hand in the shape the agent's own source defines (its README names the source
and commit); the expected batches, calls and prompts are read off the samples by hand, in the comments."""

import json
import pathlib
import subprocess
import sys

import pytest

from loopkit.traces.adapters import TraceError, get_format, iter_runs, load_trace
from loopkit.traces.replay import report_paths
from loopkit.traces.tool_maps import ToolMap

SAMPLES = pathlib.Path(__file__).resolve().parent / "data" / "transcripts"


def names(path, **kwargs):
    """Per run: the tool names of each batch, as written."""
    return [[[call["name"] for call in batch.calls] for batch in run] for run in iter_runs(path, **kwargs)]


def only_report(path, **kwargs):
    [report] = report_paths([str(path)], **kwargs)
    return report


# -- OpenHands V1 (the software agent SDK) -------------------------------------------------------------------------


def test_openhands_sdk_events_are_detected_and_a_response_s_calls_are_one_batch():
    # ActionEvents: resp-1 (terminal, file_editor view), resp-2 (file_editor str_replace), then three terminal
    # calls, each its own response
    path = SAMPLES / "openhands_sdk_events.jsonl"
    assert names(path) == [[["terminal", "file_editor"], ["file_editor"], ["terminal"], ["terminal"], ["terminal"]]]
    first = load_trace(path).batches[0][0]
    assert first["id"] == "call-1" and json.loads(first["args"])["command"] == "pytest -q tests/test_dates.py"
    report = only_report(path)
    # one MessageEvent from the user (ev-01); two ConversationStateUpdateEvents skipped
    assert (report.format, report.calls, report.batches, report.user_messages) == ("openhands", 6, 5, 1)
    assert report.skipped == {"ConversationStateUpdateEvent": 2}
    assert report.tool_map == "openhands" and report.unmapped == ()


def test_the_openhands_preset_maps_the_sdk_tools_and_drops_the_risk_and_the_summary():
    tool_map = ToolMap("openhands")
    call = {"name": "terminal", "args": json.dumps({"security_risk": "LOW", "summary": "run tests",
                                                     "command": "pytest -q", "is_input": False}), "id": "c1"}
    assert tool_map.map_call(call)["args"] == {"command": "pytest -q", "is_input": False}
    view = {"name": "file_editor", "args": {"command": "view", "path": "a.py", "view_range": [1, 40],
                                            "summary": "read"}, "id": "c2"}
    assert tool_map.map_call(view) == {"name": "read_file", "args": {"command": "view", "path": "a.py",
                                                                     "start_line": 1, "end_line": 40}, "id": "c2"}
    # the Gemini-style tools of the SDK: offset counts from 0, so offset 100, limit 50 is lines 101-150
    read = {"name": "read_file", "args": {"file_path": "a.py", "offset": 100, "limit": 50}, "id": "c3"}
    assert tool_map.map_call(read)["args"] == {"path": "a.py", "start_line": 101, "end_line": 150}
    grep = {"name": "grep", "args": {"pattern": "def", "path": "src", "include": "*.py"}, "id": "c4"}
    assert tool_map.map_call(grep)["args"] == {"pattern": "def", "path": "src", "glob": "*.py"}


def test_an_acp_tool_call_event_is_named_among_the_calls_not_read(tmp_path):
    path = tmp_path / "events.jsonl"
    events = [{"id": "e1", "source": "user", "llm_message": {"role": "user", "content": []}, "kind": "MessageEvent"},
              {"id": "e2", "source": "agent", "tool_call_id": "t1", "title": "Read a.py", "tool_kind": "read",
               "raw_input": {"path": "a.py"}, "kind": "ACPToolCallEvent"}]
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    with pytest.raises(TraceError, match=r"events\.jsonl:2: no tool call was read from this run, but this record "
                                         r"holds ACPToolCallEvent"):
        load_trace(path)


# -- Kimi Code --------------------------------------------------------------------------------------------------------


def test_kimi_wire_logs_are_detected_and_a_step_s_calls_are_one_batch():
    # step s1: Read x2; steps s2-s5: Bash each; the cron turn's step s9: Bash
    path = SAMPLES / "kimi_code_wire.jsonl"
    assert names(path) == [[["Read", "Read"], ["Bash"], ["Bash"], ["Bash"], ["Bash"], ["Bash"]]]
    report = only_report(path)
    # one turn.prompt of a person; the second turn.prompt is a cron job's; context.append_message repeats the prompt
    assert (report.format, report.calls, report.user_messages) == ("kimi-code", 7, 1)
    assert report.mapped == {"Bash -> bash": 5, "Read -> read_file": 2}
    assert report.stop is not None and report.stop.step == 6  # the fifth identical bash batch


def test_the_kimi_preset_reads_line_ranges_and_leaves_a_read_from_the_end_alone():
    tool_map = ToolMap("kimi-code")
    read = {"name": "Read", "args": {"path": "a.py", "line_offset": 201, "n_lines": 100}, "id": "1"}
    assert tool_map.map_call(read)["args"] == {"path": "a.py", "start_line": 201, "end_line": 300}
    tail = {"name": "Read", "args": {"path": "a.py", "line_offset": -20}, "id": "2"}
    assert tool_map.map_call(tail) == tail and tool_map.problems  # no DeerFlow range says "the last 20 lines"
    append = {"name": "Write", "args": {"path": "log.md", "content": "x", "mode": "append"}, "id": "3"}
    assert tool_map.map_call(append)["args"] == {"path": "log.md", "content": "x", "append": True}
    assert tool_map.map_call({"name": "Shell", "args": {"command": "ls"}, "id": "4"})["name"] == "bash"


# -- Gemini CLI stream-json ---------------------------------------------------------------------------------------------


def test_gemini_stream_json_is_detected_and_text_between_calls_does_not_split_a_batch():
    # tool_use, assistant text, tool_use, then both results: one batch of two; then four run_shell_command turns
    path = SAMPLES / "gemini_stream.jsonl"
    assert names(path) == [[["read_file", "read_file"]] + [["run_shell_command"]] * 4]
    report = only_report(path)
    assert (report.format, report.calls, report.user_messages, report.tool_map) == ("gemini-cli-stream", 6, 1,
                                                                                  "gemini-cli")
    assert report.skipped == {"assistant text": 2, "init": 1, "error": 1, "result": 1}


def test_gemini_stream_json_was_a_silent_zero_and_its_documented_snapshot_reads_one_call(tmp_path):
    # the snapshot of packages/cli/src/__snapshots__/nonInteractiveCli.test.ts.snap (gemini-cli at 5411f113), its
    # placeholders filled in: init, the prompt, text, one tool_use, its result, text, the result event
    stamp = "2026-01-01T00:00:00Z"
    lines = [{"type": "init", "timestamp": stamp, "session_id": "s", "model": "m"},
             {"type": "message", "timestamp": stamp, "role": "user", "content": "Stream test"},
             {"type": "message", "timestamp": stamp, "role": "assistant", "content": "Thinking...", "delta": True},
             {"type": "tool_use", "timestamp": stamp, "tool_name": "testTool", "tool_id": "tool-1",
              "parameters": {"arg1": "value1"}},
             {"type": "tool_result", "timestamp": stamp, "tool_id": "tool-1", "status": "success", "output": "ok"},
             {"type": "message", "timestamp": stamp, "role": "assistant", "content": "Final answer", "delta": True},
             {"type": "result", "timestamp": stamp, "status": "success", "stats": {}}]
    path = tmp_path / "stream.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert load_trace(path).batches == [[{"name": "testTool", "args": {"arg1": "value1"}, "id": "tool-1"}]]


# -- OpenCode -----------------------------------------------------------------------------------------------------------


def test_opencode_events_are_detected_and_a_message_s_calls_are_one_batch():
    # msg_1: read x2; msg_2..msg_6: bash each
    path = SAMPLES / "opencode_events.jsonl"
    assert names(path) == [[["read", "read"]] + [["bash"]] * 5]
    assert load_trace(path).batches[0][0]["id"] == "call_1"
    report = only_report(path)
    assert (report.format, report.calls, report.tool_map) == ("opencode", 7, "opencode")
    assert report.stop is not None and report.stop.step == 6


def test_the_opencode_preset_maps_its_tools_and_an_older_call_id_is_read(tmp_path):
    tool_map = ToolMap("opencode")
    read = {"name": "read", "args": {"filePath": "/w/a.py", "offset": 201, "limit": 100}, "id": "1"}
    assert tool_map.map_call(read)["args"] == {"path": "/w/a.py", "start_line": 201, "end_line": 300}
    edit = {"name": "edit", "args": {"filePath": "a.py", "oldString": "x", "newString": "y"}, "id": "2"}
    assert tool_map.map_call(edit) == {"name": "str_replace", "args": {"path": "a.py", "old_str": "x",
                                                                       "new_str": "y"}, "id": "2"}
    older = {"type": "tool_use", "timestamp": 1, "sessionID": "ses_1",
             "part": {"id": "prt_1", "callID": "call_9", "messageID": "msg_1", "type": "tool", "tool": "bash",
                      "state": {"status": "completed", "input": {"command": "ls"}}}}
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(older) + "\n")
    assert load_trace(path).batches == [[{"name": "bash", "args": {"command": "ls"}, "id": "call_9"}]]


# -- Cline's UI export --------------------------------------------------------------------------------------------------


def test_cline_ui_messages_are_calls_between_requests_and_a_partial_call_is_skipped():
    # requests (api_req_started) split: readFile | edit (ask) | command (ask, REQ_APP) | searchFiles + listFiles |
    # completion | command (say); the last readFile is still partial
    path = SAMPLES / "cline_task" / "ui_messages.json"
    batches = load_trace(path).batches
    assert [[c["name"] for c in b] for b in batches] == [
        ["read_file"], ["replace_in_file"], ["execute_command"], ["search_files", "list_files"],
        ["attempt_completion"], ["execute_command"]]
    assert batches[0][0]["args"] == {"path": "src/dates.py"}  # the file's content is never an argument
    assert batches[2][0]["args"] == {"command": "pytest -q tests/test_dates.py"}  # REQ_APP is Cline's mark
    assert batches[3][0]["args"] == {"path": "tests", "regex": "parse_date", "file_pattern": "*.py"}
    report = only_report(path)
    # the task, and the feedback typed after the completion
    assert (report.format, report.calls, report.user_messages, report.tool_map) == ("cline", 7, 2, "cline")
    assert report.skipped["say tool still partial (a call never finished)"] == 1


# -- Aider ---------------------------------------------------------------------------------------------------------------


def test_an_aider_history_is_refused_with_what_it_is_and_why_it_has_no_calls():
    with pytest.raises(TraceError) as info:
        load_trace(SAMPLES / "aider.chat.history.md")
    message = str(info.value)
    assert "an Aider chat history (.aider.chat.history.md)" in message
    assert "not with tool calls; there are no tool calls to replay" in message
    out = subprocess.run([sys.executable, "-m", "loopkit", "replay", str(SAMPLES / "aider.chat.history.md")],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Aider chat history" in out.stderr


# -- detection order --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, fmt", [("openhands_sdk_events.jsonl", "openhands"),
                                       ("kimi_code_wire.jsonl", "kimi-code"),
                                       ("gemini_stream.jsonl", "gemini-cli-stream"),
                                       ("opencode_events.jsonl", "opencode"),
                                       ("cline_task/ui_messages.json", "cline")])
def test_each_new_format_is_told_by_its_first_record_and_reads_the_same_when_named(name, fmt):
    [detected] = names(SAMPLES / name)
    [named] = names(SAMPLES / name, format=fmt)
    assert detected == named and get_format(fmt).distinctive
