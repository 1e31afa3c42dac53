"""Header values: no control characters, and no surrounding spaces, reach a transport (chapter 09).

:func:`deerflow_header_refusal` restates DeerFlow's own (more lenient) check for comparison. No error raised here
ever contains a header value: errors name the header instead.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from ..checks import require_str, require_strs
from .sources import deerflow_column

__all__ = ["HeaderValueError", "validate_header_value", "deerflow_header_refusal", "header_rules_table"]


class HeaderValueError(ValueError):
    """A header name or value is unsafe to send. The message names the header, never the value."""


_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_CONTROL_NAMES = {"\r": "a CR (carriage return)", "\n": "an LF (line feed)", "\x00": "a NUL"}


def validate_header_value(name: str, value: str) -> str:
    """Return ``value`` if it is safe as the value of header ``name``; otherwise raise :class:`HeaderValueError`.

    Policy: the name must be an HTTP token. The value may hold only printable ASCII (space to ``~``): CR, LF, NUL,
    tab, DEL and every other control character are rejected (they split or smuggle headers), and so is non-ASCII
    text (transports disagree on how to encode it). A value may not start or end with a space either: HTTP strips
    such spaces and strict transports refuse them. The error names the header and the position and kind of the bad
    character, and never repeats the value (nor any of its characters: an error message is printable ASCII only).

    >>> validate_header_value("X-Trace", "run-42")
    'run-42'
    >>> validate_header_value("X-Trace", "ok\\r\\nSet-Cookie: admin=1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    loopkit.boundaries.headers.HeaderValueError: header X-Trace: value rejected, it contains a CR (...) at index 2
    """
    if not isinstance(name, str) or not _TOKEN.fullmatch(name):
        raise HeaderValueError(
            "header name must be a non-empty HTTP token (letters, digits and !#$%&'*+-.^_`|~); "
            "the name given is not one, so it is not repeated here"
        )
    if not isinstance(value, str):
        raise HeaderValueError(f"header {name}: value must be a str, got {type(value).__name__}")
    for index, char in enumerate(value):
        if unicodedata.category(char) == "Cc":
            kind = _CONTROL_NAMES.get(char, f"a control character (U+{ord(char):04X})")
            raise HeaderValueError(f"header {name}: value rejected, it contains {kind} at index {index}")
        if not " " <= char <= "~":
            raise HeaderValueError(f"header {name}: value rejected, it contains a non-ASCII character at index {index}")
    if value != value.strip(" "):
        raise HeaderValueError(f"header {name}: value rejected, it starts or ends with a space")
    return value


# DeerFlow's MCP header check refuses NUL and the vertical whitespace characters inside a value.
_DEERFLOW_FORBIDDEN_IN_HEADERS = frozenset("\x00\n\x0b\x0c\r")


def deerflow_header_refusal(value: str) -> str | None:
    """Why DeerFlow's MCP header check (DEERFLOW_SOURCES, "header values"), as this workbook restates it, refuses
    ``value``, or ``None`` when it sends it.

    Its three checks, in order: ASCII only; no NUL, LF, VT, FF or CR; no space or tab at either end. A tab inside,
    DEL and the other control characters pass it, so it is more lenient than :func:`validate_header_value`.

    >>> deerflow_header_refusal("Bearer t\\n"), deerflow_header_refusal("tab\\tinside")
    ('contains a line break or a NUL', None)
    """
    require_str("value", value)
    if not value.isascii():
        return "contains a character outside ASCII"
    if _DEERFLOW_FORBIDDEN_IN_HEADERS & set(value):
        return "contains a line break or a NUL"
    if value != value.strip(" \t"):
        return "starts or ends with a space or a tab"
    return None


def header_rules_table(values: Iterable[str], name: str = "X-Run-Id") -> list[dict[str, str]]:
    """One row per value (shown as its ``repr``): what DeerFlow's check and :func:`validate_header_value` do with it.

    >>> header_rules_table(["run-42"])
    [{'value': "'run-42'", 'DeerFlow at 87d6d612': 'sent', 'this workbook': 'sent'}]
    """
    column = deerflow_column("header values")
    rows = []
    for value in require_strs("values", values):
        deerflow = deerflow_header_refusal(value)
        try:
            validate_header_value(name, value)
            here = "sent"
        except HeaderValueError as exc:
            here = "refused: " + str(exc).split("value rejected, ", 1)[-1]  # the reason, without the header name
        rows.append({"value": repr(value), column: "sent" if deerflow is None else f"refused: {deerflow}",
                     "this workbook": here})
    return rows
