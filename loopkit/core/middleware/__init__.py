"""The middleware around the detector, hook by hook: the pinned one and a later one (chapters 06 and 07).

DeerFlow's ``LoopDetectionMiddleware`` is a LangChain agent middleware. The framework calls its hooks at fixed
points of an agent run; here each hook is a plain method that takes the ids the real hook reads from its runtime
(the later middleware also takes a :class:`Runtime` in place of a run id, and reads the run id from it):

* ``before_agent(thread_id, run_id)``: a run (or a re-entry of it) begins;
* ``after_model(calls, thread_id, run_id) -> Decision``: the model emitted a batch of tool calls; the detector
  decides. A warning is *queued* for ``(thread_id, run_id)``; a stop records the run's stop reason;
* ``wrap_model_call(thread_id, run_id, model_call=None) -> list[Decision]``: the next model request is about to
  go out; the queued warnings are drained and merged into **one** message appended after every tool result
  (upstream PR #2752), so each tool call is still followed by its result (``model_call`` stands for the model);
* ``after_agent(thread_id, run_id)``: the run ended; its own queued warnings are dropped;
* ``consume_stop_reason(run_id)``: the caller (upstream: the subagent executor) reads why a run ended, once;
* ``reset(thread_id=None)``: forget a thread, or everything.

:class:`PinnedMiddleware` is deer-flow at the pinned commit ``f1f4af99``
(``backend/packages/harness/deerflow/agents/middlewares/loop_detection_middleware.py``), checked step by step
against 200 scripts recorded from that class (``tests/data/middleware-vectors.json.gz``) and 50 more aimed at its
cap on the ``(thread, run)`` keys that hold queued warnings (``tests/data/middleware-cap-vectors.json.gz``).
:class:`RunScopedMiddleware` is a later version of the same file, as read in the public fork ``ucan-ai/deer-flow`` at
``711035d2d1c04737fa632bbb5f2bcb7828b4b682`` (the upstream commit it corresponds to could not be identified), checked
step by step against 100 scripts recorded from that class (``tests/data/later-middleware-vectors.json.gz``). Its
changes came with upstream PRs #5245, #5344, #5433, #5486 and #5127, among others; see its docstring.
"""


from __future__ import annotations

from ..detector import DetectorConfig
from .hooks import MAX_PENDING_WARNINGS, STOP_REASON, STOP_REASON_CAPACITY, LoopMiddleware, merge_warnings, thread_key
from .pinned import PinnedMiddleware
from .run_ids import RunIdAnchors, Runtime, pinned_run_id
from .run_scoped import LATER_SOURCE, JournalEvent, RunScopedMiddleware

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
    "Runtime",
    "JournalEvent",
    "LATER_SOURCE",
    "UPSTREAMS",
    "middleware_for",
]

#: The upstream versions a replay or a chapter can pick, by name.
UPSTREAMS = {"pinned": PinnedMiddleware, "run-scoped": RunScopedMiddleware}


def middleware_for(upstream: str, config: DetectorConfig | None = None) -> LoopMiddleware:
    """A fresh middleware of the named upstream version: ``"pinned"`` or ``"run-scoped"``."""
    if upstream not in UPSTREAMS:
        raise ValueError(f"upstream must be one of {', '.join(repr(u) for u in UPSTREAMS)}, got {upstream!r}")
    return UPSTREAMS[upstream](config)
