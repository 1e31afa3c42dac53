"""Stable per-call keys and read buckets, of both upstream versions side by side (chapters 02, 03 and 07).

A *key* is what the detector compares: two calls with the same tool name and the same key count as the same
action. At the pinned upstream commit ``f1f4af99`` (:func:`stable_key`) ``read_file`` calls are keyed by a coarse
200-line *bucket*, so small line jitter still looks like a repeat; writes are keyed by their full arguments, so a
changed write counts as progress; every other tool is keyed by a few *salient fields* and ignores the rest.

The later version (:func:`later_stable_key`, as read in the public fork ``ucan-ai/deer-flow`` at ``711035d2``)
keys ``read_file`` by its exact line window, open-ended when no usable end line is given (:func:`read_window`;
upstream PR #5486 made the window exact), and keys every other tool by all its arguments, dropping only the
``description`` that ``bash``, ``ls``, ``glob`` and ``grep`` carry for the user interface.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from .checks import require_int
from .fast_json import canonical_json  # normalize.canonical_json's text (tests/test_fast_json.py)

__all__ = ["BUCKET_SIZE", "SALIENT_FIELDS", "FULL_ARGS_TOOLS", "read_bucket", "stable_key",
           "OPEN_END", "NARRATION_TOOLS", "read_window", "later_stable_key"]

#: What an unusable line number falls back to: a line (the pinned key), or ``None`` (the later key's open end).
Default = TypeVar("Default", int, None)

#: Lines per ``read_file`` bucket at the pinned upstream commit.
BUCKET_SIZE = 200

#: The argument names that identify a call of a tool that has no special rule, in upstream's order.
SALIENT_FIELDS = ("path", "url", "query", "command", "pattern", "glob", "cmd")

#: Tools whose whole argument dict is the key: changed content means a different action.
FULL_ARGS_TOOLS = ("write_file", "str_replace")


def _as_line(value: Any, default: Default) -> int | Default:
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


# -- the later version: deer-flow's loop_detection_middleware.py as read in the public fork ucan-ai/deer-flow at
# 711035d2d1c04737fa632bbb5f2bcb7828b4b682 (the upstream commit it corresponds to could not be identified) ---------

#: What stands for the last line in a later ``read_file`` key when no usable ``end_line`` is given: the read runs to
#: the end of the file, which is a different window from any numbered one.
OPEN_END = "end"

#: Tools whose ``description`` argument only narrates the call to the user, so the later key leaves it out
#: (rewording it must not make a repeated call look new). Every other tool keeps it: there it can be the payload.
NARRATION_TOOLS = ("bash", "ls", "glob", "grep")


def read_window(path: Any, start_line: Any = None, end_line: Any = None) -> str:
    """Key a line range by its exact lines, as the later version does: ``"path:start-end"``.

    Each end is read as an int and clamped to at least line 1, a missing or unusable start is line 1, and the
    ends are put in order. A missing or unusable end is no number at all but :data:`OPEN_END`: the read runs to the
    last line, so reading a whole file never collides with reading its first line. (An end too large for an int,
    such as ``float("inf")``, is unusable here; upstream would raise, as :func:`read_bucket` notes.)

    >>> read_window("a.py", 1, 50), read_window("a.py", 50, 1), read_window("a.py"), read_window("a.py", 5, "x")
    ('a.py:1-50', 'a.py:1-50', 'a.py:1-end', 'a.py:5-end')
    """
    start = max(_as_line(start_line, 1), 1)
    end = _as_line(end_line, None)
    if end is None:
        return f"{path}:{start}-{OPEN_END}"
    start, end = sorted((start, max(end, 1)))
    return f"{path}:{start}-{end}"


def later_stable_key(name: Any, args: dict, fallback: str | None = None, *,
                     read_key: Callable[..., str] = read_window) -> str:
    """The later version's key for one call of tool ``name``: its read window, or else all its arguments.

    ``read_file`` uses its exact window (:func:`read_window`, or another ``read_key``). Every other tool uses the
    fallback text when its arguments were no JSON object, or else every argument, because any of them (a ``page``,
    a ``cursor``) can change what the call does; only the ``description`` of the :data:`NARRATION_TOOLS` is left
    out. Compare :func:`stable_key`, the pinned key, which keeps only the salient fields:

    >>> later_stable_key("web_search", {"query": "loop detection", "page": 2})
    '{"page": 2, "query": "loop detection"}'
    >>> later_stable_key("bash", {"command": "ls", "description": "list the files"})
    '{"command": "ls"}'
    """
    if name == "read_file" and fallback is None:
        return read_key(args.get("path") or "", args.get("start_line"), args.get("end_line"))
    if fallback is not None:
        return fallback
    if name in NARRATION_TOOLS:
        args = {field: value for field, value in args.items() if field != "description"}
    return canonical_json(args)
