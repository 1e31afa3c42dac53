"""deer-flow's ``LoopDetectionMiddleware`` at the pinned commit ``f1f4af99``: state per thread."""

from __future__ import annotations

from collections.abc import Hashable

from ..detector import PinnedDetector, ScopeState
from .hooks import LoopMiddleware, thread_key

__all__ = ["PinnedMiddleware"]


class PinnedMiddleware(LoopMiddleware):
    """deer-flow's ``LoopDetectionMiddleware`` at the pinned commit ``f1f4af99``, hook by hook.

    State is per **thread**: an LRU of thread states bounded by ``max_tracked_threads``, decided by
    :class:`~loopkit.detector.PinnedDetector`. Warnings queue per ``(thread, run)``; ``before_agent`` drops the
    queued warnings of the thread's *other* runs, and evicting a thread drops its queued warnings too.

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
