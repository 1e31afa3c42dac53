"""SWE-agent and mini-swe-agent trajectories, whose calls are shell commands rather than structured tool calls.

- **SWE-agent** (``*.traj``: ``{"trajectory": [{"action", "observation", "thought", "response", ...}], "history",
  "info"}``, SWE-agent/SWE-agent ``sweagent/types.py``): each step's ``action`` is the command SWE-agent ran in its
  shell, so it becomes one call ``bash`` with ``{"command": action}``, action text as recorded.
- **mini-swe-agent v1** (``{"trajectory_format": "mini-swe-agent-1", "messages": [...], "info"}``): the action is
  the one ```` ```bash ```` code fence in an assistant message, found with mini-swe-agent's own pattern and stripped
  as it strips it (SWE-agent/mini-swe-agent ``src/minisweagent/agents/default.py``); the call is ``bash`` with
  ``{"command": ...}``. A message with no fence or with several ran nothing (mini-swe-agent answers with a format
  error), so it has no call. Its observations come back as ``user`` messages, so none is counted as a new prompt.

Both are fixed translations into ``{"command": ...}``: neither format records arguments of its own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .base import Format, Message, TraceError

#: mini-swe-agent v1's action pattern: exactly one match is an action.
ACTION_FENCE = re.compile(r"```bash\s*\n(.*?)\n```", re.DOTALL)
STEP_KEYS = ("observation", "thought", "response")


def read_step(record: Mapping, where: str) -> Message | None:
    """A SWE-agent trajectory step; its ``action`` is one ``bash`` call.

    >>> read_step({"action": "ls -la\\n", "observation": "a.py", "thought": "look"}, "x.traj").calls
    [{'name': 'bash', 'args': {'command': 'ls -la\\n'}, 'id': None}]
    """
    if "action" not in record or "source" in record or not any(key in record for key in STEP_KEYS):
        return None
    action = record["action"]
    if action is None or action == "":
        return Message()
    if not isinstance(action, str):
        raise TraceError(f"{where}: a SWE-agent step's 'action' must be the command string, got "
                         f"{type(action).__name__}")
    return Message([{"name": "bash", "args": {"command": action}, "id": None}])


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # a list of {"type": "text", "text": ...} parts
        return "".join(part.get("text", "") for part in content if isinstance(part, dict)
                       and isinstance(part.get("text"), str))
    return ""


def read_message(record: Mapping, where: str) -> Message | None:
    """A mini-swe-agent message; an assistant message with exactly one bash fence is one ``bash`` call.

    >>> read_message({"role": "assistant", "content": "THOUGHT: look\\n```bash\\nls -la\\n```"}, "t.json").calls
    [{'name': 'bash', 'args': {'command': 'ls -la'}, 'id': None}]
    """
    role = record.get("role")
    if role not in ("system", "user", "assistant", "tool"):
        return None
    if role != "assistant":
        return Message()
    actions = ACTION_FENCE.findall(_text(record.get("content")))
    if len(actions) != 1:
        return Message()
    return Message([{"name": "bash", "args": {"command": actions[0].strip()}, "id": None}])


SWE_AGENT = Format("swe-agent", read_step, call_keys=("action",), distinctive=True)
MINI_SWE_AGENT = Format("mini-swe-agent", read_message, call_keys=("content",), auto=False)
