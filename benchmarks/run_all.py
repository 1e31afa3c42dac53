"""Run every benchmarks/bench_*.py, one after the other, and print one table of their results (`make bench`).

Usage: python benchmarks/run_all.py [--timeout SECONDS] [NAME ...]   (NAME: bench_middleware, ...; default: all)

Each script runs with this interpreter from the repository root, without arguments; its output is shown as it
finishes. Its row in the table comes from the last line it printed if that line is the protocol's JSON object
(``report.result_line``: result, goal, met); otherwise the row shows the last line it printed and its exit code.
A benchmark that misses its goal, fails or times out is a row like any other, and the runs go on. The exit status
is 1 when any script exited with a non-zero status (a benchmark exits non-zero only for a goal it measures side by
side, or when it breaks; an absolute figure is reported, with the machine, and never fails).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import pathlib
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from report import machine  # noqa: E402


@dataclasses.dataclass(frozen=True)
class Row:
    benchmark: str
    result: str
    goal: str
    verdict: str  # ok, MISSED, "-" (no goal), or what went wrong
    exit_code: int | None  # None: timed out
    seconds: float


def verdict_of(met) -> str:
    """
    >>> [verdict_of(m) for m in (True, False, None)]
    ['ok', 'MISSED', '-']
    """
    return {True: "ok", False: "MISSED"}.get(met, "-")


def row_from(name: str, stdout: str, stderr: str, exit_code: int | None, seconds: float) -> Row:
    """A benchmark's row: its JSON line when it printed one last, else its last line and its exit code.

    >>> row_from("bench_x", 'rate 5/s\\n{"result": "5/s", "goal": ">= 4/s", "met": true}\\n', "", 0, 1.0).verdict
    'ok'
    >>> row_from("bench_y", "10 chapters\\n", "", 0, 2.0).result
    '10 chapters (no result line)'
    >>> row_from("bench_z", "", "Traceback ...\\nValueError: bad\\n", 1, 0.5).result
    'ValueError: bad (no result line)'
    """
    lines = [line for line in stdout.splitlines() if line.strip()]
    if lines:
        try:
            found = json.loads(lines[-1])
        except json.JSONDecodeError:
            found = None
        if isinstance(found, dict) and isinstance(found.get("result"), str):
            verdict = verdict_of(found.get("met"))
            if exit_code != 0:
                verdict = f"{verdict}, exit {exit_code}" if exit_code is not None else "timed out"
            return Row(name, found["result"], found.get("goal") or "-", verdict, exit_code, seconds)
    last = (lines or [line for line in stderr.splitlines() if line.strip()] or ["(printed nothing)"])[-1]
    if exit_code is None:
        verdict = "timed out"
    else:
        verdict = "-" if exit_code == 0 else f"exit {exit_code}"
    return Row(name, f"{last.strip()} (no result line)", "-", verdict, exit_code, seconds)


def run(script: pathlib.Path, timeout: float) -> Row:
    print(f"== {script.relative_to(HERE.parent)}", flush=True)
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, str(script)], cwd=HERE.parent, capture_output=True, text=True,
                              timeout=timeout)
        stdout, stderr, code = done.stdout, done.stderr, done.returncode
    except subprocess.TimeoutExpired as expired:
        stdout = expired.stdout.decode() if isinstance(expired.stdout, bytes) else (expired.stdout or "")
        stderr = expired.stderr.decode() if isinstance(expired.stderr, bytes) else (expired.stderr or "")
        code = None
    seconds = time.monotonic() - started
    print(stdout, end="" if stdout.endswith("\n") or not stdout else "\n")
    if stderr:
        print(stderr, end="" if stderr.endswith("\n") else "\n", file=sys.stderr)
    return row_from(script.stem, stdout, stderr, code, seconds)


def table(rows: list[Row]) -> str:
    header = ("benchmark", "result", "goal", "verdict", "exit", "time")
    cells = [header] + [(r.benchmark, r.result, r.goal, r.verdict,
                         "-" if r.exit_code is None else str(r.exit_code), f"{r.seconds:.0f} s") for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="benchmarks to run (file names without .py); default: all")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds one benchmark may take")
    args = parser.parse_args(argv)
    scripts = sorted(HERE.glob("bench_*.py"))
    if args.names:
        scripts = [s for s in scripts if s.stem in args.names]
        missing = set(args.names) - {s.stem for s in scripts}
        if missing:
            parser.error(f"no such benchmark: {', '.join(sorted(missing))}")
    before = machine()
    rows = [run(script, args.timeout) for script in scripts]
    print(f"\n{len(rows)} benchmarks on {before}; at the end: load {machine().rsplit('load ', 1)[1]}")
    print(table(rows))
    return 1 if any(row.exit_code != 0 for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
