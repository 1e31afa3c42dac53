"""Three scenarios that changed DeerFlow's detector, played through the pinned and the later model (chapter 07).

Each :class:`Scenario` is a short script of model turns (thread, run, batch) taken from an upstream report:

* ``issue_5243``: one turn with three different ``read_file`` calls, ``tool_freq_warn=2``,
  ``tool_freq_hard_limit=3`` (issue #5243, fixed by PR #5245);
* ``issue_5343``: a compiled agent reused across five separate user turns, the same call once per turn, each turn
  a fresh run id in one thread (issue #5343, fixed by PR #5344);
* ``pr_5486``: one file read in twelve consecutive 50-line pages (PR #5486).

:func:`side_by_side` plays a scenario through a fresh :class:`~loopkit.core.middleware.PinnedMiddleware` and a fresh
:class:`~loopkit.core.middleware.RunScopedMiddleware`, calling ``before_agent`` and ``after_agent`` whenever the run
changes, and returns one row per turn. The scripts are this workbook's renderings of the reports, not upstream
tests.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from loopkit.core.detector import Decision, DetectorConfig
from loopkit.core.language import N_, tr
from loopkit.core.middleware import LoopMiddleware, middleware_for

__all__ = ["Turn", "Scenario", "SCENARIOS", "get", "play", "side_by_side", "calls_that_run"]


@dataclass(frozen=True)
class Turn:
    """One model turn of a scenario: the batch the model emitted, in which thread and run."""

    thread: Hashable
    run: Hashable
    calls: tuple


@dataclass(frozen=True)
class Scenario:
    """A script of turns, the config it is played with, and what upstream report it comes from.

    The fields hold the title and the source in English; ``title`` and ``source`` give them in the learner's
    language (:func:`loopkit.core.language.tr`), read when they are shown.
    """

    name: str
    english_title: str
    english_source: str
    turns: tuple[Turn, ...]
    config: DetectorConfig = field(default_factory=DetectorConfig)

    @property
    def title(self) -> str:
        return tr(self.english_title)

    @property
    def source(self) -> str:
        return tr(self.english_source)


def _call(name: str, **args) -> dict:
    return {"name": name, "args": args}


def _reads_in_one_turn() -> Scenario:
    reads = tuple(_call("read_file", path=path) for path in ("a.py", "b.py", "c.py"))
    return Scenario(
        "issue_5243", N_("three reads of one tool in one turn"),
        N_("issue #5243, fixed by PR #5245"), (Turn("thread", "run", reads),),
        DetectorConfig(tool_freq_warn=2, tool_freq_hard_limit=3))


def _reused_agent() -> Scenario:
    test = (_call("bash", command="pytest tests/test_api.py"),)
    turns = tuple(Turn("thread", f"turn-{n}", test) for n in range(1, 6))
    return Scenario("issue_5343", N_("a reused agent, one call per user turn"), N_("issue #5343, fixed by PR #5344"),
                    turns)


def _paging() -> Scenario:
    pages = tuple(Turn("thread", "run", (_call("read_file", path="src/big.py", start_line=start,
                                                end_line=start + 49),))
                  for start in range(1, 600, 50))
    return Scenario("pr_5486", N_("one file read in consecutive 50-line pages"), N_("PR #5486"), pages)


#: The scenarios by name, in the chapter's order.
SCENARIOS = {s.name: s for s in (_reads_in_one_turn(), _reused_agent(), _paging())}


def get(name: str) -> Scenario:
    """The scenario called ``name``; a ``KeyError`` lists the names there are."""
    if name not in SCENARIOS:
        raise KeyError(f"no scenario named {name!r}; expected one of {', '.join(SCENARIOS)}")
    return SCENARIOS[name]


def play(scenario: Scenario, middleware: LoopMiddleware) -> list[Decision]:
    """The decision of every turn, calling ``before_agent``/``after_agent`` whenever the run changes."""
    decisions, current = [], None
    for turn in scenario.turns:
        if (turn.thread, turn.run) != current:
            if current is not None:
                middleware.after_agent(*current)
            current = (turn.thread, turn.run)
            middleware.before_agent(*current)
        decisions.append(middleware.after_model(list(turn.calls), turn.thread, turn.run))
    if current is not None:
        middleware.after_agent(*current)
    return decisions


def calls_that_run(turn: Turn, decision: Decision) -> int:
    """How many of the turn's calls run: all of them, unless the turn was stopped."""
    return 0 if decision.action == "stop" else len(turn.calls)


def side_by_side(scenario: Scenario | str, config: DetectorConfig | None = None) -> list[dict]:
    """One row per turn: the turn, then what the pinned and the later model decide and how many calls run.

    >>> [(row["pinned"], row["later"]) for row in side_by_side("issue_5243")]
    [('warn frequency read_file 2', 'stop frequency read_file 3')]
    """
    scenario = get(scenario) if isinstance(scenario, str) else scenario
    config = config if config is not None else scenario.config
    pinned = play(scenario, middleware_for("pinned", config))
    later = play(scenario, middleware_for("run-scoped", config))
    rows = []
    for number, (turn, early, late) in enumerate(zip(scenario.turns, pinned, later, strict=True), start=1):
        rows.append({"turn": number, "run": turn.run, "calls": len(turn.calls),
                     "pinned": early.brief(), "pinned runs": calls_that_run(turn, early),
                     "later": late.brief(), "later runs": calls_that_run(turn, late)})
    return rows
