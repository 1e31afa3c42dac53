"""`python -m loopkit replay` through a real subprocess: exit codes, the table, --json, thresholds, and errors that
say FILE:LINE. Expected steps are counted by hand from the sample transcripts (see the comments)."""

import json
import pathlib
import subprocess
import sys

import pytest

DATA = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "data"
LOOP = DATA / "coding_loop.openai_chat.jsonl"
PROGRESS = DATA / "coding_progress.anthropic.json"
SMALL_TALK = DATA / "small_talk.openai_chat.json"


def replay(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "loopkit", "replay", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=120)


def chat_line(i, name, args):
    return json.dumps({"role": "assistant", "tool_calls": [
        {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}) + "\n"


def test_help_documents_the_exit_codes():
    out = replay("--help")
    assert out.returncode == 0
    for line in ("0  nothing stopped", "1  the detector would have stopped the run", "2  unusable input"):
        assert line in out.stdout
    assert "--override TOOL=WARN:HARD" in out.stdout and "--json" in out.stdout and "--plot" in out.stdout


def test_no_command_is_a_usage_error():
    out = subprocess.run([sys.executable, "-m", "loopkit"], capture_output=True, text=True)
    assert out.returncode == 2 and "replay" in out.stderr


def test_looping_session_warns_then_stops_with_exit_1():
    # coding_loop: read_file src/calendar/dates.py in bucket 0-0 at steps 2, 5, 6, 9, 11, 13... and the same
    # pytest at steps 1, 4, 8, 10, 12... The read reaches 3 at step 6 (warn) and 5 at step 11 (stop); the pytest
    # batch reaches 3 at step 8 (warn). Batch k's assistant message is on line 2k + 1 (two header lines, then
    # one assistant line and one tool line per batch).
    out = replay(LOOP.name, cwd=DATA)
    assert out.returncode == 1, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split() == ["step", "at", "action", "layer", "count", "tool", "calls"]
    rows = [line.split() for line in lines[1:-1]]
    assert rows == [
        ["6", "line", "13", "warn", "hash", "3", "-", "read_file"],
        ["8", "line", "17", "warn", "hash", "3", "-", "bash"],
        ["11", "line", "23", "stop", "hash", "5", "-", "read_file"],
    ]
    assert lines[-1] == (
        "coding_loop.openai_chat.jsonl: openai-chat (auto-detected) in JSON Lines; 42 messages, 20 batches, "
        "20 tool calls. DeerFlow would have warned 2 times (first at step 6), then stopped the run at step 11 "
        "(hash layer, count 5); 9 later batches would never have run."
    )
    assert out.stderr == ""


def test_honest_session_exits_0_without_a_table():
    out = replay(PROGRESS)
    assert out.returncode == 0
    assert out.stdout.splitlines() == [
        f"{PROGRESS}: anthropic (auto-detected) in a JSON object under 'messages'; 42 messages, 20 batches, "
        "22 tool calls. DeerFlow would neither have warned nor stopped."
    ]


def test_no_tool_calls_is_reported_with_exit_0():
    out = replay(SMALL_TALK)
    assert (out.returncode, out.stderr) == (0, "")
    assert out.stdout.strip() == f"{SMALL_TALK}: no tool calls in 3 messages in a JSON array; nothing to replay"


def test_json_output_is_one_object_per_replayed_batch_then_a_summary():
    out = replay(LOOP, "--json")
    assert out.returncode == 1
    records = [json.loads(line) for line in out.stdout.splitlines()]
    decisions, summary = records[:-1], records[-1]["summary"]
    assert [d["step"] for d in decisions] == list(range(1, 12))  # the replay ends at the stop
    assert [(d["step"], d["action"]) for d in decisions if d["action"] != "ok"] == [(6, "warn"), (8, "warn"), (11, "stop")]
    assert decisions[10]["where"] == f"{LOOP}:23" and decisions[10]["calls"] == ["read_file"]
    assert len(decisions[0]["fingerprint"]) == 12 and "final answer" in decisions[10]["message"]
    assert summary == {"file": str(LOOP), "format": "openai-chat", "container": "JSON Lines", "messages": 42,
                       "batches": 20, "calls": 20, "replayed": 11, "warnings": 2, "first_warn_step": 6,
                       "stop_step": 11, "stop_layer": "hash", "user_messages": 1, "exit_code": 1}


def test_thresholds_change_the_verdict():
    # with warn 2 / hard 3: the pytest batch (steps 1, 4) warns at step 4, the read bucket (steps 2, 5, 6) warns
    # at step 5 and stops at step 6
    out = replay(LOOP, "--warn", "2", "--hard", "3", "--json")
    summary = json.loads(out.stdout.splitlines()[-1])["summary"]
    assert (out.returncode, summary["warnings"], summary["first_warn_step"], summary["stop_step"]) == (1, 2, 4, 6)
    # a window of 4 batches never holds three of the same
    out = replay(LOOP, "--window", "4")
    assert out.returncode == 0 and "would neither have warned nor stopped" in out.stdout


def test_frequency_flags_and_override(tmp_path):
    # 35 different bash commands: the tool count reaches 30 at step 30 (warn) under the defaults
    path = tmp_path / "bash.jsonl"
    path.write_text("".join(chat_line(i, "bash", {"command": f"echo {i}"}) for i in range(35)))
    out = replay(path)
    assert out.returncode == 0
    assert out.stdout.splitlines()[1].split() == ["30", "line", "30", "warn", "frequency", "30", "bash", "bash"]
    assert replay(path, "--override", "bash=40:60").stdout.endswith("would neither have warned nor stopped.\n")
    out = replay(path, "--freq-warn", "10", "--freq-hard", "20")
    assert out.returncode == 1 and "stopped the run at step 20 (frequency layer, 'bash' count 20)" in out.stdout


@pytest.mark.parametrize(
    "args, says",
    [
        (["--warn", "6"], "bad detector settings: hard_limit (5) must be >= warn_threshold (6)"),
        (["--override", "bash=9:3"], "hard (3) must be >= warn (9)"),
        (["--override", "bash=3"], "expected TOOL=WARN:HARD such as bash=60:80, got 'bash=3'"),
        (["--warn", "three"], "invalid int value: 'three'"),
        (["--format", "openai"], "invalid choice: 'openai'"),
    ],
)
def test_bad_options_exit_2(args, says):
    out = replay(LOOP, *args)
    assert out.returncode == 2 and says in out.stderr and out.stdout == ""


def test_malformed_line_exits_2_with_file_and_line(tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text(chat_line(0, "ls", {}) + chat_line(1, "ls", {}) + '{"role": "assistant", "tool_calls": [\n')
    out = replay(path)
    assert out.returncode == 2
    assert out.stderr.startswith(f"loopkit replay: error: {path}:3: invalid JSON (")
    assert "expected one message object per line" in out.stderr


def test_malformed_message_in_json_document_names_the_index(tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"messages": [{"role": "user", "content": "x"},
                                             {"role": "assistant", "tool_calls": [{"function": {"arguments": "{}"}}]}]}))
    out = replay(path)
    assert out.returncode == 2
    assert out.stderr.strip() == (f"loopkit replay: error: {path}: message index 1: tool_calls[0].function.name "
                                  "must be a non-empty string (the tool name), got None")


def test_error_after_the_stop_is_still_reported(tmp_path):
    # the replay ends at the stop, but the rest of the file is still read and checked
    path = tmp_path / "t.jsonl"
    path.write_text(chat_line(0, "ls", {}) * 6 + "not json\n")
    out = replay(path)
    assert out.returncode == 2 and f"{path}:7: invalid JSON" in out.stderr


def test_missing_file_and_wrong_explicit_format(tmp_path):
    out = replay(tmp_path / "nope.jsonl")
    assert out.returncode == 2 and "nope.jsonl: cannot read the file" in out.stderr
    out = replay(LOOP, "--format", "anthropic")
    assert out.returncode == 2 and f"{LOOP}:3: openai-chat tool calls in a trace read as anthropic" in out.stderr


def test_plot_writes_a_png(tmp_path):
    pytest.importorskip("loopkit.trace")
    target = tmp_path / "timeline.png"
    out = replay(LOOP, "--plot", target)
    assert out.returncode == 1, out.stderr
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = replay(SMALL_TALK, "--plot", tmp_path / "none.png")
    assert out.returncode == 0 and "no plot was written" in out.stderr and not (tmp_path / "none.png").exists()


# -- review fixes (issue 5) ----------------------------------------------------------------------------------------


def test_arguments_at_the_wrong_level_exit_2_not_a_false_stop(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps({"role": "assistant", "tool_calls": [
        {"id": i, "name": "read_file", "arguments": json.dumps({"path": f"src/m{i}.py"})}]}) + "\n" for i in range(6)))
    out = replay(path)
    assert out.returncode == 2, out.stdout
    assert out.stderr.startswith(f"loopkit replay: error: {path}:1: tool_calls[0] has no 'args'")


def test_a_huge_integer_exits_2_with_the_line(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text(chat_line(0, "ls", {}) + '{"role": "user", "n": ' + "9" * 5000 + "}\n")
    out = replay(path)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.startswith(f"loopkit replay: error: {path}:2: ")


def test_python_literal_args_with_an_int_key_exit_2_with_the_line(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text('{"type":"ai","tool_calls":"[{\'name\': \'bash\', \'args\': {1: \'a\', \'b\': 2}, \'id\': \'1\'}]"}\n')
    out = replay(path)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.startswith(f"loopkit replay: error: {path}:1: ")


def test_a_batch_the_detector_cannot_key_is_a_located_error():
    # in-memory batches skip the adapters' checks; the replay still names the batch instead of crashing
    from loopkit.cli import stream_replay
    from loopkit.providers import Batch, TraceError

    batches = [Batch(1, "t.jsonl:4", [{"name": "bash", "args": {1: "a", "b": 2}, "id": "1"}])]
    with pytest.raises(TraceError, match=r"^t\.jsonl:4: the detector cannot key this batch"):
        list(stream_replay(batches))


@pytest.mark.parametrize("how", ["-", "/dev/stdin"])
def test_a_pipe_on_stdin_is_replayed(how):
    if how == "/dev/stdin" and not pathlib.Path("/dev/stdin").exists():
        pytest.skip("no /dev/stdin")
    out = subprocess.run([sys.executable, "-m", "loopkit", "replay", how], input=LOOP.read_text(),
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1, out.stderr
    name = "<stdin>" if how == "-" else how
    assert out.stdout.splitlines()[-1].startswith(f"{name}: openai-chat (auto-detected) in JSON Lines; 42 messages")
    document = subprocess.run([sys.executable, "-m", "loopkit", "replay", how], input=PROGRESS.read_text(),
                              capture_output=True, text=True, timeout=120)
    assert document.returncode == 0 and "would neither have warned nor stopped" in document.stdout


def test_help_mentions_stdin():
    assert "'-' reads standard input" in replay("--help").stdout


def test_plot_with_an_unknown_extension_exits_2_before_replaying(tmp_path):
    pytest.importorskip("matplotlib")
    out = replay(LOOP, "--plot", tmp_path / "out.xyz")
    assert (out.returncode, out.stdout) == (2, "")
    assert "Traceback" not in out.stderr
    assert out.stderr.startswith(f"loopkit replay: error: --plot {tmp_path / 'out.xyz'}: unsupported image format "
                                 "'.xyz'; expected one of ")
    assert ".png" in out.stderr
    out = replay(LOOP, "--plot", tmp_path / "no" / "dir.png")
    assert out.returncode == 2 and "no such directory" in out.stderr and out.stdout == ""


def test_a_reader_that_leaves_early_does_not_change_the_exit_code(tmp_path):
    # 3000 different bash commands: the frequency layer stops the run at step 2500; --json prints far more than a
    # pipe holds, and the reader leaves after one line
    path = tmp_path / "many.jsonl"
    path.write_text("".join(chat_line(i, "bash", {"command": f"echo {i}"}) for i in range(3000)))
    process = subprocess.Popen([sys.executable, "-m", "loopkit", "replay", str(path), "--json",
                                "--freq-warn", "2000", "--freq-hard", "2500"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = process.stdout.readline()
    process.stdout.close()
    code = process.wait(timeout=120)
    err = process.stderr.read().decode()
    process.stderr.close()
    assert json.loads(first)["step"] == 1
    assert code == 1 and "Traceback" not in err, err


def test_tool_names_are_escaped_for_the_terminal(tmp_path):
    path = tmp_path / "t.jsonl"
    names = ["\ud800x", "\x1b[31mred\x1b[0m", "ok\u202e"]
    # every call different (no hash repeats); each name 6 times, so the frequency layer warns with the name shown
    lines = "".join(json.dumps({"type": "ai", "tool_calls": [{"name": n, "args": {"k": k}, "id": "1"}]}) + "\n"
                    for k in range(6) for n in names)
    path.write_text(lines, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "loopkit", "replay", str(path), "--freq-warn", "3", "--freq-hard", "9"],
                         capture_output=True, timeout=120)
    assert out.returncode == 0, out.stderr
    text = out.stdout.decode("ascii")  # nothing but printable ASCII was written
    assert "\\ud800x" in text and "\\x1b[31mred\\x1b[0m" in text and "ok\\u202e" in text
    assert "\x1b" not in text


def test_call_names_escapes_control_and_surrogate_characters():
    from loopkit.cli import call_names, display_name

    assert display_name("read_file") == "read_file" and display_name("読む") == "読む"
    assert display_name("a\x07\nb\ud800") == "a\\x07\\nb\\ud800"
    assert call_names([{"name": "\x1b]0;hi\x07"}] * 2) == "\\x1b]0;hi\\x07 x2"


def test_an_empty_transcript_exits_2_whatever_its_suffix(tmp_path):
    for name in ("empty.jsonl", "empty.json"):
        (tmp_path / name).write_text("")
        out = replay(tmp_path / name)
        assert out.returncode == 2 and "the file is empty" in out.stderr, (name, out)
