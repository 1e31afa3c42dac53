"""mini-swe-agent trajectories, every version: ``{"info", "messages": [...], "trajectory_format": "mini-swe-agent-1"
| "mini-swe-agent-1.1"}``, or the bare list of messages. Its one tool is ``bash`` with ``{"command": ...}``.

Where the action is, in each version (SWE-agent/mini-swe-agent; the 2.x paths at commit a83fcae8, the 1.x ones at
tag v1.17.5, commit 68d367bf):

- **1.x** (``mini-swe-agent-1``): the one ```` ```bash ```` code fence of an assistant message (``action_regex`` in
  ``src/minisweagent/agents/default.py``); a message with none or several is a format error that ran nothing, so it
  has no call. The fence is stripped as mini-swe-agent strips it.
- **2.x, tool calling** (``mini-swe-agent-1.1``; ``models/utils/actions_toolcall.py``): OpenAI-shaped ``tool_calls``
  on the assistant message, each a ``bash`` call whose ``arguments`` stay the JSON string sent.
- **2.x, text** (``models/litellm_textbased_model.py``, ``config/benchmarks/swebench_xml.yaml``): one
  ```` ```mswea_bash_command ```` fence, or one ``<mswea_bash_command>`` tag. In 2.x a reply that fails to parse is
  never saved as an assistant message (only its error is, as a ``user`` message), so every assistant message ran.

When a message holds a fence named for mini-swe-agent, only those count (a ```` ```bash ```` fence beside it is text
in 2.x). A ```` ```bash ```` fence alone is read only when the file says mini-swe-agent or ``--format`` does: any chat
may hold one. The ``trajectory_format`` marker only suggests the format; the content decides (a 1.1 file's tool
calls are read whatever the marker). Observations come back as ``user`` or ``tool`` messages, so none is counted as a
new prompt; the final ``exit`` message is skipped and counted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .base import Format, Message, Skipped, as_list, is_map, openai_calls

__all__ = ["FORMAT", "read", "detect", "text_of", "v1_actions"]

#: mini-swe-agent 1.x's action pattern (``action_regex``): exactly one match is an action.
V1_FENCE = re.compile(r"```bash\s*\n(.*?)\n```", re.DOTALL)
#: mini-swe-agent 2.x's text patterns: its default fence and the tag of its XML config.
V2_PATTERNS = (re.compile(r"```mswea_bash_command\s*\n(.*?)\n```", re.DOTALL),
               re.compile(r"<mswea_bash_command>(.*?)</mswea_bash_command>", re.DOTALL))
ROLES = ("system", "user", "assistant", "tool")


def text_of(content: Any) -> str:
    """A message's text: the string, or the ``text`` of its ``{"type": "text", "text": ...}`` parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part["text"] for part in content if is_map(part) and isinstance(part.get("text"), str))
    return ""


def _bash(commands: list[str]) -> list:
    return [{"name": "bash", "args": {"command": command.strip()}, "id": None} for command in commands]


def v2_actions(text: str) -> list[str] | None:
    """The commands of the 2.x text patterns; None when the text holds none (it is not a 2.x text message)."""
    found = [match for pattern in V2_PATTERNS for match in pattern.findall(text)]
    return found or None


def v1_actions(text: str) -> list[str]:
    """The 1.x action: the one ```` ```bash ```` fence, or nothing when there is not exactly one."""
    found = V1_FENCE.findall(text)
    return found if len(found) == 1 else []


def _calls(record: Mapping, where: str, *, fences: bool) -> list:
    entries = as_list(record.get("tool_calls"), where, "'tool_calls'")
    if entries:
        return openai_calls(entries, where, "tool_calls")
    text = text_of(record.get("content"))
    named = v2_actions(text)
    if named is not None:
        return _bash(named)
    return _bash(v1_actions(text)) if fences else []


def _read(record: Mapping, where: str, *, fences: bool) -> Message | Skipped | None:
    role = record.get("role")
    if role == "exit":  # the last message: why the run ended (LimitsExceeded, Submitted...)
        return Skipped("exit")
    if role not in ROLES or "type" in record:
        return None
    if role != "assistant":
        return Message()
    return Message(_calls(record, where, fences=fences))


def read(record: Mapping, where: str) -> Message | Skipped | None:
    """A mini-swe-agent message and its ``bash`` calls, in any of its versions.

    >>> read({"role": "assistant", "content": "THOUGHT: look\\n```bash\\nls -la\\n```"}, "t.json").calls
    [{'name': 'bash', 'args': {'command': 'ls -la'}, 'id': None}]
    """
    return _read(record, where, fences=True)


def detect(record: Mapping, where: str) -> Message | Skipped | None:
    """Only what tells mini-swe-agent from any chat: a fence or tag named for it.

    >>> detect({"role": "assistant", "content": "```bash\\nls\\n```"}, "t.json").calls
    []
    """
    if record.get("role") == "assistant" and as_list(record.get("tool_calls"), where, "'tool_calls'"):
        return Message()  # OpenAI-shaped calls: openai-chat reads them, and reads them the same
    return _read(record, where, fences=False)


FORMAT = Format("mini-swe-agent", read, call_keys=("content",), detect=detect)
