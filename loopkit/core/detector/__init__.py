"""The loop detector: two layers over sliding windows, in the two orderings DeerFlow has used (chapters 05–07).

After every model turn the detector looks at the turn's *batch* of tool calls and decides ``ok``, ``warn`` or
``stop``:

* the **hash layer** counts the batch's fingerprint in a window of the last ``window_size`` batches;
* the **frequency layer** counts each tool *name* in a window of the last ``freq_window`` calls, whatever the
  arguments, so a loop that varies its arguments is still noticed.

Both layers keep their state per *scope*, in an LRU dict bounded by ``max_tracked_threads``. Which scope, and in
which order the layers are asked, depends on the upstream version:

* :class:`PinnedDetector` is deer-flow at the pinned commit ``f1f4af99``
  (``backend/packages/harness/deerflow/agents/middlewares/loop_detection_middleware.py``): the hash layer first,
  and the first warning or stop returns at once. The recorded conformance scripts in ``tests/data/`` check it
  decision by decision.
* :class:`SeverityFirstDetector` is the later version (upstream PR #5245, issue #5243): the whole batch is
  counted, a hard stop in either layer wins, and only the warning that is delivered is marked. It keys calls by
  the later keys (``read_file`` by its exact line window, PR #5486; other tools by all their arguments). It is
  the class as read in the public fork ``ucan-ai/deer-flow`` at ``711035d2``, checked step by step against 100
  scripts recorded from it (``tests/data/later-middleware-vectors.json.gz``).

The hooks around the decisions (where warnings go, what a stop does, which scope a call belongs to) live in
:mod:`loopkit.core.middleware`.
"""


from __future__ import annotations

from .config import Action, DetectorConfig, Layer
from .decision import HASH_STOP, HASH_WARNING, OK, Decision, Outcome, frequency_stop, frequency_warning
from .orderings import Detector, PinnedDetector, SeverityFirstDetector
from .windows import CountingWindow, ScopeState, tool_names

__all__ = [
    "DetectorConfig",
    "Decision",
    "Outcome",
    "Action",
    "Layer",
    "CountingWindow",
    "ScopeState",
    "Detector",
    "PinnedDetector",
    "SeverityFirstDetector",
    "OK",
    "tool_names",
    "HASH_WARNING",
    "HASH_STOP",
    "frequency_warning",
    "frequency_stop",
]
