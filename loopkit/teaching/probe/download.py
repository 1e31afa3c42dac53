"""Getting the pinned upstream files: a download at the pinned commit, or a local folder, and the sha256 check that
refuses any file that differs from the pinned one."""

from __future__ import annotations

import hashlib
import os
import pathlib
import urllib.request
from collections.abc import Callable

from loopkit.core import upstream
from loopkit.core.checks import require_number

from .refusals import HashMismatch, ProbeRefused

__all__ = ["TIMEOUT_SECONDS", "MAX_BYTES", "sha256_hex", "verify_sha256", "url_fetcher", "directory_fetcher"]

#: Seconds a single download may take before the probe gives up and says so.
TIMEOUT_SECONDS = 20.0
#: A pinned helper file is a few kilobytes; a response larger than this is refused without hashing it all.
MAX_BYTES = 2_000_000


def sha256_hex(data: bytes) -> str:
    """The sha256 of ``data`` as 64 lowercase hex characters."""
    return hashlib.sha256(data).hexdigest()


def verify_sha256(path: str, data: bytes, expected: str) -> None:
    """Raise :class:`HashMismatch`, naming ``path`` and both hashes, unless ``sha256(data) == expected``.

    >>> verify_sha256("x.py", b"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    >>> try:
    ...     verify_sha256("x.py", b"", "0" * 64)
    ... except HashMismatch as exc:
    ...     print(str(exc)[:45])
    refusing x.py: its sha256 is e3b0c44298fc1c14
    """
    if not isinstance(data, bytes):
        raise TypeError(f"verify_sha256(): data for {path} must be bytes, got {type(data).__name__}")
    actual = sha256_hex(data)
    if actual != expected:
        raise HashMismatch(f"refusing {path}: its sha256 is {actual}, but the pinned file's sha256 is {expected}")


def url_fetcher(timeout: float = TIMEOUT_SECONDS) -> Callable[[str], bytes]:
    """A ``fetch(path) -> bytes`` that downloads ``path`` at the pinned commit with :mod:`urllib.request`.

    Each request has a ``timeout`` (seconds); a response over ``MAX_BYTES`` is refused.
    """
    require_number("timeout", timeout)

    def fetch(path: str) -> bytes:
        request = urllib.request.Request(upstream.raw_url(path), headers={"User-Agent": "loopkit-probe"})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data = response.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise ProbeRefused(f"refusing {path}: the download is larger than {MAX_BYTES} bytes")
        return data

    return fetch


def directory_fetcher(root: str | os.PathLike) -> Callable[[str], bytes]:
    """A ``fetch(path) -> bytes`` that reads ``root/path``, or ``root/<file name>`` when that is all there is.

    Use it with a local checkout of the upstream repository, or with a folder holding the two files.
    """
    base = pathlib.Path(root)
    if not base.is_dir():
        raise ValueError(f"directory_fetcher(): root must be an existing directory, got {str(base)!r}")

    def fetch(path: str) -> bytes:
        full = base / path
        return (full if full.is_file() else base / pathlib.PurePosixPath(path).name).read_bytes()

    return fetch
