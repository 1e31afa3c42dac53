"""Today's transcripts (issue 21): every shape the samples in tests/data/transcripts/ hold, written by hand in the
shapes the agents' own source defines (tests/data/transcripts/README.md says where each comes from). Expected batches
and counts are read off the samples by hand, in the comments; none is computed by the code under test."""

import json
import pathlib

import pytest

from loopkit import fingerprint
from loopkit.traces.adapters import TRANSCRIPT_SUFFIXES, TraceError, batches_from_messages, iter_runs, load_trace
from loopkit.traces.replay import report_paths, transcript_files
from loopkit.traces.tool_maps import ToolMap

SAMPLES = pathlib.Path(__file__).resolve().parent / "data" / "transcripts"
README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


def names(path, **kwargs):
    """Per run: the tool names of each batch, as written."""
    return [[[call["name"] for call in batch.calls] for batch in run] for run in iter_runs(path, **kwargs)]


def described(path):
    run = next(iter_runs(path))
    list(run)
    return run, run.describe()


def write(tmp_path, name, records):
    path = tmp_path / name
    text = "".join(json.dumps(r) + "\n" for r in records) if name.endswith("jsonl") else json.dumps(records)
    path.write_text(text)
    return path


# -- mini-swe-agent, all of it -----------------------------------------------------------------------------------


def test_mini_swe_agent_tool_calling_trajectories_are_detected_and_read():
    # five assistant messages; the second asked for two commands at once; the exit message is skipped
    path = SAMPLES / "mini_swe_agent_toolcalls.traj.json"
    assert names(path) == [[["bash"], ["bash", "bash"], ["bash"], ["bash"], ["bash"]]]
    trace = load_trace(path)
    assert trace.batches[1][1] == {"name": "bash", "id": "call_m3",
                                   "args": json.dumps({"command": "cat tests/test_dates.py"})}  # the string as sent
    run, says = described(path)
    assert run.format == "mini-swe-agent"
    assert says.endswith("mini-swe-agent (named by the file) in a JSON object under 'messages'; 13 messages, "
                         "5 batches, 6 tool calls; skipped 1 other record (1 exit)")


def test_mini_swe_agent_text_fences_named_for_it_are_detected_and_only_they_count():
    # four assistant messages with one mswea_bash_command fence each; the last also shows a ```bash fence in prose,
    # which mini-swe-agent 2.x does not run
    path = SAMPLES / "mini_swe_agent_mswea.json"
    batches = load_trace(path).batches
    assert [b[0]["args"]["command"] for b in batches] == [
        "ls -la src", "cat src/dates.py", "python -m pytest -q", "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"]
    run, says = described(path)
    assert run.format == "mini-swe-agent" and "(auto-detected) in a JSON array; 9 messages, 4 batches" in says


def test_an_xml_tag_of_mini_swe_agent_is_an_action_too():
    messages = [{"role": "assistant", "content": "THOUGHT: list.\n<mswea_bash_command>ls -la</mswea_bash_command>"}]
    assert batches_from_messages(messages) == [[{"name": "bash", "args": {"command": "ls -la"}, "id": None}]]


def test_a_bash_fence_in_a_chat_is_no_call_but_the_summary_says_which_format_would_run_it(tmp_path):
    chat = [{"role": "user", "content": "how do I list files?"},
            {"role": "assistant", "content": "Like this:\n```bash\nls -la\n```"}]
    path = write(tmp_path, "chat.json", chat)
    trace = load_trace(path)
    assert trace.batches == []
    assert trace.describe().endswith("; 1 assistant message holds a ```bash fence, which mini-swe-agent 1.x runs as "
                                     "a command: --format mini-swe-agent reads it as a call")
    assert load_trace(path, format="mini-swe-agent").batches == [[{"name": "bash", "args": {"command": "ls -la"},
                                                                   "id": None}]]


def test_the_content_decides_when_it_disagrees_with_the_marker(tmp_path):
    # the file says mini-swe-agent, but its calls are Anthropic tool_use blocks
    document = {"trajectory_format": "mini-swe-agent-1", "messages": [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "bash", "input": {"command": "ls"}}]}]}
    run, says = described(write(tmp_path, "t.traj.json", document))
    assert run.format == "anthropic" and run.calls == 1
    assert "anthropic (auto-detected: the file names mini-swe-agent, its content says otherwise)" in says


def test_an_error_that_remains_names_the_format_that_reads_the_file(tmp_path):
    path = SAMPLES / "mini_swe_agent_toolcalls.traj.json"
    for wrong in ("anthropic", "claude-code"):
        with pytest.raises(TraceError, match=rf"message index 2: openai-chat tool calls in a trace read as {wrong}; "
                                             rf"--format openai-chat reads them$"):
            load_trace(path, format=wrong)
    # no calls at all: the records a named format did not read are counted for the format detection would pick
    session = write(tmp_path, "session.json", {"sessionId": "s", "projectHash": "h", "messages": [
        {"id": "m1", "type": "user", "content": "hi"}, {"id": "m2", "type": "gemini", "content": "hello"}]})
    with pytest.raises(TraceError, match=r"no record was read as a openai-chat message: 2 records .* or --format auto "
                                         r"\(--format gemini-cli reads 2 of them\)$"):
        load_trace(session, format="openai-chat")


# -- Codex rollouts: every item kind -------------------------------------------------------------------------------


def test_every_codex_call_item_is_a_call_named_with_its_arguments():
    # exec_command; tool_search; web_search + apply_patch (consecutive); local_shell + image_generation; the ghost
    # snapshot and an event between them do not split a batch, the outputs and the last message do
    path = SAMPLES / "codex_rollout_all_items.jsonl"
    assert names(path) == [[["exec_command"], ["tool_search"], ["web_search", "apply_patch"],
                            ["local_shell", "image_generation"]]]
    calls = [call for batch in load_trace(path).batches for call in batch]
    assert calls[1]["args"] == {"query": "calendar tools", "limit": 2}
    assert calls[2]["args"] == {"type": "search", "query": "argparse mutually exclusive group"}
    assert calls[5] == {"name": "image_generation", "args": {"revised_prompt": "A small calendar logo, flat style"},
                        "id": "ig_1"}  # the image itself is not an argument


def test_a_codex_item_of_a_kind_not_known_yet_is_skipped_and_named_never_refused():
    run, says = described(SAMPLES / "codex_rollout_all_items.jsonl")
    assert run.not_known == {"response_item 'hologram_call'": 1}
    assert ("; skipped 4 other records (1 session_meta, 1 turn_context, 1 response_item 'ghost_snapshot', "
            "1 event_msg); skipped 1 record of a kind not known yet (1 response_item 'hologram_call')") in says


def test_the_responses_api_hosted_calls_are_calls():
    items = [{"type": "mcp_call", "id": "m1", "server_label": "repo", "name": "count", "arguments": "{}"},
             {"type": "code_interpreter_call", "id": "ci1", "code": "print(1)", "container_id": "c"},
             {"type": "file_search_call", "id": "fs1", "queries": ["year bug"], "status": "completed"}]
    assert batches_from_messages(items) == [[
        {"name": "count", "args": "{}", "id": "m1"}, {"name": "code_interpreter", "args": {"code": "print(1)"},
                                                      "id": "ci1"},
        {"name": "file_search", "args": {"queries": ["year bug"]}, "id": "fs1"}]]


# -- OpenHands -----------------------------------------------------------------------------------------------------


def test_openhands_asdict_events_are_openhands_and_their_fields_are_the_arguments():
    # run_ipython x2, read, edit, run, finish: each an action without a model response, so each its own batch
    path = SAMPLES / "openhands_legacy_history.json"
    assert names(path) == [[["run_ipython"], ["run_ipython"], ["read"], ["edit"], ["run"], ["finish"]]]
    calls = [b[0] for b in load_trace(path).batches]
    assert calls[0]["args"] == {"code": "print(open('src/dates.py').read()[:400])"}
    assert calls[0]["args"] != calls[1]["args"]  # two different cells: two different calls, not the action type
    assert calls[2]["args"] == {"path": "/workspace/notes/src/dates.py", "start": 0, "end": -1, "view_range": [1, 40]}
    assert calls[4]["args"] == {"command": "python -m pytest -q tests/test_dates.py", "is_input": False}
    run, says = described(path)
    assert run.format == "openhands" and "skipped 2 other records (1 action 'recall', 1 action 'change_agent_state')" \
        in says


def test_asdict_events_mapped_by_the_openhands_preset():
    calls = [ToolMap("openhands").map_call(b[0]) for b in load_trace(SAMPLES / "openhands_legacy_history.json").batches]
    assert calls[2] == {"name": "read_file", "id": None, "args": {"path": "/workspace/notes/src/dates.py",
                                                                 "start_line": 1, "end_line": 40}}
    assert calls[4]["name"] == "bash" and calls[3]["name"] == "str_replace"
    read = ToolMap("openhands").map_call({"name": "read", "args": {"path": "a.py", "start": 199, "end": 400}})
    assert read["args"] == {"path": "a.py", "start_line": 200, "end_line": 400}  # start counts from 0


def test_the_resolver_output_is_one_run_per_issue():
    path = SAMPLES / "openhands_resolver_output.jsonl"
    seen = [(run.label, run.meta, len(list(run)), run.calls) for run in iter_runs(path)]
    # issue 7: two commands and finish; issue 9: three commands and finish
    assert seen == [("issue=acme/notes#7", {"issue": "acme/notes#7"}, 3, 3),
                    ("issue=acme/notes#9", {"issue": "acme/notes#9"}, 4, 4)]
    picked = list(report_paths([str(path)], select={"issue": "acme/notes#9"}))
    assert [(r.label, r.calls, r.format) for r in picked] == [("issue=acme/notes#9", 4, "openhands")]


def test_a_history_of_action_observation_pairs_is_read_as_its_events(tmp_path):
    call = {"id": "c1", "type": "function", "function": {"name": "execute_bash", "arguments": '{"command": "ls"}'}}
    action = {"id": 3, "source": "agent", "action": "run", "args": {"command": "ls"}, "tool_call_metadata": {
        "function_name": "execute_bash", "tool_call_id": "c1", "model_response": {"id": "r1", "choices": [
            {"message": {"tool_calls": [call]}}]}}}
    observation = {"id": 4, "source": "agent", "observation": "run", "content": "a.py", "extras": {}}
    again = json.loads(json.dumps(action).replace('"r1"', '"r2"').replace('"c1"', '"c2"'))  # a second model response
    path = write(tmp_path, "output.jsonl", [{"instance_id": "x", "history": [[action, observation],
                                                                             [again, observation]]}])
    run = next(iter_runs(path))
    assert [(b.where, [c["id"] for c in b.calls]) for b in run] == [(f"{path}:1: event index 0", ["c1"]),
                                                                    (f"{path}:1: event index 2", ["c2"])]


# -- Anthropic-shaped content anywhere -------------------------------------------------------------------------------


def test_tool_use_blocks_under_message_in_records_without_a_type_are_read():
    path = SAMPLES / "cursor_agent_transcript.jsonl"
    assert names(path) == [[["Read"], ["Grep", "Read"], ["StrReplace"]]]
    run, says = described(path)
    assert run.format == "anthropic" and run.turns == 2


def test_a_record_of_unexpected_shape_is_listed_with_its_line(tmp_path):
    lines = [{"type": "session_meta", "payload": {"id": "s"}},
             {"type": "response_item", "payload": {"type": "function_call", "name": "shell", "arguments": "{}",
                                                   "call_id": "c"}},
             {"kind": "debug", "text": "not a rollout record"}]
    trace = load_trace(write(tmp_path, "rollout.jsonl", lines))
    assert trace.describe().endswith("; skipped 1 record of a shape codex does not read (line 3: keys 'kind', 'text')")


# -- tool maps by default, cline ---------------------------------------------------------------------------------


def test_a_cline_task_applies_the_cline_preset_and_three_edits_are_three_calls():
    path = SAMPLES / "cline_task" / "api_conversation_history.json"
    [report] = report_paths([str(path)])
    assert (report.format, report.tool_map, report.unmapped) == ("anthropic", "cline", ("attempt_completion",))
    edits = [b for b in load_trace(path).batches if b[0]["name"] == "replace_in_file"]
    mapped = [ToolMap("cline").map_batch(b) for b in edits]
    assert len({fingerprint(b) for b in mapped}) == 3  # three different edits of one file
    assert len({fingerprint(b) for b in edits}) == 1  # unmapped, DeerFlow keys them by path alone: one "repeat"
    assert mapped[0][0]["args"] == {"path": "src/dates.py", "diff": edits[0][0]["args"]["diff"]}  # no task_progress


def test_the_summary_names_the_preset_and_the_tools_left_unmapped():
    [report] = report_paths([str(SAMPLES / "codex_rollout_all_items.jsonl")])
    # tool_search is also a tool of DeerFlow's own (tools/builtins/tool_search.py at f1f4af99): nothing to map
    assert report.tool_map == "codex" and report.unmapped == ("image_generation",)
    [raw] = report_paths([str(SAMPLES / "codex_rollout_all_items.jsonl")], tool_map=ToolMap(None))
    assert raw.tool_map is None and "exec_command" in raw.unmapped


# -- folders -------------------------------------------------------------------------------------------------------


def test_a_folder_scan_picks_up_every_ending_the_readers_are_written_for_and_the_readme_lists_them(tmp_path):
    for suffix in TRANSCRIPT_SUFFIXES:
        (tmp_path / f"t{suffix}").write_text("[]")
    (tmp_path / "notes.txt").write_text("[]")
    assert sorted(pathlib.Path(p).suffix for p in transcript_files(tmp_path)) == sorted(TRANSCRIPT_SUFFIXES)
    assert ".responses" in TRANSCRIPT_SUFFIXES
    section = README.read_text(encoding="utf-8").split("## Bring your own trace", 1)[1].split("\n## ", 1)[0]
    for suffix in TRANSCRIPT_SUFFIXES:
        assert f"`{suffix}`" in section, suffix


def test_a_responses_file_is_read():
    # grep, its output (which closes the batch), then the MCP call
    assert names(SAMPLES / "responses_items.responses") == [[["grep"], ["count_files"]]]
