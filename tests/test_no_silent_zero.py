"""No silent zero, no silent loss, and runs that start where a person typed (issue 34, parts 2-4), in every output: the
one-run summary, the folder table and its totals, --json, and the upload view."""

import json
import pathlib
import subprocess
import sys

import pytest

from loopkit.teaching.uploads import read_upload
from loopkit.traces.adapters import TraceError, iter_runs, load_trace
from loopkit.traces.replay import report_paths

SAMPLES = pathlib.Path(__file__).resolve().parent / "data" / "transcripts"


def replay(*args):
    return subprocess.run([sys.executable, "-m", "loopkit", "replay", *map(str, args)], capture_output=True,
                          text=True, timeout=120)


def jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


# A chat history in a shape of its own: every message passes for an OpenAI chat message, and the assistant's calls are
# flat {"id", "name", "arguments"} entries under "toolCalls", which no reader takes.
FLAT_CALLS = [{"role": "user", "content": "fix the parser"},
              {"role": "assistant", "content": "", "toolCalls": [
                  {"id": "c1", "name": "bash", "arguments": "{\"command\": \"pytest\"}"}]},
              {"role": "user", "content": "again"},
              {"role": "assistant", "content": "", "toolCalls": [
                  {"id": "c2", "name": "bash", "arguments": "{\"command\": \"pytest\"}"}]}]
# Gemini CLI's stream-json shape, under a type no reader knows: its user message passes for a Responses message.
OTHER_EVENTS = [{"type": "message", "role": "user", "content": "fix it"},
                {"type": "tool_call", "tool_name": "run_shell_command", "tool_id": "t1",
                 "parameters": {"command": "pytest"}}]


@pytest.mark.parametrize("records", [FLAT_CALLS, OTHER_EVENTS], ids=["flat tool_calls", "typed events"])
def test_calls_no_reader_takes_are_an_error_alone_in_a_folder_in_json_and_in_the_upload(tmp_path, records):
    folder = tmp_path / "runs"
    folder.mkdir()
    path = jsonl(folder / "history.jsonl", records)
    jsonl(folder / "chat.jsonl", [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}])
    with pytest.raises(TraceError, match="no tool call was read from this run, but"):
        load_trace(path)
    alone = replay(path)
    assert alone.returncode == 2 and "no tool call was read from this run" in alone.stderr
    assert "no tool calls" not in alone.stdout
    table = replay(folder, "--jobs", "1")
    row = next(line for line in table.stdout.splitlines() if "history.jsonl" in line)
    assert row.split()[1:7] == ["-", "-", "-", "-", "-", "-"] and "unusable:" in row
    assert table.stdout.splitlines()[-1].endswith("0 warned only, 1 quiet, 1 unusable.")  # chat.jsonl is the quiet one
    summary = json.loads(replay(path, "--json").stdout.splitlines()[-1])["summary"]
    assert summary["verdict"] == "unusable" and "no tool call was read" in summary["error"]
    reading = read_upload(path.read_bytes(), "history.jsonl")
    assert reading.problem == "not_transcript" and "no tool call was read" in reading.message


def test_tool_results_without_a_call_read_are_an_error(tmp_path):
    # Cline's XML tool use: the calls are tags in the assistant's text, the results user text
    path = tmp_path / "api_conversation_history.json"
    path.write_text(json.dumps([
        {"role": "user", "content": [{"type": "text", "text": "<task>\nfix it\n</task>"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "<read_file>\n<path>a.py</path>\n</read_file>"}]},
        {"role": "user", "content": [{"type": "text", "text": "[read_file for 'a.py'] Result:\nprint(1)"}]}]))
    with pytest.raises(TraceError, match=r"message index 2: no tool call was read from this run, but this record "
                                         r"holds tool results"):
        load_trace(path)


def test_a_record_with_calls_not_read_beside_calls_read_makes_the_run_incomplete_everywhere(tmp_path):
    folder = tmp_path / "runs"
    folder.mkdir()
    call = {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
                                                 "function": {"name": "bash", "arguments": "{\"command\": \"ls\"}"}}]}
    odd = {"type": "tool_call", "tool_name": "run_shell_command", "parameters": {"command": "make"}}
    path = jsonl(folder / "mixed.jsonl", [{"role": "user", "content": "go"}, call, odd])
    out = replay(path)
    assert out.returncode == 0 and "1 record holds tool calls that were not read (line 3: a 'tool_call' event" in \
        out.stdout
    assert "This verdict covers only the calls that were read" in out.stdout
    table = replay(folder)
    assert "incomplete: 1 record with tool calls not read (line 3:" in table.stdout
    assert table.stdout.splitlines()[-1].endswith("0 quiet, 1 incomplete (tool calls not read), 0 unusable.")
    summary = json.loads(replay(path, "--json").stdout.splitlines()[-1])["summary"]
    assert summary["verdict"] == "incomplete" and summary["unread_calls"] == 1
    assert summary["notes"] == ["1 record with tool calls not read (line 3: a 'tool_call' event at the record itself)"]
    aggregate = json.loads(replay(folder, "--json").stdout.splitlines()[-1])["aggregate"]
    assert aggregate["incomplete"] == 1 and aggregate["quiet"] == 0
    [run] = read_upload(path.read_bytes(), "mixed.jsonl").runs
    assert "1 record holds tool calls that were not read" in run.summary


def test_a_call_id_repeated_in_one_batch_keeps_both_calls_and_says_so_everywhere(tmp_path):
    # eight function_call items; call_a2 comes twice in the batch of lines 5-7 (cat src, cat tests, git log)
    path = SAMPLES / "codex_repeated_call_id.jsonl"
    batches = load_trace(path).batches
    assert sum(map(len, batches)) == 8
    assert [json.loads(c["args"])["cmd"] for c in batches[1]] == ["cat src/dates.py", "cat tests/test_dates.py",
                                                                   "git log -1 --oneline"]
    out = replay(path)
    assert ("1 call id came back within one batch ('call_a2' at line 5 (exec_command, then exec_command: both "
            "kept))") in out.stdout
    summary = json.loads(replay(path, "--json").stdout.splitlines()[-1])["summary"]
    assert summary["calls"] == 8 and summary["repeated_ids"] == 1
    assert summary["notes"] == ["1 call id repeated within a batch ('call_a2' at line 5 (exec_command, then "
                                "exec_command: both kept))"]
    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "a.jsonl").write_bytes(path.read_bytes())
    (folder / "b.jsonl").write_bytes(path.read_bytes())
    assert replay(folder).stdout.count("1 call id repeated within a batch ('call_a2'") == 2
    [run] = read_upload(path.read_bytes(), "rollout.jsonl").runs
    assert "'call_a2' at line 5 (exec_command, then exec_command: both kept)" in run.summary


def test_a_turn_s_call_written_again_with_another_tool_is_a_second_call_and_counted(tmp_path):
    # Claude Code writes a message a block at a time: the same id under another tool cannot be the call re-written
    def block(name):
        return {"type": "assistant", "uuid": name, "message": {"id": "msg_1", "role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": name, "input": {}}]}}
    path = jsonl(tmp_path / "s.jsonl", [{"type": "user", "uuid": "u", "message": {"role": "user", "content": "go"}},
                                        block("Read"), block("Bash")])
    run = next(iter_runs(path))
    assert [[c["name"] for c in b.calls] for b in run] == [["Read", "Bash"]]
    assert run.counts.repeated_ids == 1 and "(Read, then Bash: both kept)" in run.describe()


# -- run boundaries from what a person typed ------------------------------------------------------------------------


def test_claude_code_records_it_writes_itself_are_not_prompts():
    # user records: the first prompt, two tool results, an interruption, an isMeta caveat, a task notification, the
    # compaction summary, the second prompt, a tool result, an interruption: a person typed two of them
    report = next(report_paths([str(SAMPLES / "claude_code_injected.jsonl")]))
    assert report.user_messages == 2
    assert load_trace(SAMPLES / "claude_code_injected.jsonl").turns == [1, 1, 2]  # Read, Bash; then Edit


def test_cline_tool_results_written_as_text_do_not_start_runs_so_the_later_contract_stops_the_repeat():
    # six identical read_file calls, each answered by user text "[read_file for 'src/dates.py'] Result:"
    path = SAMPLES / "cline_text_results" / "api_conversation_history.json"
    report = next(report_paths([str(path)], upstream="run-scoped"))
    assert report.user_messages == 2  # the <task>, and the <feedback> inside the last result
    assert report.stop is not None and report.stop.step == 5  # the 5th identical batch, in one run
