"""deer-flow's later ``LoopDetectionMiddleware``, as read in the public fork ``ucan-ai/deer-flow`` at ``711035d2``:
state per ``(thread, run_id)``, severity-first decisions, the later keys, and warnings kept across a failed call."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..batches import check_batch
from ..detector import OK, Decision, DetectorConfig, ScopeState, SeverityFirstDetector
from .hooks import MAX_PENDING_WARNINGS, STOP_REASON, LoopMiddleware, thread_key
from .run_ids import RunIdAnchors, Runtime

__all__ = ["LATER_SOURCE", "JournalEvent", "RunScopedMiddleware"]

#: Where the later class was read: the fork, the commit and the file (the upstream commit could not be identified).
LATER_SOURCE = ("ucan-ai/deer-flow", "711035d2d1c04737fa632bbb5f2bcb7828b4b682",
                "backend/packages/harness/deerflow/agents/middlewares/loop_detection_middleware.py")


@dataclass(frozen=True)
class JournalEvent:
    """What the later middleware records in the run journal for a warning or a stop (upstream PR #5127).

    Names, counts and thresholds only: never a tool's arguments, a message or a fingerprint. ``layer`` uses the
    journal's words, ``"identical_call_set"`` (the hash layer) or ``"tool_frequency"``.
    """

    action: Literal["warn", "hard_stop"]
    layer: Literal["identical_call_set", "tool_frequency"]
    tool_names: tuple[str, ...]
    count: int
    threshold: int


class RunScopedMiddleware(LoopMiddleware):
    """deer-flow's later ``LoopDetectionMiddleware``, hook by hook, as read in ``ucan-ai/deer-flow`` at ``711035d2``.

    Checked step by step against 100 scripts recorded from that class (``tests/data/later-middleware-vectors.json.gz``).
    What changed since the pinned commit, with the upstream PR where one is named:

    * state per ``(thread, run_id)`` (PR #5344): a compiled agent reused across turns with a fresh ``run_id`` each
      turn no longer counts earlier turns (issue #5343); re-entries of one run share its budget; the LRU (still
      bounded by ``max_tracked_threads``) evicts one whole run scope; ``before_agent`` does nothing;
      ``reset(thread_id)`` forgets the thread's run scopes, queued warnings and unconsumed stop reasons;
    * a run id can be a :class:`~loopkit.core.middleware.run_ids.Runtime`: its run id comes from the context, else
      from its execution info, else from an anchor (:class:`~loopkit.core.middleware.run_ids.RunIdAnchors`, PR
      #5344), in a map bounded at ``max(1, 2 * max_tracked_threads)`` and cleared by ``reset()``;
    * severity-first decisions (PR #5245) over the later keys (:func:`~loopkit.core.keys.later_stable_key`;
      PR #5486 for exact ``read_file`` windows): :class:`~loopkit.core.detector.SeverityFirstDetector`;
    * a model call that raises gets its warnings back at the front of the queue, so a retry still carries them
      (PR #5433): pass the call as ``wrap_model_call(..., model_call=...)``;
    * every warning and stop is recorded in :attr:`journal` (PR #5127), and :meth:`release_policy_parameters` names
      the settings.

    Unchanged: the thresholds and their defaults, at most 4 queued warnings per run, at most
    ``max(1, 2 * max_tracked_threads)`` ``(thread, run)`` keys holding queued warnings, and the stop reason.

    The class's own comments name #3875 (the stop reason), #4176 (the stop reason also written into the runtime
    context, which is not modelled here) and #1905 (the ``description`` left out of the key). Which upstream commit
    the fork's file matches could not be identified: the fork's history was not readable, so no PR above was found
    with ``git log``; each is credited from its own description or review.

    >>> from loopkit import DetectorConfig
    >>> m = RunScopedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=3))
    >>> pytest = [{"name": "bash", "args": {"command": "pytest"}}]
    >>> [m.after_model(pytest, "t1", f"turn-{i}").action for i in range(5)]  # a fresh run id every turn
    ['ok', 'ok', 'ok', 'ok', 'ok']
    """

    detector_class = SeverityFirstDetector

    def __init__(self, config: DetectorConfig | None = None) -> None:
        super().__init__(config)
        self.anchors = RunIdAnchors(self.pending_key_capacity)
        self._journal: list[JournalEvent] = []

    @property
    def pending_key_capacity(self) -> int:
        """How many ``(thread, run)`` keys may hold queued warnings, and how many anchored run ids are kept:
        twice ``max_tracked_threads``, at least one (``_max_pending_warning_keys`` and ``_max_fallback_run_ids``)."""
        return max(1, 2 * self.config.max_tracked_threads)

    def scope(self, thread_id: Hashable, run_id: Hashable) -> tuple[str, Hashable]:
        return (thread_key(thread_id), run_id)

    def run_id_of(self, run: Hashable | Runtime) -> Hashable:
        """The run id a hook call counts under: ``run`` itself, or the id read from a :class:`Runtime`."""
        return self.anchors.run_id(run) if isinstance(run, Runtime) else run

    # -- the hooks that differ from the shared ones ---------------------------------------------------------------
    def after_model(self, calls: Iterable[Mapping[str, Any]], thread_id: Hashable,
                    run_id: Hashable | Runtime) -> Decision:
        """Decide as the shared hook does; a warning or a stop is also recorded in the :attr:`journal`. A batch
        without tool calls is ``ok`` before the run id is even read, as upstream returns first."""
        batch = check_batch(calls)
        if not batch:
            return OK
        decision = super().after_model(batch, thread_id, self.run_id_of(run_id))
        if decision.action != "ok":
            self._journal.append(self._event(batch, decision))
        return decision

    def wrap_model_call(self, thread_id: Hashable, run_id: Hashable | Runtime,
                        model_call: Callable[[list[Decision]], Any] | None = None) -> list[Decision]:
        """Drain the run's queued warnings; if ``model_call`` raises, put them back before the exception goes on.

        Upstream's outer error middleware retries a failed call by running this hook again, and the retry must
        still carry the warning: it would not be queued again, as it is already marked (PR #5433).
        """
        warnings = super().wrap_model_call(thread_id, self.run_id_of(run_id))
        if model_call is not None:
            try:
                model_call(warnings)
            except Exception:
                self._restore(thread_key(thread_id), self.run_id_of(run_id), warnings)
                raise
        return warnings

    def after_agent(self, thread_id: Hashable, run_id: Hashable | Runtime) -> None:
        """Drop the run's undelivered warnings, then release its anchored run id, if it had one."""
        super().after_agent(thread_id, self.run_id_of(run_id))
        if isinstance(run_id, Runtime):
            self.anchors.release(run_id)

    def reset(self, thread_id: Hashable | None = None) -> None:
        """Forget a thread's run scopes, queued warnings and unconsumed stop reasons; with no (or an empty) thread
        id, everything, the anchored run ids included.

        The thread id is compared as given, as upstream compares it: the state of thread ``"7"`` is not reset by
        ``reset(7)``.
        """
        with self._lock:
            if not thread_id:
                self.detector.forget_all()
                self._pending.clear()
                self._stop_reasons.clear()
                self.anchors.clear()
                return
            thread = thread_id  # as given: upstream compares it with the keys' thread text without converting it
            for scope in [scope for scope in self.detector.scopes if isinstance(scope, tuple) and scope[0] == thread]:
                self.detector.forget(scope)
            self._drop_pending(lambda key: key[0] != thread)
            for run_id in [run_id for run_id, (owner, _) in self._stop_reasons.items() if owner == thread]:
                del self._stop_reasons[run_id]

    # -- what else the later version offers -----------------------------------------------------------------------
    @property
    def journal(self) -> list[JournalEvent]:
        """A copy of the warnings and stops recorded so far, oldest first (upstream: ``middleware:loop_detection``
        events in the run journal, when the run has one)."""
        with self._lock:
            return list(self._journal)

    def release_policy_parameters(self) -> dict:
        """The settings that shape the middleware's behaviour, by upstream's constructor names."""
        return self.config.as_dict()

    # -- the steps behind the hooks -------------------------------------------------------------------------------
    def _queue(self, thread: str, run_id: Hashable, warning: Decision) -> None:
        """Queue as both versions do, then touch the key and keep at most :attr:`pending_key_capacity` keys."""
        super()._queue(thread, run_id, warning)
        self._touch((thread, run_id))

    def _restore(self, thread: str, run_id: Hashable, warnings: list[Decision]) -> None:
        """Put the warnings of a failed model call back at the front of the run's queue (each text once, the first
        four kept), and touch the key."""
        if not warnings:
            return
        key = (thread, run_id)
        with self._lock:
            queued = self._pending.pop(key, [])
            texts = {warning.message for warning in queued}
            restored = [warning for warning in warnings if warning.message not in texts] + queued
            self._pending[key] = restored[:MAX_PENDING_WARNINGS]
            self._touch(key)

    def _touch(self, key: tuple[str, Hashable]) -> None:
        """Make ``key`` the most recently touched, then drop the least recently touched *other* keys while more than
        :attr:`pending_key_capacity` hold warnings (upstream's touch order and prune, for runs that never end)."""
        self._pending[key] = self._pending.pop(key)
        overflow = len(self._pending) - self.pending_key_capacity
        for older in [other for other in self._pending if other != key][:max(0, overflow)]:
            del self._pending[older]

    def _event(self, batch: list, decision: Decision) -> JournalEvent:
        """The journal's record of a warning or a stop: its layer, tools, count and the threshold it reached."""
        stops = decision.action == "stop"
        count = decision.count if decision.count is not None else 0  # a warning or a stop always has its count
        if decision.tool is None:  # the hash layer: the whole batch's tools
            names = tuple(str(call.get("name") or "?") for call in batch)
            threshold = self.config.hard_limit if stops else self.config.warn_threshold
            return JournalEvent("hard_stop" if stops else "warn", "identical_call_set", names, count, threshold)
        warn, hard = self.config.thresholds_for(decision.tool)
        return JournalEvent("hard_stop" if stops else "warn", "tool_frequency", (decision.tool,), count,
                            hard if stops else warn)

    def _record_stop(self, thread: str, run_id: Hashable) -> None:
        self._stop_reasons[run_id] = (thread, STOP_REASON)  # the owner, so a thread reset can clear it

    def _reason_of(self, stored: Any) -> str:
        return stored[1]

    def _scope_evicted(self, scope: Hashable, state: ScopeState) -> None:
        self._drop_pending(lambda key: key != scope)
