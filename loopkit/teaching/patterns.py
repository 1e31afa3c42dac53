"""Named synthetic traces: recorded-looking tool-call patterns to run the detector over (chapter 05).

Each :class:`Pattern` is a deterministic list of *batches* (one batch per model turn, each a list of
``{"name": ..., "args": {...}}`` calls), a one-line description, and the label a careful human reviewer would
give the whole trace: ``"loop"`` (the agent is stuck) or ``"progress"`` (it is getting somewhere). The labels are
the ground truth the detector's verdicts are compared with, so some patterns are chosen because the detector
gets them wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from loopkit.core.batches import Call, check_batches
from loopkit.core.language import N_, tr

__all__ = ["Pattern", "PATTERNS", "as_batches", "get", "names"]


def _call(name: str, **args: Any) -> Call:
    return {"name": name, "args": args}


@dataclass(frozen=True)
class Pattern:
    """One named trace: ``batches`` builds a fresh list each time, so a learner may change it freely.

    ``summary`` is the one-line description as written here, in English; ``description`` is the same line in the
    learner's language (:mod:`loopkit.core.language`). ``name`` and ``label`` are code words and never change.

    >>> p = get("exact_repeat")
    >>> p.label, len(p.batches), p.batches[0]
    ('loop', 8, [{'name': 'bash', 'args': {'command': 'pytest tests/test_api.py'}}])
    """

    name: str
    summary: str
    label: str
    _build: Callable[[], list[list[Call]]] = field(repr=False, compare=False)

    @property
    def description(self) -> str:
        """The one-line description, in the learner's language."""
        return tr(self.summary)

    @property
    def batches(self) -> list[list[Call]]:
        """The trace: a new list of batches of calls (each call a new dict) on every access."""
        return self._build()

    def __len__(self) -> int:
        return len(self._build())


# -- the traces ------------------------------------------------------------------------------------------------
def _exact_repeat() -> list[list[Call]]:
    return [[_call("bash", command="pytest tests/test_api.py")] for _ in range(8)]


def _read_jitter() -> list[list[Call]]:
    # Every range starts and ends inside lines 1-200, so all of them fall in bucket 0-0 of the same file.
    ranges = [(40, 90), (42, 95), (38, 88), (45, 100), (41, 92), (39, 91), (44, 97), (40, 89)]
    return [[_call("read_file", path="src/app.py", start_line=s, end_line=e)] for s, e in ranges]


def _sequential_paging() -> list[list[Call]]:
    # 50-line pages: four consecutive pages share each 200-line bucket.
    return [[_call("read_file", path="docs/manual.md", start_line=1 + 50 * i, end_line=50 * (i + 1))]
            for i in range(12)]


def _edit_test_same_failure() -> list[list[Call]]:
    batches = []
    for attempt in range(1, 7):
        batches.append([_call("str_replace", path="src/calc.py", old_str="return a - b",
                              new_str=f"return a - b  # attempt {attempt}")])
        batches.append([_call("bash", command="pytest tests/test_calc.py")])
    return batches


def _abc_cycle() -> list[list[Call]]:
    cycle = [
        [_call("read_file", path="src/config.py")],
        [_call("grep", pattern="TIMEOUT", path="src")],
        [_call("bash", command="python -m app --check")],
    ]
    return [[dict(c, args=dict(c["args"])) for c in batch] for _ in range(6) for batch in cycle]


def _cross_file_sweep() -> list[list[Call]]:
    return [[_call("read_file", path=f"src/module_{i:02d}.py")] for i in range(60)]


def _write_new_content() -> list[list[Call]]:
    return [[_call("write_file", path="notes/summary.md", content=f"Draft {i}: findings so far, section {i}")]
            for i in range(1, 9)]


def _write_same_content() -> list[list[Call]]:
    return [[_call("write_file", path="notes/summary.md", content="Draft: findings so far")] for _ in range(6)]


def _retry_changing_flags() -> list[list[Call]]:
    flags = ["", " -x", " -v", " -q", " --lf", " -x -v", " --tb=short", " -p no:cacheprovider"]
    return [[_call("bash", command=f"pytest tests/test_db.py{f}")] for f in flags]


def _reordered_batch() -> list[list[Call]]:
    calls = [
        _call("read_file", path="src/router.py"),
        _call("grep", pattern="def route", path="src"),
        _call("bash", command="git diff --stat"),
    ]
    return [[dict(c, args=dict(c["args"])) for c in calls[i % 3:] + calls[:i % 3]] for i in range(6)]


def _identical_in_batch() -> list[list[Call]]:
    stutter = [_call("web_search", query="python asyncio timeout") for _ in range(5)]
    return [stutter,
            [_call("read_file", path="src/net.py")],
            [_call("str_replace", path="src/net.py", old_str="timeout=5", new_str="timeout=30")],
            [_call("bash", command="pytest tests/test_net.py")]]


def _polling() -> list[list[Call]]:
    return [[_call("bash", command="gh run view 4211 --json status")] for _ in range(8)]


def _read_bash_interleaved() -> list[list[Call]]:
    batches = []
    for i in range(40):
        batches.append([_call("read_file", path=f"tests/test_unit_{i:02d}.py")])
        batches.append([_call("bash", command=f"pytest tests/test_unit_{i:02d}.py")])
    return batches


def _read_burst() -> list[list[Call]]:
    return [[_call("read_file", path=f"pkg/part_{i:02d}.py") for i in range(60)]]


def _bash_pipeline() -> list[list[Call]]:
    return [[_call("bash", command=f"python migrate.py --step {i}")] for i in range(1, 41)]


PATTERNS: dict[str, Pattern] = {
    p.name: p
    for p in (
        Pattern("exact_repeat", N_("the same test command, turn after turn, with nothing changed"), "loop",
                _exact_repeat),
        Pattern("read_jitter", N_("the same part of one file, re-read with slightly different line ranges"), "loop",
                _read_jitter),
        Pattern("sequential_paging", N_("one long file read in consecutive 50-line pages"), "progress",
                _sequential_paging),
        Pattern("edit_test_same_failure", N_("a small edit, then the same failing test, over and over"), "loop",
                _edit_test_same_failure),
        Pattern("abc_cycle", N_("three calls A, B, C repeated in the same order"), "loop", _abc_cycle),
        Pattern("cross_file_sweep", N_("an audit that reads 60 different files, one per turn"), "progress",
                _cross_file_sweep),
        Pattern("write_new_content", N_("the same file rewritten with new content each turn"), "progress",
                _write_new_content),
        Pattern("write_same_content", N_("the same file written with the same content each turn"), "loop",
                _write_same_content),
        Pattern("retry_changing_flags", N_("a failing test retried with a different flag each time"), "loop",
                _retry_changing_flags),
        Pattern("reordered_batch", N_("the same three calls each turn, listed in a rotating order"), "loop",
                _reordered_batch),
        Pattern("identical_in_batch", N_("one turn asks for the same search five times, then work moves on"), "loop",
                _identical_in_batch),
        Pattern("polling", N_("waiting for a CI run by checking its status every turn"), "progress", _polling),
        Pattern("read_bash_interleaved", N_("read a test file, run it, next file: 40 times"), "progress",
                _read_bash_interleaved),
        Pattern("read_burst", N_("one turn that reads 60 different files in parallel"), "progress", _read_burst),
        Pattern("bash_pipeline", N_("a 40-step migration, one new shell command per turn"), "progress", _bash_pipeline),
    )
}


def names() -> list[str]:
    """The pattern names, in the order the chapter introduces them.

    >>> names()[:3]
    ['exact_repeat', 'read_jitter', 'sequential_paging']
    """
    return list(PATTERNS)


def get(name: str) -> Pattern:
    """The pattern called ``name``; an unknown name raises ``KeyError`` listing the known ones.

    >>> get("polling").label
    'progress'
    """
    try:
        return PATTERNS[name]
    except (KeyError, TypeError):
        raise KeyError(f"no pattern named {name!r}; expected one of {', '.join(PATTERNS)}") from None


def as_batches(trace: Any) -> list[list[Call]]:
    """A :class:`Pattern`'s batches, or ``trace`` checked by :func:`loopkit.core.batches.check_batches`.

    >>> as_batches(get("exact_repeat")) == get("exact_repeat").batches
    True
    """
    if isinstance(trace, Pattern):
        return trace.batches
    return check_batches(trace)
