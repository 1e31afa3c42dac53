"""Run one operation script against several eviction policies and compare what each keeps (chapter 04).

A *script* is a small text language, one operation per line or several separated by ``;``::

    set KEY VALUE   write KEY (insert it, or overwrite its value)
    get KEY         read KEY (reading a missing key changes nothing)
    del KEY         remove KEY if present (a removal, not an eviction)

Verbs are case-insensitive, blank operations are skipped, and ``#`` starts a comment. For example
``set a 1; set b 2; set a 3; get b; set c 4``.

The policies are loopkit's :class:`~loopkit.BoundedDict` (FIFO: an overwrite keeps its place),
:class:`~loopkit.LRUDict` (reads and writes refresh) and ``cachetools.FIFOCache`` (FIFO, but an overwrite moves
the key to the back). cachetools and pandas are imported inside the functions that need them, so importing this
module stays standard-library only.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from loopkit.core.bounded import BoundedDict, LRUDict
from loopkit.core.checks import require_int
from loopkit.core.language import N_, tr

__all__ = ["POLICIES", "Op", "PolicyRun", "PolicyState", "parse_script", "race_steps", "race_table", "run_script", "step_rows"]

VERBS = {"set": 2, "get": 1, "del": 1}
EXPECTED = '"set KEY VALUE", "get KEY" or "del KEY"'


@dataclass(frozen=True)
class Op:
    """One parsed operation, with where it came from (1-based script line, 1-based position on that line)."""

    verb: str
    key: str
    value: str | None = None
    line: int = 1
    position: int = 1

    def __str__(self) -> str:
        return " ".join(part for part in (self.verb, self.key, self.value) if part is not None)


def _where(line: int, position: int, count: int) -> str:
    return f"line {line}" if count == 1 else f"line {line}, operation {position}"


def parse_script(script: str) -> list[Op]:
    """Parse an operation script; a malformed operation raises ValueError naming its line and what was expected.

    >>> [str(op) for op in parse_script("set a 1; GET a\\n\\ndel a  # gone")]
    ['set a 1', 'get a', 'del a']
    >>> parse_script("set a 1\\nput b 2")
    Traceback (most recent call last):
    ...
    ValueError: line 2: expected "set KEY VALUE", "get KEY" or "del KEY", got 'put b 2'
    """
    if not isinstance(script, str):
        raise TypeError(f"script must be a str of operations, got {type(script).__name__}")
    ops = []
    for number, raw_line in enumerate(script.splitlines(), start=1):
        parts = [part.strip() for part in raw_line.split("#", 1)[0].split(";")]
        parts = [part for part in parts if part]
        for position, text in enumerate(parts, start=1):
            where = _where(number, position, len(parts))
            verb, *args = text.split()
            verb = verb.lower()
            if verb not in VERBS:
                raise ValueError(f"{where}: expected {EXPECTED}, got {text!r}")
            if len(args) != VERBS[verb]:
                shape = "set KEY VALUE" if verb == "set" else f"{verb} KEY"
                raise ValueError(f'{where}: expected "{shape}" ({VERBS[verb] + 1} words), got {text!r}')
            ops.append(Op(verb, args[0], args[1] if verb == "set" else None, number, position))
    return ops


@functools.cache
def _recording_fifo_cache() -> type:
    """A cachetools.FIFOCache that records its evictions (cachetools evicts through ``popitem``)."""
    import cachetools

    class RecordingFIFOCache(cachetools.FIFOCache):
        def __init__(self, maxsize: int) -> None:
            super().__init__(maxsize)
            self.evicted: list = []

        def popitem(self):
            pair = super().popitem()
            self.evicted.append(pair)
            return pair

    return RecordingFIFOCache


class _Player:
    """One policy under a common interface: apply an op, report the eviction order and what was evicted."""

    def __init__(self, maxsize: int) -> None:
        self.evicted: list = []
        self.cache = self._make(maxsize)

    def _make(self, maxsize: int):
        raise NotImplementedError

    def apply(self, op: Op) -> None:
        if op.verb == "set":
            self.cache[op.key] = op.value
        elif op.verb == "get":
            self.cache.get(op.key)
        else:
            self.cache.pop(op.key, None)

    def order(self) -> list:
        """(key, value) pairs, next to be evicted first."""
        return list(self.cache.items())


class _LoopkitPlayer(_Player):
    cls: type

    def _make(self, maxsize: int):
        return self.cls(maxsize, on_evict=lambda key, value: self.evicted.append((key, value)))


class _FIFOPlayer(_LoopkitPlayer):
    cls = BoundedDict


class _LRUPlayer(_LoopkitPlayer):
    cls = LRUDict


class _CachetoolsFIFOPlayer(_Player):
    def _make(self, maxsize: int):
        cache = _recording_fifo_cache()(maxsize)
        self.evicted = cache.evicted
        return cache

    def order(self) -> list:
        # Iterating a FIFOCache gives dict order, where an overwrite keeps its place, not its eviction order.
        # Draining a copy with the base popitem (which does not record) gives the true eviction order.
        import cachetools

        drained, pairs = copy.copy(self.cache), []
        while len(drained):
            pairs.append(cachetools.FIFOCache.popitem(drained))
        return pairs


#: policy name -> player class; the names are the row labels of every comparison.
POLICIES: dict[str, Callable[[int], _Player]] = {
    N_("BoundedDict (FIFO)"): _FIFOPlayer,
    N_("LRUDict (LRU)"): _LRUPlayer,
    N_("cachetools.FIFOCache"): _CachetoolsFIFOPlayer,
}


@dataclass(frozen=True)
class PolicyState:
    """The state of one policy right after one operation."""

    op: Op
    keys: tuple
    evicted: tuple


@dataclass(frozen=True)
class PolicyRun:
    """What one policy holds after the script: pairs in eviction order (next to go first) and all evictions."""

    policy: str
    items: tuple
    evicted: tuple
    steps: tuple

    @property
    def keys(self) -> tuple:
        return tuple(key for key, _ in self.items)

    @property
    def evicted_keys(self) -> tuple:
        return tuple(key for key, _ in self.evicted)


def run_script(script: str | Sequence[Op], maxsize: int, policies: Sequence[str] | None = None) -> dict:
    """Play ``script`` against each policy (default: all of :data:`POLICIES`) with room for ``maxsize`` keys.

    Returns ``{policy name: PolicyRun}``. Keys and values are the script's strings.

    >>> runs = run_script("set a 1; set b 2; set a 3; set c 4", maxsize=2)
    >>> {name: (run.keys, run.evicted_keys) for name, run in runs.items()}  # doctest: +NORMALIZE_WHITESPACE
    {'BoundedDict (FIFO)': (('b', 'c'), ('a',)), 'LRUDict (LRU)': (('a', 'c'), ('b',)),
     'cachetools.FIFOCache': (('a', 'c'), ('b',))}
    """
    ops = parse_script(script) if isinstance(script, str) else list(script)
    require_int("maxsize", maxsize)
    names = list(POLICIES) if policies is None else list(policies)
    unknown = [name for name in names if name not in POLICIES]
    if unknown:
        raise ValueError(f"policies: unknown {unknown}, expected names from {list(POLICIES)}")
    runs = {}
    for name in names:
        player = POLICIES[name](maxsize)
        steps = []
        for op in ops:
            before = len(player.evicted)
            player.apply(op)
            keys = tuple(key for key, _ in player.order())
            steps.append(PolicyState(op, keys, tuple(key for key, _ in player.evicted[before:])))
        runs[name] = PolicyRun(name, tuple(player.order()), tuple(player.evicted), tuple(steps))
    return runs


def _keys_text(keys: Sequence) -> str:
    return " ".join(map(str, keys)) if keys else "-"


def race_table(script: str | Sequence[Op], maxsize: int):
    """A pandas DataFrame, one row per policy: the keys left (next to evict first) and the keys evicted, in order.
    The headings are in the learner's language (:func:`~loopkit.core.language.tr`); the policy names stay as they are.

    >>> race_table("set a 1; set b 2; get a; set c 3", 2).loc["LRUDict (LRU)", "evicted"]
    'b'
    """
    import pandas as pd

    runs = run_script(script, maxsize)
    rows = {
        name: {N_("keys, next to evict first"): _keys_text(run.keys), N_("evicted"): _keys_text(run.evicted_keys)}
        for name, run in runs.items()
    }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = tr("policy")
    return frame.rename(columns=tr)


def step_rows(script: str | Sequence[Op], maxsize: int) -> list[dict]:
    """One dict per operation: the operation, then each policy's keys after it, with ``(evicts K)`` when one went
    (that note in the learner's language; the dict keys stay English, for :func:`~loopkit.views.widgets._base.table_html`
    or :func:`race_steps` to translate as headings)."""
    ops = parse_script(script) if isinstance(script, str) else list(script)
    steps_by_policy = {name: run.steps for name, run in run_script(ops, maxsize).items()}
    rows = []
    for i, op in enumerate(ops):
        row = {N_("#"): i + 1, N_("operation"): str(op)}
        for name, steps in steps_by_policy.items():
            step = steps[i]
            text = _keys_text(step.keys)
            if step.evicted:
                text = tr("{keys}  (evicts {evicted})", keys=text, evicted=_keys_text(step.evicted))
            row[name] = text
        rows.append(row)
    return rows


def race_steps(script: str | Sequence[Op], maxsize: int):
    """A pandas DataFrame with one row per operation and each policy's keys after it (next to evict first), its
    headings in the learner's language.

    >>> race_steps("set a 1; set b 2; set c 3", 2).iloc[-1]["BoundedDict (FIFO)"]
    'b c  (evicts a)'
    """
    import pandas as pd

    return pd.DataFrame(step_rows(script, maxsize)).set_index("#").rename(columns=tr)
