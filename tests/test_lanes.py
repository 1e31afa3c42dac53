"""tools/lanes.py, the runner of `make test` and `make test-quick`: which lanes each runs, in which order, and a
summary that names every lane, including those a failure kept from running."""

from __future__ import annotations

import importlib.util

from notebook_tools import ROOT

spec = importlib.util.spec_from_file_location("lanes", ROOT / "tools" / "lanes.py")
lanes = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lanes)


def names(stages):
    return [[lane.name for lane in stage] for stage in stages]


def test_make_test_runs_every_lane_the_heavy_ones_side_by_side():
    assert names(lanes.lanes_for("test")) == [["setup"], ["lint"], ["unit"], ["nbval"], ["paths"],
                                              ["browser", "binder", "hub", "site"]]
    assert names(lanes.lanes_for("test-quick")) == [["setup"], ["lint"], ["unit"], ["nbval"]]


def test_the_unit_lane_leaves_out_every_marker_that_has_a_lane_of_its_own():
    [[unit]] = [stage for stage in lanes.lanes_for("test") if stage[0].name == "unit"]
    marker = unit.command[unit.command.index("-m") + 1]
    assert marker == "not browser and not binder and not hub and not paths and not site"
    assert "notebooks" not in unit.command and "-n" in unit.command


def test_the_summary_names_each_lane_and_what_a_failure_kept_from_running():
    stages = lanes.lanes_for("test")
    status = {"setup": "passed", "lint": "passed", "unit": "failed", "nbval": "not reached", "paths": "absent"}
    for lane in (lane for stage in stages for lane in stage):
        lane.status = status.get(lane.name, "not reached")
    unit = stages[2][0]
    unit.counts, unit.seconds = {"passed": 10, "failed": 2, "errors": 1, "skipped": 3}, 75
    text = lanes.summary("test", stages, 80, (1.5, 2.5))
    rows = {line.split()[0]: line for line in text.splitlines() if line.startswith("  ") and len(line.split()) > 1}
    assert "failed" in rows["unit"] and "1 min 15 s" in rows["unit"] and "10 passed, 2 failed, 1 errors" in rows["unit"]
    for name in ("nbval", "browser", "binder", "hub", "site"):
        assert "not reached" in rows[name], rows[name]
    assert "absent" in rows["paths"]
    assert "failed: unit; not reached: nbval, browser, binder, hub, site" in text
    assert text.splitlines()[-1] == "total: 10 passed, 3 failed, 3 skipped"


def test_counts_come_from_pytests_junit_report(tmp_path, monkeypatch):
    monkeypatch.setattr(lanes, "LOGS", tmp_path)
    lane = lanes.Lane("unit", "", [])
    lane.junit.write_text('<testsuites><testsuite tests="7" failures="1" errors="1" skipped="2"/></testsuites>')
    assert lanes.read_counts(lane) == {"passed": 3, "failed": 1, "errors": 1, "skipped": 2}
