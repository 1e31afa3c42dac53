"""Gemini CLI's ``--output-format stream-json`` lines (``gemini -p PROMPT --output-format stream-json``): one event per
line, ``{"type", "timestamp", ...}``, as google-gemini/gemini-cli documents and writes them (commit 5411f113:
``packages/core/src/output/types.ts``, ``JsonStreamEvent``; ``packages/cli/src/nonInteractiveCli.ts`` emits them).

- ``tool_use``: ``{"tool_name", "tool_id", "parameters"}``, one call the model asked for;
- ``tool_result``: ``{"tool_id", "status", "output" | "error"}``, its result;
- ``message``: ``{"role": "user" | "assistant", "content", "delta"}``: the user's prompt, or a piece of the model's
  text;
- ``init``, ``error``, ``result``: the session's start, warnings and errors, and its end.

A model response's calls are the ``tool_use`` events before the results of its tools come back (the CLI collects
every call a response asks for, then runs them and writes each ``tool_result``): so a batch is the ``tool_use``
events in a row, closed by the next ``tool_result`` or prompt, and the model's text between two calls of one response
(skipped and counted) does not split it. Each ``message`` of the user is a prompt.

Gemini CLI's saved sessions are another format, :mod:`loopkit.traces.adapters.gemini_cli`; the tools are the same, so
both take the ``gemini-cli`` tool map.
"""

from __future__ import annotations

from collections.abc import Mapping

from .base import Format, Message, Skipped, entry, required, tool_name

__all__ = ["FORMAT", "read", "TYPES"]

#: ``JsonStreamEventType`` in ``packages/core/src/output/types.ts``.
TYPES = ("init", "message", "tool_use", "tool_result", "error", "result")
#: The field each of the other events always has (``InitEvent.session_id``, ``ErrorEvent.severity``,
#: ``ResultEvent.status``).
_OWN_KEYS = {"init": "session_id", "error": "severity", "result": "status"}


def read(record: Mapping, where: str) -> Message | Skipped | None:
    """A stream-json event: ``tool_use`` as its call, the user's ``message`` as a prompt, ``tool_result`` as a result,
    the others skipped; ``None`` for a record of another format.

    >>> read({"type": "tool_use", "timestamp": "2026-05-01T10:00:00Z", "tool_name": "read_file", "tool_id": "t1",
    ...       "parameters": {"file_path": "a.py"}}, "run.jsonl:3").calls
    [{'name': 'read_file', 'args': {'file_path': 'a.py'}, 'id': 't1'}]
    """
    kind = record.get("type")
    if kind not in TYPES or not isinstance(record.get("timestamp"), str) or "id" in record:
        return None
    if kind == "tool_use":
        name = tool_name(record.get("tool_name"), where, "the tool_use event's 'tool_name'")
        args = required(record, "parameters", where, "a tool_use event", "expected 'parameters' (the call's arguments)")
        return Message([{"name": name, "args": entry(args, where, "'parameters'", "the call's arguments"),
                         "id": record.get("tool_id")}])
    if kind == "tool_result":
        return Message(results=True)
    if kind == "message":
        if record.get("role") == "user" and isinstance(record.get("content"), str):
            return Message(user_prompt=True)
        if record.get("role") == "assistant":
            return Skipped("assistant text")  # not a message that closes a batch: text comes between calls too
        return None
    if _OWN_KEYS[kind] not in record:
        return None  # an event of another format that shares the type's name
    return Skipped(kind)


FORMAT = Format("gemini-cli-stream", read, call_keys=("tool_name",), batching="consecutive", distinctive=True)
