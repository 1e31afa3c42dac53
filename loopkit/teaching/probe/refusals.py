"""Why the probe refuses a downloaded file: its hash is wrong, or it needs code the probe does not run."""

from __future__ import annotations

__all__ = ["ProbeRefused", "HashMismatch", "ExtractionRefused"]


class ProbeRefused(ValueError):
    """The probe will not run a downloaded file: its hash is wrong, or it needs code the probe does not run."""


class HashMismatch(ProbeRefused):
    """A file's sha256 differs from the pinned one."""


class ExtractionRefused(ProbeRefused):
    """The named definitions are missing, or they need a name the probe will not provide."""
