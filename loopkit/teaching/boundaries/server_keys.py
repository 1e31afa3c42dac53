"""Server-owned identity: a client cannot supply its own user id, sandbox lease, run trace, sequence number or
internal keys, and memory is partitioned by the server's user id (chapter 09). This workbook's model of the idea.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["SERVER_OWNED_KEYS", "INTERNAL_PREFIX", "strip_server_owned", "memory_bucket"]


#: Keys only the server may set: who the user is, which sandbox the run holds, the run's trace, its sequence number.
SERVER_OWNED_KEYS = ("user_id", "sandbox_lease", "run_trace", "sequence_number")

#: Keys starting with this (after NFKC normalization and trimming) are internal to the server and server-owned as well.
INTERNAL_PREFIX = "_"


def _canonical_key(key: str) -> str:
    # NFKC folds fullwidth and other compatibility forms; keeping only letters and digits, case-folded, makes
    # user_id, user-id, user.id, "user id", userId, UserID and USERID one and the same key.
    return "".join(char for char in unicodedata.normalize("NFKC", key).casefold() if char.isalnum())


def _is_internal(key: str) -> bool:
    return unicodedata.normalize("NFKC", key).strip().startswith(INTERNAL_PREFIX)


def strip_server_owned(
    metadata: Mapping[str, Any],
    server_keys: Iterable[str] = SERVER_OWNED_KEYS,
    *,
    server_values: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Remove client-supplied copies of server-owned keys; return ``(cleaned, removed_keys)``.

    Policy: keys are compared by their letters and digits alone, after NFKC normalization and case-folding, so
    ``"User-Id"``, ``"userId"``, ``"USER.ID"`` and ``"ｕｓｅｒ_ｉｄ"`` are all copies of ``user_id`` (while
    ``user_id_note`` is another key); every key starting with ``_`` is internal, hence server-owned too.
    ``removed_keys`` lists the client's spellings in input order. ``server_values`` (keys from ``server_keys``) are
    then written under their names as ``server_keys`` spells them: the server's value overwrites the client's. Only
    top-level keys are examined; the input is never modified.

    >>> strip_server_owned({"topic": "x", "userId": "alice", "_route": "admin"}, server_values={"user_id": "bob"})
    ({'topic': 'x', 'user_id': 'bob'}, ('userId', '_route'))
    """
    if not isinstance(metadata, Mapping):
        raise TypeError(f"metadata must be a mapping, got {type(metadata).__name__}")
    if isinstance(server_keys, str):
        raise TypeError("server_keys must be a collection of key names, not a single str")
    owned: dict[str, str] = {}  # canonical form -> the server's own spelling
    for key in server_keys:
        if not isinstance(key, str) or not _canonical_key(key):
            raise ValueError(f"server_keys must hold str names with at least one letter or digit, got {key!r}")
        owned.setdefault(_canonical_key(key), key)
    cleaned: dict[str, Any] = {}
    removed: list[str] = []
    for key, value in metadata.items():
        if not isinstance(key, str):
            raise TypeError(f"metadata keys must be str, got a {type(key).__name__} key")
        if _canonical_key(key) in owned or _is_internal(key):
            removed.append(key)
        else:
            cleaned[key] = value
    for key, value in (server_values or {}).items():
        if not isinstance(key, str) or _canonical_key(key) not in owned:
            raise ValueError(f"server_values key {key!r} is not one of the server-owned keys {sorted(owned.values())}")
        cleaned[owned[_canonical_key(key)]] = value
    return cleaned, tuple(removed)


_USER_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,127}")


def memory_bucket(session_user_id: str, metadata: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """Pick the memory bucket from the authenticated session's user id, never from the request.

    Returns ``(bucket, cleaned_metadata)``: the metadata loses every client copy of a server-owned key and carries
    the session's ``user_id`` instead, so nothing downstream can read the client's claim either.

    >>> memory_bucket("mallory", {"user_id": "alice", "topic": "notes"})
    ('memory/mallory', {'topic': 'notes', 'user_id': 'mallory'})
    """
    if not isinstance(session_user_id, str) or not _USER_ID.fullmatch(session_user_id):
        raise ValueError(
            "session_user_id must be the authenticated user's id: 1-128 of A-Z a-z 0-9 _ . @ -, "
            "starting with a letter or digit"
        )
    cleaned, _ = strip_server_owned(metadata, server_values={"user_id": session_user_id})
    return f"memory/{session_user_id}", cleaned
