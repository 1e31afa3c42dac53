"""Claude Code session JSON Lines (``~/.claude/projects/<project>/<session>.jsonl``): one record per line,
``{"type": "assistant" | "user", "message": {"id", "role", "content": [...]}, "uuid", "sessionId", ...}``.

Claude Code writes each content block of an assistant message on a line of its own, so the lines that share
``message.id`` are one model turn: their ``tool_use`` blocks (``{id, name, input}``) form one batch. Records of
other types (``summary``, ``system``, ``file-history-snapshot``, ``queue-operation``, ...) are skipped and counted.
There is no official schema; the shape was checked against community references (oneryalcin/agent-schemas,
``claude-code/README.md``).

Not every ``user`` record is a person's prompt. Claude Code writes some itself (oneryalcin/agent-schemas at commit
dfa9f8f1, ``claude-code/v2.1.144/session.schema.json``, ``UserMessage``): ``isMeta`` bookkeeping, the summary it
writes when it compacts the conversation (``isCompactSummary``, and ``isVisibleInTranscriptOnly``: never sent as the
person's turn), and the notice that a background task finished (``origin: {"kind": "task-notification"}``; the text
starts ``<task-notification>``, ``claude-code/captured/tools_2.1.144.json``). It also records an interruption as user
text, ``[Request interrupted by user]`` or ``[Request interrupted by user for tool use]`` (quoted in
anthropics/claude-code issue #21477), and a local command's output as ``<local-command-stdout>``. None of these starts
a run.
"""

from __future__ import annotations

from collections.abc import Mapping

from .anthropic import block_calls, content_blocks, holds_results, is_prompt, user_texts
from .base import Format, Message, Skipped, TraceError, entry, is_map

#: Keys only Claude Code's records carry: a record with one of them and a ``type`` is Claude Code's.
MARKERS = ("uuid", "parentUuid", "sessionId", "leafUuid", "messageId")
#: Flags of a ``user`` record that Claude Code wrote itself.
WRITTEN_BY_CLAUDE_CODE = ("isMeta", "isCompactSummary", "isVisibleInTranscriptOnly")
#: How the text of a ``user`` record that Claude Code wrote itself starts.
NOTICES = ("<task-notification>", "[Request interrupted by user", "<local-command-stdout>", "<local-command-stderr>",
           "<local-command-caveat>")


def written_by_claude_code(record: Mapping, texts: list[str]) -> bool:
    """Did Claude Code write this ``user`` record itself (a flag, a task notification's origin, or a notice's text)?

    >>> written_by_claude_code({"type": "user", "origin": {"kind": "task-notification"}}, ["<task-notification>..."])
    True
    >>> written_by_claude_code({"type": "user"}, ["[Request interrupted by user for tool use]"])
    True
    """
    if any(record.get(flag) for flag in WRITTEN_BY_CLAUDE_CODE):
        return True
    origin = record.get("origin")
    if is_map(origin) and origin.get("kind") == "task-notification":
        return True
    return bool(texts) and all(text.lstrip().startswith(NOTICES) for text in texts)


def read(record: Mapping, where: str) -> Message | Skipped | None:
    """A ``user`` or ``assistant`` record as a message (the turn id is ``message.id``); another Claude Code record
    as skipped; ``None`` for a record of another format.

    >>> line = {"type": "assistant", "uuid": "u1", "message": {"id": "msg_1", "role": "assistant", "content": [
    ...     {"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "a.py"}}]}}
    >>> read(line, "s.jsonl:3")
    Message(calls=[{'name': 'Read', 'args': {'file_path': 'a.py'}, 'id': 't1'}], turn='msg_1', user_prompt=False, results=False)
    """
    kind = record.get("type")
    if not isinstance(kind, str) or not (is_map(record.get("message")) or any(k in record for k in MARKERS)):
        return None
    if kind not in ("user", "assistant"):
        return Skipped(kind)
    message = entry(record.get("message"), where, f"a {kind!r} record's 'message'", "'role' and 'content'")
    content = message.get("content")
    blocks = content_blocks(content, where)
    calls = block_calls(blocks, where)
    if calls and kind != "assistant":
        raise TraceError(f"{where}: a 'user' record carries tool_use blocks; expected them on an 'assistant' record")
    if kind == "assistant":
        turn = message.get("id")
        return Message(calls, turn=turn if isinstance(turn, str) else None)
    typed = is_prompt(blocks, content) and not written_by_claude_code(record, user_texts(content, blocks))
    return Message(calls, user_prompt=typed, results=holds_results(blocks, content))


FORMAT = Format("claude-code", read, call_keys=("message",), distinctive=True)
