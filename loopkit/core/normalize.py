"""Tool-call argument normalization (chapter 01).

Providers hand tool arguments over in different transport shapes: OpenAI-style APIs send a JSON *string*,
Anthropic-style APIs and LangChain send a *dict*, and buggy or hostile producers send anything at all.
:func:`normalize_args` turns every shape into ``(args_dict, fallback)`` and never raises, so a malformed call
still gets a stable key instead of crashing the loop detector.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["normalize_args", "canonical_json", "display_json"]


def canonical_json(value: Any) -> str:
    """Serialize ``value`` exactly as ``json.dumps(value, sort_keys=True, default=str)`` does.

    This is the one serialization the detector's keys use, as upstream's helpers use it at the pinned commit:
    sorted keys, ASCII escapes, and ``str()`` for anything JSON cannot hold. (The keys and fingerprints get the same
    text from :mod:`loopkit.core.fast_json`, which only makes it faster; a test holds the two equal.)

    >>> canonical_json({"b": 1, "a": [1.5, None]})
    '{"a": [1.5, null], "b": 1}'
    """
    return json.dumps(value, sort_keys=True, default=str)


def display_json(value: Any, *, sort_keys: bool = False) -> str:
    """JSON text for showing or comparing ``value`` outside the detector's keys; never raises.

    ``str()`` stands in for what JSON cannot hold, and ``repr`` for values JSON cannot encode at all (circular
    values, keys that cannot be sorted).

    >>> display_json({"b": 1, "a": {1, 2}}, sort_keys=True)
    '{"a": "{1, 2}", "b": 1}'
    """
    try:
        return json.dumps(value, sort_keys=sort_keys, default=str)
    except (TypeError, ValueError):
        return repr(value)


def _describe_unserializable(value: Any) -> str:
    """A deterministic fallback for values that even ``default=str`` cannot serialize."""
    try:
        shown = repr(value)
    except Exception:  # a hostile __repr__ must not crash the detector either
        shown = "?"
    return f"<unserializable {type(value).__qualname__}: {shown}>"


def _fallback_text(value: Any) -> str:
    try:
        return canonical_json(value)
    except Exception:
        # Mixed-type keys cannot be sorted, circular containers cannot be encoded, and a raising __str__ (which
        # may raise anything) defeats default=str. Upstream would raise here; the model keeps its promise never
        # to raise.
        return _describe_unserializable(value)


def normalize_args(raw: Any) -> tuple[dict, str | None]:
    """Turn raw tool-call arguments into ``(args, fallback)``; never raises.

    Policy: a dict is used as it is; a string is parsed as JSON; a parsed dict is used, any other parsed value
    or unparseable text becomes the *fallback* string that keys the call instead; ``None`` means no arguments.

    >>> normalize_args('{"path": "a.py"}')
    ({'path': 'a.py'}, None)
    >>> normalize_args("not json")
    ({}, 'not json')
    >>> normalize_args([1, 2])
    ({}, '[1, 2]')
    """
    if isinstance(raw, dict):
        return raw, None
    if isinstance(raw, str):
        try:
            parsed = json.loads(raw)
        except (ValueError, RecursionError):
            return {}, raw
        if isinstance(parsed, dict):
            return parsed, None
        return {}, _fallback_text(parsed)
    if raw is None:
        return {}, None
    return {}, _fallback_text(raw)
