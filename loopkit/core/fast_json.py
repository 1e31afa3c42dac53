"""The detector's serialization, made faster: the same text as :func:`loopkit.core.normalize.canonical_json`.

Not a lesson: :func:`loopkit.core.normalize.canonical_json` is the definition, and the chapters send learners there.
The keys and fingerprints serialize every call of every batch, and ``json.dumps(value, sort_keys=True,
default=str)`` sets up a new encoder on each call. This module sets one up once, with CPython's C encoder (the
private ``json.encoder.c_make_encoder``, which ``json`` itself uses), and falls back to the definition for
everything else. ``tests/test_fast_json.py`` proves that both give the same text, or raise the same error, on
arbitrary values; ``benchmarks/bench_detector.py`` measures what it saves.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from . import normalize

__all__ = ["canonical_json"]

_SETTINGS = json.JSONEncoder(sort_keys=True, default=str)


def _c_encoder() -> Callable[[Any, int], Any] | None:
    """CPython's C encoder set up once as ``json.dumps(sort_keys=True, default=str)`` sets it up on every call, but
    without the markers that detect circular values (so it is used only when it succeeds: an error falls back to the
    definition, which raises exactly what ``json.dumps`` raises). None when the interpreter has no such encoder, or
    one that does not give the same text on a probe value.
    """
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    s = _SETTINGS
    probe = {"b": [1.5, None, True, float("inf")], "a": "\u00e9", "c": object}
    try:
        encode = make(None, s.default, json.encoder.encode_basestring_ascii, s.indent, s.key_separator,
                      s.item_separator, s.sort_keys, s.skipkeys, s.allow_nan)
        if "".join(encode(probe, 0)) != normalize.canonical_json(probe):
            return None
    except Exception:
        return None
    return encode


_ENCODE = _c_encoder()


def canonical_json(value: Any) -> str:
    """:func:`loopkit.core.normalize.canonical_json`, with the encoder set up once.

    >>> canonical_json({"b": 1, "a": [1.5, None]})
    '{"a": [1.5, null], "b": 1}'
    """
    if _ENCODE is not None:
        try:
            return "".join(_ENCODE(value, 0))
        except Exception:
            pass  # circular, unsortable keys, a raising __str__...: the definition raises its own error
    return normalize.canonical_json(value)
