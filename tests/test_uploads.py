"""read_upload: a transcript uploaded from the page is replayed in memory as the command line replays the file, and
every unreadable upload gets one clear message in the learner's language."""

import builtins
import contextlib
import gzip
import io
import json
import os
import pathlib
import re

import pytest

from loopkit.cli import main
from loopkit.core.detector import DetectorConfig
from loopkit.core.language import set_language
from loopkit.teaching.uploads import (
    EXPANDED_LIMIT,
    PLOT_STEPS,
    SAMPLES,
    UPLOAD_LIMIT,
    read_upload,
    sample_files,
    tool_budgets,
    upload_problem,
)

DATA = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "data"
USER_LINE = b'{"role": "user", "content": "hi"}\n'


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


def cli_lines(name, *options):
    """What ``python -m loopkit replay NAME OPTIONS`` prints, run in the data folder so it names the file as the
    upload does."""
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(DATA)
    try:
        with contextlib.redirect_stdout(out):
            main(["replay", name, *options])
    finally:
        os.chdir(cwd)
    return out.getvalue().splitlines()


def as_in_the_view(line: str) -> str:
    """A line of the command line's report as the upload view says it: a call budget is raised in the view's own
    box, not with a flag the page has no terminal for."""
    return re.sub(r"Raise it with --override (\S+)=WARN:HARD", r"Raise it in this view's tool budgets box, as \1=WARN:HARD",
                  line)


@pytest.mark.parametrize("name", SAMPLES)
@pytest.mark.parametrize("choice, options", [("detected", ()), ("none", ("--tool-map", "none")),
                                             ("codex", ("--tool-map", "codex"))])
def test_a_sample_reads_as_the_command_line_prints_it(name, choice, options):
    reading = read_upload((DATA / name).read_bytes(), name, choice)
    printed = cli_lines(name, *options)
    [run] = reading.runs
    assert reading.problem is None and run.summary == as_in_the_view(printed[-1])
    assert "--override" not in run.summary and not any("--override" in line.why for line in run.why)
    assert [f"{'':7}why: {line.why}" for line in run.why] == [as_in_the_view(line) for line in printed
                                                             if "why: " in line]
    rows = [line.split() for line in printed[1:-1] if "why: " not in line and not line.startswith("tool map ")]
    assert [(str(w.step), w.action, w.layer, str(w.count)) for w in run.why] == [
        (row[0], row[3], row[4], row[5]) for row in rows]
    assert run.steps and run.steps[-1].step == (run.why[-1].step if run.why[-1].action == "stop"
                                                else run.steps[-1].step)


def test_the_tool_map_choice_changes_the_verdict_of_a_claude_code_session():
    data = (DATA / "reread_loop.claude_code.jsonl").read_bytes()
    mapped, raw = read_upload(data, "s.jsonl"), read_upload(data, "s.jsonl", "none")
    assert [w.action for w in mapped.runs[0].why][-1] == "stop"
    assert "stop" not in [w.action for w in raw.runs[0].why]
    with pytest.raises(ValueError, match="tool_map must be one of"):
        read_upload(data, "s.jsonl", "claude")


def test_a_gzip_upload_is_the_same_replay_and_a_bomb_is_refused():
    data = (DATA / "coding_loop.openai_chat.jsonl").read_bytes()
    plain, packed = read_upload(data, "run.jsonl"), read_upload(gzip.compress(data), "run.jsonl.gz")
    assert packed.problem is None and packed.runs[0].why == plain.runs[0].why
    big_line = b'{"role": "user", "content": "' + b"a" * (1 << 20) + b'"}\n'
    bomb = gzip.compress(big_line * (EXPANDED_LIMIT // len(big_line) + 1))
    assert len(bomb) < UPLOAD_LIMIT // 10
    reading = read_upload(bomb, "bomb.jsonl.gz")
    assert reading.problem == "not_transcript" and "expands past 64 MiB, the limit" in reading.message


def test_too_large_is_refused_before_reading_and_the_limit_itself_is_read():
    # 8 MiB in lines of 64 KiB: the reading is what is tested at the limit, not 250,000 lines' worth of parsing
    long_line = b'{"role": "user", "content": "' + b"x" * (64 * 1024 - 32) + b'"}\n'
    at_limit = long_line * (UPLOAD_LIMIT // len(long_line))
    at_limit += b" " * (UPLOAD_LIMIT - len(at_limit))
    assert len(at_limit) == UPLOAD_LIMIT and read_upload(at_limit, "big.jsonl").problem is None
    reading = read_upload(at_limit + b"\n", "big.jsonl")
    assert reading.problem == "too_large" and reading.runs == ()
    assert "big.jsonl is 8.00 MiB, more than the 8 MiB this page reads" in reading.message  # sizes for people
    assert "gzip" in reading.message and "8388608" not in reading.message
    assert "python -m loopkit replay big.jsonl" in reading.message


@pytest.mark.parametrize("data", [b"", b"\n \r\n\t"])
def test_an_empty_upload_is_named_empty(data):
    reading = read_upload(data, "run.jsonl")
    assert reading.problem == "empty" and reading.message.startswith("run.jsonl is empty")


@pytest.mark.parametrize("name, data, found", [
    ("notes.md", b"# my notes\n", "notes.md: expected a JSON array, a JSON object or JSON Lines; the file starts with "
                                  "'# my notes'"),
    ("notes.jsonl", b"# my notes\n", "notes.jsonl:1: invalid JSON"),
    ("chat.jsonl", b'{"speaker": "agent", "text": "hi"}\n{"speaker": "user", "text": "ok"}\n', "chat.jsonl"),
    ("chat.jsonl", b'{"role": "user", "content": "hi"}\n{"role": "assistant", "tool_calls": [oops]}\n',
     "chat.jsonl:2: invalid JSON"),
])
def test_what_is_no_transcript_quotes_the_replays_error(name, data, found):
    reading = read_upload(data, name)
    assert reading.problem == "not_transcript" and reading.runs == ()
    assert reading.message.startswith(f"{name} is not a transcript the replay can read: {found}")


def test_wrong_encodings_are_named_with_the_line():
    text = (DATA / "small_talk.openai_chat.json").read_text(encoding="utf-8")
    utf16 = read_upload(text.encode("utf-16"), "chat.json")
    assert utf16.problem == "encoding" and "UTF-16" in utf16.message
    latin1 = '{"role": "user", "content": "hi"}\n{"role": "user", "content": "ok"}\n{"role": "user", "content": "café"}\n'
    reading = read_upload(latin1.encode("latin-1"), "chat.jsonl")
    assert reading.problem == "encoding" and "line 3: byte 0xe9" in reading.message
    assert upload_problem(latin1.encode("utf-8"), "chat.jsonl") is None


def test_a_browser_name_never_becomes_a_path():
    reading = read_upload(USER_LINE, "../../etc/run.jsonl")
    assert reading.name == "run.jsonl" and reading.runs[0].summary.startswith("run.jsonl: ")


def test_nothing_is_written_to_disk(monkeypatch, tmp_path):
    written = []
    real_open, real_os_open = builtins.open, os.open

    def watch_open(file, mode="r", *args, **kwargs):
        if any(flag in mode for flag in "wax+"):
            written.append(file)
        return real_open(file, mode, *args, **kwargs)

    def watch_os_open(path, flags, *args, **kwargs):
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            written.append(path)
        return real_os_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", watch_open)
    monkeypatch.setattr(os, "open", watch_os_open)
    monkeypatch.chdir(tmp_path)
    data = (DATA / "long_refactor.mini_swe_agent.traj.json").read_bytes()
    assert read_upload(data, "run.traj.json").runs[0].why
    assert read_upload(gzip.compress(data), "run.traj.json.gz").runs[0].why
    assert written == [] and list(tmp_path.iterdir()) == []


def test_a_file_of_several_runs_is_a_reading_per_run():
    data = (pathlib.Path(__file__).parent / "data" / "transcripts" / "openhands_output.jsonl").read_bytes()
    reading = read_upload(data, "output.jsonl")
    assert [run.summary.split(":")[0] for run in reading.runs] == [
        "output.jsonl (instance_id=notes__notes-101)", "output.jsonl (instance_id=notes__notes-102)"]


def test_a_long_run_keeps_only_the_plotted_steps():
    lines = b"".join(json.dumps({"role": "assistant", "tool_calls": [{"id": f"c{i}", "type": "function", "function": {
        "name": "bash", "arguments": json.dumps({"command": f"echo {i}"})}}]}).encode() + b"\n"
        for i in range(PLOT_STEPS + 5))
    run = read_upload(lines, "long.jsonl", config=None).runs[0]
    assert len(run.steps) <= PLOT_STEPS
    assert run.plot_cut == (run.steps[-1].step < PLOT_STEPS + 5 and len(run.steps) == PLOT_STEPS)


def test_the_samples_are_the_three_named_in_order():
    assert [p.name for p in sample_files(DATA)] == list(SAMPLES)
    with pytest.raises(ValueError, match="folder must be"):
        sample_files(DATA / "nope")


def test_in_spanish_every_message_is_spanish():
    set_language("es")
    too_large = read_upload(b" " * (UPLOAD_LIMIT + 1), "grande.jsonl").message
    empty = read_upload(b"", "vacio.jsonl").message
    utf16 = read_upload('{"a": 1}'.encode("utf-16"), "a.json").message
    latin1 = read_upload('{"a": "é"}'.encode("latin-1"), "a.json").message
    other = read_upload(b"hola", "notas.txt").message
    assert too_large.startswith("grande.jsonl ocupa 8.00 MiB, más de los 8 MiB que lee esta página")
    assert empty == "vacio.jsonl está vacío: no hay nada que reproducir. Sube el propio archivo de la transcripción."
    assert utf16.startswith("a.json está en texto UTF-16")
    assert latin1.startswith("a.json no es texto UTF-8 (línea 1: el byte 0xe9 no se puede leer)")
    assert other.startswith("notas.txt no es una transcripción que la reproducción sepa leer: notas.txt: expected")
    summary = read_upload((DATA / "coding_loop.openai_chat.jsonl").read_bytes(), "b.jsonl").runs[0].summary
    assert "DeerFlow habría" in summary and "would have" not in summary


def test_the_view_raises_a_budget_in_its_own_box_and_says_so_once():
    data = (DATA / "long_refactor.mini_swe_agent.traj.json").read_bytes()
    [run] = read_upload(data, "refactor.json").runs
    assert run.summary.count("Raise it in this view's tool budgets box, as bash=WARN:HARD") == 1
    assert "--override" not in run.summary
    [raised] = read_upload(data, "refactor.json", config=DetectorConfig(tool_freq_overrides=tool_budgets(
        "bash=60:80"))).runs
    assert "would neither have warned nor stopped" in raised.summary


def test_tool_budgets_read_the_box_as_override_reads_its_flag():
    assert tool_budgets("bash=60:80, read_file=40:60 grep=1:2") == {"bash": (60, 80), "read_file": (40, 60),
                                                                   "grep": (1, 2)}
    with pytest.raises(ValueError, match="'bash=60' is not a budget: write TOOL=WARN:HARD"):
        tool_budgets("bash=60")
    with pytest.raises(ValueError, match="the warning count must not be above the hard limit"):
        tool_budgets("bash=80:60")


def test_a_bad_record_in_an_upload_points_at_the_skip_box():
    lines = USER_LINE + b'{"role": "assistant", "tool_calls": [oops]}\n' + USER_LINE
    reading = read_upload(lines, "run.jsonl")
    assert reading.problem == "not_transcript" and "--skip-bad-records" not in reading.message
    assert reading.message.endswith("Tick the skip box above to skip each record that cannot be read (they are "
                                    "counted).")
    assert read_upload(lines, "run.jsonl", skip_bad_records=True).problem is None


def test_a_deerflow_thread_s_own_tools_are_not_called_unmapped():
    thread = {"values": {"messages": [
        {"type": "human", "content": "make a report"},
        {"type": "ai", "content": "", "tool_calls": [{"name": "ask_clarification", "args": {"question": "which?"},
                                                      "id": "t1"}]},
        {"type": "tool", "name": "ask_clarification", "tool_call_id": "t1", "content": "the sales one"},
        {"type": "ai", "content": "", "tool_calls": [{"name": "present_files", "args": {"filepaths": ["r.md"]},
                                                      "id": "t2"}]}]}}
    [run] = read_upload(json.dumps(thread).encode(), "thread.json").runs
    assert "unmapped" not in run.summary


def test_a_stop_on_polls_of_a_running_process_says_it_was_waiting():
    def item(i, kind, payload):
        return json.dumps({"timestamp": f"2026-03-01T12:00:{i:02d}Z", "type": kind, "payload": payload}) + "\n"
    lines = [item(0, "response_item", {"type": "message", "role": "user", "content": [
        {"type": "input_text", "text": "run the slow tests"}]}),
        item(1, "response_item", {"type": "function_call", "name": "exec_command", "call_id": "c0",
                                  "arguments": json.dumps({"cmd": "pytest -q --slow", "yield_time_ms": 1000})})]
    for i in range(2, 8):  # six polls of the same session, each answered
        lines.append(item(i, "response_item", {"type": "function_call", "name": "write_stdin", "call_id": f"c{i}",
                                               "arguments": json.dumps({"session_id": 7, "chars": "",
                                                                        "yield_time_ms": 5000})}))
        lines.append(item(i, "response_item", {"type": "function_call_output", "call_id": f"c{i}",
                                               "output": "still running"}))
    [run] = read_upload("".join(lines).encode(), "rollout.jsonl").runs
    assert "stopped the run at step 6 (hash layer" in run.summary
    assert ("The repeated calls are polls of a running process (write_stdin with nothing to write): the agent was "
            "waiting for a command to finish, not looping.") in run.summary
