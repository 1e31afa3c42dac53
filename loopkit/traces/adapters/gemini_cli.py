"""Gemini CLI sessions (``~/.gemini/tmp/<project>/chats/session-*.json``): ``{"sessionId", "projectHash",
"messages": [{"id", "type": "user" | "gemini" | "info" | ..., "content", "toolCalls": [{"id", "name", "args",
...}]}]}`` (google-gemini/gemini-cli, ``packages/core/src/services/chatRecordingService.ts``).

Newer versions append the same records to a ``.jsonl`` log instead, re-writing a message each time it changes; the
lines that share a message ``id`` are one turn, and a call id seen again replaces the earlier call rather than
adding one. Metadata lines are skipped; a log that rewinds (``$rewindTo``) or replaces its messages (``$set`` with
``messages``) is refused: replayed line by line it would count calls that were undone.
"""

from __future__ import annotations

from collections.abc import Mapping

from .base import Format, Message, Skipped, TraceError, as_list, entry, required, tool_name

TYPES = ("user", "gemini", "info", "error", "warning")


def read(record: Mapping, where: str) -> Message | Skipped | None:
    """A session message (its ``toolCalls`` on ``gemini`` messages), or a skipped metadata line.

    >>> read({"id": "m1", "type": "gemini", "content": "", "toolCalls": [
    ...     {"id": "c1", "name": "read_file", "args": {"file_path": "a.py"}, "status": "success"}]}, "s.json").calls
    [{'name': 'read_file', 'args': {'file_path': 'a.py'}, 'id': 'c1'}]
    """
    if "$rewindTo" in record or ("$set" in record and "messages" in (record.get("$set") or {})):
        raise TraceError(f"{where}: a Gemini CLI log record that rewinds or replaces the history; not supported "
                         f"(replayed line by line it would count calls that were undone)")
    if "$set" in record or ("sessionId" in record and "projectHash" in record and "type" not in record):
        return Skipped("session metadata")
    kind = record.get("type")
    if kind not in TYPES or "role" in record or "message" in record or "id" not in record:
        return None
    calls = []
    for i, item in enumerate(as_list(record.get("toolCalls"), where, "'toolCalls'")):
        what = f"toolCalls[{i}]"
        item = entry(item, where, what, "'id', 'name' and 'args'")
        name = tool_name(item.get("name"), where, f"{what}.name")
        calls.append({"name": name, "args": required(item, "args", where, what), "id": item.get("id")})
    if calls and kind != "gemini":
        raise TraceError(f"{where}: a {kind!r} message carries toolCalls; expected them on a 'gemini' message")
    return Message(calls, turn=str(record["id"]), user_prompt=kind == "user")


FORMAT = Format("gemini-cli", read, call_keys=("toolCalls",), distinctive=True)
