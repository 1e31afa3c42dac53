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
* :class:`SeverityFirstDetector` is the later contract of upstream PR #5245 (issue #5243): the whole batch is
  counted, a hard stop in either layer wins, and only the warning that is delivered is marked. It also keys
  ``read_file`` by its exact line window (PR #5486). It is modelled from those PR descriptions; nothing here was
  checked against that code.

The hooks around the decisions (where warnings go, what a stop does, which scope a call belongs to) live in
:mod:`loopkit.middleware`.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from .bounded import LRUDict
from .checks import require_int
from .fingerprint import fingerprint
from .keys import read_bucket, read_window

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
]

Action = Literal["ok", "warn", "stop"]
Layer = Literal["hash", "frequency"]

_COUNT_FIELDS = ("warn_threshold", "hard_limit", "window_size", "max_tracked_threads", "tool_freq_warn",
                 "tool_freq_hard_limit")


@dataclass(frozen=True)
class DetectorConfig:
    """Thresholds and sizes of the detector, named and defaulted as upstream's constructor arguments.

    ``tool_freq_overrides`` maps a tool name to its own ``(warn, hard)`` pair, for example a higher limit for
    ``bash`` in batch pipelines. A value of the wrong type raises ``TypeError``, one out of range ``ValueError``;
    both name the field.

    >>> DetectorConfig().freq_window
    50
    >>> DetectorConfig(tool_freq_overrides={"bash": (60, 80)}).thresholds_for("bash")
    (60, 80)
    """

    warn_threshold: int = 3
    hard_limit: int = 5
    window_size: int = 20
    max_tracked_threads: int = 100
    tool_freq_warn: int = 30
    tool_freq_hard_limit: int = 50
    tool_freq_overrides: Mapping[str, tuple[int, int]] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        for name in _COUNT_FIELDS:
            require_int(name, getattr(self, name))
        if self.hard_limit < self.warn_threshold:
            raise ValueError(f"hard_limit ({self.hard_limit}) must be >= warn_threshold ({self.warn_threshold})")
        if self.tool_freq_hard_limit < self.tool_freq_warn:
            raise ValueError(
                f"tool_freq_hard_limit ({self.tool_freq_hard_limit}) must be >= tool_freq_warn ({self.tool_freq_warn})"
            )
        overrides = self.tool_freq_overrides
        if not isinstance(overrides, Mapping):
            raise TypeError(f"tool_freq_overrides must be a mapping of tool name to (warn, hard), got {overrides!r}")
        checked = {}
        for tool, pair in overrides.items():
            where = f"tool_freq_overrides[{tool!r}]"
            if not isinstance(tool, str):
                raise TypeError(f"tool_freq_overrides: tool names must be str, got {type(tool).__name__}")
            if not tool:
                raise ValueError("tool_freq_overrides: tool names must be non-empty")
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise TypeError(f"{where} must be a (warn, hard) pair, got {pair!r}")
            warn, hard = require_int(f"{where}[0]", pair[0]), require_int(f"{where}[1]", pair[1])
            if hard < warn:
                raise ValueError(f"{where}: hard ({hard}) must be >= warn ({warn})")
            checked[tool] = (warn, hard)
        object.__setattr__(self, "tool_freq_overrides", MappingProxyType(checked))

    @property
    def freq_window(self) -> int:
        """Calls kept in the tool-name window: long enough that every hard limit can be reached.

        A count can never exceed the window it is counted in, so a window shorter than a hard limit would make
        that stop dead code; upstream sizes it the same way (``loop_detection_middleware.py`` at ``f1f4af99``).
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

    ``count`` is the batch fingerprint's count in the hash window (hash layer) or the tool's windowed call count
    (frequency layer), and ``None`` for ``ok``; ``tool`` is set for frequency decisions only. ``fingerprint`` is
    the batch's (``None`` only for an empty batch). ``message`` is the text the middleware would deliver: this
    workbook's paraphrase, not upstream's wording.
    """

    action: Action
    layer: Layer | None = None
    tool: str | None = None
    count: int | None = None
    fingerprint: str | None = None
    message: str | None = None

    def brief(self) -> str:
        """The decision in a few words: its action, then its layer, tool and count where it has them.

        >>> Decision("warn", "frequency", "bash", 30).brief(), Decision("ok").brief()
        ('warn frequency bash 30', 'ok')
        """
        parts = (self.action, self.layer, self.tool, self.count)
        return " ".join(str(part) for part in parts if part is not None)


#: The decision for an empty batch: nothing was counted, so there is no fingerprint either.
OK = Decision("ok")


@dataclass(frozen=True)
class Outcome:
    """What one detector made of a whole trace: the step of its first warning and of its stop (``None``: never).

    The one vocabulary for a verdict, shared by the replay, the pattern tables and the peer models: ``action`` is
    ``"stop"`` if it ever stopped, ``"warn"`` if it only warned, else ``"ok"``.

    >>> Outcome("DeerFlow", warn_step=3).action, Outcome("Cline").action
    ('warn', 'ok')
    """

    detector: str
    warn_step: int | None = None
    stop_step: int | None = None

    @property
    def action(self) -> Action:
        return "stop" if self.stop_step is not None else "warn" if self.warn_step is not None else "ok"

# The texts are this workbook's paraphrases. What matters for the middleware is which parts vary: upstream's hash
# warning is one fixed text (so two hash warnings queued for a run merge into one), while its frequency warning
# names the tool and the count.
HASH_WARNING = ("[loop detected] You are repeating the same set of tool calls; repeating it will not give new "
                "information. Stop calling tools and give your final answer (workbook paraphrase).")
HASH_STOP = ("[forced stop] The same tool calls came back too many times, so they were removed; this is the "
             "final answer with what was collected so far (workbook paraphrase).")


def frequency_warning(tool: str, count: int) -> str:
    """The frequency warning's text for ``tool`` at ``count`` calls (a workbook paraphrase)."""
    return (f"[loop detected] You have called {tool} {count} times without finishing. Stop calling tools and give "
            f"your final answer (workbook paraphrase).")


def frequency_stop(tool: str, count: int) -> str:
    """The frequency stop's text for ``tool`` at ``count`` calls (a workbook paraphrase)."""
    return (f"[forced stop] {tool} was called {count} times, past its safety limit, so the calls were removed; "
            f"this is the final answer (workbook paraphrase).")


def tool_names(batch: Iterable[Mapping[str, Any]]) -> list[str]:
    """The names the frequency layer counts, in model order: calls without a name are not counted.

    >>> tool_names([{"name": "bash"}, {"name": ""}, {"args": {}}, {"name": "grep"}])
    ['bash', 'grep']
    """
    return [str(call["name"]) for call in batch if call.get("name")]


class CountingWindow:
    """The last ``size`` items, oldest first, with how many times each item occurs among them.

    >>> w = CountingWindow(2)
    >>> [w.push(x) for x in "aab"], w.count("a"), w.count("b")
    ([None, None, 'a'], 1, 1)
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: deque = deque()
        self.counts: dict[Hashable, int] = {}

    def push(self, item: Hashable) -> Hashable | None:
        """Append ``item``; if the window overflows, drop the oldest item and return it (else ``None``)."""
        self.items.append(item)
        self.counts[item] = self.counts.get(item, 0) + 1
        if len(self.items) <= self.size:
            return None
        oldest = self.items.popleft()
        self.counts[oldest] -= 1
        if self.counts[oldest] == 0:
            del self.counts[oldest]
        return oldest

    def count(self, item: Hashable) -> int:
        """How many times ``item`` is in the window."""
        return self.counts.get(item, 0)


class ScopeState:
    """Everything the detector remembers for one scope: both windows and the marks of what was already warned."""

    def __init__(self, config: DetectorConfig) -> None:
        self.hashes = CountingWindow(config.window_size)
        self.tools = CountingWindow(config.freq_window)
        self.warned_hashes: set[str] = set()
        self.warned_tools: set[str] = set()

    def add_hash(self, digest: str) -> int:
        """Put a batch fingerprint in the hash window and return its count there.

        A warned fingerprint that left the window entirely loses its mark, so the same loop can warn again
        (upstream prunes its warned hashes to those still in the window).
        """
        oldest = self.hashes.push(digest)
        if oldest is not None and self.hashes.count(oldest) == 0:
            self.warned_hashes.discard(oldest)
        return self.hashes.count(digest)

    def add_tool(self, name: str) -> tuple[int, str | None]:
        """Put one call's tool name in the tool window; return its count there and the name pushed out, if any."""
        oldest = self.tools.push(name)
        return self.tools.count(name), oldest

    def as_dict(self) -> dict:
        """A copy of the state, for reading: windows, counts and marks."""
        return {
            "hashes": list(self.hashes.items),
            "hash_counts": dict(self.hashes.counts),
            "tool_counts": dict(self.tools.counts),
            "warned_hashes": set(self.warned_hashes),
            "warned_tools": set(self.warned_tools),
        }


class Detector:
    """What both orderings share: the config, the LRU dict of scope states, and fingerprinting the batch.

    A subclass says how one batch is decided (:meth:`decide`) and how ``read_file`` ranges are keyed
    (``read_key``). ``on_evict(scope, state)`` is called when the LRU drops a scope.
    """

    #: How ``read_file`` line ranges are keyed into the fingerprint.
    read_key: Callable[..., str] = staticmethod(read_bucket)

    def __init__(self, config: DetectorConfig | None = None, *,
                 on_evict: Callable[[Hashable, ScopeState], None] | None = None) -> None:
        if config is None:
            config = DetectorConfig()
        if not isinstance(config, DetectorConfig):
            raise TypeError(f"config must be a DetectorConfig or None, got {type(config).__name__}")
        self._config = config
        self._states: LRUDict = LRUDict(config.max_tracked_threads, on_evict=on_evict)

    @property
    def config(self) -> DetectorConfig:
        """The (frozen) configuration; the windows were sized from it, so it cannot be swapped."""
        return self._config

    def observe(self, calls: Iterable[Mapping[str, Any]], scope: Hashable) -> Decision:
        """Record one model turn's batch of tool calls in ``scope`` and decide. An empty batch is ``ok`` and
        records nothing, as upstream returns before touching its state when a message has no tool calls."""
        batch = _as_batch(calls)
        if not batch:
            return OK
        digest = fingerprint(batch, read_key=self.read_key)
        return self.decide(self._state(scope), batch, digest)

    def decide(self, state: ScopeState, batch: list, digest: str) -> Decision:
        """Count ``batch`` in ``state`` and decide; each ordering defines this."""
        raise NotImplementedError

    def _state(self, scope: Hashable) -> ScopeState:
        """The scope's state, made the most recently used; a new scope may evict the least recently used one."""
        state = self._states.get(scope)
        if state is None:
            state = self._states[scope] = ScopeState(self.config)
        return state

    # -- what the middleware and a learner can see or drop ----------------------------------------------------
    @property
    def scopes(self) -> list[Hashable]:
        """The tracked scopes, least recently used first."""
        return list(self._states)

    def snapshot(self, scope: Hashable) -> dict | None:
        """A copy of one scope's state (``None`` if untracked). Looking does not count as using the scope."""
        state = self._states.peek(scope)
        return None if state is None else state.as_dict()

    def forget(self, scope: Hashable) -> None:
        """Drop one scope's state (no eviction callback: this is a reset, not an eviction)."""
        self._states.pop(scope, None)

    def forget_all(self) -> None:
        """Drop every scope's state."""
        self._states.clear()

    # -- the two outcomes that are the same in both orderings ---------------------------------------------------
    def _stop_hash(self, digest: str, count: int) -> Decision:
        return Decision("stop", "hash", None, count, digest, HASH_STOP)

    def _warn_hash(self, state: ScopeState, digest: str, count: int) -> Decision:
        state.warned_hashes.add(digest)
        return Decision("warn", "hash", None, count, digest, HASH_WARNING)

    def _stop_tool(self, digest: str, name: str, count: int) -> Decision:
        return Decision("stop", "frequency", name, count, digest, frequency_stop(name, count))

    def _warn_tool(self, state: ScopeState, digest: str, name: str, count: int, *, mark: bool = True) -> Decision:
        if mark:
            state.warned_tools.add(name)
        return Decision("warn", "frequency", name, count, digest, frequency_warning(name, count))


class PinnedDetector(Detector):
    """deer-flow at ``f1f4af99``: the hash layer first, and the first warning or stop returns at once.

    A new hash warning or a hash stop returns before any tool name of the batch is counted; an already-warned
    hash falls through to the frequency layer. There, names are counted in model order, and the first one that
    reaches its hard limit stops, or the first that reaches its warn limit unwarned warns: the rest of the batch
    is never counted. A warned name is unmarked when it is called again below its warn limit.

    >>> d = PinnedDetector(DetectorConfig(warn_threshold=2, hard_limit=3))
    >>> pytest = [{"name": "bash", "args": {"command": "pytest"}}]
    >>> [d.observe(pytest, "thread-1").action for _ in range(3)]
    ['ok', 'warn', 'stop']
    """

    def decide(self, state: ScopeState, batch: list, digest: str) -> Decision:
        cfg = self.config
        count = state.add_hash(digest)
        if count >= cfg.hard_limit:
            return self._stop_hash(digest, count)
        if count >= cfg.warn_threshold and digest not in state.warned_hashes:
            return self._warn_hash(state, digest, count)
        for name in tool_names(batch):
            calls, _ = state.add_tool(name)
            warn, hard = cfg.thresholds_for(name)
            if calls >= hard:
                return self._stop_tool(digest, name, calls)
            if calls < warn:
                state.warned_tools.discard(name)
            elif name not in state.warned_tools:
                return self._warn_tool(state, digest, name, calls)
        return Decision("ok", fingerprint=digest)


class SeverityFirstDetector(Detector):
    """The later contract of upstream PR #5245 (issue #5243), with PR #5486's exact ``read_file`` windows.

    A hash stop still rejects the batch before any name is counted. Otherwise every call of the batch is counted
    in model order; the first name to reach its hard limit stops at once. If nothing stops, a hash warning wins
    over a frequency warning, and only the warning that is delivered is marked. A name pushed out of the window
    below its warn limit is unmarked at once, and a burst that decays within its own batch leaves no mark.
    Modelled from the PR descriptions and the later lifecycle contract, not checked against upstream code.

    >>> d = SeverityFirstDetector(DetectorConfig(tool_freq_warn=2, tool_freq_hard_limit=3))
    >>> reads = [{"name": "read_file", "args": {"path": p}} for p in ("a.py", "b.py", "c.py")]
    >>> d.observe(reads, ("thread-1", "run-1")).action  # the pinned ordering warns at b.py and never sees c.py
    'stop'
    """

    read_key = staticmethod(read_window)

    def decide(self, state: ScopeState, batch: list, digest: str) -> Decision:
        cfg = self.config
        count = state.add_hash(digest)
        if count >= cfg.hard_limit:
            return self._stop_hash(digest, count)
        tool_warning: tuple[str, int] | None = None
        for name in tool_names(batch):
            calls, pushed_out = state.add_tool(name)
            if pushed_out is not None and state.tools.count(pushed_out) < cfg.thresholds_for(pushed_out)[0]:
                state.warned_tools.discard(pushed_out)  # its burst decayed: it may warn again
            warn, hard = cfg.thresholds_for(name)
            if calls >= hard:
                return self._stop_tool(digest, name, calls)
            if calls < warn:
                state.warned_tools.discard(name)
            elif name not in state.warned_tools and tool_warning is None:
                tool_warning = (name, calls)
        if count >= cfg.warn_threshold and digest not in state.warned_hashes:
            return self._warn_hash(state, digest, count)
        if tool_warning is not None:
            name, calls = tool_warning
            still_hot = state.tools.count(name) >= cfg.thresholds_for(name)[0]
            return self._warn_tool(state, digest, name, calls, mark=still_hot)
        return Decision("ok", fingerprint=digest)


def _as_batch(calls: Any) -> list:
    """The batch as a list of call mappings; anything else is a ``TypeError`` naming what was wrong."""
    if isinstance(calls, (str, bytes, Mapping)):
        raise TypeError(f"a batch must be a list of tool-call mappings, got {type(calls).__name__}")
    try:
        batch = list(calls)
    except TypeError:
        raise TypeError(f"a batch must be a list of tool-call mappings, got {type(calls).__name__}") from None
    for index, call in enumerate(batch):
        if not isinstance(call, Mapping):
            raise TypeError(f"call {index} of the batch must be a mapping with 'name' and 'args', "
                            f"got {type(call).__name__}: {call!r:.80}")
    return batch
