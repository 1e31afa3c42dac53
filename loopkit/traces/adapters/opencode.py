"""OpenCode's event lines (``opencode run --format json``): one event per line, ``{"type", "timestamp", "sessionID",
"part": {...}}`` (anomalyco/opencode, formerly sst/opencode, at commit 01013888:
``packages/cli/src/run/noninteractive.ts``, whose ``emit`` writes them).

- ``tool_use``: one finished call, ``part: {"type": "tool", "tool", "state": {"status", "input", "output", ...},
  "messageID", ...}``; its call id is ``part.id`` in this version and ``part.callID`` in earlier ones (where ``id`` is
  the part's own). The calls of one assistant message (one model response) share its ``messageID``: that is the turn,
  so they form one batch.
- ``step_start``, ``step_finish``, ``text``, ``reasoning`` and ``error`` are skipped and counted.

A run of ``opencode run`` answers one message, which the lines do not repeat; the summary counts no prompt.
"""

from __future__ import annotations

from collections.abc import Mapping

from .base import Format, Message, Skipped, entry, is_map, required, tool_name

__all__ = ["FORMAT", "read", "TYPES"]

#: The event types ``noninteractive.ts`` emits.
TYPES = ("tool_use", "step_start", "step_finish", "text", "reasoning", "error")


def read(record: Mapping, where: str) -> Message | Skipped | None:
    """An OpenCode event: ``tool_use`` as its call (the turn is its assistant message), the others skipped; ``None``
    for a record of another format.

    >>> read({"type": "tool_use", "timestamp": 1, "sessionID": "ses_1", "part": {"type": "tool", "id": "call_1",
    ...       "messageID": "msg_1", "tool": "read", "state": {"status": "completed", "input": {"filePath": "a.py"}}}},
    ...      "run.jsonl:2")
    Message(calls=[{'name': 'read', 'args': {'filePath': 'a.py'}, 'id': 'call_1'}], turn='msg_1', user_prompt=False, results=False)
    """
    kind = record.get("type")
    if kind not in TYPES or not isinstance(record.get("sessionID"), str) or "timestamp" not in record:
        return None
    if kind != "tool_use":
        return Skipped(kind)
    part = entry(required(record, "part", where, "a tool_use event", "expected the tool part"), where, "'part'",
                 "'tool' and 'state'")
    name = tool_name(part.get("tool"), where, "part.tool")
    state = entry(part.get("state"), where, "part.state", "'input'")
    args = required(state, "input", where, "part.state", "expected 'input' (the call's arguments)")
    call_id = part.get("callID", part.get("id"))
    turn = part.get("messageID")
    return Message([{"name": name, "args": args, "id": call_id}],
                   turn=str(turn) if turn is not None and not is_map(turn) else None)


FORMAT = Format("opencode", read, call_keys=("part",), distinctive=True)
