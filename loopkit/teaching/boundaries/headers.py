"""Header values, this workbook's model of the idea: no control characters, and no surrounding spaces, reach a
transport (chapter 09).

:func:`deerflow_header_refusal` restates DeerFlow's own (more lenient) check for comparison. That check came after
the pinned commit (issue #5065, PR #5066) and is not in the pinned tree: it is read at commit ``87d6d612``, and was
not checked against recorded decisions. No error raised here ever contains a header value: errors name the header
instead.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from loopkit.core.checks import require_str, require_strs
from loopkit.core.language import N_, tr

from .sources import deerflow_column

__all__ = ["HeaderValueError", "validate_header_value", "deerflow_header_refusal", "header_rules_table"]


class HeaderValueError(ValueError):
    """A header name or value is unsafe to send. The message names the header, never the value."""


_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")

# Why a value is refused, as English templates: the error message fills them in, and header_rules_table passes them
# through tr. A few control characters have a name of their own; the others are named by their code point.
_NAMED_CONTROLS = {
    "\r": N_("it contains a CR (carriage return) at index {index}"),
    "\n": N_("it contains an LF (line feed) at index {index}"),
    "\x00": N_("it contains a NUL at index {index}"),
}
_OTHER_CONTROL = N_("it contains a control character (U+{code}) at index {index}")
_NON_ASCII = N_("it contains a non-ASCII character at index {index}")
_SURROUNDING_SPACE = N_("it starts or ends with a space")


def _value_problem(value: str) -> tuple[str, dict[str, str | int]] | None:
    """Why ``value`` may not be sent, as an English template and its fields, or ``None`` when it may."""
    for index, char in enumerate(value):
        if unicodedata.category(char) == "Cc":
            return _NAMED_CONTROLS.get(char, _OTHER_CONTROL), {"index": index, "code": f"{ord(char):04X}"}
        if not " " <= char <= "~":
            return _NON_ASCII, {"index": index}
    if value != value.strip(" "):
        return _SURROUNDING_SPACE, {}
    return None


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
    loopkit.teaching.boundaries.headers.HeaderValueError: header X-Trace: value rejected, it contains a CR (...) at index 2
    """
    if not isinstance(name, str) or not _TOKEN.fullmatch(name):
        raise HeaderValueError(
            "header name must be a non-empty HTTP token (letters, digits and !#$%&'*+-.^_`|~); "
            "the name given is not one, so it is not repeated here"
        )
    if not isinstance(value, str):
        raise HeaderValueError(f"header {name}: value must be a str, got {type(value).__name__}")
    problem = _value_problem(value)
    if problem is not None:
        template, fields = problem
        raise HeaderValueError(f"header {name}: value rejected, " + template.format(**fields))
    return value


# DeerFlow's MCP header check refuses NUL and the vertical whitespace characters inside a value.
_DEERFLOW_FORBIDDEN_IN_HEADERS = frozenset("\x00\n\x0b\x0c\r")


def deerflow_header_refusal(value: str) -> str | None:
    """Why DeerFlow's later MCP header check (DEERFLOW_SOURCES, "header values": PR #5066, read at ``87d6d612``, not
    in the pinned tree), as this workbook restates it, refuses ``value``, or ``None`` when it sends it.

    Its three checks, in order: ASCII only; no NUL, LF, VT, FF or CR; no space or tab at either end. A tab inside,
    DEL and the other control characters pass it, so it is more lenient than :func:`validate_header_value`.

    >>> deerflow_header_refusal("Bearer t\\n"), deerflow_header_refusal("tab\\tinside")
    ('contains a line break or a NUL', None)
    """
    require_str("value", value)
    if not value.isascii():
        return N_("contains a character outside ASCII")
    if _DEERFLOW_FORBIDDEN_IN_HEADERS & set(value):
        return N_("contains a line break or a NUL")
    if value != value.strip(" \t"):
        return N_("starts or ends with a space or a tab")
    return None


def header_rules_table(values: Iterable[str], name: str = "X-Run-Id") -> list[dict[str, str]]:
    """One row per value (shown as its ``repr``): what DeerFlow's check and :func:`validate_header_value` do with it.

    Headings and verdicts are in the learner's language (:func:`loopkit.core.language.tr`).

    >>> header_rules_table(["run-42"])
    [{'value': "'run-42'", 'DeerFlow at 87d6d612': 'sent', 'this workbook': 'sent'}]
    """
    column = deerflow_column("header values")
    validate_header_value(name, "")  # a bad header name is an error here, not a refusal in every row
    rows = []
    for value in require_strs("values", values):
        template, fields = _value_problem(value) or (None, {})
        rows.append({tr("value"): repr(value), column: _verdict(deerflow_header_refusal(value)),
                     tr("this workbook"): _verdict(template, **fields)})
    return rows


def _verdict(reason: str | None, **fields) -> str:
    """A table cell: "sent", or "refused:" and the reason, in the learner's language."""
    return tr("sent") if reason is None else tr("refused: {reason}", reason=tr(reason, **fields))
