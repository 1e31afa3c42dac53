"""Run the hub test and record where its CPU time goes: the hub, the proxy, the learners' servers, the test itself.

The hub test (tests/test_hub.py) records memory and wall-clock times, not CPU time. The sizing model
(tools/hub_sizing.py) needs CPU time too: how many core-seconds one learner's arrival costs, and how much of that
is the hub's (one process, so one core at most) and how much the learner's own server's (which, on Kubernetes, runs
on a user node). This script starts the hub test as its child and samples the whole process tree every quarter
second, so the test and its figures stay exactly as they are.

    python tools/hub_cpu.py watch --out build/hub-cpu.json         # the hub test, twenty learners at once
    python tools/hub_cpu.py one-learner --out build/hub-one.json   # learners one at a time, on the same hub
    python tools/hub_cpu.py record --watched build/hub-cpu-run*.json --lone build/hub-one.json
                                                                   # the record tools/hub_sizing.py reads

``one-learner`` starts the hub test's own hub and git server (tests/hub/) and sends learners through the same
link one after the other, each alone on the hub: the time from the link to chapter 00 of a learner who waits for
no one, and the CPU time of that learner's server and of the hub for that one arrival.

Accounting: at any moment, the CPU time of the tree is the sum over its live processes of their own time plus the
time of the children they have waited for (Linux adds a reaped child's time to its parent's). So a short-lived
``git`` that a server waited for is counted in that server's row, and each CPU second is counted once. A process is
put in a row by its command line (``ROWS``); the rows' time lines are written to ``--out`` with the machine's own
busy time over the same samples, so a reader can see how much the rest of the machine was doing.

The login rush is the span from the last sample before the first learner's server appears to the last sample
before the first kernel appears (the hub test's first test starts servers and no kernel; its second starts the
kernels). ``record`` turns each run's time line into that span's CPU seconds by row, next to the figures the hub
test wrote for the same run (``build/hub-sizing.json``, copied as ``hub-sizing-runN.json`` beside
``hub-cpu-runN.json``), and says how busy the rest of the machine was: the model is only tested on runs where the
machine was the hub test's alone.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import platform
import sys
import time

import psutil

ROOT = pathlib.Path(__file__).resolve().parent.parent
#: Row -> the words a command line must contain to belong to it; the first row that matches wins.
ROWS = {
    "proxy": ("configurable-http-proxy",),
    "kernels": ("ipykernel_launcher",),
    "servers": ("jupyterhub-singleuser",),
    "hub": ("bin/jupyterhub",),
}
OTHER = "test"  # pytest itself (the learners' browsers, the git server's thread) and its git http-backend children
SAMPLE_SECONDS = 0.25


def row_of(process: psutil.Process) -> str:
    try:
        words = " ".join(process.cmdline())
        name = process.name()
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return OTHER  # gone between the listing and the look: its time is in its parent's row already
    for row, needles in ROWS.items():
        if any(needle in words for needle in needles):
            return row
    if name == "git":
        return "git"  # a git process not yet waited for: nbgitpuller's clone (a server's) or http-backend (the test's)
    return OTHER


def tree_seconds(root: psutil.Process, rows: dict[int, str]) -> dict[str, float]:
    """CPU seconds of the live tree under ``root``, by row: own time plus the time of children already waited for."""
    totals = dict.fromkeys([*ROWS, "git", OTHER], 0.0)
    try:
        processes = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return totals
    for process in processes:
        try:
            times = process.cpu_times()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        row = rows.setdefault(process.pid, row_of(process))
        # A server's reaped children are its git clones; the test's are git http-backend: both stay in the row of
        # the process that ran them, except that a server's git is the learner's work and is counted with it.
        totals[row] += times.user + times.system + times.children_user + times.children_system
    return totals


def machine_busy_seconds() -> float:
    """Core-seconds the whole machine has been busy since boot (every process, ours and others')."""
    times = psutil.cpu_times()
    return times.user + times.nice + times.system + times.irq + times.softirq + times.steal


def watch(command: list[str]) -> dict:
    started = time.monotonic()
    child = psutil.Popen(command, cwd=ROOT)
    rows: dict[int, str] = {}
    samples = []
    while child.poll() is None:
        samples.append({"t": round(time.monotonic() - started, 2), "load_1min": os.getloadavg()[0],
                        "machine_busy": round(machine_busy_seconds(), 2),
                        "seconds": {k: round(v, 2) for k, v in tree_seconds(child, rows).items()},
                        "processes": _count(child, rows)})
        time.sleep(SAMPLE_SECONDS)
    return {"command": command, "exit_code": child.returncode, "sample_seconds": SAMPLE_SECONDS,
            "machine": {"cores": psutil.cpu_count(), "platform": platform.platform(),
                        "python": platform.python_version()},
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "samples": samples}


def _count(root: psutil.Process, rows: dict[int, str]) -> dict[str, list[float]]:
    """Row -> [how many processes, their resident memory in MiB]."""
    counts: dict[str, list[float]] = {}
    try:
        for process in root.children(recursive=True):
            row = rows.get(process.pid) or row_of(process)
            try:
                rss = process.memory_info().rss / 2**20
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            entry = counts.setdefault(row, [0, 0.0])
            entry[0] += 1
            entry[1] = round(entry[1] + rss, 1)
    except psutil.NoSuchProcess:
        pass
    return counts


def wait_for_a_quiet_machine(patience: float) -> None:
    """Wait (at most ``patience`` seconds) until the machine has been idle for 5 s: under 10 % of it busy."""
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        busy = machine_busy_seconds()
        time.sleep(5.0)
        if (machine_busy_seconds() - busy) / (5.0 * psutil.cpu_count()) < 0.10:
            return


def one_learner_at_a_time(count: int, quiet_wait: float = 0.0) -> dict:
    """Start the hub test's hub, then send ``count`` learners through the link, each alone on the hub."""
    import tempfile

    sys.path.insert(0, str(ROOT / "tests"))
    from hub.gitserver import GitHttpServer
    from hub.hubprocess import Hub
    from hub.learner import Learner
    from test_hub import CHAPTERS, git, local_link

    folder = pathlib.Path(tempfile.mkdtemp(prefix="hub-one-"))
    bare = folder / "git" / "loopkit-workbook" / "loopkit"
    git("clone", "--quiet", "--bare", str(ROOT), str(bare))
    git("update-ref", "refs/heads/main", git("rev-parse", "HEAD", cwd=ROOT), cwd=bare)
    git("symbolic-ref", "HEAD", "refs/heads/main", cwd=bare)
    (folder / "hub").mkdir()
    hub = Hub(folder / "hub")
    server = GitHttpServer(folder / "git").start()
    arrivals = []
    try:
        hub.start()
        hub_process = hub.process
        time.sleep(3.0)  # let the hub settle after its start
        for number in range(1, count + 1):
            name = f"learner{number:02d}"
            wait_for_a_quiet_machine(quiet_wait)
            load = os.getloadavg()[0]
            busy = machine_busy_seconds()
            hub_before = sum(hub_process.cpu_times()[:2])
            mine_before = sum(psutil.Process().cpu_times()[:4])  # this process and its git http-backend children
            started = time.monotonic()
            learner = Learner(name, hub.url)
            pulled = learner.follow_link(local_link(hub.url, server.url))
            page = learner.open_page(pulled.redirect_url)
            seconds = time.monotonic() - started
            assert page.get("treePath") == CHAPTERS[0], page.get("treePath")
            server_process = hub.server_process(name)
            server_cpu = sum(server_process.cpu_times()[:4])  # user, system, and the git it waited for (no iowait)
            hub_cpu = sum(hub_process.cpu_times()[:2]) - hub_before
            me = psutil.Process()
            others = machine_busy_seconds() - busy - server_cpu - hub_cpu - sum(me.cpu_times()[:4]) + mine_before
            arrivals.append({"learner": name, "link_to_chapter_00_seconds": round(seconds, 2),
                             "server_cpu_seconds": round(server_cpu, 2), "hub_cpu_seconds": round(hub_cpu, 2),
                             "rest_of_machine_share": round(max(0.0, others) / (seconds * psutil.cpu_count()), 3),
                             "load_1min_before": round(load, 2)})
            print(arrivals[-1], flush=True)
            time.sleep(2.0)
    finally:
        left = hub.stop()
        server.stop()
    return {"scenario": "one learner at a time through the link, each alone on the hub (tools/hub_cpu.py)",
            "machine": {"cores": psutil.cpu_count(), "platform": platform.platform(),
                        "python": platform.python_version()},
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "arrivals": arrivals,
            "processes_left": len(left)}


def rush_span(samples: list[dict]) -> tuple[dict, dict]:
    """The samples that open and close the login rush: before the first server, before the first kernel."""
    first_server = next((n for n, s in enumerate(samples) if "servers" in s["processes"]), None)
    first_kernel = next((n for n, s in enumerate(samples) if "kernels" in s["processes"]), None)
    if not first_server or first_kernel is None or first_kernel <= first_server:
        raise ValueError("the time line has no login rush (no server, or no kernel after the servers)")
    return samples[first_server - 1], samples[first_kernel - 1]


def summarize_run(watched: dict, figures: dict, source: str) -> dict:
    """One hub test run for the record: the hub test's own figures and the rush's CPU seconds by row."""
    opened, closed = rush_span(watched["samples"])
    seconds = {row: round(closed["seconds"][row] - opened["seconds"][row], 2) for row in opened["seconds"]}
    seconds["servers"] = round(seconds["servers"] + seconds.pop("git"), 2)  # a clone not yet waited for
    seconds.pop("kernels")  # none in the rush, by its definition
    span = closed["t"] - opened["t"]
    ours = sum(seconds.values())
    machine = closed["machine_busy"] - opened["machine_busy"]
    cores = watched["machine"]["cores"]
    # [count, MiB] per row; the first run recorded counts only (memory was added to the time line after it)
    kernels = [s["processes"]["kernels"] for s in watched["samples"] if isinstance(s["processes"].get("kernels"), list)]
    servers = [s["processes"]["servers"] for s in watched["samples"] if isinstance(s["processes"].get("servers"), list)]
    return {
        "source": source,
        "date": watched["date"],
        "machine": figures["machine"],
        "load_1min": {"rush_start": round(opened["load_1min"], 2), "rush_end": round(closed["load_1min"], 2)},
        "learners": figures["learners"],
        "hub_peak_mib": figures["hub_peak_mib"],
        "proxy_peak_mib": figures["proxy_peak_mib"],
        "learner_peak_mib": figures["learner_peak_mib"],
        "link_to_chapter_00_seconds": figures["link_to_chapter_00_seconds"],
        "chapters_00_and_05_all_learners_seconds": figures["chapters_00_and_05_all_learners_seconds"],
        "failures": figures["failures"]["count"],
        "rush_span_seconds": round(span, 2),
        "rush_cpu_seconds": seconds,
        "rest_of_machine_share": round(max(0.0, machine - ours) / (span * cores), 3),
        "kernel_mib_each": max(round(rss / count, 1) for count, rss in kernels) if kernels else None,
        "server_mib_each": max(round(rss / count, 1) for count, rss in servers) if servers else None,
    }


def record(watched_paths: list[pathlib.Path], lone_paths: list[pathlib.Path]) -> dict:
    runs = []
    for path in watched_paths:
        figures_path = path.with_name(path.name.replace("hub-cpu-", "hub-sizing-"))
        if not figures_path.exists():
            raise SystemExit(f"{figures_path}: missing; copy build/hub-sizing.json there after the run of {path}")
        watched = json.loads(path.read_text(encoding="utf-8"))
        if watched.get("exit_code") != 0:
            raise SystemExit(f"{path}: the hub test failed in this run (exit {watched.get('exit_code')})")
        figures = json.loads(figures_path.read_text(encoding="utf-8"))
        runs.append(summarize_run(watched, figures, f"{figures_path.name} and {path.name}"))
    lone = None
    for path in lone_paths:  # several sessions of lone arrivals: one list, each arrival with its own load
        session = json.loads(path.read_text(encoding="utf-8"))
        if lone is None:
            lone = {key: value for key, value in session.items() if key not in ("arrivals", "date", "exit_code")}
            lone["dates"], lone["arrivals"] = [], []
        lone["dates"].append(session["date"])
        lone["arrivals"] += session["arrivals"]
    return {
        "about": ("What tests/test_hub.py measured, watched by tools/hub_cpu.py: twenty learners follow the "
                  "workshop's nbgitpuller link at once on one machine (JupyterHub 6.1.1, local processes), then "
                  "each runs chapters 00 and 05. tools/hub_sizing.py reads this file; "
                  "tests/test_hub_sizing.py tests the model on it."),
        "units": {"mib": "MiB of resident memory (RSS) of a process tree, sampled every 0.5 s (the hub test)",
                  "cpu_seconds": "user plus system CPU seconds, children waited for included (tools/hub_cpu.py)",
                  "rest_of_machine_share": "the share of the machine's cores busy with other processes during "
                                           "the rush, or during a lone arrival (the machine's busy time minus "
                                           "the hub test's)",
                  "date": "when the run, or the session of lone arrivals, ended (UTC)",
                  "lone_arrivals": "each learner alone on the hub; server_cpu_seconds is the server's user and "
                                   "system time with the git it waited for (the 21:58 session also added the "
                                   "kernel's iowait field, 0.0 for these servers)"},
        "runs": runs,
        "lone_arrivals": lone,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    watching = commands.add_parser("watch", help="run the hub test and sample its process tree")
    watching.add_argument("--out", type=pathlib.Path, default=ROOT / "build" / "hub-cpu.json")
    watching.add_argument("pytest_args", nargs="*", default=["tests/test_hub.py", "-m", "hub", "-s"])
    alone = commands.add_parser("one-learner", help="learners one at a time, each alone on the hub")
    alone.add_argument("--out", type=pathlib.Path, default=ROOT / "build" / "hub-one.json")
    alone.add_argument("--count", type=int, default=5)
    alone.add_argument("--quiet-wait", type=float, default=0.0,
                       help="before each learner, wait up to this many seconds for the machine to be idle")
    recording = commands.add_parser("record", help="write the record tools/hub_sizing.py reads")
    recording.add_argument("--watched", type=pathlib.Path, nargs="+", required=True)
    recording.add_argument("--lone", type=pathlib.Path, nargs="*", default=[])
    recording.add_argument("--out", type=pathlib.Path, default=ROOT / "docs" / "z2jh" / "measured-hub.json")
    options = parser.parse_args(argv)
    if options.command == "record":
        made = record(options.watched, options.lone)
        options.out.write_text(json.dumps(made, indent=2) + "\n", encoding="utf-8")
        print(f"{len(made['runs'])} runs written to {options.out}")
        return 0
    if options.command == "watch":
        result = watch([sys.executable, "-m", "pytest", *options.pytest_args])
        note = f"{len(result['samples'])} samples; the hub test exited {result['exit_code']}"
    else:
        result = one_learner_at_a_time(options.count, options.quiet_wait)
        result["exit_code"] = 0
        note = f"{len(result['arrivals'])} learners"
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"{note}, written to {options.out}")
    return result["exit_code"]


if __name__ == "__main__":
    sys.exit(main())
