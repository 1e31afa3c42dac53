"""Throughput of PinnedMiddleware.after_model on the recorded scripts' batches; beside upstream's, when you have it.

Usage: python benchmarks/bench_middleware.py [--repeat N] [--upstream PATH]

The workload is every ``after_model`` step of the 200 scripts in ``tests/data/middleware-vectors.json.gz``
(11,998 batches of 1 to 4 calls, two to three threads, small windows, many warnings and stops), each script
through a fresh middleware with its own config. A pass times only the ``after_model`` calls; the best of N passes
counts.

- **Without upstream's code** the result is loopkit's own rate, printed with the machine it was measured on. It has
  no goal: a rate means something only beside another rate from the same machine and the same moment.
- **With ``--upstream PATH``** (or ``DEERFLOW_CHECKOUT=PATH``), a DeerFlow checkout (or the folder, or the file,
  ``backend/packages/harness/deerflow/agents/middlewares/loop_detection_middleware.py``), upstream's
  ``LoopDetectionMiddleware.after_model`` is timed on the same batches in the same process, its passes interleaved
  with loopkit's so that the machine's load drifts hit both. The goal (issue 9): loopkit at least 0.7x upstream's
  speed. Upstream's code is read from that path only, never copied here. Its LangChain imports are replaced with
  small stand-ins (:func:`stand_in_modules`), its messages and runtimes are built before the clock starts, and its
  logger is switched off (an unconfigured logger would print every warning to stderr), so the ratio compares the
  detection work. Both sides must stop the same runs, or the benchmark says so and fails.

The workbook pins deer-flow ``f1f4af99bbf1cffb83a80744bf6e4a44ee8f24be``; a checkout at that commit is what the
chapters describe. On Python 3.11, ``typing.override`` (3.12+, which upstream imports) is stood in by a decorator
that returns its function.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import logging
import os
import pathlib
import sys
import time
import types
import typing
from typing import Generic, TypeVar

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from report import machine, result_line  # noqa: E402

from loopkit import PinnedMiddleware  # noqa: E402
from loopkit.teaching.conformance import config_of  # noqa: E402

GOAL = 0.7
MIDDLEWARE_FILE = pathlib.Path("backend/packages/harness/deerflow/agents/middlewares/loop_detection_middleware.py")


def workload() -> list:
    """(script config, [(calls, thread, run), ...]) for every recorded script, in order."""
    with gzip.open(ROOT / "tests" / "data" / "middleware-vectors.json.gz", "rt", encoding="utf-8") as handle:
        scripts = json.load(handle)["vectors"]
    return [(script["config"], [(step["calls"], step["thread"], step["run"])
                                for step in script["steps"] if step["op"] == "after_model"])
            for script in scripts]


# -- loopkit ----------------------------------------------------------------------------------------------------


def loopkit_pass(work: list) -> tuple[float, int]:
    """Seconds spent inside PinnedMiddleware.after_model over the workload, and how many batches it stopped."""
    spent, stops = 0.0, 0
    for config, steps in work:
        middleware = PinnedMiddleware(config_of({"config": config}))
        decisions = []
        began = time.perf_counter()
        for calls, thread, run in steps:
            decisions.append(middleware.after_model(calls, thread, run))
        spent += time.perf_counter() - began
        stops += sum(decision.action == "stop" for decision in decisions)
    return spent, stops


# -- upstream, from the reader's checkout ---------------------------------------------------------------------


def find_upstream(path: pathlib.Path) -> pathlib.Path:
    """The middleware file, from a checkout, its middlewares folder, or the file itself."""
    for candidate in (path / MIDDLEWARE_FILE, path / MIDDLEWARE_FILE.name, path):
        if candidate.is_file() and candidate.name == MIDDLEWARE_FILE.name:
            if not (candidate.parent / "_bounded_dict.py").is_file():
                raise SystemExit(f"{candidate.parent}: no _bounded_dict.py beside {candidate.name} (upstream imports it)")
            return candidate
    raise SystemExit(f"{path}: neither a DeerFlow checkout nor {MIDDLEWARE_FILE.name} (looked for {MIDDLEWARE_FILE})")


class StandInMessage:
    """What upstream's after_model reads of LangChain's AIMessage, and model_copy for its forced stop."""

    type = "ai"

    def __init__(self, tool_calls, content="", additional_kwargs=None, response_metadata=None):
        self.tool_calls = tool_calls
        self.content = content
        self.additional_kwargs = additional_kwargs or {}
        self.response_metadata = response_metadata or {}

    def model_copy(self, update):
        fields = {"tool_calls": self.tool_calls, "content": self.content,
                  "additional_kwargs": self.additional_kwargs, "response_metadata": self.response_metadata}
        return StandInMessage(**{**fields, **update})


class StandInRuntime:
    def __init__(self, context):
        self.context = context


def stand_in_modules(bounded_dict: pathlib.Path) -> dict[str, types.ModuleType]:
    """Modules upstream's file imports, reduced to the names it uses; deerflow's BoundedDict is upstream's own."""
    state = TypeVar("state")

    class AgentMiddleware(Generic[state]):
        pass

    modules = {name: types.ModuleType(name) for name in (
        "langchain", "langchain.agents", "langchain.agents.middleware", "langchain.agents.middleware.types",
        "langchain_core", "langchain_core.messages", "langgraph", "langgraph.runtime",
        "deerflow", "deerflow.agents", "deerflow.agents.middlewares")}
    modules["langchain.agents"].AgentState = dict
    modules["langchain.agents.middleware"].AgentMiddleware = AgentMiddleware
    for name in ("ModelCallResult", "ModelRequest", "ModelResponse"):
        setattr(modules["langchain.agents.middleware.types"], name, object)
    modules["langchain_core.messages"].HumanMessage = StandInMessage
    modules["langgraph.runtime"].Runtime = StandInRuntime
    spec = importlib.util.spec_from_file_location("deerflow.agents.middlewares._bounded_dict", bounded_dict)
    modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(modules[spec.name])
    return modules


def load_upstream(path: pathlib.Path):
    """Upstream's LoopDetectionMiddleware class, loaded from ``path`` beside the stand-ins."""
    source = find_upstream(path)
    if not hasattr(typing, "override"):  # Python 3.11: upstream imports typing.override, new in 3.12
        typing.override = lambda function: function
    sys.modules.update(stand_in_modules(source.parent / "_bounded_dict.py"))
    spec = importlib.util.spec_from_file_location("deerflow.agents.middlewares.loop_detection_middleware", source)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    logging.getLogger(spec.name).disabled = True
    return module.LoopDetectionMiddleware


def upstream_inputs(work: list) -> list:
    """The workload as upstream's after_model takes it: (constructor arguments, [(state, runtime), ...])."""
    prepared = []
    for config, steps in work:
        arguments = dict(config)
        arguments["tool_freq_overrides"] = {tool: tuple(pair) for tool, pair in config["tool_freq_overrides"].items()}
        prepared.append((arguments, [({"messages": [StandInMessage([dict(call, id=f"call-{i}-{j}")
                                                                     for j, call in enumerate(calls)])]},
                                      StandInRuntime({"thread_id": thread, "run_id": run}))
                                     for i, (calls, thread, run) in enumerate(steps)]))
    return prepared


def upstream_pass(middleware_class, prepared: list) -> tuple[float, int]:
    """Seconds inside upstream's after_model over the workload, and how many batches it stopped (it returns the
    stripped message only then)."""
    spent, stops = 0.0, 0
    for arguments, steps in prepared:
        middleware = middleware_class(**arguments)
        results = []
        began = time.perf_counter()
        for state, runtime in steps:
            results.append(middleware.after_model(state, runtime))
        spent += time.perf_counter() - began
        stops += sum(result is not None for result in results)
    return spent, stops


# -- the run ----------------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="passes per side; the best one counts")
    parser.add_argument("--upstream", type=pathlib.Path, default=os.environ.get("DEERFLOW_CHECKOUT") or None,
                        help="a DeerFlow checkout (or its loop_detection_middleware.py) to time side by side")
    args = parser.parse_args(argv)
    work = workload()
    batches = sum(len(steps) for _, steps in work)
    print(f"machine: {machine()}")

    if args.upstream is None:
        best, stops = min(loopkit_pass(work) for _ in range(args.repeat))
        rate = batches / best
        print(f"PinnedMiddleware.after_model: {batches:,} batches in {best * 1000:.1f} ms -> {rate:,.0f} batches/s "
              f"({stops:,} stops)")
        print("no goal without upstream's code beside it: pass --upstream PATH (a DeerFlow checkout) for the ratio")
        print(result_line(f"{rate:,.0f} batches/s (loopkit alone; this machine)", None, None))
        return 0

    upstream = load_upstream(args.upstream)
    prepared = upstream_inputs(work)
    ours, theirs = [], []
    for _ in range(args.repeat):  # interleaved, so that a change of load hits both sides
        ours.append(loopkit_pass(work))
        theirs.append(upstream_pass(upstream, prepared))
    (our_best, our_stops), (their_best, their_stops) = min(ours), min(theirs)
    ratio = (batches / our_best) / (batches / their_best)
    print(f"loopkit  PinnedMiddleware.after_model:  {batches / our_best:>10,.0f} batches/s ({our_stops:,} stops)")
    print(f"upstream LoopDetectionMiddleware (from {find_upstream(args.upstream)}): "
          f"{batches / their_best:>10,.0f} batches/s ({their_stops:,} stops)")
    if our_stops != their_stops:
        print(f"the two stopped different numbers of batches ({our_stops} and {their_stops}): not the same work")
        print(result_line(f"stops differ: loopkit {our_stops}, upstream {their_stops}", f">= {GOAL}x upstream", False))
        return 1
    met = ratio >= GOAL
    print(f"ratio {ratio:.2f}x, goal >= {GOAL}x: {'ok' if met else 'MISSED'}")
    print(result_line(f"{ratio:.2f}x upstream ({batches / our_best:,.0f} vs {batches / their_best:,.0f} batches/s)",
                      f">= {GOAL}x upstream, side by side", met))
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
