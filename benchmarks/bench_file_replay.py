"""A full replay, with no stop, of one 200 MB transcript (issue 21): at least 30 MB/s, in flat memory.

Usage: python benchmarks/bench_file_replay.py [--mb 200]

Writes one coding session of about 200 MB (turns of the mix in bench_directory_replay.py: reads of a codebase,
greps, edits, test runs, each with a tool result of 1-3 KB; varied enough that the detector never stops it, so every
batch is replayed) in two formats: Claude Code JSON Lines, streamed line by line, and an Anthropic Messages JSON
document, read one message at a time because it is larger than what is parsed whole. Each is replayed by
``python -m loopkit replay`` in a subprocess, and so is a file of a tenth of the size: flat memory means the peaks
are close. MB/s is given per wall second and per CPU second (user + system), with the load average, since a shared
machine slows the first far more than the second.

The verdict is judged on the figures the result line prints, and says which: the MB/s per wall second of each
format (what a user waits for; on a loaded machine it misses, and the line says at what load), no stop, and flat
memory, which here means a peak RSS at most FLAT_RATIO times that of the file a tenth of the size. The MB/s per CPU
second is printed beside it for a loaded machine, and judged by nothing.
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
#: "Flat memory": the 200 MB file's peak RSS is at most this many times the peak of a file a tenth of its size.
FLAT_RATIO = 1.5


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
    ok, broken, rates, missed = True, False, [], []
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
            flat = peak <= FLAT_RATIO * small_peak
            missed += [f"{name}: {why}" for why, bad in (
                (f"{rate:.1f} MB/s per wall second", rate < GOAL_MB_S), (f"exit code {code}", code != 0),
                (f"peak {peak:.1f} MB > {FLAT_RATIO}x {small_peak:.1f} MB", not flat)) if bad]
            ok &= code == 0 and rate >= GOAL_MB_S and flat
            broken |= code != 0  # the session is built never to stop: another exit code is a bug
            rates.append(f"{name} {rate:.1f} MB/s (wall), peak {peak:.1f} MB vs {small_peak:.1f} MB at a tenth")
            print(f"{name}: {size / 1e6:.1f} MB, exit code {code}: {wall:.1f} s -> {rate:.1f} MB/s per wall second, "
                  f"{cpu_rate:.1f} MB/s per CPU second ({cpu:.1f} s; load average {load:.1f}); peak RSS "
                  f"{peak:.1f} MB (a tenth of the size: {small_peak:.1f} MB)")
    goal = (f">= {GOAL_MB_S:.0f} MB/s per wall second with no stop, flat memory (peak <= {FLAT_RATIO}x a tenth-size "
            "file's)")
    print(f"goal {goal}: {'ok' if ok else 'MISSED (' + '; '.join(missed) + ')'}")
    print(result_line(f"{'; '.join(rates)} (load {os.getloadavg()[0]:.1f})", goal, ok))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
