"""Check the pinned upstream helpers against loopkit, side by side (chapter 08).

The probe downloads the two upstream files named in :mod:`loopkit.core.upstream` at the pinned commit, refuses any file
whose sha256 differs from the pinned one, and then runs *only* the named top-level functions and the class from
each file, in a fresh namespace. Finally it runs one claim table on upstream's helpers and on loopkit's, side by
side, one row per claim.

The pieces, one module each: :mod:`~loopkit.teaching.probe.download` (the download or a local folder, and the sha256 check),
:mod:`~loopkit.teaching.probe.extract` (what runs of a file, precisely: only the named definitions, never anything else in
it), :mod:`~loopkit.teaching.probe.generated` (the reproducible batches) and :mod:`~loopkit.teaching.probe.claims` (the claim table).
This module puts them in order in :func:`run_probe`.

The probe needs the network only for the download. It does not run when it is switched off, when the environment
variable ``LOOPKIT_OFFLINE`` is set (to anything but ``0``, ``false``, ``no`` or nothing), or when the download
fails; :func:`run_probe` then says so in one line. Every piece is injectable (``fetch``, ``files``, ``env``), so the
tests run on stand-in files without a network.

Offline, :func:`recorded_run` shows a real run instead: upstream's side of the table as the probe recorded it when
it last ran on the pinned files (:mod:`~loopkit.teaching.probe.recorded`, written by ``tools/record_probe.py``),
beside loopkit's side computed now.

>>> run_probe(False).message.startswith("Probe did not run: it is switched off")
True
>>> recorded_run(as_table=False).message.endswith("7 of 7 claims agree (all agree).")
True
"""

from __future__ import annotations

import http.client
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from loopkit.core import upstream
from loopkit.core.checks import clip
from loopkit.core.language import tr

from . import recorded
from .claims import (
    CLAIMS,
    LOOPKIT_HELPERS,
    Claim,
    Helpers,
    claim_frame,
    claim_rows,
    claim_table,
    compared_rows,
    observations,
    upstream_helpers,
)
from .download import MAX_BYTES, TIMEOUT_SECONDS, directory_fetcher, sha256_hex, url_fetcher, verify_sha256
from .extract import Extraction, extract_definitions
from .generated import BATCHES, SEED, generated_batches
from .refusals import ExtractionRefused, HashMismatch, ProbeRefused

__all__ = [
    "OFFLINE_ENV",
    "TIMEOUT_SECONDS",
    "ProbeRefused",
    "HashMismatch",
    "ExtractionRefused",
    "Extraction",
    "Helpers",
    "LOOPKIT_HELPERS",
    "Claim",
    "CLAIMS",
    "ProbeReport",
    "sha256_hex",
    "verify_sha256",
    "url_fetcher",
    "directory_fetcher",
    "extract_definitions",
    "upstream_helpers",
    "generated_batches",
    "claim_rows",
    "claim_frame",
    "claim_table",
    "run_probe",
    "recorded_run",
    "MAX_BYTES",
    "BATCHES",
    "SEED",
]
#: Set this environment variable (e.g. ``LOOPKIT_OFFLINE=1``) and the probe makes no network request at all.
OFFLINE_ENV = "LOOPKIT_OFFLINE"


@dataclass
class ProbeReport:
    """What :func:`run_probe` did: ``status`` is "ran", "skipped" or "refused" ("recorded" from :func:`recorded_run`);
    ``message`` is one line, in the learner's language (:func:`loopkit.core.language.tr`), as are the table's
    headings."""

    status: str
    message: str
    rows: list[dict] = field(default_factory=list)
    table: Any = None
    extractions: dict[str, Extraction] = field(default_factory=dict)

    @property
    def ran(self) -> bool:
        return self.status == "ran"

    def __str__(self) -> str:
        return self.message


def _one_line(text: str, limit: int = 200) -> str:
    """``text`` on one line (runs of white space folded to one space), cut to ``limit``."""
    return clip(" ".join(str(text).split()), limit)


def _offline_requested(env: Mapping[str, str]) -> bool:
    return env.get(OFFLINE_ENV, "").strip().lower() not in ("", "0", "false", "no")


def run_probe(
    enabled: bool = True,
    *,
    fetch: Callable[[str], bytes] | None = None,
    files: Mapping[str, Mapping[str, Any]] | None = None,
    env: Mapping[str, str] | None = None,
    batches: int = BATCHES,
    as_table: bool = True,
) -> ProbeReport:
    """Download, verify, extract, and run the claim table on upstream and loopkit side by side.

    ``enabled=False`` or ``LOOPKIT_OFFLINE`` in ``env`` (default ``os.environ``) skip it before any network use; a
    failed download skips it too. Each skip, and each refusal (a hash that differs, a definition that needs code the
    probe does not run), is reported in ``message`` as one line. ``fetch(path) -> bytes`` defaults to
    :func:`url_fetcher`; ``files`` to :data:`loopkit.core.upstream.FILES`.
    """
    if not enabled:
        return ProbeReport(
            "skipped",
            tr("Probe did not run: it is switched off (RUN_PROBE = False). Set RUN_PROBE = True, with internet "
               "access, to download and check the pinned upstream files."),
        )
    env = os.environ if env is None else env
    if _offline_requested(env):
        setting = f"{OFFLINE_ENV}={env[OFFLINE_ENV].strip()}"
        return ProbeReport("skipped", tr("Probe did not run: {setting} is set, so it makes no network requests.",
                                         setting=setting))
    files = upstream.FILES if files is None else files
    fetch = url_fetcher() if fetch is None else fetch
    extractions: dict[str, Extraction] = {}
    for path, info in files.items():
        try:
            data = fetch(path)
        except ProbeRefused as exc:
            return ProbeReport("refused", _one_line(tr("Probe refused: {reason}", reason=exc)))
        # OSError: urllib's URLError and HTTPError, timeouts, DNS and socket errors, missing files. HTTPException:
        # http.client's protocol errors (IncompleteRead, BadStatusLine, InvalidURL), which are not OSErrors.
        # ValueError: a URL urllib cannot parse (ProbeRefused, a ValueError too, is handled above).
        except (OSError, http.client.HTTPException, ValueError) as exc:
            reason = getattr(exc, "reason", None) or exc
            return ProbeReport(
                "skipped",
                _one_line(tr("Probe did not run: could not get {path} ({error}: {reason}).", path=path,
                             error=type(exc).__name__, reason=reason)),
            )
        try:
            verify_sha256(path, data, info["sha256"])
            extractions[path] = extract_definitions(data, info["names"], filename=path)
        except ProbeRefused as exc:
            return ProbeReport("refused", _one_line(tr("Probe refused: {reason}", reason=exc), limit=400),
                               extractions=extractions)
    objects = {name: obj for ex in extractions.values() for name, obj in ex.objects.items()}
    theirs = upstream_helpers(objects, files)
    rows = claim_rows(theirs, batches=batches)
    agreeing, verdict = _verdict(rows)
    message = tr(
        "Probe ran: {files} files verified by sha256 at {commit}; {agreeing} of {claims} claims agree between "
        "upstream and loopkit ({verdict}).",
        files=len(files), commit=upstream.COMMIT[:12], agreeing=agreeing, claims=len(rows), verdict=verdict,
    )
    table = claim_frame(rows) if as_table else None
    return ProbeReport("ran", message, rows=rows, table=table, extractions=extractions)


def _verdict(rows: list[dict]) -> tuple[int, str]:
    """How many rows agree, and the verdict's words: "all agree", or the claims that disagree."""
    disagreeing = [row["claim"] for row in rows if not row["agree"]]
    verdict = tr("DISAGREE on {claims}", claims=", ".join(disagreeing)) if disagreeing else tr("all agree")
    return len(rows) - len(disagreeing), verdict


def recorded_run(helpers: Helpers = LOOPKIT_HELPERS, *, as_table: bool = True) -> ProbeReport:
    """The probe's table from its recorded run, with no network: upstream's column is what upstream's helpers gave
    when the probe last ran on the pinned files (:mod:`~loopkit.teaching.probe.recorded`); the other column is
    ``helpers`` (loopkit's by default) observed now, on the same generated batches; ``agree`` compares the two in
    full, as :func:`run_probe` does.
    """
    theirs = [recorded.UPSTREAM[claim.english_name] for claim in CLAIMS]
    ours = observations(helpers, batches=recorded.BATCHES, seed=recorded.SEED)
    rows = compared_rows(theirs, ours, tr("upstream, recorded"), helpers.label)
    agreeing, verdict = _verdict(rows)
    message = tr(
        "Probe replayed from its run of {date}, when {files} files were verified by sha256 at {commit}: upstream's "
        "column is what they gave then, {label}'s is computed now; {agreeing} of {claims} claims agree ({verdict}).",
        date=recorded.RECORDED_ON, files=len(recorded.RAN), commit=upstream.COMMIT[:12], label=helpers.label,
        agreeing=agreeing, claims=len(rows), verdict=verdict,
    )
    return ProbeReport("recorded", message, rows=rows, table=claim_frame(rows) if as_table else None)
