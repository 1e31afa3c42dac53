"""The vocabulary every adapter shares: the error, a batch, what one record is, and safe decoding helpers.

An adapter reads one *record* (one JSON object: a message, an event, a log line) and answers with one of three
things: a :class:`Message` (a message of its format, with the tool calls it carries), a :class:`Skipped` (a
record of its format that is not a message, such as a Claude Code ``summary`` line), or ``None`` (not a record of
its format). A *call* is a ``{"name", "args", "id"}`` dict whose ``args`` are exactly what the provider sent. A record
that could not even be parsed reaches the adapters as a :class:`Damaged` value, which says why.

Strings that should hold lists (``tool_calls`` saved with ``str()``) are decoded with ``json.loads``, then with
``ast.literal_eval`` for Python-literal dumps that JSON could hold; nothing is ever ``eval``-ed.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeGuard

from loopkit.core.batches import Batch

__all__ = ["TraceError", "BadRecord", "Batch", "Message", "Skipped", "Damaged", "Format", "is_map", "decode_list",
           "as_list", "tool_name", "required", "entry", "openai_calls", "assistant_only"]


class TraceError(ValueError):
    """A transcript the adapters cannot use. The message starts with where (``FILE:LINE``, a message index or an
    archive member) and says what was expected."""


class BadRecord(TraceError):
    """One record that cannot be read (not JSON, not UTF-8, not the shape its reader expects): the run ends there
    unless bad records are skipped (``skip_bad_records``, ``--skip-bad-records``), which the report says."""


@dataclass(frozen=True)
class Message:
    """A record read as a message of a format.

    ``calls`` are the tool calls it carries (often none); records that share a non-None ``turn`` id are one model
    turn, so their calls form one batch (Claude Code ``message.id``, an OpenHands model response id);
    ``user_prompt`` marks a message typed by the human, which starts a new run upstream; ``results`` marks a message
    that carries tool results (a ``tool`` message, ``tool_result`` blocks, a result Cline wrote as text): a run with
    results but no call read has calls in a shape no reader took, so it is an error, never "no tool calls".
    """

    calls: list = field(default_factory=list, hash=False)
    turn: str | None = None
    user_prompt: bool = False
    results: bool = False


@dataclass(frozen=True)
class Skipped:
    """A record that belongs to a format but is not a message (``kind`` names it, for the count). ``unknown`` marks
    a kind the reader does not know yet (a Codex item type newer than this workbook): skipped, and named in the
    summary as such, never a reason to refuse the file. ``holds_calls`` marks a record that carries tool calls the
    reader does not replay (an OpenHands ``ACPToolCallEvent``, a call item of a kind not known yet): the summary
    names it among the calls not read, so a run of such records is never a quiet zero."""

    kind: str
    unknown: bool = False
    holds_calls: bool = False


@dataclass(frozen=True)
class Damaged:
    """A record that could not be parsed: ``error`` says where and why (``FILE:LINE: invalid JSON ...``).
    ``cut_off`` marks the last line of a JSON Lines file that ends in the middle of a value, as a session still being
    written (or one that crashed) leaves it: reported, not an error. ``nul_bytes`` counts the NUL bytes that end a
    file, as a writer that crashed after making the file longer leaves them: reported the same way."""

    error: str
    cut_off: bool = False
    nul_bytes: int = 0


@dataclass(frozen=True)
class Format:
    """One transcript format: its ``--format`` name and its reader, plus how its calls form batches.

    ``read(record, where)`` returns a :class:`Message`, a :class:`Skipped` or ``None``. ``call_keys`` are the
    top-level keys where this format keeps its calls: a record read by another format is checked against this one
    only when it holds one of them, so a call in a shape the chosen format does not read is an error, never lost.
    ``batching`` is ``"turn"`` (each message is a batch; records sharing a turn id join one) or ``"consecutive"``
    (consecutive call items join one batch, as Responses items do). A ``distinctive`` format is settled by its first
    record, calls or not; an ``auto`` format may be detected record by record. ``detect``, when given, is the stricter
    reader that detection and the checks of other formats use: mini-swe-agent's calls are code fences in text, which
    any chat message can hold, so only a fence named for mini-swe-agent tells it from a chat.
    """

    name: str
    read: Callable[[Mapping, str], Message | Skipped | None]
    call_keys: tuple[str, ...]
    batching: Literal["turn", "consecutive"] = "turn"
    distinctive: bool = False
    auto: bool = True
    detect: Callable[[Mapping, str], Message | Skipped | None] | None = None

    def read_to_detect(self, record: Mapping, where: str) -> Message | Skipped | None:
        """What this format makes of ``record`` when it is only being tried (its ``detect`` reader, else ``read``)."""
        return (self.detect or self.read)(record, where)


def is_map(value: Any) -> TypeGuard[Mapping]:
    """A JSON object: a dict (checked first, it is the common case) or another mapping (so a checker narrows to it)."""
    return type(value) is dict or isinstance(value, Mapping)


# -- decoding a list that may arrive as a string -------------------------------------------------------------------


def _not_json(value: Any, at: str = "") -> str | None:
    """Where and why a Python literal cannot be JSON (a non-string key, a set, bytes...), or None when it can."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"dict key {key!r} of type {type(key).__name__} at {at or 'the top'}"
            problem = _not_json(item, f"{at}[{key!r}]")
            if problem:
                return problem
        return None
    if isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            problem = _not_json(item, f"{at}[{index}]")
            if problem:
                return problem
        return None
    return f"a {type(value).__name__} value {value!r:.40} at {at or 'the top'}"


def decode_list(text: str, where: str, what: str) -> list:
    """Decode a string-encoded list: JSON first, then a Python literal that JSON could hold. Never ``eval``.

    >>> decode_list("[{'name': 'ls'}]", "t.json", "'tool_calls'")
    [{'name': 'ls'}]
    """
    if not text.strip():
        return []
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        try:
            value = ast.literal_eval(text.strip())
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            raise TraceError(
                f"{where}: {what} is a string that is neither JSON nor a Python literal "
                f"(expected a list, got {text[:60]!r})"
            ) from None
        try:
            problem = _not_json(value)
        except RecursionError:
            problem = "nested too deeply"
        if problem:
            raise TraceError(f"{where}: {what} is a Python literal that cannot be JSON ({problem}); "
                             f"expected what a JSON tool call can hold: string keys, no sets, bytes or complex") from None
    if not isinstance(value, list):
        raise TraceError(f"{where}: {what} decodes to {type(value).__name__}, expected a list")
    return value


def as_list(value: Any, where: str, what: str) -> list:
    """A list field that may arrive as a list, a string-encoded list, or None (no entries)."""
    if value is None:
        return []
    if isinstance(value, str):
        return decode_list(value, where, what)
    if isinstance(value, list):
        return value
    raise TraceError(f"{where}: {what} must be a list (or a string holding one), got {type(value).__name__}")


# -- checks with one wording each ------------------------------------------------------------------------------------


def tool_name(value: Any, where: str, what: str) -> str:
    """A tool name: a non-empty string."""
    if not isinstance(value, str) or not value:
        raise TraceError(f"{where}: {what} must be a non-empty string (the tool name), got {value!r:.60}")
    return value


def entry(value: Any, where: str, what: str, needs: str) -> Mapping:
    """An object that must be a JSON object holding ``needs``."""
    if not is_map(value):
        raise TraceError(f"{where}: {what} must be an object with {needs}, got {type(value).__name__}")
    return value


def required(record: Mapping, key: str, where: str, what: str, expected: str = "") -> Any:
    """``record[key]``; a missing key is an error (a call without its arguments field would key as ``None``)."""
    if key not in record:
        found = ", ".join(repr(k) for k in list(record)[:8]) or "no keys"
        raise TraceError(f"{where}: {what} has no {key!r} (found {found}){'; ' + expected if expected else ''}")
    return record[key]


def openai_calls(entries: list, where: str, prefix: str) -> list:
    """Calls from OpenAI-shaped ``{"id", "type": "function", "function": {"name", "arguments"}}`` entries, the shape
    OpenAI Chat Completions, older LangChain dumps, OpenHands model responses and smolagents steps share.

    >>> openai_calls([{"id": "c1", "function": {"name": "ls", "arguments": "{}"}}], "t.json", "tool_calls")
    [{'name': 'ls', 'args': '{}', 'id': 'c1'}]
    """
    calls = []
    for i, item in enumerate(entries):
        what = f"{prefix}[{i}]"
        item = entry(item, where, what, "'function': {'name', 'arguments'}")
        function = entry(item.get("function"), where, f"{what}.function", "'name' and 'arguments'")
        name = tool_name(function.get("name"), where, f"{what}.function.name")
        args = required(function, "arguments", where, f"{what}.function", "expected 'arguments' (a JSON string)")
        calls.append({"name": name, "args": args, "id": item.get("id")})
    return calls


_ASSISTANT_ROLES = ("assistant", "ai")
_LANGCHAIN_AI_TYPES = ("ai", "AIMessage", "AIMessageChunk")


def assistant_only(record: Mapping, where: str) -> None:
    """Tool calls belong on an assistant message; on any other role they are a misread shape."""
    if record.get("role") in _ASSISTANT_ROLES or record.get("type") in _LANGCHAIN_AI_TYPES:
        return
    role = record.get("role", record.get("type"))
    raise TraceError(f"{where}: a {role!r} message carries tool calls; expected them on an assistant message")
