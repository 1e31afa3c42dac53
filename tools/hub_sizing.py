"""A Kubernetes hub (Zero to JupyterHub) for a room of learners, sized from what the hub test measured.

The measured figures come from ``docs/z2jh/measured-hub.json``: runs of ``tests/test_hub.py`` (twenty learners follow
the workshop's nbgitpuller link at the same moment on one 2-core machine, then run chapters 00 and 05), each
watched by ``tools/hub_cpu.py`` for CPU time, and learners who follow the same link alone. From them this module
gives, for a room of N learners, the user nodes of two stated sizes, the memory per node, the expected login-rush
time when everyone clicks at once and when the arrivals spread over five minutes, what to pre-warm, and the chart
values ``docs/z2jh/config.yaml`` carries (``tests/test_z2jh_config.py`` checks that the file says what this computes).

    python tools/hub_sizing.py                     # the table for 20, 100, 300 and 500 learners (markdown)
    python tools/hub_sizing.py --learners 300      # one room
    python tools/hub_sizing.py --chart 300         # the chart values for a room of 300 (JSON)
    python tools/hub_sizing.py --language es       # the table in Spanish, for docs/es/jupyterhub.md

The model is this workbook's own. Each number it uses is either measured (M, from the record) or assumed (A, below);
``docs/jupyterhub.md`` ("More than one machine") says the same in prose.

Measured (the record; of the rushes that had the machine to themselves, the rest of the machine using under 10 % of
it, the model takes the mean CPU; of the lone arrivals that had a core to themselves, the rest of the machine using
under half of it, the median time and CPU; memory is the largest of all runs):

- M1 a learner's peak memory: their server with chapter 00's and chapter 05's kernels, the largest of all runs;
- M2 the CPU seconds one arrival costs during the rush (log in, start the server, clone with nbgitpuller, open
  JupyterLab at chapter 00), split into the learner's server (with its ``git``), the hub, the proxy, and the test's
  own side (its twenty HTTP clients and its git server);
- M3 the seconds from the link to chapter 00 for a learner alone on the hub, and that arrival's CPU seconds in their
  server and in the hub. (A lone start used more CPU seconds than a rush's average arrival; the model uses each
  figure for what it measured: M3 for a learner who waits for no one, M2 for the load a rush puts on a stage.)

Assumed:

- A1 The login rush is CPU-bound. A learner alone spends ``lone_latency`` seconds waiting on something that is not
  CPU (M3's time minus its CPU seconds); n learners at once on one machine of k cores then take
  ``lone_latency + max(lone CPU, n * c / k)`` seconds, c being M2's total. ``tests/test_hub_sizing.py`` checks this
  against the measured twenty-learner rush, on the runs where the rest of the machine was idle.
- A2 On Kubernetes, a learner's server runs in their own pod on a user node, so M2's server part is spent on that
  node's cores; the hub's part on the hub pod, which uses one core at most (JupyterHub is one Python process; Zero
  to JupyterHub's optimization guide says so of the hub and the proxy). The proxy's part is small and runs in its
  own pod. The test's part is the learners' browsers and the git forge on the day: not counted.
- A3 Kubernetes adds ``pod_start_seconds`` to every start (scheduling, the container's start with the image already
  on the node, the home volume attached). Not measured here (no cluster): 10 seconds is assumed, and the rehearsal
  measures it. A first login that creates the learner's volume can take longer, as can a node without the image.
- A4 A user node's allocatable memory and CPU are its size less Google Kubernetes Engine's documented reservations
  (memory: 25 % of the first 4 GiB, 20 % of the next 4, 10 % of the next 8, 6 % of the next 112, 2 % above; 100 MiB
  for eviction; CPU: 6 % of the first core, 1 % of the next, 0.5 % of the next two, 0.25 % above four), less
  ``daemonset_mib`` and ``daemonset_cores`` for the per-node agents (network, logs, the chart's image puller).
  Other clouds reserve a little more or less; ``kubectl describe node`` shows the real figures.
- A5 A node holds as many learners as fit by memory guarantee and by CPU guarantee.
- A6 Everyone at once: the pods land on their nodes at the same moment, each node's cores are shared evenly by its
  pods (the guarantees are equal), and the hub's core by all arrivals. The fullest node or the hub finishes last:
  ``lone_latency + pod_start + max(lone CPU, n * c_hub / hub_cores, per_node * c_server / node_cores)``.
- A7 Spread over ``spread_seconds``: arrivals at a steady rate. The chart's user scheduler packs pods onto the most
  used node, so one node at a time takes the new arrivals and only its cores serve them. Each stage (the hub, then
  that node) is a processor-sharing queue: a stage with work w per arrival (M2), k cores and load rho = rate * w / k
  takes ``max(alone, (w / k) / (1 - rho))``, alone being the stage's CPU seconds for a learner alone (M3: a
  learner's own work never goes faster than one core), and never more than the same stage with its whole batch
  (all n for the hub, one node's learners for a node) at once.
- A8 Memory: the guarantee is M1 plus ``memory_margin`` (25 %), rounded up to a multiple of 64 MiB; the limit is
  ``limit_ratio`` (2) times the guarantee, the ratio Zero to JupyterHub's optimization guide suggests to start from.
  The margin covers the run-to-run spread, page cache that a container's memory count includes and RSS does not,
  and a cell or two beyond chapters 00 and 05; the limit holds the server and about five chapters' kernels at once.
- A9 CPU: the guarantee is the largest multiple of 0.05 core that keeps memory the binding resource on both node
  sizes (so it only sets each learner's fair share when a node is busy); the limit is 1 core (a learner's server and
  each kernel are one Python thread; more would only let one learner slow the others on the node during the rush).
- A10 Placeholders: one per learner expected to arrive within the time a new node takes to be ready
  (``node_ready_seconds``, assumed 300 s: a cloud machine's start plus the image pull), which is how Zero to
  JupyterHub's optimization guide sizes them; with five-minute arrivals that is the whole room.
- A11 The hub's own pod gets one whole core (A2) and ``hub_memory_mib`` (1 GiB, assumed: the hub test measured about
  130 MiB with twenty learners and local processes; a hub keeps a little per user). ``hub.concurrentSpawnLimit`` is
  the room's size, so no learner is sent away with "Too many users trying to log in right now" while the nodes
  still have room (JupyterHub answers HTTP 429 past that limit; the chart's default is 64).

What the model leaves out: network and disk (the clone is small; a git forge's rate limits are not modelled), a
cluster autoscaler's own delays beyond A10, the hub on JupyterHub 5.5 with KubeSpawner instead of the tested 6.1.1
with local processes (its per-arrival CPU is assumed to be the measured one), and any chapter but 00 and 05.
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import statistics
import sys
from dataclasses import dataclass
from typing import Literal

ROOT = pathlib.Path(__file__).resolve().parent.parent
RECORD = ROOT / "docs" / "z2jh" / "measured-hub.json"
ROOM_SIZES = (20, 100, 300, 500)
#: A rush counts as measured on its own machine when the rest of the machine used less than this share of it.
QUIET_SHARE = 0.10
#: A lone learner uses one core at a time: their arrival counts when the rest of the machine left them one core.
LONE_QUIET_SHARE = 0.5
MIB_PER_GIB = 1024


@dataclass(frozen=True)
class NodeSize:
    """A user node: cores and memory as the cloud sells it."""

    cores: int
    memory_gib: int


NODE_SIZES = (NodeSize(4, 16), NodeSize(8, 32))


@dataclass(frozen=True)
class Measured:
    """What the hub test measured, reduced to the figures the model uses (M1-M3 in the module docstring)."""

    learners: int  # at once, in each measured rush
    cores: int  # of the measured machine
    learner_peak_mib: float  # M1
    hub_peak_mib: float
    proxy_peak_mib: float
    server_cpu: float  # M2, per arrival, core-seconds
    hub_cpu: float
    proxy_cpu: float
    test_cpu: float
    lone_seconds: float  # M3: link to chapter 00, a learner alone
    lone_server_cpu: float  # M3: that arrival's CPU seconds in the learner's server, and in the hub
    lone_hub_cpu: float
    rush_median_seconds: tuple[float, float]  # (lowest, highest) over the quiet runs
    rush_worst_seconds: tuple[float, float]
    quiet_runs: int

    @property
    def arrival_cpu(self) -> float:
        """Everything one arrival costs on the measured machine, the test's own side included."""
        return self.server_cpu + self.hub_cpu + self.proxy_cpu + self.test_cpu

    @property
    def lone_cpu(self) -> float:
        return self.lone_server_cpu + self.lone_hub_cpu

    @property
    def lone_latency(self) -> float:
        """A1: the part of a lone arrival that is waiting, not computing."""
        return max(0.0, self.lone_seconds - self.lone_cpu)


@dataclass(frozen=True)
class Assumptions:
    """A3-A11 of the module docstring, with the values the workbook uses."""

    pod_start_seconds: float = 10.0  # A3
    daemonset_mib: float = 512.0  # A4
    daemonset_cores: float = 0.2  # A4
    spread_seconds: float = 300.0  # A7
    memory_margin: float = 0.25  # A8
    memory_step_mib: int = 64  # A8
    limit_ratio: float = 2.0  # A8
    cpu_step: float = 0.05  # A9
    cpu_limit: float = 1.0  # A9
    node_ready_seconds: float = 300.0  # A10
    hub_cores: float = 1.0  # A2, A11
    hub_memory_mib: int = 1024  # A11


@dataclass(frozen=True)
class Resources:
    """One learner's pod: what the chart's ``singleuser.memory`` and ``singleuser.cpu`` say."""

    memory_guarantee_mib: int
    memory_limit_mib: int
    cpu_guarantee: float
    cpu_limit: float


@dataclass(frozen=True)
class NodePlan:
    """A room on nodes of one size."""

    size: NodeSize
    allocatable_mib: float
    allocatable_cores: float
    per_node: int  # learners a node holds
    nodes: int
    guaranteed_mib: float  # on the fullest node: its learners' memory guarantees
    peak_use_mib: float  # on the fullest node: its learners at the measured peak
    all_at_once_seconds: float
    spread_seconds: float
    bottleneck: Literal["hub", "nodes"]  # what sets the all-at-once time


@dataclass(frozen=True)
class RoomPlan:
    learners: int
    resources: Resources
    placeholders: int
    plans: tuple[NodePlan, ...]


# -- the record -------------------------------------------------------------------------------------------------


def load_measured(path: pathlib.Path = RECORD) -> Measured:
    """Read the record and reduce it; a missing or malformed field is an error that names the file and the field."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: missing (tools/hub_cpu.py record writes it)") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}:{error.lineno}: not JSON: {error.msg}") from None
    runs = _field(record, "runs", path)
    quiet = [run for run in runs if _field(run, "rest_of_machine_share", path) < QUIET_SHARE]
    if not quiet:
        raise ValueError(f"{path}: no run had the machine to itself (rest_of_machine_share < {QUIET_SHARE})")
    lone = [arrival for arrival in _field(_field(record, "lone_arrivals", path), "arrivals", path)
            if _field(arrival, "rest_of_machine_share", path) < LONE_QUIET_SHARE]
    if not lone:
        raise ValueError(f"{path}: no lone arrival had a core to itself (rest_of_machine_share < {LONE_QUIET_SHARE})")
    learners = {_field(run, "learners", path) for run in quiet}
    cores = {_field(_field(run, "machine", path), "cores", path) for run in quiet}
    if len(learners) != 1 or len(cores) != 1:
        raise ValueError(f"{path}: the quiet runs differ in learners {learners} or cores {cores}")
    (n,), (k,) = learners, cores

    def per_arrival(row: str) -> float:
        return statistics.mean(_field(_field(run, "rush_cpu_seconds", path), row, path) / n for run in quiet)

    rush = [_field(run, "link_to_chapter_00_seconds", path) for run in quiet]
    return Measured(
        learners=n,
        cores=k,
        learner_peak_mib=max(_field(_field(run, "learner_peak_mib", path), "max", path) for run in runs),
        hub_peak_mib=max(_field(run, "hub_peak_mib", path) for run in runs),
        proxy_peak_mib=max(_field(run, "proxy_peak_mib", path) for run in runs),
        server_cpu=per_arrival("servers"),
        hub_cpu=per_arrival("hub"),
        proxy_cpu=per_arrival("proxy"),
        test_cpu=per_arrival("test"),
        lone_seconds=statistics.median(_field(a, "link_to_chapter_00_seconds", path) for a in lone),
        lone_server_cpu=statistics.median(_field(a, "server_cpu_seconds", path) for a in lone),
        lone_hub_cpu=statistics.median(_field(a, "hub_cpu_seconds", path) for a in lone),
        rush_median_seconds=(min(r["median"] for r in rush), max(r["median"] for r in rush)),
        rush_worst_seconds=(min(r["worst"] for r in rush), max(r["worst"] for r in rush)),
        quiet_runs=len(quiet),
    )


def _field(mapping: dict, name: str, path: pathlib.Path):
    if not isinstance(mapping, dict) or name not in mapping or mapping[name] is None:
        raise ValueError(f"{path}: a record entry has no {name!r}")
    return mapping[name]


# -- the model --------------------------------------------------------------------------------------------------


def one_machine_rush_seconds(measured: Measured, learners: int, cores: float) -> float:
    """A1: n learners at once on one machine of k cores, everything (test included) sharing those cores.

    >>> m = Measured(20, 2, 384, 130, 68, 2.2, 0.2, 0.02, 0.16, 4.5, 3.2, 0.3, (24, 29), (27, 30), 2)
    >>> round(one_machine_rush_seconds(m, 20, 2), 1)  # 1 s of waiting, then 20 x 2.58 core-seconds on 2 cores
    26.8
    >>> one_machine_rush_seconds(m, 1, 2)  # alone: the lone time
    4.5
    """
    return measured.lone_latency + max(measured.lone_cpu, learners * measured.arrival_cpu / cores)


def resources(measured: Measured, assume: Assumptions = Assumptions()) -> Resources:
    """A8 and A9: a learner's memory guarantee and limit, CPU guarantee and limit."""
    step = assume.memory_step_mib
    guarantee = math.ceil(measured.learner_peak_mib * (1 + assume.memory_margin) / step) * step
    limit = int(guarantee * assume.limit_ratio)
    # A9: the largest CPU guarantee under which every node size still fills by memory first
    fits = min(allocatable(size, assume)[1] / (allocatable(size, assume)[0] // guarantee) for size in NODE_SIZES)
    cpu_guarantee = round(math.floor(fits / assume.cpu_step) * assume.cpu_step, 2)
    return Resources(guarantee, limit, cpu_guarantee, assume.cpu_limit)


def allocatable(size: NodeSize, assume: Assumptions = Assumptions()) -> tuple[float, float]:
    """A4: (MiB, cores) a node offers to learners' pods."""
    reserved_gib = _tiered(size.memory_gib, [(4, 0.25), (4, 0.20), (8, 0.10), (112, 0.06), (math.inf, 0.02)])
    reserved_cores = _tiered(size.cores, [(1, 0.06), (1, 0.01), (2, 0.005), (math.inf, 0.0025)])
    memory = size.memory_gib * MIB_PER_GIB - reserved_gib * MIB_PER_GIB - 100 - assume.daemonset_mib
    return memory, size.cores - reserved_cores - assume.daemonset_cores


def _tiered(amount: float, tiers: list[tuple[float, float]]) -> float:
    """The reservation of a tiered rule: each (width, share) takes its share of the next ``width`` units."""
    reserved, left = 0.0, amount
    for width, share in tiers:
        taken = min(left, width)
        reserved += taken * share
        left -= taken
    return reserved


def per_node(size: NodeSize, pod: Resources, assume: Assumptions = Assumptions()) -> int:
    """A5: learners a node of this size holds."""
    memory, cores = allocatable(size, assume)
    return int(min(memory // pod.memory_guarantee_mib, cores // pod.cpu_guarantee))


def stage_seconds(alone: float, work: float, cores: float, rate: float, batch: int) -> float:
    """A7: one stage of an arrival (the hub, or a node) under arrivals at ``rate`` per second.

    ``alone`` is the stage's CPU seconds for a learner alone, ``work`` its CPU seconds per arrival in a rush.

    >>> stage_seconds(3.0, 2.0, 4, rate=0.1, batch=20)  # quiet: the learner's own time alone
    3.0
    >>> round(stage_seconds(3.0, 2.0, 4, rate=1.8, batch=20), 2)  # 90 % busy: queueing, no worse than all 20 at once
    5.0
    """
    at_once = max(alone, batch * work / cores)
    load = rate * work / cores
    if load >= 1:
        return at_once
    return min(at_once, max(alone, (work / cores) / (1 - load)))


def plan_room(learners: int, measured: Measured, assume: Assumptions = Assumptions()) -> RoomPlan:
    pod = resources(measured, assume)
    plans = tuple(_plan_nodes(learners, size, pod, measured, assume) for size in NODE_SIZES)
    arriving = learners * min(1.0, assume.node_ready_seconds / assume.spread_seconds)  # A10
    return RoomPlan(learners, pod, math.ceil(arriving), plans)


def _plan_nodes(learners: int, size: NodeSize, pod: Resources, measured: Measured,
                assume: Assumptions) -> NodePlan:
    memory, cores = allocatable(size, assume)
    holds = per_node(size, pod, assume)
    nodes = math.ceil(learners / holds)
    fullest = min(holds, learners)
    fixed = measured.lone_latency + assume.pod_start_seconds
    # A6: everyone at once
    hub_busy = learners * measured.hub_cpu / assume.hub_cores
    node_busy = fullest * measured.server_cpu / cores
    at_once = fixed + max(measured.lone_cpu, hub_busy, node_busy)
    # A7: a steady rate over the spread; the hub sees every arrival, one node at a time sees them all too
    rate = learners / assume.spread_seconds
    spread = (fixed + stage_seconds(measured.lone_hub_cpu, measured.hub_cpu, assume.hub_cores, rate, learners)
              + stage_seconds(measured.lone_server_cpu, measured.server_cpu, min(cores, fullest * pod.cpu_limit),
                              rate, fullest))
    return NodePlan(size, memory, cores, holds, nodes, fullest * pod.memory_guarantee_mib,
                    fullest * measured.learner_peak_mib, at_once, spread, "hub" if hub_busy > node_busy else "nodes")


# -- what the config carries ------------------------------------------------------------------------------------


def chart_values(plan: RoomPlan, assume: Assumptions = Assumptions()) -> dict:
    """The Zero to JupyterHub values that follow from the model (KubeSpawner reads "M" as MiB)."""
    pod = plan.resources
    return {
        "singleuser": {
            "memory": {"guarantee": f"{pod.memory_guarantee_mib}M", "limit": f"{pod.memory_limit_mib}M"},
            "cpu": {"guarantee": pod.cpu_guarantee, "limit": pod.cpu_limit},
        },
        "hub": {
            "concurrentSpawnLimit": plan.learners,
            "resources": {"requests": {"cpu": assume.hub_cores, "memory": f"{assume.hub_memory_mib}Mi"}},
        },
        "scheduling": {"userPlaceholder": {"replicas": plan.placeholders}},
    }


# -- the table --------------------------------------------------------------------------------------------------


#: The table's words in the two languages of the guide (docs/jupyterhub.md, docs/es/jupyterhub.md).
WORDS = {
    "en": {
        "header": ("| learners | user node | learners per node | nodes | memory per node: guaranteed / at the measured "
                   "peak / allocatable | login rush, everyone at once | login rush, arrivals over 5 minutes | "
                   "pre-warm |"),
        "node": "{cores} cores, {memory} GiB",
        "at_once": "about {seconds} s (the {bottleneck} set it)",
        "bottleneck": {"hub": "hub's one core", "nodes": "nodes' cores"},
        "spread": "about {seconds} s each",
        "prewarm": ("1 node up, the image on it, {placeholders} placeholders",
                    "{nodes} nodes up, the image on each, {placeholders} placeholders"),
    },
    "es": {
        "header": ("| estudiantes | nodo de usuarios | estudiantes por nodo | nodos | memoria por nodo: garantizada / "
                   "en el pico medido / asignable | avalancha de entradas, todos a la vez | avalancha de entradas, "
                   "llegadas en 5 minutos | precalentar |"),
        "node": "{cores} núcleos, {memory} GiB",
        "at_once": "unos {seconds} s (la marca {bottleneck})",
        "bottleneck": {"hub": "el único núcleo del hub", "nodes": "los núcleos de los nodos"},
        "spread": "unos {seconds} s cada uno",
        "prewarm": ("1 nodo en marcha, la imagen en él, {placeholders} marcadores de posición",
                    "{nodes} nodos en marcha, la imagen en cada uno, {placeholders} marcadores de posición"),
    },
}


def table(measured: Measured, sizes=ROOM_SIZES, language: str = "en", assume: Assumptions = Assumptions()) -> str:
    """The sizing table of the guide, one row per room size and node size (markdown)."""
    words = WORDS[language]
    rows = [words["header"], "|" + "---|" * words["header"].count(" |")]
    for learners in sizes:
        plan = plan_room(learners, measured, assume)
        for node in plan.plans:
            memory = (f"{node.guaranteed_mib / MIB_PER_GIB:.1f} / {node.peak_use_mib / MIB_PER_GIB:.1f} / "
                      f"{node.allocatable_mib / MIB_PER_GIB:.1f} GiB")
            cells = [
                str(learners),
                words["node"].format(cores=node.size.cores, memory=node.size.memory_gib),
                str(node.per_node),
                str(node.nodes),
                memory,
                words["at_once"].format(seconds=round(node.all_at_once_seconds),
                                        bottleneck=words["bottleneck"][node.bottleneck]),
                words["spread"].format(seconds=round(node.spread_seconds)),
                words["prewarm"][node.nodes > 1].format(nodes=node.nodes, placeholders=plan.placeholders),
            ]
            rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def describe(measured: Measured, assume: Assumptions = Assumptions()) -> str:
    pod = resources(measured, assume)
    return "\n".join([
        f"measured ({measured.quiet_runs} quiet runs, {measured.learners} learners at once on {measured.cores} cores):",
        f"  learner peak {measured.learner_peak_mib:.0f} MiB; per arrival: server {measured.server_cpu:.2f}, "
        f"hub {measured.hub_cpu:.2f}, proxy {measured.proxy_cpu:.3f}, test {measured.test_cpu:.2f} core-seconds",
        f"  alone: {measured.lone_seconds:.1f} s link to chapter 00, of which {measured.lone_latency:.1f} s waiting",
        f"  rush: median {measured.rush_median_seconds[0]}-{measured.rush_median_seconds[1]} s, "
        f"worst {measured.rush_worst_seconds[0]}-{measured.rush_worst_seconds[1]} s; "
        f"the model: {one_machine_rush_seconds(measured, measured.learners, measured.cores):.1f} s",
        f"a learner's pod: memory {pod.memory_guarantee_mib} MiB guaranteed, {pod.memory_limit_mib} MiB limit; "
        f"CPU {pod.cpu_guarantee} guaranteed, {pod.cpu_limit} limit",
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", type=pathlib.Path, default=RECORD)
    parser.add_argument("--learners", type=int, nargs="+", default=list(ROOM_SIZES))
    parser.add_argument("--chart", type=int, metavar="LEARNERS", help="print the chart values for this room")
    parser.add_argument("--language", choices=sorted(WORDS), default="en", help="the table's language")
    options = parser.parse_args(argv)
    measured = load_measured(options.record)
    if options.chart:
        print(json.dumps(chart_values(plan_room(options.chart, measured)), indent=2))
        return 0
    print(describe(measured))
    print()
    print(table(measured, options.learners, options.language))
    return 0


if __name__ == "__main__":
    sys.exit(main())
