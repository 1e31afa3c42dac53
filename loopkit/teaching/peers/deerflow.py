"""DeerFlow's own detector as a peer: the workbook's model of the pinned middleware, judged per batch like the
others."""

from __future__ import annotations

from loopkit.core.detector import DetectorConfig
from loopkit.core.language import N_
from loopkit.core.middleware import PinnedMiddleware

from .model import PeerModel, is_message

__all__ = ["DeerFlow"]


class DeerFlow(PeerModel):
    """DeerFlow's own detector at the pinned commit (:class:`loopkit.core.middleware.PinnedMiddleware`), judged per
    batch like the peers.

    Not a simplification: this runs the workbook's conformance-checked model of the middleware with ``config``.

    >>> batch = [{"name": "bash", "args": {"command": "pytest"}}]
    >>> DeerFlow().run([batch] * 6)
    Outcome(detector='DeerFlow', warn_step=3, stop_step=5)
    """

    name = "DeerFlow"
    repo = "bytedance/deer-flow"
    commit = "f1f4af99bbf1cffb83a80744bf6e4a44ee8f24be"
    path = "backend/packages/harness/deerflow/agents/middlewares/loop_detection_middleware.py"
    english_rule = N_("the same order-free batch fingerprint 3 times in 20 batches warns, 5 stops; one tool 30 times "
                      "in 50 calls warns, 50 stops")
    note = "the workbook's model of DeerFlow's LoopDetectionMiddleware"

    def __init__(self, config: DetectorConfig | None = None) -> None:
        if config is not None and not isinstance(config, DetectorConfig):
            raise TypeError(f"config must be a DetectorConfig or None, got {type(config).__name__}")
        self.config = config or DetectorConfig()

    def _start(self):
        return PinnedMiddleware(self.config)

    def _step(self, middleware, batch):
        return {middleware.after_model([c for c in batch if not is_message(c)], "default", "default").action} - {"ok"}
