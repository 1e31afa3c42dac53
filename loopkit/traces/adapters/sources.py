"""Opening a transcript: a path, ``-`` or an open binary stream, plain, compressed (gzip, bzip2, xz; Zstandard is
named and refused), or a zip archive.

Compression is told from the first bytes, not the name (:mod:`.compression`): ``1f 8b`` is gzip, ``PK`` a zip archive
(an Inspect AI ``.eval`` log is one). All are decompressed as they are read, never whole. Every decompressed stream is
limited to ``max_bytes`` (1 GiB unless told otherwise), and its expansion ratio is checked as it streams, so a
decompression bomb (a few kilobytes that expand to gigabytes) is refused early and cannot exhaust memory. A zip member
that declares more than the limit is refused before it is opened.

JSON or JSON Lines? ``.jsonl`` and ``.ndjson`` names are JSON Lines; otherwise the first lines decide (see
:func:`sniff`), so a pipe never needs rewinding.

No single JSON value is held in memory above ``max_record_bytes`` (64 MiB unless told otherwise): a line of JSON Lines
is read with a bounded ``readline``, a document up to :data:`WHOLE_DOCUMENT_BYTES` is parsed whole, and a larger one
piece by piece (:mod:`loopkit.traces.adapters.json_pieces`), one message, event or sample at a time. A line past the limit is
a bad record at its line; a value past it, an error at its line.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from loopkit.core.checks import require_int

from .base import Damaged, TraceError
from .compression import MAGIC_BYTES, Limited, buffered, compression_of, decompressed, exact_size
from .json_pieces import JsonPieces

__all__ = ["DEFAULT_MAX_BYTES", "DEFAULT_MAX_RECORD_BYTES", "WHOLE_DOCUMENT_BYTES", "TRANSCRIPT_SUFFIXES", "Input",
           "open_inputs", "sniff", "parse_json", "jsonl_value", "json_lines", "read_document", "decode_document"]

#: The most bytes read from one decompressed file or archive member.
DEFAULT_MAX_BYTES = 1 << 30
#: The most bytes of one JSON value held in memory: a line of JSON Lines, or one message, event or sample of a
#: document (``max_record_bytes``, ``--max-record-bytes``).
DEFAULT_MAX_RECORD_BYTES = 64 << 20
#: Documents up to this size (or ``max_record_bytes``, if smaller) are parsed whole; larger ones piece by piece.
WHOLE_DOCUMENT_BYTES = 16 << 20

JSONL_SUFFIXES = (".jsonl", ".ndjson")
_LEADING_SPACE = re.compile(rb"(?:\xef\xbb\xbf)?[ \t\r\n]*")
#: How much of a line too long to read is read at a time while it is passed over.
_SKIP_BYTES = 1 << 20
#: The endings of compressed files, which a folder scan picks up and :func:`Input.jsonl_by_name` looks through.
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz", ".zst")
#: Every file ending these readers are written for, which a folder is searched for: JSON documents (``.json``,
#: SWE-agent ``.traj``, ``.responses`` dumps of Responses items), JSON Lines, compressed files (a ``.zst`` file is
#: found so that it is named and refused, not passed over), and zip archives (Inspect AI ``.eval``). The content
#: decides the format; the ending only chooses which files a folder scan picks up.
TRANSCRIPT_SUFFIXES = (".json", ".traj", ".responses", *JSONL_SUFFIXES, *COMPRESSED_SUFFIXES, ".zip", ".eval")
#: How Aider's chat history (``.aider.chat.history.md``) starts: Aider-AI/aider ``aider/io.py`` at 5dc9490b writes
#: ``# aider chat started at <time>`` at each launch.
AIDER_HISTORY_START = "# aider chat started at"
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
        """Does the name (without a compression's ending, ``.gz``...) say JSON Lines?"""
        name = self.name.rstrip("]").lower()
        for suffix in COMPRESSED_SUFFIXES:
            name = name.removesuffix(suffix)
        return name.endswith(JSONL_SUFFIXES)


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
            raise TraceError(f"{member}: declares {exact_size(info.file_size)}, more than the limit of "
                             f"{exact_size(max_bytes)} (max_bytes, --max-bytes); refused")
        try:
            inner = archive.open(info)
        except (NotImplementedError, RuntimeError, zipfile.BadZipFile) as exc:
            raise TraceError(f"{member}: cannot open the member ({exc})") from None
        with inner:
            yield Input(member, buffered(Limited(inner, max_bytes, member)), member=True)


def _size_of(handle: Any, seekable: bool) -> int | None:
    """How many bytes ``handle`` holds from where it is, when that can be known without reading it (a file, bytes in
    memory); ``None`` for a pipe."""
    try:
        return os.fstat(handle.fileno()).st_size - handle.tell()
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        pass
    if not seekable:
        return None
    try:
        here = handle.tell()
        end = handle.seek(0, os.SEEK_END)
        handle.seek(here)
    except (AttributeError, OSError, ValueError):
        return None
    return end - here


def _head(handle: Any) -> bytes:
    """The first bytes of ``handle``, enough to tell its compression (a pipe may give them a few at a time)."""
    head = b""
    while len(head) < MAGIC_BYTES:
        more = handle.read(MAGIC_BYTES - len(head))
        if not more:
            break
        head += more
    return head


def _unpacked(name: str, handle: Any, max_bytes: int, seekable: bool) -> Iterator[Input]:
    """``handle`` as one or more plain streams: itself, its decompressed content, or its archive members."""
    size = _size_of(handle, seekable)
    head = _head(handle)
    rejoined = buffered(_Rejoined(head, handle))
    compression = compression_of(head)
    if compression in ("gzip", "bzip2", "xz", "zstd"):
        yield Input(name, decompressed(name, compression, rejoined, max_bytes, size))
    elif compression == "zip":
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
        handle = open(path, "rb")  # noqa: SIM115 - opened alone to word its OSError; the with below closes it
    except OSError as exc:
        raise TraceError(f"{path}: cannot read the file ({exc.strerror})") from None
    with handle:
        yield from _unpacked(path, handle, max_bytes, seekable=True)


# -- JSON or JSON Lines -------------------------------------------------------------------------------------------


def _too_long(raw: bytes, limit: int) -> bool:
    """A line read with ``readline(limit + 1)`` that stopped at the limit, not at its end."""
    return len(raw) > limit and not raw.endswith(b"\n")


def sniff(source: Input, max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES) -> tuple[bool, list]:
    """Is it JSON Lines? Reads just enough lines to tell and returns them, so nothing needs rewinding.

    A ``.jsonl`` name says yes (its lines are read up to ``max_record_bytes``); a first line starting with ``[`` says
    no; a first line holding a whole JSON object says yes if another line follows; an object cut off at the end of
    its first line is a pretty-printed document, and so is a first line longer than what a document parsed whole may
    hold (a document written on one line, which is then read piece by piece: the first line is never held whole).
    """
    limit = max_record_bytes if source.jsonl_by_name else min(WHOLE_DOCUMENT_BYTES, max_record_bytes)
    head: list = []
    first = ""
    while True:
        raw = source.handle.readline(limit + 1)
        if not raw:
            break
        head.append(raw)
        space = _LEADING_SPACE.match(raw)
        assert space is not None  # the pattern matches the empty string, so it matches any line
        start = space.end()
        first = raw[start:start + 64].decode("utf-8", "replace").strip()  # enough to see how the line starts
        if _too_long(raw, limit) and not source.jsonl_by_name:
            if first.startswith(("[", "{")):
                return False, head
            break
        if first:
            break
    if not first:  # the same for every suffix: no content at all is unusable, an empty list is not
        raise TraceError(f"{source.name}: the file is empty; expected JSON or JSON Lines")
    if source.jsonl_by_name:
        return True, head
    if first.startswith("["):
        return False, head
    if not first.startswith("{"):
        _refuse_what_is_not_json(source.name, first)
    first = head[-1].decode("utf-8", "replace").lstrip("\ufeff").strip()  # the whole line (at most `limit`)
    try:
        json.loads(first)
    except json.JSONDecodeError as exc:
        # Cut off at the end of the line: the start of a document spread over several lines. Broken before the
        # end: a bad first line, which the JSON Lines reader reports as FILE:1.
        return exc.pos < len(first), head
    except (ValueError, RecursionError):
        pass  # a whole line Python cannot hold; the reader reports it where it is
    while True:  # a whole object on the first line: JSON Lines if another line follows
        raw = source.handle.readline(max_record_bytes + 1)
        if not raw:
            return False, head
        head.append(raw)
        if raw.strip():
            return True, head


def _refuse_what_is_not_json(name: str, first: str) -> None:
    """A file whose first line is no JSON: an Aider chat history is named, with why it has no calls to replay."""
    if first.startswith(AIDER_HISTORY_START):
        raise TraceError(f"{name}: an Aider chat history (.aider.chat.history.md): Markdown of the chat, in which "
                         f"Aider's model changes files with edit blocks written in its replies (SEARCH/REPLACE, whole "
                         f"files, diffs), not with tool calls; there are no tool calls to replay, so DeerFlow's "
                         f"detector, which counts tool calls, has nothing to judge here")
    if not first.strip("\x00"):
        raise TraceError(f"{name}: starts with nothing but NUL bytes: a file made longer and never written, or whose "
                         f"content was lost; expected a JSON array, a JSON object or JSON Lines")
    raise TraceError(f"{name}: expected a JSON array, a JSON object or JSON Lines; the file starts with {first[:20]!r}")


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
        found = re.search(rf"\d{{{limit + 1},}}", text) if limit else None
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


def _raw_lines(head: list, handle: BinaryIO, limit: int) -> Iterator[tuple[int, bytes | int | None]]:
    """``(line number, raw line)`` for every line with content, the sniffed ``head`` first; ``None`` for a line
    longer than ``limit``, whose rest is read past a bounded piece at a time, or, when all of that line was NUL bytes,
    their count (a file that ends in more NUL bytes than a line may hold)."""
    pending = iter(head)
    lineno = 0
    while True:
        raw = next(pending, None) or handle.readline(limit + 1)
        if not raw:
            return
        lineno += 1
        if _too_long(raw, limit):
            nuls = raw.count(b"\x00") if _nul_line(raw) else 0
            raw = None  # let it go before reading past the rest of the line, a small piece at a time
            rest = handle.readline(_SKIP_BYTES)
            while rest:
                nuls = nuls + rest.count(b"\x00") if nuls and _nul_line(rest) else 0
                if rest.endswith(b"\n"):
                    break
                rest = handle.readline(_SKIP_BYTES)
            yield lineno, nuls or None
        elif raw.strip() and (lineno > 1 or raw.strip().lstrip(b"\xef\xbb\xbf")):
            yield lineno, raw


def _ends_mid_value(raw: bytes) -> bool:
    """Does this line end in the middle of a JSON value (a record still being written), rather than being wrong?"""
    text = raw.decode("utf-8", "replace").strip()
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg.startswith("Extra data"):
            return False
        return exc.pos >= len(text) - 1 or exc.msg.startswith("Unterminated string")
    except (ValueError, RecursionError):
        return False
    return False


def _nul_line(raw: bytes) -> bool:
    """A line of nothing but NUL bytes (and whitespace), as a writer that stopped without finishing leaves at the end
    of a file it had made longer first."""
    return b"\x00" in raw and not raw.strip(b"\x00 \t\r\n")


def _nul_tail(where: str, nuls: int) -> Damaged:
    return Damaged(f"{where}: {nuls} NUL bytes end the file", cut_off=True, nul_bytes=nuls)


def json_lines(source: Input, head: list, max_record_bytes: int,
               expected: Callable[[], str]) -> Iterator[tuple[str, Any]]:
    """``(FILE:LINE, value)`` for every line of JSON Lines; a line that cannot be parsed gives a :class:`Damaged`
    value instead, so the reader decides: the last line, when it has no newline and stops in the middle of a value,
    is ``cut_off`` (a session still being written, or one that crashed). NUL bytes that end the file (lines of them,
    or after the last line's content), as a writer that crashed leaves them, are tolerated the same way and reported
    (a ``Damaged`` value with ``nul_bytes``); NUL bytes with more lines after them are a bad line. ``expected()`` says
    what a line should hold, for the error (one message, or one run: the first line decides)."""
    nuls: tuple[str, int] | None = None  # the NUL lines seen so far, which are the file's end if nothing follows
    read_a_line = False  # a file of nothing but NUL bytes is no transcript with its end missing: it holds none
    for lineno, raw in _raw_lines(head, source.handle, max_record_bytes):
        where = f"{source.name}:{lineno}"
        if isinstance(raw, int) or (raw is not None and _nul_line(raw)):
            count = raw if isinstance(raw, int) else raw.count(b"\x00")
            nuls = (nuls[0] if nuls else where, (nuls[1] if nuls else 0) + count)
            continue
        if nuls is not None:  # NUL bytes, then more text: damage inside the file, not its end
            yield nuls[0], Damaged(f"{nuls[0]}: {nuls[1]} NUL bytes, then more lines (NUL bytes are tolerated only "
                                   f"at the end of a file)")
            nuls = None
        read_a_line = True
        if raw is None:
            yield where, Damaged(f"{where}: a line longer than {max_record_bytes} bytes (max_record_bytes, "
                                 f"--max-record-bytes); not read, so that memory stays bounded")
            continue
        trailing = 0
        if not raw.endswith(b"\n") and raw.endswith(b"\x00"):  # the last line, and NUL bytes after its content
            content = raw.rstrip(b"\x00")
            trailing, raw = len(raw) - len(content), content
        try:
            yield where, jsonl_value(raw, source.name, lineno, expected())
        except TraceError as exc:
            # a line without its newline can only be the last one: readline stops early only at the end
            yield where, Damaged(str(exc), cut_off=not raw.endswith(b"\n") and _ends_mid_value(raw))
        if trailing:
            yield where, _nul_tail(where, trailing)
    if nuls is not None and not read_a_line:
        raise TraceError(f"{source.name}: nothing but NUL bytes ({nuls[1]}), no line of JSON: a file made longer and "
                         f"never written, or whose content was lost; expected JSON Lines")
    if nuls is not None:
        yield nuls[0], _nul_tail(nuls[0], nuls[1])


def read_document(source: Input, head: list, max_record_bytes: int) -> tuple[Any, JsonPieces | None]:
    """The document of ``source``: parsed whole when it is small (``(document, None)``), else a cursor to read it
    piece by piece (``(None, pieces)``)."""
    data = b"".join(head)
    whole = min(WHOLE_DOCUMENT_BYTES, max_record_bytes)
    if len(data) <= whole:
        data += source.handle.read(whole + 1 - len(data))
    if len(data) <= whole:
        return decode_document(data, source.name), None
    return None, JsonPieces(source.handle, source.name, max_record_bytes, head=data)


def decode_document(data: bytes, path: str) -> Any:
    """A whole JSON document, decoded (UTF-8, a byte-order mark allowed) and parsed."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise TraceError(f"{path}:{line}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return parse_json(text, path)
