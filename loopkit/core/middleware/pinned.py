"""deer-flow's ``LoopDetectionMiddleware`` at the pinned commit ``f1f4af99``: state per thread."""

from __future__ import annotations

from collections.abc import Hashable

from ..detector import Decision, PinnedDetector, ScopeState
from .hooks import LoopMiddleware, thread_key

__all__ = ["PinnedMiddleware"]


class PinnedMiddleware(LoopMiddleware):
    """deer-flow's ``LoopDetectionMiddleware`` at the pinned commit ``f1f4af99``, hook by hook.

    State is per **thread**: an LRU of thread states bounded by ``max_tracked_threads``, decided by
    :class:`~loopkit.core.detector.PinnedDetector`. Warnings queue per ``(thread, run)``; ``before_agent`` drops the
    queued warnings of the thread's *other* runs, and evicting a thread drops its queued warnings too. At most
    :attr:`pending_key_capacity` ``(thread, run)`` keys hold queued warnings: queuing one more drops the least
    recently queued-to *other* key (runs whose ``after_agent`` never came must not pile up).

    >>> from loopkit import DetectorConfig
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

    @property
    def pending_key_capacity(self) -> int:
        """How many ``(thread, run)`` keys may hold queued warnings: twice ``max_tracked_threads``, at least one
        (upstream's ``_max_pending_warning_keys``, ``loop_detection_middleware.py`` at ``f1f4af99``, line 277)."""
        return max(1, 2 * self.config.max_tracked_threads)

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

    def _queue(self, thread: str, run_id: Hashable, warning: Decision) -> None:
        """Queue as both versions do, then keep the keys in the order they were last queued to and drop the oldest
        keys but this one while there are more than :attr:`pending_key_capacity` (upstream's
        ``_touch_pending_warning_key_locked`` and ``_prune_pending_warning_state_locked``). Draining, ``after_agent``,
        ``before_agent``, eviction and ``reset`` remove a key outright, so the dict's own order is the touch order."""
        super()._queue(thread, run_id, warning)
        key = (thread, run_id)
        self._pending[key] = self._pending.pop(key)  # touched: now the most recent
        overflow = len(self._pending) - self.pending_key_capacity
        for older in [other for other in self._pending if other != key][:max(0, overflow)]:
            del self._pending[older]

    def _scope_evicted(self, scope: Hashable, state: ScopeState) -> None:
        self._drop_pending(lambda key: key[0] != scope)
