"""Batch fingerprints (chapter 03).

A model turn may call several tools at once. The detector hashes the whole batch: each call becomes the entry
``"name:key"``, the entries are sorted (so the order the model listed them in does not matter) but kept with
their multiplicity (so calling the same tool twice differs from calling it once), and the MD5 digest of that list
is cut to 12 hex characters.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from .keys import stable_key
from .normalize import canonical_json, normalize_args

__all__ = ["FINGERPRINT_HEX_CHARS", "call_entry", "fingerprint"]

#: Hex characters kept from the MD5 digest: 12 hex characters are 48 bits.
FINGERPRINT_HEX_CHARS = 12


def call_entry(call: Mapping[str, Any]) -> str:
    """The ``"name:key"`` string one call contributes to its batch's fingerprint.

    >>> call_entry({"name": "read_file", "args": '{"path": "a.py", "start_line": 10}'})
    'read_file:a.py:0-0'
    """
    name = call.get("name", "")
    args, fallback = normalize_args(call.get("args", {}))
    return f"{name}:{stable_key(name, args, fallback)}"


def fingerprint(calls: Iterable[Mapping[str, Any]]) -> str:
    """Hash a batch of tool calls: order-independent, multiplicity-sensitive, 12 hex characters of MD5.

    Each call is a mapping with ``name`` and ``args`` (a dict, a JSON string, or anything else); other keys such
    as ``id`` are ignored.

    >>> a = {"name": "bash", "args": {"command": "pytest"}}
    >>> b = {"name": "read_file", "args": {"path": "a.py"}}
    >>> fingerprint([a, b]) == fingerprint([b, a]), fingerprint([a, b]) == fingerprint([a, a, b])
    (True, False)
    """
    try:
        items = iter(calls)
    except TypeError:
        raise TypeError(
            f"fingerprint() expects an iterable of tool-call mappings, got {type(calls).__name__}"
        ) from None
    entries = []
    for index, call in enumerate(items):
        if type(call) is not dict and not isinstance(call, Mapping):  # the exact-type test skips the ABC check
            raise TypeError(
                f"fingerprint(): call {index} must be a mapping with 'name' and 'args', "
                f"got {type(call).__name__}: {call!r:.80}"
            )
        try:
            name = call.get("name", "")
            raw = call.get("args", {})
            if type(raw) is dict:  # the common case, what call_entry does without the detour
                entries.append(f"{name}:{stable_key(name, raw)}")
            else:
                entries.append(call_entry(call))
        except (TypeError, ValueError) as exc:
            # Only a dict passed in directly can get here (say, with keys of mixed types that cannot be sorted).
            raise TypeError(f"fingerprint(): call {index} has arguments that cannot be keyed: {exc}") from None
    entries.sort()
    digest = hashlib.md5(canonical_json(entries).encode(), usedforsecurity=False).hexdigest()
    return digest[:FINGERPRINT_HEX_CHARS]
