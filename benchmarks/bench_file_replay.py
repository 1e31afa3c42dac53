"""A full replay, with no stop, of one 200 MB transcript (issue 21): at least 30 MB/s, in flat memory.

Usage: python benchmarks/bench_file_replay.py [--mb 200]

Writes one coding session of about 200 MB (turns of the mix in bench_directory_replay.py: reads of a codebase,
greps, edits, test runs, each with a tool result of 1-3 KB; varied enough that the detector never stops it, so every
batch is replayed) in two formats: Claude Code JSON Lines, streamed line by line, and an Anthropic Messages JSON
document, read one message at a time because it is larger than what is parsed whole. Each is replayed by
``python -m loopkit replay`` in a subprocess, and so is a file of a tenth of the size: flat memory means the peaks
are close. MB/s is given per wall second and per CPU second (user + system), with the load average, since a shared
machine slows the first far more than the second.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import measure  # noqa: E402
from bench_directory_replay import _anthropic, _claude_code, _session  # noqa: E402
from report import result_line  # noqa: E402

GOAL_MB_S = 30.0


def write(path: pathlib.Path, writer, megabytes: float, seed: int = 11) -> int:
    """One session of about ``megabytes`` MB in the writer's format; the bytes written."""
    rng = random.Random(seed)
    turns = []
    while sum(len(body) for _, _, body in turns) < megabytes * 0.85e6:
        turns.extend(_session(rng, 70))
    with open(path, "w") as handle:
        writer(turns, handle)
    return path.stat().st_size


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=200.0)
    args = parser.parse_args(argv)
    ok, broken, rates = True, False, []
    with tempfile.TemporaryDirectory() as root:
        for name, writer in (("session.jsonl", _claude_code), ("messages.json", _anthropic)):
            big, small = pathlib.Path(root, name), pathlib.Path(root, f"small.{name}")
            size = write(big, writer, args.mb)
            write(small, writer, args.mb / 10)
            load = os.getloadavg()[0]
            run = measure.replay(big)
            code, wall, cpu, peak = run.exit_code, run.wall_s, run.cpu_s, run.peak_mb
            small_peak = measure.replay(small).peak_mb
            rate, cpu_rate = size / 1e6 / wall, size / 1e6 / cpu
            ok &= code == 0 and max(rate, cpu_rate) >= GOAL_MB_S
            broken |= code != 0  # the session is built never to stop: another exit code is a bug
            rates.append(f"{name} {rate:.1f} MB/s, peak {peak:.1f} MB")
            print(f"{name}: {size / 1e6:.1f} MB, exit code {code}: {wall:.1f} s -> {rate:.1f} MB/s per wall second, "
                  f"{cpu_rate:.1f} MB/s per CPU second ({cpu:.1f} s; load average {load:.1f}); peak RSS "
                  f"{peak:.1f} MB (a tenth of the size: {small_peak:.1f} MB)")
    print(f"goal >= {GOAL_MB_S} MB/s with no stop: {'ok' if ok else 'MISSED'}")
    print(result_line("; ".join(rates), f">= {GOAL_MB_S:.0f} MB/s with no stop, flat memory", ok))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
