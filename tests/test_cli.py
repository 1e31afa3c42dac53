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
    for line in ("0  nothing stopped", "1  the detector would have stopped a run", "2  unusable input"):
        assert line in out.stdout
    for option in ("--override TOOL=WARN:HARD", "--json", "--plot", "--csv", "--select KEY=VALUE", "--run N",
                   "--tool-map PRESET", "--map RULE", "--upstream", "--max-bytes SIZE", "FILE_OR_DIR"):
        assert option in out.stdout, option


def test_no_command_is_a_usage_error():
    out = subprocess.run([sys.executable, "-m", "loopkit"], capture_output=True, text=True)
    assert out.returncode == 2 and "replay" in out.stderr


def test_looping_session_warns_then_stops_with_exit_1_and_says_why():
    # coding_loop: read_file src/calendar/dates.py in bucket 0-0 at steps 2, 5, 6, 9, 11, 13... and the same
    # pytest at steps 1, 4, 8, 10, 12... The read reaches 3 at step 6 (warn) and 5 at step 11 (stop); the pytest
    # batch reaches 3 at step 8 (warn). Batch k's assistant message is on line 2k + 1 (two header lines, then
    # one assistant line and one tool line per batch).
    out = replay(LOOP.name, cwd=DATA)
    assert out.returncode == 1, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split() == ["step", "at", "action", "layer", "count", "tool", "calls"]
    rows = [line.split() for line in lines[1:-1] if not line.strip().startswith("why:")]
    assert rows == [
        ["6", "line", "13", "warn", "hash", "3", "-", "read_file"],
        ["8", "line", "17", "warn", "hash", "3", "-", "bash"],
        ["11", "line", "23", "stop", "hash", "5", "-", "read_file"],
    ]
    whys = [line.strip() for line in lines if line.strip().startswith("why:")]
    assert whys == ["why: hash layer: the same batch 3 times in the last 20 turns (warns at 3)"] * 2 + [
        "why: hash layer: the same batch 5 times in the last 20 turns (stops at 5)"]
    assert lines[-1] == (
        "coding_loop.openai_chat.jsonl: openai-chat (auto-detected) in JSON Lines; 42 messages, 20 batches, "
        "20 tool calls. DeerFlow would have warned 2 times (first at step 6), then stopped the run at step 11 "
        "(hash layer, count 5); 9 later batches would never have run. Why: hash layer: the same batch 5 times in "
        "the last 20 turns (stops at 5)."
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
    assert summary == {"file": str(LOOP), "source": str(LOOP), "run": None, "format": "openai-chat",
                       "messages": 42, "batches": 20, "calls": 20, "replayed": 11, "warnings": 2,
                       "first_warn_step": 6, "stop_step": 11, "stop_layer": "hash", "stop_tool": None,
                       "why": "hash layer: the same batch 5 times in the last 20 turns (stops at 5)",
                       "verdict": "stopped_repeat", "user_messages": 1, "skipped": {}, "not_known": {},
                       "bad_records": 0, "cut_off": None, "tool_map": None, "unmapped": [], "only_tool": None,
                       "error": None, "exit_code": 1, "unread_calls": 0, "repeated_ids": 0, "nul_bytes": 0,
                       "partial": None, "notes": []}
    assert decisions[5]["why"] == "hash layer: the same batch 3 times in the last 20 turns (warns at 3)"
    assert decisions[0]["why"] is None


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
    assert out.stdout.splitlines()[2].strip() == (
        "why: frequency layer: 'bash' called 30 times in the last 50 calls (warns at 30); this is a call budget, "
        "not a repeat. Raise it with --override bash=WARN:HARD")
    assert replay(path, "--override", "bash=40:60").stdout.endswith("would neither have warned nor stopped.\n")
    out = replay(path, "--freq-warn", "10", "--freq-hard", "20")
    assert out.returncode == 1 and "stopped the run at step 20 (frequency layer, 'bash' count 20)" in out.stdout
    assert ("Why: frequency layer: 'bash' called 20 times in the last 20 calls (stops at 20); this is a call "
            "budget, not a repeat. Raise it with --override bash=WARN:HARD.") in out.stdout


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
                                  "must be a non-empty string (the tool name), got None; --skip-bad-records "
                                  "(skip_bad_records=True) skips such a record and counts it")


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
    pytest.importorskip("loopkit.teaching.replay_table")
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
    from loopkit import PinnedMiddleware
    from loopkit.traces.adapters import Batch, TraceError
    from loopkit.traces.replay import replay_batches

    batches = [Batch(1, "t.jsonl:4", [{"name": "bash", "args": {1: "a", "b": 2}, "id": "1"}])]
    with pytest.raises(TraceError, match=r"^t\.jsonl:4: the detector cannot key this batch"):
        list(replay_batches(batches, PinnedMiddleware()))


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
    from loopkit.traces.replay import call_names, display_name

    assert display_name("read_file") == "read_file" and display_name("読む") == "読む"
    assert display_name("a\x07\nb\ud800") == "a\\x07\\nb\\ud800"
    assert call_names([{"name": "\x1b]0;hi\x07"}] * 2) == "\\x1b]0;hi\\x07 x2"


def test_an_empty_transcript_exits_2_whatever_its_suffix(tmp_path):
    for name in ("empty.jsonl", "empty.json"):
        (tmp_path / name).write_text("")
        out = replay(tmp_path / name)
        assert out.returncode == 2 and "the file is empty" in out.stderr, (name, out)


# -- issue 11: no silent zero, many runs, tool maps, verdicts explained ----------------------------------------------

TRANSCRIPTS = pathlib.Path(__file__).resolve().parent / "data" / "transcripts"


def test_a_file_of_no_known_shape_is_unusable_and_says_how_to_pick_a_format(tmp_path):
    path = tmp_path / "odd.jsonl"
    path.write_text('{"speaker": "agent", "text": "hi"}\n{"speaker": "user", "text": "ok"}\n')
    out = replay(path)
    assert out.returncode == 2 and out.stdout == ""
    assert f"{path}: no record was read as a message of any format: 2 records" in out.stderr
    assert "tried kimi-code, claude-code, codex," in out.stderr and "openai-chat" in out.stderr and "--format NAME" in out.stderr
    out = replay(path, "--format", "claude-code")
    assert out.returncode == 2 and "no record was read as a claude-code message" in out.stderr


def test_known_messages_without_tool_calls_stay_valid():
    out = replay(SMALL_TALK, "--format", "openai-chat")
    assert out.returncode == 0 and out.stdout.strip() == (
        f"{SMALL_TALK}: openai-chat (as requested) in a JSON array; 3 messages, no tool calls")


def loop_file(path, calls=6):
    path.write_text(chat_line(0, "ls", {}) * calls)
    return path


def test_a_folder_gets_one_row_per_run_an_aggregate_and_the_worst_exit_code(tmp_path):
    folder = tmp_path / "runs"
    folder.mkdir()
    loop_file(folder / "a_loop.jsonl")
    (folder / "b_broken.jsonl").write_text("not json\n")
    (folder / "c_quiet.json").write_text(json.dumps([{"role": "user", "content": "hi"}]))
    (folder / "notes.txt").write_text("not a transcript")
    out = replay(folder)
    assert out.returncode == 2  # one unusable input wins over the stopped run
    lines = out.stdout.splitlines()
    assert lines[0].split() == ["run", "format", "batches", "calls", "warn", "stop", "layer", "note"]
    rows = {line.split()[0].rsplit("/", 1)[-1]: line for line in lines[1:-1]}
    assert set(rows) == {"a_loop.jsonl", "b_broken.jsonl", "c_quiet.json"}
    assert rows["a_loop.jsonl"].split()[1:7] == ["openai-chat", "6", "6", "3", "5", "hash"]
    assert "unusable: " in rows["b_broken.jsonl"] and "b_broken.jsonl:1: invalid JSON" in rows["b_broken.jsonl"]
    assert lines[-1] == ("3 runs in 3 files: 1 stopped for a repeat (hash layer), 0 stopped by a call budget "
                         "(frequency layer), 0 warned only, 1 quiet, 1 unusable.")
    (folder / "b_broken.jsonl").unlink()
    assert replay(folder).returncode == 1
    (folder / "a_loop.jsonl").unlink()
    assert replay(folder).returncode == 0


def test_several_files_and_csv(tmp_path):
    target = tmp_path / "rows.csv"
    out = replay(LOOP, PROGRESS, "--csv", target)
    assert out.returncode == 1
    import csv

    rows = list(csv.DictReader(target.open()))
    assert [(pathlib.Path(r["file"]).name, r["stop_step"], r["stop_layer"], r["exit_code"]) for r in rows] == [
        (LOOP.name, "11", "hash", "1"), (PROGRESS.name, "", "", "0")]
    assert rows[0]["why"].startswith("hash layer: the same batch 5 times")
    out = replay(LOOP, "--csv", tmp_path / "no" / "rows.csv")
    assert out.returncode == 2 and "no such directory" in out.stderr


def test_json_for_several_runs_is_a_summary_each_then_an_aggregate():
    out = replay(LOOP, PROGRESS, "--json")
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert [list(r) for r in records] == [["summary"], ["summary"], ["aggregate"]]
    assert records[-1]["aggregate"] == {"runs": 2, "files": 2, "stopped_repeat": 1, "stopped_budget": 0,
                                        "warned": 0, "quiet": 1, "incomplete": 0, "unusable": 0}
    assert all(r["summary"]["format"] in ("openai-chat", "anthropic") for r in records[:2])


def test_a_file_of_runs_is_rows_and_select_or_run_picks_one_in_detail():
    runs = TRANSCRIPTS / "openhands_output.jsonl"
    out = replay(runs)
    assert out.returncode == 0 and out.stdout.splitlines()[-1].startswith("2 runs in 1 files:")
    first_id = json.loads(runs.read_text().splitlines()[0])["instance_id"]
    out = replay(runs, "--select", f"instance_id={first_id}")
    assert out.returncode == 0
    assert out.stdout.splitlines()[-1].startswith(f"{runs} (instance_id={first_id}): openhands (auto-detected)")
    out = replay(runs, "--run", "2")
    assert out.stdout.splitlines()[-1].startswith(f"{runs} (instance_id=")
    assert first_id not in out.stdout
    out = replay(runs, "--select", "instance_id=nobody")
    assert out.returncode == 2 and "no run matches instance_id=nobody" in out.stderr
    assert replay(runs, "--run", "0").returncode == 2 and replay(runs, "--select", "nokey").returncode == 2


def test_tool_names_are_mapped_by_the_detected_formats_preset_unless_told_not_to():
    session = TRANSCRIPTS / "claude_code.session.jsonl"
    out = replay(session)
    assert out.returncode == 0
    assert out.stdout.rstrip().endswith("Tool names mapped to DeerFlow's by the claude-code preset.")
    raw = replay(session, "--tool-map", "none")
    assert "Tool names were replayed as claude-code wrote them; --tool-map claude-code maps" in raw.stdout
    for asked in ([], ["--tool-map", "claude-code"]):
        mapped = replay(session, *asked, "--json")
        summary = json.loads(mapped.stdout.splitlines()[-1])["summary"]
        assert mapped.returncode == 0 and summary["format"] == "claude-code" and summary["tool_map"] == "claude-code"
        records = [json.loads(line) for line in mapped.stdout.splitlines()[:-1]]
        assert "read_file" in {name for r in records for name in r["calls"]} and "Read" not in str(records)
    summary = json.loads(replay(session, "--tool-map", "none", "--json").stdout.splitlines()[-1])["summary"]
    assert summary["tool_map"] is None and {"Read", "Edit", "Bash"} <= set(summary["unmapped"])
    out = replay(session, "--tool-map", "claude-code", "--map", "Read=read_file:file_path>path")
    assert out.returncode == 0
    out = replay(session, "--map", "Read")
    assert out.returncode == 2 and "bad tool map" in out.stderr
    assert replay(session, "--tool-map", "nobody").returncode == 2


def test_unmapped_tools_are_named(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text(chat_line(0, "Read", {"file_path": "a.py", "offset": 1, "limit": 10}) +
                    chat_line(1, "Frobnicate", {"x": 1}))
    out = replay(path, "--tool-map", "claude-code")
    assert out.returncode == 0 and "Tools left unmapped: Frobnicate." in out.stdout


def test_upstream_run_scoped_forgets_earlier_user_turns(tmp_path):
    path = tmp_path / "turns.jsonl"
    turn = json.dumps({"role": "user", "content": "next"}) + "\n" + chat_line(0, "bash", {"command": "pytest"})
    path.write_text(turn * 5)
    pinned = replay(path)
    assert pinned.returncode == 1 and "stopped the run at step 5 (hash layer, count 5)" in pinned.stdout
    assert "Note: 5 user prompts; each starts a new run of the thread." in pinned.stdout
    later = replay(path, "--upstream", "run-scoped")
    assert later.returncode == 0 and "DeerFlow's later run-scoped contract would neither" in later.stdout


def test_a_decompression_bomb_is_refused_at_max_bytes(tmp_path):
    import gzip

    path = tmp_path / "bomb.jsonl.gz"
    with gzip.open(path, "wb") as handle:
        line = chat_line(0, "ls", {}).encode()
        for _ in range(20_000):
            handle.write(line)
    assert path.stat().st_size < 100_000
    out = replay(path, "--max-bytes", "64K")
    assert out.returncode == 2 and "expands past 64 KiB, the limit" in out.stderr
    assert replay(path).returncode == 1  # under the default 1 GiB it is simply a long loop
    assert replay(path, "--max-bytes", "lots").returncode == 2


def test_plot_of_a_file_of_runs_needs_a_pick(tmp_path):
    pytest.importorskip("matplotlib")
    runs = TRANSCRIPTS / "openhands_output.jsonl"
    target = tmp_path / "t.png"
    out = replay(runs, "--plot", target)
    assert "pick one with --select or --run" in out.stderr and not target.exists()
    out = replay(runs, "--run", "1", "--plot", target)
    assert out.returncode == 0 and target.read_bytes()[:4] == b"\x89PNG"
    out = replay(TRANSCRIPTS, "--plot", target)
    assert out.returncode == 2 and "draws one run" in out.stderr


def test_the_report_stays_english_inside_a_spanish_chapter(capsys):
    """A Spanish chapter calls main(): it prints what a terminal prints, and the chapter keeps speaking Spanish."""
    from loopkit.cli import main
    from loopkit.core.language import current_language, set_language

    english = [main(["replay", str(LOOP)]), capsys.readouterr().out]
    set_language("es")
    try:
        spanish = [main(["replay", str(LOOP)]), capsys.readouterr().out]
        assert current_language() == "es"
    finally:
        set_language("en")
    assert spanish == english
    assert "openai-chat (auto-detected) in JSON Lines; 42 messages, 20 batches" in spanish[1]


# -- survivors of the mutation run (tools/mutants.py): the table's alignment, and files counted apart from runs ----
def test_the_rows_right_align_their_counts_and_the_aggregate_counts_files_apart_from_runs(tmp_path, capsys):
    from loopkit.cli import main

    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "a_loop.jsonl").write_bytes(LOOP.read_bytes())
    samples = pathlib.Path(__file__).resolve().parent / "data" / "transcripts"
    (folder / "b_two_runs.jsonl").write_bytes((samples / "openhands_output.jsonl").read_bytes())  # two runs
    assert main(["replay", "--jobs", "1", str(folder)]) == 1
    lines = capsys.readouterr().out.splitlines()
    header, loop_row = lines[0], next(line for line in lines if "a_loop.jsonl" in line)
    for column, value in (("batches", "20"), ("calls", "20")):  # counts end under the end of their column's name
        end = header.index(column) + len(column)
        assert loop_row[end - len(value) - 1:end] == " " + value, (column, loop_row)
    assert lines[-1].startswith("3 runs in 2 files: ")


def test_a_size_of_zero_is_refused():
    from loopkit.cli.options import build_parser

    with pytest.raises(SystemExit) as stopped:
        build_parser().parse_args(["replay", "--max-bytes", "0", "t.jsonl"])
    assert stopped.value.code == 2
    assert build_parser().parse_args(["replay", "--max-bytes", "1K", "t.jsonl"]).max_bytes == 1024

# -- issue 26: one options object; the tool map's counts and problems reach the summary ------------------------------


def test_a_map_rule_that_never_applies_is_reported_for_one_run_and_for_many(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text(chat_line(0, "Read", {"file_path": "a.py", "offset": 1, "limit": 10}) +
                    chat_line(1, "Read", {"file_path": "b.py", "offset": 1, "limit": 10}))
    one = replay(path, "--tool-map", "claude-code", "--map", "Nope=bash")
    assert one.returncode == 0
    assert "tool map claude-code: mapped Read -> read_file (2); --map Nope=bash: never applied" in one.stdout
    summary = json.loads(replay(path, "--tool-map", "claude-code", "--map", "Nope=bash", "--json")
                         .stdout.splitlines()[-1])["summary"]
    assert summary["mapped"] == {"Read -> read_file": 2} and summary["map_problems"] == {
        "--map Nope=bash: never applied": 1}
    other = tmp_path / "u.jsonl"
    other.write_text(chat_line(0, "Nope", {"command": "ls"}))
    many = replay(path, other, "--tool-map", "claude-code", "--map", "Nope=bash", "--map", "Never=bash")
    assert many.returncode == 0
    assert many.stdout.splitlines()[-2] == ("tool maps over 2 runs: mapped Read -> read_file (2), Nope -> bash (1); "
                                            "--map Never=bash: never applied in any run")
    records = [json.loads(line) for line in replay(path, other, "--tool-map", "claude-code", "--map", "Nope=bash",
                                                    "--json").stdout.splitlines()]
    assert records[-1]["aggregate"]["mapped"] == {"Read -> read_file": 2, "Nope -> bash": 1}
    assert "map_problems" not in records[-1]["aggregate"]  # Nope=bash applied in u.jsonl


def test_every_count_of_the_detector_config_is_a_flag_and_reaches_the_config():
    import dataclasses

    from loopkit import DetectorConfig
    from loopkit.cli.options import build_parser, detector_config

    counts = [f.name for f in dataclasses.fields(DetectorConfig) if f.name != "tool_freq_overrides"]
    wanted = {name: getattr(DetectorConfig(), name) + 7 for name in counts}  # each a value no default has
    wanted["hard_limit"] = wanted["warn_threshold"] + 1
    wanted["tool_freq_hard_limit"] = wanted["tool_freq_warn"] + 1
    argv = ["replay", "t.jsonl"]
    for name, value in wanted.items():
        argv += ["--" + name.replace("_", "-"), str(value)]
    config = detector_config(build_parser().parse_args(argv))
    assert {name: getattr(config, name) for name in counts} == wanted
