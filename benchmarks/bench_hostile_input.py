"""Hostile input in bounded memory (issue 21): each input must end with exit code 2, one line on stderr, and a peak RSS
under 300 MB. Not a test: it writes about 2 GiB to a temporary folder and takes minutes.

Usage: python benchmarks/bench_hostile_input.py [--gib N]

The inputs:

- a 1 GiB JSON Lines file of one line (one message whose content is 1 GiB of text, no newline);
- a 1 GiB JSON document of one line (``{"messages": [{"role": "user", "content": "<1 GiB>"}]}``);
- a gzip bomb of one line: 1 GiB of zero bytes, about 1 MB on disk;
- a gzip bomb of JSON Lines: 2 GiB of valid, distinct messages, refused at the 1 GiB default of ``--max-bytes``;
- a 100,000-level nested array.

For each: the exit code, the peak RSS of the command, wall seconds and CPU seconds (the machine may be shared: the
load average is printed too), and the error line. It exits 1 when an input is not refused with exit 2 and one line
(that is a bug); a peak over the goal is reported in the result line (benchmarks/README.md), as any absolute figure
is.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import pathlib
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import measure  # noqa: E402
from report import result_line  # noqa: E402

GOAL_MB = 300
MiB = 1 << 20


def one_line_jsonl(path: pathlib.Path, size: int) -> None:
    with open(path, "wb") as out:
        out.write(b'{"role": "user", "content": "')
        chunk = b"x" * MiB
        for _ in range(size // MiB):
            out.write(chunk)
        out.write(b'"}')  # no newline: one line


def one_line_document(path: pathlib.Path, size: int) -> None:
    with open(path, "wb") as out:
        out.write(b'{"messages": [{"role": "user", "content": "')
        chunk = b"y" * MiB
        for _ in range(size // MiB):
            out.write(chunk)
        out.write(b'"}]}')


def zero_bomb(path: pathlib.Path, size: int) -> None:
    with gzip.open(path, "wb", compresslevel=9) as out:
        chunk = bytes(MiB)
        for _ in range(size // MiB):
            out.write(chunk)


def jsonl_bomb(path: pathlib.Path, size: int) -> None:
    """Valid, distinct calls, each followed by a tool result of 4 KB (so nothing stops the replay early), compressed."""
    result = "line of output\n" * 270
    with gzip.open(path, "wb", compresslevel=6) as out:
        written, i = 0, 0
        block = []
        while written < size:
            block.append(json.dumps({"role": "assistant", "tool_calls": [{"id": f"c{i}", "type": "function", "function": {
                "name": ("read_file", "bash", "grep")[i % 3], "arguments": json.dumps(
                    {"path": f"src/m{i}.py", "command": f"echo {i}", "pattern": f"p{i}"})}}]}) + "\n")
            block.append(json.dumps({"role": "tool", "tool_call_id": f"c{i}", "content": result}) + "\n")
            i += 1
            if len(block) == 2000:
                data = "".join(block).encode()
                out.write(data)
                written += len(data)
                block = []


def nested_array(path: pathlib.Path, depth: int) -> None:
    path.write_text("[" * depth + "]" * depth)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gib", type=float, default=1.0, help="size of the one-line files and the zero bomb")
    args = parser.parse_args(argv)
    size = int(args.gib * (1 << 30))
    cases = [("1 GiB JSON Lines file of one line", "one_line.jsonl", one_line_jsonl, size),
             ("1 GiB JSON document of one line", "one_line.json", one_line_document, size),
             ("gzip bomb: 1 GiB of zero bytes", "zeros.jsonl.gz", zero_bomb, size),
             ("gzip bomb: 2 GiB of JSON Lines", "messages.jsonl.gz", jsonl_bomb, 2 * size),
             ("100,000-level nested array", "deep.json", nested_array, 100_000)]
    broken, heaviest = False, 0.0
    print(f"load average before: {os.getloadavg()[0]:.1f} (1 min)")
    print(f"{'input':38}  {'on disk':>9}  exit  {'peak RSS':>9}  {'wall s':>7}  {'CPU s':>6}  error")
    with tempfile.TemporaryDirectory() as folder:
        for title, name, make, amount in cases:
            path = pathlib.Path(folder, name)
            make(path, amount)
            run = measure.replay(path)
            code, wall, cpu, peak, errors = run.exit_code, run.wall_s, run.cpu_s, run.peak_mb, run.errors
            ok = code == 2 and peak < GOAL_MB and len(errors) == 1
            broken |= code != 2 or len(errors) != 1  # a refusal that is not one clear line is a bug, not a speed
            heaviest = max(heaviest, peak)
            shown = errors[0].replace(folder + "/", "") if errors else "(none)"
            print(f"{title:38}  {path.stat().st_size / 1e6:>7.1f}MB  {code:>4}  {peak:>6.1f} MB  {wall:>7.1f}  "
                  f"{cpu:>6.1f}  {shown[:150]}{'' if ok else '   <- MISSED'}")
            path.unlink()
    print(f"load average after: {os.getloadavg()[0]:.1f} (1 min)")
    met = not broken and heaviest < GOAL_MB
    print(f"goal: exit 2, one line, peak RSS < {GOAL_MB} MB for each: {'ok' if met else 'MISSED'}")
    print(result_line(f"highest peak RSS {heaviest:.1f} MB; every input refused with exit 2 and one line: "
                      f"{'yes' if not broken else 'NO'}", f"exit 2, one line, < {GOAL_MB} MB each", met))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
