"""Replay tables: one pandas row per batch of a trace, with the detector's counts and decision (chapters 05-09).

This module uses pandas, so ``import loopkit`` does not import it; use ``from loopkit.teaching import replay_table``.

A *trace* is a list of batches, one per model turn, each a list of ``{"name": ..., "args": ...}`` calls (a
:class:`~loopkit.teaching.patterns.Pattern` works too). :func:`replay` runs it through :func:`loopkit.traces.replay.replay_batches`
(a fresh :class:`~loopkit.core.middleware.PinnedMiddleware` by default) and :func:`table` turns the replayed steps
into rows: what the detector saw and decided after each batch.

The column names (``step``, ``hash_count``, ``calls:read_file``, ``action``, ``agrees``, ...) are keys that code
reads (``df["action"]``, ``row.pattern``), so they are the same in every language, like ``ok``/``warn``/``stop``;
a chapter explains them in its own words (:mod:`loopkit.core.language`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from loopkit.core.checks import require_instance
from loopkit.core.detector import DetectorConfig, Outcome, tool_names
from loopkit.core.middleware import LoopMiddleware, middleware_for
from loopkit.traces.replay import ReplayedBatch, replay_batches

from .patterns import PATTERNS, as_batches

__all__ = ["TOOL_PREFIX", "replay", "table", "config_of", "tool_columns", "first_steps", "verdict", "pattern_table"]

#: Column prefix of the per-tool windowed call counts in a replay table: ``"calls:read_file"`` and so on.
TOOL_PREFIX = "calls:"


def replay(batches: Any, config: DetectorConfig | None = None, *, upstream: str = "pinned",
           middleware: LoopMiddleware | None = None, until_stop: bool = False):
    """Feed ``batches`` to a fresh middleware, in order and in one run, and return one row per batch.

    Columns: ``step`` (1-based), ``n_calls``, ``fingerprint``, ``hash_count`` (the fingerprint's count in the hash
    window after the batch), one ``calls:<tool>`` column per tool in the trace (its count in the tool-name window
    after the batch, most-called tool first), then ``action``, ``layer``, ``tool`` and ``count`` from the
    decision (``count`` is empty for ``ok``). Every batch is replayed, even after a stop (the counts show what
    would have followed), unless ``until_stop`` is true. ``upstream`` picks the version (``"pinned"`` or
    ``"run-scoped"``); pass ``middleware`` (instead of ``config``) to replay through an existing one.
    ``df.attrs["config"]`` holds ``config.as_dict()`` (see :func:`config_of`).

    >>> df = replay([[{"name": "bash", "args": {"command": "ls"}}]] * 5)
    >>> df["action"].tolist(), df["hash_count"].tolist(), df["calls:bash"].tolist()
    (['ok', 'ok', 'warn', 'ok', 'stop'], [1, 2, 3, 4, 5], [1, 2, 2, 3, 3])
    """
    if middleware is not None:
        if config is not None:
            raise ValueError("pass either config or middleware to replay(), not both")
        if not isinstance(middleware, LoopMiddleware):
            raise TypeError(f"middleware must be a PinnedMiddleware or RunScopedMiddleware, "
                            f"got {type(middleware).__name__}")
    else:
        require_instance("config", config, DetectorConfig, or_none=True)
    trace = as_batches(batches)
    middleware = middleware if middleware is not None else middleware_for(upstream, config)
    steps = replay_batches(trace, middleware, with_state=True, until_stop=until_stop)
    return table(steps, middleware.config)


def table(steps: Iterable[ReplayedBatch], config: DetectorConfig):
    """The replay table of :func:`replay` from replayed steps that kept their state (``with_state=True``)."""
    import pandas as pd

    rows = []
    tools: dict[str, int] = {}  # tool -> highest windowed count seen, in first-seen order
    for step in steps:
        state = step.state or {"hash_counts": {}, "tool_counts": {}}
        counts = state["tool_counts"]
        for name in tool_names(step.calls):
            tools[name] = max(tools.get(name, 0), counts.get(name, 0))
        decision = step.decision
        rows.append((step.step, len(step.calls), decision.fingerprint,
                     state["hash_counts"].get(decision.fingerprint, 0), counts, decision.action, decision.layer,
                     decision.tool, decision.count))

    ordered = sorted(tools, key=lambda t: -tools[t])  # stable: ties keep first-seen order
    columns = ["step", "n_calls", "fingerprint", "hash_count", *(TOOL_PREFIX + t for t in ordered),
               "action", "layer", "tool", "count"]
    data: dict[str, Any] = {
        "step": [r[0] for r in rows],
        "n_calls": [r[1] for r in rows],
        "fingerprint": pd.Series([r[2] for r in rows], dtype=object),
        "hash_count": [r[3] for r in rows],
    }
    for tool in ordered:
        data[TOOL_PREFIX + tool] = [r[4].get(tool, 0) for r in rows]
    data["action"] = pd.Series([r[5] for r in rows], dtype=object)
    data["layer"] = pd.Series([r[6] for r in rows], dtype=object)  # None stays None, not NaN
    data["tool"] = pd.Series([r[7] for r in rows], dtype=object)
    data["count"] = [r[8] for r in rows]
    df = pd.DataFrame(data, columns=columns)
    df = df.astype({c: "int64" for c in columns if c not in ("fingerprint", "action", "layer", "tool", "count")})
    df = df.astype({"count": "Int64"})  # empty for ok
    df.attrs["config"] = config.as_dict()  # plain values: pandas deep-copies attrs
    return df


def config_of(df) -> DetectorConfig:
    """The config a replay table was made with (the upstream defaults if the table does not say)."""
    fields = getattr(df, "attrs", {}).get("config")
    return DetectorConfig(**fields) if fields else DetectorConfig()


def tool_columns(df) -> list[str]:
    """The tool names that have a ``calls:<tool>`` column in a replay table, most-called first."""
    return [c[len(TOOL_PREFIX):] for c in df.columns if isinstance(c, str) and c.startswith(TOOL_PREFIX)]


def first_steps(df) -> tuple[int | None, int | None]:
    """``(first warn step, first stop step)`` of a replay table; ``None`` where it never happened."""
    found = []
    for action in ("warn", "stop"):
        steps = df.loc[df["action"] == action, "step"]
        found.append(int(steps.iloc[0]) if len(steps) else None)
    return found[0], found[1]


def verdict(df) -> str:
    """What the detector made of a whole trace: ``"stop"``, ``"warn"`` (warned but never stopped) or ``"ok"``."""
    return Outcome("DeerFlow", *first_steps(df)).action


def pattern_table(config: DetectorConfig | None = None, names: str | Iterable[str] | None = None, *,
                  upstream: str = "pinned"):
    """One row per pattern: its label, the detector's first warn and stop steps, and whether they agree.

    The detector *agrees* with the human label when it flags (warns or stops) exactly the traces labelled
    ``"loop"``: a warning on progress is a false alarm, silence on a loop is a miss. ``names`` picks patterns
    (all by default; a single name is one pattern); ``upstream`` picks the version, as in :func:`replay`.

    >>> table = pattern_table(names="exact_repeat")
    >>> print(table[["pattern", "first_warn", "first_stop", "agrees"]].to_string(index=False))
         pattern  first_warn  first_stop  agrees
    exact_repeat           3           5    True
    """
    import pandas as pd

    if names is None:
        names = list(PATTERNS)
    elif isinstance(names, str):
        names = [names]  # one pattern, not its letters
    elif not isinstance(names, Iterable):
        raise TypeError(f"names must be a pattern name or a list of pattern names, got {type(names).__name__}")
    rows = []
    for name in names:
        pattern = PATTERNS[name] if isinstance(name, str) and name in PATTERNS else None
        if pattern is None:
            raise KeyError(f"no pattern named {name!r}; expected one of {', '.join(PATTERNS)}")
        df = replay(pattern.batches, config, upstream=upstream)
        first_warn, first_stop = first_steps(df)
        said = verdict(df)
        rows.append({
            "pattern": name, "batches": len(df), "label": pattern.label, "first_warn": first_warn,
            "first_stop": first_stop, "detector": said, "agrees": (said != "ok") == (pattern.label == "loop"),
        })
    table = pd.DataFrame(rows)
    return table.astype({"first_warn": "Int64", "first_stop": "Int64"})
