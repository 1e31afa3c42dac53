"""Every detector over a pattern library: the roster (:data:`PEERS`, :data:`DETECTORS`), one table row per
(pattern, detector), and whether a verdict contradicts a pattern's human label."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from loopkit.core.batches import check_batches
from loopkit.core.detector import Outcome
from loopkit.core.language import tr

from .cline import Cline
from .deerflow import DeerFlow
from .gemini_cli import GeminiCLI
from .model import PeerModel
from .opencode import OpenCode
from .openhands import OpenHands
from .roo_code import RooCode

__all__ = ["PEERS", "DETECTORS", "compare", "disagrees"]

#: One instance of every peer model, in the order of the chapter's table.
PEERS = (GeminiCLI(), OpenHands(), RooCode(), Cline(), OpenCode())
#: DeerFlow first, then the peers: the default columns of :func:`compare`.
DETECTORS = (DeerFlow(), *PEERS)


def _pattern_items(patterns: Any) -> list[tuple[str, list, str | None]]:
    """``(name, batches, label)`` from a mapping of name to batches (or to an object with ``batches``) or from an
    iterable of objects with ``name`` and ``batches``; the label comes from a ``label`` attribute if present.
    Each pattern's batches are validated and read into a list once, so a generator works like a list."""

    def unpack(name, value):
        if hasattr(value, "batches"):
            batches, label = value.batches, getattr(value, "label", None)
        elif isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], (str, type(None))):
            batches, label = value
        else:
            batches, label = value, None
        return str(name), check_batches(batches), label  # read once, here: every detector replays the same list

    if isinstance(patterns, Mapping):
        return [unpack(name, value) for name, value in patterns.items()]
    if isinstance(patterns, (str, bytes)) or not isinstance(patterns, Iterable):
        raise TypeError(f"patterns must be a mapping of name to batches or a list of patterns, "
                        f"got {type(patterns).__name__}")
    items = []
    for index, value in enumerate(patterns):
        if not hasattr(value, "batches") or not hasattr(value, "name"):
            raise TypeError(f"patterns[{index}] must have 'name' and 'batches', got {type(value).__name__}")
        items.append(unpack(value.name, value))
    return items


def disagrees(label: str | None, action: str) -> bool:
    """Whether a detector's ``action`` contradicts a pattern's human ``label``: a missed loop or an alarm on progress.

    >>> disagrees("loop", "ok"), disagrees("progress", "warn"), disagrees("loop", "stop"), disagrees(None, "ok")
    (True, True, False, False)
    """
    return (label == "loop" and action == "ok") or (label == "progress" and action != "ok")


def _verdict(label: str | None, action: str) -> str:
    """The verdict column's text, in the learner's language; empty for a pattern with no human label."""
    if label not in ("loop", "progress"):
        return ""
    if label == "loop":
        return tr("missed (false negative)") if disagrees(label, action) else tr("caught")
    return tr("false alarm (false positive)") if disagrees(label, action) else tr("quiet")


def _cell(result: Outcome) -> str:
    parts = []
    if result.warn_step is not None:
        parts.append(f"warn {result.warn_step}")
    if result.stop_step is not None:
        parts.append(f"stop {result.stop_step}")
    return ", ".join(parts) or "-"


def compare(patterns: Any, detectors: Iterable[PeerModel] | None = None):
    """A pandas table, one row per (pattern, detector): first warn and stop steps, the action, and whether it
    agrees with the pattern's human label (``loop`` or ``progress``).

    Columns: ``pattern``, ``label``, ``detector``, ``warn_step``, ``stop_step`` (nullable ints), ``action``,
    ``verdict`` and ``cell`` (a short text such as ``"warn 3, stop 5"`` for pivoting).

    >>> loop = [[{"name": "bash", "args": {"command": "pytest"}}]] * 6
    >>> df = compare({"rerun": (loop, "loop")}, [DeerFlow(), RooCode()])
    >>> df[["detector", "cell", "verdict"]].to_string(index=False)
    'detector           cell verdict\\nDeerFlow warn 3, stop 5  caught\\nRoo Code         stop 4  caught'
    """
    import pandas as pd

    models = list(DETECTORS if detectors is None else detectors)
    for model in models:
        if not isinstance(model, PeerModel):
            raise TypeError(f"detectors must be PeerModel instances (see loopkit.teaching.peers.PEERS), got {model!r:.60}")
    rows = []
    for name, batches, label in _pattern_items(patterns):
        for model in models:
            result = model.run(batches)
            rows.append({"pattern": name, "label": label, "detector": model.name, "warn_step": result.warn_step,
                         "stop_step": result.stop_step, "action": result.action,
                         "verdict": _verdict(label, result.action), "cell": _cell(result)})
    df = pd.DataFrame(rows, columns=["pattern", "label", "detector", "warn_step", "stop_step", "action",
                                     "verdict", "cell"])
    return df.astype({"warn_step": "Int64", "stop_step": "Int64"})
