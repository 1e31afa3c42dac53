"""The two orderings of the layers, each a subclass of one :class:`Detector`: the pinned commit's (hash first, the
first finding returns) and the later severity-first contract (the whole batch counted, a stop wins)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any

from ..batches import check_batch
from ..bounded import LRUDict
from ..checks import require_instance
from ..fingerprint import fingerprint
from ..keys import later_stable_key, read_bucket, read_window, stable_key
from .config import DetectorConfig
from .decision import HASH_STOP, HASH_WARNING, OK, Decision, frequency_stop, frequency_warning
from .windows import ScopeState, tool_names

__all__ = ["Detector", "PinnedDetector", "SeverityFirstDetector"]


class Detector:
    """What both orderings share: the config, the LRU dict of scope states, and fingerprinting the batch.

    A subclass says how one batch is decided (:meth:`decide`), how one call is keyed (``call_key``) and how its
    ``read_file`` ranges are keyed (``read_key``). ``on_evict(scope, state)`` is called when the LRU drops a scope.
    """

    #: How one call is keyed into the fingerprint.
    call_key: Callable[..., str] = staticmethod(stable_key)
    #: How ``read_file`` line ranges are keyed into the fingerprint.
    read_key: Callable[..., str] = staticmethod(read_bucket)

    def __init__(self, config: DetectorConfig | None = None, *,
                 on_evict: Callable[[Hashable, ScopeState], None] | None = None) -> None:
        require_instance("config", config, DetectorConfig, or_none=True)
        self._config = config if config is not None else DetectorConfig()
        self._states: LRUDict = LRUDict(self._config.max_tracked_threads, on_evict=on_evict)

    @property
    def config(self) -> DetectorConfig:
        """The (frozen) configuration; the windows were sized from it, so it cannot be swapped."""
        return self._config

    def observe(self, calls: Iterable[Mapping[str, Any]], scope: Hashable) -> Decision:
        """Record one model turn's batch of tool calls in ``scope`` and decide. An empty batch is ``ok`` and
        records nothing, as upstream returns before touching its state when a message has no tool calls."""
        batch = check_batch(calls)
        if not batch:
            return OK
        digest = fingerprint(batch, read_key=self.read_key, key=self.call_key)
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
    """The later ordering of upstream PR #5245 (issue #5243), with the later keys (``keys.later_stable_key``).

    A hash stop still rejects the batch before any name is counted. Otherwise every call of the batch is counted
    in model order; the first name to reach its hard limit stops at once. If nothing stops, a hash warning wins
    over a frequency warning, and among frequency warnings the first crossing in model order; only the warning
    that is delivered is marked. A name pushed out of the window below its warn limit is unmarked at once, and a
    burst that decays within its own batch leaves no mark. This is ``_track_and_check`` as read in the fork
    ``ucan-ai/deer-flow`` at ``711035d2``, checked step by step against scripts recorded from that class
    (``tests/data/later-middleware-vectors.json.gz``).

    >>> d = SeverityFirstDetector(DetectorConfig(tool_freq_warn=2, tool_freq_hard_limit=3))
    >>> reads = [{"name": "read_file", "args": {"path": p}} for p in ("a.py", "b.py", "c.py")]
    >>> d.observe(reads, ("thread-1", "run-1")).action  # the pinned ordering warns at b.py and never sees c.py
    'stop'
    """

    call_key = staticmethod(later_stable_key)
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
