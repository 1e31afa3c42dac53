"""The small translations the presets and the rules are made of: rename a tool and some of its arguments, and turn a
start line and a line count into DeerFlow's 1-indexed inclusive ``start_line``/``end_line``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["Translate", "renamed", "rename", "whole_number", "line_range"]

#: A translation of one call's arguments (always a dict) into ``(new tool name, new arguments)``, or ``None``
#: when it does not apply to these arguments.
Translate = Callable[[dict], "tuple[str, dict] | None"]


def renamed(args: dict, renames: Mapping[str, str]) -> dict | None:
    """``args`` with keys renamed; ``None`` when a new name is already taken by another argument."""
    out = {}
    for key, value in args.items():
        new = renames.get(key, key)
        if new in out:
            return None
        out[new] = value
    return out


def rename(tool: str, *, drop: tuple[str, ...] = (), **renames: str) -> Translate:
    """A translation to ``tool`` that renames some arguments, drops those in ``drop``, and keeps the others.

    >>> rename("write_file", file_path="path")({"file_path": "a.py", "content": "x"})
    ('write_file', {'path': 'a.py', 'content': 'x'})
    >>> rename("bash", drop=("security_risk",))({"command": "ls", "security_risk": "LOW"})
    ('bash', {'command': 'ls'})
    """
    def translate(args: dict):
        out = renamed({k: v for k, v in args.items() if k not in drop}, renames)
        return None if out is None else (tool, out)
    return translate


def whole_number(value: Any) -> int | None:
    """``value`` if it is an int (not a bool), else ``None``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def line_range(args: dict, start_key: str, count_key: str, first: int) -> dict:
    """``args`` with a start line and a line count replaced by DeerFlow's 1-indexed inclusive range; left as they are
    when they are not whole numbers. ``first`` is what line the format counts from (0 or 1)."""
    start, count = whole_number(args.get(start_key)), whole_number(args.get(count_key))
    if (start_key in args and start is None) or (count_key in args and count is None):
        return dict(args)
    out = {k: v for k, v in args.items() if k not in (start_key, count_key)}
    begin = (start if start is not None else first) - first + 1
    if start is not None:
        out["start_line"] = begin
    if count is not None:
        out["start_line"] = begin
        out["end_line"] = begin + count - 1
    return out
