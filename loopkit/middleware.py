"""The middleware around the detector, hook by hook: the pinned one and the later contract (chapters 06 and 07).

DeerFlow's ``LoopDetectionMiddleware`` is a LangChain agent middleware. The framework calls its hooks at fixed
points of an agent run; here each hook is a plain method that takes the ids the real hook reads from its runtime:

* ``before_agent(thread_id, run_id)``: a run (or a re-entry of it) begins;
* ``after_model(calls, thread_id, run_id) -> Decision``: the model emitted a batch of tool calls; the detector
  decides. A warning is *queued* for ``(thread_id, run_id)``; a stop records the run's stop reason;
* ``wrap_model_call(thread_id, run_id) -> list[Decision]``: the next model request is about to go out; the queued
  warnings are drained and merged into **one** message appended after every tool result (upstream PR #2752), so
  each tool call is still followed by its result;
* ``after_agent(thread_id, run_id)``: the run ended; its own queued warnings are dropped;
* ``consume_stop_reason(run_id)``: the caller (upstream: the subagent executor) reads why a run ended, once;
* ``reset(thread_id=None)``: forget a thread, or everything.

:class:`PinnedMiddleware` is deer-flow at the pinned commit ``f1f4af99``
(``backend/packages/harness/deerflow/agents/middlewares/loop_detection_middleware.py``), checked step by step
against 200 scripts recorded from that class (``tests/data/middleware-vectors.json.gz``).
:class:`RunScopedMiddleware` is the later contract of upstream PRs #5245 and #5344 (and #5486 for ``read_file``
keys), modelled from their descriptions; nothing here was checked against that code.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Hashable, Iterable, Mapping
from typing import Any

from .bounded import BoundedDict, LRUDict
from .detector import Decision, Detector, DetectorConfig, PinnedDetector, ScopeState, SeverityFirstDetector

__all__ = [
    "STOP_REASON",
    "STOP_REASON_CAPACITY",
    "MAX_PENDING_WARNINGS",
    "LoopMiddleware",
    "PinnedMiddleware",
    "RunScopedMiddleware",
    "merge_warnings",
    "thread_key",
    "pinned_run_id",
    "RunIdAnchors",
    "UPSTREAMS",
    "middleware_for",
]

#: What a stopped run records as its stop reason (upstream's ``loop_capped``).
STOP_REASON = "loop_capped"
#: How many unconsumed stop reasons are kept, first in first out (upstream's ``BoundedDict(1000)``).
STOP_REASON_CAPACITY = 1000
#: How many distinct warnings wait for one run's next model call; older ones are dropped first.
MAX_PENDING_WARNINGS = 4


def thread_key(thread_id: Any) -> str:
    """The thread a call belongs to: upstream reads ``thread_id`` from the runtime context and falls back to
    ``"default"`` when it is missing or empty.

    >>> thread_key("t-1"), thread_key(None), thread_key("")
    ('t-1', 'default', 'default')
    """
    return str(thread_id) if thread_id else "default"


def merge_warnings(warnings: Iterable[Decision]) -> list[Decision]:
    """The warnings one model request receives: in order, each text once (as upstream joins its queue).

    Upstream's hash warning has one fixed text, so two hash warnings merge; frequency warnings name their tool
    and count, so they merge only when both agree.
    """
    merged: dict[str | None, Decision] = {}
    for warning in warnings:
        merged.setdefault(warning.message, warning)
    return list(merged.values())


class LoopMiddleware:
    """What both versions share: the detector, the queue of pending warnings, the stop reasons, one lock.

    A subclass chooses the detector (which ordering), the scope a call's state belongs to, and what
    ``before_agent`` and ``reset`` do.
    """

    detector_class: type[Detector] = PinnedDetector

    def __init__(self, config: DetectorConfig | None = None) -> None:
        self.detector = self.detector_class(config, on_evict=self._scope_evicted)
        self._pending: dict[tuple[str, Hashable], list[Decision]] = {}
        self._stop_reasons: BoundedDict = BoundedDict(STOP_REASON_CAPACITY)
        self._lock = threading.Lock()

    @property
    def config(self) -> DetectorConfig:
        return self.detector.config

    def scope(self, thread_id: Hashable, run_id: Hashable) -> Hashable:
        """The key of the detector state a call of ``(thread_id, run_id)`` counts in."""
        raise NotImplementedError

    # -- the hooks ----------------------------------------------------------------------------------------------
    def before_agent(self, thread_id: Hashable, run_id: Hashable) -> None:
        """A run of ``thread_id`` begins (or is entered again)."""

    def after_model(self, calls: Iterable[Mapping[str, Any]], thread_id: Hashable, run_id: Hashable) -> Decision:
        """Decide on the model's batch of tool calls; queue a warning, or record the stop reason of a stop."""
        with self._lock:
            decision = self.detector.observe(calls, self.scope(thread_id, run_id))
            if decision.action == "warn":
                self._queue(thread_key(thread_id), run_id, decision)
            elif decision.action == "stop":
                self._record_stop(thread_key(thread_id), run_id)
            return decision

    def wrap_model_call(self, thread_id: Hashable, run_id: Hashable) -> list[Decision]:
        """Drain the run's queued warnings: what the one appended warning message holds (``[]``: no message)."""
        with self._lock:
            return merge_warnings(self._pending.pop((thread_key(thread_id), run_id), []))

    def after_agent(self, thread_id: Hashable, run_id: Hashable) -> None:
        """The run ended: a warning it never delivered is dropped, not carried into a later run."""
        with self._lock:
            self._pending.pop((thread_key(thread_id), run_id), None)

    def consume_stop_reason(self, run_id: Hashable) -> str | None:
        """Why ``run_id`` was stopped (``"loop_capped"``), once; ``None`` if it was not, or was already read."""
        with self._lock:
            stored = self._stop_reasons.pop(run_id, None)
            return None if stored is None else self._reason_of(stored)

    def reset(self, thread_id: Hashable | None = None) -> None:
        """Forget the state of ``thread_id``, or of everything when no thread is given."""
        raise NotImplementedError

    # -- what a learner can look at -----------------------------------------------------------------------------
    @property
    def pending(self) -> dict[tuple[str, Hashable], list[Decision]]:
        """A copy of the queued warnings, by ``(thread, run_id)``."""
        with self._lock:
            return {key: list(queue) for key, queue in self._pending.items()}

    @property
    def stop_reasons(self) -> dict:
        """A copy of the unconsumed stop reasons, oldest first, by run id."""
        with self._lock:
            return {run_id: self._reason_of(value) for run_id, value in self._stop_reasons.items()}

    def snapshot(self, thread_id: Hashable, run_id: Hashable) -> dict | None:
        """A copy of the detector state a call of ``(thread_id, run_id)`` would count in, or ``None``."""
        with self._lock:
            return self.detector.snapshot(self.scope(thread_id, run_id))

    # -- shared steps -------------------------------------------------------------------------------------------
    def _queue(self, thread: str, run_id: Hashable, warning: Decision) -> None:
        """Keep a warning for the run's next model call: each text once, at most the newest four."""
        queue = self._pending.setdefault((thread, run_id), [])
        if all(queued.message != warning.message for queued in queue):
            queue.append(warning)
        del queue[:-MAX_PENDING_WARNINGS]

    def _record_stop(self, thread: str, run_id: Hashable) -> None:
        self._stop_reasons[run_id] = STOP_REASON

    def _reason_of(self, stored: Any) -> str:
        return stored

    def _drop_pending(self, keep: Any) -> None:
        """Drop the queued warnings whose ``(thread, run)`` key ``keep`` rejects."""
        for key in [key for key in self._pending if not keep(key)]:
            del self._pending[key]

    def _scope_evicted(self, scope: Hashable, state: ScopeState) -> None:
        """The detector's LRU dropped ``scope``; its queued warnings go with it."""


class PinnedMiddleware(LoopMiddleware):
    """deer-flow's ``LoopDetectionMiddleware`` at the pinned commit ``f1f4af99``, hook by hook.

    State is per **thread**: an LRU of thread states bounded by ``max_tracked_threads``, decided by
    :class:`~loopkit.detector.PinnedDetector`. Warnings queue per ``(thread, run)``; ``before_agent`` drops the
    queued warnings of the thread's *other* runs, and evicting a thread drops its queued warnings too.

    >>> m = PinnedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=3))
    >>> pytest = [{"name": "bash", "args": {"command": "pytest"}}]
    >>> m.before_agent("t1", "r1")
    >>> [m.after_model(pytest, "t1", "r1").action for _ in range(2)]
    ['ok', 'warn']
    >>> [w.layer for w in m.wrap_model_call("t1", "r1")], m.after_model(pytest, "t1", "r1").action
    (['hash'], 'stop')
    >>> m.consume_stop_reason("r1"), m.consume_stop_reason("r1")
    ('loop_capped', None)
    """

    detector_class = PinnedDetector

    def scope(self, thread_id: Hashable, run_id: Hashable) -> str:
        return thread_key(thread_id)

    def before_agent(self, thread_id: Hashable, run_id: Hashable) -> None:
        """Drop the warnings still queued for the thread's other runs: a stale warning must not reach this run."""
        thread = thread_key(thread_id)
        with self._lock:
            self._drop_pending(lambda key: key[0] != thread or key[1] == run_id)

    def reset(self, thread_id: Hashable | None = None) -> None:
        """Forget a thread's state and queued warnings (its runs' unconsumed stop reasons are kept); with no (or
        an empty) thread id, forget everything, stop reasons included."""
        with self._lock:
            if thread_id:
                thread = str(thread_id)
                self.detector.forget(thread)
                self._drop_pending(lambda key: key[0] != thread)
            else:
                self.detector.forget_all()
                self._pending.clear()
                self._stop_reasons.clear()

    def _scope_evicted(self, scope: Hashable, state: ScopeState) -> None:
        self._drop_pending(lambda key: key[0] != scope)


class RunScopedMiddleware(LoopMiddleware):
    """The later contract: state per ``(thread, run_id)`` (PR #5344) and severity-first decisions (PR #5245).

    Modelled from the PR descriptions and upstream's later lifecycle documentation, not checked against code:

    * every run scope has its own windows, counts and marks, so a compiled agent reused across turns with a
      fresh ``run_id`` each turn no longer counts earlier turns (issue #5343); re-entries of one run (hidden goal
      continuations) share its budget;
    * the LRU (still bounded by ``max_tracked_threads``) evicts one whole run scope;
    * ``before_agent`` does nothing, so it cannot drop a sibling run's queued warning;
    * ``reset(thread_id)`` forgets every run scope of the thread and its unconsumed stop reasons.

    >>> m = RunScopedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=3))
    >>> pytest = [{"name": "bash", "args": {"command": "pytest"}}]
    >>> [m.after_model(pytest, "t1", f"turn-{i}").action for i in range(5)]  # a fresh run id every turn
    ['ok', 'ok', 'ok', 'ok', 'ok']
    """

    detector_class = SeverityFirstDetector

    def scope(self, thread_id: Hashable, run_id: Hashable) -> tuple[str, Hashable]:
        return (thread_key(thread_id), run_id)

    def reset(self, thread_id: Hashable | None = None) -> None:
        """Forget a thread's run scopes, queued warnings and unconsumed stop reasons; with no thread, everything."""
        with self._lock:
            if not thread_id:
                self.detector.forget_all()
                self._pending.clear()
                self._stop_reasons.clear()
                return
            thread = str(thread_id)
            for scope in [scope for scope in self.detector.scopes if scope[0] == thread]:
                self.detector.forget(scope)
            self._drop_pending(lambda key: key[0] != thread)
            for run_id in [run_id for run_id, (owner, _) in self._stop_reasons.items() if owner == thread]:
                del self._stop_reasons[run_id]

    def _record_stop(self, thread: str, run_id: Hashable) -> None:
        self._stop_reasons[run_id] = (thread, STOP_REASON)  # the owner, so a thread reset can clear it

    def _reason_of(self, stored: Any) -> str:
        return stored[1]

    def _scope_evicted(self, scope: Hashable, state: ScopeState) -> None:
        self._drop_pending(lambda key: key != scope)


# -- where the run id comes from ---------------------------------------------------------------------------------
_MISSING = object()


def pinned_run_id(context: Mapping | None, runtime: object) -> Hashable:
    """The run id as the pinned middleware reads it: present in the context means used, even when it is ``None``
    (an embedded subagent's run id can be); absent falls back to ``str(id(runtime))``.

    >>> pinned_run_id({"run_id": None}, object()) is None
    True
    """
    value = context.get("run_id", _MISSING) if isinstance(context, Mapping) else _MISSING
    return str(id(runtime)) if value is _MISSING else value


class RunIdAnchors:
    """The later fallback for a missing run id, modelled from the discussion of upstream PR #5344.

    LangGraph builds a new ``Runtime`` per node and CPython reuses the addresses of freed objects, so
    ``id(runtime)`` can neither follow one run nor tell two runs apart. The later contract anchors the fallback
    to the invocation's shared ``Runtime.control`` object and maps it to an opaque generated id; ``after_agent``
    releases the mapping, and a bound on the map covers runs that never reach ``after_agent``. (Keeping the map
    least-recently-used, so an active run keeps its anchor, is this workbook's choice.)

    >>> anchors, control = RunIdAnchors(), object()
    >>> first = anchors.run_id({}, control)
    >>> first == anchors.run_id({}, control), first.startswith("anon-run-")
    (True, True)
    """

    def __init__(self, maxsize: int = STOP_REASON_CAPACITY) -> None:
        self._ids: LRUDict = LRUDict(maxsize)
        self._counter = itertools.count(1)

    def run_id(self, context: Mapping | None, control: object) -> Hashable:
        """The context's run id if it has one, else the id anchored to ``control`` (made on first use)."""
        if isinstance(context, Mapping) and "run_id" in context:
            return context["run_id"]
        key = id(control)
        anchored = self._ids.get(key)
        if anchored is None or anchored[0] is not control:
            anchored = self._ids[key] = (control, f"anon-run-{next(self._counter)}")
        return anchored[1]

    def release(self, control: object) -> None:
        """Forget the id anchored to ``control`` (``after_agent``)."""
        anchored = self._ids.get(id(control))
        if anchored is not None and anchored[0] is control:
            del self._ids[id(control)]

    def __len__(self) -> int:
        return len(self._ids)


#: The upstream versions a replay or a chapter can pick, by name.
UPSTREAMS = {"pinned": PinnedMiddleware, "run-scoped": RunScopedMiddleware}


def middleware_for(upstream: str, config: DetectorConfig | None = None) -> LoopMiddleware:
    """A fresh middleware of the named upstream version: ``"pinned"`` or ``"run-scoped"``."""
    if upstream not in UPSTREAMS:
        raise ValueError(f"upstream must be one of {', '.join(repr(u) for u in UPSTREAMS)}, got {upstream!r}")
    return UPSTREAMS[upstream](config)
