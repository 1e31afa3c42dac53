"""Bad input that costs too much or says too little (issue 34, part 5): a compressed file's expansion ratio checked as
it streams, with the records before a refusal replayed; trailing NUL bytes tolerated like a cut-off last line; a
line that is not UTF-8 named with --skip-bad-records; bzip2 and xz read, Zstandard named; an unusable row without
figures. Memory stays bounded: benchmarks/bench_bad_input.py measures each case's peak RSS."""

import bz2
import gzip
import json
import lzma
import subprocess
import sys

import pytest

from loopkit.traces.adapters import RATIO_CHECK_AFTER, LimitReached, TraceError, iter_runs, load_trace


def replay(*args):
    return subprocess.run([sys.executable, "-m", "loopkit", "replay", *map(str, args)], capture_output=True,
                          timeout=300)


def call_line(i, command):
    return json.dumps({"role": "assistant", "tool_calls": [{"id": f"c{i}", "type": "function", "function": {
        "name": "bash", "arguments": json.dumps({"command": command})}}]}) + "\n"


CHAT = "".join(call_line(i, f"echo {i}") for i in range(6)).encode()  # six distinct calls: six batches, quiet


# -- compression ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix, compress", [(".bz2", bz2.compress), (".xz", lzma.compress)])
def test_bzip2_and_xz_are_read_as_they_stream(tmp_path, suffix, compress):
    path = tmp_path / f"run.jsonl{suffix}"
    path.write_bytes(compress(CHAT))
    assert len(load_trace(path).batches) == 6


def test_a_zstandard_file_is_named_and_refused_without_echoing_its_bytes(tmp_path):
    path = tmp_path / "run.jsonl.zst"
    path.write_bytes(b"\x28\xb5\x2f\xfd\x04\x58\x8d\x00\x00\x98" + bytes(range(200, 240)))  # a zstd frame's start
    out = replay(path)
    error = out.stderr.decode()
    assert out.returncode == 2 and "a Zstandard-compressed file (zstd)" in error and "zstd -d" in error
    assert "\\x" not in error and "starts with" not in error


def test_a_file_that_would_expand_past_the_limit_is_refused_early_with_what_was_read_before(tmp_path):
    # 64 MiB of calls, a few hundred KB compressed; under a 40 MiB limit the ratio projects past it as soon as it
    # is first measured, after RATIO_CHECK_AFTER (16 MiB) of text: long before the 40 MiB the limit alone would read
    line = call_line(0, "pytest -q")  # the same call on every line: a repeat the detector stops at step 5
    path = tmp_path / "bomb.jsonl.gz"
    with gzip.open(path, "wb", compresslevel=1) as out:
        out.write(line.encode() * ((64 << 20) // len(line)))
    with pytest.raises(LimitReached) as info:
        for run in iter_runs(path, max_bytes=40 << 20):
            list(run)
    message = str(info.value)
    assert message.startswith(f"{path}: expands past the limit of 40 MiB (max_bytes, --max-bytes, raises it): about ")
    assert "refused after 16 MiB of its text" in message and RATIO_CHECK_AFTER == 16 << 20
    out = replay(path, "--max-bytes", "40M", "--json")
    assert out.returncode == 2
    summary = json.loads(out.stdout.decode().splitlines()[-1])["summary"]
    assert summary["verdict"] == "unusable" and summary["partial"].startswith("up to the refusal, ")
    assert summary["partial"].endswith("DeerFlow would have stopped the run at step 5 (hash layer: the same batch 5 "
                                       "times in the last 20 turns (stops at 5))")
    assert summary["error"].endswith(summary["partial"])


def test_under_the_limit_a_file_that_expands_as_much_is_read_whole(tmp_path):
    line = call_line(0, "pytest -q")
    path = tmp_path / "long.jsonl.gz"
    with gzip.open(path, "wb", compresslevel=1) as out:
        out.write(line.encode() * ((20 << 20) // len(line)))  # 20 MiB: over the first check, under 1 GiB
    run = next(iter_runs(path))
    assert sum(1 for _ in run) == (20 << 20) // len(line)


# -- NUL bytes at the end ---------------------------------------------------------------------------------------------


def test_nul_bytes_after_the_last_line_are_tolerated_and_reported(tmp_path):
    path = tmp_path / "crashed.jsonl"
    path.write_bytes(CHAT + b"\x00" * 4096)
    out = replay(path)
    assert out.returncode == 0
    assert "the file ends in 4096 NUL bytes from line 7 on, as a writer that stopped without finishing leaves them; " \
           "not read" in out.stdout.decode()
    summary = json.loads(replay(path, "--json").stdout.decode().splitlines()[-1])["summary"]
    assert summary["nul_bytes"] == 4096 and summary["batches"] == 6 and summary["error"] is None


def test_nul_bytes_after_the_last_line_s_content_and_over_several_lines_are_the_file_s_end(tmp_path):
    path = tmp_path / "crashed.jsonl"
    path.write_bytes(CHAT.rstrip(b"\n") + b"\x00" * 100)  # no newline: the writer stopped after the last record
    run = next(iter_runs(path))
    assert sum(1 for _ in run) == 6 and run.counts.nul_bytes == 100
    path.write_bytes(CHAT + b"\x00" * 10 + b"\n" + b"\x00" * 20 + b"\n\n")
    run = next(iter_runs(path))
    assert sum(1 for _ in run) == 6 and run.counts.nul_bytes == 30


def test_more_nul_bytes_than_a_line_may_hold_are_still_the_file_s_end(tmp_path):
    path = tmp_path / "crashed.jsonl"
    path.write_bytes(CHAT + bytes(3 << 20))  # 3 MiB of NUL bytes, over a 1 MiB record limit: never held whole
    run = next(iter_runs(path, max_record_bytes=1 << 20))
    assert sum(1 for _ in run) == 6 and run.counts.nul_bytes == 3 << 20 and run.counts.bad_records == 0


@pytest.mark.parametrize("name", ["zeros.jsonl", "zeros.json"])
def test_a_file_of_nothing_but_nul_bytes_is_an_error_not_an_empty_run(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(bytes(3 << 20))
    with pytest.raises(TraceError, match=r"nothing but NUL bytes"):
        [list(run) for run in iter_runs(path, max_record_bytes=1 << 20)]


def test_nul_bytes_with_lines_after_them_are_a_bad_line(tmp_path):
    path = tmp_path / "damaged.jsonl"
    path.write_bytes(CHAT + b"\x00" * 8 + b"\n" + call_line(7, "ls").encode())
    with pytest.raises(TraceError, match=r"damaged\.jsonl:7: 8 NUL bytes, then more lines"):
        load_trace(path)
    run = next(iter_runs(path, skip_bad_records=True))
    assert sum(1 for _ in run) == 7 and run.counts.bad_records == 1


# -- text that is not UTF-8 ------------------------------------------------------------------------------------------


def test_a_line_that_is_not_utf8_names_the_line_and_skip_bad_records(tmp_path):
    path = tmp_path / "latin.jsonl"
    path.write_bytes(CHAT + '{"role": "user", "content": "café"}\n'.encode("latin-1") + call_line(9, "ls").encode())
    out = replay(path)
    error = out.stderr.decode()
    assert out.returncode == 2 and f"{path}:7: not UTF-8 text" in error and "--skip-bad-records" in error
    out = replay(path, "--skip-bad-records")
    assert out.returncode == 0 and "7 messages, 7 batches, 7 tool calls; skipped 1 bad record" in out.stdout.decode()


def test_a_json_document_that_is_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "latin.json"
    path.write_bytes(b'[\n{"role": "user", "content": "hi"},\n' + '{"role": "user", "content": "café"}\n]'.encode(
        "latin-1"))
    with pytest.raises(TraceError, match=r"latin\.json:3: not UTF-8 text"):
        load_trace(path)
