"""Stable per-call keys and read buckets (chapters 02 and 03).

A *key* is what the detector compares: two calls with the same tool name and the same key count as the same
action. At the pinned upstream commit ``read_file`` calls are keyed by a coarse 200-line *bucket*, so small line
jitter still looks like a repeat; writes are keyed by their full arguments, so a changed write counts as progress;
every other tool is keyed by a few *salient fields* and ignores the rest. Upstream PR #5486 later keyed
``read_file`` by its exact line window instead (:func:`read_window`), because paging gave false positives.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .checks import require_int
from .fast_json import canonical_json  # normalize.canonical_json's text (tests/test_fast_json.py)

__all__ = ["BUCKET_SIZE", "SALIENT_FIELDS", "FULL_ARGS_TOOLS", "read_bucket", "read_window", "stable_key"]

#: Lines per ``read_file`` bucket at the pinned upstream commit.
BUCKET_SIZE = 200

#: The argument names that identify a call of a tool that has no special rule, in upstream's order.
SALIENT_FIELDS = ("path", "url", "query", "command", "pattern", "glob", "cmd")

#: Tools whose whole argument dict is the key: changed content means a different action.
FULL_ARGS_TOOLS = ("write_file", "str_replace")


def _as_line(value: Any, default: int) -> int:
    if value is None:
        return default
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        # OverflowError (int(float("inf"))) is a deliberate extension: upstream only catches TypeError and
        # ValueError and would raise there. Both give the same answer for every finite input.
        return default


def read_bucket(path: Any, start_line: Any = None, end_line: Any = None, *, bucket_size: int = BUCKET_SIZE) -> str:
    """Key a line range by the ``bucket_size``-line buckets its two ends fall in.

    Unusable line numbers fall back to line 1 (start) or to the start (end); the ends are sorted and clamped to
    at least 1, so reversed or zero ranges still land somewhere sensible.

    >>> read_bucket("a.py", 1, 199), read_bucket("a.py", 200, 1), read_bucket("a.py", 201)
    ('a.py:0-0', 'a.py:0-0', 'a.py:1-1')
    """
    require_int("bucket_size", bucket_size)
    lo, hi = _line_range(start_line, end_line)
    return f"{path}:{(lo - 1) // bucket_size}-{(hi - 1) // bucket_size}"


def _line_range(start_line: Any, end_line: Any) -> tuple[int, int]:
    """The two ends as ints, sorted and clamped to at least line 1 (unusable values fall back as upstream's do)."""
    start = _as_line(start_line, 1)
    end = _as_line(end_line, start)
    lo, hi = sorted((start, end))
    return max(lo, 1), max(hi, 1)


def read_window(path: Any, start_line: Any = None, end_line: Any = None) -> str:
    """Key a line range by its exact lines: the later upstream key of PR #5486, modelled from its description.

    The ends are read, sorted and clamped as :func:`read_bucket` reads them, but not bucketed, so consecutive
    pages of one file are different actions. (The key's exact text upstream was not checked here.)

    >>> read_window("a.py", 1, 50), read_window("a.py", 51, 100), read_window("a.py", 50, 1)
    ('a.py:1-50', 'a.py:51-100', 'a.py:1-50')
    """
    lo, hi = _line_range(start_line, end_line)
    return f"{path}:{lo}-{hi}"


def stable_key(name: Any, args: dict, fallback: str | None = None, *,
               read_key: Callable[..., str] = read_bucket) -> str:
    """The string that identifies one call of tool ``name`` for repeat counting.

    ``read_file`` uses its read bucket (or another ``read_key``, such as :func:`read_window`); ``write_file`` and
    ``str_replace`` use every argument; other tools use the non-None salient fields, or else the fallback, or else
    every argument.

    >>> stable_key("web_search", {"query": "loop detection", "max_results": 5})
    '{"query": "loop detection"}'
    """
    if name == "read_file" and fallback is None:
        return read_key(args.get("path") or "", args.get("start_line"), args.get("end_line"))
    if name in FULL_ARGS_TOOLS:
        return fallback if fallback is not None else canonical_json(args)
    salient = {field: args[field] for field in SALIENT_FIELDS if args.get(field) is not None}
    if salient:
        return canonical_json(salient)
    return fallback if fallback is not None else canonical_json(args)
