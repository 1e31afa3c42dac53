"""The Kubernetes sizing model (tools/hub_sizing.py), tested on what the hub test measured.

The record, docs/z2jh/measured-hub.json, holds runs of tests/test_hub.py (twenty learners at once on one 2-core
machine) with their CPU time (tools/hub_cpu.py), and learners who followed the link alone. The model predicts the
twenty-learner rush from CPU seconds and the lone learner's waiting time alone; it must land inside the spread of the
rush times the hub test clocked. The rest checks the parts a plausible slip would break: which runs count, the
node reservations, the memory and CPU rules, the queueing of the login rush, and that the guides show the table the
model prints.
"""

from __future__ import annotations

import doctest
import json
import math
import sys

import pytest
from notebook_tools import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import hub_sizing  # noqa: E402  (tools/hub_sizing.py)
from hub_sizing import Assumptions, NodeSize, Resources  # noqa: E402

RECORD = json.loads(hub_sizing.RECORD.read_text(encoding="utf-8"))
MEASURED = hub_sizing.load_measured()


def quiet_runs() -> list[dict]:
    return [run for run in RECORD["runs"] if run["rest_of_machine_share"] < hub_sizing.QUIET_SHARE]


# -- the record -------------------------------------------------------------------------------------------------


def test_the_record_says_where_when_and_under_what_load_it_was_measured():
    assert len(RECORD["runs"]) >= 3 and len(quiet_runs()) >= 2, "too few runs to speak of a spread"
    for run in RECORD["runs"]:
        assert run["machine"]["cores"] >= 1 and run["machine"]["memory_gib"] > 0 and run["machine"]["python"]
        assert run["date"][:4].isdigit()
        assert set(run["load_1min"]) == {"rush_start", "rush_end"}
        assert run["learners"] == 20 and run["failures"] == 0, f"{run['source']}: a learner failed"
        assert 0 <= run["rest_of_machine_share"] <= 1
    lone = RECORD["lone_arrivals"]["arrivals"]
    assert len(lone) >= 3 and all(a["link_to_chapter_00_seconds"] > a["server_cpu_seconds"] > 0 for a in lone)


def test_the_model_reproduces_the_measured_twenty_learner_rush_within_its_spread():
    """From CPU seconds and a lone learner's wait, the rush of twenty on two cores, as the hub test clocked it."""
    runs = quiet_runs()
    lowest = min(run["link_to_chapter_00_seconds"]["median"] for run in runs)
    highest = max(run["link_to_chapter_00_seconds"]["worst"] for run in runs)
    learners, cores = runs[0]["learners"], runs[0]["machine"]["cores"]
    predicted = hub_sizing.one_machine_rush_seconds(MEASURED, learners, cores)
    assert lowest <= predicted <= highest, f"model {predicted:.1f} s, measured {lowest}-{highest} s"
    # A spread this wide would make the check above empty.
    assert (highest - lowest) / predicted < 0.35


def test_the_rush_prediction_depends_on_the_cores_and_the_learners():
    base = hub_sizing.one_machine_rush_seconds(MEASURED, 20, 2)
    waiting = MEASURED.lone_latency
    assert hub_sizing.one_machine_rush_seconds(MEASURED, 20, 4) - waiting == pytest.approx((base - waiting) / 2)
    assert hub_sizing.one_machine_rush_seconds(MEASURED, 40, 2) - waiting == pytest.approx(2 * (base - waiting))
    # One learner takes a lone learner's time, however many cores.
    assert hub_sizing.one_machine_rush_seconds(MEASURED, 1, 64) == pytest.approx(MEASURED.lone_seconds)


def write_record(tmp_path, runs, lone=None):
    path = tmp_path / "record.json"
    lone = lone or [{"link_to_chapter_00_seconds": 5.0, "server_cpu_seconds": 2.0, "hub_cpu_seconds": 0.5,
                     "rest_of_machine_share": 0.0},
                    {"link_to_chapter_00_seconds": 50.0, "server_cpu_seconds": 9.0, "hub_cpu_seconds": 0.9,
                     "rest_of_machine_share": 0.9}]
    path.write_text(json.dumps({"runs": runs, "lone_arrivals": {"arrivals": lone}}), encoding="utf-8")
    return path


def run(share, servers, hub, peak, median, worst):
    return {"rest_of_machine_share": share, "learners": 10, "machine": {"cores": 2},
            "rush_cpu_seconds": {"servers": servers, "hub": hub, "proxy": 1.0, "test": 2.0},
            "learner_peak_mib": {"median": peak - 1, "max": peak}, "hub_peak_mib": 100, "proxy_peak_mib": 60,
            "link_to_chapter_00_seconds": {"median": median, "worst": worst}}


def test_only_runs_that_had_the_machine_to_themselves_set_the_cpu_figures(tmp_path):
    path = write_record(tmp_path, [run(0.01, 20.0, 2.0, 300, 20, 22), run(0.05, 30.0, 4.0, 310, 24, 25),
                                   run(0.40, 90.0, 9.0, 320, 60, 70)])
    measured = hub_sizing.load_measured(path)
    assert measured.quiet_runs == 2
    assert measured.server_cpu == pytest.approx(2.5)  # (20 + 30) / 2 runs / 10 learners
    assert measured.hub_cpu == pytest.approx(0.3)
    assert measured.rush_median_seconds == (20, 24) and measured.rush_worst_seconds == (22, 25)
    # Memory is a peak: the largest of every run counts, the busy one too.
    assert measured.learner_peak_mib == 320
    assert measured.lone_latency == pytest.approx(5.0 - 2.5)  # the lone arrival on a busy machine is left out


def test_a_record_without_a_quiet_run_or_with_a_missing_field_is_refused_by_name(tmp_path):
    with pytest.raises(ValueError, match="no run had the machine to itself"):
        hub_sizing.load_measured(write_record(tmp_path, [run(0.5, 20.0, 2.0, 300, 20, 22)]))
    broken = run(0.01, 20.0, 2.0, 300, 20, 22)
    del broken["rush_cpu_seconds"]["hub"]
    with pytest.raises(ValueError, match=r"record\.json: a record entry has no 'hub'"):
        hub_sizing.load_measured(write_record(tmp_path, [broken]))
    (tmp_path / "bad.json").write_text('{"runs": [', encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.json:1: not JSON"):
        hub_sizing.load_measured(tmp_path / "bad.json")


# -- nodes and pods ---------------------------------------------------------------------------------------------


def test_a_nodes_allocatable_share_follows_the_documented_reservations():
    """Worked by hand from GKE's tiers (module docstring, A4), less 512 MiB and 0.2 core for the per-node agents."""
    memory, cores = hub_sizing.allocatable(NodeSize(4, 16))
    assert memory == pytest.approx(16 * 1024 - (1 + 0.8 + 0.8) * 1024 - 100 - 512)
    assert cores == pytest.approx(4 - (0.06 + 0.01 + 0.005 * 2) - 0.2)
    memory, cores = hub_sizing.allocatable(NodeSize(8, 32))
    assert memory == pytest.approx(32 * 1024 - (1 + 0.8 + 0.8 + 0.06 * 16) * 1024 - 100 - 512)
    assert cores == pytest.approx(8 - (0.06 + 0.01 + 0.005 * 2 + 0.0025 * 4) - 0.2)


def test_the_memory_guarantee_is_the_measured_peak_with_its_margin_and_the_limit_twice_that():
    pod = hub_sizing.resources(MEASURED)
    assume = Assumptions()
    wanted = MEASURED.learner_peak_mib * (1 + assume.memory_margin)
    assert pod.memory_guarantee_mib % assume.memory_step_mib == 0
    assert wanted <= pod.memory_guarantee_mib < wanted + assume.memory_step_mib
    assert pod.memory_limit_mib == 2 * pod.memory_guarantee_mib
    assert pod.cpu_limit == 1.0


def test_the_cpu_guarantee_is_the_largest_step_that_leaves_memory_binding_on_both_node_sizes():
    pod = hub_sizing.resources(MEASURED)
    larger = Resources(pod.memory_guarantee_mib, pod.memory_limit_mib, pod.cpu_guarantee + 0.05, pod.cpu_limit)
    by_memory = {size: int(hub_sizing.allocatable(size)[0] // pod.memory_guarantee_mib)
                 for size in hub_sizing.NODE_SIZES}
    for size, fits in by_memory.items():
        assert hub_sizing.per_node(size, pod) == fits, f"{size}: CPU, not memory, limits the node"
    assert any(hub_sizing.per_node(size, larger) < by_memory[size] for size in hub_sizing.NODE_SIZES)


def test_a_room_needs_enough_nodes_and_a_full_node_stays_inside_its_memory():
    for learners in hub_sizing.ROOM_SIZES:
        plan = hub_sizing.plan_room(learners, MEASURED)
        for node in plan.plans:
            assert node.nodes * node.per_node >= learners > (node.nodes - 1) * node.per_node
            assert node.peak_use_mib <= node.guaranteed_mib <= node.allocatable_mib
            assert node.guaranteed_mib == min(node.per_node, learners) * plan.resources.memory_guarantee_mib


# -- the login rush on a cluster --------------------------------------------------------------------------------


def test_the_module_examples_hold():
    assert doctest.testmod(hub_sizing).failed == 0


def test_a_stage_queues_as_its_load_nears_one_and_never_beyond_its_batch_at_once():
    stage = hub_sizing.stage_seconds
    assert stage(3.0, 2.0, 4, rate=0.01, batch=50) == pytest.approx(3.0)  # alone: the lone time
    assert stage(3.0, 2.0, 4, rate=1.8, batch=50) == pytest.approx(0.5 / 0.1)  # 90 % busy
    assert stage(3.0, 2.0, 4, rate=1.99, batch=50) == pytest.approx(50 * 2.0 / 4)  # capped by the batch at once
    assert stage(3.0, 2.0, 4, rate=3.0, batch=50) == pytest.approx(50 * 2.0 / 4)  # overrun: the batch at once
    waits = [stage(3.0, 2.0, 4, rate=r / 10, batch=50) for r in range(1, 25)]
    assert waits == sorted(waits)


def test_everyone_at_once_is_set_by_the_hub_in_a_large_room_and_by_the_node_in_a_small_one():
    small, large = (hub_sizing.plan_room(n, MEASURED).plans[0] for n in (20, 500))
    assert small.bottleneck == "nodes" and large.bottleneck == "hub"
    fixed = MEASURED.lone_latency + Assumptions().pod_start_seconds
    assert large.all_at_once_seconds == pytest.approx(fixed + 500 * MEASURED.hub_cpu)
    assert small.all_at_once_seconds == pytest.approx(fixed + 20 * MEASURED.server_cpu / small.allocatable_cores)


def test_spreading_the_arrivals_over_five_minutes_is_never_slower_than_everyone_at_once():
    fixed = MEASURED.lone_latency + Assumptions().pod_start_seconds
    for learners in hub_sizing.ROOM_SIZES:
        for node in hub_sizing.plan_room(learners, MEASURED).plans:
            assert fixed + MEASURED.lone_cpu <= node.spread_seconds <= node.all_at_once_seconds


def test_placeholders_cover_the_learners_who_arrive_while_a_new_node_starts():
    assert hub_sizing.plan_room(300, MEASURED).placeholders == 300  # five-minute arrivals, five-minute nodes
    slow = Assumptions(spread_seconds=1200.0)
    assert hub_sizing.plan_room(300, MEASURED, slow).placeholders == 75


# -- the guides show what the model prints ----------------------------------------------------------------------


@pytest.mark.parametrize("guide, language", [("docs/jupyterhub.md", "en"), ("docs/es/jupyterhub.md", "es")])
def test_the_guide_shows_the_table_the_model_prints(guide, language):
    text = (ROOT / guide).read_text(encoding="utf-8")
    assert hub_sizing.table(MEASURED, language=language) in text, (
        f"{guide}: the sizing table differs from `python tools/hub_sizing.py --language {language}`")


def test_the_table_has_a_row_for_each_room_and_node_size():
    rows = hub_sizing.table(MEASURED).splitlines()[2:]
    assert [(row.split(" | ")[0].strip("| "), row.split(" | ")[1]) for row in rows] == [
        (str(n), f"{s.cores} cores, {s.memory_gib} GiB") for n in (20, 100, 300, 500) for s in hub_sizing.NODE_SIZES]
    assert all(math.isfinite(node.spread_seconds) for n in (20, 100, 300, 500)
               for node in hub_sizing.plan_room(n, MEASURED).plans)
