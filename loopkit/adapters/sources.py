"""Opening a transcript: a path, ``-`` or an open binary stream, plain, gzip-compressed, or a zip archive.

Compression is told from the first bytes, not the name: ``1f 8b`` is gzip, ``PK`` a zip archive (an Inspect AI
``.eval`` log is one). Both are decompressed as they are read, never whole. Every decompressed stream is limited
to ``max_bytes`` (1 GiB unless told otherwise): past it the read stops with a :class:`TraceError`, so a
decompression bomb (a few kilobytes that expand to gigabytes) cannot exhaust memory. A zip member that declares
more than the limit is refused before it is opened.

JSON or JSON Lines? ``.jsonl`` and ``.ndjson`` names are JSON Lines; otherwise the first lines decide (see
:func:`sniff`), read through an iterator so a pipe never needs rewinding.
"""

from __future__ import annotations

import gzip
import io
import itertools
import json
import os
import re
import sys
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from ..checks import require_int
from .base import TraceError

__all__ = ["DEFAULT_MAX_BYTES", "Input", "open_inputs", "sniff", "parse_json", "jsonl_value", "decode_document"]

#: The most bytes read from one decompressed file or archive member.
DEFAULT_MAX_BYTES = 1 << 30

JSONL_SUFFIXES = (".jsonl", ".ndjson")
_GZIP_MAGIC = b"\x1f\x8b"
_ZIP_MAGIC = b"PK"
#: Members only an Inspect AI ``.eval`` archive holds (UKGovernmentBEIS/inspect_ai, log/_recorders/eval.py).
_INSPECT_HEADERS = ("header.json", "start.json", "_journal/start.json")


@dataclass
class Input:
    """One stream to read: ``name`` locates it in messages (``archive.eval[samples/1_epoch_1.json]`` for a zip
    member); ``handle`` is a buffered binary stream."""

    name: str
    handle: BinaryIO
    member: bool = False  # one member of an archive, which may hold others

    @property
    def jsonl_by_name(self) -> bool:
        """Does the name (without a ``.gz``) say JSON Lines?"""
        name = self.name.rstrip("]").lower()
        name = name[:-3] if name.endswith(".gz") else name
        return name.endswith(JSONL_SUFFIXES)


class _Limited(io.RawIOBase):
    """A readable stream that stops with a :class:`TraceError` once more than ``limit`` bytes came through."""

    def __init__(self, inner: Any, limit: int, name: str) -> None:
        self.inner, self.limit, self.name_for_errors, self.seen = inner, limit, name, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        try:
            data = self.inner.read(min(len(buffer), self.limit + 1 - self.seen) or 1)
        except (OSError, EOFError, zlib.error, zipfile.BadZipFile) as exc:
            raise TraceError(f"{self.name_for_errors}: cannot decompress ({exc})") from None
        self.seen += len(data)
        if self.seen > self.limit:
            raise TraceError(f"{self.name_for_errors}: expands past {self.limit} bytes, the limit (max_bytes, "
                             f"--max-bytes); refused, it may be a decompression bomb")
        buffer[:len(data)] = data
        return len(data)


class _Rejoined(io.RawIOBase):
    """The bytes already read from a stream (to look at them), then the rest of the stream."""

    def __init__(self, head: bytes, rest: Any) -> None:
        self.head, self.rest = head, rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self.head:
            data, self.head = self.head[:len(buffer)], self.head[len(buffer):]
        else:
            data = self.rest.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)


def _buffered(raw: io.RawIOBase) -> BinaryIO:
    return io.BufferedReader(raw, buffer_size=1 << 16)


def _zip_members(archive: zipfile.ZipFile, name: str, max_bytes: int) -> Iterator[Input]:
    """The JSON members of an archive, in name order: an Inspect AI log's ``samples/`` only, else every ``.json``,
    ``.jsonl`` or ``.ndjson`` member."""
    infos = [info for info in archive.infolist() if not info.is_dir()]
    samples = [info for info in infos if info.filename.startswith("samples/") and info.filename.endswith(".json")]
    if not samples and any(info.filename in _INSPECT_HEADERS for info in infos):
        raise TraceError(f"{name}: an Inspect AI log without samples/ members (cancelled before a sample was "
                         f"written?); expected samples/<id>_epoch_<n>.json")
    chosen = samples or [info for info in infos if info.filename.lower().endswith((".json", *JSONL_SUFFIXES))]
    if not chosen:
        found = ", ".join(info.filename for info in infos[:5]) or "no files"
        raise TraceError(f"{name}: a zip archive without JSON or JSON Lines members (found {found})")
    for info in sorted(chosen, key=lambda i: i.filename):
        member = f"{name}[{info.filename}]"
        if info.file_size > max_bytes:
            raise TraceError(f"{member}: declares {info.file_size} bytes, more than the limit of {max_bytes} "
                             f"(max_bytes, --max-bytes); refused")
        try:
            inner = archive.open(info)
        except (NotImplementedError, RuntimeError, zipfile.BadZipFile) as exc:
            raise TraceError(f"{member}: cannot open the member ({exc})") from None
        with inner:
            yield Input(member, _buffered(_Limited(inner, max_bytes, member)), member=True)


def _unpacked(name: str, handle: Any, max_bytes: int, seekable: bool) -> Iterator[Input]:
    """``handle`` as one or more plain streams: itself, its gzip content, or its archive members."""
    head = handle.read(2)
    rejoined = _buffered(_Rejoined(head, handle))
    if head == _GZIP_MAGIC:
        yield Input(name, _buffered(_Limited(gzip.GzipFile(fileobj=rejoined), max_bytes, name)))
    elif head == _ZIP_MAGIC:
        if not seekable:
            raise TraceError(f"{name}: a zip archive must be read from a file, not a pipe (it is indexed at its end)")
        try:
            archive = zipfile.ZipFile(handle)
        except zipfile.BadZipFile as exc:
            raise TraceError(f"{name}: starts like a zip archive but is not one ({exc})") from None
        with archive:
            yield from _zip_members(archive, name, max_bytes)
    else:
        yield Input(name, rejoined)


def open_inputs(source: Any, max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[Input]:
    """The plain streams inside ``source``: a path, ``"-"`` (standard input) or an open binary file.

    A path is opened (and closed) here; a stream the caller passed is theirs to close.
    """
    require_int("max_bytes", max_bytes)
    if source == "-":
        source = sys.stdin.buffer
    if hasattr(source, "read"):
        name = getattr(source, "name", None)
        name = name if isinstance(name, str) else "<stream>"
        try:
            seekable = bool(source.seekable())
        except (AttributeError, OSError, ValueError):
            seekable = False
        yield from _unpacked(name, source, max_bytes, seekable)
        return
    path = os.fspath(source)
    try:
        handle = open(path, "rb")
    except OSError as exc:
        raise TraceError(f"{path}: cannot read the file ({exc.strerror})") from None
    with handle:
        yield from _unpacked(path, handle, max_bytes, seekable=True)


# -- JSON or JSON Lines -------------------------------------------------------------------------------------------


def sniff(source: Input, lines: Iterator[bytes]) -> tuple[bool, list]:
    """Is it JSON Lines? Reads just enough lines to tell and returns them, so nothing needs rewinding.

    A ``.jsonl`` name says yes; a first line starting with ``[`` says no; a first line holding a whole JSON object
    says yes if another line follows; an object cut off at the end of its first line is a pretty-printed document.
    """
    head: list = []
    first = ""
    for raw in lines:
        head.append(raw)
        first = raw.decode("utf-8", "replace").lstrip("\ufeff").strip()
        if first:
            break
    if not first:  # the same for every suffix: no content at all is unusable, an empty list is not
        raise TraceError(f"{source.name}: the file is empty; expected JSON or JSON Lines")
    if source.jsonl_by_name:
        return True, head
    if first.startswith("["):
        return False, head
    if not first.startswith("{"):
        raise TraceError(f"{source.name}: expected a JSON array, a JSON object or JSON Lines; "
                         f"the file starts with {first[:20]!r}")
    try:
        json.loads(first)
    except json.JSONDecodeError as exc:
        # Cut off at the end of the line: the start of a document spread over several lines. Broken before the
        # end: a bad first line, which the JSON Lines reader reports as FILE:1.
        return exc.pos < len(first), head
    except (ValueError, RecursionError):
        pass  # a whole line Python cannot hold; the reader reports it where it is
    for raw in lines:  # a whole object on the first line: JSON Lines if another line follows
        head.append(raw)
        if raw.strip():
            return True, head
    return False, head


def parse_json(text: str, path: str, lineno: int | None = None, expected: str = "") -> Any:
    """``json.loads`` whose every failure is a :class:`TraceError` at ``path:LINE`` (``lineno`` for one line of
    JSON Lines, else the line inside the document)."""
    tail = f"; {expected}" if expected else ""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise TraceError(f"{path}:{lineno or exc.lineno}: invalid JSON ({exc.msg} at column {exc.colno}){tail}") \
            from None
    except RecursionError:
        raise TraceError(f"{path}{f':{lineno}' if lineno else ''}: JSON nested too deeply{tail}") from None
    except ValueError as exc:  # not a syntax error: an integer longer than Python converts (sys.get_int_max_str_digits)
        limit = sys.get_int_max_str_digits()
        found = re.search(r"\d{%d,}" % (limit + 1), text) if limit else None
        if found and lineno is None:
            lineno = text.count("\n", 0, found.start()) + 1
        what = (f"a number with more than {limit} digits, more than Python reads" if found
                else f"unreadable JSON ({exc})")
        raise TraceError(f"{path}{f':{lineno}' if lineno else ''}: {what}{tail}") from None


def jsonl_value(raw: bytes, path: str, lineno: int, expected: str) -> Any:
    """One line of JSON Lines, decoded and parsed, or a :class:`TraceError` at ``path:lineno``."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TraceError(f"{path}:{lineno}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if lineno == 1:
        text = text.lstrip("\ufeff")
    return parse_json(text, path, lineno, expected)


def jsonl_lines(head: list, lines: Iterator[bytes]) -> Iterator[tuple[int, bytes]]:
    """``(line number, raw line)`` for every line with content, the sniffed ``head`` first."""
    for lineno, raw in enumerate(itertools.chain(head, lines), 1):
        if raw.strip() and (lineno > 1 or raw.strip().lstrip(b"\xef\xbb\xbf")):
            yield lineno, raw


def decode_document(data: bytes, path: str) -> Any:
    """A whole JSON document, decoded (UTF-8, a byte-order mark allowed) and parsed."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TraceError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return parse_json(text, path)
