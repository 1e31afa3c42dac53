"""The hooks both versions share: a :class:`LoopMiddleware` holds the detector, the queue of pending warnings, the
stop reasons and one lock; a subclass chooses the scope, the detector's ordering, ``before_agent`` and ``reset``."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any

from ..bounded import BoundedDict
from ..detector import Decision, Detector, DetectorConfig, PinnedDetector, ScopeState

__all__ = ["STOP_REASON", "STOP_REASON_CAPACITY", "MAX_PENDING_WARNINGS", "thread_key", "merge_warnings",
           "LoopMiddleware"]

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

    def wrap_model_call(self, thread_id: Hashable, run_id: Hashable,
                        model_call: Callable[[list[Decision]], Any] | None = None) -> list[Decision]:
        """Drain the run's queued warnings: what the one appended warning message holds (``[]``: no message).

        ``model_call``, if given, stands for the model: it is called with those warnings, and whatever it raises
        reaches the caller. At the pinned commit the warnings are drained before the model is called, so a call
        that raises loses them (``wrap_model_call`` at ``f1f4af99``, lines 700–705); the later version puts them back.
        """
        with self._lock:
            warnings = merge_warnings(self._pending.pop((thread_key(thread_id), run_id), []))
        if model_call is not None:
            model_call(warnings)
        return warnings

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
