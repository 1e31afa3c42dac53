"""Tool maps: every preset on its agent's sample, user rules and their errors, and the promise never to drop an
argument silently. Expected mapped calls are written by hand from the samples in tests/data/transcripts/."""

import json
import pathlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loopkit import fingerprint
from loopkit.traces.adapters import load_trace
from loopkit.traces.tool_maps import (
    DETECTED,
    PRESETS,
    MapError,
    Rule,
    ToolMap,
    is_poll,
    parse_rule,
    preset_for,
    presets_naming,
)

SAMPLES = pathlib.Path(__file__).resolve().parent / "data" / "transcripts"


def mapped(name, preset):
    tool_map = ToolMap(preset)
    calls = [{k: v for k, v in call.items() if k != "id"}
             for batch in load_trace(SAMPLES / name).batches for call in tool_map.map_batch(batch)]
    return calls, tool_map


def test_claude_code_preset_on_its_sample():
    calls, tool_map = mapped("claude_code.session.jsonl", "claude-code")
    root = "/home/dev/notes"
    assert calls == [
        {"name": "read_file", "args": {"path": f"{root}/src/dates.py", "start_line": 1, "end_line": 120}},
        {"name": "grep", "args": {"pattern": "def parse_date", "path": f"{root}/src"}},
        {"name": "str_replace", "args": {"path": f"{root}/src/dates.py", "old_str": "return day, month",
                                         "new_str": "return day, month, year"}},
        {"name": "bash", "args": {"command": "python -m pytest tests/test_dates.py -q",
                                  "description": "Run the date tests"}},
        {"name": "write_file", "args": {"path": f"{root}/CHANGELOG.md", "content": "- parse_date keeps the year\n"}},
    ]
    assert not tool_map.unmapped and not tool_map.problems


@pytest.mark.parametrize("offset, limit, expected", [
    (201, 100, {"start_line": 201, "end_line": 300}),
    (None, 50, {"start_line": 1, "end_line": 50}),
    (40, None, {"start_line": 40}),
    (None, None, {}),
    ("ten", 5, {"offset": "ten", "limit": 5}),  # not a line number: kept as sent, not guessed
])
def test_claude_read_offset_and_limit_become_a_line_range(offset, limit, expected):
    args = {"file_path": "a.py", **({"offset": offset} if offset is not None else {}),
            **({"limit": limit} if limit is not None else {})}
    call = ToolMap("claude-code").map_call({"name": "Read", "args": args, "id": "t"})
    assert call == {"name": "read_file", "args": {"path": "a.py", **expected}, "id": "t"}


def test_claude_reads_in_one_bucket_fingerprint_alike_once_mapped():
    # reads of lines 1-120 and 20-150 fall in DeerFlow's bucket 0-0 only when mapped to start_line/end_line
    reads = [{"name": "Read", "args": {"file_path": "a.py", "offset": 1, "limit": 120}},
             {"name": "Read", "args": {"file_path": "a.py", "offset": 20, "limit": 131}}]
    assert fingerprint([reads[0]]) != fingerprint([reads[1]])
    tool_map = ToolMap("claude-code")
    assert fingerprint([tool_map.map_call(reads[0])]) == fingerprint([tool_map.map_call(reads[1])])


def test_codex_preset_on_its_sample():
    calls, tool_map = mapped("codex_rollout.jsonl", "codex")
    assert [c["name"] for c in calls] == ["bash", "bash", "str_replace", "bash"]
    assert calls[0]["args"] == {"command": ["bash", "-lc", "sed -n 1,80p src/cli.py"], "workdir": "/home/dev/notes"}
    assert calls[2]["args"].startswith("*** Begin Patch")  # free text: renamed, kept whole
    assert calls[3]["args"]["command"] == ["bash", "-lc", "python -m pytest -q"]
    assert tool_map.describe() == ("tool map codex: mapped shell -> bash (2), apply_patch -> str_replace (1), "
                                   "local_shell -> bash (1)")


def test_openhands_preset_on_its_sample_reports_what_it_left():
    calls, tool_map = mapped("openhands_events.json", "openhands")
    # security_risk is dropped: OpenHands drops it before the action (function_calling.py at 156d0686)
    assert calls[:3] == [
        {"name": "bash", "args": {"command": "ls /workspace/notes", "is_input": "false"}},
        {"name": "read_file", "args": {"command": "view", "path": "/workspace/notes/src/dates.py",
                                       "start_line": 1, "end_line": 60}},
        {"name": "str_replace", "args": {"command": "str_replace", "path": "/workspace/notes/src/dates.py",
                                         "old_str": "return day, month", "new_str": "return day, month, year"}},
    ]
    assert calls[3] == {"name": "finish", "args": json.dumps({"message": "Done.", "task_completed": "true"})}
    assert dict(tool_map.unmapped) == {"finish": 1}
    assert tool_map.describe().endswith("; left unmapped: finish (1)")


@pytest.mark.parametrize("args, expected", [
    ({"command": "view", "path": "a.py", "view_range": [5, -1]}, ("read_file", {"command": "view", "path": "a.py",
                                                                              "start_line": 5})),
    ({"command": "create", "path": "a.py", "file_text": "x"}, ("write_file", {"command": "create", "path": "a.py",
                                                                            "content": "x"})),
    ({"command": "undo_edit", "path": "a.py", "security_risk": "LOW"}, ("str_replace", {"command": "undo_edit",
                                                                                       "path": "a.py"})),
    ({"command": "frobnicate", "path": "a.py"}, ("str_replace_editor", {"command": "frobnicate", "path": "a.py"})),
])
def test_openhands_editor_commands(args, expected):
    tool_map = ToolMap("openhands")
    call = tool_map.map_call({"name": "str_replace_editor", "args": json.dumps(args), "id": "1"})
    assert (call["name"], call["args"] if isinstance(call["args"], dict) else json.loads(call["args"])) == expected
    if expected[0] == "str_replace_editor":
        assert list(tool_map.problems) == ["str_replace_editor: no rule fits these arguments, left as they are"]


def test_swe_agent_preset_parses_its_commands():
    calls, tool_map = mapped("swe_agent.traj", "swe-agent")
    assert calls == [
        {"name": "read_file", "args": {"path": "src/dates.py", "start_line": 40}},
        {"name": "read_file", "args": {"path": "/repo/src/dates.py", "start_line": 1, "end_line": 60}},
        {"name": "str_replace", "args": {"path": "/repo/src/dates.py", "old_str": "return day, month",
                                         "new_str": "return day, month, year"}},
        {"name": "bash", "args": {"command": "python -m pytest tests/test_dates.py -q"}},
        {"name": "bash", "args": {"command": "submit"}},
    ]
    assert not tool_map.unmapped and not tool_map.problems  # bash is DeerFlow's own name


def test_gemini_cli_preset_on_its_sample_and_the_older_read_file():
    calls, _ = mapped("gemini_session.json", "gemini-cli")
    assert calls == [
        {"name": "read_file", "args": {"path": "/home/dev/notes/tests/test_dates.py", "start_line": 1, "end_line": 40}},
        {"name": "bash", "args": {"command": "python -m pytest tests/test_dates.py -q", "description": "run the tests"}},
        {"name": "str_replace", "args": {"path": "/home/dev/notes/src/dates.py", "old_str": "return day, month",
                                         "new_str": "return day, month, year"}},  # the instruction is for the human
    ]
    older = {"name": "read_file", "args": {"absolute_path": "/a.py", "offset": 0, "limit": 200}}  # 0-based offset
    assert ToolMap("gemini-cli").map_call(older)["args"] == {"path": "/a.py", "start_line": 1, "end_line": 200}


def test_cline_preset_on_its_sample_and_its_other_variants():
    # the sample: read, three replace_in_file edits, a command, attempt_completion (Cline's own, left as it is)
    calls, tool_map = mapped("cline_task/api_conversation_history.json", "cline")
    assert [c["name"] for c in calls] == ["read_file", "str_replace", "str_replace", "str_replace", "bash",
                                          "attempt_completion"]
    assert calls[0]["args"] == {"path": "src/dates.py"}  # the task_progress checklist is dropped
    assert calls[4]["args"] == {"command": "python -m pytest -q", "requires_approval": False}
    assert dict(tool_map.unmapped) == {"attempt_completion": 1}
    cline = ToolMap("cline")
    native = cline.map_call({"name": "write_to_file", "args": {"absolutePath": "/r/a.py", "content": "x"}})
    search = cline.map_call({"name": "search_files", "args": {"path": "src", "regex": "def \\w+",
                                                              "file_pattern": "*.py", "task_progress": "- [ ] x"}})
    assert native["name"] == "write_file" and native["args"] == {"path": "/r/a.py", "content": "x"}
    assert search["name"] == "grep" and search["args"] == {"path": "src", "pattern": "def \\w+", "glob": "*.py"}


def test_codex_exec_command_and_gemini_replace_drop_what_is_not_the_call():
    bash = ToolMap("codex").map_call({"name": "exec_command", "args": '{"cmd": "ls", "yield_time_ms": 1000}'})
    assert bash["name"] == "bash" and bash["args"] == {"command": "ls", "yield_time_ms": 1000}
    edit = {"name": "replace", "args": {"file_path": "a.py", "old_string": "x", "new_string": "y"}}
    told = {**edit, "args": {**edit["args"], "instruction": "rename x to y"}}
    gemini = ToolMap("gemini-cli")
    assert gemini.map_call(told) == gemini.map_call({**edit, "args": {**edit["args"], "instruction": "other words"}})


def test_every_preset_is_tested_above():
    # kimi-code and opencode, and openhands' SDK tools, are tested in tests/test_agent_formats.py
    assert set(PRESETS) == {"claude-code", "codex", "openhands", "swe-agent", "gemini-cli", "cline", "kimi-code",
                            "opencode"}


def test_deerflow_s_own_tools_are_never_unmapped_and_other_names_are():
    # a DeerFlow thread calls ask_clarification and present_files by DeerFlow's own names (tools/builtins/ at
    # f1f4af99): there is nothing to map
    tool_map = ToolMap(DETECTED).for_run("langchain")
    for name in ("ask_clarification", "present_files", "task", "web_search", "bash", "Frobnicate"):
        tool_map.map_call({"name": name, "args": {}, "id": name})
    assert dict(tool_map.unmapped) == {"Frobnicate": 1}


def test_a_poll_is_write_stdin_with_nothing_to_write():
    assert is_poll({"name": "write_stdin", "args": {"session_id": 3, "chars": "", "yield_time_ms": 1000}})
    assert is_poll({"name": "write_stdin", "args": '{"session_id": 3}'})
    assert not is_poll({"name": "write_stdin", "args": {"session_id": 3, "chars": "y\n"}})
    assert not is_poll({"name": "exec_command", "args": {"cmd": "sleep 5"}})


# -- user rules ----------------------------------------------------------------------------------------------------


def test_user_rules_rename_tools_and_arguments_and_keep_the_rest():
    tool_map = ToolMap(rules=["fetch_page=web_fetch:link>url", "run=bash", "cat[mode=lines]=read_file:file>path,-mode"])
    assert tool_map.map_call({"name": "fetch_page", "args": '{"link": "https://x", "depth": 2}', "id": "1"}) == {
        "name": "web_fetch", "args": {"url": "https://x", "depth": 2}, "id": "1"}
    assert tool_map.map_call({"name": "run", "args": "echo hi", "id": "2"}) == {
        "name": "bash", "args": "echo hi", "id": "2"}  # free text, renamed only: the rule renames no argument
    assert tool_map.map_call({"name": "cat", "args": {"file": "a", "mode": "lines"}, "id": "3"})["args"] == {"path": "a"}
    untouched = {"name": "cat", "args": {"file": "a", "mode": "bytes"}, "id": "4"}
    assert tool_map.map_call(untouched) is untouched  # the condition does not hold
    assert tool_map.map_call({"name": "other", "args": {}, "id": "5"})["name"] == "other"
    assert dict(tool_map.unmapped) == {"other": 1}
    assert tool_map.problems == {"cat: no rule fits these arguments, left as they are": 1}


def test_a_user_rule_replaces_the_preset_for_its_tool():
    tool_map = ToolMap("claude-code", rules=["Read=read_file:file_path>path"])
    call = tool_map.map_call({"name": "Read", "args": {"file_path": "a.py", "offset": 5}, "id": "1"})
    assert call["args"] == {"path": "a.py", "offset": 5}


def test_arguments_that_cannot_be_read_are_never_half_mapped():
    tool_map = ToolMap(rules=["fetch=web_fetch:link>url"])
    call = {"name": "fetch", "args": "{not json", "id": "1"}
    assert tool_map.map_call(call) is call
    assert tool_map.problems == {"fetch: arguments are not a JSON object, left as they are": 1}


def test_a_rename_onto_an_existing_argument_is_left_as_it_is():
    tool_map = ToolMap(rules=["w=write_file:file>path"])
    call = {"name": "w", "args": {"file": "a", "path": "b"}, "id": "1"}
    assert tool_map.map_call(call) is call  # renaming would overwrite 'path'


@pytest.mark.parametrize("rule, says", [
    ("Read", "expected OLD=NEW"),
    ("=read_file", "expected OLD=NEW"),
    ("Read=", "expected OLD=NEW"),
    ("Read=read_file:", "nothing after ':'"),
    ("Read=read_file:file_path", "'file_path' is not ARG>NEWARG or -ARG"),
    ("Read=read_file:a>x,b>x", "two arguments renamed to the same name"),
    ("Read[mode]=read_file", "expected OLD=NEW"),
])
def test_bad_rules_say_what_was_expected(rule, says):
    with pytest.raises(MapError) as info:
        parse_rule(rule)
    assert str(info.value).startswith(f"tool-map rule {rule!r}: ") and says in str(info.value)


def test_a_bad_preset_or_rule_type_is_named():
    with pytest.raises(MapError, match="no tool-map preset 'claude'; expected one of claude-code, codex"):
        ToolMap("claude")
    with pytest.raises(MapError, match="must be a string, got int"):
        ToolMap(rules=[3])


def test_parse_rule_round_trip():
    assert parse_rule(" a[x=1]=b:c>d,-e ") == Rule("a", "b", (("c", "d"),), ("e",), ("x", "1"))


# -- property: a rule never loses an argument it does not name ------------------------------------------------------

keys = st.text(alphabet="abcdefgh_", min_size=1, max_size=5)


@given(st.dictionaries(keys, st.integers() | st.text(max_size=3), max_size=6), st.booleans())
def test_mapping_keeps_every_argument_it_does_not_rename(args, as_json):
    tool_map = ToolMap("claude-code")
    call = {"name": "Edit", "args": json.dumps(args) if as_json else args, "id": "1"}
    result = tool_map.map_call(call)
    renames = {"file_path": "path", "old_string": "old_str", "new_string": "new_str"}
    if result is call:  # a rename would have collided with an argument already there
        assert any(new in args and old in args for old, new in renames.items())
        return
    assert result["name"] == "str_replace"
    assert sorted(result["args"].values(), key=repr) == sorted(args.values(), key=repr)
    assert set(result["args"]) == {renames.get(k, k) for k in args}


# -- the survivors of the mutation run (tools/mutants.py): a user rule replaces the preset; what is left unmapped -
def test_a_user_rule_replaces_the_preset_even_where_the_rule_does_not_fit():
    tool_map = ToolMap("claude-code", rules=["Read[file_path=notes.md]=read_file:file_path>path"])
    fits = tool_map.map_call({"name": "Read", "args": {"file_path": "notes.md", "offset": 5}, "id": "1"})
    assert fits == {"name": "read_file", "args": {"path": "notes.md", "offset": 5}, "id": "1"}  # the rule, not the preset
    other = {"name": "Read", "args": {"file_path": "a.py", "offset": 5, "limit": 10}, "id": "2"}
    assert tool_map.map_call(other) is other  # the preset would have mapped it; the user's rule took Read over
    assert tool_map.problems == {"Read: no rule fits these arguments, left as they are": 1}
    assert ToolMap("claude-code").map_call(other)["name"] == "read_file"  # without the rule, the preset maps it


def test_the_tools_left_unmapped_are_counted_and_described_and_deerflow_names_are_not():
    tool_map = ToolMap("claude-code")
    for call in ({"name": "Frobnicate", "args": {}}, {"name": "Frobnicate", "args": {}}, {"name": "bash", "args": {}},
                 {"name": "Read", "args": {"file_path": "a.py"}}):
        tool_map.map_call(call)
    assert tool_map.unmapped == {"Frobnicate": 2}
    assert tool_map.describe() == "tool map claude-code: mapped Read -> read_file (1); left unmapped: Frobnicate (2)"


def test_each_runs_map_keeps_the_users_rules():
    tool_map = ToolMap(DETECTED, rules=["fetch=web_fetch:link>url"]).for_run("openai-chat")
    assert tool_map.map_call({"name": "fetch", "args": {"link": "x"}}) == {"name": "web_fetch", "args": {"url": "x"}}


def test_a_compressed_cline_history_gets_the_cline_preset():
    assert preset_for("anthropic", "tasks/17/api_conversation_history.json.gz") == "cline"
    assert preset_for("anthropic", "tasks/17/other.json.gz") is None


def test_a_preset_is_suggested_for_two_of_its_tools_not_for_one():
    assert presets_naming(["replace_in_file", "execute_command", "Frobnicate"]) == ["cline"]
    assert presets_naming(["replace_in_file", "Frobnicate"]) == []


def test_a_rule_that_drops_an_argument_leaves_unreadable_arguments_alone():
    tool_map = ToolMap(rules=["fetch=web_fetch:-verbose"])
    call = {"name": "fetch", "args": "{not json", "id": "1"}
    assert tool_map.map_call(call) is call
    assert tool_map.problems == {"fetch: arguments are not a JSON object, left as they are": 1}
    assert ToolMap(rules=["fetch=web_fetch"]).map_call(call) == {**call, "name": "web_fetch"}  # a pure rename applies

# -- issue 26: a rule that never applies is visible, and a map crosses a process boundary ---------------------------


def test_a_rule_that_never_applies_is_named_and_one_that_applies_is_not():
    tool_map = ToolMap(rules=["run=bash", "fetch_page=web_fetch:link>url", "cat[mode=lines]=read_file:file>path"])
    tool_map.map_call({"name": "run", "args": {"command": "ls"}, "id": "1"})
    tool_map.map_call({"name": "cat", "args": {"file": "a", "mode": "bytes"}, "id": "2"})  # its condition fails
    assert tool_map.never_applied() == ["fetch_page=web_fetch:link>url", "cat[mode=lines]=read_file:file>path"]
    tool_map.map_call({"name": "cat", "args": {"file": "a", "mode": "lines"}, "id": "3"})
    assert tool_map.never_applied() == ["fetch_page=web_fetch:link>url"]


def test_a_rule_is_written_back_in_the_syntax_it_was_parsed_from():
    for text in ("Read=read_file", "OLD=NEW:a>b,c>d,-x", "str_replace_editor[command=view]=read_file:-security_risk"):
        assert str(parse_rule(text)) == text
        assert parse_rule(str(parse_rule(text))) == parse_rule(text)


def test_a_map_pickles_as_its_preset_and_rules_with_no_counts():
    import pickle

    tool_map = ToolMap("claude-code", rules=["Frob=bash"])
    tool_map.map_call({"name": "Frob", "args": {"command": "ls"}, "id": "1"})
    copy = pickle.loads(pickle.dumps(tool_map))
    assert (copy.preset, copy.rules) == (tool_map.preset, tool_map.rules)
    assert not copy.mapped and copy.never_applied() == ["Frob=bash"]
    call = {"name": "Read", "args": {"file_path": "a.py"}, "id": "2"}
    assert copy.map_call(call) == ToolMap("claude-code").map_call(call)
