"""Batch fingerprints (chapter 03).

A model turn may call several tools at once. The detector hashes the whole batch: each call becomes the entry
``"name:key"``, the entries are sorted (so the order the model listed them in does not matter) but kept with
their multiplicity (so calling the same tool twice differs from calling it once), and the MD5 digest of that list
is cut to 12 hex characters, as upstream's ``_hash_tool_calls`` does at the pinned commit ``f1f4af99``. The later
version (read in the fork ``ucan-ai/deer-flow`` at ``711035d2``) hashes the same way, over its own keys.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .batches import check_batch
from .fast_json import canonical_json  # normalize.canonical_json's text (tests/test_fast_json.py)
from .keys import read_bucket, stable_key
from .normalize import normalize_args

__all__ = ["FINGERPRINT_HEX_CHARS", "call_entry", "fingerprint"]

#: Hex characters kept from the MD5 digest: 12 hex characters are 48 bits.
FINGERPRINT_HEX_CHARS = 12


def call_entry(call: Mapping[str, Any], *, read_key: Callable[..., str] = read_bucket,
               key: Callable[..., str] = stable_key) -> str:
    """The ``"name:key"`` string one call contributes to its batch's fingerprint.

    >>> call_entry({"name": "read_file", "args": '{"path": "a.py", "start_line": 10}'})
    'read_file:a.py:0-0'
    """
    name = call.get("name", "")
    args, fallback = normalize_args(call.get("args", {}))
    return f"{name}:{key(name, args, fallback, read_key=read_key)}"


def fingerprint(calls: Iterable[Mapping[str, Any]], *, read_key: Callable[..., str] = read_bucket,
                key: Callable[..., str] = stable_key) -> str:
    """Hash a batch of tool calls: order-independent, multiplicity-sensitive, 12 hex characters of MD5.

    Each call is a mapping with ``name`` and ``args`` (a dict, a JSON string, or anything else); other keys such
    as ``id`` are ignored. ``key`` keys one call (the pinned :func:`~loopkit.core.keys.stable_key` by default, or
    the later :func:`~loopkit.core.keys.later_stable_key`); ``read_key`` keys its ``read_file`` ranges (upstream's
    200-line buckets by default).

    >>> a = {"name": "bash", "args": {"command": "pytest"}}
    >>> b = {"name": "read_file", "args": {"path": "a.py"}}
    >>> fingerprint([a, b]) == fingerprint([b, a]), fingerprint([a, b]) == fingerprint([a, a, b])
    (True, False)
    """
    entries = sorted(_entry(index, call, read_key, key) for index, call in enumerate(check_batch(calls, name="calls")))
    digest = hashlib.md5(canonical_json(entries).encode(), usedforsecurity=False).hexdigest()
    return digest[:FINGERPRINT_HEX_CHARS]


def _entry(index: int, call: Mapping, read_key: Callable[..., str], key: Callable[..., str]) -> str:
    """``call_entry(call)``, with an error that names the call when its arguments cannot be keyed."""
    try:
        return call_entry(call, read_key=read_key, key=key)
    except (TypeError, ValueError) as exc:
        # Only a dict passed in directly can get here (say, with keys of mixed types that cannot be sorted).
        raise TypeError(f"fingerprint(): calls[{index}] has arguments that cannot be keyed: {exc}") from None
