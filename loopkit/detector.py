"""The loop detector: two layers over a sliding window, per run scope (chapters 05 and 06).

After every model turn the detector looks at the batch of tool calls and decides ``ok``, ``warn`` or ``stop``.

* The **hash layer** counts how often the batch's fingerprint occurs in the last ``window_size`` batches.
* The **frequency layer** counts how often each tool *name* occurs in the last ``freq_window`` calls, whatever
  its arguments, so a loop that varies its arguments is still noticed.

A hard limit in either layer stops at once. Otherwise a warning candidate from the hash layer beats one from the
frequency layer, and a warning is given once per hash (or tool) until it leaves the window. State is kept per
``(thread_id, run_id)`` scope in an LRU dict, so a server with many runs stays bounded.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import deque
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .bounded import BoundedDict, LRUDict
from .fingerprint import fingerprint

__all__ = [
    "DetectorConfig",
    "Decision",
    "LoopDetector",
    "EarlyReturnLoopDetector",
    "STOP_REASON",
    "STOP_REASON_CAPACITY",
]

#: What a stopped run records as its stop reason.
STOP_REASON = "loop_capped"
#: How many stop reasons are kept (FIFO) before the oldest is forgotten.
STOP_REASON_CAPACITY = 1000

_COUNT_FIELDS = ("warn_threshold", "hard_limit", "window_size", "max_tracked_runs", "tool_freq_warn",
                 "tool_freq_hard_limit")


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


@dataclass(frozen=True)
class DetectorConfig:
    """Thresholds and sizes of the detector; the defaults are upstream's.

    ``tool_freq_overrides`` maps a tool name to its own ``(warn, hard)`` pair, e.g. a higher limit for ``bash``
    in batch pipelines. Invalid values raise ``ValueError`` naming the field.

    >>> DetectorConfig().freq_window
    50
    >>> DetectorConfig(tool_freq_overrides={"bash": (60, 80)}).thresholds_for("bash")
    (60, 80)
    """

    warn_threshold: int = 3
    hard_limit: int = 5
    window_size: int = 20
    max_tracked_runs: int = 100
    tool_freq_warn: int = 30
    tool_freq_hard_limit: int = 50
    tool_freq_overrides: Mapping[str, tuple[int, int]] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        for name in _COUNT_FIELDS:
            value = getattr(self, name)
            if not _positive_int(value):
                raise ValueError(f"{name} must be an int >= 1, got {value!r}")
        if self.hard_limit < self.warn_threshold:
            raise ValueError(
                f"hard_limit ({self.hard_limit}) must be >= warn_threshold ({self.warn_threshold})"
            )
        if self.tool_freq_hard_limit < self.tool_freq_warn:
            raise ValueError(
                f"tool_freq_hard_limit ({self.tool_freq_hard_limit}) must be >= tool_freq_warn ({self.tool_freq_warn})"
            )
        overrides = self.tool_freq_overrides
        if not isinstance(overrides, Mapping):
            raise ValueError(f"tool_freq_overrides must be a mapping of tool name to (warn, hard), got {overrides!r}")
        checked = {}
        for tool, pair in overrides.items():
            where = f"tool_freq_overrides[{tool!r}]"
            if not isinstance(tool, str) or not tool:
                raise ValueError(f"tool_freq_overrides: tool names must be non-empty strings, got {tool!r}")
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise ValueError(f"{where} must be a (warn, hard) pair, got {pair!r}")
            warn, hard = pair
            if not (_positive_int(warn) and _positive_int(hard)):
                raise ValueError(f"{where}: warn and hard must be ints >= 1, got {pair!r}")
            if hard < warn:
                raise ValueError(f"{where}: hard ({hard}) must be >= warn ({warn})")
            checked[tool] = (warn, hard)
        object.__setattr__(self, "tool_freq_overrides", MappingProxyType(checked))

    @property
    def freq_window(self) -> int:
        """Calls kept in the tool-name window: large enough that every hard limit can be reached.

        A window shorter than a hard limit could never hold that many calls, so the stop would be dead code.
        """
        return max(self.window_size, self.tool_freq_hard_limit, *(h for _, h in self.tool_freq_overrides.values()))

    def thresholds_for(self, tool: str) -> tuple[int, int]:
        """``(warn, hard)`` call counts for ``tool``: its override if it has one, else the global pair."""
        return self.tool_freq_overrides.get(tool, (self.tool_freq_warn, self.tool_freq_hard_limit))

    def as_dict(self) -> dict:
        """The fields as plain values (overrides as a plain dict): ``DetectorConfig(**c.as_dict()) == c``."""
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        fields["tool_freq_overrides"] = dict(self.tool_freq_overrides)
        return fields

    def __reduce__(self):
        # The read-only overrides mapping cannot be pickled or deep-copied; rebuild from plain fields instead.
        return (_config_from_fields, (self.as_dict(),))


def _config_from_fields(fields: dict) -> DetectorConfig:
    return DetectorConfig(**fields)


@dataclass(frozen=True)
class Decision:
    """What the detector decided about one batch.

    ``count`` is the fingerprint's count in the hash window for hash decisions (and for ``ok``), and the tool's
    windowed call count for frequency decisions; ``tool`` is set only for frequency decisions.
    """

    action: str
    layer: str | None
    fingerprint: str | None
    count: int
    tool: str | None = None
    message: str | None = None

    @property
    def ok(self) -> bool:
        return self.action == "ok"


class _Window:
    """The last ``size`` items with a running count per item: O(1) per push, never a scan of the window."""

    __slots__ = ("items", "counts", "size")

    def __init__(self, size: int) -> None:
        self.items: deque = deque()
        self.counts: dict = {}
        self.size = size

    def push(self, item: Hashable) -> Hashable | None:
        """Append ``item`` (+1 to its count); if that overflows, drop the oldest entry (-1 to its count, deleted at
        0). Returns the dropped item when it left the window entirely, else ``None``. Locals and ``dict.get`` keep
        this cheap: it runs for every call."""
        items, counts = self.items, self.counts
        items.append(item)
        counts[item] = counts.get(item, 0) + 1
        if len(items) > self.size:
            old = items.popleft()
            left = counts[old] - 1
            if left:
                counts[old] = left
            else:
                del counts[old]
                return old
        return None


class _Scope:
    """All the state of one (thread_id, run_id): both windows with their running counts, and the warned marks."""

    __slots__ = ("hashes", "tools", "warned_hashes", "warned_tools")

    def __init__(self, hash_window: int, tool_window: int) -> None:
        self.hashes = _Window(hash_window)
        self.tools = _Window(tool_window)
        self.warned_hashes: set[str] = set()
        self.warned_tools: set[str] = set()


def _warn_hash_message(count: int, window: int) -> str:
    return (
        f"Loop warning: you have made this same set of tool calls {count} times in the last {window} turns. "
        "Repeating it will not give new information. Use what you already have and wrap up with your answer."
    )


def _warn_tool_message(tool: str, count: int) -> str:
    return (
        f"Loop warning: you have called {tool!r} {count} times recently. You appear to be going in circles. "
        "Stop calling it again and wrap up with your answer."
    )


def _stop_message(layer: str, count: int, tool: str | None) -> str:
    what = f"{tool!r} was called {count} times" if layer == "frequency" else f"the same tool calls came {count} times"
    return f"Safety limit reached: {what}, so the tool calls were dropped and a final answer is forced now."


class LoopDetector:
    """Decide ``ok``/``warn``/``stop`` for each model turn's batch of tool calls.

    Build it from a :class:`DetectorConfig`, from keyword fields, or both (fields override the config).

    >>> d = LoopDetector(warn_threshold=2, hard_limit=3)
    >>> batch = [{"name": "bash", "args": {"command": "pytest"}}]
    >>> [d.observe(batch).action for _ in range(3)]
    ['ok', 'warn', 'stop']
    >>> d.consume_stop_reason("default")
    'loop_capped'
    """

    #: The earlier upstream ordering returned at the first warning; see :class:`EarlyReturnLoopDetector`.
    early_return = False

    def __init__(self, config: DetectorConfig | None = None, **fields: Any) -> None:
        known = {f.name for f in dataclasses.fields(DetectorConfig)}
        unknown = sorted(set(fields) - known)
        if unknown:
            raise TypeError(f"unknown DetectorConfig field(s) {unknown}; expected some of {sorted(known)}")
        if config is not None and not isinstance(config, DetectorConfig):
            raise TypeError(f"config must be a DetectorConfig or None, got {type(config).__name__}")
        base = config or DetectorConfig()
        self._config = config = dataclasses.replace(base, **fields) if fields else base
        # Worked out once: the config is frozen and cannot be swapped, so these never go stale.
        self._overrides = dict(config.tool_freq_overrides)
        self._global_pair = (config.tool_freq_warn, config.tool_freq_hard_limit)
        self._lock = threading.Lock()
        self._scopes: LRUDict = LRUDict(self.config.max_tracked_runs)
        self._stop_reasons: BoundedDict = BoundedDict(STOP_REASON_CAPACITY)

    # -- the decision ------------------------------------------------------------------------------------------
    def observe(self, calls: Iterable[Mapping[str, Any]], *, thread_id: Hashable = "default",
                run_id: Hashable = "default") -> Decision:
        """Record one model turn's batch of tool calls for the scope ``(thread_id, run_id)`` and decide."""
        try:
            batch = list(calls)
        except TypeError:
            raise TypeError(f"observe() expects an iterable of tool-call mappings, got {type(calls).__name__}") from None
        if not batch:
            return Decision("ok", None, None, 0)
        digest = fingerprint(batch)  # pure, and it validates the calls: outside the lock
        with self._lock:
            key = (thread_id, run_id)
            try:
                scope = self._scopes[key]  # a read makes the scope the most recent
            except KeyError:
                scope = self._scopes[key] = _Scope(self.config.window_size, self.config.freq_window)
            decision = self._decide(scope, batch, digest)
            if decision.action == "stop":
                self._stop_reasons[run_id] = STOP_REASON
            return decision

    @property
    def config(self) -> DetectorConfig:
        """The (frozen) configuration; build a new detector to change it."""
        return self._config

    def _decide(self, scope: _Scope, batch: list, digest: str) -> Decision:
        cfg = self.config
        hashes = scope.hashes
        gone = hashes.push(digest)
        if gone is not None:
            scope.warned_hashes.discard(gone)  # a hash that left the window may warn again
        count = hashes.counts[digest]
        if count >= cfg.hard_limit:
            return Decision("stop", "hash", digest, count, None, _stop_message("hash", count, None))
        hash_candidate = count >= cfg.warn_threshold and digest not in scope.warned_hashes
        if hash_candidate and self.early_return:
            scope.warned_hashes.add(digest)
            return Decision("warn", "hash", digest, count, None, _warn_hash_message(count, cfg.window_size))

        overrides, global_pair = self._overrides, self._global_pair
        tools = scope.tools
        tool_counts = tools.counts
        tool_candidate: tuple[str, int] | None = None
        for call in batch:
            name = call.get("name", "")
            if not name:
                continue
            if type(name) is not str and not isinstance(name, str):
                name = str(name)
            tools.push(name)
            tool_count = tool_counts.get(name, 0)
            warn, hard = overrides.get(name, global_pair)  # cfg.thresholds_for(name), without the call
            if tool_count >= hard:
                return Decision("stop", "frequency", digest, tool_count, name,
                                _stop_message("frequency", tool_count, name))
            if tool_count < warn:
                scope.warned_tools.discard(name)
            elif name not in scope.warned_tools and tool_candidate is None:
                tool_candidate = (name, tool_count)
                if self.early_return:
                    scope.warned_tools.add(name)
                    return Decision("warn", "frequency", digest, tool_count, name,
                                    _warn_tool_message(name, tool_count))

        if hash_candidate:
            scope.warned_hashes.add(digest)
            return Decision("warn", "hash", digest, count, None, _warn_hash_message(count, cfg.window_size))
        if tool_candidate is not None:
            name, tool_count = tool_candidate
            if tool_counts.get(name, 0) >= cfg.thresholds_for(name)[0]:
                scope.warned_tools.add(name)  # a burst that decayed within the batch leaves no stale mark
            return Decision("warn", "frequency", digest, tool_count, name, _warn_tool_message(name, tool_count))
        return Decision("ok", None, digest, count)

    # -- state management --------------------------------------------------------------------------------------
    def reset(self, thread_id: Hashable | None = None) -> None:
        """Forget every scope of ``thread_id``; with no argument forget everything, stop reasons included."""
        with self._lock:
            if thread_id is None:
                self._scopes.clear()
                self._stop_reasons.clear()
                return
            for key in [key for key in self._scopes if key[0] == thread_id]:
                del self._scopes[key]

    def consume_stop_reason(self, run_id: Hashable) -> str | None:
        """Pop and return the stop reason recorded for ``run_id`` (``None`` if it was never stopped)."""
        with self._lock:
            return self._stop_reasons.pop(run_id, None)

    # -- read-only views for teaching and replay ---------------------------------------------------------------
    @property
    def scopes(self) -> list[tuple[Hashable, Hashable]]:
        """The tracked ``(thread_id, run_id)`` scopes, least recently observed first."""
        with self._lock:
            return list(self._scopes)

    @property
    def stop_reasons(self) -> dict:
        """A copy of the recorded stop reasons, oldest first."""
        with self._lock:
            return dict(self._stop_reasons.items())

    def snapshot(self, thread_id: Hashable = "default", run_id: Hashable = "default") -> dict | None:
        """A copy of one scope's state (``None`` if untracked). Looking does not count as using the scope."""
        with self._lock:
            scope = self._scopes.peek((thread_id, run_id))
            if scope is None:
                return None
            return {
                "hashes": list(scope.hashes.items),
                "hash_counts": dict(scope.hashes.counts),
                "tool_counts": dict(scope.tools.counts),
                "warned_hashes": set(scope.warned_hashes),
                "warned_tools": set(scope.warned_tools),
            }


class EarlyReturnLoopDetector(LoopDetector):
    """The *earlier* upstream ordering, kept for contrast (chapter 06).

    It returns as soon as it finds a hash warning, so that batch's tool names are never counted, and it returns
    at the first frequency warning, so the rest of the batch is never counted. Hard stops work as in
    :class:`LoopDetector`.
    """

    early_return = True
