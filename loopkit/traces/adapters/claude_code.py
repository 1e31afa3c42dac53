"""Claude Code session JSON Lines (``~/.claude/projects/<project>/<session>.jsonl``): one record per line,
``{"type": "assistant" | "user", "message": {"id", "role", "content": [...]}, "uuid", "sessionId", ...}``.

Claude Code writes each content block of an assistant message on a line of its own, so the lines that share
``message.id`` are one model turn: their ``tool_use`` blocks (``{id, name, input}``) form one batch. Records of
other types (``summary``, ``system``, ``file-history-snapshot``, ``queue-operation``, ...) are skipped and counted.
There is no official schema; the shape was checked against community references (oneryalcin/agent-schemas,
``claude-code/README.md``).
"""

from __future__ import annotations

from collections.abc import Mapping

from .anthropic import block_calls, content_blocks, is_prompt
from .base import Format, Message, Skipped, TraceError, entry, is_map

#: Keys only Claude Code's records carry: a record with one of them and a ``type`` is Claude Code's.
MARKERS = ("uuid", "parentUuid", "sessionId", "leafUuid", "messageId")


def read(record: Mapping, where: str) -> Message | Skipped | None:
    """A ``user`` or ``assistant`` record as a message (the turn id is ``message.id``); another Claude Code record
    as skipped; ``None`` for a record of another format.

    >>> line = {"type": "assistant", "uuid": "u1", "message": {"id": "msg_1", "role": "assistant", "content": [
    ...     {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "a.py"}}]}}
    >>> read(line, "s.jsonl:3")
    Message(calls=[{'name': 'Read', 'args': {'file_path': 'a.py'}, 'id': 't1'}], turn='msg_1', user_prompt=False)
    """
    kind = record.get("type")
    if not isinstance(kind, str) or not (is_map(record.get("message")) or any(k in record for k in MARKERS)):
        return None
    if kind not in ("user", "assistant"):
        return Skipped(kind)
    message = entry(record.get("message"), where, f"a {kind!r} record's 'message'", "'role' and 'content'")
    blocks = content_blocks(message.get("content"), where)
    calls = block_calls(blocks, where)
    if calls and kind != "assistant":
        raise TraceError(f"{where}: a 'user' record carries tool_use blocks; expected them on an 'assistant' record")
    turn = message.get("id") if kind == "assistant" else None
    return Message(calls, turn=turn if isinstance(turn, str) else None,
                   user_prompt=kind == "user" and is_prompt(blocks))


FORMAT = Format("claude-code", read, call_keys=("message",), distinctive=True)
