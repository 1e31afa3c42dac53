"""A JSON document read a piece at a time: an object's members and a list's values, one by one, from a binary
stream, so a document of any size is read in memory bounded by its largest single value.

How: the text is decoded as it arrives (an incremental UTF-8 decoder) into a window, and each value is parsed with
the standard library's ``json.JSONDecoder.raw_decode`` at the window's current position. A value cut off by the end
of the window is parsed again once more text has arrived; the window never holds more than ``max_value`` characters
of one value, past which the value is refused with a :class:`~loopkit.traces.adapters.TraceError` at its line.

Why the standard library and not a streaming parser from PyPI (ijson, json-stream): ``raw_decode`` parses each whole
value with the interpreter's C scanner, and memory already stays flat, since only one value (a message, an event, a
sample) is held at a time; a token-level parser would add a dependency to every learner's environment and to the
layers under the teaching aids, which stay standard-library only (``tests/test_architecture.py``). What this cannot
do that a token-level parser could: look inside one value larger than ``max_value``; such a value is refused, not
read. (This workbook did not benchmark ijson; the choice rests on the dependency and the layer rule.)

Example::

    >>> import io
    >>> pieces = JsonPieces(io.BytesIO(b'{"id": 7, "messages": [{"a": 1}, {"b": 2}]}'), "t.json", max_value=1024)
    >>> [(key, pieces.value() if key == "id" else list(pieces.items())) for key in pieces.members()]
    [('id', 7), ('messages', [{'a': 1}, {'b': 2}])]
"""

from __future__ import annotations

import codecs
import json
import re
import sys
from collections.abc import Iterator
from typing import Any, BinaryIO

from .base import TraceError

__all__ = ["JsonPieces"]

#: How many bytes are read from the stream at a time (more when one value needs more, up to GROWTH_BYTES).
CHUNK_BYTES = 1 << 20
#: The most read at once to grow the window around one large value: the window grows by doubling up to this step,
#: then by this step, so that it never holds much more than the value itself (memory stays near ``max_value``).
GROWTH_BYTES = 8 << 20
_WHITESPACE = re.compile(r"[ \t\n\r]*")


class JsonPieces:
    """A cursor over one JSON document in ``handle``: :meth:`peek` at the next character, read one :meth:`value`,
    walk an object's :meth:`members` or a list's :meth:`items`, and check the :meth:`end`. ``head`` is bytes already
    read from the stream (a sniffed first line), which come first."""

    def __init__(self, handle: BinaryIO, name: str, max_value: int, head: bytes = b"") -> None:
        self.handle, self.name, self.max_value = handle, name, max_value
        self._utf8 = codecs.getincrementaldecoder("utf-8")()
        self._parser = json.JSONDecoder()
        self.text = ""  # the window; self.text[self.pos:] is not read yet
        self.pos = 0
        self._first_line = 1  # the line number of self.text[0]
        self._first_line_starts_window = True  # no text was dropped yet, so self.text[0] starts line 1
        self.eof = False
        self._append(head)
        if self.text.startswith("\ufeff"):
            self.pos = 1

    # -- the window ----------------------------------------------------------------------------------------------

    def _append(self, data: bytes, final: bool = False) -> None:
        try:
            self.text += self._utf8.decode(data, final)
        except UnicodeDecodeError as exc:
            raise TraceError(f"{self.name}:{self.line_at(len(self.text))}: not UTF-8 text ({exc.reason})") from None

    def _read_more(self, at_least: int = CHUNK_BYTES) -> None:
        """Drop what was read, then add about ``at_least`` more bytes of the stream (or note its end)."""
        if self.pos:
            self._first_line += self.text.count("\n", 0, self.pos)
            self._first_line_starts_window = self.text[self.pos - 1] == "\n"
            self.text, self.pos = self.text[self.pos:], 0
        data = self.handle.read(min(max(at_least, CHUNK_BYTES), GROWTH_BYTES))
        if data:
            self._append(data)
        else:
            self.eof = True
            self._append(b"", final=True)

    def line_at(self, index: int) -> int:
        """The line of the document at ``self.text[index]``."""
        return self._first_line + self.text.count("\n", 0, index)

    def _column(self, index: int) -> str:
        """`` at column N`` when the window holds the start of the line at ``index`` (else nothing)."""
        start = self.text.rfind("\n", 0, index)
        return f" at column {index - start}" if start >= 0 or self._first_line_starts_window else ""

    def _skip_whitespace(self) -> None:
        while True:
            space = _WHITESPACE.match(self.text, self.pos)
            assert space is not None  # the pattern matches the empty string, so it matches at any position
            self.pos = space.end()
            if self.pos < len(self.text) or self.eof:
                return
            self._read_more()

    def _refuse_if_larger(self, size: int) -> None:
        if size > self.max_value:
            raise TraceError(f"{self.name}:{self.line_at(self.pos)}: a JSON value larger than {self.max_value} "
                             f"bytes (max_record_bytes, --max-record-bytes); refused, so that memory stays bounded")

    def _grow(self) -> None:
        """The value at ``pos`` goes on past the window: read more, unless it is already too large to hold."""
        held = len(self.text) - self.pos
        self._refuse_if_larger(held)
        self._read_more(at_least=held)  # doubling the window up to GROWTH_BYTES a step

    # -- reading ------------------------------------------------------------------------------------------------

    def peek(self) -> str:
        """The next character that is not whitespace, or ``""`` at the end of the document."""
        self._skip_whitespace()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def _expect(self, char: str, what: str) -> None:
        found = self.peek()
        if found != char:
            shown = repr(found) if found else "the end of the file"
            raise TraceError(f"{self.name}:{self.line_at(self.pos)}: invalid JSON (expected {what}, found {shown})")
        self.pos += 1

    def value(self) -> Any:
        """The next whole JSON value, parsed."""
        self._skip_whitespace()
        while True:
            try:
                value, end = self._parser.raw_decode(self.text, self.pos)
            except json.JSONDecodeError as exc:
                if not self.eof and _may_go_on(exc, len(self.text)):
                    self._grow()
                    continue
                raise TraceError(f"{self.name}:{self.line_at(exc.pos)}: invalid JSON ({exc.msg}"
                                 f"{self._column(exc.pos)})") from None
            except RecursionError:
                raise TraceError(f"{self.name}:{self.line_at(self.pos)}: JSON nested too deeply") from None
            except ValueError:  # an integer longer than Python converts
                raise TraceError(f"{self.name}:{self.line_at(self.pos)}: a number with more than "
                                 f"{sys.get_int_max_str_digits()} digits, more than Python reads") from None
            if end >= len(self.text) and not self.eof:  # a number at the window's edge may go on
                self._grow()
                continue
            self._refuse_if_larger(end - self.pos)  # one read of the stream may hold a whole large value
            self.pos = end
            return value

    def items(self) -> Iterator[Any]:
        """The values of the list that starts here, one at a time."""
        self._expect("[", "'['")
        if self.peek() == "]":
            self.pos += 1
            return
        while True:
            yield self.value()
            after = self.peek()
            if after == "]":
                self.pos += 1
                return
            self._expect(",", "',' or ']' after a list item")

    def members(self) -> Iterator[str]:
        """The keys of the object that starts here, one at a time; the caller reads each key's value (with
        :meth:`value`, :meth:`items` or :meth:`members`) before asking for the next key."""
        self._expect("{", "'{'")
        if self.peek() == "}":
            self.pos += 1
            return
        while True:
            if self.peek() != '"':
                self._expect('"', "a member name in double quotes")
            key = self.value()
            self._expect(":", "':' after a member name")
            yield key
            after = self.peek()
            if after == "}":
                self.pos += 1
                return
            self._expect(",", "',' or '}' after an object member")

    def end(self) -> None:
        """Check that nothing but whitespace follows the document."""
        if self.peek():
            raise TraceError(f"{self.name}:{self.line_at(self.pos)}: invalid JSON (extra data after the document; "
                             f"if the file is JSON Lines, name it .jsonl)")


def _may_go_on(error: json.JSONDecodeError, window: int) -> bool:
    """Could more text make this parse? The parser stopped at the window's edge, or inside a string that the window
    ends in (``Unterminated string`` is reported where the string starts)."""
    return error.pos >= window - 8 or error.msg.startswith("Unterminated string")
