"""Provider adapters: turn a recorded agent transcript into the batches the detector sees (chapter 09).

A *batch* is one assistant turn's tool calls, each a ``{"name", "args", "id"}`` dict whose ``args`` are left
exactly as the provider sent them (a JSON string from OpenAI, a dict from Anthropic and LangChain); the detector
normalizes them itself. Four transport shapes are understood:

- ``openai-chat``: assistant messages with ``tool_calls`` of ``{"id", "type": "function", "function": {"name",
  "arguments"}}`` (and the legacy single ``function_call``);
- ``openai-responses``: items of ``"type": "function_call"`` with ``name``, ``arguments`` and ``call_id``
  (``custom_tool_call`` items give their ``input``, ``local_shell_call`` items are the tool ``local_shell`` with
  their ``action``); consecutive calls form one batch, up to the next item that is not a call;
- ``anthropic``: assistant messages whose ``content`` list holds ``{"type": "tool_use", "id", "name", "input"}``
  blocks (``server_tool_use`` and ``mcp_tool_use`` blocks too); the blocks of one message form one batch;
- ``langchain``: ``type: "ai"`` (or ``role: "assistant"``) messages with ``tool_calls`` of ``{"name", "args",
  "id"}`` (older dumps: OpenAI-shaped calls under ``additional_kwargs.tool_calls``); the ``{"type", "data"}``
  wrapping of ``messages_to_dict`` is unwrapped.

Every call must carry its arguments field (``arguments``, ``args``, ``input``, or a shell call's ``action``; its
value, even ``null``, is kept): none of these formats omits it, so a call without it is a misread shape, not a
call with no arguments.

The container may be a JSON array of messages, a JSON object holding that list under ``messages``, ``history``,
``output`` or ``input`` (an object with both ``input`` and ``output`` lists is read as input then output), or
JSON Lines with one message per line. JSON Lines are read one line at a time, so
:func:`iter_trace` streams a transcript of any size in steady memory. A ``tool_calls`` list (or an Anthropic
``content`` list, or a container list) stored as a *string* is decoded with ``json.loads``, then with
``ast.literal_eval`` for Python-literal dumps (which must hold only what JSON can: string keys, no sets or bytes);
nothing is ever ``eval``-ed. The source may be a path or an open binary file such as a pipe: the format is told
from the first lines, without rewinding.

Bad input raises :class:`TraceError` naming ``FILE:LINE`` (JSON Lines or a JSON syntax error) or the message index
(a JSON document) and what was expected. Nothing is silently dropped: a message that carries tool calls in a
shape the adapter cannot read is an error, not a skipped turn (LangChain ``invalid_tool_calls``, Responses call
items other than the three above, a string ``content`` with ``tool_use`` blocks that does not decode). A
transcript with no tool calls at all is not an error; :meth:`Trace.describe` says so. A file with no content at
all (empty, or only blank lines) is an error whatever its suffix: it is more likely a failed export than a
conversation; an empty list (``[]``) is a conversation with no tool calls.
"""

from __future__ import annotations

import ast
import itertools
import json
import os
import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "FORMATS",
    "CONTAINER_KEYS",
    "TraceError",
    "Batch",
    "Trace",
    "TraceStream",
    "iter_trace",
    "load_trace",
    "batches_from_messages",
    "from_openai_chat",
    "from_openai_responses",
    "from_anthropic",
    "from_langchain",
]

#: The transport shapes the adapters read, by the name ``format=`` takes.
FORMATS = ("openai-chat", "openai-responses", "anthropic", "langchain")

#: The keys under which a JSON object may hold its list of messages, in the order they are looked for.
CONTAINER_KEYS = ("messages", "history", "output", "input")

_JSONL_SUFFIXES = (".jsonl", ".ndjson")
_ASSISTANT_ROLES = {"assistant", "ai"}
_LANGCHAIN_AI_TYPES = {"ai", "AIMessage", "AIMessageChunk"}
_LANGCHAIN_HUMAN_TYPES = {"human", "HumanMessage", "HumanMessageChunk"}


def _is_map(value: Any) -> bool:
    return type(value) is dict or isinstance(value, Mapping)  # the common case without the ABC check


class TraceError(ValueError):
    """A transcript the adapters cannot use. The message starts with where (``FILE:LINE`` or the message index)
    and says what was expected."""


@dataclass(frozen=True)
class Batch:
    """One assistant turn's tool calls.

    ``step`` counts batches from 1; ``where`` is the location of the message that opened the batch; ``turn`` is
    how many user messages came before it (a new user message is a new run in DeerFlow).
    """

    step: int
    where: str
    calls: list = field(hash=False)
    turn: int = 0


# -- decoding helpers ---------------------------------------------------------------------------------------------


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


def _decode_list(text: str, where: str, what: str) -> list:
    """Decode a string-encoded list: JSON first, then a Python literal that JSON could hold. Never ``eval``."""
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
                             f"expected what a JSON tool call can hold: string keys, no sets, bytes or complex")
    if not isinstance(value, list):
        raise TraceError(f"{where}: {what} decodes to {type(value).__name__}, expected a list")
    return value


def _as_list(value: Any, where: str, what: str) -> list:
    """A list field that may arrive as a list, a string-encoded list, or None (no entries)."""
    if value is None:
        return []
    if isinstance(value, str):
        return _decode_list(value, where, what)
    if isinstance(value, list):
        return value
    raise TraceError(f"{where}: {what} must be a list (or a string holding one), got {type(value).__name__}")


def _name(value: Any, where: str, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise TraceError(f"{where}: {what} must be a non-empty string (the tool name), got {value!r:.60}")
    return value


def _entry(value: Any, where: str, what: str, needs: str) -> Mapping:
    if not _is_map(value):
        raise TraceError(f"{where}: {what} must be an object with {needs}, got {type(value).__name__}")
    return value


# -- one message at a time ----------------------------------------------------------------------------------------


def _unwrap(message: Mapping) -> Mapping:
    """LangChain's ``messages_to_dict`` wraps each message as ``{"type": ..., "data": {...}}``."""
    data = message.get("data")
    if _is_map(data) and set(message) <= {"type", "data"}:
        merged = dict(data)
        merged.setdefault("type", message.get("type"))
        return merged
    return message


_TOOL_USE_TEXT = re.compile(r"""["']type["']\s*:\s*["'](?:server_|mcp_)?tool_use["']""")


def _anthropic_blocks(content: Any, where: str) -> list | None:
    """Content blocks, decoding a string-encoded list of blocks; None when the content is plain text.

    A string that fails to decode is text, unless it holds a ``tool_use`` block: then it is an error, not a turn
    with no calls."""
    if isinstance(content, list):
        return content
    if isinstance(content, str) and content.lstrip().startswith("[{"):
        try:
            blocks = _decode_list(content, where, "'content'")
        except TraceError as exc:
            if _TOOL_USE_TEXT.search(content):
                raise TraceError(f"{exc}; it holds tool_use blocks, so it cannot be read as text") from None
            return None  # text that merely looks like a list stays text
        if all(_is_map(b) and "type" in b for b in blocks):
            return blocks
        if _TOOL_USE_TEXT.search(content):
            raise TraceError(f"{where}: 'content' decodes to a list with tool_use blocks but not every item is a "
                             f"block; expected a list of {{'type': ...}} objects")
    return None


def _is_user_turn(message: Mapping) -> bool:
    """A message from the human: it starts a new run in DeerFlow. Anthropic tool results are role "user" too."""
    if message.get("type") in _LANGCHAIN_HUMAN_TYPES:
        return True
    if message.get("role") != "user" or message.get("type") not in (None, "message"):
        return False
    blocks = _anthropic_blocks(message.get("content"), "")
    if blocks and all(_is_map(b) and b.get("type") == "tool_result" for b in blocks):
        return False
    return True


def _is_assistant(message: Mapping) -> bool:
    return message.get("role") in _ASSISTANT_ROLES or message.get("type") in _LANGCHAIN_AI_TYPES


_LANGCHAIN_OR_OPENAI = ("expected LangChain's {'name', 'args', 'id'} or OpenAI's "
                        "{'id', 'type', 'function': {'name', 'arguments'}}")
_ANTHROPIC_CALL_BLOCKS = ("tool_use", "server_tool_use", "mcp_tool_use")
_RESPONSES_CALL_ITEMS = ("function_call", "custom_tool_call", "local_shell_call")


def _field(entry: Mapping, key: str, where: str, what: str, expected: str = "") -> Any:
    """``entry[key]``; a missing key is an error (a call without its arguments field would key as ``None``)."""
    if key not in entry:
        found = ", ".join(repr(k) for k in list(entry)[:8]) or "no keys"
        raise TraceError(f"{where}: {what} has no {key!r} (found {found}){'; ' + expected if expected else ''}")
    return entry[key]


def _openai_entries(entries: list, where: str, prefix: str) -> list:
    """Calls from OpenAI-shaped ``{"id", "type": "function", "function": {"name", "arguments"}}`` entries."""
    calls = []
    for i, entry in enumerate(entries):
        what = f"{prefix}[{i}]"
        entry = _entry(entry, where, what, "'function': {'name', 'arguments'}")
        function = _entry(entry.get("function"), where, f"{what}.function", "'name' and 'arguments'")
        name = _name(function.get("name"), where, f"{what}.function.name")
        args = _field(function, "arguments", where, f"{what}.function", "expected 'arguments' (a JSON string)")
        calls.append({"name": name, "args": args, "id": entry.get("id")})
    return calls


def _responses_item(message: Mapping, kind: str, where: str) -> list:
    """The call of one Responses ``*_call`` item: function_call, custom_tool_call or local_shell_call."""
    call_id = message.get("call_id", message.get("id"))
    if kind == "local_shell_call":  # the built-in shell tool: its 'action' is the argument
        action = _field(message, "action", where, "local_shell_call", "expected 'action': {'type': 'exec', ...}")
        return [{"name": "local_shell", "args": action, "id": call_id}]
    name = _name(message.get("name"), where, f"{kind} 'name'")
    key = "arguments" if kind == "function_call" else "input"  # custom tools take free text as 'input'
    return [{"name": name, "args": _field(message, key, where, kind), "id": call_id}]


def _read_message(message: Mapping, where: str) -> tuple[str | None, list]:
    """The shape of the tool calls ``message`` carries and the calls, or ``(None, [])`` when it carries none."""
    kind = message.get("type")
    if kind in _RESPONSES_CALL_ITEMS:
        return "openai-responses", _responses_item(message, kind, where)
    if isinstance(kind, str) and kind.endswith("_call"):
        raise TraceError(f"{where}: a {kind!r} item is a tool call of a kind not supported; expected one of "
                         f"{', '.join(_RESPONSES_CALL_ITEMS)}")

    invalid = message.get("invalid_tool_calls")
    if invalid:
        found = _as_list(invalid, where, "'invalid_tool_calls'")[:3]
        names = ", ".join(repr(c.get("name")) if _is_map(c) else "?" for c in found)
        raise TraceError(f"{where}: the message carries invalid_tool_calls ({names}): calls LangChain could not "
                         f"parse, which DeerFlow's detector never sees; not supported, so the replay cannot say what "
                         f"the run did (expected only 'tool_calls')")

    entries = _as_list(message.get("tool_calls"), where, "'tool_calls'")
    if entries:
        first = entries[0]
        if _is_map(first) and "function" in first:
            return "openai-chat", _openai_entries(entries, where, "tool_calls")
        calls = []
        for i, entry in enumerate(entries):
            what = f"tool_calls[{i}]"
            entry = _entry(entry, where, what, "'name', 'args' and 'id'")
            if "function" in entry:
                raise TraceError(f"{where}: {what} is OpenAI-shaped but tool_calls[0] is not; expected one shape")
            name = _name(entry.get("name"), where, f"{what}.name")
            args = _field(entry, "args", where, what, _LANGCHAIN_OR_OPENAI)
            calls.append({"name": name, "args": args, "id": entry.get("id")})
        return "langchain", calls

    extra = message.get("additional_kwargs")
    if _is_map(extra) and extra.get("tool_calls"):  # older LangChain dumps: OpenAI-shaped calls kept here only
        where_kw = "additional_kwargs.tool_calls"
        return "langchain", _openai_entries(_as_list(extra["tool_calls"], where, f"'{where_kw}'"), where, where_kw)

    blocks = _anthropic_blocks(message.get("content"), where)
    if any(_is_map(b) and b.get("type") in _ANTHROPIC_CALL_BLOCKS for b in blocks or ()):
        calls = []
        for i, block in enumerate(blocks):
            if _is_map(block) and block.get("type") in _ANTHROPIC_CALL_BLOCKS:
                what = f"content[{i}] ({block['type']})"
                name = _name(block.get("name"), where, f"{what} 'name'")
                args = _field(block, "input", where, what, "expected 'input': {...} (the tool's arguments)")
                calls.append({"name": name, "args": args, "id": block.get("id")})
        return "anthropic", calls

    legacy = message.get("function_call")
    if legacy is not None:
        function = _entry(legacy, where, "'function_call'", "'name' and 'arguments'")
        name = _name(function.get("name"), where, "function_call.name")
        args = _field(function, "arguments", where, "function_call", "expected 'arguments' (a JSON string)")
        return "openai-chat", [{"name": name, "args": args, "id": None}]
    return None, []


class _Batcher:
    """Feeds messages one at a time and emits batches; remembers the format it picked and where."""

    def __init__(self, fmt: str) -> None:
        self.format = None if fmt == "auto" else fmt
        self.picked_at: str | None = None
        self.messages = 0
        self.batches = 0
        self.calls = 0
        self.turn = 0
        self._pending: list = []  # an open openai-responses batch
        self._pending_where = ""

    def _emit(self, where: str, calls: list) -> Batch:
        self.batches += 1
        self.calls += len(calls)
        return Batch(self.batches, where, calls, self.turn)

    def flush(self) -> Iterator[Batch]:
        if self._pending:
            calls, self._pending = self._pending, []
            yield self._emit(self._pending_where, calls)

    def feed(self, where: str, message: Any) -> Iterator[Batch]:
        if not _is_map(message):
            raise TraceError(f"{where}: expected a message object, got {type(message).__name__}: {message!r:.60}")
        self.messages += 1
        message = _unwrap(message)
        shape, calls = _read_message(message, where)
        if shape is None:
            yield from self.flush()
            if _is_user_turn(message):
                self.turn += 1
            return
        if shape != "openai-responses" and not _is_assistant(message):
            role = message.get("role", message.get("type"))
            raise TraceError(f"{where}: a {role!r} message carries tool calls; expected them on an assistant message")
        if self.format is None:
            self.format, self.picked_at = shape, where
        elif shape != self.format:
            since = f" (picked at {self.picked_at})" if self.picked_at else ""
            raise TraceError(f"{where}: {shape} tool calls in a trace read as {self.format}{since}")
        if shape == "openai-responses":
            if not self._pending:
                self._pending_where = where
            self._pending.extend(calls)
            return
        yield from self.flush()
        yield self._emit(where, calls)


# -- containers ---------------------------------------------------------------------------------------------------


def _check_format(fmt: Any) -> str:
    if fmt != "auto" and fmt not in FORMATS:
        raise ValueError(f"format must be 'auto' or one of {', '.join(FORMATS)}; got {fmt!r}")
    return fmt


def _container_list(document: Any, source: str) -> tuple[str, list]:
    """The message list inside a parsed JSON document, and a description of where it was found."""
    if isinstance(document, list):
        return "a JSON array", document
    if isinstance(document, Mapping):
        both = not any(k in document for k in CONTAINER_KEYS[:2]) and "output" in document and "input" in document
        earlier = document.get("input")
        if both and (isinstance(earlier, list) or (isinstance(earlier, str) and earlier.lstrip().startswith("["))):
            # a Responses request and its response saved together: the input items come first
            items = _as_list(earlier, source, "'input'")
            later = document["output"]
            if not isinstance(later, (list, str)):
                raise TraceError(f"{source}: 'output' must be a list of messages, got {type(later).__name__}")
            return "a JSON object under 'input' then 'output'", items + _as_list(later, source, "'output'")
        for key in CONTAINER_KEYS:
            if key in document:
                value = document[key]
                if isinstance(value, (list, str)):
                    return f"a JSON object under {key!r}", _as_list(value, source, f"{key!r}")
                raise TraceError(f"{source}: {key!r} must be a list of messages, got {type(value).__name__}")
        keys = ", ".join(repr(k) for k in list(document)[:8]) or "none"
        raise TraceError(
            f"{source}: a JSON object without a message list; expected one of the keys "
            f"{', '.join(CONTAINER_KEYS)} (found {keys})"
        )
    raise TraceError(f"{source}: expected a JSON array of messages or an object holding one, got {type(document).__name__}")


def _looks_like_container(value: Any) -> str | None:
    """The container key of an object that holds a whole conversation rather than being one message."""
    if _is_map(value) and "role" not in value and "type" not in value:
        for key in CONTAINER_KEYS:
            if isinstance(value.get(key), (list, str)):
                return key
    return None


def _parse_json(text: str, path: str, lineno: int | None = None, expected: str = "") -> Any:
    """``json.loads`` whose every failure is a :class:`TraceError` at ``path:LINE`` (``lineno`` for one line of
    JSON Lines, else the line inside the document)."""
    tail = f"; {expected}" if expected else ""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"{path}:{lineno or exc.lineno}"
        raise TraceError(f"{where}: invalid JSON ({exc.msg} at column {exc.colno}){tail}") from None
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


def _jsonl_line(raw: bytes, path: str, lineno: int) -> Any:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TraceError(f"{path}:{lineno}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if lineno == 1:
        text = text.lstrip("\ufeff")
    value = _parse_json(text, path, lineno, "expected one message object per line")
    key = _looks_like_container(value)
    if key:
        raise TraceError(f"{path}:{lineno}: a whole conversation under {key!r} on one line; "
                         f"JSON Lines traces hold one message per line")
    return value


class TraceStream:
    """A transcript read lazily: iterating yields :class:`Batch` objects as they are parsed.

    ``source`` is a path or an open binary file (a pipe or standard input works: the format is detected from the
    first lines without rewinding). JSON Lines are read one line at a time (steady memory for any size); a JSON
    document is parsed whole. After (or during) iteration, ``format``, ``container``, ``messages``, ``batches``
    and ``calls`` describe what was read. A stream can be iterated once.
    """

    def __init__(self, source, format: str = "auto") -> None:
        if hasattr(source, "read"):
            self._handle = source
            name = getattr(source, "name", None)
            self.path = name if isinstance(name, str) else "<stream>"
        else:
            self._handle = None
            self.path = os.fspath(source)
        self.requested = _check_format(format)
        self.container: str | None = None
        self._batcher = _Batcher(format)
        self._started = False

    format = property(lambda self: self._batcher.format, doc="The format read (None while no call was seen).")
    picked_at = property(lambda self: self._batcher.picked_at, doc="Where auto-detection picked the format.")
    messages = property(lambda self: self._batcher.messages, doc="Messages read so far.")
    batches = property(lambda self: self._batcher.batches, doc="Batches emitted so far.")
    calls = property(lambda self: self._batcher.calls, doc="Tool calls emitted so far.")
    turns = property(lambda self: self._batcher.turn, doc="User messages read so far (each is a new run upstream).")

    def _sniff(self, lines: Iterator[bytes]) -> tuple[bool, list]:
        """Is it JSON Lines? Reads just enough lines to tell and returns them, so nothing needs rewinding."""
        head: list = []
        first = ""
        for raw in lines:
            head.append(raw)
            first = raw.decode("utf-8", "replace").lstrip("\ufeff").strip()
            if first:
                break
        if not first:  # the same for every suffix: no content at all is unusable, an empty list is not
            raise TraceError(f"{self.path}: the file is empty; expected JSON or JSON Lines")
        if self.path.lower().endswith(_JSONL_SUFFIXES):
            return True, head
        if first.startswith("["):
            return False, head
        if not first.startswith("{"):
            raise TraceError(f"{self.path}: expected a JSON array, a JSON object or JSON Lines; "
                             f"the file starts with {first[:20]!r}")
        try:
            json.loads(first)
        except json.JSONDecodeError as exc:
            # Cut off at the end of the line: the start of a document spread over several lines. Broken before
            # the end: a bad first line, which the JSON Lines reader reports as FILE:1.
            return exc.pos < len(first), head
        except (ValueError, RecursionError):
            pass  # a whole line Python cannot hold; the reader reports it where it is
        # A whole object on the first line: JSON Lines if another line follows, else a one-line JSON document.
        for raw in lines:
            head.append(raw)
            if raw.strip():
                return True, head
        return False, head

    def __iter__(self) -> Iterator[Batch]:
        if self._started:
            raise RuntimeError("a TraceStream can be iterated only once; call iter_trace() again")
        self._started = True
        if self._handle is not None:
            yield from self._read(self._handle)  # the caller's file: the caller closes it
        else:
            try:
                handle = open(self.path, "rb")
            except OSError as exc:
                raise TraceError(f"{self.path}: cannot read the file ({exc.strerror})") from None
            with handle:
                yield from self._read(handle)
        yield from self._batcher.flush()

    def _read(self, handle) -> Iterator[Batch]:
        lines = iter(handle)
        jsonl, head = self._sniff(lines)
        if jsonl:
            self.container = "JSON Lines"
            for lineno, raw in enumerate(itertools.chain(head, lines), 1):
                if raw.strip() and (lineno > 1 or raw.strip().lstrip(b"\xef\xbb\xbf")):
                    yield from self._batcher.feed(f"{self.path}:{lineno}", _jsonl_line(raw, self.path, lineno))
        else:
            yield from self._document(b"".join(head) + handle.read())

    def _document(self, data: bytes) -> Iterator[Batch]:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise TraceError(f"{self.path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        document = _parse_json(text, self.path)
        self.container, messages = _container_list(document, self.path)
        for index, message in enumerate(messages):
            yield from self._batcher.feed(f"{self.path}: message index {index}", message)

    def describe(self) -> str:
        """One line: the format picked (and whether it was detected), the container, and the counts."""
        where = f" in {self.container}" if self.container else ""
        if not self.calls:
            return f"{self.path}: no tool calls in {self.messages} messages{where}; nothing to replay"
        how = "auto-detected" if self.requested == "auto" else "as requested"
        return (f"{self.path}: {self.format} ({how}){where}; {self.messages} messages, "
                f"{self.batches} batches, {self.calls} tool calls")


def iter_trace(path, format: str = "auto") -> TraceStream:
    """Stream a transcript's batches without loading it whole (JSON Lines are read line by line). ``path`` may
    also be an open binary file, such as ``sys.stdin.buffer``; it need not be seekable.

    >>> import json, pathlib, tempfile
    >>> line = {"role": "assistant", "tool_calls": [
    ...     {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}]}
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = pathlib.Path(d, "t.jsonl")
    ...     _ = path.write_text(json.dumps(line) + "\\n")
    ...     stream = iter_trace(path)
    ...     [(b.step, b.calls) for b in stream], stream.format
    ([(1, [{'name': 'bash', 'args': '{"command": "ls"}', 'id': 'c1'}])], 'openai-chat')
    """
    return TraceStream(path, format)


@dataclass
class Trace:
    """A whole transcript read into batches: what :func:`load_trace` returns.

    ``batches`` is the list the detector replays; ``where[i]`` and ``turns[i]`` belong to ``batches[i]``.
    """

    path: str
    format: str | None
    requested: str
    container: str | None
    messages: int
    batches: list
    where: list
    turns: list
    summary: str

    @property
    def calls(self) -> int:
        """How many tool calls the batches hold."""
        return sum(len(b) for b in self.batches)

    def describe(self) -> str:
        """One line saying which format was picked, where the messages were, and the counts."""
        return self.summary

    def __len__(self) -> int:
        return len(self.batches)


def load_trace(path: str | os.PathLike, format: str = "auto") -> Trace:
    """Read a transcript file into batches, detecting its format unless ``format`` names one of :data:`FORMATS`.

    >>> import json, pathlib, tempfile
    >>> msgs = {"messages": [{"role": "user", "content": "fix it"},
    ...         {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "read_file",
    ...                                            "input": {"path": "a.py"}}]}]}
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = pathlib.Path(d, "t.json")
    ...     _ = path.write_text(json.dumps(msgs))
    ...     trace = load_trace(path)
    >>> trace.format, trace.batches
    ('anthropic', [[{'name': 'read_file', 'args': {'path': 'a.py'}, 'id': 't1'}]])
    """
    stream = TraceStream(path, format)
    batches, where, turns = [], [], []
    for batch in stream:
        batches.append(batch.calls)
        where.append(batch.where)
        turns.append(batch.turn)
    return Trace(stream.path, stream.format, stream.requested, stream.container, stream.messages,
                 batches, where, turns, stream.describe())


def batches_from_messages(messages: Iterable[Any], format: str = "auto", *, source: str = "messages") -> list:
    """The batches of an in-memory list of messages (or Responses items), in any of :data:`FORMATS`.

    >>> batches_from_messages([{"type": "ai", "tool_calls": [{"name": "ls", "args": {}, "id": "1"}]}])
    [[{'name': 'ls', 'args': {}, 'id': '1'}]]
    """
    batcher = _Batcher(_check_format(format))
    if isinstance(messages, (str, bytes, Mapping)):
        raise TypeError(f"messages must be a list of message objects, got {type(messages).__name__}")
    out = []
    for index, message in enumerate(messages):
        out.extend(b.calls for b in batcher.feed(f"{source}: message index {index}", message))
    out.extend(b.calls for b in batcher.flush())
    return out


def from_openai_chat(messages: Iterable[Any]) -> list:
    """Batches from OpenAI Chat Completions messages: one per assistant message with ``tool_calls``."""
    return batches_from_messages(messages, "openai-chat", source="openai-chat")


def from_openai_responses(items: Iterable[Any]) -> list:
    """Batches from OpenAI Responses items: consecutive ``function_call`` items form one batch."""
    return batches_from_messages(items, "openai-responses", source="openai-responses")


def from_anthropic(messages: Iterable[Any]) -> list:
    """Batches from Anthropic Messages: the ``tool_use`` blocks of one assistant message form one batch."""
    return batches_from_messages(messages, "anthropic", source="anthropic")


def from_langchain(messages: Iterable[Any]) -> list:
    """Batches from LangChain / LangGraph message dumps: ``type: "ai"`` messages with ``tool_calls``."""
    return batches_from_messages(messages, "langchain", source="langchain")
