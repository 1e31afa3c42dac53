"""Anthropic Messages: ``{"role": "assistant", "content": [{"type": "tool_use", "id", "name", "input"}]}``
(``server_tool_use`` and ``mcp_tool_use`` blocks too); the blocks of one message form one batch. A ``content``
list saved as a string is decoded; a string that fails to decode is text, unless it holds ``tool_use`` blocks.

The same message may come wrapped, ``{"role": "assistant", "message": {"content": [...]}}``, in a record without a
``type`` (Cursor's agent transcripts are written so, as documented by third parties; Claude Code's records, which
carry a ``type``, are :mod:`loopkit.traces.adapters.claude_code`'s). Cline's saved task history
(``api_conversation_history.json``) is a list of these messages too, with fields of its own beside them
(cline/cline ``src/shared/messages/content.ts`` at commit 60c5f9f2).

Who wrote a user message: a run starts with what a person typed, never with text the agent's harness wrote into a
user message itself. Cline writes a tool's result as user text when the call has no id to answer
(``[read_file for 'a.py'] Result: ...``, ``ToolResultUtils.pushToolResult`` in ``src/core/task/tools/utils/`` at
60c5f9f2), and adds the workspace's state (``<environment_details>``), its own error notes (``[ERROR] ...``) and a
resumed task's notice (``[TASK RESUMPTION] ...``); the person's own words it wraps in ``<task>``, ``<feedback>``,
``<answer>`` or ``<user_message>`` (``src/core/slash-commands/index.ts``). :func:`is_prompt` reads a user message so."""

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


#: The start of a tool's result that Cline wrote as user text: ``[<tool> for '<what>'] Result:`` or ``[<tool>] Result:``.
_CLINE_RESULT = re.compile(r"\[[^\]\n]{1,200}\] Result:")
#: Tags in which Cline wraps what the person typed.
_PERSON_TAGS = re.compile(r"<(?:task|feedback|answer|user_message)>")
#: The starts of text Cline writes into a user message itself.
_CLINE_NOTES = ("<environment_details>", "[ERROR]", "[TASK RESUMPTION]", "<hook_context")


def is_tool_result_text(text: str) -> bool:
    """Is ``text`` a tool's result that Cline wrote as user text?

    >>> is_tool_result_text("[read_file for 'src/dates.py'] Result:\\n1 | def parse_date"), is_tool_result_text("fix it")
    (True, False)
    """
    return bool(_CLINE_RESULT.match(text.lstrip()))


def typed_by_a_person(text: str) -> bool:
    """Could a person have typed ``text``? Not a tool's result, nor a note the harness wrote, unless the person's
    own words are wrapped in it (Cline puts a person's feedback inside a tool's result).

    >>> typed_by_a_person("<environment_details>\\n# Current Time"), typed_by_a_person("[execute_command for 'ls'] "
    ...     "Result:\\nThe user denied this operation and provided the following feedback:\\n<feedback>\\nuse make\\n</feedback>")
    (False, True)
    """
    if _PERSON_TAGS.search(text):
        return True
    start = text.lstrip()
    return not (is_tool_result_text(start) or start.startswith(_CLINE_NOTES))


def user_texts(content: Any, blocks: list | None) -> list[str]:
    """The text of a user message: its string content, or its ``text`` blocks."""
    if blocks is None:
        return [content] if isinstance(content, str) else []
    return [b["text"] for b in blocks if is_map(b) and b.get("type") == "text" and isinstance(b.get("text"), str)]


def is_prompt(blocks: list | None, content: Any = None) -> bool:
    """A user message a person typed: some text a person could have typed (or an image they pasted), not only
    ``tool_result`` blocks and text the harness wrote (see :func:`typed_by_a_person`); an empty message counts as
    typed, as it always has."""
    if blocks is not None and not blocks:
        return True
    if blocks is not None and any(is_map(b) and b.get("type") == "image" for b in blocks):
        return True
    return any(typed_by_a_person(text) for text in user_texts(content, blocks))


def holds_results(blocks: list | None, content: Any = None) -> bool:
    """Does a user message carry tool results: ``tool_result`` blocks, or a result Cline wrote as text?"""
    if blocks is not None and any(is_map(b) and b.get("type") == "tool_result" for b in blocks):
        return True
    return any(is_tool_result_text(text) for text in user_texts(content, blocks))


def read(record: Mapping, where: str) -> Message | None:
    """A message with a ``user`` or ``assistant`` role and the calls in its ``tool_use`` blocks.

    >>> read({"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "ls", "input": {}}]}, "m").calls
    [{'name': 'ls', 'args': {}, 'id': 't'}]
    """
    message = _unwrapped(record)
    role = message.get("role", record.get("role"))
    if role not in ("user", "assistant", "system"):
        return None
    content = message.get("content")
    blocks = content_blocks(content, where)
    calls = block_calls(blocks, where)
    if calls and role != "assistant":
        raise TraceError(f"{where}: a {role!r} message carries tool calls; expected them on an assistant message")
    user = role == "user"
    return Message(calls, user_prompt=user and is_prompt(blocks, content),
                   results=user and holds_results(blocks, content))


def _unwrapped(record: Mapping) -> Mapping:
    """The message inside ``{"role", "message": {"content"}}`` when the record has no ``type``; the record itself
    otherwise."""
    inner = record.get("message")
    if "type" not in record and "content" not in record and is_map(inner) and "content" in inner:
        return inner
    return record


FORMAT = Format("anthropic", read, call_keys=("content", "message"))
