"""Provider adapters: round trips for every transport shape, string-encoded tool calls, containers, and errors that
say FILE:LINE (or the message index) and what was expected."""

import json
import pathlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loopkit import fingerprint
from loopkit.traces.adapters import FORMATS, TraceError, batches_from_messages, iter_trace, load_trace
from loopkit.traces.adapters.runs import records_run

DATA = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "data"

# Three assistant turns: one call, two parallel calls, one call. Written by hand.
CALLS = [
    [("c1", "read_file", {"path": "src/app.py", "start_line": 1, "end_line": 80})],
    [("c2", "bash", {"command": "pytest -x"}), ("c3", "grep", {"pattern": "def main", "path": "src"})],
    [("c4", "write_file", {"path": "src/app.py", "content": "print('hi')\n"})],
]


# -- writers: each renders CALLS the way one provider would send them --------------------------------------------


def openai_chat(str_tool_calls=False):
    msgs = [{"role": "system", "content": "You are a coding agent."}, {"role": "user", "content": "fix app.py"}]
    for turn in CALLS:
        tool_calls = [{"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
                      for i, n, a in turn]
        msgs.append({"role": "assistant", "content": None,
                     "tool_calls": json.dumps(tool_calls) if str_tool_calls else tool_calls})
        msgs += [{"role": "tool", "tool_call_id": i, "content": "ok"} for i, _, _ in turn]
    msgs.append({"role": "assistant", "content": "Done."})
    return msgs


def openai_responses():
    items = [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "fix app.py"}]}]
    for turn in CALLS:
        items.append({"type": "reasoning", "id": "rs", "summary": []})
        items += [{"type": "function_call", "id": "fc_" + i, "call_id": i, "name": n, "arguments": json.dumps(a)}
                  for i, n, a in turn]
        items += [{"type": "function_call_output", "call_id": i, "output": "ok"} for i, _, _ in turn]
    return items


def anthropic(str_content=False, str_input=False):
    msgs = [{"role": "user", "content": "fix app.py"}]
    for turn in CALLS:
        blocks = [{"type": "text", "text": "Let me look."}]
        blocks += [{"type": "tool_use", "id": i, "name": n, "input": json.dumps(a) if str_input else a}
                   for i, n, a in turn]
        msgs.append({"role": "assistant", "content": json.dumps(blocks) if str_content else blocks})
        msgs.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": i, "content": "ok"}
                                                  for i, _, _ in turn]})
    return msgs


def langchain(str_tool_calls=None, wrapped=False):
    msgs = [{"type": "human", "content": "fix app.py"}]
    for turn in CALLS:
        tool_calls = [{"name": n, "args": a, "id": i, "type": "tool_call"} for i, n, a in turn]
        if str_tool_calls == "json":
            tool_calls = json.dumps(tool_calls)
        elif str_tool_calls == "python":
            tool_calls = repr(tool_calls)  # what str() of a Python list gives: single quotes, not JSON
        msgs.append({"type": "ai", "content": "", "tool_calls": tool_calls})
        msgs += [{"type": "tool", "content": "ok", "tool_call_id": i} for i, _, _ in turn]
    if wrapped:
        msgs = [{"type": m["type"], "data": {k: v for k, v in m.items() if k != "type"}} for m in msgs]
    return msgs


def expected(args_as_json_string):
    return [[{"name": n, "args": json.dumps(a) if args_as_json_string else a, "id": i} for i, n, a in turn]
            for turn in CALLS]


def write(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    return path


def as_json(messages, key=None):
    return json.dumps({key: messages} if key else messages, indent=1)


def as_jsonl(messages):
    return "".join(json.dumps(m) + "\n" for m in messages)


# -- round trips --------------------------------------------------------------------------------------------------

CASES = [
    ("openai-chat", openai_chat(), True),
    ("openai-chat", openai_chat(str_tool_calls=True), True),
    ("openai-responses", openai_responses(), True),
    ("anthropic", anthropic(), False),
    ("anthropic", anthropic(str_content=True), False),
    ("langchain", langchain(), False),
    ("langchain", langchain(str_tool_calls="json"), False),
    ("langchain", langchain(str_tool_calls="python"), False),
    ("langchain", langchain(wrapped=True), False),
]
CASE_IDS = ["chat", "chat-str", "responses", "anthropic", "anthropic-str", "lc", "lc-json-str", "lc-py-str", "lc-wrapped"]


@pytest.mark.parametrize("fmt, messages, json_args", CASES, ids=CASE_IDS)
@pytest.mark.parametrize("container", ["array", "messages", "history", "jsonl", "jsonl-suffixless"])
def test_round_trip_every_adapter_and_container(tmp_path, fmt, messages, json_args, container):
    if container == "array":
        path = write(tmp_path, "t.json", as_json(messages))
    elif container in ("messages", "history"):
        path = write(tmp_path, "t.json", as_json(messages, container))
    else:
        path = write(tmp_path, "t.jsonl" if container == "jsonl" else "t.txt", as_jsonl(messages))
    trace = load_trace(path)
    assert trace.format == fmt
    assert trace.batches == expected(json_args)
    assert trace.messages == len(messages)
    assert load_trace(path, format=fmt).batches == expected(json_args)
    assert f"{fmt} (auto-detected)" in trace.describe()
    assert "3 batches, 4 tool calls" in trace.describe()


@pytest.mark.parametrize("fmt, messages, json_args", CASES, ids=CASE_IDS)
def test_in_memory_adapters(fmt, messages, json_args):
    assert batches_from_messages(messages, fmt) == expected(json_args)
    assert batches_from_messages(messages) == expected(json_args)


def test_the_same_session_in_every_format_gives_the_same_fingerprints():
    shapes = [openai_chat(), openai_responses(), anthropic(), langchain(), anthropic(str_input=True)]
    prints = [[fingerprint(batch) for batch in batches_from_messages(m)] for m in shapes]
    assert all(p == prints[0] for p in prints) and len(set(prints[0])) == 3


def test_responses_output_container_and_string_encoded_output(tmp_path):
    response = {"id": "resp_1", "object": "response", "output": openai_responses()}
    trace = load_trace(write(tmp_path, "r.json", json.dumps(response)))
    assert (trace.format, trace.container, trace.batches) == (
        "openai-responses", "a JSON object under 'output'", expected(True))
    stringly = {"input": json.dumps(openai_responses())}
    assert load_trace(write(tmp_path, "s.json", json.dumps(stringly))).batches == expected(True)


def test_responses_calls_split_at_every_non_call_item():
    items = [
        {"type": "function_call", "call_id": "a", "name": "ls", "arguments": "{}"},
        {"type": "function_call", "call_id": "b", "name": "pwd", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "a", "output": ""},
        {"type": "function_call", "call_id": "c", "name": "ls", "arguments": "{}"},
    ]
    assert [[c["id"] for c in b] for b in batches_from_messages(items, "openai-responses")] == [["a", "b"], ["c"]]


def test_args_are_left_exactly_as_sent():
    raw = '{"path":  "a.py" , "b": 1}'
    msgs = [{"role": "assistant", "tool_calls": [{"id": "x", "function": {"name": "read_file", "arguments": raw}}]}]
    assert batches_from_messages(msgs, "openai-chat")[0][0]["args"] == raw  # not parsed, not re-serialized
    bad = [{"role": "assistant", "tool_calls": [{"id": "x", "function": {"name": "bash", "arguments": "{oops"}}]}]
    # malformed arguments are the detector's business
    assert batches_from_messages(bad, "openai-chat")[0][0]["args"] == "{oops"


def test_legacy_function_call_is_read_not_dropped():
    msgs = [{"role": "assistant", "function_call": {"name": "bash", "arguments": '{"command": "ls"}'}}]
    assert batches_from_messages(msgs, "openai-chat") == [[{"name": "bash", "args": '{"command": "ls"}', "id": None}]]


def test_langchain_ai_message_with_anthropic_blocks_reads_tool_calls_once():
    msg = {"type": "ai", "content": [{"type": "tool_use", "id": "t", "name": "ls", "input": {}}],
           "tool_calls": [{"name": "ls", "args": {}, "id": "t"}]}
    assert batches_from_messages([msg]) == [[{"name": "ls", "args": {}, "id": "t"}]]


def test_turns_count_user_messages_but_not_anthropic_tool_results():
    msgs = anthropic() + [{"role": "user", "content": "now the docs"}] + anthropic()[1:3]
    stream = iter_trace_from(msgs)
    assert [b.turn for b in stream] == [1, 1, 1, 2]


def iter_trace_from(messages, tmp=None):
    import tempfile

    d = pathlib.Path(tempfile.mkdtemp())
    path = d / "t.jsonl"
    path.write_text(as_jsonl(messages))
    return list(iter_trace(path))


def test_stream_yields_steps_and_line_locations(tmp_path):
    path = write(tmp_path, "t.jsonl", "\n" + as_jsonl(openai_chat()))  # a blank first line is skipped
    batches = list(iter_trace(path))
    assert [b.step for b in batches] == [1, 2, 3]
    # system, user on lines 2-3; assistant on 4, tool on 5; assistant on 6, tools on 7-8; assistant on 9
    assert [b.where for b in batches] == [f"{path}:4", f"{path}:6", f"{path}:9"]


def test_json_document_locations_are_message_indexes(tmp_path):
    batches = list(iter_trace(write(tmp_path, "t.json", as_json(anthropic(), "messages"))))
    assert [b.where.split(": ", 1)[1] for b in batches] == ["message index 1", "message index 3", "message index 5"]


def test_single_line_container_is_a_json_document(tmp_path):
    path = write(tmp_path, "one.json", json.dumps({"messages": langchain()}) + "\n\n")
    assert load_trace(path).container == "a JSON object under 'messages'"


def test_sample_transcripts_in_notebooks_data_load():
    samples = sorted(DATA.glob("*.json*"))
    assert len(samples) >= 6
    seen = set()
    for path in samples:
        trace = load_trace(path)
        seen.add(trace.format)
    # the chapter's samples cover the four chat-API shapes; the other formats' samples are in tests/data/transcripts
    assert set(FORMATS[:4]) == {"openai-chat", "openai-responses", "anthropic", "langchain"} <= seen


# -- no tool calls, and bad input ----------------------------------------------------------------------------------


def test_no_tool_calls_is_reported_not_an_error(tmp_path):
    msgs = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "Hello!", "tool_calls": []}]
    trace = load_trace(write(tmp_path, "chat.json", json.dumps(msgs)))
    assert trace.batches == [] and trace.format is None
    assert trace.describe() == f"{tmp_path / 'chat.json'}: no tool calls in 2 messages in a JSON array; nothing to replay"


@pytest.mark.parametrize(
    "name, content, where, says",
    [
        ("t.jsonl", '{"role": "user", "content": "x"}\n{"role": "assistant", oops}\n', ":2: ", "invalid JSON"),
        ("t.jsonl", '{"role": "user", "content": "x"}\n\n[1, 2]\n', ":3: ", "expected a message object, got list"),
        ("t.json", '[\n  {"role": "user"},\n  {"role": \n]\n', ":4: ", "invalid JSON"),
        ("t.json", '{"turns": []}', ": ", "expected one of the keys messages, history, output, input (found 'turns')"),
        ("t.json", '{"messages": 7}', ": ", "'messages' must be a list of messages, got int"),
        ("t.json", '"hello"', ": ", "expected a JSON array, a JSON object or JSON Lines"),
        ("t.json", "", ": ", "the file is empty"),
        ("t.jsonl", '{"messages": [{"role": "user"}]}\n{"role": "user"}\n', ":1: ", "one message per line"),
        ("t.json", json.dumps([{"role": "assistant", "tool_calls": "{not a list"}]), ": message index 0: ",
         "'tool_calls' is a string that is neither JSON nor a Python literal"),
        ("t.json", json.dumps([{"role": "assistant", "tool_calls": '{"name": "x"}'}]), ": message index 0: ",
         "'tool_calls' decodes to dict, expected a list"),
        ("t.json", json.dumps([{"role": "assistant", "tool_calls": 5}]), ": message index 0: ",
         "'tool_calls' must be a list (or a string holding one), got int"),
        ("t.json", json.dumps([{}, {"role": "assistant", "tool_calls": [{"id": "1", "function": {"arguments": "{}"}}]}]),
         ": message index 1: ", "tool_calls[0].function.name must be a non-empty string"),
        ("t.json", json.dumps([{"type": "ai", "tool_calls": [{"name": "ls", "args": {}}, "ls"]}]),
         ": message index 0: ", "tool_calls[1] must be an object with 'name', 'args' and 'id', got str"),
        ("t.json", json.dumps([{"role": "user", "tool_calls": [{"name": "ls", "args": {}}]}]),
         ": message index 0: ", "a 'user' message carries tool calls; expected them on an assistant message"),
        ("t.json", json.dumps([{"type": "function_call", "arguments": "{}"}]), ": message index 0: ",
         "function_call 'name' must be a non-empty string"),
        ("t.json", json.dumps({"messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "x"}]}]}),
         ": message index 0: ", "content[0] (tool_use) 'name' must be a non-empty string"),
        ("t.json", json.dumps([anthropic()[1], langchain()[1]]), ": message index 1: ",
         "langchain tool calls in a trace read as anthropic (picked at"),
    ],
)
def test_bad_input_says_where_and_what_was_expected(tmp_path, name, content, where, says):
    path = write(tmp_path, name, content)
    with pytest.raises(TraceError) as info:
        load_trace(path)
    message = str(info.value)
    assert message.startswith(f"{path}{where}"), message
    assert says in message, message


def test_a_python_literal_is_parsed_but_never_evaluated(tmp_path):
    code = "[__import__('os').system('touch PWNED')]"
    path = write(tmp_path, "t.json", json.dumps([{"type": "ai", "tool_calls": code}]))
    with pytest.raises(TraceError, match="neither JSON nor a Python literal"):
        load_trace(path)
    assert not (tmp_path / "PWNED").exists() and not pathlib.Path("PWNED").exists()


def test_explicit_format_mismatch_is_an_error_with_the_location(tmp_path):
    path = write(tmp_path, "t.jsonl", as_jsonl(anthropic()))
    with pytest.raises(TraceError, match=r"t\.jsonl:2: anthropic tool calls in a trace read as openai-chat; "
                                         r"--format anthropic reads them$"):
        load_trace(path, format="openai-chat")


def test_non_utf8_line_and_missing_file(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"role": "user"}\n{"role": "\xff"}\n')
    with pytest.raises(TraceError, match=r"t\.jsonl:2: not UTF-8 text"):
        load_trace(path)
    with pytest.raises(TraceError, match=r"nope\.json: cannot read the file"):
        load_trace(tmp_path / "nope.json")


def test_bad_format_argument_names_it(tmp_path):
    with pytest.raises(ValueError, match="format must be 'auto' or one of openai-chat, .*got 'openai'"):
        load_trace(tmp_path / "x.json", format="openai")
    with pytest.raises(TypeError, match="messages must be a list"):
        batches_from_messages({"messages": []})


def test_a_stream_is_single_use(tmp_path):
    stream = iter_trace(write(tmp_path, "t.jsonl", as_jsonl(langchain())))
    assert len(list(stream)) == 3
    with pytest.raises(RuntimeError, match="only once"):
        list(stream)


# -- property: any batches survive the round trip through every shape --------------------------------------------

names = st.sampled_from(["read_file", "bash", "grep", "write_file", "web_search"])
args = st.dictionaries(st.sampled_from(["path", "command", "query", "n"]), st.text(max_size=5) | st.integers(), max_size=3)
batch_lists = st.lists(st.lists(st.tuples(names, args), min_size=1, max_size=3), max_size=6)


@given(batch_lists)
def test_round_trip_property(batches):
    ids = iter(f"id{k}" for k in range(100))
    turns = [[(next(ids), n, a) for n, a in b] for b in batches]
    chat = [{"role": "assistant", "tool_calls": [{"id": i, "type": "function", "function": {
        "name": n, "arguments": json.dumps(a)}} for i, n, a in t]} for t in turns]
    claude = [{"role": "assistant", "content": [{"type": "tool_use", "id": i, "name": n, "input": a}
                                                for i, n, a in t]} for t in turns]
    want_dict = [[{"name": n, "args": a, "id": i} for i, n, a in t] for t in turns]
    want_str = [[{"name": n, "args": json.dumps(a), "id": i} for i, n, a in t] for t in turns]
    assert batches_from_messages(chat, "openai-chat") == want_str
    assert batches_from_messages(claude, "anthropic") == want_dict
    assert batches_from_messages([{"type": "ai", "tool_calls": repr(t and [{"name": n, "args": a, "id": i}
                                                                         for i, n, a in t])} for t in turns],
                                 "langchain") == want_dict


# -- review fixes (issue 5): nothing silently dropped, every error located ----------------------------------------


def test_arguments_at_the_wrong_level_is_a_located_error_not_a_silent_none(tmp_path):
    # "arguments" beside "name" instead of inside "function": read as LangChain, args would be None for all six
    # calls, which gives six identical keys and a false stop. It must be an error at the first such line.
    lines = [{"role": "assistant", "tool_calls": [{"id": str(i), "name": "read_file",
                                                   "arguments": json.dumps({"path": f"src/m{i}.py"})}]}
             for i in range(6)]
    path = write(tmp_path, "t.jsonl", as_jsonl(lines))
    with pytest.raises(TraceError) as info:
        load_trace(path)
    message = str(info.value)
    assert message.startswith(f"{path}:1: tool_calls[0] has no 'args'"), message
    assert "'arguments'" in message and "'function'" in message  # says what it found and what was expected


@pytest.mark.parametrize(
    "message, says",
    [
        ({"role": "assistant", "tool_calls": [{"id": "1", "type": "function", "function": {"name": "ls"}}]},
         "tool_calls[0].function has no 'arguments'"),
        ({"type": "ai", "tool_calls": [{"name": "ls", "id": "1"}]}, "tool_calls[0] has no 'args'"),
        ({"role": "assistant", "content": [{"type": "tool_use", "id": "1", "name": "ls"}]},
         "content[0] (tool_use) has no 'input'"),
        ({"type": "function_call", "call_id": "1", "name": "ls"}, "function_call has no 'arguments'"),
        ({"role": "assistant", "function_call": {"name": "ls"}}, "function_call has no 'arguments'"),
    ],
)
def test_a_call_without_its_arguments_field_is_an_error(message, says):
    with pytest.raises(TraceError, match=r"^messages: message index 0: ") as info:
        batches_from_messages([message])
    assert says in str(info.value)


def test_null_arguments_are_kept_as_sent():
    # the field is present: its value (even null) is the provider's, and the detector keys it
    msgs = [{"type": "ai", "tool_calls": [{"name": "ls", "args": None, "id": "1"}]}]
    assert batches_from_messages(msgs) == [[{"name": "ls", "args": None, "id": "1"}]]


def test_python_literal_args_that_json_cannot_hold_are_a_located_error(tmp_path):
    path = write(tmp_path, "t.jsonl", '{"role": "user", "content": "x"}\n'
                 '{"type":"ai","tool_calls":"[{\'name\': \'bash\', \'args\': {1: \'a\', \'b\': 2}, \'id\': \'1\'}]"}\n')
    with pytest.raises(TraceError) as info:
        load_trace(path)
    message = str(info.value)
    assert message.startswith(f"{path}:2: 'tool_calls'"), message
    assert "key 1" in message and "JSON" in message


@pytest.mark.parametrize("value", ["{1, 2}", "b'x'", "1j", "{(1, 2): 3}"])
def test_python_literals_with_non_json_values_are_rejected(value):
    text = f"[{{'name': 'bash', 'args': {{'a': {value}}}, 'id': '1'}}]"
    with pytest.raises(TraceError, match="cannot be JSON"):
        batches_from_messages([{"type": "ai", "tool_calls": text}])


HUGE = "1" * 5000  # more digits than Python converts by default (4300)


def test_an_integer_too_long_for_python_is_a_located_error_in_json_lines(tmp_path):
    path = write(tmp_path, "t.jsonl", '{"role": "user", "content": "x"}\n{"role": "user", "n": ' + HUGE + "}\n")
    with pytest.raises(TraceError, match=rf"^{path}:2: .*number with more than 4300 digits"):
        load_trace(path)


def test_an_integer_too_long_for_python_is_a_located_error_in_a_json_document(tmp_path):
    path = write(tmp_path, "t.json", '[\n {"role": "user", "content": "x"},\n {"role": "user", "n": ' + HUGE + "}\n]")
    with pytest.raises(TraceError, match=rf"^{path}:3: .*number with more than 4300 digits"):
        load_trace(path)


@pytest.mark.parametrize("content", ["", "\n\n  \n"])
@pytest.mark.parametrize("name", ["t.json", "t.jsonl", "t.txt"])
def test_an_empty_file_is_unusable_whatever_its_suffix(tmp_path, name, content):
    path = write(tmp_path, name, content)
    with pytest.raises(TraceError, match=rf"^{path}: the file is empty; expected JSON or JSON Lines"):
        load_trace(path)


def test_an_empty_container_is_a_trace_without_tool_calls(tmp_path):
    assert load_trace(write(tmp_path, "t.json", "[]")).describe().endswith("no tool calls in 0 messages in a "
                                                                          "JSON array; nothing to replay")


def test_a_binary_stream_that_cannot_seek_is_read(tmp_path):
    import io

    from pipe_stream import Pipe

    chat = as_jsonl(openai_chat()).encode()
    for data in (chat, as_json(anthropic(), "messages").encode(), json.dumps(langchain()).encode()):
        stream = iter_trace(io.BufferedReader(Pipe(data)))
        assert [b.calls for b in stream] in (expected(True), expected(False))
        assert stream.path == "<stream>"


def test_a_suffixless_json_lines_file_with_a_broken_first_line_says_line_1(tmp_path):
    path = write(tmp_path, "t.txt", '{"role": "user", oops}\n' + as_jsonl(openai_chat()))
    with pytest.raises(TraceError, match=rf"^{path}:1: invalid JSON"):
        load_trace(path)


def test_a_pretty_printed_object_without_suffix_is_a_document(tmp_path):
    path = write(tmp_path, "t.txt", as_json(langchain(), "messages"))
    assert load_trace(path).container == "a JSON object under 'messages'"


# -- shapes that used to come out as "no tool calls" ---------------------------------------------------------------


def test_langchain_additional_kwargs_tool_calls_are_read():
    chat_calls = [{"id": "c1", "type": "function", "function": {"name": "ls", "arguments": '{"path": "."}'}}]
    old = {"type": "ai", "content": "", "additional_kwargs": {"tool_calls": chat_calls}}
    assert batches_from_messages([old]) == [[{"name": "ls", "args": '{"path": "."}', "id": "c1"}]]
    # when both are present, tool_calls wins and nothing is counted twice
    both = {"type": "ai", "tool_calls": [{"name": "ls", "args": {"path": "."}, "id": "c1"}],
            "additional_kwargs": {"tool_calls": chat_calls}}
    assert batches_from_messages([both]) == [[{"name": "ls", "args": {"path": "."}, "id": "c1"}]]


def test_langchain_invalid_tool_calls_are_a_located_error():
    msg = {"type": "ai", "tool_calls": [], "invalid_tool_calls": [
        {"name": "bash", "args": "{oops", "id": "1", "error": "bad json", "type": "invalid_tool_call"}]}
    with pytest.raises(TraceError, match=r"^messages: message index 1: .*invalid_tool_calls.*not supported"):
        batches_from_messages([{"type": "human", "content": "x"}, msg])


def test_anthropic_server_and_mcp_tool_use_blocks_are_calls():
    msg = {"role": "assistant", "content": [
        {"type": "text", "text": "Searching."},
        {"type": "server_tool_use", "id": "s1", "name": "web_search", "input": {"query": "loop"}},
        {"type": "web_search_tool_result", "tool_use_id": "s1", "content": []},
        {"type": "mcp_tool_use", "id": "m1", "name": "fetch", "server_name": "web", "input": {"url": "x"}},
        {"type": "tool_use", "id": "t1", "name": "ls", "input": {}}]}
    assert batches_from_messages([msg], "anthropic") == [[{"name": "web_search", "args": {"query": "loop"}, "id": "s1"},
                                                          {"name": "fetch", "args": {"url": "x"}, "id": "m1"},
                                                          {"name": "ls", "args": {}, "id": "t1"}]]


def test_responses_custom_and_local_shell_calls_are_calls():
    action = {"type": "exec", "command": ["ls", "-la"], "env": {}}
    items = [{"type": "custom_tool_call", "call_id": "a", "name": "apply_patch", "input": "*** Begin Patch"},
             {"type": "local_shell_call", "call_id": "b", "id": "ls_1", "action": action, "status": "completed"},
             {"type": "local_shell_call_output", "call_id": "b", "output": ""},
             {"type": "function_call", "call_id": "c", "name": "ls", "arguments": "{}"}]
    assert batches_from_messages(items, "openai-responses") == [
        [{"name": "apply_patch", "args": "*** Begin Patch", "id": "a"},
         {"name": "local_shell", "args": action, "id": "b"}],
        [{"name": "ls", "args": "{}", "id": "c"}]]


def test_a_call_item_of_a_kind_not_known_yet_is_named_and_never_a_silent_zero():
    # computer_call is not read (its fields were not checked against a source): beside other calls it is skipped and
    # named; alone, the run would have no calls although it holds one, which is an error naming the record
    unknown = {"type": "computer_call", "call_id": "a", "action": {"type": "click"}}
    call = {"type": "function_call", "call_id": "b", "name": "ls", "arguments": "{}"}
    run = records_run([call, unknown])
    assert [b.calls for b in run] == [[{"name": "ls", "args": "{}", "id": "b"}]]
    assert run.describe().endswith("skipped 1 record of a kind not known yet (1 item 'computer_call'); 1 record "
                                   "holds tool calls that were not read (message index 1: item 'computer_call')")
    with pytest.raises(TraceError, match=r"^messages: message index 0: no tool call was read from this run, but "
                                         r"this record holds item 'computer_call'"):
        batches_from_messages([unknown])


def test_a_string_content_holding_broken_tool_use_blocks_is_an_error_not_text():
    content = '[{"type": "tool_use", "id": "t1", "name": "ls", "input": {}}'  # the closing bracket is missing
    with pytest.raises(TraceError, match=r"^messages: message index 0: 'content' .*tool_use"):
        batches_from_messages([{"role": "assistant", "content": content}])
    # text that merely looks like a list, without tool_use, is still text
    assert batches_from_messages([{"role": "assistant", "content": "[{see below"}]) == []


def test_an_object_with_input_and_output_reads_both_in_order(tmp_path):
    items = openai_responses()
    path = write(tmp_path, "r.json", json.dumps({"input": items[:5], "output": items[5:]}))
    trace = load_trace(path)
    assert trace.batches == expected(True)
    assert trace.container == "a JSON object under 'input' then 'output'"
