"""Bad input, each case timed and its peak RSS measured (issue 34, part 5): what the replay answers (exit code and
its first error line), how long it takes, and how much memory it holds. Not a test: it writes about 2.5 GiB to a
temporary folder (the inputs are made there, never committed) and takes a few minutes.

Usage: python benchmarks/bench_bad_input.py [--quick]

The cases: the issue's decompression bomb (a gzip file of about 15 MB holding 2 GiB of valid, distinct records,
refused by its expansion ratio long before the 1 GiB limit), a gzip bomb of zero bytes (both made as
bench_hostile_input.py makes them), Claude Code-shaped sessions in bzip2 and xz (read), a Zstandard file (named and
refused), NUL bytes after the last line of a 200 MiB session (tolerated and reported), a line
that is not UTF-8 (refused, naming the line and --skip-bad-records; then read with it), an Aider chat history
(refused with the reason), a 1 GiB line of JSON Lines, and a 100,000-level nested array. For each: the exit code,
wall seconds, the peak RSS of the command, and the first line it wrote to standard error (or its summary's tail).
It exits 1 when a case does not end with the exit code it should (that is a bug, not a speed); the peak over all
cases is reported against 300 MB (absolute, reported), as benchmarks/README.md says of absolute figures.

``--quick`` makes the big cases smaller (a 256 MiB bomb, a 64 MiB line), to try the script itself.
"""

from __future__ import annotations

import argparse
import bz2
import json
import lzma
import os
import pathlib
import subprocess
import sys
import tempfile
from collections.abc import Callable
from functools import partial

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import measure  # noqa: E402
from bench_hostile_input import jsonl_bomb, nested_array, one_line_jsonl, zero_bomb  # noqa: E402
from report import machine, result_line  # noqa: E402

GOAL_MB = 300
MiB = 1 << 20


def session_lines(total: int):
    """Claude Code-shaped turns (a ``Read`` call, then the file it read, 4 KB), distinct, until ``total`` bytes."""
    body = "x = compute(value)\n" * 210
    written, i = 0, 0
    while written < total:
        turn = [{"type": "assistant", "uuid": f"a{i}", "message": {"id": f"msg_{i}", "role": "assistant", "content": [
                    {"type": "tool_use", "id": f"t{i}", "name": "Read", "input": {"file_path": f"/w/src/m{i}.py"}}]}},
                {"type": "user", "uuid": f"u{i}", "message": {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": f"t{i}", "content": body}]}}]
        data = "".join(json.dumps(record) + "\n" for record in turn).encode()
        written += len(data)
        i += 1
        yield data


def compressed(opener: Callable, size: int) -> Callable[[pathlib.Path], None]:
    def make(path: pathlib.Path) -> None:
        with opener(path) as out:
            for data in session_lines(size):
                out.write(data)
    return make


def plain(data: bytes) -> Callable[[pathlib.Path], None]:
    return lambda path: path.write_bytes(data)


def nul_tail(size: int) -> Callable[[pathlib.Path], None]:
    def make(path: pathlib.Path) -> None:
        with open(path, "wb") as out:
            for data in session_lines(size):
                out.write(data)
            out.write(bytes(64 * MiB))  # as a writer that had made the file longer, then crashed, leaves it
    return make


def sized(make: Callable[[pathlib.Path, int], None], size: int) -> Callable[[pathlib.Path], None]:
    """One of bench_hostile_input.py's makers (the issue's bomb, the zero bomb, the one-line file), at ``size``."""
    return lambda path: make(path, size)


LATIN = (b'{"role": "user", "content": "fix it"}\n'
         + '{"role": "user", "content": "caf\u00e9 au lait"}\n'.encode("latin-1")
         + b'{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "bash", '
           b'"arguments": "{\\"command\\": \\"ls\\"}"}}]}\n')
AIDER = b"\n# aider chat started at 2026-05-20 09:00:00\n\n#### keep the year in parse_date\n\nDone.\n"
ZSTD = b"\x28\xb5\x2f\xfd\x04\x58\x8d\x00\x00\x98" + bytes(range(200, 240))


def run(path: pathlib.Path, *flags: str) -> measure.Measured:
    """Like ``measure.replay``, with flags."""
    out = subprocess.run([sys.executable, "-c", measure.WRAPPER, sys.executable, "-m", "loopkit", "replay", str(path),
                          *flags], capture_output=True, text=True, check=True, timeout=3600)
    head, *errors = out.stdout.splitlines()
    code, wall, cpu, peak_kb = head.split()
    return measure.Measured(int(code), float(wall), float(cpu), int(peak_kb) / 1024, errors)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller big cases, to try the script")
    args = parser.parse_args(argv)
    big = 256 * MiB if args.quick else 2 << 30
    line = 64 * MiB if args.quick else 1 << 30
    limit = ("--max-bytes", "128M") if args.quick else ()  # the quick bomb is under the default limit of 1 GiB
    read = (0, 1)  # read whole: the verdict decides (these sessions stop at their 50th Read, a one-tool budget)
    cases = [  # (title, file name, how to make it, flags, the exit codes it may end with)
        (f"gzip bomb: {big // MiB} MiB of valid records", "records.jsonl.gz",
         sized(jsonl_bomb, big), limit, 2),
        (f"gzip bomb: {line // MiB} MiB of zero bytes", "zeros.jsonl.gz", sized(zero_bomb, line), limit, 2),
        ("bzip2: 64 MiB of valid records", "records.jsonl.bz2", compressed(partial(bz2.open, mode="wb"), 64 * MiB),
         (), read),
        ("xz: 64 MiB of valid records", "records.jsonl.xz", compressed(partial(lzma.open, mode="wb", preset=1),
                                                                       64 * MiB), (), read),
        ("Zstandard file", "records.jsonl.zst", plain(ZSTD), (), 2),
        ("200 MiB of records, then 64 MiB of NUL bytes", "crashed.jsonl", nul_tail(200 * MiB), (), read),
        ("a line that is not UTF-8", "latin.jsonl", plain(LATIN), (), 2),
        ("the same, --skip-bad-records", "latin.jsonl", plain(LATIN), ("--skip-bad-records",), read),
        ("Aider chat history", ".aider.chat.history.md", plain(AIDER), (), 2),
        (f"{line // MiB} MiB JSON Lines file of one line", "one_line.jsonl", sized(one_line_jsonl, line), (), 2),
        ("100,000-level nested array", "deep.json", sized(nested_array, 100_000), (), 2),
    ]
    print(machine())
    print(f"{'input':46}  {'on disk':>9}  exit  {'peak RSS':>9}  {'wall s':>7}  what it said")
    broken, heaviest = [], 0.0
    with tempfile.TemporaryDirectory() as folder:
        for title, name, make, flags, expected in cases:
            expected = expected if isinstance(expected, tuple) else (expected,)
            path = pathlib.Path(folder, name)
            make(path)
            done = run(path, *flags)
            heaviest = max(heaviest, done.peak_mb)
            said = done.errors[0] if done.errors else "(no error)"
            if done.exit_code not in expected:
                broken.append(title)
            print(f"{title:46}  {path.stat().st_size / 1e6:>7.1f}MB  {done.exit_code:>4}  {done.peak_mb:>6.1f} MB  "
                  f"{done.wall_s:>7.1f}  {said.replace(folder + '/', '')[:160]}"
                  f"{'' if done.exit_code in expected else f'   <- expected exit {expected}'}")
            path.unlink()
    print(f"load average after: {os.getloadavg()[0]:.1f} (1 min)")
    met = not broken and heaviest < GOAL_MB
    print(result_line(f"highest peak RSS {heaviest:.1f} MB; every case ended as it should: {'yes' if not broken else 'NO'}",
                      f"the right exit code each, < {GOAL_MB} MB each", met))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
