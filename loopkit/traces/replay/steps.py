"""The streaming replay: feed batches to a middleware one at a time, a :class:`ReplayedBatch` per batch, a :class:`Tally` of
what a summary needs (nothing more, so a transcript of any size replays in steady memory), and why each decision
was made."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from loopkit.core.detector import Decision, DetectorConfig, Outcome
from loopkit.core.language import tr
from loopkit.core.middleware import LoopMiddleware

from ..adapters import Batch, TraceError
from ..tool_maps import ToolMap

__all__ = ["REPLAY_THREAD", "ADVICE_AT", "ReplayedBatch", "Tally", "explain", "replay_batches"]

#: The thread id every replayed batch is counted in.
REPLAY_THREAD = "replay"


@dataclass(frozen=True)
class ReplayedBatch:
    """One replayed batch: its position, its calls as replayed (after any tool map), the decision, and the
    detector state right after it (only when asked for, for tables and plots)."""

    step: int
    where: str
    calls: list = field(hash=False)
    decision: Decision
    state: dict | None = field(default=None, hash=False)


class Tally:
    """What a replay found so far: batches replayed, warnings, the first warning and the stop, how often the
    frequency layer spoke, and the tool names replayed (up to two: enough to tell a one-tool agent)."""

    def __init__(self) -> None:
        self.replayed = 0
        self.warnings = 0
        self.first_warn: ReplayedBatch | None = None
        self.stop: ReplayedBatch | None = None
        self.frequency_decisions = 0
        self.tools: list[str] = []  # the first two distinct tool names replayed

    @property
    def only_tool(self) -> str | None:
        """The one tool every replayed call used, or None (no call, or more than one tool)."""
        return self.tools[0] if len(self.tools) == 1 else None

    def add(self, step: ReplayedBatch) -> None:
        self.replayed += 1
        for call in step.calls:
            if len(self.tools) < 2 and call["name"] not in self.tools:
                self.tools.append(call["name"])
        if step.decision.action != "ok" and step.decision.layer == "frequency":
            self.frequency_decisions += 1
        if step.decision.action == "warn":
            self.warnings += 1
            if self.first_warn is None:
                self.first_warn = step
        elif step.decision.action == "stop" and self.stop is None:
            self.stop = step

    def outcome(self, detector: str = "DeerFlow") -> Outcome:
        return Outcome(detector, self.first_warn.step if self.first_warn else None,
                       self.stop.step if self.stop else None)


#: Where a reader of a replay raises a tool's call budget: the command line's ``--override`` flag, or the upload
#: view's own box (chapter 10), which takes the same ``TOOL=WARN:HARD``.
ADVICE_AT = ("command line", "view")


def explain(decision: Decision, config: DetectorConfig, *, advice: str = "command line") -> str | None:
    """Why the detector warned or stopped, in words a user can act on (``None`` for ``ok``). A budget's advice names
    where to raise it: ``--override`` on the command line, or the tool budgets box of the upload view
    (``advice="view"``).

    >>> cfg = DetectorConfig()
    >>> print(explain(Decision("stop", "hash", None, 5), cfg))
    hash layer: the same batch 5 times in the last 20 turns (stops at 5)
    >>> print(*explain(Decision("stop", "frequency", "bash", 50), cfg).split("; "), sep=";\\n")
    frequency layer: 'bash' called 50 times in the last 50 calls (stops at 50);
    this is a call budget, not a repeat. Raise it with --override bash=WARN:HARD
    """
    if advice not in ADVICE_AT:
        raise ValueError(f"advice must be one of {', '.join(repr(a) for a in ADVICE_AT)}, got {advice!r}")
    if decision.action == "ok":
        return None
    if decision.layer == "hash":
        text = (tr("hash layer: the same batch {count} times in the last {window} turns (warns at {limit})")
                if decision.action == "warn" else
                tr("hash layer: the same batch {count} times in the last {window} turns (stops at {limit})"))
        limit = config.warn_threshold if decision.action == "warn" else config.hard_limit
        return text.format(count=decision.count, window=config.window_size, limit=limit)
    warn, hard = (config.thresholds_for(decision.tool) if decision.tool is not None  # the detector names the tool
                  else (config.tool_freq_warn, config.tool_freq_hard_limit))  # a decision made by hand may not
    fields = {"tool": repr(decision.tool), "count": decision.count, "window": config.freq_window,
              "limit": warn if decision.action == "warn" else hard, "name": decision.tool}
    if advice == "view":
        text = (tr("frequency layer: {tool} called {count} times in the last {window} calls (warns at {limit}); this "
                   "is a call budget, not a repeat. Raise it in this view's tool budgets box, as {name}=WARN:HARD")
                if decision.action == "warn" else
                tr("frequency layer: {tool} called {count} times in the last {window} calls (stops at {limit}); this "
                   "is a call budget, not a repeat. Raise it in this view's tool budgets box, as {name}=WARN:HARD"))
        return text.format(**fields)
    text = (tr("frequency layer: {tool} called {count} times in the last {window} calls (warns at {limit}); this is "
               "a call budget, not a repeat. Raise it with --override {name}=WARN:HARD") if decision.action == "warn"
            else tr("frequency layer: {tool} called {count} times in the last {window} calls (stops at {limit}); "
                    "this is a call budget, not a repeat. Raise it with --override {name}=WARN:HARD"))
    return text.format(**fields)


def _batch_at(item: Any, index: int) -> Batch:
    """A :class:`Batch` as it is, or a plain list of calls as the ``index``-th batch of an in-memory trace."""
    if isinstance(item, Batch):
        return item
    return Batch(index, f"batch {index}", item)


def replay_batches(batches: Iterable, middleware: LoopMiddleware, *, tool_map: ToolMap | None = None,
                   tally: Tally | None = None, with_state: bool = False, until_stop: bool = True) -> Iterator[ReplayedBatch]:
    """Feed ``batches`` (:class:`Batch` objects, or plain lists of calls) to ``middleware`` one at a time and
    yield a :class:`ReplayedBatch` for each one replayed.

    Each batch is mapped by ``tool_map`` first, if one is given. With ``until_stop`` (the default) nothing is
    replayed after the first stop, but the rest of ``batches`` is still read. A batch read from a transcript that
    the detector cannot key is a :class:`~loopkit.traces.adapters.TraceError` that names where it came from.
    """
    tally = tally if tally is not None else Tally()
    for index, item in enumerate(batches, start=1):
        batch = _batch_at(item, index)
        if until_stop and tally.stop is not None:
            continue
        calls = tool_map.map_batch(batch.calls) if tool_map is not None else batch.calls
        run_id = f"turn-{batch.turn}"
        try:
            decision = middleware.after_model(calls, REPLAY_THREAD, run_id)
        except (TypeError, ValueError, RecursionError) as exc:
            if batch is item:  # read from a transcript: arguments no adapter check caught, named by location
                raise TraceError(f"{batch.where}: the detector cannot key this batch ({exc})") from None
            raise  # an in-memory trace: the detector's own error already says which call
        state = middleware.snapshot(REPLAY_THREAD, run_id) if with_state else None
        step = ReplayedBatch(batch.step, batch.where, list(calls), decision, state)
        tally.add(step)
        yield step
