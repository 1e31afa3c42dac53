"""Where a hook's run id comes from when the runtime context holds none: the pinned fallback, and the later anchors."""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping

from ..bounded import LRUDict
from .hooks import STOP_REASON_CAPACITY

__all__ = ["pinned_run_id", "RunIdAnchors"]

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
