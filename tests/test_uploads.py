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
from loopkit.core.language import set_language
from loopkit.teaching.uploads import (
    EXPANDED_LIMIT,
    PLOT_STEPS,
    SAMPLES,
    UPLOAD_LIMIT,
    read_upload,
    sample_files,
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
    at_limit = USER_LINE * (UPLOAD_LIMIT // len(USER_LINE))
    at_limit += b" " * (UPLOAD_LIMIT - len(at_limit))
    assert len(at_limit) == UPLOAD_LIMIT and read_upload(at_limit, "big.jsonl").problem is None
    reading = read_upload(at_limit + b"\n", "big.jsonl")
    assert reading.problem == "too_large" and reading.runs == ()
    assert f"{UPLOAD_LIMIT + 1} bytes" in reading.message and "gzip" in reading.message
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
    assert too_large.startswith("grande.jsonl ocupa 8388609 bytes, más de los 8388608 bytes (8 MiB)")
    assert empty == "vacio.jsonl está vacío: no hay nada que reproducir. Sube el propio archivo de la transcripción."
    assert utf16.startswith("a.json está en texto UTF-16")
    assert latin1.startswith("a.json no es texto UTF-8 (línea 1: el byte 0xe9 no se puede leer)")
    assert other.startswith("notas.txt no es una transcripción que la reproducción sepa leer: notas.txt: expected")
    summary = read_upload((DATA / "coding_loop.openai_chat.jsonl").read_bytes(), "b.jsonl").runs[0].summary
    assert "DeerFlow habría" in summary and "would have" not in summary
