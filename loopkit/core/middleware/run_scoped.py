"""The later contract of upstream PRs #5245 and #5344: state per ``(thread, run_id)``, severity-first decisions."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ..detector import ScopeState, SeverityFirstDetector
from .hooks import STOP_REASON, LoopMiddleware, thread_key

__all__ = ["RunScopedMiddleware"]


class RunScopedMiddleware(LoopMiddleware):
    """The later contract: state per ``(thread, run_id)`` (PR #5344) and severity-first decisions (PR #5245).

    Modelled from the PR descriptions and upstream's later lifecycle documentation, not checked against code:

    * every run scope has its own windows, counts and marks, so a compiled agent reused across turns with a
      fresh ``run_id`` each turn no longer counts earlier turns (issue #5343); re-entries of one run (hidden goal
      continuations) share its budget;
    * the LRU (still bounded by ``max_tracked_threads``) evicts one whole run scope;
    * ``before_agent`` does nothing, so it cannot drop a sibling run's queued warning;
    * ``reset(thread_id)`` forgets every run scope of the thread and its unconsumed stop reasons.

    >>> from loopkit import DetectorConfig
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
            for scope in [scope for scope in self.detector.scopes if isinstance(scope, tuple) and scope[0] == thread]:
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
