"""The test suite in lanes, and one summary that names every lane: `make test` and `make test-quick` run this.

    python3 tools/lanes.py test          # every lane
    python3 tools/lanes.py test-quick    # setup, lint, unit and nbval (no browser, Binder-like, hub or paths lane)
    python3 tools/lanes.py test --only unit nbval     # some lanes (setup always runs first)
    python3 tools/lanes.py test --fail-fast           # stop at the first failed lane

A lane is one command: the setup (make's install of .venv), lint, or one pytest run that selects its tests by
folder and marker. The lanes run in stages, one stage after the other; the chains of a stage run side by side, each
chain one lane after the other:

    setup -> lint -> unit -> nbval -> paths -> browser
                                              binder
                                              hub -> site

unit, nbval and paths use both cores (pytest-xdist), so they run alone. The last stage's lanes each start servers
and browsers of their own and wait on them in turns, so side by side they keep both cores busy; the site runs after
the hub, which ends first. No two of them share a port, folder or file (each writes its own build/ report; the labs
and the Binder-like run work in copies of the checkout).

On two cores, from a fresh clone at load 1.3, these stages took 11 min 30 s, the machine busy 93 % of the time (21
min 18 s of CPU time, every process). Other orders, measured on the heavier suite of before (about 27 CPU minutes),
were no faster (every lane after the setup in two chains 14 min 54 s, in three chains 15 min 31 s and 16 min 45 s;
these stages 16 min 42 s, 16 min 26 s and 15 min 50 s), so the stages stay: the quick lanes report first.

Every lane that can run, runs, even after another one failed, so that one run shows everything that is wrong. A
failed setup stops everything after it (nothing can run without .venv); so does --fail-fast after any failed lane
(no lane starts after it), and so does Ctrl-C. The summary then names each lane as passed, failed, or not reached,
with its test counts (from pytest's JUnit XML), its wall time and its CPU time, and ends with one line of totals. The
exit status is 1 when any lane did not pass. Each lane's whole output is kept in build/lanes/<lane>.log.

Standard library only, Python 3.9 or newer: it runs before .venv exists, with the Python that creates it.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shlex
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ElementTree

ROOT = pathlib.Path(__file__).resolve().parent.parent
LOGS = ROOT / "build" / "lanes"
PYTEST = [".venv/bin/python", "-m", "pytest"]
# The markers a lane of its own takes; the unit lane is everything in tests/ and loopkit/ without them.
OWN_MARKERS = ["browser", "binder", "hub", "paths", "site"]


class Lane:
    """One lane: its name, what it holds (for the summary), its command, and what happened to it."""

    def __init__(self, name: str, holds: str, command: list[str], *, pytest: bool = True,
                 requires: str | None = None) -> None:
        self.name, self.holds, self.command, self.pytest = name, holds, command, pytest
        self.requires = requires            # a file the lane's tests live in: without it, the lane is absent
        self.status = "not reached"          # passed | failed | not reached | absent
        self.seconds: float | None = None
        self.cpu_seconds: float | None = None  # user + system time of the lane's processes (those that were waited for)
        self.counts: dict[str, int] = {}
        self.note = ""

    @property
    def log(self) -> pathlib.Path:
        return LOGS / f"{self.name}.log"

    @property
    def junit(self) -> pathlib.Path:
        return LOGS / f"{self.name}.xml"

    def full_command(self) -> list[str]:
        if not self.pytest:
            return self.command
        # --durations: the slowest tests of each lane, at the end of its log
        return [*PYTEST, *self.command, f"--junitxml={self.junit}", "-o", "junit_family=xunit2", "--durations=15"]


def pytest_lane(name: str, holds: str, *args: str, requires: str | None = None) -> Lane:
    return Lane(name, holds, list(args), requires=requires)


def lanes_for(target: str) -> list[list[list[Lane]]]:
    """The stages of ``target`` (test or test-quick). A stage is a list of chains that run side by side; a chain is a
    list of lanes that run one after the other."""
    not_own = " and ".join(f"not {marker}" for marker in OWN_MARKERS)
    setup = Lane("setup", "make's install: .venv, the locks, loopkit, the translations"
                 + (", Chromium and npm's tools" if target == "test" else ""),
                 # -j2: npm, apt and uv fetch side by side; -O: each step's output in one piece
                 ["make", "--no-print-directory", "-j2", "-O",
                  "test-setup" if target == "test" else "test-quick-setup"],
                 pytest=False)
    stages = [
        [[setup]],
        [[Lane("lint", "Ruff and mypy on loopkit/", ["make", "--no-print-directory", "lint"], pytest=False)]],
        [[pytest_lane("unit", "unit, property, docstring and widget tests (tests/, loopkit/), on two processes",
                      "-n", "2", "--dist", "loadfile", "-m", not_own, "tests", "loopkit")]],
        [[pytest_lane("nbval", "every chapter of both tracks under strict nbval, on two processes (a notebook's "
                      "cells stay in one process, in order)", "-n", "2", "--dist", "loadfile", "notebooks")]],
    ]
    if target == "test-quick":
        return stages
    return stages + [
        # three processes on two cores: each path waits for its fresh kernel to start, and a third process fills
        # that wait (measured alone: 61 s instead of 69 s)
        [[pytest_lane("paths", "every path the course offers, cell for cell, in fresh kernels, on three processes",
                      "-n", "3", "-m", "paths", "tests/test_paths.py", requires="tests/test_paths.py")]],
        [[pytest_lane("browser", "every chapter of both tracks once in JupyterLab in headless Chromium, on two "
                      "processes, a track on each (each with its own Chromium and lab)", "-n", "2", "--dist",
                      "loadgroup", "-m", "browser", "tests/browser")],
         [pytest_lane("binder", "a Binder-like environment runs every chapter", "-m", "binder",
                      "tests/test_binder.py")],
         [pytest_lane("hub", "twenty learners on a real JupyterHub", "-m", "hub", "tests/test_hub.py"),
          pytest_lane("site", "make site's build, and every page of both tracks in headless Chromium", "-m", "site",
                      "tests/browser/test_site.py")]],
    ]


def every_lane(stages: list[list[list[Lane]]]) -> list[Lane]:
    """The lanes of ``stages`` in the order the summary names them: stage by stage, chain by chain."""
    return [lane for stage in stages for chain in stage for lane in chain]


def read_counts(lane: Lane) -> dict[str, int]:
    """passed, failed, errors and skipped from the lane's JUnit XML (pytest writes it even when tests fail)."""
    try:
        root = ElementTree.parse(lane.junit).getroot()
    except (OSError, ElementTree.ParseError):
        return {}
    suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in suites:
        for key in totals:
            totals[key] += int(suite.get(key, 0))
    passed = totals["tests"] - totals["failures"] - totals["errors"] - totals["skipped"]
    return {"passed": passed, "failed": totals["failures"], "errors": totals["errors"], "skipped": totals["skipped"]}


def run_lane(lane: Lane, *, stream: bool, stop: threading.Event) -> None:
    """Run one lane; its output goes to its log, and to the terminal too when ``stream`` (a lane running alone)."""
    if lane.requires and not (ROOT / lane.requires).exists():
        lane.status, lane.note = "absent", f"{lane.requires} is not in this checkout"
        return
    lane.junit.unlink(missing_ok=True)
    started = time.monotonic()
    with lane.log.open("w", encoding="utf-8", buffering=1) as log:  # line by line, so the log shows progress
        log.write(f"$ {shlex.join(lane.full_command())}\n")
        log.flush()
        # unbuffered: a lane's output reaches its log (and the terminal) as it is written, not when a pipe's
        # buffer fills
        process = subprocess.Popen(lane.full_command(), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, text=True, errors="replace", bufsize=1,
                                   env={**os.environ, "PYTHONUNBUFFERED": "1"})
        assert process.stdout is not None
        for line in process.stdout:
            log.write(line)
            if stream:
                sys.stdout.write(line)
                sys.stdout.flush()
        code, lane.cpu_seconds = wait_with_cpu_time(process)
    lane.seconds = time.monotonic() - started
    if lane.pytest:
        lane.counts = read_counts(lane)
    if code == 0:
        lane.status = "passed"
    else:
        lane.status = "failed"
        pytest_notes = {5: "pytest collected no test", 2: "interrupted"} if lane.pytest else {}
        lane.note = pytest_notes.get(code, f"exit status {code}")
        if stop is not None and stop.is_set():
            lane.note = "interrupted"


def wait_with_cpu_time(process: subprocess.Popen) -> tuple[int, float]:
    """Wait for ``process``; its exit status and the CPU seconds it and its waited-for children used.

    On two cores the lanes that run side by side share the CPU, so a lane's wall time says little about what it costs;
    its CPU time does (the summary shows both)."""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, usage.ru_utime + usage.ru_stime


def machine_cpu_seconds(stat: pathlib.Path = pathlib.Path("/proc/stat")) -> tuple[float, float] | None:
    """The whole machine's (busy, total) CPU seconds since it booted, all cores, from the first line of /proc/stat
    (Linux); busy is all but idle and waiting for I/O. None where there is no /proc/stat.

    A lane's CPU time counts the processes it waited for; processes that outlive their parent (Chromium's
    renderers, a kernel a server left behind) are not among them, nor is anything else the machine runs. The
    difference of two readings counts them all."""
    try:
        # user nice system idle iowait irq softirq steal (guest time is counted inside user)
        ticks = [int(value) for value in stat.read_text().splitlines()[0].split()[1:9]]
        idle, iowait = ticks[3], ticks[4]
    except (OSError, IndexError, ValueError):
        return None
    per_second = os.sysconf("SC_CLK_TCK")
    total = sum(ticks)
    return (total - idle - iowait) / per_second, total / per_second


def failure_excerpt(lane: Lane, lines: int = 60) -> str:
    """The end of a failed lane's log: pytest's short summary, or the last lines."""
    text = lane.log.read_text(encoding="utf-8", errors="replace").splitlines()
    marks = [i for i, line in enumerate(text) if "short test summary info" in line]
    start = marks[-1] if marks else max(0, len(text) - lines)
    return "\n".join(text[start:start + lines])


def run_chain(chain: list[Lane], stop: threading.Event, *, stream: bool, fail_fast: bool) -> None:
    """Run the lanes of ``chain`` one after the other, until ``stop`` is set (Ctrl-C, or a failed lane with
    --fail-fast: then no lane of any chain starts after it)."""
    for lane in chain:
        if stop.is_set():
            return
        if stream:
            print(f"\n=== lane {lane.name}: {lane.holds}", flush=True)
        run_lane(lane, stream=stream, stop=stop)
        if not stream:
            print(f"--- lane {lane.name}: {lane.status} in {format_seconds(lane.seconds)} "
                  f"{format_counts(lane.counts)}", flush=True)
            if lane.status == "failed":
                print(failure_excerpt(lane), flush=True)
        if lane.status == "failed" and fail_fast:
            stop.set()


def run_stage(stage: list[list[Lane]], stop: threading.Event, *, fail_fast: bool = False) -> None:
    """Run the chains of ``stage`` side by side. A chain alone streams its output; chains side by side write only
    their logs, and a line as each lane ends (with the end of its log when it failed)."""
    if len(stage) == 1:
        run_chain(stage[0], stop, stream=True, fail_fast=fail_fast)
        return
    for chain in stage:
        print(f"\n=== side by side: {' -> '.join(lane.name for lane in chain)}", flush=True)
    print("(their output: build/lanes/<lane>.log)", flush=True)
    threads = [threading.Thread(target=run_chain, args=(chain, stop), kwargs={"stream": False, "fail_fast": fail_fast}, daemon=True)
               for chain in stage]
    for thread in threads:
        thread.start()
    for thread in threads:
        while thread.is_alive():
            thread.join(timeout=1)  # a short wait, so that Ctrl-C reaches the main thread


def format_seconds(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest:02d} s" if minutes else f"{rest} s"


def format_counts(counts: dict[str, int]) -> str:
    shown = [f"{counts[key]} {key}" for key in ("passed", "failed", "errors", "skipped") if counts.get(key)]
    return ", ".join(shown)


def summary(target: str, stages: list[list[list[Lane]]], seconds: float, load: tuple[float, float],
            machine: tuple[float, float] | None = None) -> str:
    """The summary: a row per lane, then the totals. ``machine`` is the whole machine's (busy, total) CPU seconds
    during the run (:func:`machine_cpu_seconds`), when known."""
    lanes = every_lane(stages)
    width = max(len(lane.name) for lane in lanes)
    lines = ["", f"=== make {target}: every lane, in order (logs in build/lanes/)"]
    for lane in lanes:
        detail = format_counts(lane.counts)
        note = f" ({lane.note})" if lane.note else ""
        cpu = f"CPU {format_seconds(lane.cpu_seconds)}" if lane.cpu_seconds is not None else ""
        lines.append(f"  {lane.name:<{width}}  {lane.status:<11} {format_seconds(lane.seconds):>12}  {cpu:>14}  "
                     f"{detail}{note}")
    totals = {key: sum(lane.counts.get(key, 0) for lane in lanes) for key in ("passed", "failed", "errors",
                                                                             "skipped")}
    failed = [lane.name for lane in lanes if lane.status == "failed"]
    unreached = [lane.name for lane in lanes if lane.status == "not reached"]
    cpu = sum(lane.cpu_seconds or 0 for lane in lanes)
    lines.append(f"  wall time {format_seconds(seconds)}, CPU time {format_seconds(cpu)} (the processes the lanes "
                 f"waited for) on {os.cpu_count()} cores; "
                 f"load average (1 min) {load[0]:.1f} at the start, {load[1]:.1f} at the end")
    if machine and machine[1] > 0:
        lines.append(f"  the whole machine meanwhile (/proc/stat, every process): {format_seconds(machine[0])} of CPU "
                     f"time, busy {100 * machine[0] / machine[1]:.0f} % of the time on its {os.cpu_count()} cores")
    verdict = "; ".join(f"{what}: {', '.join(names)}" for what, names in (("failed", failed),
                                                                          ("not reached", unreached)) if names)
    verdict = verdict or "every lane passed"
    lines.append(f"  {verdict}")
    tail = f", {totals['skipped']} skipped" if totals["skipped"] else ""
    # pytest's own closing line format, so that CI reads the whole run's counts from the last line
    lines.append(f"total: {totals['passed']} passed, {totals['failed'] + totals['errors']} failed{tail}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("target", choices=["test", "test-quick"])
    parser.add_argument("--only", nargs="+", metavar="LANE", help="run only these lanes (after the setup)")
    parser.add_argument("--fail-fast", action="store_true", help="stop at the first lane that does not pass")
    args = parser.parse_args(argv)

    stages = lanes_for(args.target)
    known = [lane.name for lane in every_lane(stages)]
    if args.only:
        unknown = sorted(set(args.only) - set(known))
        if unknown:
            parser.error(f"no lane {', '.join(unknown)} in make {args.target}; its lanes: {', '.join(known)}")
        stages = [[[lane for lane in chain if lane.name == "setup" or lane.name in args.only] for chain in stage]
                  for stage in stages]
        stages = [[chain for chain in stage if chain] for stage in stages]
        stages = [stage for stage in stages if stage]
    LOGS.mkdir(parents=True, exist_ok=True)
    load_at_start = os.getloadavg()[0]
    machine_at_start = machine_cpu_seconds()
    started = time.monotonic()
    stop = threading.Event()
    try:
        for stage in stages:
            run_stage(stage, stop, fail_fast=args.fail_fast)
            setup_failed = any(lane.name == "setup" and lane.status == "failed" for chain in stage for lane in chain)
            if setup_failed or stop.is_set():
                break
    except KeyboardInterrupt:
        stop.set()
        for lane in every_lane(stages):
            if lane.status == "not reached" and lane.seconds is None and lane.log.exists():
                lane.status, lane.note = "failed", "interrupted"
    machine_at_end = machine_cpu_seconds()
    machine = None
    if machine_at_start and machine_at_end:
        machine = (machine_at_end[0] - machine_at_start[0], machine_at_end[1] - machine_at_start[1])
    print(summary(args.target, stages, time.monotonic() - started, (load_at_start, os.getloadavg()[0]), machine),
          flush=True)
    return 0 if all(lane.status in ("passed", "absent") for lane in every_lane(stages)) else 1


if __name__ == "__main__":
    sys.exit(main())
