"""Compressed input, read as it is decompressed, never whole, and never past a limit.

Which compression a stream uses is told from its first bytes (:data:`MAGIC`), not from its name: gzip, bzip2 and xz
are read with the standard library (``gzip``, ``bz2``, ``lzma``); Zstandard is named and refused when this Python has
no reader for it (the standard library reads it from Python 3.14, as ``compression.zstd``); a zip archive is
:mod:`.sources`'s, since it holds members rather than one stream.

Two guards keep a decompression bomb (a small file that expands to gigabytes) from costing memory or time:

- **the limit:** at most ``max_bytes`` come out of one stream (1 GiB unless told otherwise); past it the read stops
  with :class:`LimitReached`;
- **the expansion ratio, as it streams:** when the compressed size is known (a file, an upload in memory), every read
  after the first :data:`RATIO_CHECK_AFTER` bytes of output projects the whole output from the ratio so far (output
  divided by the compressed bytes read, times the compressed size). A projection past the limit is refused at once,
  so a 15 MB file that would expand to 2 GiB is refused after a few MiB rather than after reading 1 GiB of it. The
  projection assumes the rest compresses as the start did; a file whose start compresses far better than its rest
  may be refused although it would fit, and the message says how to raise the limit.

A refusal is a :class:`LimitReached`: everything read before it was whole, so the replay of those records stands, as
a partial result (:mod:`loopkit.traces.replay.reports` says so).
"""

from __future__ import annotations

import bz2
import gzip
import importlib
import io
import lzma
import sys
import zipfile
import zlib
from typing import Any, BinaryIO, cast

from .base import TraceError

__all__ = ["MAGIC", "RATIO_CHECK_AFTER", "LimitReached", "human_size", "exact_size", "compression_of", "decompressed", "Limited",
           "buffered"]

#: The first bytes of each compression: gzip (RFC 1952), bzip2 (``BZh``), xz (``FD 37 7A 58 5A 00``), Zstandard
#: (RFC 8878, ``28 B5 2F FD``), zip (``PK``).
MAGIC = {"gzip": b"\x1f\x8b", "bzip2": b"BZh", "xz": b"\xfd7zXZ\x00", "zstd": b"\x28\xb5\x2f\xfd", "zip": b"PK"}
#: How many bytes of output a stream gives before its expansion ratio is first checked: enough to measure it.
RATIO_CHECK_AFTER = 16 << 20
#: The longest magic, so the number of bytes to read before telling.
MAGIC_BYTES = max(len(magic) for magic in MAGIC.values())
_UNITS = ("KiB", "MiB", "GiB", "TiB")


def human_size(size: int) -> str:
    """A size in bytes as a person reads it: whole units when it is a whole number of them, else three digits.

    >>> human_size(8 << 20), human_size((8 << 20) + 1), human_size(1536), human_size(900), human_size(15_300_000)
    ('8 MiB', '8.00 MiB', '1.50 KiB', '900 bytes', '14.6 MiB')
    """
    if size < 1024:
        return f"{size} byte{'' if size == 1 else 's'}"
    exponent = 1  # KiB
    while size >= 1024 ** (exponent + 1) and exponent < len(_UNITS):
        exponent += 1
    value, unit = size / 1024 ** exponent, _UNITS[exponent - 1]
    if value == int(value):
        return f"{int(value)} {unit}"
    digits = 2 if value < 10 else 1 if value < 100 else 0
    return f"{value:.{digits}f} {unit}"


def exact_size(size: int) -> str:
    """:func:`human_size`, with the count of bytes too when the unit rounds it (a limit, which a person may set to the
    byte).

    >>> exact_size(1 << 30), exact_size(7866)
    ('1 GiB', '7.68 KiB (7,866 bytes)')
    """
    text = human_size(size)
    return text if text.endswith(("bytes", "byte")) or "." not in text else f"{text} ({size:,} bytes)"


class LimitReached(TraceError):
    """A stream refused at a size limit (or a projection past it): what was read before it is whole."""


def compression_of(head: bytes) -> str | None:
    """The compression ``head`` (a stream's first bytes) starts with, or ``None``.

    >>> compression_of(b"BZh91AY&SY"), compression_of(b'{"role": "user"}')
    ('bzip2', None)
    """
    return next((name for name, magic in MAGIC.items() if head.startswith(magic)), None)


#: The most compressed bytes handed to a decompressor at a time. Small, so that the count of compressed bytes read
#: stays close to what was decompressed (a decompressor that read ahead would make the ratio look smaller).
COMPRESSED_PIECE = 32 << 10


class _Counting(io.RawIOBase):
    """A readable stream that counts the bytes read through it (the compressed bytes a decompressor consumed), and
    gives them :data:`COMPRESSED_PIECE` bytes at most at a time."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.read_so_far = inner, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        data = self.inner.read(min(len(buffer), COMPRESSED_PIECE))
        self.read_so_far += len(data)
        buffer[:len(data)] = data
        return len(data)


class Limited(io.RawIOBase):
    """A readable stream that stops with :class:`LimitReached` once more than ``limit`` bytes came through, or, when
    ``compressed`` counts what the decompressor consumed out of ``compressed_size`` bytes, once the ratio so far
    projects the whole output past ``limit``."""

    def __init__(self, inner: Any, limit: int, name: str, compressed: _Counting | None = None,
                 compressed_size: int | None = None) -> None:
        self.inner, self.limit, self.name_for_errors, self.seen = inner, limit, name, 0
        self.compressed, self.compressed_size = compressed, compressed_size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        try:
            data = self.inner.read(min(len(buffer), self.limit + 1 - self.seen) or 1)
        except (OSError, EOFError, zlib.error, zipfile.BadZipFile, lzma.LZMAError) as exc:
            raise TraceError(f"{self.name_for_errors}: cannot decompress ({exc})") from None
        self.seen += len(data)
        if self.seen > self.limit:
            raise LimitReached(f"{self.name_for_errors}: expands past {exact_size(self.limit)}, the limit "
                               f"(max_bytes, --max-bytes); refused, it may be a decompression bomb")
        self._check_ratio()
        buffer[:len(data)] = data
        return len(data)

    def _check_ratio(self) -> None:
        if self.compressed is None or not self.compressed_size or self.seen < RATIO_CHECK_AFTER:
            return
        ratio = self.seen / max(self.compressed.read_so_far, 1)
        projected = ratio * self.compressed_size
        if projected > self.limit:
            raise LimitReached(f"{self.name_for_errors}: expands past the limit of {exact_size(self.limit)} "
                               f"(max_bytes, --max-bytes, raises it): about {ratio:.0f} times so far, so its "
                               f"{human_size(self.compressed_size)} would become about {human_size(int(projected))}; "
                               f"refused after {human_size(self.seen)} of its text, as it may be a decompression bomb")


def buffered(raw: io.RawIOBase) -> BinaryIO:
    return io.BufferedReader(raw, buffer_size=1 << 16)


def _zstd_reader() -> Any:
    """The standard library's Zstandard reader (``compression.zstd``, Python 3.14 and later), or ``None``. Looked up
    by name: on an older Python the package does not exist, and nothing outside the standard library is used."""
    try:
        return importlib.import_module("compression.zstd")
    except ImportError:
        return None


def decompressed(name: str, compression: str, stream: BinaryIO, max_bytes: int,
                 compressed_size: int | None) -> BinaryIO:
    """The decompressed content of ``stream`` (whose first bytes say ``compression``), limited to ``max_bytes`` and
    checked for its expansion ratio when ``compressed_size`` is known."""
    # unbuffered: the decompressor reads a small piece at a time, and each is counted. Each decompressing file is a
    # stream handed on and read to its end; the caller's ``with`` closes the source under it.
    counting = cast(BinaryIO, _Counting(stream))
    if compression == "gzip":
        inner: Any = gzip.GzipFile(fileobj=counting)
    elif compression == "bzip2":
        inner = bz2.BZ2File(counting)
    elif compression == "xz":
        inner = lzma.LZMAFile(counting)  # noqa: SIM115 - handed on as a stream (see above), not used here
    else:
        zstd = _zstd_reader()
        if zstd is None:
            version = ".".join(map(str, sys.version_info[:3]))
            raise TraceError(f"{name}: a Zstandard-compressed file (zstd), which this Python ({version}) cannot read "
                             f"(its standard library reads zstd from Python 3.14); decompress it first (zstd -d), or "
                             f"compress it with gzip, bzip2 or xz instead")
        inner = zstd.ZstdFile(counting)
    return buffered(Limited(inner, max_bytes, name, cast(_Counting, counting), compressed_size))
