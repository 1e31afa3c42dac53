"""Compressed input: gzip files and zip archives are read directly, as streams, and a member that expands past
``max_bytes`` is refused, so a decompression bomb cannot exhaust memory (checked in a subprocess, relative to a
small file)."""

import gzip
import io
import json
import pathlib
import subprocess
import sys
import zipfile

import pytest
from pipe_stream import Pipe

from loopkit.traces.adapters import TraceError, iter_runs, iter_trace, load_trace

SAMPLES = pathlib.Path(__file__).resolve().parent / "data" / "transcripts"
CHAT = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "data" / "coding_loop.openai_chat.jsonl"


def gzip_copy(source, target):
    target.write_bytes(gzip.compress(source.read_bytes()))
    return target


def zip_of(path, members):
    """Write a zip archive at ``path`` holding ``members`` (name -> text)."""
    with zipfile.ZipFile(path, "w") as z:
        for name, text in members.items():
            z.writestr(name, text)


def batches(path, **kwargs):
    return [[b.calls for b in run] for run in iter_runs(path, **kwargs)]


@pytest.mark.parametrize("name", ["claude_code.session.jsonl", "deerflow_thread.json", "openhands_output.jsonl"])
def test_a_gzip_file_reads_like_the_plain_one(tmp_path, name):
    packed = gzip_copy(SAMPLES / name, tmp_path / (name + ".gz"))
    assert batches(packed) == batches(SAMPLES / name)


def test_gzip_is_told_by_its_bytes_not_its_name_and_locations_keep_line_numbers(tmp_path):
    packed = gzip_copy(CHAT, tmp_path / "transcript.data")  # no .gz, no .jsonl: the bytes and the lines decide
    trace = load_trace(packed)
    assert trace.format == "openai-chat" and trace.where[0] == f"{packed}:3"
    assert trace.batches == load_trace(CHAT).batches


def test_a_gzip_stream_on_a_pipe_is_read(tmp_path):
    stream = iter_trace(io.BufferedReader(Pipe(gzip.compress(CHAT.read_bytes()))))
    assert len(list(stream)) == 20 and stream.path == "<stream>"


def test_a_zip_archive_is_one_source_per_member(tmp_path):
    archive = tmp_path / "runs.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.write(SAMPLES / "gemini_session.json", "b/gemini_session.json")
        z.write(SAMPLES / "claude_code.session.jsonl", "a/claude.jsonl")
        z.writestr("README.txt", "not a transcript")
    runs = []
    for run in iter_runs(archive):
        runs.append((run.path, run.index, len(list(run)), run.format))
    assert runs == [(f"{archive}[a/claude.jsonl]", 1, 4, "claude-code"),
                    (f"{archive}[b/gemini_session.json]", 2, 2, "gemini-cli")]


def test_a_broken_member_names_the_archive_member_and_line(tmp_path):
    archive = tmp_path / "runs.zip"
    zip_of(archive, {"t.jsonl": '{"role": "user", "content": "x"}\n{oops}\n'})
    with pytest.raises(TraceError, match=rf"^{archive}\[t\.jsonl\]:2: invalid JSON"):
        load_trace(archive)


def test_an_archive_without_transcripts_and_a_zip_on_a_pipe_are_refused(tmp_path):
    archive = tmp_path / "other.zip"
    zip_of(archive, {"notes.txt": "x"})
    with pytest.raises(TraceError, match=r"a zip archive without JSON or JSON Lines members \(found notes\.txt\)"):
        load_trace(archive)
    with pytest.raises(TraceError, match=r"a zip archive must be read from a file, not a pipe"):
        list(iter_runs(io.BufferedReader(Pipe(archive.read_bytes()))))


def test_an_inspect_log_without_samples_says_so(tmp_path):
    archive = tmp_path / "cancelled.eval"
    zip_of(archive, {"_journal/start.json": json.dumps({"version": 2, "eval": {}}),
                     "header.json": json.dumps({"version": 2, "status": "cancelled"})})
    with pytest.raises(TraceError, match=rf"^{archive}: an Inspect AI log without samples/ members"):
        list(iter_runs(archive))


def test_a_corrupt_gzip_is_a_trace_error_not_a_traceback(tmp_path):
    data = gzip.compress(CHAT.read_bytes())
    broken = tmp_path / "t.jsonl.gz"
    broken.write_bytes(data[: len(data) // 2])
    with pytest.raises(TraceError, match=rf"^{broken}: cannot decompress"):
        load_trace(broken)


# -- decompression bombs -------------------------------------------------------------------------------------------


def write_gzip_bomb(path, expanded_mb):
    """A gzip of JSON Lines that expands to ``expanded_mb`` MB: one long line of spaces, then a message."""
    chunk = b" " * (1 << 20)
    with gzip.open(path, "wb", compresslevel=9) as out:
        for _ in range(expanded_mb):
            out.write(chunk)
        out.write(b'{"role": "user", "content": "x"}\n')
    return path


def test_a_gzip_bomb_is_refused_past_the_limit(tmp_path):
    bomb = write_gzip_bomb(tmp_path / "bomb.jsonl.gz", expanded_mb=64)
    assert bomb.stat().st_size < 200_000  # small on disk
    with pytest.raises(TraceError, match=rf"^{bomb}: expands past 4 MiB, the limit \(max_bytes, --max-bytes\)"):
        load_trace(bomb, max_bytes=4 << 20)
    # under higher limits it reads (no calls): the line is longer than the 64 MiB a record may hold by default
    assert len(load_trace(bomb, max_bytes=80 << 20, max_record_bytes=80 << 20).batches) == 0
    with pytest.raises(TraceError, match=rf"^{bomb}:1: a line longer than 67108864 bytes \(max_record_bytes"):
        load_trace(bomb, max_bytes=80 << 20)


def test_a_zip_member_declaring_more_than_the_limit_is_refused_before_it_is_opened(tmp_path):
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("big.jsonl", b" " * (16 << 20) + b'{"role": "user"}\n')
    with pytest.raises(TraceError, match=rf"^{archive}\[big\.jsonl\]: declares 16.0 MiB \(16,777,233 bytes\), more than "
                                         rf"the limit"):
        list(iter_runs(archive, max_bytes=1 << 20))


@pytest.mark.parametrize("bad, error, says", [(0, ValueError, "at least 1, got 0"), (-1, ValueError, "at least 1"),
                                              (1.5, TypeError, "an int, got float"), (True, TypeError, "an int"),
                                              ("1", TypeError, "an int, got str")])
def test_max_bytes_must_be_a_positive_int(bad, error, says):
    with pytest.raises(error, match=f"max_bytes must be {says}"):
        list(iter_runs(CHAT, max_bytes=bad))


PEAK = """
import resource, sys
from loopkit.traces.adapters import TraceError, iter_runs
try:
    for run in iter_runs(sys.argv[1], max_bytes=int(sys.argv[2])):
        list(run)
    print("read", end=" ")
except TraceError as exc:
    print("refused" if "expands past" in str(exc) else "error", end=" ")
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_kb(path, max_bytes):
    out = subprocess.run([sys.executable, "-c", PEAK, str(path), str(max_bytes)], capture_output=True, text=True,
                         check=True, timeout=300)
    what, peak = out.stdout.split()
    return what, int(peak)


def test_a_bomb_stays_in_steady_memory(tmp_path):
    # 512 MB expanded, ~500 KB on disk; the limit lets 32 MB through. Reading it whole would need 512 MB;
    # streaming with the limit holds at most about the limit in one line.
    bomb = write_gzip_bomb(tmp_path / "bomb.jsonl.gz", expanded_mb=512)
    small = gzip_copy(CHAT, tmp_path / "small.jsonl.gz")
    assert peak_kb(small, 32 << 20)[0] == "read"
    what, bomb_kb = peak_kb(bomb, 32 << 20)
    small_kb = peak_kb(small, 32 << 20)[1]
    assert what == "refused"
    assert bomb_kb - small_kb < 128 * 1024, f"peak RSS grew from {small_kb} KB to {bomb_kb} KB"


# -- the survivors of the mutation run (tools/mutants.py): the --max-bytes and --max-record-bytes boundaries -------
def test_a_gzip_member_of_exactly_max_bytes_is_read_and_one_byte_less_refuses_it(tmp_path):
    plain = CHAT.read_bytes()
    packed = gzip_copy(CHAT, tmp_path / "chat.jsonl.gz")
    assert batches(packed, max_bytes=len(plain)) == batches(CHAT)
    with pytest.raises(TraceError, match=rf"^{packed}: expands past .* \({len(plain) - 1:,} bytes\), the limit"):
        batches(packed, max_bytes=len(plain) - 1)


def test_a_zip_member_declaring_exactly_max_bytes_is_read_and_one_more_is_refused(tmp_path):
    text = CHAT.read_text()
    size = len(text.encode())
    archive = tmp_path / "runs.zip"
    zip_of(archive, {"chat.jsonl": text})
    assert batches(archive, max_bytes=size) == batches(CHAT)
    with pytest.raises(TraceError, match=rf"\[chat\.jsonl\]: declares .* \({size:,} bytes\), more than the limit of "
                                         rf".* \({size - 1:,} bytes\)"):
        batches(archive, max_bytes=size - 1)


def test_a_record_of_exactly_max_record_bytes_is_read_and_one_byte_more_is_refused(tmp_path):
    line = json.dumps({"role": "assistant", "content": "ok", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}]})
    path = tmp_path / "one.jsonl"
    path.write_text(line + "\n")
    assert batches(path, max_record_bytes=len(line)) == [[[{"name": "bash", "args": '{"command": "ls"}', "id": "c1"}]]]
    with pytest.raises(TraceError, match=rf"^{path}:1: a line longer than {len(line) - 1} bytes"):
        batches(path, max_record_bytes=len(line) - 1)


def test_zip_members_are_read_in_name_order_whatever_order_they_were_written_in(tmp_path):
    archive = tmp_path / "runs.zip"
    second = json.dumps({"role": "assistant", "tool_calls": [
        {"id": "b", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]}) + "\n"
    first = second.replace('"id": "b"', '"id": "a"')
    zip_of(archive, {"z.jsonl": second, "a.jsonl": first})
    paths = []
    for run in iter_runs(archive):
        paths.append(run.path)
        list(run)  # read it, so the archive moves on to the next member
    assert paths == [f"{archive}[a.jsonl]", f"{archive}[z.jsonl]"]
