"""Damaged and hostile input (issue 21): a cut-off last line is reported and the turns before it replayed; any other
bad record is FILE:LINE and exit 2 unless --skip-bad-records lists and counts it; a value too large, a decompression
bomb and a deeply nested array each get exit 2 and one line. Small and fast: the memory goals of the full-size inputs
are measured in benchmarks/bench_hostile_input.py, not here."""

import gzip
import json
import pathlib
import subprocess
import sys

import pytest

from loopkit.traces.adapters import TraceError, iter_runs, load_trace

SAMPLES = pathlib.Path(__file__).resolve().parent / "data" / "transcripts"


def replay(*args):
    return subprocess.run([sys.executable, "-m", "loopkit", "replay", *map(str, args)], capture_output=True,
                          text=True, timeout=120)


def chat_line(i, command="ls"):
    return json.dumps({"role": "assistant", "tool_calls": [
        {"id": f"c{i}", "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": command})}}]})


def one_line_error(out):
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("loopkit replay: error: ") and "Traceback" not in out.stderr, \
        out.stderr
    return lines[0]


# -- a cut-off final line --------------------------------------------------------------------------------------------


def test_a_cut_off_last_line_is_reported_and_the_turns_before_it_are_replayed():
    path = SAMPLES / "cut_off_session.jsonl"
    assert not path.read_bytes().endswith(b"\n")  # the sample stops in the middle of its sixth line
    out = replay(path)
    assert (out.returncode, out.stderr) == (0, "")
    assert "5 messages, 2 batches, 2 tool calls; the last line (line 6) is cut off, so it was not read" in out.stdout
    summary = json.loads(replay(path, "--json").stdout.splitlines()[-1])["summary"]
    assert summary["cut_off"] == f"{path}:6" and summary["calls"] == 2 and summary["exit_code"] == 0


def test_after_a_cut_off_line_the_exit_code_still_follows_the_verdict(tmp_path):
    path = tmp_path / "live.jsonl"
    path.write_text("".join(chat_line(0) + "\n" for _ in range(6)) + chat_line(9)[:40])  # five repeats: a stop
    out = replay(path)
    assert out.returncode == 1 and "stopped the run at step 5" in out.stdout and "(line 7) is cut off" in out.stdout


def test_a_broken_last_line_that_ends_with_its_newline_is_not_cut_off_but_bad(tmp_path):
    # a writer that finished the line wrote something wrong; only a line without its newline was still being written
    path = tmp_path / "t.jsonl"
    path.write_text(chat_line(0) + "\n" + '{"role": "assistant", "tool_calls": [\n')
    out = replay(path)
    assert out.returncode == 2 and one_line_error(out).startswith(f"loopkit replay: error: {path}:2: invalid JSON")


def test_a_wrong_last_line_without_newline_is_bad_not_cut_off(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text(chat_line(0) + "\n" + '{"role": "assistant"}}')  # complete, then garbage: not a cut
    out = replay(path)
    assert out.returncode == 2 and f"{path}:2: invalid JSON" in one_line_error(out)


def test_a_cut_off_last_run_of_a_file_of_runs_leaves_the_runs_before_it(tmp_path):
    run = json.dumps({"instance_id": "a", "history": [{"source": "user", "action": "message", "args": {}}]})
    path = tmp_path / "output.jsonl"
    path.write_text(run + "\n" + run.replace('"a"', '"b"')[:30])
    runs = list(iter_runs(path))
    assert [run.label for run in runs] == ["instance_id=a", "line 2"]
    for run in runs:
        list(run)
    assert runs[1].cut_off == f"{path}:2" and runs[0].cut_off is None
    assert replay(path).returncode == 0


# -- other bad records -----------------------------------------------------------------------------------------------


def bad_middle(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text(chat_line(0, "ls") + "\nnot json\n" + chat_line(2, "pwd") + "\n" +
                    json.dumps({"role": "assistant", "tool_calls": [{"id": "x", "function": {"name": "ls"}}]}) + "\n" +
                    chat_line(4, "date") + "\n")
    return path


def test_a_bad_record_in_the_middle_is_file_line_and_exit_2(tmp_path):
    path = bad_middle(tmp_path)
    out = replay(path)
    assert out.returncode == 2 and one_line_error(out).startswith(f"loopkit replay: error: {path}:2: invalid JSON")


def test_skip_bad_records_lists_and_counts_every_one_and_replays_the_rest(tmp_path):
    path = bad_middle(tmp_path)
    out = replay(path, "--skip-bad-records")
    assert out.returncode == 0, out.stderr
    listed = out.stderr.splitlines()
    assert [line.split(": ")[1] for line in listed] == ["skipped a bad record", "skipped a bad record"]
    assert f"{path}:2: invalid JSON" in listed[0]
    assert f"{path}:4: tool_calls[0].function has no 'arguments'" in listed[1]  # a record the adapter refuses
    assert "3 messages, 3 batches, 3 tool calls; skipped 2 bad records (--skip-bad-records)" in out.stdout
    summary = json.loads(replay(path, "--skip-bad-records", "--json").stdout.splitlines()[-1])["summary"]
    assert (summary["bad_records"], summary["calls"], summary["error"]) == (2, 3, None)


def test_a_line_longer_than_a_record_may_be_is_bad_and_skippable(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text(chat_line(0) + "\n" + json.dumps({"role": "user", "content": "x" * 5000}) + "\n"
                    + chat_line(2, "pwd") + "\n")
    out = replay(path, "--max-record-bytes", "1K")
    assert out.returncode == 2 and one_line_error(out).endswith(
        f"{path}:2: a line longer than 1024 bytes (max_record_bytes, --max-record-bytes); not read, so that memory "
        f"stays bounded; --skip-bad-records (skip_bad_records=True) skips such a record and counts it")
    out = replay(path, "--max-record-bytes", "1K", "--skip-bad-records")
    assert out.returncode == 0 and "2 messages, 2 batches, 2 tool calls; skipped 1 bad record" in out.stdout


# -- hostile input: exit 2 and one line each -------------------------------------------------------------------------


def test_a_deeply_nested_array_is_one_line_and_exit_2(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    out = replay(path)
    assert out.returncode == 2 and one_line_error(out) == f"loopkit replay: error: {path}: JSON nested too deeply"
    line = tmp_path / "deep.jsonl"
    line.write_text('{"role": "user", "content": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    out = replay(line)
    assert out.returncode == 2 and one_line_error(out).endswith(f"{line}:1: JSON nested too deeply; expected one "
                                                                f"message object per line; --skip-bad-records "
                                                                f"(skip_bad_records=True) skips such a record and "
                                                                f"counts it")


def test_a_small_bomb_under_a_lowered_limit_is_one_line_and_exit_2(tmp_path):
    path = tmp_path / "bomb.jsonl.gz"
    with gzip.open(path, "wb", compresslevel=9) as out:
        for i in range(50_000):
            out.write((chat_line(i % 7, f"echo {i}") + "\n").encode())
    assert path.stat().st_size < 400_000
    out = replay(path, "--max-bytes", "1M")
    assert out.returncode == 2 and "expands past 1 MiB, the limit (max_bytes, --max-bytes)" in one_line_error(out)


def test_a_one_line_value_larger_than_a_record_may_be_is_one_line_and_exit_2(tmp_path):
    document = tmp_path / "one_line.json"
    document.write_text(json.dumps({"messages": [{"role": "user", "content": "y" * 300_000}]}))
    out = replay(document, "--max-record-bytes", "64K")
    assert out.returncode == 2 and one_line_error(out).endswith(
        f"{document}:1: a JSON value larger than 65536 bytes (max_record_bytes, --max-record-bytes); refused, so "
        f"that memory stays bounded")


# -- a document read piece by piece gives what the whole document gives ---------------------------------------------


@pytest.mark.parametrize("name", ["mini_swe_agent_toolcalls.traj.json", "openhands_legacy_history.json",
                                  "inspect_log.json", "deerflow_thread.json", "swe_agent.traj", "smolagents_steps.json",
                                  "cline_task/api_conversation_history.json", "gemini_session.json"])
def test_a_document_read_piece_by_piece_gives_the_same_runs_as_read_whole(name):
    """With a record limit below the file's size, the document is larger than what is parsed whole: it is read one
    element at a time. Every run, batch and location must be the same."""
    path = SAMPLES / name
    limit = path.stat().st_size - 1  # too large to parse whole; every element fits

    def runs(**kwargs):
        found = []
        for run in iter_runs(path, **kwargs):
            batches = [(b.where, b.calls) for b in run]
            found.append((run.label, batches, run.messages, run.calls))
        return found
    assert runs(max_record_bytes=limit) == runs()


def test_read_piece_by_piece_only_what_precedes_the_list_names_the_run_or_the_format():
    """The documented difference: mini-swe-agent writes its marker after its messages, and a LangGraph thread state
    its metadata after its values; read piece by piece, the content alone decides the format (the same calls)."""
    mini = SAMPLES / "mini_swe_agent_toolcalls.traj.json"
    assert [r.format for r in iter_runs(mini)] == ["mini-swe-agent"]
    streamed = next(iter_runs(mini, max_record_bytes=1024))
    list(streamed)
    assert (streamed.format, streamed.hinted) == ("openai-chat", False)
    thread = SAMPLES / "deerflow_thread.json"
    assert next(iter_runs(thread)).meta and next(iter_runs(thread, max_record_bytes=3000)).meta == {}


def test_a_bad_element_of_a_document_read_piece_by_piece_says_its_line(tmp_path):
    path = tmp_path / "big.json"
    items = [json.dumps({"role": "user", "content": "z" * 100}) for _ in range(40)]
    items[30] = '{"role": "user", "content": oops}'
    text = "[\n" + ",\n".join(items) + "\n]\n"
    path.write_text(text)
    with pytest.raises(json.JSONDecodeError) as whole:  # where the standard library, reading it whole, says it is
        json.loads(text)
    with pytest.raises(TraceError, match=rf"^{path}:{whole.value.lineno}: invalid JSON \(Expecting value at column "
                                         rf"{whole.value.colno}\)$"):
        load_trace(path, max_record_bytes=1024)
