"""Anthropic Messages: ``{"role": "assistant", "content": [{"type": "tool_use", "id", "name", "input"}]}``
(``server_tool_use`` and ``mcp_tool_use`` blocks too); the blocks of one message form one batch. A ``content``
list saved as a string is decoded; a string that fails to decode is text, unless it holds ``tool_use`` blocks.

The same message may come wrapped, ``{"role": "assistant", "message": {"content": [...]}}``, in a record without a
``type`` (Cursor's agent transcripts are written so, as documented by third parties; Claude Code's records, which
carry a ``type``, are :mod:`loopkit.traces.adapters.claude_code`'s). Cline's saved task history
(``api_conversation_history.json``) is a list of these messages too, with fields of its own beside them
(cline/cline ``src/shared/messages/content.ts`` at commit 60c5f9f2)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .base import Format, Message, TraceError, decode_list, is_map, required, tool_name

CALL_BLOCKS = ("tool_use", "server_tool_use", "mcp_tool_use")
_TOOL_USE_TEXT = re.compile(r"""["']type["']\s*:\s*["'](?:server_|mcp_)?tool_use["']""")


def content_blocks(content: Any, where: str) -> list | None:
    """Content blocks, decoding a string-encoded list of blocks; None when the content is plain text."""
    if isinstance(content, list):
        return content
    if isinstance(content, str) and content.lstrip().startswith("[{"):
        try:
            blocks = decode_list(content, where, "'content'")
        except TraceError as exc:
            if _TOOL_USE_TEXT.search(content):
                raise TraceError(f"{exc}; it holds tool_use blocks, so it cannot be read as text") from None
            return None  # text that merely looks like a list stays text
        if all(is_map(b) and "type" in b for b in blocks):
            return blocks
        if _TOOL_USE_TEXT.search(content):
            raise TraceError(f"{where}: 'content' decodes to a list with tool_use blocks but not every item is a "
                             f"block; expected a list of {{'type': ...}} objects")
    return None


def block_calls(blocks: list | None, where: str) -> list:
    """The calls of the ``tool_use`` blocks in a content list (Claude Code reuses this)."""
    calls = []
    for i, block in enumerate(blocks or ()):
        if is_map(block) and block.get("type") in CALL_BLOCKS:
            what = f"content[{i}] ({block['type']})"
            name = tool_name(block.get("name"), where, f"{what} 'name'")
            args = required(block, "input", where, what, "expected 'input': {...} (the tool's arguments)")
            calls.append({"name": name, "args": args, "id": block.get("id")})
    return calls


def is_prompt(blocks: list | None) -> bool:
    """A user message typed by the human: text, not only ``tool_result`` blocks (those come from tools)."""
    if blocks is None:
        return True
    return not (blocks and all(is_map(b) and b.get("type") == "tool_result" for b in blocks))


def read(record: Mapping, where: str) -> Message | None:
    """A message with a ``user`` or ``assistant`` role and the calls in its ``tool_use`` blocks.

    >>> read({"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "ls", "input": {}}]}, "m").calls
    [{'name': 'ls', 'args': {}, 'id': 't'}]
    """
    message = _unwrapped(record)
    role = message.get("role", record.get("role"))
    if role not in ("user", "assistant", "system"):
        return None
    blocks = content_blocks(message.get("content"), where)
    calls = block_calls(blocks, where)
    if calls and role != "assistant":
        raise TraceError(f"{where}: a {role!r} message carries tool calls; expected them on an assistant message")
    return Message(calls, user_prompt=role == "user" and is_prompt(blocks))


def _unwrapped(record: Mapping) -> Mapping:
    """The message inside ``{"role", "message": {"content"}}`` when the record has no ``type``; the record itself
    otherwise."""
    inner = record.get("message")
    if "type" not in record and "content" not in record and is_map(inner) and "content" in inner:
        return inner
    return record


FORMAT = Format("anthropic", read, call_keys=("content", "message"))
