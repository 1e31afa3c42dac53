"""What each kind of evidence proves, and why the fingerprint is no credential (chapters 08 and 09).

:data:`EVIDENCE_LEVELS` lists what each check of this workbook proves and what it leaves open.
:func:`keyed_fingerprint` shows what a credential would need at the least: anyone who sees the calls can compute the
fingerprint; only a keyed tag needs a secret.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from loopkit.core.batches import check_batch
from loopkit.core.fingerprint import FINGERPRINT_HEX_CHARS, call_entry, fingerprint
from loopkit.core.language import N_, tr
from loopkit.core.normalize import canonical_json

__all__ = ["EvidenceLevel", "EVIDENCE_LEVELS", "evidence_table", "keyed_fingerprint"]


class EvidenceLevel(NamedTuple):
    """One kind of evidence: how you get it, what it proves, and what it leaves open."""

    level: str
    how: str
    proves: str
    leaves_open: str


#: From the narrowest evidence to the broadest. Each row is silent about everything in the rows after it.
EVIDENCE_LEVELS = (
    EvidenceLevel(
        N_("helper vectors"),
        N_("loopkit against 1,200 recorded upstream results (tests/test_conformance.py)"),
        N_("the model gives upstream's output on those inputs, down to the digest"),
        N_("other inputs; whether the recording matched the pinned commit"),
    ),
    EvidenceLevel(
        N_("helper probe"),
        N_("the hash-checked upstream helpers run beside loopkit (loopkit.teaching.probe)"),
        N_("the pinned helpers and the model agree on each claim and on generated batches"),
        N_("the middleware lifecycle: when hooks run, where state lives, what a warning does"),
    ),
    EvidenceLevel(
        N_("middleware lifecycle"),
        N_("the middleware class driven through its hooks with scripted messages (chapter 06 models it)"),
        N_("decision order, per-run state, how warnings and stops change the messages"),
        N_("the sandbox, the model provider, the assembled agent"),
    ),
    EvidenceLevel(
        N_("sandbox"),
        N_("tools run in the real sandbox"),
        N_("what a repeated or stopped tool call actually does to files and processes"),
        N_("what the model sends, and whether it heeds a warning"),
    ),
    EvidenceLevel(
        N_("model provider"),
        N_("real calls to the provider you use"),
        N_("the argument shapes it sends and how the model reacts to a warning"),
        N_("other providers and models; adversarial data in the context"),
    ),
    EvidenceLevel(
        N_("integration suite"),
        N_("upstream's end-to-end tests of the assembled agent"),
        N_("the parts work together at that commit, in upstream's configuration"),
        N_("your deployment: identity, credentials, headers, trust channels, your data"),
    ),
)


def evidence_table() -> list[dict[str, str]]:
    """:data:`EVIDENCE_LEVELS` as a list of dicts, ready for ``pandas.DataFrame``, in the learner's language
    (headings and texts alike, :func:`loopkit.core.language.tr`): a table to read, not data to compute with.

    >>> [row["level"] for row in evidence_table()][:2]
    ['helper vectors', 'helper probe']
    """
    return [{tr("level"): tr(row.level), tr("how"): tr(row.how), tr("proves"): tr(row.proves),
             tr("leaves_open"): tr(row.leaves_open)} for row in EVIDENCE_LEVELS]


# ----------------------------------------------------------------------------------------- fingerprint vs secret


def keyed_fingerprint(calls: Iterable[Mapping[str, Any]], secret: bytes) -> str:
    """An HMAC-SHA256 tag of the same batch entries the fingerprint hashes, cut to 12 hex characters.

    Unlike :func:`loopkit.fingerprint`, which anyone can recompute from the calls, this tag needs ``secret``. It
    shows what a credential would need at the least; it is still no identity (identity comes from the server's
    authenticated session, never from the request). ``calls`` is checked exactly as :func:`loopkit.fingerprint`
    checks it, with the same errors.

    >>> calls = [{"name": "bash", "args": {"command": "ls"}}]
    >>> keyed_fingerprint(calls, b"k" * 16) == keyed_fingerprint(calls, b"j" * 16)
    False
    """
    if not isinstance(secret, (bytes, bytearray)):
        raise TypeError(f"secret must be bytes, got {type(secret).__name__}")
    if len(secret) < 16:
        raise ValueError(f"secret must be at least 16 bytes long, got {len(secret)} bytes")
    batch = check_batch(calls, name="calls")
    fingerprint(batch)  # the plain fingerprint's clear TypeError for arguments that cannot be keyed
    entries = sorted(call_entry(call) for call in batch)
    tag = hmac.new(bytes(secret), canonical_json(entries).encode(), hashlib.sha256).hexdigest()
    return tag[:FINGERPRINT_HEX_CHARS]
