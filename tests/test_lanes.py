"""tools/lanes.py, the runner of `make test` and `make test-quick`: which lanes each runs, in which order, and a
summary that names every lane, including those a failure kept from running."""

from __future__ import annotations

import importlib.util

from notebook_tools import ROOT

spec = importlib.util.spec_from_file_location("lanes", ROOT / "tools" / "lanes.py")
lanes = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lanes)


def names(stages):
    return [[[lane.name for lane in chain] for chain in stage] for stage in stages]


def test_make_test_runs_the_lanes_that_fill_both_cores_alone_and_the_waiting_ones_side_by_side():
    assert names(lanes.lanes_for("test")) == [[["setup"]], [["lint"]], [["unit"]], [["nbval"]], [["paths"]],
                                              [["browser"], ["binder"], ["hub", "site"]]]
    assert names(lanes.lanes_for("test-quick")) == [[["setup"]], [["lint"]], [["unit"]], [["nbval"]]]


def test_the_unit_lane_leaves_out_every_marker_that_has_a_lane_of_its_own():
    [unit] = [lane for lane in lanes.every_lane(lanes.lanes_for("test")) if lane.name == "unit"]
    marker = unit.command[unit.command.index("-m") + 1]
    assert marker == "not browser and not binder and not hub and not paths and not site"
    assert "notebooks" not in unit.command and "-n" in unit.command


def test_the_summary_names_each_lane_and_what_a_failure_kept_from_running():
    stages = lanes.lanes_for("test")
    status = {"setup": "passed", "lint": "passed", "unit": "failed", "nbval": "not reached", "paths": "absent"}
    for lane in lanes.every_lane(stages):
        lane.status = status.get(lane.name, "not reached")
    [unit] = [lane for lane in lanes.every_lane(stages) if lane.name == "unit"]
    unit.counts, unit.seconds = {"passed": 10, "failed": 2, "errors": 1, "skipped": 3}, 75
    text = lanes.summary("test", stages, 80, (1.5, 2.5))
    rows = {line.split()[0]: line for line in text.splitlines() if line.startswith("  ") and len(line.split()) > 1}
    assert "failed" in rows["unit"] and "1 min 15 s" in rows["unit"] and "10 passed, 2 failed, 1 errors" in rows["unit"]
    for name in ("nbval", "browser", "binder", "hub", "site"):
        assert "not reached" in rows[name], rows[name]
    assert "absent" in rows["paths"]
    assert "failed: unit; not reached: nbval, browser, binder, hub, site" in text
    assert text.splitlines()[-1] == "total: 10 passed, 3 failed, 3 skipped"


def test_the_summary_counts_the_whole_machines_cpu_time_from_proc_stat(tmp_path):
    """Chromium's renderers outlive the processes a lane waits for, so the lanes' own CPU time misses them; the
    machine's line, from two readings of /proc/stat, does not."""
    hz = lanes.os.sysconf("SC_CLK_TCK")
    before, after = tmp_path / "before", tmp_path / "after"
    # user nice system idle iowait irq softirq steal guest guest_nice, in clock ticks
    before.write_text(f"cpu  {100 * hz} 0 {20 * hz} {500 * hz} {5 * hz} 0 0 0 0 0\ncpu0 1 2 3\n")
    after.write_text(f"cpu  {190 * hz} 0 {50 * hz} {540 * hz} {15 * hz} 0 0 0 0 0\ncpu0 1 2 3\n")
    start, end = lanes.machine_cpu_seconds(before), lanes.machine_cpu_seconds(after)
    assert start == (120, 625) and end == (240, 795)
    machine = (end[0] - start[0], end[1] - start[1])  # 120 s busy of 170 s: the idle and iowait ticks are not busy
    text = lanes.summary("test-quick", lanes.lanes_for("test-quick"), 85, (1.0, 2.0), machine)
    assert "the whole machine meanwhile (/proc/stat, every process): 2 min 00 s of CPU time, busy 71 %" in text
    assert lanes.machine_cpu_seconds(tmp_path / "no-such-file") is None
    assert "whole machine" not in lanes.summary("test-quick", lanes.lanes_for("test-quick"), 85, (1.0, 2.0))


def test_counts_come_from_pytests_junit_report(tmp_path, monkeypatch):
    monkeypatch.setattr(lanes, "LOGS", tmp_path)
    lane = lanes.Lane("unit", "", [])
    lane.junit.write_text('<testsuites><testsuite tests="7" failures="1" errors="1" skipped="2"/></testsuites>')
    assert lanes.read_counts(lane) == {"passed": 3, "failed": 1, "errors": 1, "skipped": 2}


def test_a_lanes_cpu_time_counts_what_its_processes_computed_not_the_time_they_waited(tmp_path, monkeypatch):
    monkeypatch.setattr(lanes, "LOGS", tmp_path)
    busy = "import time; end = time.process_time() + 0.4\nwhile time.process_time() < end: pass"
    # the busy work happens in a grandchild, as pytest's kernels and servers do
    computes = lanes.Lane("computes", "", ["python3", "-c", f"import subprocess; subprocess.run(['python3', '-c', {busy!r}])"],
                          pytest=False)
    waits = lanes.Lane("waits", "", ["python3", "-c", "import time; time.sleep(0.4)"], pytest=False)
    for lane in (computes, waits):
        lanes.run_lane(lane, stream=False, stop=None)
        assert lane.status == "passed"
    assert computes.cpu_seconds >= 0.35
    assert waits.cpu_seconds < 0.2 and waits.seconds >= 0.4
    failing = lanes.Lane("fails", "", ["python3", "-c", "raise SystemExit(3)"], pytest=False)
    lanes.run_lane(failing, stream=False, stop=None)
    assert (failing.status, failing.note) == ("failed", "exit status 3")


def quick_lane(name, code):
    return lanes.Lane(name, "", ["python3", "-c", code], pytest=False)


def meets(mine, theirs):
    """A lane that leaves a file and passes only if the other lane's file appears while it runs: two such lanes
    both pass only when they run at the same time."""
    return (f"import pathlib, time; pathlib.Path({str(mine)!r}).touch(); end = time.monotonic() + 20\n"
            f"while not pathlib.Path({str(theirs)!r}).exists():\n"
            f"    time.sleep(0.05)\n"
            f"    if time.monotonic() > end: raise SystemExit('alone')")


def test_chains_run_side_by_side_and_a_failure_stops_only_its_own_chain(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(lanes, "LOGS", tmp_path)
    first, second = tmp_path / "first", tmp_path / "second"
    slow_then_fail = [quick_lane("waits", meets(first, second)), quick_lane("fails", "raise SystemExit(1)"),
                      quick_lane("after", "pass")]
    other = [quick_lane("other", meets(second, first)), quick_lane("other2", "pass")]
    lanes.run_stage([slow_then_fail, other], lanes.threading.Event())
    status = {lane.name: lane.status for lane in slow_then_fail + other}
    # without --fail-fast every lane runs, also the one after the failure in its own chain
    assert status == {"waits": "passed", "fails": "failed", "after": "passed", "other": "passed", "other2": "passed"}
    assert "--- lane fails: failed" in capsys.readouterr().out


def test_with_fail_fast_no_lane_of_any_chain_starts_after_a_failure(tmp_path, monkeypatch):
    monkeypatch.setattr(lanes, "LOGS", tmp_path)
    failed = tmp_path / "failed"
    failing = [quick_lane("fails", f"import pathlib; pathlib.Path({str(failed)!r}).touch(); raise SystemExit(1)"),
               quick_lane("after", "pass")]
    # still running when the other chain's lane fails: it ends two seconds after that lane has left its file
    ends_after_the_failure = (f"import pathlib, time\nwhile not pathlib.Path({str(failed)!r}).exists(): "
                              f"time.sleep(0.05)\ntime.sleep(2)")
    other = [quick_lane("other", ends_after_the_failure), quick_lane("other2", "pass")]
    stop = lanes.threading.Event()
    lanes.run_stage([failing, other], stop, fail_fast=True)
    assert stop.is_set()
    assert [lane.status for lane in failing + other] == ["failed", "not reached", "passed", "not reached"]
