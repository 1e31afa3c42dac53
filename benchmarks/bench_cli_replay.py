"""Throughput of `python -m loopkit replay` on a large JSON Lines transcript (not a test: numbers vary by machine).

Generates a 200k-line OpenAI-chat transcript (100k assistant turns, each followed by a tool result; mostly distinct
calls over five tools, with a short repeat every 97 turns), then measures:

- parsing alone (loopkit.traces.adapters.iter_trace), in lines per second;
- parsing plus the detector (loopkit.traces.replay.replay_batches), in batches per second;
- the whole command in a subprocess, with its peak RSS (steady memory is what tests/test_memory_stream.py checks).

Usage: python benchmarks/bench_cli_replay.py [LINES]
"""

from __future__ import annotations

import json
import pathlib
import resource
import subprocess
import sys
import tempfile
import time

from loopkit import PinnedMiddleware
from loopkit.traces.adapters import iter_trace
from loopkit.traces.replay import replay_batches

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from report import result_line  # noqa: E402

TOOLS = ("read_file", "bash", "grep", "web_search", "ls")


def write_transcript(path: pathlib.Path, lines: int) -> None:
    with open(path, "w") as handle:
        for turn in range(lines // 2):
            n = turn - turn % 97 if turn % 97 < 3 else turn
            args = {"path": f"src/m{n}.py", "command": f"run {n}", "pattern": f"p{n}", "query": f"q{n}"}
            handle.write(json.dumps({"role": "assistant", "content": "x" * 60, "tool_calls": [
                {"id": f"c{turn}", "type": "function",
                 "function": {"name": TOOLS[n % len(TOOLS)], "arguments": json.dumps(args)}}]}) + "\n")
            handle.write(json.dumps({"role": "tool", "tool_call_id": f"c{turn}", "content": "x" * 60}) + "\n")


def best_of(runs: int, work) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def main(argv: list[str]) -> int:
    lines = int(argv[0]) if argv else 200_000
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder, "big.jsonl")
        write_transcript(path, lines)
        size_mb = path.stat().st_size / 1e6
        batches = lines // 2
        print(f"transcript: {lines:,} lines, {batches:,} batches, {size_mb:.1f} MB")

        parse = best_of(3, lambda: sum(1 for _ in iter_trace(path)))
        print(f"parse only          {lines / parse:>12,.0f} lines/s   ({parse:.2f} s)")

        def replay():
            for _ in replay_batches(iter_trace(path), PinnedMiddleware()):
                pass

        full = best_of(3, replay)
        print(f"parse + detector    {batches / full:>12,.0f} batches/s ({full:.2f} s)")

        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "loopkit", "replay", str(path)], stdout=subprocess.DEVNULL, check=True)
        elapsed = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"command, end to end {batches / elapsed:>12,.0f} batches/s ({elapsed:.2f} s), peak RSS {peak:.1f} MB")
    print(result_line(f"{size_mb / elapsed:.1f} MB/s end to end, peak {peak:.1f} MB"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
