"""Where a hook's run id comes from when the runtime context holds none: the pinned fallback, and the later tiers."""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from ..bounded import LRUDict

__all__ = ["pinned_run_id", "Runtime", "RunIdAnchors"]

_MISSING = object()


def pinned_run_id(context: Mapping | None, runtime: object) -> Hashable:
    """The run id as the pinned middleware reads it: present in the context means used, even when it is ``None``
    (an embedded subagent's run id can be); absent falls back to ``str(id(runtime))``.

    >>> pinned_run_id({"run_id": None}, object()) is None
    True
    """
    value = context.get("run_id", _MISSING) if isinstance(context, Mapping) else _MISSING
    return str(id(runtime)) if value is _MISSING else value


@dataclass(frozen=True, eq=False)
class Runtime:
    """What the later middleware reads from LangGraph's ``Runtime`` to find the run a hook call belongs to.

    ``context`` is the run's context (a dict that may hold ``run_id``); ``execution_run_id`` is the run id that
    ``Runtime.execution_info`` exposes from the RunnableConfig (``None``: none); ``control`` is the invocation's
    ``Runtime.control`` object, which LangGraph keeps for the whole invocation (``None``: none). LangGraph builds
    a new ``Runtime`` for every node, so two records are two wrappers even when their fields are equal: they
    compare by identity.
    """

    context: Mapping | None = None
    execution_run_id: Any = None
    control: object | None = None


class RunIdAnchors:
    """The later run id of a hook call, in three tiers, with a bounded map of anchored fallback ids.

    1. A ``run_id`` present in the context (a dict) is used as it is, even ``None``, as at the pinned commit.
    2. Else an ``execution_run_id`` that is not ``None`` is used, as text.
    3. Else the call is anchored: to the invocation's ``control`` object, or, without one, to the runtime wrapper
       itself (so every node of such an invocation gets its own id). The anchor maps to an opaque generated id,
       and the map keeps the anchor itself, so CPython cannot reuse its address while the entry lives.

    ``after_agent`` releases the anchor (:meth:`release`); the map holds at most ``maxsize`` anchors and forgets
    the least recently used first, for runs that never reach ``after_agent``; ``reset()`` clears it
    (:meth:`clear`). The later middleware sizes it at ``max(1, 2 * max_tracked_threads)``. This is
    ``_get_run_id`` and ``_release_fallback_run_id`` as read in the public fork ``ucan-ai/deer-flow`` at
    ``711035d2``; the tiers came with upstream PR #5344, after its review noted that ``id(runtime)`` is neither
    stable within one invocation nor unique across them.

    >>> anchors, control = RunIdAnchors(maxsize=2), object()
    >>> first = anchors.run_id(Runtime({}, control=control))
    >>> first == anchors.run_id(Runtime({}, control=control)), anchors.run_id(Runtime({}, execution_run_id=7))
    (True, '7')
    """

    def __init__(self, maxsize: int) -> None:
        self._ids: LRUDict = LRUDict(maxsize)
        self._counter = itertools.count(1)

    @staticmethod
    def _given_run_id(runtime: Runtime) -> Any:
        """The run id of the first two tiers (context, then execution info), or ``_MISSING`` if neither has one."""
        if isinstance(runtime.context, dict) and "run_id" in runtime.context:
            return runtime.context["run_id"]
        if runtime.execution_run_id is not None:
            return str(runtime.execution_run_id)
        return _MISSING

    @staticmethod
    def _anchor_of(runtime: Runtime) -> object:
        """What a fallback id is anchored to: the ``control`` object, or else the wrapper itself."""
        return runtime.control if runtime.control is not None else runtime

    def run_id(self, runtime: Runtime) -> Hashable:
        """The run id of ``runtime``: given, or else the id anchored to it (made on first use, and now the most
        recently used)."""
        given = self._given_run_id(runtime)
        if given is not _MISSING:
            return given
        anchor = self._anchor_of(runtime)
        anchored = self._ids.get(id(anchor))
        if anchored is None or anchored[0] is not anchor:
            anchored = self._ids[id(anchor)] = (anchor, f"invocation-{next(self._counter)}")
        return anchored[1]

    def release(self, runtime: Runtime) -> None:
        """Forget the id anchored to ``runtime``'s anchor, if its run id was anchored (``after_agent``)."""
        if self._given_run_id(runtime) is not _MISSING:
            return
        anchor = self._anchor_of(runtime)
        anchored = self._ids.peek(id(anchor))
        if anchored is not None and anchored[0] is anchor:
            del self._ids[id(anchor)]

    def clear(self) -> None:
        """Forget every anchored id (``reset()`` with no thread)."""
        self._ids.clear()

    @property
    def maxsize(self) -> int:
        return self._ids.maxsize

    def __len__(self) -> int:
        return len(self._ids)
